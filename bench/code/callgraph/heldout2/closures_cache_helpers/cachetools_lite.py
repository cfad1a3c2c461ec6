"""Caching and rate-limiting helpers built from closures."""


def memoize(fn):
    cache = {}

    def lookup(*args):
        if args not in cache:
            cache[args] = fn(*args)
        return cache[args]

    def clear():
        cache.clear()

    lookup.clear = clear
    return lookup


def make_counter(start=0):
    count = start

    def increment(step=1):
        nonlocal count
        count += step
        return count

    def reset():
        nonlocal count
        count = start

    return increment, reset


def rate_limiter(limit, clock):
    calls = []

    def allow():
        now = clock()
        calls[:] = [t for t in calls if now - t < 1.0]
        if len(calls) < limit:
            calls.append(now)
            return True
        return False

    return allow
