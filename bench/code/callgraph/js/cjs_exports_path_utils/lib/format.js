'use strict';

const utils = require('./utils');

exports.relative = function (from, to) {
  const a = utils.normalize(from).split('/');
  const b = utils.normalize(to).split('/');
  let i = 0;
  while (i < a.length && a[i] === b[i]) i += 1;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/') || '.';
};

exports.describe = function (p) {
  return `${p} (${utils.extname(p) || 'no extension'})`;
};
