import HttpClient, { createClient } from './lib/client.mjs';

async function run() {
  const api = createClient('https://api.test');
  const user = await api.get('/users/1');
  const created = await api.post('/users', { name: 'Grace' });
  const raw = new HttpClient('https://api.test');
  try {
    await raw.get('/missing');
  } catch (err) {
    console.log('expected:', err.message);
  }
  return { user, created };
}

run().then((result) => console.log(result));
