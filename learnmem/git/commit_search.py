"""Commit search: hybrid (exact vectors + BM25) over messages and touched paths, with exact filters.

Like memories and code, a process keeps a snapshot of every commit's vector and
terms, reloaded when the stored commits change. Commits indexed without
embedding (`embed=False`) are found by their keywords only.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from learnmem.search import keywords
from learnmem.storage import sql
from learnmem import validate
from learnmem.git.records import CommitHit
from learnmem.storage.store import Store, iso
from learnmem.search.hybrid import Bm25, hybrid_rank, one_blas_thread
from learnmem.storage.snapshot_cache import SnapshotCache
from learnmem.storage.vectors import to_matrix_with_gaps

MAX_LIMIT = 100


class CommitSnapshot:
    """Every stored commit at one moment: vectors, BM25 postings, filter columns."""

    def __init__(self, table: pa.Table, dim: int):
        self.table = table
        self.size = table.num_rows
        self.vectors = to_matrix_with_gaps(table.column("embedding"), dim)
        self.bm25 = Bm25(table.column("terms"))
        self.project = np.asarray(table.column("project").to_pylist(), dtype=object)
        self.sha = np.asarray(table.column("sha").to_pylist(), dtype=object)
        self.author = np.char.lower(np.asarray(table.column("author").to_pylist(), dtype=str))
        self.author_email = np.char.lower(np.asarray(table.column("author_email").to_pylist(), dtype=str))
        self.committed_at = table.column("committed_at").to_numpy().astype("datetime64[us]")

    def hit(self, row: int, score: float, paths: tuple[str, ...]) -> CommitHit:
        value = {name: self.table.column(name)[row].as_py() for name in (
            "project", "sha", "subject", "message", "author", "author_email", "authored_at", "committed_at",
            "insertions", "deletions", "files_changed", "is_merge")}
        value["authored_at"], value["committed_at"] = iso(value["authored_at"]), iso(value["committed_at"])
        return CommitHit(score=score, paths=paths, **value)


class CommitIndex(SnapshotCache[CommitSnapshot]):
    """Keeps a CommitSnapshot current for one store."""

    def __init__(self, store: Store, dim: int):
        super().__init__(store, sql.query("commit_stats"), sql.query("load_commits"),
                         lambda table: CommitSnapshot(table, dim))


def search_commits(
    index: CommitIndex, embedder, query: str, author: str | None = None, since=None, until=None,
    path: str | None = None, limit: int = 10, project: str | None = None,
) -> list[CommitHit]:
    """Commits whose message or paths match `query`, best first; author, since, until, path and project filter exactly.

    `author` matches a name or an email (case-insensitive, after .mailmap); `since`/`until` bound the
    commit time (inclusive); `path` is a file (matched before or after a rename) or a folder."""
    text = validate.text("query", query, max_chars=10_000).strip()
    validate.integer("limit", limit, low=1, high=MAX_LIMIT)
    start, end = validate.moment("since", since), validate.moment("until", until)
    if author is not None:
        author = validate.text("author", author, max_chars=200).strip().lower()
    if path is not None:
        path = validate.text("path", path, max_chars=4096).strip().strip("/")
    if project is not None:
        validate.text("project", project, max_chars=200)

    snapshot = index.snapshot()
    eligible = np.ones(snapshot.size, dtype=bool)
    if project is not None:
        eligible &= snapshot.project == project
    if author is not None:
        eligible &= (snapshot.author == author) | (snapshot.author_email == author)
    if start is not None:
        eligible &= snapshot.committed_at >= np.datetime64(start, "us")
    if end is not None:
        eligible &= snapshot.committed_at <= np.datetime64(end, "us")
    if path is not None:
        with index.store.read() as con:
            touching = con.execute(sql.query("commits_touching"),
                                   {"project": project, "path": path, "folder": path + "/"}).fetchall()
        wanted = {(p, sha) for p, sha in touching}
        eligible &= np.fromiter(((p, s) in wanted for p, s in zip(snapshot.project, snapshot.sha)),
                                dtype=bool, count=snapshot.size)
    if not eligible.any():
        return []
    query_vector = embedder.embed([text])[0]
    with one_blas_thread():
        similarity = snapshot.vectors @ query_vector
    ranked = hybrid_rank(
        similarity, snapshot.bm25, keywords.terms(text), eligible, limit,
        importance=np.zeros(snapshot.size), recency=np.arange(snapshot.size),
    )
    rows = [int(row) for row in ranked.rows]
    paths = _paths(index.store, [(snapshot.project[row], snapshot.sha[row]) for row in rows])
    return [snapshot.hit(row, float(score), paths.get((snapshot.project[row], snapshot.sha[row]), ()))
            for row, score in zip(rows, ranked.scores)]


def _paths(store: Store, commits: list[tuple[str, str]]) -> dict[tuple[str, str], tuple[str, ...]]:
    by_project: dict[str, list[str]] = {}
    for project, sha in commits:
        by_project.setdefault(project, []).append(sha)
    found = {}
    with store.read() as con:
        for project, shas in by_project.items():
            for sha, paths in con.execute(sql.query("commit_paths"), {"project": project, "shas": shas}).fetchall():
                found[(project, sha)] = tuple(paths)
    return found
