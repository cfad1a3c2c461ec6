"""Configures retrylib by rebinding its module attributes, the way a test suite monkeypatches it."""
import retrylib
from retrylib import call_with_retry, linear as lin

SLEPT = []
state = {"calls": 0}


def fake_sleep(seconds):
    SLEPT.append(round(seconds, 3))


def flaky_fetch():
    state["calls"] += 1
    if state["calls"] < 3:
        raise ConnectionError("connection reset by peer")
    return "payload"


def main():
    retrylib.sleep = fake_sleep
    print(call_with_retry(flaky_fetch, attempts=5))
    retrylib.backoff = lin
    state["calls"] = 0
    print(call_with_retry(flaky_fetch, attempts=5))
    retrylib._real_sleep(0)
    print(SLEPT, retrylib.jittered(1) > 0)


if __name__ == "__main__":
    main()
