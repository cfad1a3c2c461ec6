"""A read-only stand-in for the `Learnmem` facade in processes that answer once (the hooks).

`context.get_context` reads through the facade's query methods. The facade ranks with in-memory indexes
that pay off in a long-lived process such as the MCP server; a hook would build them for one query and
exit. `OneShotView` answers the same calls with exact cosine similarity computed in SQL (hooks.sql) on one
connection, as DESIGN.md prescribes for one-shot processes.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from learnmem.learning import terms
from learnmem.storage import sql
from learnmem.learning.records import value_from_row as _value

EMBEDDING_DIM = 384  # the Store's default; a file made with another model keeps its own


def _vector_text(vector) -> str:
    """A query vector as the text DuckDB casts to FLOAT[n] (~1 ms; binding a list of floats costs ~45)."""
    return "[" + ", ".join(f"{float(x):.8g}" for x in vector) + "]"


class OneShotView:
    """The part of the `Learnmem` facade that `context.get_context` reads, for a process that answers once.

    The facade ranks with in-memory indexes (every axis's vectors and keyword postings, built on first use)
    that pay off in a long-lived process such as the MCP server; a hook would build them for one query and
    exit: 1.5-2 s at 10,000 experiences, and `import learnmem.api` alone (numpy, pyarrow) costs ~450 ms.
    This view answers the same calls with exact cosine similarity computed in SQL (hooks.sql), as
    DESIGN.md prescribes for one-shot processes: ranked by meaning alone, without the facade's keyword
    half, and with the same record types. The model loads on the first search only; a session-start
    context without an active GHAP needs none. Only reads: the store may be read-only.
    """

    # Rich context searches these axes for one situation: the first search ranks them all in one scan.
    PREFETCH_AXES = ("full", "surprise", "root_cause")
    PREFETCH_LIMIT = 10

    def __init__(self, store):
        self.store = _OneConnection(store)
        self.cold_tier = None  # as Learnmem.cold_tier: None reads $LEARNMEM_COLD_TIER (default bronze)
        self._embedder = None
        self._vectors: dict[str, str] = {}
        self._ranked: dict[tuple, dict[str, list[dict[str, Any]]]] = {}  # (query, domain, outcome) -> axis -> rows
        self._entries: dict[str, dict[str, Any]] = {}  # ghap id -> the entry's fields

    def close(self) -> None:
        """Release the file (the view's reads share one connection)."""
        self.store.close()

    def _vector(self, text: str) -> str:
        if text not in self._vectors:
            if self._embedder is None:
                from learnmem.embedding.embed import load_embedder

                embedder = load_embedder()
                self.store.check_model(embedder.name, embedder.dim)
                if embedder.dim != EMBEDDING_DIM:  # hooks.sql casts to the schema's FLOAT[384]
                    raise NotImplementedError(f"one-shot search: a {embedder.dim}-d model is not supported")
                self._embedder = embedder
            self._vectors[text] = _vector_text(self._embedder.embed([text])[0])
        return self._vectors[text]

    def _rows(self, query: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        with self.store.read() as con:
            cursor = con.execute(query, params)
            names = [column[0] for column in cursor.description]
            return [dict(zip(names, row)) for row in cursor.fetchall()]

    def count_tokens(self, texts):
        from learnmem.embedding import embed

        return embed.count_tokens(texts, self._embedder)

    def get_active_ghap(self):
        from learnmem.learning import ghap

        return ghap.get_active_ghap(self.store)

    def list_values(self, axis: str | None = None, limit: int = 20):
        rows = self._rows(sql.query("all_values"), {})
        return [_value(row) for row in rows if axis is None or row["axis"] == axis][:limit]

    def search_values(self, query: str, axis: str | None = None, limit: int = 5):
        if not query or not query.strip():
            return []
        rows = self._rows(sql.query("hook_similar_values"),
                          {"q": self._vector(query), "axis": axis, "limit": limit})
        return [_value(row, round(float(row["score"]), 6)) for row in rows]

    def retrieve_memories(self, query: str, limit: int = 10, category: str | None = None, tags=None):
        from learnmem.memory.records import MemoryHit
        from learnmem.storage.store import iso

        if not query or not query.strip():
            return []
        rows = self._rows(sql.query("hook_similar_memories"), {
            "q": self._vector(query), "category": category, "tags": list(tags) if tags else None, "limit": limit})
        return [MemoryHit(id=row["id"], content=row["content"], category=row["category"],
                          importance=float(row["importance"]), tags=tuple(row["tags"] or ()),
                          created_at=iso(row["created_at"]), score=round(float(row["score"]), 6)) for row in rows]

    def search_experiences(self, query: str, axis: str = "full", domain: str | None = None,
                           outcome: str | None = None, limit: int = 10, include_cold: bool = False):
        from learnmem.learning.ghap_records import Experience
        from learnmem.storage.store import iso

        if not query or not query.strip():
            return []
        cold = () if include_cold else terms.cold_tiers(self.cold_tier)  # as the facade: left out by default
        key = (query, domain, outcome, cold)
        if axis in self.PREFETCH_AXES and limit <= self.PREFETCH_LIMIT:
            axes, depth = list(self.PREFETCH_AXES), self.PREFETCH_LIMIT
        else:
            axes, depth = [axis], limit
        if axis not in self._ranked.get(key, {}) or len(self._ranked[key][axis]) < min(limit, depth):
            while True:
                ranked = self._rows(sql.query("hook_ranked_experiences"), {
                    "q": self._vector(query), "axes": axes, "limit": depth, "domain": domain, "outcome": outcome})
                missing = sorted({row["ghap_id"] for row in ranked} - set(self._entries))
                if missing:
                    for row in self._rows(sql.query("hook_experience_rows"), {"ids": missing}):
                        self._entries[row["ghap_id"]] = row
                found = self._ranked.setdefault(key, {})
                for name in axes:
                    found[name] = [row for row in ranked if row["axis"] == name
                                   and self._entries[row["ghap_id"]]["confidence_tier"] not in cold]
                if len(found[axis]) >= limit or sum(row["axis"] == axis for row in ranked) < depth:
                    break
                depth *= 4  # cold experiences took places in the ranking: look deeper
        hits = []
        for ranked_row in self._ranked[key][axis][:limit]:
            row = dict(self._entries[ranked_row["ghap_id"]])
            category, description = row.pop("root_cause_category"), row.pop("root_cause_description")
            worked, takeaway = row.pop("lesson_what_worked"), row.pop("lesson_takeaway")
            hits.append(Experience(
                id=f"{row['ghap_id']}:{axis}", axis=axis,
                root_cause={"category": category, "description": description} if category is not None else None,
                lesson={"what_worked": worked, "takeaway": takeaway} if worked is not None else None,
                score=round(float(ranked_row["score"]), 6), **row | {"created_at": iso(row["created_at"])}))
        return hits

    def get_churn_hotspots(self, days: int = 90, limit: int = 10, as_of=None, project: str | None = None):
        from datetime import timedelta

        from learnmem import validate
        from learnmem.git import projects
        from learnmem.git.records import Hotspot
        from learnmem.storage.store import iso, utc_now

        end = validate.moment("as_of", as_of) or utc_now()
        project, _ = projects.resolve(self.store, project)
        rows = self._rows(sql.query("churn_hotspots"), {
            "project": project, "start": end - timedelta(days=days), "end": end, "limit": limit})
        return [Hotspot(path=row["path"], commits=row["commits"], insertions=int(row["insertions"]),
                        deletions=int(row["deletions"]), authors=row["authors"], last_change=iso(row["last_change"]))
                for row in rows]


class _OneConnection:
    """Stands in for the Store inside a OneShotView: every read shares one connection, opened on the first
    and released by close(). Each ATTACH/DETACH of the file costs ~5-10 ms, and DuckDB's cache of the
    file's blocks goes with each DETACH; a rich context reads ~10 times. Everything else is the store's."""

    def __init__(self, store):
        self._store = store
        self._reading = None
        self._con = None

    def __getattr__(self, name: str) -> Any:  # path, read_only, meta, check_model, ...
        return getattr(self._store, name)

    @contextmanager
    def read(self):
        if self._con is None:
            self._reading = self._store.read()
            self._con = self._reading.__enter__()  # a read-only file's meta is checked on this first read
        yield self._con

    def write(self):
        raise NotImplementedError("a one-shot view only reads")

    def close(self) -> None:
        reading, self._reading, self._con = self._reading, None, None
        if reading is not None:
            reading.__exit__(None, None, None)


