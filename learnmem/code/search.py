"""Code search: hybrid (exact vectors + BM25 over identifiers, signatures, docstrings, bodies) over code units.

Like memories, a process keeps a snapshot of every unit's vector and terms and
refreshes it when the file changed; an index run rewrites whole files, so the
snapshot is simply reloaded then.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pyarrow as pa

from learnmem.search import keywords
from learnmem.storage import sql
from learnmem import validate
from learnmem.code.describe import words
from learnmem.code.languages import LANGUAGES
from learnmem.search.hybrid import CANDIDATES, Bm25, hybrid_rank, matvec
from learnmem.storage.snapshot_cache import SnapshotCache
from learnmem.storage.store import Store
from learnmem.storage.vectors import to_matrix

UNIT_TYPES = ("module", "class", "function", "method", "key")
MAX_LIMIT = 100
SNIPPET_LINES = 6
# How code rankings are fused: 0.8 x cosine + 0.2 x BM25 / the query's best BM25. Chosen on hypothesis and
# mongoose (best of qnorm and convex at alphas 0.3-0.95 on both) and checked on nine other libraries
# (bench/code/RESULTS.md, "The digest").
CODE_FUSION = "convex"
CODE_ALPHA = 0.8
# Added to a function's or method's fused score: this weight x the share of the words of its name that the query
# holds. "Get the year of the given date" holds all of getYear's words and two of getDayOfYear's three, where the
# vector and BM25 (which also read the body) rank them alike. 0.04 to 0.12 ranked alike on the tuning libraries;
# 0.08 is the middle. Not classes: a class's name is what a query is about ("parse the config file" holds all of
# `Config`), not what it asks for (`Config.load`) (bench/code/RESULTS.md, "Search by meaning per language").
NAME_WEIGHT = 0.08
_NAMED_ACTIONS = frozenset({"function", "method"})
# "reduce:2": the second definition of `reduce` in a file (an overload, a redefinition).
_OVERLOAD = re.compile(r":\d+$")


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
        self._names: list[str] | None = None
        self._functions: list[tuple[str, str, str]] | None = None
        self._eligible: dict[tuple, np.ndarray] = {}

    def name_match(self, query_terms: list[str]) -> Callable[[np.ndarray], np.ndarray]:
        """For hybrid_rank's bonus: NAME_WEIGHT x the share of a function's or method's name words (stemmed) among
        the query's terms; 0 for other units."""
        if self._names is None:
            self._names = self.table.column("name").to_pylist()
        wanted = set(query_terms)
        kinds = self.filters["unit_type"]

        def bonus(rows: np.ndarray) -> np.ndarray:
            shares = []
            for row in rows:
                words_of_name = _name_terms(self._names[row]) if kinds[row] in _NAMED_ACTIONS else frozenset()
                shares.append(len(words_of_name & wanted) / len(words_of_name) if words_of_name else 0.0)
            return NAME_WEIGHT * np.array(shares)
        return bonus

    def function_key(self, row: int) -> tuple[str, str, str]:
        """The function a row is part of, as search returns it once: (project, file, function_name)."""
        if self._functions is None:
            self._functions = list(zip(self.filters["project"], self.table.column("file_path").to_pylist(),
                                       map(function_name, self.table.column("qualified_name").to_pylist())))
        return self._functions[row]

    def eligible(self, **wanted: str | None) -> np.ndarray:
        """Rows matching every given filter (read-only). Module units (whole files) only when asked for by
        unit_type: they would otherwise crowd out the definitions they contain. Kept per filter: comparing
        50,000 strings costs a query half a millisecond each time."""
        key = tuple(sorted(wanted.items()))
        mask = self._eligible.get(key)
        if mask is None:
            mask = np.ones(self.size, dtype=bool)
            for name, value in wanted.items():
                if value is not None:
                    mask &= self.filters[name] == value
            if wanted.get("unit_type") is None:
                mask &= self.filters["unit_type"] != "module"
            mask.flags.writeable = False
            if len(self._eligible) >= 64:
                self._eligible.clear()
            self._eligible[key] = mask
        return mask

    def hit(self, row: int, score: float) -> CodeHit:
        values = {name: self.table.column(name)[row].as_py() for name in (
            "project", "file_path", "start_line", "end_line", "qualified_name", "name", "module", "unit_type",
            "language", "signature", "content")}
        content = values.pop("content")
        snippet = "\n".join(content.splitlines()[:SNIPPET_LINES])
        return CodeHit(score=score, snippet=snippet, **values)


@lru_cache(maxsize=100_000)
def _name_terms(name: str) -> frozenset[str]:
    """A unit name's words as BM25 terms: "getDayOfYear" -> {get, day, year} (only candidates' names are read)."""
    return frozenset(keywords.terms(words(name)))


def function_name(qualified_name: str) -> str:
    """The one function a unit is to a reader: its overloads and redefinitions ("reduce:2" -> "reduce"), and a
    function named like the unit it is directly inside, `var once = _curry1(function once(fn) {...})` in
    JavaScript ("once.once" -> "once"). Search returns each function once, as its best-ranked unit."""
    parts = _OVERLOAD.sub("", qualified_name).split(".")
    if len(parts) >= 2 and parts[-1] == parts[-2]:
        parts.pop()
    return ".".join(parts)


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


def _ranked(index: CodeIndex, embedder, text: str, limit: int, filters: dict, by_name: bool) -> list[CodeHit]:
    """The best `limit` functions, each as its best-ranked unit (`function_name`); `by_name` adds the name match."""
    snapshot = index.snapshot()
    eligible = snapshot.eligible(**filters)
    if not eligible.any():
        return []
    similarity = matvec(snapshot.vectors, embedder.embed([text])[0])
    terms = keywords.terms(text)
    # Every candidate ranked (CANDIDATES from each ranking, or twice the limit), so that `limit` hits remain once
    # a function's units are folded into one.
    ranked = hybrid_rank(
        similarity, snapshot.bm25, terms, eligible, max(CANDIDATES, 2 * limit),
        importance=np.zeros(snapshot.size), recency=np.arange(snapshot.size), fusion=CODE_FUSION, alpha=CODE_ALPHA,
        bonus=snapshot.name_match(terms) if by_name else None,
    )
    hits, seen = [], set()
    for row, score in zip(ranked.rows, ranked.scores):
        key = snapshot.function_key(int(row))
        if key not in seen:
            seen.add(key)
            hits.append(snapshot.hit(int(row), float(score)))
            if len(hits) == limit:
                break
    return hits


def search_code(index: CodeIndex, embedder, query: str, project: str | None = None, language: str | None = None,
                unit_type: str | None = None, limit: int = 10) -> list[CodeHit]:
    """Code units that match `query` by meaning, by identifiers and by their names' words, best first; each
    function once (see `function_name`)."""
    filters = _check("query", query, limit, project, language, unit_type)
    return _ranked(index, embedder, query.strip(), limit, filters, by_name=True)


def find_similar_code(index: CodeIndex, embedder, snippet: str, project: str | None = None, limit: int = 10) -> list[CodeHit]:
    """Code units that look like `snippet`, best first; each function once (see `function_name`)."""
    filters = _check("snippet", snippet, limit, project, None, None)
    return _ranked(index, embedder, snippet, limit, filters, by_name=False)
