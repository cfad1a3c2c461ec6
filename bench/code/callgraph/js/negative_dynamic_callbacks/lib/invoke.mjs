export function invoke(target, name, ...args) {
  if (typeof target[name] !== 'function') throw new TypeError(`${name} is not callable`);
  return target[name](...args);
}

export function runLater(cb, ms = 0) {
  return new Promise((resolve) => setTimeout(() => resolve(cb()), ms));
}

export function mapValues(obj, fn) {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, fn(v, k)]));
}
