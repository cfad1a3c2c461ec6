import type { ApiResponse } from './types';

const fixtures: Record<string, unknown> = {
  'https://api.test/users/1': { id: 1, name: 'Ada' },
  'https://api.test/users/2': { id: 2, title: 'not a user' },
};

function respond<T>(status: number, data: T): ApiResponse<T> {
  return { status, data };
}

export const fakeFetch = async (url: string): Promise<ApiResponse<unknown>> =>
  url in fixtures ? respond(200, fixtures[url]) : respond(404, null);
