'use strict';

class LRUCache {
  constructor(max = 50) {
    this.max = max;
    this.map = new Map();
  }

  get(key) {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key);
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key, value) {
    if (this.map.has(key)) this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.evict();
    return this;
  }

  evict() {
    const oldest = this.map.keys().next().value;
    this.map.delete(oldest);
    return oldest;
  }

  has(key) {
    return this.map.has(key);
  }
}

module.exports = LRUCache;
