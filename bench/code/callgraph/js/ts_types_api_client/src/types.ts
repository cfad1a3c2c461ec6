export interface User {
  id: number;
  name: string;
  email?: string;
}

export interface ApiResponse<T> {
  status: number;
  data: T;
}

export type Fetcher = (url: string) => Promise<ApiResponse<unknown>>;

export function isUser(value: unknown): value is User {
  return typeof value === 'object' && value !== null && 'id' in value && 'name' in value;
}
