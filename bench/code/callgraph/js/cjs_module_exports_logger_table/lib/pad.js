'use strict';

/**
 * Right-pads `str` to `width` characters with `ch`.
 * Used by the table renderer and directly by the CLI entry point.
 *
 * @param {unknown} str value to print (converted with String())
 * @param {number} width minimum width
 * @param {string} [ch=' '] padding character
 * @returns {string}
 */

module.exports = function (str, width, ch = ' ') {
  const s = String(str);
  return s.length >= width ? s : s + ch.repeat(width - s.length);
};
