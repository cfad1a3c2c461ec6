'use strict';

const rows = [];
let nextId = 1;

function insert(table, record) {
  const row = { id: nextId++, table, ...record };
  rows.push(row);
  return row;
}

function select(table, where = () => true) {
  return rows.filter((r) => r.table === table && where(r));
}

function count(table) {
  return select(table).length;
}

module.exports = { insert, select, count };
