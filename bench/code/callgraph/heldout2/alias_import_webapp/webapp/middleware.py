import time


def add_headers(response):
    status, body = response
    return status, body, {"X-Frame-Options": "DENY"}


class Timer:
    def __init__(self, clock=time.perf_counter):
        self.clock = clock

    def __enter__(self):
        self.start = self.clock()
        return self

    def __exit__(self, *exc_info):
        self.elapsed = self.clock() - self.start
        return False
