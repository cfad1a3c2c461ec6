'use strict';

const headers = require('./lib/headers');
const respond = require('./lib/respond');

function handle(rawRequest) {
  const [, ...headerLines] = rawRequest.split('\n');
  const reqHeaders = headers.parse(headerLines.join('\n'));
  const res = { statusCode: 0, headers: {}, body: '' };
  const user = headers.getHeader(reqHeaders, 'X-User') || 'anonymous';
  respond.negotiate(reqHeaders, res, { message: `hello ${user}` });
  return res;
}

console.log(handle('GET / HTTP/1.1\nContent-Type: application/json; charset=utf-8\nX-User: ada'));
console.log(handle('GET / HTTP/1.1\nContent-Type: text/plain'));
