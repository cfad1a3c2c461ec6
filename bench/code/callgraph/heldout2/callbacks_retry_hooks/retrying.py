"""A tenacity-like retry runner driven by user-supplied callbacks."""


class RetryError(Exception):
    pass


def _no_sleep(seconds):
    pass


class Retrying:
    def __init__(self, attempts=3, retry_if=None, before_sleep=None, on_give_up=None, sleep=None):
        self.attempts = attempts
        self.retry_if = retry_if or (lambda exc: True)
        self.before_sleep = before_sleep
        self.on_give_up = on_give_up
        self.sleep = sleep or _no_sleep

    def __call__(self, fn, *args):
        for attempt in range(1, self.attempts + 1):
            try:
                return fn(*args)
            except Exception as exc:
                if not self.retry_if(exc) or attempt == self.attempts:
                    if self.on_give_up:
                        self.on_give_up(attempt, exc)
                    raise RetryError(repr(exc)) from exc
                if self.before_sleep:
                    self.before_sleep(attempt, exc)
                self.sleep(0.01 * attempt)
