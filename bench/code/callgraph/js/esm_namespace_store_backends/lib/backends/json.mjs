const files = {};

export const name = 'json';

function encode(value) {
  return JSON.stringify(value);
}

function decode(text) {
  return text === undefined ? null : JSON.parse(text);
}

export function read(key) {
  return decode(files[`${key}.json`]);
}

export function write(key, value) {
  files[`${key}.json`] = encode(value);
  return true;
}
