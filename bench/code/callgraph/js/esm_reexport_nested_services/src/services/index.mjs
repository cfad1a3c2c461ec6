import { hashId } from '../util/ids.mjs';

export { UserService } from './user-service.mjs';
export * as billing from './billing.mjs';
export { hashId as makeId };
