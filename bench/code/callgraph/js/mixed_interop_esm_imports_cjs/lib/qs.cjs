'use strict';

function decode(s) {
  return decodeURIComponent(s.replace(/\+/g, ' '));
}

exports.parse = function parse(query) {
  const out = {};
  for (const pair of query.replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const [k, v = ''] = pair.split('=');
    out[decode(k)] = decode(v);
  }
  return out;
};

exports.stringify = function (obj) {
  return Object.entries(obj)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
};
