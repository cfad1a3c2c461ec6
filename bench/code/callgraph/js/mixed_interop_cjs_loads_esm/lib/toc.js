'use strict';

const slug_1 = require('./slug');

function buildToc(md) {
  return md
    .split('\n')
    .filter((line) => line.startsWith('# '))
    .map((line, i) => ({ title: line.slice(2), id: (0, slug_1.slugId)(line.slice(2), i) }));
}

module.exports = { buildToc };
