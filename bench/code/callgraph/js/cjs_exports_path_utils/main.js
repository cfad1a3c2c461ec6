'use strict';

const utils = require('./lib/utils');
const format = require('./lib/format');

function resolveAll(root, files) {
  return files.map((f) => (utils.isAbsolute(f) ? utils.normalize(f) : utils.join(root, f)));
}

const files = resolveAll('/srv/app', ['src/index.js', '../shared/./lib.js', '/etc/hosts']);
for (const f of files) {
  console.log(format.describe(f), '->', format.relative('/srv/app', f));
}
