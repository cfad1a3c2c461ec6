'use strict';

const { Emitter } = require('./emitter');

class Job {
  constructor(name, steps) {
    this.name = name;
    this.steps = steps;
    this.events = new Emitter();
    this.results = [];
  }

  onProgress(fn) {
    this.events.on('progress', fn);
    return this;
  }

  onDone(fn) {
    this.events.once('done', fn);
    return this;
  }

  runStep(step, index) {
    const value = step.size * 2;
    this.results.push(value);
    this.events.emit('progress', { job: this.name, step: step.name, done: index + 1, total: this.steps.length });
    return value;
  }

  run() {
    this.steps.forEach((step, i) => this.runStep(step, i));
    this.events.emit('done', this.summary());
    this.events.emit('done', 'ignored: the once-handler is gone');
    return this;
  }

  summary() {
    const total = this.results.reduce((a, b) => a + b, 0);
    return `${this.name}: ${this.results.length} steps, total ${total}`;
  }
}

module.exports = Job;
