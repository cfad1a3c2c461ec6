'use strict';

const memoize = require('./lib/memoize');
const LRUCache = require('./lib/lru');
const Stopwatch = require('./lib/stopwatch');

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

const fastFib = memoize((n) => fib(n), { max: 10 });

function benchmark() {
  let tick = 0;
  const sw = new Stopwatch(() => (tick += 5)).start();
  fastFib(20);
  sw.lap('cold');
  fastFib(20);
  sw.lap('warm');
  return sw.laps;
}

const recent = new LRUCache(2);
recent.set('a', 1).set('b', 2).set('c', 3);
console.log(benchmark(), [...recent.map.keys()], recent.get('a'));
