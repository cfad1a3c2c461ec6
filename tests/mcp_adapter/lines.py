"""Lines read from a child's stdout with a time limit.

`select` on a pipe says whether the *pipe* holds bytes, not whether Python's buffer does: after a
`readline()` on a buffered stream took two answers out of the pipe, a `select` for the second waits
forever. So the reader keeps its own buffer and asks the pipe only when that buffer holds no whole line.
"""

from __future__ import annotations

import os
import select
import time
from typing import IO


class LineReader:
    """Reads whole lines from a pipe's file descriptor, each within a time limit."""

    def __init__(self, pipe: IO[bytes]):
        self.fd = pipe.fileno()
        self.pending = b""

    def readline(self, timeout_s: float) -> bytes | None:
        """The next line, b"" once the writer has closed the pipe, or None if none came within `timeout_s`."""
        deadline = time.monotonic() + timeout_s
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.fd], [], [], max(left, 0))
            if not ready:
                return None
            chunk = os.read(self.fd, 65536)
            if not chunk:
                line, self.pending = self.pending, b""
                return line
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line + b"\n"
