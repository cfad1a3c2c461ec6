'use strict';

const User = require('./lib/user');
const Admin = require('./lib/admin');
const { all } = require('./lib/model');

function seed() {
  const ada = new User({ name: 'Ada', email: 'ada@example.com' }).save();
  const root = new Admin({ name: 'Root', email: 'root@example.com', role: 'owner' }).save();
  return [ada, root];
}

const users = seed();
for (const u of users) console.log(u.displayName());
try {
  new User({ name: 'Nobody' }).save();
} catch (err) {
  console.log('rejected:', err.message);
}
console.log(all());
