import { chunk, getPath, debounce, clock } from './lib/index.mjs';
import * as _ from './lib/index.mjs';

const settings = { ui: { theme: 'dark', panels: [['a', 'b', ''], ['c', ['d', 'a']]] } };

function report(label, value) {
  console.log(`${label}:`, JSON.stringify(value));
}

function summarize(config) {
  const copy = _.cloneDeep(config);
  _.set(copy, 'ui.theme', 'light');
  const panels = _.uniq(_.compact(_.flatten(getPath(copy, 'ui.panels', []))));
  return {
    theme: getPath(copy, 'ui.theme'),
    original: getPath(config, ['ui', 'theme']),
    pages: chunk(panels, 2),
  };
}

clock.freezeAt(1000);
const logOnce = debounce((value) => report('summary', value), 500);
logOnce(summarize(settings));
logOnce(summarize(settings));
console.log('version', _.VERSION);
