import * as memory from './lib/backends/memory.mjs';
import * as json from './lib/backends/json.mjs';
import { Store } from './lib/store.mjs';

function roundTrip(store, key, value) {
  store.set(key, value);
  return store.get(key);
}

const stores = [new Store(memory), new Store(json)];
for (const store of stores) {
  const value = roundTrip(store, 'user:1', { name: 'Ada' });
  console.log(store.describe(), value);
}

memory.clear();
console.log('after clear:', memory.read('user:1'));
