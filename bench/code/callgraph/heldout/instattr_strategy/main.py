class MemoryCache:
    def __init__(self):
        self._data = {}

    def get(self, key):
        return self._data.get(key)

    def set(self, key, value):
        self._data[key] = value


class NullCache:
    def get(self, key):
        return None

    def set(self, key, value):
        pass


class Repository:
    def __init__(self, loader, cache=None):
        self.loader = loader
        self.cache = cache if cache is not None else NullCache()

    def fetch(self, key):
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        value = self.loader(key)
        self.cache.set(key, value)
        return value


def load_from_db(key):
    return key.upper()


def main():
    cached = Repository(load_from_db, MemoryCache())
    plain = Repository(str.lower)
    print(cached.fetch("a"), cached.fetch("a"), plain.fetch("B"))


main()
