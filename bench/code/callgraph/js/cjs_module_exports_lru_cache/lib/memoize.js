'use strict';

const LRUCache = require('./lru');

function keyFor(args) {
  return JSON.stringify(args);
}

module.exports = function memoize(fn, { max = 100 } = {}) {
  const cache = new LRUCache(max);
  return (...args) => {
    const key = keyFor(args);
    if (cache.has(key)) return cache.get(key);
    const result = fn(...args);
    cache.set(key, result);
    return result;
  };
};
