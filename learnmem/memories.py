"""Memories: facts, decisions, preferences, corrections... stored, retrieved, listed, deleted.

A memory is a short text with a category, an importance in [0, 1] and tags.
Storing embeds it and indexes its keywords; exact duplicates (same text up to
whitespace) are not stored twice: the existing id comes back, flagged.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from learnmem import keywords, passages, sql, validate
from learnmem.embed import Embedder
from learnmem.errors import NotFoundError, ValidationError
from learnmem.memory_index import MemoryIndex, iso
from learnmem.records import DeleteResult, Memory, MemoryHit, StoreResult
from learnmem.search import hybrid_rank
from learnmem.store import Store, utc_now
from learnmem.vectors import to_column

MEMORY_CATEGORIES = (
    "fact",  # something true about the project or its world
    "preference",  # how the user likes things done
    "decision",  # a choice made, and why
    "learning",  # something found out the hard way
    "blocker",  # what stops progress now
    "pattern",  # a recurring shape in the code or the work
    "progress",  # where a piece of work stands
    "research",  # findings from reading docs, code or the web
    "correction",  # the user corrected the agent: do it this way instead
    "requirement",  # what the result must do or satisfy
    "convention",  # the project's agreed style, naming, layout
    "context",  # background that frames the rest (who, what for) — kept apart from facts to filter it out
)
MAX_CONTENT_CHARS = 10_000
# The width of the embedding columns (sql/migrations/001_memories.sql).
EMBEDDING_DIM = 384
MAX_LIMIT = 100
# Stores commit in chunks so that a long import releases the file between them
# (embedding, the slow part, happens outside the writer lock).
STORE_CHUNK = 1000
_ROW_KEYS = ("content", "category", "importance", "tags")


@dataclass(frozen=True)
class _Draft:
    content: str
    category: str
    importance: float
    tags: tuple[str, ...]
    content_hash: str


def content_hash(content: str) -> str:
    """sha256 of the text with runs of whitespace collapsed: the duplicate key."""
    return hashlib.sha256(" ".join(content.split()).encode("utf-8")).hexdigest()


def new_id(moment) -> str:
    """`mem_YYYYMMDD_HHMMSS_` + 10 random hex digits."""
    return f"mem_{moment:%Y%m%d_%H%M%S}_{secrets.token_hex(5)}"


def _draft(item: Mapping[str, Any], field_prefix: str) -> _Draft:
    if not isinstance(item, Mapping):
        raise ValidationError(f"{field_prefix.rstrip('.') or 'memory'}: expected a mapping with keys {', '.join(_ROW_KEYS)}")
    unknown = sorted(set(item) - set(_ROW_KEYS))
    if unknown:
        raise ValidationError(f"{field_prefix}{unknown[0]}: unknown field; allowed: {', '.join(_ROW_KEYS)}")
    content = validate.text(f"{field_prefix}content", item.get("content"), max_chars=MAX_CONTENT_CHARS)
    return _Draft(
        content=content,
        category=validate.choice(f"{field_prefix}category", item.get("category"), MEMORY_CATEGORIES),
        importance=validate.number(f"{field_prefix}importance", item.get("importance", 0.5), low=0.0, high=1.0),
        tags=validate.tags(f"{field_prefix}tags", item.get("tags")),
        content_hash=content_hash(content),
    )


def store_memories(store: Store, embedder: Embedder, items: Iterable[Mapping[str, Any]]) -> list[StoreResult]:
    """Validate every item, then embed and insert them in chunks; one StoreResult per item, in order.

    Nothing is written if any item is invalid.
    """
    items = list(items)
    drafts = [_draft(item, f"memories[{i}]." if len(items) > 1 else "") for i, item in enumerate(items)]
    results: list[StoreResult] = []
    for start in range(0, len(drafts), STORE_CHUNK):
        results.extend(_store_chunk(store, embedder, drafts[start : start + STORE_CHUNK]))
    return results


def _store_chunk(store: Store, embedder: Embedder, drafts: Sequence[_Draft]) -> list[StoreResult]:
    first_by_hash: dict[str, int] = {}
    for position, draft in enumerate(drafts):
        first_by_hash.setdefault(draft.content_hash, position)
    unique = [drafts[p] for p in first_by_hash.values()]
    # Embedding and tokenising are the slow parts: do them before taking the writer lock.
    vectors, passage_vectors = passages.embed_texts(embedder, [d.content for d in unique])
    term_lists = [keywords.terms(d.content) for d in unique]
    now = utc_now()
    with store.write() as con:
        rows = con.execute(sql.query("memory_ids_by_hash"), {"hashes": [d.content_hash for d in unique]}).fetchall()
        existing = {digest: (memory_id, created) for digest, memory_id, created in rows}
        fresh = [row for row in zip(unique, vectors, passage_vectors, term_lists) if row[0].content_hash not in existing]
        assigned = {row[0].content_hash: (new_id(now), now) for row in fresh}
        if fresh:
            con.register("new_memories", _arrow_rows(fresh, assigned, embedder.dim))
            con.execute(sql.query("insert_memories"))
            con.unregister("new_memories")
    results = []
    for position, draft in enumerate(drafts):
        if draft.content_hash in existing:
            memory_id, created = existing[draft.content_hash]
            results.append(StoreResult(memory_id, True, iso(created), f"already stored as {memory_id}; nothing written"))
        elif first_by_hash[draft.content_hash] != position:
            memory_id, created = assigned[draft.content_hash]
            results.append(StoreResult(memory_id, True, iso(created), f"repeats an earlier item of this batch ({memory_id})"))
        else:
            memory_id, created = assigned[draft.content_hash]
            results.append(StoreResult(memory_id, False, iso(created), "stored"))
    return results


def _arrow_rows(fresh: Sequence[tuple[_Draft, np.ndarray, np.ndarray, list[str]]], assigned: dict, dim: int) -> pa.Table:
    """The new rows as an Arrow table shaped like `memories` (one insert, no per-row binding)."""
    drafts = [row[0] for row in fresh]
    return pa.table(
        {
            "id": [assigned[d.content_hash][0] for d in drafts],
            "content": [d.content for d in drafts],
            "content_hash": [d.content_hash for d in drafts],
            "category": [d.category for d in drafts],
            "importance": pa.array([d.importance for d in drafts], pa.float64()),
            "tags": pa.array([list(d.tags) for d in drafts], pa.list_(pa.string())),
            "terms": pa.array([row[3] for row in fresh], pa.list_(pa.string())),
            "created_at": pa.array([assigned[d.content_hash][1] for d in drafts], pa.timestamp("us")),
            "embedding": to_column(np.asarray([row[1] for row in fresh]), dim),
            "passages": _passage_lists([row[2] for row in fresh], dim),
        }
    )


def _passage_lists(per_row: Sequence[np.ndarray], dim: int) -> pa.ListArray:
    """One (k, dim) block per row as an Arrow column that DuckDB reads as FLOAT[dim][]."""
    counts = np.array([len(block) for block in per_row], dtype=np.int32)
    offsets = pa.array(np.concatenate([[0], np.cumsum(counts)]).astype(np.int32))
    values = np.concatenate([block.reshape(-1) for block in per_row]) if per_row else np.zeros(0)
    return pa.ListArray.from_arrays(offsets, to_column(values.reshape(-1, dim), dim))


def retrieve_memories(
    index: MemoryIndex,
    embedder: Embedder,
    query: str,
    limit: int = 10,
    category: str | None = None,
    tags: Sequence[str] | None = None,
) -> list[MemoryHit]:
    """The memories most relevant to `query`: exact vector + BM25 rankings, fused."""
    query = validate.text("query", query, max_chars=MAX_CONTENT_CHARS)
    limit = validate.integer("limit", limit, low=1, high=MAX_LIMIT)
    if category is not None:
        validate.choice("category", category, MEMORY_CATEGORIES)
    wanted_tags = validate.tags("tags", tags)
    snapshot = index.snapshot()
    eligible = snapshot.eligible(category, wanted_tags)
    if not eligible.any():
        return []
    ranked = hybrid_rank(
        snapshot.similarity(embedder.embed([query])[0]),
        snapshot.bm25,
        keywords.terms(query),
        eligible,
        limit,
        importance=snapshot.importance,
        recency=snapshot.seq,
    )
    return [MemoryHit(**vars(snapshot.memory(int(row))), score=float(score)) for row, score in zip(ranked.rows, ranked.scores)]


def _memory(row: tuple) -> Memory:
    memory_id, content, category, importance, tags, created_at = row
    return Memory(memory_id, content, category, importance, tuple(tags), iso(created_at))


def list_memories(
    store: Store, category: str | None = None, tags: Sequence[str] | None = None, limit: int = 50, offset: int = 0
) -> list[Memory]:
    """Memories newest first, optionally of one category and carrying all the given tags."""
    params = {
        "category": None if category is None else validate.choice("category", category, MEMORY_CATEGORIES),
        "tags": list(validate.tags("tags", tags)),
        "limit": validate.integer("limit", limit, low=1, high=MAX_LIMIT),
        "offset": validate.integer("offset", offset, low=0),
    }
    with store.read() as con:
        return [_memory(row) for row in con.execute(sql.query("list_memories"), params).fetchall()]


def _memory_id(memory_id: Any) -> str:
    return validate.text("id", memory_id, max_chars=200)


def get_memory(store: Store, memory_id: str) -> Memory:
    """One memory by id; NotFoundError if there is none."""
    memory_id = _memory_id(memory_id)
    with store.read() as con:
        row = con.execute(sql.query("get_memory"), {"id": memory_id}).fetchone()
    if row is None:
        raise NotFoundError(f"id: no memory {memory_id!r} (list_memories shows the ids)")
    return _memory(row)


def delete_memory(store: Store, memory_id: str) -> DeleteResult:
    """Delete one memory by id; NotFoundError if there is none."""
    memory_id = _memory_id(memory_id)
    with store.write() as con:
        deleted = con.execute(sql.query("delete_memory"), {"id": memory_id}).fetchall()
        con.execute(sql.query("count_rewrite"))
    if not deleted:
        raise NotFoundError(f"id: no memory {memory_id!r} (list_memories shows the ids)")
    return DeleteResult(memory_id, True)


def reembed_memories(store: Store, embedder: Embedder) -> int:
    """Embed every memory again with `embedder` and record it as the file's model; returns the count.

    All vectors are computed first and written in one transaction, so an
    interrupted run leaves the file as it was.
    """
    if embedder.dim != EMBEDDING_DIM:
        raise ValidationError(f"model: {embedder.name!r} gives {embedder.dim}-d vectors; the file stores {EMBEDDING_DIM}-d")
    with store.read() as con:
        rows = con.execute(sql.query("memory_texts")).fetchall()
    vectors, passage_vectors = passages.embed_texts(embedder, [content for _, content in rows])
    table = pa.table(
        {
            "id": [memory_id for memory_id, _ in rows],
            "embedding": to_column(vectors, embedder.dim),
            "passages": _passage_lists(passage_vectors, embedder.dim),
        }
    )
    with store.write() as con:
        if rows:
            con.register("new_vectors", table)
            con.execute(sql.query("update_embeddings"))
            con.unregister("new_vectors")
        con.execute(sql.query("count_rewrite"))
        for key, value in (("embedding_model", embedder.name), ("embedding_dim", str(embedder.dim))):
            con.execute(sql.query("set_meta"), {"key": key, "value": value})
    store.meta |= {"embedding_model": embedder.name, "embedding_dim": str(embedder.dim)}
    return len(rows)
