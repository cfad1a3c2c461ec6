import { now } from './clock.mjs';

export default function debounce(fn, wait = 0) {
  let last = -Infinity;
  return (...args) => {
    const t = now();
    if (t - last < wait) return undefined;
    last = t;
    return fn(...args);
  };
}
