"""Service code decorated with utils' retry/timing/memoize and stdlib lru_cache."""
import functools

from utils import memoize, retry, timed

attempts = {"n": 0}


@retry(times=3, exceptions=(ConnectionError,))
def fetch_config(url):
    attempts["n"] += 1
    if attempts["n"] < 2:
        raise ConnectionError(url)
    return {"url": url, "debug": False}


@timed
@memoize
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@functools.lru_cache(maxsize=None)
def parse_flag(text):
    return text.lower() in ("1", "true", "yes")


class Service:
    @timed
    def start(self):
        return bool(fetch_config("http://cfg/service")) and parse_flag("yes")


if __name__ == "__main__":
    print(fib(12), fib.last_duration >= 0)
    print(Service().start(), parse_flag("YES"))
