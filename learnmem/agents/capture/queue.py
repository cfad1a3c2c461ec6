"""The queue of memories captured from tool output: filled by the PostToolUse hook, flushed at Stop and
SessionEnd (migration 012 says why a queue).

Enqueueing is one short transaction and needs neither the model nor numpy: the hook that does it runs
while the agent waits. Flushing embeds the candidates and drops those that repeat what is known: a current
memory at least REPEAT_SIMILARITY close in meaning (any category), an earlier candidate of the same flush,
an exact duplicate or a restatement (learnmem.memory.dedupe). The rest are stored as memories tagged
`auto-captured` and `tool:<tool>`, at CAPTURED_IMPORTANCE. The queue rows go once the memories are
committed; a flush cut short stores nothing twice (an exact duplicate is not stored again).

A candidate that looks like a credential is never queued, and never stored.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from learnmem.memory import secret_scan
from learnmem.storage import sql
from learnmem import validate
from learnmem.memory.records import FlushResult, QueuedMemory
from learnmem.storage.store import Store, iso, utc_now

if TYPE_CHECKING:
    from learnmem.agents.capture.candidates import Candidate
    from learnmem.embedding.embed import Embedder
    from learnmem.memory.index import MemoryIndex

CAPTURED_TAG = "auto-captured"
CAPTURED_IMPORTANCE = 0.4
# A candidate this close (cosine) to a current memory, or to an earlier candidate, repeats it. Stricter than
# the 0.6 at which store_memory reports similar memories: a captured candidate nobody asked for had better
# be new.
REPEAT_SIMILARITY = 0.85
MAX_LIST = 500


def enqueue(store: Store, found: Sequence[Candidate], session_id: str | None) -> int:
    """Queue the candidates (those whose key is not queued yet), in one transaction; returns how many were
    offered after dropping any that look like credentials."""
    found = [c for c in found if secret_scan.find_secret(c.content) is None]
    if not found:
        return 0
    now = utc_now()
    params = {
        "ids": [f"cap_{now:%Y%m%d_%H%M%S}_{secrets.token_hex(5)}" for _ in found],
        "tools": [c.tool for c in found], "categories": [c.category for c in found],
        "contents": [c.content for c in found], "keys": [c.key for c in found],
        "session_id": session_id if isinstance(session_id, str) and session_id else None, "now": now,
    }
    with store.write() as con:
        con.execute(sql.query("enqueue_captured"), params)
    return len(found)


def queued(store: Store, limit: int = 100) -> list[QueuedMemory]:
    """What waits in the queue, oldest first."""
    limit = validate.integer("limit", limit, low=1, high=MAX_LIST)
    with store.read() as con:
        rows = con.execute(sql.query("queued_captures"), {"limit": limit}).fetchall()
    return [QueuedMemory(row[0], row[1], iso(row[2]), row[3], row[4], row[5]) for row in rows]


def count(store: Store) -> int:
    """How many candidates wait."""
    with store.read() as con:
        return con.execute(sql.query("count_queued_captures")).fetchone()[0]


def discard(store: Store) -> int:
    """Drop every queued candidate; returns how many."""
    with store.write() as con:
        discarded = con.execute(sql.query("count_queued_captures")).fetchone()[0]
        con.execute(sql.query("discard_queued_captures"))
    return discarded


def flush(store: Store, embedder_factory: Callable[[], Embedder], index: MemoryIndex,
          commit_sha: str | None) -> FlushResult:
    """Store the queued candidates that are new as memories and empty the queue (module docstring). The model
    (`embedder_factory()`) loads only when something waits: the Stop hook's usual case needs none."""
    if count(store) == 0:
        return FlushResult(0, (), 0, 0, "learnmem: nothing captured from tool output")
    from learnmem.memory import memories  # numpy too: only when there is something to flush

    waiting = queued(store, limit=MAX_LIST)
    embedder = embedder_factory()
    safe = [q for q in waiting if secret_scan.find_secret(q.content) is None]
    vectors = embedder.embed([q.content for q in safe]) if safe else []
    snapshot = index.snapshot()
    current = snapshot.eligible(None, ())
    fresh, fresh_vectors = [], []
    for candidate, vector in zip(safe, vectors):
        known = current.any() and float(snapshot.similarity(vector)[current].max()) >= REPEAT_SIMILARITY
        if known or any(float(vector @ other) >= REPEAT_SIMILARITY for other in fresh_vectors):
            continue
        fresh.append(candidate)
        fresh_vectors.append(vector)
    items = [{"content": q.content, "category": q.category, "importance": CAPTURED_IMPORTANCE,
              "tags": [CAPTURED_TAG, f"tool:{q.tool.lower()}"]} for q in fresh]
    results = memories.store_memories(store, embedder, items, commit_sha=commit_sha, index=index) if items else []
    stored = tuple(result.id for result in results if not result.duplicate)
    with store.write() as con:
        con.execute(sql.query("delete_queued_captures"), {"ids": [q.id for q in waiting]})
    dropped = len(waiting) - len(safe)
    known = len(safe) - len(stored)
    return FlushResult(len(waiting), stored, known, dropped, _message(len(waiting), len(stored), known, dropped))


def _message(total: int, stored: int, known: int, dropped: int) -> str:
    parts = [f"{known} already known"] if known else []
    parts += [f"{dropped} dropped: it looked like a credential" if dropped == 1 else
              f"{dropped} dropped: they looked like credentials"] if dropped else []
    detail = f" ({'; '.join(parts)})" if parts else ""
    what = "learning" if total == 1 else "learnings"
    return (f"learnmem: kept {stored} of {total} {what} captured from tool output{detail}; "
            f"`learnmem memories --tag {CAPTURED_TAG}` lists them")
