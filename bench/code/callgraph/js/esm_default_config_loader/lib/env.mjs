const PREFIX = 'APP_';

const pick = (env, prefix) =>
  Object.entries(env).filter(([key]) => key.startsWith(prefix));

export default (env = process.env) => {
  const out = {};
  for (const [key, value] of pick(env, PREFIX)) {
    out[key.slice(PREFIX.length).toLowerCase()] = value;
  }
  return out;
};
