'use strict';

const User = require('./user');

class Admin extends User {
  serialize() {
    return { ...super.serialize(), permissions: this.permissions() };
  }

  permissions() {
    return this.attrs.role === 'owner' ? ['*'] : ['read', 'write'];
  }

  displayName() {
    return `${super.displayName()} [admin]`;
  }
}

module.exports = Admin;
