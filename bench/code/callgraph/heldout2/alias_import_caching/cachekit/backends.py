import time as _time


class MemoryBackend:
    def __init__(self, ttl=60):
        self.ttl = ttl
        self._data = {}

    def get(self, key):
        hit = self._data.get(key)
        if hit and hit[1] > _time.monotonic():
            return hit[0]
        return None

    def set(self, key, value):
        self._data[key] = (value, _time.monotonic() + self.ttl)


class NullBackend:
    def get(self, key):
        return None

    def set(self, key, value):
        pass


def backend_for(url):
    if url.startswith("memory://"):
        return MemoryBackend()
    return NullBackend()
