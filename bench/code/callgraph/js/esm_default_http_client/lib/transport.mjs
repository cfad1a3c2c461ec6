const routes = {
  'GET https://api.test/users/1': { id: 1, name: 'Ada' },
  'POST https://api.test/users': { id: 2, created: true },
};

function delayFor(url) {
  return url.length % 7;
}

export default function mockTransport(req) {
  const key = `${req.method} ${req.url}`;
  const body = routes[key] ?? { error: 'not found' };
  return Promise.resolve({
    status: body.error ? 404 : 200,
    headers: { 'content-type': 'application/json' },
    body,
    ms: delayFor(req.url),
  });
}
