export { ApiClient } from './client';
export { fakeFetch } from './fake-fetch';
export type { User, ApiResponse } from './types';
export { isUser as looksLikeUser } from './types';
