'use strict';

let seq = 0;
const storage = new Map();

class Model {
  constructor(attrs = {}) {
    this.attrs = { createdAt: new Date(0), ...attrs };
    this.id = null;
  }

  validate() {
    return this.attrs.createdAt instanceof Date ? [] : ['createdAt is invalid'];
  }

  save() {
    const errors = this.validate();
    if (errors.length > 0) throw new Error(`${this.constructor.name}: ${errors.join(', ')}`);
    if (this.id === null) this.id = nextId();
    storage.set(this.id, this.serialize());
    return this;
  }

  serialize() {
    return { id: this.id, type: this.constructor.name, ...this.attrs };
  }
}

function nextId() {
  seq += 1;
  return seq;
}

function all() {
  return [...storage.values()];
}

module.exports = { Model, all };
