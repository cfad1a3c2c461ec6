"""Compacting memories: groups of near-duplicates become one current memory, the rest superseded by it.

No model writes text inside learnmem, so a group is consolidated into its newest member (the one most
likely to say what is true now), and the older members are superseded by it: nothing is deleted, every
merged id stays reachable (`include_superseded=True`, `superseded_by`), and the group is the provenance.
Corrections are never compacted: each one records a distinct mistake not to repeat.

A group is a connected set of current memories of one category whose cosine reaches COMPACT_THRESHOLD.
It is higher than store_memory's SIMILAR_THRESHOLD (0.6, "look at this") because compacting acts:
bench/dedupe measured no distinct same-subject pair at or above it, and half of the paraphrases. Updates
of a fact group with it too, and then the newest, the update, is the one kept. Dry run by default; an
applied compaction backs the file up first.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from learnmem.storage import backup, sql
from learnmem import validate
from learnmem.memory.items import MEMORY_CATEGORIES
from learnmem.memory.index import MemoryIndex
from learnmem.memory.records import Memory
from learnmem.search.hybrid import one_blas_thread
from learnmem.storage.store import Store, utc_now

COMPACT_THRESHOLD = 0.75
# Corrections say what was wrong, each on its own; conversation turns are a record of what was said.
NEVER_COMPACTED = ("correction", "conversation")
BLOCK_ROWS = 1024  # rows of the similarity matrix computed at once


@dataclass(frozen=True)
class CompactGroup:
    """Memories that say the same thing: `keep` (the newest) stays current, `merged` are superseded by it."""

    keep: Memory
    merged: tuple[Memory, ...]


@dataclass(frozen=True)
class CompactResult:
    """compact_memories: the groups, what was (or, in a dry run, would be) current before and after, and the
    backup made before applying."""

    dry_run: bool
    groups: tuple[CompactGroup, ...]
    memories_before: int
    memories_after: int
    backup: str | None


def compact_memories(store: Store, index: MemoryIndex, category: str | None = None,
                     dry_run: bool = True) -> CompactResult:
    """Group near-duplicate current memories (of `category`, else of every category but NEVER_COMPACTED) and,
    unless `dry_run`, back the file up and supersede each group's older members by its newest."""
    if category is not None:
        validate.choice("category", category, MEMORY_CATEGORIES)
    snapshot = index.snapshot()
    current = snapshot.eligible(None, ())
    categories = [category] if category is not None else [c for c in MEMORY_CATEGORIES if c not in NEVER_COMPACTED]
    groups = []
    for name in categories:
        if name in NEVER_COMPACTED:
            continue
        rows = np.flatnonzero(current & (snapshot.categories == name))
        for members in _components(snapshot.vectors[rows]):
            chosen = sorted((int(rows[m]) for m in members), key=lambda row: -int(snapshot.seq[row]))
            groups.append(CompactGroup(keep=snapshot.memory(chosen[0]),
                                       merged=tuple(snapshot.memory(row) for row in chosen[1:])))
    before = int(current.sum())
    after = before - sum(len(group.merged) for group in groups)
    if dry_run or not groups:
        return CompactResult(dry_run=bool(dry_run), groups=tuple(groups), memories_before=before,
                             memories_after=after, backup=None)
    copy = backup.backup(store)
    now = utc_now()
    with store.write() as con:
        for group in groups:
            for old in group.merged:
                state = {"id": old.id, "by": group.keep.id, "now": now}
                con.execute(sql.query("supersede_known_state"), state)
                con.execute(sql.query("supersede_new_state"), state)
        con.execute(sql.query("count_rewrite"))
    return CompactResult(dry_run=False, groups=tuple(groups), memories_before=before, memories_after=after,
                         backup=str(copy))


def _components(vectors: np.ndarray) -> list[list[int]]:
    """Groups of two or more rows linked by cosine >= COMPACT_THRESHOLD (union-find over the blocks)."""
    parent = list(range(len(vectors)))

    def root(row: int) -> int:
        while parent[row] != row:
            parent[row] = parent[parent[row]]
            row = parent[row]
        return row

    with one_blas_thread():
        for start in range(0, len(vectors), BLOCK_ROWS):
            block = vectors[start:start + BLOCK_ROWS] @ vectors.T
            for i, j in zip(*np.nonzero(block >= COMPACT_THRESHOLD)):
                a, b = root(start + int(i)), root(int(j))
                if a != b:
                    parent[max(a, b)] = min(a, b)
    found: dict[int, list[int]] = {}
    for row in range(len(vectors)):
        found.setdefault(root(row), []).append(row)
    return [members for members in found.values() if len(members) > 1]
