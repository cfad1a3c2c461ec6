def make_counter(start=0, step=1):
    count = start

    def increment():
        nonlocal count
        count += step
        return count
    return increment


def make_rate_limiter(limit, clock, window=2):
    calls = []

    def allow():
        now = clock()
        calls[:] = [t for t in calls if now - t < window]
        if len(calls) < limit:
            calls.append(now)
            return True
        return False
    return allow


def main():
    tick = make_counter(10, 5)
    print(tick(), tick())
    fake_clock = make_counter()
    limiter = make_rate_limiter(1, fake_clock)
    print([limiter() for _ in range(4)])


main()
