const IDENT_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function quoteIdent(name) {
  if (!IDENT_RE.test(name)) throw new Error(`bad identifier: ${name}`);
  return `"${name}"`;
}

export function quoteValue(value) {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  return `'${escapeString(String(value))}'`;
}

function escapeString(s) {
  return s.replace(/'/g, "''");
}
