'use strict';

const headers = require('./headers');

exports.send = function (res, status, body) {
  res.statusCode = status;
  res.headers['content-length'] = String(Buffer.byteLength(body));
  res.body = body;
  return res;
};

exports.json = function (res, payload) {
  res.headers['content-type'] = 'application/json';
  return exports.send(res, 200, JSON.stringify(payload));
};

exports.negotiate = function (reqHeaders, res, payload) {
  const type = headers.contentType(reqHeaders);
  if (type === 'application/json') return exports.json(res, payload);
  res.headers['content-type'] = 'text/plain';
  return exports.send(res, 200, String(payload.message));
};
