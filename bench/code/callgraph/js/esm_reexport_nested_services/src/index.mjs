export * from './services/index.mjs';
export { default as Logger } from './logger.mjs';
