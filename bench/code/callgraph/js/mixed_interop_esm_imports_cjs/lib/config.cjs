'use strict';

const { parse } = require('./qs.cjs');

const DEFAULTS = { page: '1', size: '20' };

function fromQuery(query) {
  return { ...DEFAULTS, ...parse(query) };
}

module.exports = { fromQuery, DEFAULTS };
