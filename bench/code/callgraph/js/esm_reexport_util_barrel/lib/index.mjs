export * from './array.mjs';
export { get as getPath, set, cloneDeep } from './object.mjs';
export { default as debounce } from './debounce.mjs';
export * as clock from './clock.mjs';

export const VERSION = '0.1.0';
