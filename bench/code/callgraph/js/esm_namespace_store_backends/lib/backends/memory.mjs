const data = new Map();

export const name = 'memory';

export function read(key) {
  return data.has(key) ? data.get(key) : null;
}

export function write(key, value) {
  data.set(key, value);
  return true;
}

export function clear() {
  data.clear();
}
