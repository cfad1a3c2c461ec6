'use strict';

const LEVELS = ['debug', 'info', 'warn', 'error'];

function rank(level) {
  const i = LEVELS.indexOf(level);
  return i === -1 ? LEVELS.length : i;
}

var format = function (level, scope, msg) {
  return `${new Date(0).toISOString()} ${level.toUpperCase()} [${scope}] ${msg}`;
};

module.exports = function log(level, scope, msg, sink = []) {
  if (rank(level) < rank(process.env.BENCH_LOG_LEVEL || 'info')) return sink;
  sink.push(format(level, scope, msg));
  return sink;
};

module.exports.LEVELS = LEVELS;
module.exports.rank = rank;
