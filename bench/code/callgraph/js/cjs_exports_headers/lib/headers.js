'use strict';

function normalizeName(name) {
  return String(name).trim().toLowerCase();
}

function parseHeaders(raw) {
  const out = {};
  for (const line of raw.split(/\r?\n/)) {
    const idx = line.indexOf(':');
    if (idx <= 0) continue;
    out[normalizeName(line.slice(0, idx))] = line.slice(idx + 1).trim();
  }
  return out;
}

exports.parseHeaders = parseHeaders;
exports.parse = parseHeaders;
module.exports.normalizeName = normalizeName;

module.exports.getHeader = function (headers, name) {
  return headers[normalizeName(name)];
};

exports.contentType = (headers) => {
  const value = exports.getHeader(headers, 'Content-Type') || '';
  return value.split(';')[0].trim();
};
