"""Uses retrying.Retrying with hooks that are bound methods, plain functions and closures."""
from retrying import RetryError, Retrying


class Stats:
    def __init__(self):
        self.sleeps = []
        self.failures = 0

    def record_sleep(self, attempt, exc):
        self.sleeps.append(attempt)

    def give_up(self, attempt, exc):
        self.failures += 1


def is_transient(exc):
    return isinstance(exc, (TimeoutError, ConnectionError))


def make_flaky(failures, exc_type):
    calls = {"n": 0}

    def operation(x):
        calls["n"] += 1
        if calls["n"] <= failures:
            raise exc_type("failure %d" % calls["n"])
        return x * 2
    return operation


def main():
    stats = Stats()
    retrying = Retrying(attempts=4, retry_if=is_transient,
                        before_sleep=stats.record_sleep, on_give_up=stats.give_up)
    print(retrying(make_flaky(2, TimeoutError), 21))
    try:
        retrying(make_flaky(1, KeyError), 1)
    except RetryError as exc:
        print("gave up:", exc)
    quick = Retrying(attempts=2, sleep=lambda seconds: None)
    print(quick(make_flaky(1, ValueError), 5))
    print(stats.sleeps, stats.failures)


main()
