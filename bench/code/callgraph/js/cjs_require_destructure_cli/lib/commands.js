'use strict';

const { green, red: danger } = require('./colors');

function greet({ flags, positional }) {
  const who = positional[0] || 'world';
  return green(`hello ${flags.loudVoice ? who.toUpperCase() : who}`);
}

function fail() {
  return danger('something went wrong');
}

module.exports = { greet, fail };
