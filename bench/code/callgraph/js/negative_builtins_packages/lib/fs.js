'use strict';

// A local wrapper whose file and function names shadow Node built-ins.
// Inside this file, require('fs') and require('path') are still the built-ins.
const fs = require('fs');
const path = require('path');

const cache = new Map();

function readFileSync(file) {
  const abs = path.resolve(file);
  if (!cache.has(abs)) cache.set(abs, fs.readFileSync(abs, 'utf8'));
  return cache.get(abs);
}

function join(...parts) {
  return path.join(...parts);
}

module.exports = { readFileSync, join };
