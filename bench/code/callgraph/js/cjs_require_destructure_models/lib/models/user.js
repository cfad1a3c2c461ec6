'use strict';

const { insert, select: query } = require('../db');
const { validate } = require('../validate');

function createUser(name, email) {
  const errors = validate({ name, email });
  if (errors.length) throw new Error(errors.join(', '));
  return insert('users', { name, email });
}

function findByEmail(email) {
  return query('users', (u) => u.email === email)[0] || null;
}

module.exports = { createUser, findByEmail };
