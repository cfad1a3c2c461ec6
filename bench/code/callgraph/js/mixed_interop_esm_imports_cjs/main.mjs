import { createRequire } from 'node:module';
import config from './lib/config.cjs';
import { parse } from './lib/qs.cjs';
import { pageLinks } from './lib/paginate.mjs';

const require = createRequire(import.meta.url);
const { stringify } = require('./lib/qs.cjs');

function handleRequest(url) {
  const [path, query = ''] = url.split('?');
  const params = config.fromQuery(query);
  return { path, params, links: pageLinks(path, params, 95), raw: parse(query) };
}

console.log(handleRequest('/items?page=2&size=30&q=red+shoes'));
console.log(stringify({ a: 1, b: 'x y' }));
