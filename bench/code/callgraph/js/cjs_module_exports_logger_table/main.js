'use strict';

const log = require('./lib/logger');
const table = require('./lib/table');
const pad = require('./lib/pad');

function buildReport(services) {
  const sink = [];
  const rows = [['service', 'status']];
  for (const s of services) {
    rows.push([s.name, s.up ? 'up' : 'down']);
    log(s.up ? 'info' : 'error', 'health', `${s.name} is ${s.up ? 'up' : 'down'}`, sink);
  }
  return { text: table.renderTable(rows), sink };
}

const report = buildReport([{ name: 'api', up: true }, { name: 'db', up: false }]);
console.log(report.text);
console.log(report.sink.join('\n'));
console.log(pad('levels:', 10, '.'), log.LEVELS.filter((l) => log.rank(l) >= 1).join(','));
