'use strict';

const { count } = require('./lib/db');
const { createUser: addUser, findByEmail } = require('./lib/models/user');

function bootstrap() {
  const seeded = require('./lib/seed')([
    ['Ada', 'ada@example.com'],
    ['Linus', 'linus@example.com'],
  ]);
  addUser('Grace', 'grace@example.com');
  try {
    addUser('', 'nobody@example.com');
  } catch (err) {
    console.log('rejected:', err.message);
  }
  return seeded;
}

console.log('seeded', bootstrap(), 'total', count('users'));
console.log(findByEmail('grace@example.com'));
