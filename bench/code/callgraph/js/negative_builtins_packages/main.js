'use strict';

const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { EventEmitter } = require('events');
const local = require('./lib/fs');

let yaml = null;
try {
  yaml = require('js-yaml'); // optional npm dependency, not part of this case
} catch {
  yaml = null;
}

function checksum(file) {
  const text = fs.readFileSync(file, 'utf8');
  return crypto.createHash('sha256').update(text).digest('hex').slice(0, 12);
}

function parseConfig(text) {
  return yaml ? yaml.load(text) : JSON.parse(text);
}

function watch(emitter) {
  emitter.on('change', (file) => console.log('changed', path.basename(file)));
  emitter.emit('change', path.join(__dirname, 'main.js'));
}

const self = path.join(__dirname, 'main.js');
console.log(checksum(self), local.readFileSync(self).length, local.join('a', 'b'));
console.log(parseConfig('{"port": 8080}'));
watch(new EventEmitter());
