"""The frozen dataclasses learnmem returns.

They are plain values: adapters serialise them with `dataclasses.asdict`.
Times are ISO 8601 strings in UTC ending in `Z`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Memory:
    """A stored memory: one fact, decision, preference, correction..."""

    id: str
    content: str
    category: str
    importance: float
    tags: tuple[str, ...]
    created_at: str


@dataclass(frozen=True)
class MemoryHit(Memory):
    """A memory returned by retrieval, with its fused relevance score (higher is better)."""

    score: float


@dataclass(frozen=True)
class StoreResult:
    """What `store_memory` did: the id, and whether the content was already stored."""

    id: str
    duplicate: bool
    created_at: str
    message: str


@dataclass(frozen=True)
class DeleteResult:
    """What `delete_memory` did."""

    id: str
    deleted: bool


@dataclass(frozen=True)
class Info:
    """Where the file is and what is in it (`learnmem info`)."""

    path: str
    file_bytes: int
    wal_bytes: int
    schema_version: int
    library_version: str
    embedding_model: str
    embedding_dim: int
    counts: dict[str, int]
