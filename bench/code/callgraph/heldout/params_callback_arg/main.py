import time


def retry(operation, attempts=3, on_error=None):
    for attempt in range(attempts):
        try:
            return operation()
        except ValueError as exc:
            if on_error is not None:
                on_error(attempt, exc)
    raise RuntimeError("gave up")


_state = {"calls": 0}


def flaky():
    _state["calls"] += 1
    if _state["calls"] < 2:
        raise ValueError("not yet")
    return "ok"


def log_failure(attempt, exc):
    print(f"attempt {attempt} failed: {exc}")


def main():
    assert retry(flaky, on_error=log_failure) == "ok"
    started = retry(time.monotonic)   # stdlib callable through the same parameter
    print("done", started > 0)


if __name__ == "__main__":
    main()
