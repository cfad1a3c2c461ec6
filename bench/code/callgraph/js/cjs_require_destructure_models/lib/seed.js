'use strict';

/**
 * Inserts fixture users. The model module is required lazily, the way seed
 * scripts often avoid loading the data layer until they run.
 *
 * @param {Array<[string, string]>} people [name, email] pairs
 * @returns {number} how many users were created
 */
module.exports = function seed(people) {
  const created = [];
  for (const [name, email] of people) {
    created.push(require('./models/user').createUser(name, email));
  }
  return created.length;
};
