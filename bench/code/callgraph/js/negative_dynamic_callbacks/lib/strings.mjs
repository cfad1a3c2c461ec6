// Local string helpers. `join` and `green` deliberately share their names with
// node:path's join and chalk's green.

/** Joins the truthy parts with `sep`. */
export function join(parts, sep = ', ') {
  return parts.filter(Boolean).join(sep);
}

export function green(text) {
  return `+ ${text}`;
}
