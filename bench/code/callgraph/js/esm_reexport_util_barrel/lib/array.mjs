export function chunk(list, size = 1) {
  const out = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export function compact(list) {
  return list.filter(Boolean);
}

export function uniq(list) {
  return [...new Set(list)];
}

export const flatten = (list) =>
  list.reduce((acc, item) => acc.concat(Array.isArray(item) ? flatten(item) : item), []);
