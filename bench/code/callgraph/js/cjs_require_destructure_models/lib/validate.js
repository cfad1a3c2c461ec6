'use strict';

/**
 * Returns one message per falsy field of `record`.
 *
 * @param {Record<string, unknown>} record
 * @returns {string[]} e.g. ['name is required']
 */
exports.validate = function (record) {
  return Object.entries(record)
    .filter(([, value]) => !value)
    .map(([key]) => `${key} is required`);
};
