'use strict';

module.exports = class Stopwatch {
  constructor(clock = () => Date.now()) {
    this.clock = clock;
    this.laps = [];
    this.started = null;
  }

  start() {
    this.started = this.clock();
    return this;
  }

  lap(label) {
    this.laps.push({ label, ms: this.clock() - this.started });
    return this;
  }
};
