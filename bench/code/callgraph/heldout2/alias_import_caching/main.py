"""A read-through lookup using cachekit via module and function aliases."""
import cachekit.backends as be
from cachekit import keys
from cachekit.keys import make_key as mk


def cached_lookup(cache, user_id):
    key = mk("user", user_id)
    value = cache.get(key)
    if value is None:
        value = {"id": user_id, "name": "user%d" % user_id}
        cache.set(key, value)
    return value


def main():
    from cachekit import keys as k2

    mem = be.backend_for("memory://local")
    null = be.backend_for("null://")
    for cache in (mem, null):
        cached_lookup(cache, 1)
        cached_lookup(cache, 1)
    print(keys.digest("abc"), k2.normalize({"b": 1, "a": 2}), be.MemoryBackend(ttl=1).ttl)


main()
