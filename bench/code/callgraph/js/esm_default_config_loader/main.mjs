import defaults from './lib/defaults.mjs';
import parse from './lib/parse-args.mjs';
import readEnv from './lib/env.mjs';

export default function loadConfig(argv, env) {
  const base = defaults.values();
  const fromEnv = readEnv(env);
  const fromArgs = parse(argv);
  return { ...base, ...fromEnv, ...fromArgs };
}

const config = loadConfig(['--port=9000', '--verbose'], { APP_HOST: '0.0.0.0', HOME: '/root' });
console.log(config);
console.log(defaults.describe('port'));
