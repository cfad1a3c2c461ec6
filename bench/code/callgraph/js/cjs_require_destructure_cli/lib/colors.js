'use strict';

function paint(code, text) {
  return process.stdout.isTTY ? `\u001b[${code}m${text}\u001b[0m` : text;
}

exports.red = (text) => paint(31, text);
exports.green = (text) => paint(32, text);
exports.bold = function (text) {
  return paint(1, text);
};
