"""Progress of long jobs (indexing): a one-line bar on stderr when it is a terminal, or a caller's callback.

A long library call takes `progress`: True (the bar, when stderr is a terminal), False (nothing), or a
callback `report(done, total, count)` called as the job advances (the MCP server's jobs report through it).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

# report(done, total, count): items done of a total (0 while unknown), and the job's extra counter.
ProgressCallback = Callable[[int, int, int], None]


class Progress:
    """`[#####.....] files 120/400  units embedded 950  ETA 12 s`: items done of a total, one extra counter."""

    WIDTH = 28

    def __init__(self, enabled: bool | ProgressCallback, items: str, counter: str = "", total: int = 0):
        self.report = enabled if callable(enabled) else None
        self.enabled = enabled is True and sys.stderr.isatty()
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
        if self.report is not None:
            self.report(self.done, self.total, self.count)
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
