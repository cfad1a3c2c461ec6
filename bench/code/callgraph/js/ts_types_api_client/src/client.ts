import type { ApiResponse, Fetcher, User } from './types';
import { isUser } from './types';

export class ApiClient {
  private cache = new Map<string, unknown>();

  constructor(
    private readonly baseUrl: string,
    private readonly fetcher: Fetcher,
  ) {}

  private url(path: string): string {
    return `${this.baseUrl.replace(/\/$/, '')}/${path.replace(/^\//, '')}`;
  }

  async request<T>(path: string): Promise<T> {
    const key = this.url(path);
    if (this.cache.has(key)) return this.cache.get(key) as T;
    const res: ApiResponse<unknown> = await this.fetcher(key);
    if (res.status !== 200) throw new Error(`request failed: ${res.status}`);
    this.cache.set(key, res.data);
    return res.data as T;
  }

  async getUser(id: number): Promise<User> {
    const data = await this.request<unknown>(`/users/${id}`);
    if (!isUser(data)) throw new TypeError('not a user');
    return data;
  }
}
