"""How new memories enter the file's tables (migration 014): a few at a time into the small memories_recent, moved
on to memories_stored in one append once FOLD_ROWS have gathered; a batch straight into memories_stored.

DuckDB's checkpoint rewrites the last segment of a table that grew, vectors and all: into the small table one
memory costs its detach 15-25 ms, into the big one ~113 ms at 10,000 memories (docs/design.md). Used by
store_memories (learnmem.memory.memories) and by the fold of the journal (learnmem.storage.journal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from learnmem.storage import sql

if TYPE_CHECKING:
    import pyarrow as pa

FOLD_ROWS = 64


def insert_rows(con, rows: pa.Table, numbered: bool) -> list[tuple[str, int]]:
    """Insert new memories (arrow_rows' shape): a few into memories_recent, moved on once FOLD_ROWS have gathered,
    a batch straight into memories_stored; with `numbered` (a file), the (id, seq) each was given."""
    con.register("new_memories", rows)
    batch = len(rows) >= FOLD_ROWS
    given = con.execute(sql.query("insert_memories").format(
        table="memories_stored" if batch else "memories_recent",
        returning="RETURNING id, seq" if numbered else "")).fetchall()
    con.unregister("new_memories")
    if not batch and con.execute(sql.query("recent_memory_count")).fetchone()[0] >= FOLD_ROWS:
        con.execute(sql.query("fold_recent_memories"))
        con.execute(sql.query("clear_folded_memories"))
    return given
