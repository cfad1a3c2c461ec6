'use strict';

class Emitter {
  constructor() {
    this.handlers = {};
  }

  on(event, fn) {
    (this.handlers[event] = this.handlers[event] || []).push(fn);
    return this;
  }

  off(event, fn) {
    this.handlers[event] = this.listeners(event).filter((h) => h !== fn);
    return this;
  }

  once(event, fn) {
    const wrapper = (...args) => {
      this.off(event, wrapper);
      fn(...args);
    };
    return this.on(event, wrapper);
  }

  listeners(event) {
    return this.handlers[event] || [];
  }

  emit(event, ...args) {
    const list = this.listeners(event).slice();
    list.forEach((h) => h(...args));
    return list.length > 0;
  }
}

module.exports = { Emitter };
