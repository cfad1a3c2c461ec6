"""A one-line progress bar for long jobs (indexing), drawn on stderr only when it is a terminal."""

from __future__ import annotations

import sys
import time


class Progress:
    """`[#####.....] files 120/400  units embedded 950  ETA 12 s`: items done of a total, one extra counter."""

    WIDTH = 28

    def __init__(self, enabled: bool, items: str, counter: str = "", total: int = 0):
        self.enabled = enabled and sys.stderr.isatty()
        self.items = items
        self.counter = counter
        self.total = total
        self.done = 0
        self.count = 0
        self.started = time.monotonic()

    def advance_to(self, done: int) -> None:
        self.done = done
        self._draw()

    def add(self, count: int) -> None:
        self.count += count
        self._draw()

    def _draw(self) -> None:
        if not self.enabled or not self.total:
            return
        elapsed = time.monotonic() - self.started
        eta = elapsed / max(self.done, 1) * (self.total - self.done)
        filled = self.WIDTH * self.done // self.total
        bar = "#" * filled + "." * (self.WIDTH - filled)
        extra = f"  {self.counter} {self.count}" if self.counter else ""
        sys.stderr.write(f"\r[{bar}] {self.items} {self.done}/{self.total}{extra}  ETA {eta:.0f} s   ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled and self.total:
            sys.stderr.write("\n")
