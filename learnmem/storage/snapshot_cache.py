"""A process-wide snapshot of one table, reloaded only when the file and the table's stats changed.

Searches over code units and commits rank every row in numpy; loading the rows
costs far more than a query, so a long-lived process (the MCP server, a
notebook) keeps them and asks the file's size/mtime first (microseconds), the
table's stats second (one small query), and reloads only when both moved.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

import pyarrow as pa

from learnmem.storage.store import Store

Snapshot = TypeVar("Snapshot")


class SnapshotCache(Generic[Snapshot]):
    """Keeps `build(rows of load_query)` current for one store; `stats_query` says when the rows changed."""

    def __init__(self, store: Store, stats_query: str, load_query: str, build: Callable[[pa.Table], Snapshot]):
        self.store = store
        self._stats_query = stats_query
        self._load_query = load_query
        self._build = build
        self._snapshot: Snapshot | None = None
        self._signature: tuple | None = None
        self._stats: tuple | None = None
        self._lock = threading.Lock()

    def snapshot(self) -> Snapshot:
        """The current snapshot; opens the file only when it changed since the last call."""
        with self._lock:
            signature = self.store.signature()
            if self._snapshot is not None and signature == self._signature:
                return self._snapshot
            with self.store.read() as con:
                stats = con.execute(self._stats_query).fetchone()
                if self._snapshot is None or stats != self._stats:
                    table = con.execute(self._load_query).to_arrow_table().combine_chunks()
                    self._snapshot = self._build(table)
            self._signature, self._stats = signature, stats
            return self._snapshot
