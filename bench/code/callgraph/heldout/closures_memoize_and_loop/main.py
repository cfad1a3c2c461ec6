def memoize(fn):
    cache = {}

    def lookup(key):
        if key not in cache:
            cache[key] = fn(key)
        return cache[key]
    lookup.cache = cache
    return lookup


def slow_square(n):
    return n * n


def format_line(prefix, level, msg):
    return f"{prefix} {level.upper()}: {msg}"


def make_handlers(prefix):
    handlers = []
    for level in ("info", "warn"):
        def handler(msg, level=level):
            return format_line(prefix, level, msg)
        handlers.append(handler)
    return handlers


fast_square = memoize(slow_square)


def main():
    print(fast_square(4), fast_square(4), len(fast_square.cache))
    for handle in make_handlers("app"):
        print(handle("started"))


main()
