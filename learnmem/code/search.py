"""Code search: hybrid (exact vectors + BM25 over identifiers, signatures, docstrings, bodies) over code units.

Like memories, a process keeps a snapshot of every unit's vector and terms and
refreshes it when the file changed; an index run rewrites whole files, so the
snapshot is simply reloaded then.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from learnmem.search import keywords
from learnmem.storage import sql
from learnmem import validate
from learnmem.code.languages import LANGUAGES
from learnmem.search.hybrid import Bm25, hybrid_rank, one_blas_thread
from learnmem.storage.snapshot_cache import SnapshotCache
from learnmem.storage.store import Store
from learnmem.storage.vectors import to_matrix

UNIT_TYPES = ("module", "class", "function", "method", "key")
MAX_LIMIT = 100
SNIPPET_LINES = 6
# How code rankings are fused: 0.8 x cosine + 0.2 x BM25 / the query's best BM25. Chosen on the two tuning
# libraries (hypothesis, mongoose: best of qnorm and convex at alphas 0.3-0.95 on both), checked on nine
# held-out ones (bench/code/RESULTS.md, "Search by meaning per language").
CODE_FUSION = "convex"
CODE_ALPHA = 0.8


@dataclass(frozen=True)
class CodeHit:
    """A code unit found by search, with where it is and a short snippet."""

    score: float
    project: str
    file_path: str
    start_line: int
    end_line: int
    qualified_name: str
    name: str
    module: str
    unit_type: str
    language: str
    signature: str
    snippet: str


class CodeSnapshot:
    """Every code unit at one moment: vectors, BM25 postings, filter columns, result columns."""

    def __init__(self, table: pa.Table, dim: int):
        self.table = table
        self.size = table.num_rows
        self.vectors = to_matrix(table.column("embedding"), dim)
        self.bm25 = Bm25(table.column("terms"))
        self.filters = {name: np.asarray(table.column(name).to_pylist(), dtype=object)
                        for name in ("project", "language", "unit_type")}

    def eligible(self, **wanted: str | None) -> np.ndarray:
        """Rows matching every given filter. Module units (whole files) only when asked for by unit_type:
        they would otherwise crowd out the definitions they contain."""
        mask = np.ones(self.size, dtype=bool)
        for name, value in wanted.items():
            if value is not None:
                mask &= self.filters[name] == value
        if wanted.get("unit_type") is None:
            mask &= self.filters["unit_type"] != "module"
        return mask

    def hit(self, row: int, score: float) -> CodeHit:
        values = {name: self.table.column(name)[row].as_py() for name in (
            "project", "file_path", "start_line", "end_line", "qualified_name", "name", "module", "unit_type",
            "language", "signature", "content")}
        content = values.pop("content")
        snippet = "\n".join(content.splitlines()[:SNIPPET_LINES])
        return CodeHit(score=score, snippet=snippet, **values)


class CodeIndex(SnapshotCache[CodeSnapshot]):
    """Keeps a CodeSnapshot current for one store."""

    def __init__(self, store: Store, dim: int):
        super().__init__(store, sql.query("code_unit_stats"), sql.query("load_code_units"),
                         lambda table: CodeSnapshot(table, dim))


def _check(query_field: str, text, limit, project, language, unit_type) -> dict:
    validate.text(query_field, text, max_chars=10_000)
    validate.integer("limit", limit, low=1, high=MAX_LIMIT)
    if project is not None:
        validate.text("project", project, max_chars=200)
    if language is not None:
        validate.choice("language", language, sorted(set(LANGUAGES.values())))
    if unit_type is not None:
        validate.choice("unit_type", unit_type, UNIT_TYPES)
    return {"project": project, "language": language, "unit_type": unit_type}


def _ranked(index: CodeIndex, embedder, text: str, limit: int, filters: dict) -> list[CodeHit]:
    snapshot = index.snapshot()
    eligible = snapshot.eligible(**filters)
    if not eligible.any():
        return []
    query_vector = embedder.embed([text])[0]
    with one_blas_thread():
        similarity = snapshot.vectors @ query_vector
    ranked = hybrid_rank(
        similarity, snapshot.bm25, keywords.terms(text), eligible, limit,
        importance=np.zeros(snapshot.size), recency=np.arange(snapshot.size), fusion=CODE_FUSION, alpha=CODE_ALPHA,
    )
    return [snapshot.hit(int(row), float(score)) for row, score in zip(ranked.rows, ranked.scores)]


def search_code(index: CodeIndex, embedder, query: str, project: str | None = None, language: str | None = None,
                unit_type: str | None = None, limit: int = 10) -> list[CodeHit]:
    """Code units that match `query` by meaning and by identifiers, best first."""
    filters = _check("query", query, limit, project, language, unit_type)
    return _ranked(index, embedder, query.strip(), limit, filters)


def find_similar_code(index: CodeIndex, embedder, snippet: str, project: str | None = None, limit: int = 10) -> list[CodeHit]:
    """Code units that look like `snippet`, best first."""
    filters = _check("snippet", snippet, limit, project, None, None)
    return _ranked(index, embedder, snippet, limit, filters)
