import mockTransport from './transport.mjs';
import withRetry from './retry.mjs';

export default class HttpClient {
  constructor(baseURL, options = {}) {
    this.baseURL = baseURL;
    this.headers = { accept: 'application/json', ...options.headers };
    this.transport = options.transport ?? mockTransport;
  }

  buildURL(path) {
    return path.startsWith('http') ? path : `${this.baseURL}${path}`;
  }

  async request(method, path, body) {
    const req = { method, url: this.buildURL(path), headers: this.headers, body };
    const res = await withRetry(() => this.transport(req), 2);
    if (res.status >= 400) throw new Error(`HTTP ${res.status} for ${req.url}`);
    return res.body;
  }

  get(path) {
    return this.request('GET', path);
  }

  post(path, body) {
    return this.request('POST', path, body);
  }
}

export function createClient(baseURL) {
  return new HttpClient(baseURL, { headers: { 'x-client': 'bench' } });
}
