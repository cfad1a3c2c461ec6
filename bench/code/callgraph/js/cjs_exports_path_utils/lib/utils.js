'use strict';

exports.isAbsolute = function (p) {
  return p.startsWith('/');
};

exports.normalize = function (p) {
  const parts = [];
  for (const seg of p.split('/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return (exports.isAbsolute(p) ? '/' : '') + parts.join('/');
};

exports.join = (...segments) => exports.normalize(segments.filter(Boolean).join('/'));

exports.extname = function extname(p) {
  const base = p.slice(p.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot) : '';
};
