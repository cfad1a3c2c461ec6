const listeners = new Map();

function bucket(event) {
  if (!listeners.has(event)) listeners.set(event, new Set());
  return listeners.get(event);
}

export function on(event, handler) {
  bucket(event).add(handler);
  return () => off(event, handler);
}

export function off(event, handler) {
  bucket(event).delete(handler);
}

function emitEvent(event, payload) {
  let count = 0;
  for (const handler of bucket(event)) {
    handler(payload);
    count += 1;
  }
  return count;
}

export { emitEvent as emit, bucket as _bucket };
