function coerce(value) {
  if (value === undefined) return true;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true' || value === 'false') return value === 'true';
  return value;
}

function parseArgs(argv) {
  const out = {};
  for (const arg of argv) {
    if (!arg.startsWith('--')) continue;
    const [name, raw] = arg.slice(2).split('=');
    out[name] = coerce(raw);
  }
  return out;
}

export { parseArgs as default };
