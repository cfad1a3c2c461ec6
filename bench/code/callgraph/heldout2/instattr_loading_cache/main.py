"""Read-through cache whose loader, clock, eviction policy and evict hook are instance attributes."""
import time


class LRUPolicy:
    def __init__(self, size):
        self.size = size
        self.order = []

    def touch(self, key):
        if key in self.order:
            self.order.remove(key)
        self.order.append(key)

    def victims(self):
        out = []
        while len(self.order) > self.size:
            out.append(self.order.pop(0))
        return out


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def time(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


class LoadingCache:
    def __init__(self, loader, ttl=10, clock=time.monotonic, policy=None):
        self.loader = loader
        self.ttl = ttl
        self.clock = clock
        self.policy = policy or LRUPolicy(2)
        self.entries = {}
        self.on_evict = self._forget

    def _forget(self, key):
        self.entries.pop(key, None)

    def get(self, key):
        hit = self.entries.get(key)
        now = self.clock()
        if hit is None or now - hit[1] > self.ttl:
            hit = self.entries[key] = (self.loader(key), now)
        self.policy.touch(key)
        for victim in self.policy.victims():
            self.on_evict(victim)
        return hit[0]


def load_user(key):
    return {"id": key}


class DbLoader:
    queries = 0

    def __call__(self, key):
        self.queries += 1
        return key * 2


def main():
    clock = FakeClock()
    users = LoadingCache(load_user, clock=clock.time)
    for key in (1, 2, 1, 3):
        users.get(key)
    clock.advance(60)
    users.get(1)
    db = DbLoader()
    numbers = LoadingCache(db, ttl=1)
    numbers.get(5)
    numbers.get(5)
    print(db.queries, sorted(users.entries))


main()
