'use strict';

const pad = require('./pad');

function widths(rows) {
  return rows[0].map((_, col) => Math.max(...rows.map((r) => String(r[col]).length)));
}

function renderRow(row, w) {
  return row.map((cell, i) => pad(cell, w[i])).join(' | ');
}

function renderTable(rows) {
  const w = widths(rows);
  return rows.map((r) => renderRow(r, w)).join('\n');
}

module.exports = { renderTable, renderRow, widths };
