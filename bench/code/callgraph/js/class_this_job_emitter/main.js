'use strict';

const Job = require('./lib/job');

function report(event) {
  console.log(`[${event.job}] ${event.step} ${event.done}/${event.total}`);
}

const job = new Job('build', [
  { name: 'compile', size: 3 },
  { name: 'bundle', size: 5 },
]);
job.onProgress((e) => report(e)).onDone((summary) => console.log('done:', summary));
job.run();
console.log('done listeners left:', job.events.listeners('done').length);
