"""Retry helper whose policy and sleep function are module-level names meant to be rebound."""
import random
import time


def _real_sleep(seconds):
    time.sleep(seconds)


def exponential(attempt, base=0.01):
    return base * (2 ** attempt)


def linear(attempt, base=0.01):
    return base * (attempt + 1)


def jittered(attempt):
    return exponential(attempt) * random.uniform(0.5, 1.0)


sleep = _real_sleep
backoff = linear
backoff = exponential  # v2 default; `linear` stays importable


def call_with_retry(fn, attempts=3):
    for attempt in range(attempts):
        try:
            return fn()
        except ConnectionError:
            delay = backoff(attempt)
            sleep(delay)
    raise RuntimeError("gave up after %d attempts" % attempts)
