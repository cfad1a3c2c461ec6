"""Exercises the closure-based helpers with a fake clock that is itself a pair of closures."""
import time

from cachetools_lite import make_counter, memoize, rate_limiter


def expensive_square(n):
    return n * n


def make_fake_clock():
    t = [0.0]

    def now():
        return t[0]

    def tick(dt):
        t[0] += dt

    return now, tick


def main():
    square = memoize(expensive_square)
    print(square(4), square(4))
    square.clear()
    inc, reset = make_counter(10)
    inc()
    inc(5)
    reset()
    print(inc())
    now, tick = make_fake_clock()
    allow = rate_limiter(2, now)
    print([allow() for _ in range(3)])
    tick(1.5)
    print(allow())
    print(rate_limiter(1, time.monotonic)())


main()
