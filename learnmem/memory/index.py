"""A process-local snapshot of the memories for fast retrieval.

Loading every vector once and keeping it makes a warm query a matrix-vector
product instead of a file open (~10 ms) plus a scan. The snapshot is refreshed
when the file's size/mtime signature changes: new rows (higher `seq`) are
appended; after a delete or an update (counted in `meta` as rewrites) it is
reloaded whole.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from learnmem.storage import sql
from learnmem.memory.dedupe import key_tokens
from learnmem.memory.items import MemoryFilter
from learnmem.memory.records import Memory
from learnmem.search.hybrid import Bm25, matvec, one_blas_thread
from learnmem.storage.store import Store, iso  # noqa: F401 - iso is re-exported for its older importers
from learnmem.storage.vectors import to_matrix

_MAX_CHUNKS = 16
MEMORY_COLUMNS = ("id", "content", "category", "importance", "tags", "created_at", "superseded_by", "commit_sha",
                  "sources", "spec", "phase", "session", "speaker", "said_at")


def memory_fields(row: Sequence[Any]) -> dict[str, Any]:
    """Memory's fields from a row (id, content, category, importance, tags, created_at, superseded_by,
    commit_sha, sources, spec, phase, session, speaker, said_at): the column order of the memory queries."""
    fields = dict(zip(MEMORY_COLUMNS, row[: len(MEMORY_COLUMNS)]))
    return fields | {"tags": tuple(fields["tags"]), "created_at": iso(fields["created_at"]),
                     "sources": tuple(fields["sources"] or ()),
                     "said_at": None if fields["said_at"] is None else iso(fields["said_at"])}


class _Passages:
    """The passage vectors of long memories and the row each belongs to."""

    def __init__(self, vectors: np.ndarray, owners: np.ndarray):
        self.vectors = vectors
        self.owners = owners

    @classmethod
    def of(cls, table: pa.Table, dim: int, first_row: int) -> _Passages:
        lists = table.column("passages").combine_chunks()
        vectors = to_matrix(pc.list_flatten(lists), dim)
        owners = pc.list_parent_indices(lists).to_numpy()
        return cls(vectors, owners.astype(np.int64) + first_row)

    def extended(self, other: _Passages) -> _Passages:
        if not len(other.owners):
            return self
        return _Passages(np.vstack([self.vectors, other.vectors]), np.concatenate([self.owners, other.owners]))


def _categories(table: pa.Table) -> np.ndarray:
    return np.asarray(table.column("category").to_pylist(), dtype=object)


class _GrowingRows:
    """A matrix that snapshots extend at its end: its buffer has room to spare, so an append copies the new rows
    only (rebuilding the matrix copied every vector at every store: 15 MB at 10,000 memories, 150 MB at 100,000).
    Each snapshot sees the front of the buffer it was made with; rows past a snapshot's end belong to its one
    successor, and a second extension of the same snapshot gets a buffer of its own."""

    def __init__(self, rows: np.ndarray):
        self.buffer = rows
        self.used = len(rows)

    def appended(self, size: int, new: np.ndarray) -> tuple[_GrowingRows, np.ndarray]:
        """The rows of the snapshot of `size` rows with `new` after them: (the holder, the view)."""
        holder = self
        if self.used != size or len(self.buffer) < size + len(new):
            holder = _GrowingRows(np.empty((max(2 * (size + len(new)), 1024), self.buffer.shape[1]), np.float32))
            holder.buffer[:size] = self.buffer[:size]
        holder.buffer[size : size + len(new)] = new
        holder.used = size + len(new)
        return holder, holder.buffer[: holder.used]


class _KeyedRows:
    """Rows by (category, key tokens): the only memories a new text of that category can restate
    (learnmem.memory.dedupe). Shared along a line of snapshots as _GrowingRows is: each sees the rows below its
    size, and a second extension of the same snapshot gets a copy of its own."""

    def __init__(self, rows: dict[tuple, list[int]], used: int):
        self.rows = rows
        self.used = used

    def appended(self, size: int, contents: Sequence[str], categories: Sequence[str]) -> _KeyedRows:
        """The holder for the snapshot of `size` rows with these rows after it."""
        holder = self
        if self.used != size:  # rows past `size` are another extension's
            holder = _KeyedRows({key: [row for row in held if row < size] for key, held in self.rows.items()}, size)
        for row, (content, category) in enumerate(zip(contents, categories), start=size):
            holder.rows.setdefault((category, key_tokens(content)), []).append(row)
        holder.used = size + len(contents)
        return holder


class MemorySnapshot:
    """The memories at one moment: arrays for ranking, columns for building results."""

    def __init__(self, table: pa.Table, vectors: np.ndarray, passages: _Passages, bm25: Bm25, categories: np.ndarray,
                 rows: _GrowingRows | None = None, keyed: _KeyedRows | None = None,
                 pending_terms: Sequence[pa.ChunkedArray] = ()):
        # The vectors and terms live in the arrays; the table keeps what results are built from.
        table = table.drop_columns([name for name in ("embedding", "passages", "terms") if name in table.column_names])
        # Each refresh appends a chunk; folding the small ones keeps per-row access and filters quick.
        if table.column("id").num_chunks > _MAX_CHUNKS:
            first = len(table.column("id").chunks[0])
            table = pa.concat_tables([table.slice(0, first), table.slice(first).combine_chunks()])
        self.table = table
        self.size = table.num_rows
        self._rows = rows if rows is not None else _GrowingRows(vectors)
        self.vectors = vectors
        self.passages = passages
        # BM25 over the rows of `bm25` and then those of `pending_terms`, indexed when first asked for: a bulk store
        # extends the snapshot at every batch and never ranks by keywords (~8 ms a batch of 1,000 at 100,000).
        # One attribute, replaced whole, so a thread reading it never sees an index and pending rows that disagree.
        self._keywords: tuple[Bm25, tuple[pa.ChunkedArray, ...]] = (bm25, tuple(pending_terms))
        self.categories = categories
        self.seq = table.column("seq").to_numpy()
        self.importance = table.column("importance").to_numpy()
        self.forgotten = table.column("forgotten").to_numpy(zero_copy_only=False).astype(bool)
        self.superseded = table.column("superseded_by").is_valid().to_numpy(zero_copy_only=False)
        self.max_seq = int(self.seq.max()) if self.size else 0
        self._keyed: _KeyedRows | None = keyed  # made on first use: only a store's restatement check needs it
        # category -> its rows as a mask, extended with the snapshot: comparing 100,000 category strings took
        # ~0.8 ms of a single store's checks.
        self._category_masks: dict[str, np.ndarray] = {}

    @classmethod
    def from_table(cls, table: pa.Table, dim: int) -> MemorySnapshot:
        return cls(table, to_matrix(table.column("embedding"), dim), _Passages.of(table, dim, 0), Bm25(table.column("terms")), _categories(table))

    def extended(self, new_rows: pa.Table, dim: int) -> MemorySnapshot:
        """A snapshot with `new_rows` appended: what was already loaded is reused, not rebuilt."""
        rows, vectors = self._rows.appended(self.size, to_matrix(new_rows.column("embedding"), dim))
        categories = _categories(new_rows)
        keyed = (self._keyed.appended(self.size, new_rows.column("content").to_pylist(), categories)
                 if self._keyed is not None else None)
        base, pending = self._keywords
        extended = MemorySnapshot(
            pa.concat_tables([self.table, new_rows.select(self.table.column_names)]),
            vectors,
            self.passages.extended(_Passages.of(new_rows, dim, self.size)),
            base,
            np.concatenate([self.categories, categories]),
            rows,
            keyed,
            (*pending, new_rows.column("terms")),
        )
        extended._category_masks = {category: np.concatenate([mask, categories == category])
                                    for category, mask in self._category_masks.items()}
        return extended

    @property
    def bm25(self) -> Bm25:
        """BM25 over every row (the rows appended since the snapshot last ranked are indexed now)."""
        base, pending = self._keywords
        if pending:  # two threads may both build it: the same index, and either is kept
            base = base.extended(pa.chunked_array([chunk for terms in pending for chunk in terms.chunks], pending[0].type))
            self._keywords = (base, ())
        return base

    def renumbered(self, seqs: np.ndarray) -> MemorySnapshot:
        """This snapshot with its last len(seqs) rows numbered `seqs` (the journal's rows as the file numbered them)."""
        numbers = pa.array(np.concatenate([self.seq[: self.size - len(seqs)], seqs]), self.table.schema.field("seq").type)
        base, pending = self._keywords
        return MemorySnapshot(self.table.set_column(self.table.schema.get_field_index("seq"), "seq", numbers),
                              self.vectors, self.passages, base, self.categories, self._rows, self._keyed, pending)

    def knows_keys(self) -> bool:
        """Whether restatable() is ready without reading every row's key tokens."""
        return self._keyed is not None

    def restatable(self, category: str, keys: tuple[str, ...]) -> np.ndarray:
        """The current rows (neither forgotten nor superseded) of `category` whose key tokens are `keys`: the
        only ones a text of that category with those key tokens can restate (learnmem.memory.dedupe)."""
        if self._keyed is None:
            self._keyed = _KeyedRows({}, 0).appended(0, self.table.column("content").to_pylist(), self.categories)
        held = np.asarray(self._keyed.rows.get((category, keys), ()), dtype=np.int64)
        held = held[held < self.size]  # rows past it are a later snapshot's
        return held[~(self.forgotten[held] | self.superseded[held])]

    def similarities(self, rows: np.ndarray, query_vectors: np.ndarray) -> np.ndarray:
        """(len(rows), len(query_vectors)) cosines: similarity() for a few rows and several queries at once."""
        with one_blas_thread():
            scores = self.vectors[rows] @ query_vectors.T
            owners = self.passages.owners  # ascending: each row's passages lie together
            starts, ends = np.searchsorted(owners, rows, "left"), np.searchsorted(owners, rows, "right")
            if (ends > starts).any():
                passage_rows = np.concatenate([np.arange(a, b) for a, b in zip(starts, ends)])
                of_row = np.repeat(np.arange(len(rows)), ends - starts)
                np.maximum.at(scores, of_row, self.passages.vectors[passage_rows] @ query_vectors.T)
        return scores

    def similarity(self, query_vector: np.ndarray) -> np.ndarray:
        """Each memory's cosine to the query: of its best passage when it has several."""
        return self.best_passages(matvec(self.vectors, query_vector), query_vector)

    def best_passages(self, cosines: np.ndarray, query_vector: np.ndarray) -> np.ndarray:
        """`cosines` (each memory's vector against the query), raised in place to the best passage's for the
        memories that have several."""
        if len(self.passages.owners):
            with one_blas_thread():
                np.maximum.at(cosines, self.passages.owners, self.passages.vectors @ query_vector)
        return cosines

    def eligible(self, category: str | None, tags: tuple[str, ...], include_superseded: bool = False,
                 origin: MemoryFilter | None = None) -> np.ndarray:
        """Rows of this category (if given) carrying every tag in `tags`, and of the spec, phase, session and
        time window of `origin` (each if given); never forgotten ones, superseded ones only with
        `include_superseded`."""
        mask = ~self.forgotten if include_superseded else ~(self.forgotten | self.superseded)
        if category is not None:
            if category not in self._category_masks:
                self._category_masks[category] = self.categories == category
            mask &= self._category_masks[category]
        origin = origin or MemoryFilter(None, None, None)
        for name, wanted in (("spec", origin.spec), ("phase", origin.phase), ("session", origin.session)):
            if wanted is not None:
                mask &= pc.fill_null(pc.equal(self.table.column(name), wanted), False).to_numpy(zero_copy_only=False)
        if origin.since is not None or origin.until is not None:
            moments = self.moments()
            if origin.since is not None:
                mask &= moments >= np.datetime64(origin.since, "us")
            if origin.until is not None:
                mask &= moments <= np.datetime64(origin.until, "us")
        if tags:
            tag_lists = self.table.column("tags").combine_chunks()
            flat = pc.list_flatten(tag_lists).to_numpy(zero_copy_only=False)
            owners = pc.list_parent_indices(tag_lists).to_numpy()
            for tag in tags:
                mask &= np.bincount(owners[flat == tag], minlength=self.size) > 0
        return mask

    def moments(self) -> np.ndarray:
        """Each row's time: when it was said (a turn), else when it was stored."""
        said = pc.coalesce(self.table.column("said_at"), self.table.column("created_at"))
        return said.to_numpy(zero_copy_only=False).astype("datetime64[us]")

    def weights(self, rows: np.ndarray, half_life_days: float | None, importance_weight: float,
                now: datetime) -> np.ndarray:
        """retrieve_memories' optional weights of `rows`: 2^(-age / half-life) x (1 + w x (importance - 0.5))."""
        weights = 1.0 + importance_weight * (self.importance[rows] - 0.5)
        if half_life_days is not None:
            said = self.moments()[rows]  # a turn ages from when it was said
            age_days = (np.datetime64(now.replace(tzinfo=None), "us") - said) / np.timedelta64(1, "D")
            weights = weights * np.exp2(-np.maximum(age_days, 0.0) / half_life_days)
        return weights

    def row_of(self, memory_id: str) -> int | None:
        """The row of a memory id, or None."""
        found = pc.index(self.table.column("id"), memory_id).as_py()
        return None if found < 0 else found

    def memory(self, row: int) -> Memory:
        """The Memory at a row."""
        return Memory(**memory_fields([self.table.column(name)[row].as_py() for name in MEMORY_COLUMNS]))


class MemoryIndex:
    """Keeps a MemorySnapshot current for one store."""

    def __init__(self, store: Store, dim: int):
        self.store = store
        self.dim = dim
        self._snapshot: MemorySnapshot | None = None
        self._signature: tuple | None = None
        self._rewrites: str | None = None
        # The journal as this snapshot knows it (learnmem.storage.journal): the rows this process appended since
        # the last fold are the snapshot's last rows, `pending` their ids, numbered as the file will number them.
        self._journal_state: tuple | None = None
        self.pending: list[str] = []
        # A file's index shares the store's lock of this process: a refresh reads the file, and a write (a fold of
        # the journal, a store's write-through) updates the snapshot while it holds the file: one lock, one order.
        self.lock = store.process_lock if store.kind == "file" else threading.RLock()

    def snapshot(self) -> MemorySnapshot:
        """The current snapshot; opens the file only when it or its journal changed since the last call."""
        with self.lock:  # one refresh at a time when worker threads share the handle
            return self._refreshed()

    def is_current(self) -> bool:
        """Whether neither the file nor its journal changed since the snapshot was made (the caller holds the
        writer lock, or knows that the answer may be stale)."""
        journal = self.store.pending
        return (self._snapshot is not None and self.store.signature() == self._signature
                and (journal is None or journal.state() == self._journal_state))

    def _refreshed(self) -> MemorySnapshot:
        if self.is_current():
            return self._snapshot
        self.store.settle(patient=False)  # the journal's rows, ours or another process's, go to the file first
        if self.is_current():  # the fold was this process's own, and kept the snapshot
            return self._snapshot
        # When the fold could not have the file (held by another process), the snapshot is the file's alone and the
        # journal's state is taken as seen: rows waiting in it are not in the snapshot until a fold lands, and a
        # store meanwhile is checked without them (the fold still writes each text once).
        self.pending = []
        journal = self.store.pending
        journal_state = None if journal is None else journal.state()
        signature = self.store.signature()
        self._journal_state = journal_state
        with self.store.read() as con:
            rows, max_seq, rewrites = con.execute(sql.query("memory_stats")).fetchone()
            current = self._snapshot
            if current is not None and rewrites == self._rewrites and max_seq >= current.max_seq:
                new_rows = self._load(con, after_seq=current.max_seq)
                if current.size + new_rows.num_rows == rows:
                    self._snapshot = current.extended(new_rows, self.dim) if new_rows.num_rows else current
                    self._signature = signature
                    return self._snapshot
            table = self._load(con, after_seq=0)
        self._snapshot = MemorySnapshot.from_table(table, self.dim)
        self._signature, self._rewrites = signature, rewrites
        return self._snapshot

    def add_pending(self, rows: pa.Table, journal_state: tuple) -> None:
        """`rows` (insert_memories' shape) were appended to the journal, which is now at `journal_state`: they
        become the snapshot's last rows, numbered after it as the file will number them when folded (the caller
        holds `lock`)."""
        current = self._snapshot
        seqs = {memory_id: current.max_seq + 1 + i for i, memory_id in enumerate(rows.column("id").to_pylist())}
        self._snapshot = current.extended(_numbered(rows, seqs, current.table.schema), self.dim)
        self._journal_state = journal_state
        self.pending.extend(seqs)

    def folded(self, seqs: dict[str, int], stats: tuple, signature: tuple) -> None:
        """The journal's rows are in the file, numbered `seqs`, which then held `stats` (memory_stats) and has
        `signature`: when they were this snapshot's pending rows and nothing else changed, the snapshot stays
        (renumbered if the file numbered them otherwise); else the next snapshot() loads the file again."""
        with self.lock:
            current, pending = self._snapshot, self.pending
            rows, _, rewrites = stats
            self.pending, self._journal_state = [], None
            if current is None or set(seqs) != set(pending) or rows != current.size or rewrites != self._rewrites:
                self._snapshot = None
                return
            numbers = np.array([seqs[memory_id] for memory_id in pending], dtype=current.seq.dtype)
            if not np.array_equal(numbers, current.seq[current.size - len(numbers):]):
                current = current.renumbered(numbers)
            self._snapshot, self._signature = current, signature

    def write_through(self) -> WriteThrough:
        """For one write that adds memories to a file: the snapshot taken on the write's own connection, so that the
        next snapshot() opens nothing (Store.write(committed=...) publishes it)."""
        return WriteThrough(self)

    def _extended_on(self, con, inserted: pa.Table | None = None, seqs: dict[str, int] | None = None
                     ) -> MemorySnapshot | None:
        """The current snapshot with the rows `con` holds after it; None unless only new rows were added.

        `inserted` (insert_memories' rows) and `seqs` (their ids' numbers): what this connection just added; when
        they are all that was added since the snapshot, they are taken as they are, not read back (~13 ms a batch
        of 1,000)."""
        current = self._snapshot
        if current is None:
            return None
        rows, max_seq, rewrites = con.execute(sql.query("memory_stats")).fetchone()
        if rewrites != self._rewrites or max_seq < current.max_seq:
            return None
        if inserted is not None and seqs and rows == current.size + len(seqs) and min(seqs.values()) > current.max_seq:
            return current.extended(_numbered(inserted, seqs, current.table.schema), self.dim)
        new_rows = self._load(con, after_seq=current.max_seq)
        if current.size + new_rows.num_rows != rows:
            return None
        return current.extended(new_rows, self.dim) if new_rows.num_rows else current

    @staticmethod
    def _load(con, after_seq: int) -> pa.Table:
        return con.execute(sql.query("load_memories"), {"after_seq": after_seq}).to_arrow_table().combine_chunks()


def _numbered(inserted: pa.Table, seqs: dict[str, int], schema: pa.Schema) -> pa.Table:
    """insert_memories' rows as load_memories reads them back: with their numbers, in their order, no state yet
    (a new memory is neither superseded nor forgotten), in the snapshot's column types."""
    numbers = pa.array([seqs[memory_id] for memory_id in inserted.column("id").to_pylist()], pa.int64())
    order = pc.sort_indices(numbers)
    count = len(inserted)
    table = inserted.append_column("seq", numbers).append_column(
        "superseded_by", pa.nulls(count, pa.string())).append_column("forgotten", pa.array([False] * count))
    table = table.take(order)
    vectors_and_terms = table.select(["embedding", "passages", "terms"])  # the snapshot keeps these as arrays
    table = table.select(schema.names).cast(schema)
    for name in vectors_and_terms.column_names:
        table = table.append_column(name, vectors_and_terms.column(name))
    return table


class WriteThrough:
    """A write's view of the memories, published once the write has committed and let the file go.

    A store opens nothing again for what it wrote: the snapshot is extended on the write's own connection
    (`take`, after its inserts, before the commit: it sees them and every commit before) with the rows as
    inserted, numbered by the insert's RETURNING, or, when the file gained rows this write did not add, with
    those read back; `__call__`, which Store.write calls after the commit and the detach and before it releases
    the writer lock, makes it current with the file's new signature: no other writer can have changed the file
    in between. Saved: one attach and detach per store (~25 ms of a ~100 ms store at 10,000 memories, measured
    on a busy 2-core machine), and the read back (~13 ms a batch of 1,000)."""

    def __init__(self, index: MemoryIndex):
        self.index = index
        self.base: MemorySnapshot | None = None
        self.snapshot: MemorySnapshot | None = None

    def take(self, con, inserted: pa.Table | None = None, seqs: dict[str, int] | None = None) -> None:
        """Extend the index's snapshot with what `con` holds (`inserted`, numbered by `seqs`: the rows this write
        added, when they are all it holds beyond the snapshot)."""
        with self.index.lock:
            self.base = self.index._snapshot
            self.snapshot = self.index._extended_on(con, inserted, seqs)

    def __call__(self) -> None:
        with self.index.lock:
            if self.snapshot is not None and self.index._snapshot is self.base:  # no refresh came in between
                self.index._snapshot = self.snapshot
                self.index._signature = self.index.store.signature()
