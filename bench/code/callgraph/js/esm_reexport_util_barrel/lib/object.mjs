function toPath(path) {
  return Array.isArray(path) ? path : String(path).split('.').filter(Boolean);
}

export function get(obj, path, fallback) {
  let cur = obj;
  for (const key of toPath(path)) {
    if (cur == null) return fallback;
    cur = cur[key];
  }
  return cur === undefined ? fallback : cur;
}

export function set(obj, path, value) {
  const keys = toPath(path);
  let cur = obj;
  keys.slice(0, -1).forEach((k) => {
    cur[k] = cur[k] ?? {};
    cur = cur[k];
  });
  cur[keys[keys.length - 1]] = value;
  return obj;
}

export function cloneDeep(value) {
  if (Array.isArray(value)) return value.map((item) => cloneDeep(item));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cloneDeep(v)]));
  }
  return value;
}
