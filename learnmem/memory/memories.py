"""Memories: facts, decisions, preferences, corrections... stored, retrieved, listed, deleted.

A memory is a short text with a category, an importance in [0, 1] and tags.
Storing embeds it and indexes its keywords; exact duplicates (same text up to
whitespace) are not stored twice: the existing id comes back, flagged.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pyarrow as pa

from learnmem.memory import dedupe
from learnmem.search import keywords
from learnmem.embedding import passages
from learnmem.storage import sql
from learnmem import validate
from learnmem.embedding.embed import Embedder
from learnmem.errors import NotFoundError, ValidationError
from learnmem.memory.index import MEMORY_COLUMNS, MemoryIndex, MemorySnapshot, iso, memory_fields
from learnmem.memory import items as memory_items
from learnmem.memory.items import MAX_CONTENT_CHARS, MEMORY_CATEGORIES, Draft, MemoryFilter
from learnmem.memory.records import (DeleteResult, DocGap, ForgetResult, Memory, MemoryHit, MemorySummary, SimilarMemory,
                              StoreResult)
from learnmem.search.hybrid import NEIGHBOUR_WEIGHT, ZSCORE_ALPHA, hybrid_rank, matvec
from learnmem.storage.memory_rows import insert_rows
from learnmem.storage.store import Store, set_meta, utc_now
from learnmem.storage.vectors import to_column

# The width of the embedding columns (sql/migrations/001_memories.sql).
EMBEDDING_DIM = 384
MEMORY_TABLES = ("memories_stored", "memories_recent")  # what the view `memories` shows: deletes and updates touch both
MAX_LIMIT = 100
# A stored memory this close (cosine) to a current one of its category is reported as similar. bench/dedupe:
# 90 % of paraphrases and of updates of a fact reach it, 1 in 25 distinct facts on the same subject does.
SIMILAR_THRESHOLD = 0.6
MAX_SIMILAR = 3
DETAILS = ("index", "full", "files")  # retrieve_memories(detail=...): how much of each memory comes back
SUMMARY_CHARS = 120
# How retrieve_memories fuses the cosine and BM25: z-scores, with each memory's neighbours in stored order
# (learnmem.search.hybrid; chosen on seven recall sets at once, bench/quality/RESULTS.md).
RETRIEVAL_FUSION = {"fusion": "zscore", "alpha": ZSCORE_ALPHA, "neighbours": NEIGHBOUR_WEIGHT}
RERANK_DEPTH = 5  # with recency or importance weights, this many times `limit` relevant candidates are reordered
# Stores commit in chunks so that a long import releases the file between them
# (embedding, the slow part, happens outside the writer lock).
STORE_CHUNK = 1000
KEYED_BATCH = 16  # from this many drafts, the restatement check compares each with its key tokens' rows alone


def new_id(moment) -> str:
    """`mem_YYYYMMDD_HHMMSS_` + 10 random hex digits."""
    return f"mem_{moment:%Y%m%d_%H%M%S}_{secrets.token_hex(5)}"


def store_memory(store: Store, embedder: Embedder, index: MemoryIndex, item: Mapping[str, Any],
                 supersedes: str | None, allow_secrets: bool, commit_sha: str | None, force: bool) -> StoreResult:
    """Store one memory (store_memories' rules); a new one comes back with the current memories of its
    category at least SIMILAR_THRESHOLD close in `similar` (likely duplicates, or memories it updates)."""
    result = store_memories(store, embedder, [item], supersedes=supersedes, allow_secrets=allow_secrets,
                            commit_sha=commit_sha, index=index, force=force)[0]
    if result.duplicate:
        return result
    return with_similar(result, similar_memories(index, result.id, item["category"]))


def with_similar(result: StoreResult, similar: Sequence[SimilarMemory]) -> StoreResult:
    """A new memory's result carrying `similar` (similar_memories': the current memories of its category at least
    SIMILAR_THRESHOLD close), but the one it superseded, named in its message."""
    similar = tuple(other for other in similar if other.id != result.superseded)
    if not similar:
        return result
    closest = similar[0]
    return replace(result, similar=similar, message=(
        f"{result.message}; similar to {closest.id} ({closest.similarity:.2f}): a duplicate, or an update of it? "
        "supersede it (supersede_memory, or store with supersedes=) or forget one"))


def store_memories(store: Store, embedder: Embedder, items: Iterable[Mapping[str, Any]],
                   supersedes: str | None = None, allow_secrets: bool = False,
                   commit_sha: str | None = None, index: MemoryIndex | None = None,
                   force: bool = False) -> list[StoreResult]:
    """Validate every item, then embed and insert them in chunks; one StoreResult per item, in order.

    Nothing is written if any item is invalid, or (unless `allow_secrets`) if any content looks like a
    credential (an API key, a token, a private key, a password assignment). `supersedes` (one item only):
    the id of a memory the new one replaces; it is kept, hidden from retrieval, with `superseded_by` set,
    in the same transaction. `commit_sha`: the repository's HEAD, recorded on every new memory.
    With `index`, an item that restates a current memory of its category (learnmem.memory.dedupe) is not stored:
    its result names that memory (duplicate and near_duplicate true), unless `force` or `supersedes`.
    """
    items = list(items)
    validate.flag("allow_secrets", allow_secrets)
    validate.flag("force", force)
    drafts = [memory_items.draft(item, f"memories[{i}]." if len(items) > 1 else "", allow_secrets) for i, item in enumerate(items)]
    if supersedes is not None:
        if len(drafts) != 1:
            raise ValidationError(f"supersedes: one memory replaces one other; got {len(drafts)} items")
        supersedes = _memory_id(supersedes)
    results: list[StoreResult] = []
    for start in range(0, len(drafts), STORE_CHUNK):
        results.extend(_store_chunk(store, embedder, drafts[start : start + STORE_CHUNK], supersedes, commit_sha,
                                    None if force or supersedes is not None else index))
    return results


def _store_chunk(store: Store, embedder: Embedder, drafts: Sequence[Draft], supersedes: str | None,
                 commit_sha: str | None, index: MemoryIndex | None) -> list[StoreResult]:
    first_by_hash: dict[str, int] = {}
    for position, draft in enumerate(drafts):
        first_by_hash.setdefault(draft.content_hash, position)
    unique = [drafts[p] for p in first_by_hash.values()]
    # Embedding and tokenising are the slow parts: do them before taking the writer lock.
    vectors, passage_vectors = passages.embed_texts(embedder, [d.content for d in unique])
    term_lists = [keywords.terms(d.content) for d in unique]
    restating = restatements(index, unique, vectors) if index is not None else {}
    now = utc_now()
    # A file's writes take the index along (a lake's may run again on a newer snapshot: its index reads back).
    through = index.write_through() if index is not None and store.kind == "file" else None
    writing = store.write(committed=through) if through is not None else store.write()
    with writing as con:
        rows = con.execute(sql.query("memory_ids_by_hash"), {"hashes": [d.content_hash for d in unique]}).fetchall()
        existing = {digest: (memory_id, created) for digest, memory_id, created in rows}
        ids = [memory_id for memory_id, _ in existing.values()]
        restored = {memory_id for (memory_id,) in
                    con.execute(sql.query("restorable_memories"), {"ids": ids}).fetchall()} if existing else set()
        if restored:
            con.execute(sql.query("restore_memories"), {"ids": ids, "now": now})
            con.execute(sql.query("count_rewrite"))
        fresh = [row for row in zip(unique, vectors, passage_vectors, term_lists)
                 if row[0].content_hash not in existing and row[0].content_hash not in restating]
        assigned = {row[0].content_hash: (new_id(now), now) for row in fresh}
        if supersedes is not None:
            _check_supersedable(con, supersedes, existing.get(drafts[0].content_hash, (None,))[0])
        if fresh:
            new_rows = arrow_rows(fresh, assigned, embedder.dim, commit_sha)
            numbered = insert_rows(con, new_rows, numbered=through is not None)
        if supersedes is not None:
            state = {"id": supersedes, "by": (existing.get(drafts[0].content_hash)
                                               or assigned[drafts[0].content_hash])[0], "now": now}
            con.execute(sql.query("supersede_known_state"), state)
            con.execute(sql.query("supersede_new_state"), state)
            con.execute(sql.query("count_rewrite"))
        if through is not None and fresh:
            through.take(con, new_rows, dict(numbered))
    if supersedes is not None:
        (result,) = _results(drafts, first_by_hash, existing, assigned, restored)
        return [StoreResult(result.id, result.duplicate, result.created_at,
                            f"{result.message}; supersedes {supersedes}", superseded=supersedes)]
    return _results(drafts, first_by_hash, existing, assigned, restored, restating)


def restatements(index: MemoryIndex, drafts: Sequence[Draft], vectors: np.ndarray) -> dict[str, tuple]:
    """content hash -> (the current memory of its category a draft restates as a SimilarMemory, when that was
    stored) (learnmem.memory.dedupe).

    Only a memory with the draft's key tokens can be restated. A batch of KEYED_BATCH drafts or more (or any,
    once the snapshot knows its rows' key tokens) is compared with those rows alone, each group of drafts
    sharing a category and key tokens in one product: a batch then costs its size, not its size times the
    store's (issue 25). Fewer drafts are compared with every current memory of their category, one product
    each, which spares a process that stores one memory at a time the key tokens of the whole store (~20 us
    a memory, 2 s at 100,000)."""
    snapshot = index.snapshot()
    groups: dict[tuple, list[int]] = {}
    for position, draft in enumerate(drafts):
        if not draft.is_turn:
            groups.setdefault((draft.category, dedupe.key_tokens(draft.content)), []).append(position)
    keyed = snapshot.knows_keys() or len(drafts) >= KEYED_BATCH
    found: dict[str, tuple] = {}
    for (category, keys), positions in groups.items():
        if keyed:
            rows = snapshot.restatable(category, keys)
            if not len(rows):
                continue
            similarities = snapshot.similarities(rows, vectors[positions])
        else:
            scores = np.stack([snapshot.similarity(vectors[p]) for p in positions], axis=1)
            rows = np.flatnonzero(snapshot.eligible(category, ()) & (scores.max(axis=1) >= dedupe.DUPLICATE_THRESHOLD))
            similarities = scores[rows]
        for column, position in enumerate(positions):
            restated_by = _first_restated(snapshot, drafts[position].content, rows, similarities[:, column])
            if restated_by is not None:
                found[drafts[position].content_hash] = restated_by
    return found


def _first_restated(snapshot: MemorySnapshot, content: str, rows: np.ndarray, similarities: np.ndarray
                    ) -> tuple | None:
    """(the closest of `rows` that `content` restates as a SimilarMemory, when it was stored), or None."""
    for candidate in np.argsort(-similarities, kind="stable"):
        similarity = float(similarities[candidate])
        if similarity < dedupe.DUPLICATE_THRESHOLD:
            return None
        old = snapshot.memory(int(rows[candidate]))
        if dedupe.is_restatement(content, old.content, similarity):
            return SimilarMemory(old.id, old.content, round(similarity, 4)), old.created_at
    return None


def checked_alone(snapshot: MemorySnapshot, draft: Draft, vector: np.ndarray, force: bool
                  ) -> tuple[tuple | None, tuple[SimilarMemory, ...]]:
    """For one new memory, from one product over the snapshot: what `restatements` would find for it (None with
    `force`), and what `similar_memories` would once it is stored."""
    cosines = matvec(snapshot.vectors, vector)
    eligible = snapshot.eligible(draft.category, ())
    restated_by = None
    if not force and not draft.is_turn:
        scores = snapshot.best_passages(cosines.copy(), vector)  # as snapshot.similarity(); `similar` wants cosines
        rows = np.flatnonzero(eligible & (scores >= dedupe.DUPLICATE_THRESHOLD))
        restated_by = _first_restated(snapshot, draft.content, rows, scores[rows])
    return restated_by, _closest(snapshot, cosines, eligible)


def _check_supersedable(con, old_id: str, duplicate_of: str | None) -> None:
    row = con.execute(sql.query("memory_state"), {"id": old_id}).fetchone()
    if row is None:
        raise NotFoundError(f"supersedes: no memory {old_id!r} (list_memories shows the ids); nothing stored")
    if row[5] is not None:
        raise ValidationError(f"supersedes: memory {old_id!r} is forgotten; restore_memory it first, or store "
                              "without supersedes")
    if row[4] is not None:
        raise ValidationError(f"supersedes: memory {old_id!r} is already superseded by {row[4]!r}; supersede that "
                              "one (the newest of the chain) instead")
    if duplicate_of == old_id:
        raise ValidationError(f"supersedes: the new content is the text of {old_id!r} itself; nothing to replace")


def _results(drafts: Sequence[Draft], first_by_hash: dict, existing: dict, assigned: dict,
             restored: set[str], restating: dict[str, tuple] | None = None) -> list[StoreResult]:
    results = []
    restating = restating or {}
    stamp = functools.lru_cache(maxsize=8)(iso)  # a batch's new memories share one time
    for position, draft in enumerate(drafts):
        if draft.content_hash in restating and draft.content_hash not in existing:
            results.append(restated(*restating[draft.content_hash]))
        elif draft.content_hash in existing:
            memory_id, created = existing[draft.content_hash]
            note = "it had been forgotten and is restored" if memory_id in restored else "nothing written"
            results.append(StoreResult(memory_id, True, stamp(created), f"already stored as {memory_id}; {note}"))
        elif first_by_hash[draft.content_hash] != position:
            memory_id, created = assigned[draft.content_hash]
            results.append(StoreResult(memory_id, True, stamp(created), f"repeats an earlier item of this batch ({memory_id})"))
        else:
            memory_id, created = assigned[draft.content_hash]
            results.append(StoreResult(memory_id, False, stamp(created), "stored"))
    return results


def restated(old: SimilarMemory, created_at: str) -> StoreResult:
    """The result of a text not stored because it restates the current memory `old` (stored at `created_at`)."""
    return StoreResult(
        old.id, True, created_at, f"restates {old.id} (similarity {old.similarity:.2f}, the same names and "
        f"numbers); nothing stored: pass force=True to store it anyway, or supersedes={old.id} to "
        "replace it", similar=(old,), near_duplicate=True)


def arrow_rows(fresh: Sequence[tuple[Draft, np.ndarray, np.ndarray, list[str]]], assigned: dict, dim: int,
                commit_sha: str | None) -> pa.Table:
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
            "passages": passage_lists([row[2] for row in fresh], dim),
            "commit_sha": pa.array([commit_sha] * len(drafts), pa.string()),
            "sources": pa.array([list(d.sources) or None for d in drafts], pa.list_(pa.string())),
            "spec": pa.array([d.spec for d in drafts], pa.string()),
            "phase": pa.array([d.phase for d in drafts], pa.string()),
            "session": pa.array([d.session for d in drafts], pa.string()),
            "speaker": pa.array([d.speaker for d in drafts], pa.string()),
            "said_at": pa.array([d.said_at for d in drafts], pa.timestamp("us")),
        }
    )


def passage_lists(per_row: Sequence[np.ndarray], dim: int) -> pa.ListArray:
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
    include_superseded: bool = False,
    recency_half_life_days: float | None = None,
    importance_weight: float = 0.0,
    spec: str | None = None,
    phase: str | None = None,
    since: Any = None,
    until: Any = None,
    session: str | None = None,
) -> list[MemoryHit]:
    """The memories most relevant to `query`: exact cosine and BM25 over every eligible memory, fused by
    z-scores, each memory helped a little by the memories stored just before and after it (RETRIEVAL_FUSION;
    docs/memories.md says why). Forgotten memories are
    never found; superseded ones only with `include_superseded` (each says what replaced it). `category`,
    `tags`, `spec`, `phase`, `session` and the window `since`..`until` (each an ISO date or datetime, or an
    age such as "7d"; a turn's time is when it was said, any other memory's when it was stored) filter exactly.

    Off by default, two weights reorder the relevant candidates (the best RERANK_DEPTH x limit):
    `recency_half_life_days` multiplies a score by 2^(-age / half-life), so a memory that old counts
    half; `importance_weight` (0-1) multiplies it by 1 + weight x (importance - 0.5).
    """
    query = validate.text("query", query, max_chars=MAX_CONTENT_CHARS)
    limit = validate.integer("limit", limit, low=1, high=MAX_LIMIT)
    if category is not None:
        validate.choice("category", category, MEMORY_CATEGORIES)
    if recency_half_life_days is not None:
        recency_half_life_days = validate.number("recency_half_life_days", recency_half_life_days,
                                                 low=0.01, high=100_000)
    importance_weight = validate.number("importance_weight", importance_weight, low=0.0, high=1.0)
    wanted_tags = validate.tags("tags", tags)
    origin = MemoryFilter.of(spec, phase, since, until, session)
    snapshot = index.snapshot()
    eligible = snapshot.eligible(category, wanted_tags, bool(include_superseded), origin)
    if not eligible.any():
        return []
    weighted = recency_half_life_days is not None or importance_weight > 0
    ranked = hybrid_rank(
        snapshot.similarity(embedder.embed([query])[0]),
        snapshot.bm25,
        keywords.terms(query),
        eligible,
        limit * RERANK_DEPTH if weighted else limit,
        importance=snapshot.importance,
        recency=snapshot.seq,
        **RETRIEVAL_FUSION,
    )
    rows, scores = np.asarray(ranked.rows, dtype=np.int64), np.asarray(ranked.scores, dtype=np.float64)
    if weighted:
        scores = scores * snapshot.weights(rows, recency_half_life_days, importance_weight, utc_now())
        order = np.lexsort((-snapshot.seq[rows], -scores))[:limit]  # ties: the newer first
        rows, scores = rows[order], scores[order]
    return [MemoryHit(**vars(snapshot.memory(int(row))), score=float(score)) for row, score in zip(rows, scores)]


def summary_of(hit: MemoryHit) -> MemorySummary:
    """A hit as its index entry: the first line of the content, cut to SUMMARY_CHARS; `…` marks more."""
    summary = hit.content.split("\n", 1)[0].strip()
    if len(summary) > SUMMARY_CHARS:
        summary = summary[: SUMMARY_CHARS - 1].rstrip() + "…"
    elif summary != hit.content:
        summary += " …"
    return MemorySummary(id=hit.id, category=hit.category, summary=summary, score=hit.score)


def similar_memories(index: MemoryIndex, memory_id: str, category: str) -> tuple[SimilarMemory, ...]:
    """The current memories of `category` at least SIMILAR_THRESHOLD close to the stored `memory_id`,
    closest first (at most MAX_SIMILAR): likely duplicates, or memories it updates."""
    snapshot = index.snapshot()
    row = snapshot.row_of(memory_id)
    if row is None:
        return ()
    eligible = snapshot.eligible(category, ())
    eligible[row] = False
    cosines = matvec(snapshot.vectors, snapshot.vectors[row])
    return _closest(snapshot, cosines, eligible)


def _closest(snapshot: MemorySnapshot, cosines: np.ndarray, eligible: np.ndarray) -> tuple[SimilarMemory, ...]:
    """The eligible rows at least SIMILAR_THRESHOLD close, closest first (at most MAX_SIMILAR)."""
    rows = np.flatnonzero(eligible & (cosines >= SIMILAR_THRESHOLD))
    best = rows[np.argsort(-cosines[rows], kind="stable")[:MAX_SIMILAR]]
    return tuple(SimilarMemory(id=snapshot.memory(int(r)).id, content=snapshot.memory(int(r)).content,
                               similarity=round(float(cosines[r]), 4)) for r in best)


def _memory(row: tuple) -> Memory:
    return Memory(**memory_fields(row))


def list_memories(
    store: Store, category: str | None = None, tags: Sequence[str] | None = None, limit: int = 50, offset: int = 0,
    include_superseded: bool = False, spec: str | None = None, phase: str | None = None, since: Any = None,
    until: Any = None, session: str | None = None,
) -> list[Memory]:
    """Memories newest first (a turn at the time it was said), optionally of one category, carrying all the
    given tags, of a spec, of a phase, of a session, in the window since..until (as retrieve_memories);
    forgotten ones never, superseded ones only with `include_superseded`."""
    origin = MemoryFilter.of(spec, phase, since, until, session)
    params = {
        "spec": origin.spec, "phase": origin.phase, "since": origin.since, "until": origin.until,
        "session": origin.session,
        "include_superseded": bool(include_superseded),
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
    forgotten_at = row[len(MEMORY_COLUMNS)]
    if forgotten_at is not None:
        raise NotFoundError(f"id: memory {memory_id!r} was forgotten at {iso(forgotten_at)}; restore_memory brings it back")
    return _memory(row)


def delete_memory(store: Store, memory_id: str) -> DeleteResult:
    """Delete one memory by id; NotFoundError if there is none."""
    memory_id = _memory_id(memory_id)
    with store.write() as con:
        deleted = con.execute(sql.query("memory_state"), {"id": memory_id}).fetchall()
        for table in MEMORY_TABLES:
            con.execute(sql.query("delete_memory").format(table=table), {"id": memory_id})
        if deleted:
            _drop_states(con, [memory_id], utc_now())
        con.execute(sql.query("count_rewrite"))
    if not deleted:
        raise NotFoundError(f"id: no memory {memory_id!r} (list_memories shows the ids)")
    return DeleteResult(memory_id, True)


def forget(store: Store, memory_id: str | None = None, category: str | None = None,
           tags: Sequence[str] | None = None, everything: bool = False, hard: bool = False) -> ForgetResult:
    """Forget one memory (`memory_id`), those of a category and/or carrying all `tags`, or `everything`.

    Soft by default: the memories are hidden from retrieval, listing and get_memory, and
    restore_memory brings one back. `hard` deletes them (soft-forgotten ones included) with their
    vectors, then rewrites the file without them: DuckDB reuses freed blocks but does not clear them,
    so only a rewritten file no longer holds the text. A memory they had superseded is current again.
    """
    chosen = sum(x is not None for x in (memory_id, category)) + bool(tags) + bool(everything)
    if memory_id is not None and chosen > 1 or everything and chosen > 1 or chosen == 0:
        raise ValidationError("forget: give one id, or a category and/or tags, or everything=True "
                              f"(got id={memory_id!r}, category={category!r}, tags={tags!r}, everything={everything!r})")
    params = {
        "id": None if memory_id is None else _memory_id(memory_id),
        "category": None if category is None else validate.choice("category", category, MEMORY_CATEGORIES),
        "tags": list(validate.tags("tags", tags)), "everything": bool(everything), "include_forgotten": bool(hard),
    }
    now = utc_now()
    with store.write() as con:
        ids = [memory_id for (memory_id,) in con.execute(sql.query("memories_to_forget"), params).fetchall()]
        if params["id"] is not None and not ids:
            raise NotFoundError(f"id: no memory {params['id']!r} to forget (list_memories shows the ids)")
        if ids and hard:
            for table in MEMORY_TABLES:
                con.execute(sql.query("delete_memories").format(table=table), {"ids": ids})
            _drop_states(con, ids, now)
        elif ids:
            con.execute(sql.query("forget_known_states"), {"ids": ids, "now": now})
            con.execute(sql.query("forget_new_states"), {"ids": ids, "now": now})
        if ids:
            con.execute(sql.query("count_rewrite"))
    if ids and hard:
        store.rewrite()
    return ForgetResult(ids=tuple(ids), count=len(ids), hard=bool(hard))


def _drop_states(con, ids: list[str], now) -> None:
    """The states of deleted memories go, and the memories they had superseded are current again."""
    con.execute(sql.query("delete_memory_states"), {"ids": ids})
    con.execute(sql.query("release_superseded"), {"ids": ids, "now": now})


def restore_memory(store: Store, memory_id: str) -> Memory:
    """Bring back a soft-forgotten memory; NotFoundError when it is not forgotten (or does not exist)."""
    memory_id = _memory_id(memory_id)
    with store.write() as con:
        restored = con.execute(sql.query("restorable_memories"), {"ids": [memory_id]}).fetchall()
        if restored:
            con.execute(sql.query("restore_memories"), {"ids": [memory_id], "now": utc_now()})
            con.execute(sql.query("count_rewrite"))
    if not restored:
        raise NotFoundError(f"id: {memory_id!r} is not a forgotten memory (forget hides one; a hard forget "
                            "cannot be undone)")
    return get_memory(store, memory_id)


def docs_gaps(store: Store, limit: int = 20) -> list[DocGap]:
    """The documents most often named as sources of current corrections and discoveries, most first: where
    the documentation misled, or left out what had to be found the hard way."""
    limit = validate.integer("limit", limit, low=1, high=MAX_LIMIT)
    with store.read() as con:
        rows = con.execute(sql.query("docs_gaps"), {"limit": limit}).fetchall()
    return [DocGap(document, corrections, discoveries, tuple(anchors), tuple(ids), iso(latest))
            for document, corrections, discoveries, anchors, ids, latest in rows]


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
            "passages": passage_lists(passage_vectors, embedder.dim),
        }
    )
    with store.write() as con:
        if rows:
            con.register("new_vectors", table)
            for table in MEMORY_TABLES:
                con.execute(sql.query("update_embeddings").format(table=table))
            con.unregister("new_vectors")
        con.execute(sql.query("count_rewrite"))
        for key, value in (("embedding_model", embedder.name), ("embedding_dim", str(embedder.dim))):
            set_meta(con, key, value)
    store.meta |= {"embedding_model": embedder.name, "embedding_dim": str(embedder.dim)}
    return len(rows)
