"""Which memories get used: accesses counted in batches, and the memories nobody used for a while.

A read-write handle counts every memory that retrieve_memories or get_memory returned, and every
touch_memory. Writing on each read would turn every read into a write (the writer lock, ~10 ms, and no
read beside a notebook holding the file), so the counts wait in the handle and are appended to
`memory_accesses` at most every FLUSH_SECONDS (on the next access after that), when the handle is closed,
and at once for touch_memory. A process killed before its flush loses its latest counts: they are a hint
for reviewing unused memories, not data anyone's work depends on. Read-only handles count nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from datetime import datetime, timedelta

from learnmem.storage import sql
from learnmem import validate
from learnmem.memory.index import MEMORY_COLUMNS, memory_fields
from learnmem.memory.records import StaleMemory
from learnmem.storage.store import Store, iso, utc_now

FLUSH_SECONDS = 60.0
MAX_STALE = 1000


class AccessLog:
    """The accesses a handle counted and has not written yet."""

    def __init__(self, store: Store):
        self.store = store
        self._counts: dict[str, int] = {}
        self._last: dict[str, datetime] = {}
        self._flushed = time.monotonic()
        self._lock = threading.Lock()  # the MCP server calls from worker threads

    def record(self, ids: Iterable[str]) -> None:
        """Count one access of each id; written when FLUSH_SECONDS have passed since the last write."""
        if self.store.read_only:
            return
        now = utc_now()
        with self._lock:
            for memory_id in ids:
                self._counts[memory_id] = self._counts.get(memory_id, 0) + 1
                self._last[memory_id] = now
            due = bool(self._counts) and time.monotonic() - self._flushed >= FLUSH_SECONDS
        if due:
            self.flush()

    def flush(self) -> int:
        """Append the pending counts; returns how many memories they were for."""
        with self._lock:
            counts, last, self._counts, self._last = self._counts, self._last, {}, {}
            self._flushed = time.monotonic()
        if not counts:
            return 0
        ids = sorted(counts)
        try:
            with self.store.write() as con:
                con.execute(sql.query("insert_memory_accesses"), {
                    "ids": ids, "counts": [counts[i] for i in ids], "times": [last[i] for i in ids]})
        except BaseException:
            with self._lock:  # not lost: written with the next flush
                for memory_id in ids:
                    self._counts[memory_id] = self._counts.get(memory_id, 0) + counts[memory_id]
                    self._last[memory_id] = max(last[memory_id], self._last.get(memory_id, last[memory_id]))
            raise
        return len(ids)


def stale_memories(store: Store, days: float = 30, limit: int = 50) -> list[StaleMemory]:
    """Current memories neither used nor stored in the last `days` days, the longest unused first."""
    days = validate.number("days", days, low=0.0, high=100_000)
    limit = validate.integer("limit", limit, low=1, high=MAX_STALE)
    with store.read() as con:
        rows = con.execute(sql.query("stale_memories"),
                           {"before": utc_now() - timedelta(days=days), "limit": limit}).fetchall()
    usage = len(MEMORY_COLUMNS)
    return [StaleMemory(**memory_fields(row), accesses=row[usage],
                        last_accessed_at=iso(row[usage + 1]) if row[usage + 1] else None)
            for row in rows]
