'use strict';

const { Model } = require('./model');

class User extends Model {
  constructor(attrs) {
    super({ role: 'member', ...attrs });
  }

  validate() {
    const errors = super.validate();
    if (!/@/.test(this.attrs.email || '')) errors.push('email is invalid');
    return errors;
  }

  displayName() {
    return `${this.attrs.name} <${this.attrs.email}>`;
  }
}

module.exports = User;
