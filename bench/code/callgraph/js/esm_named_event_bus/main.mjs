import { on, emit as publish } from './lib/bus.mjs';
import { emit, flush } from './lib/log.mjs';

function wire() {
  const stop = on('order:created', (order) => emit('info', `order ${order.id} created`));
  on('order:created', (order) => {
    if (order.total > 100) emit('warn', `large order ${order.id}`);
  });
  return stop;
}

function run() {
  const stop = wire();
  publish('order:created', { id: 1, total: 42 });
  publish('order:created', { id: 2, total: 250 });
  stop();
  publish('order:created', { id: 3, total: 10 });
  return flush();
}

console.log('flushed', run());
