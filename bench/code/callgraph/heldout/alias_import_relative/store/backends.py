class MemoryBackend:
    def __init__(self):
        self._data = {}

    def get(self, key):
        return self._data.get(key)

    def put(self, key, value):
        self._data[key] = value


def make_key(*parts):
    return ":".join(str(p) for p in parts)
