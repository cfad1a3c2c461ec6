"""Retrieval quality on real code with its docstrings removed: docstring first sentence -> its function.

For each library: a seeded sample of its files (about `max_units` units) is
copied with every docstring replaced by `pass` (line numbers kept), indexed
with the real embedder into a file of its own, and each query (the first
sentence of a function's or method's docstring, >= 4 words) is ranked by
`learnmem.search.hybrid.hybrid_rank` over the snapshot, exactly as `search_code`
does it, for every fusion and alpha; the public `search_code` (the library
default, CODE_ALPHA) is run too. The answer is the (module, qualified name).
"""

from __future__ import annotations

import numpy as np

from bench.code.libs import copy_package, sample_library
from bench.measure import Stopwatch

ALPHAS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
K = 10


def configs() -> list[tuple[str, str, float]]:
    """(label, fusion, alpha) for every ranking measured."""
    out = [("vector", "vector", 1.0), ("keyword (BM25)", "keyword", 0.0), ("rrf k=60", "rrf", 0.0)]
    out += [(f"qnorm a={a}", "qnorm", a) for a in ALPHAS]
    out += [(f"convex a={a}", "convex", a) for a in ALPHAS]
    return out


def metrics(ranks: list[int]) -> dict:
    """MRR@10, Recall@1, Recall@10 from 1-based ranks (0 = not in the top 10)."""
    r = np.asarray(ranks)
    rr = np.where(r > 0, 1.0 / np.maximum(r, 1), 0.0)
    return {"mrr": float(rr.mean()), "r1": float((r == 1).mean()), "r10": float((r > 0).mean()), "rr": rr}


def evaluate_library(package: str, embedder, work, max_units: int, max_queries: int, log) -> dict:
    import learnmem
    from learnmem.search import keywords
    from learnmem.search.hybrid import hybrid_rank, one_blas_thread

    sample = sample_library(package, max_units, max_queries)
    root = work / f"quality-{package}"
    copy_package(package, root, sample.files, strip=True)
    lm = learnmem.open(work / f"quality-{package}.duckdb", embedder=embedder)
    misses_before = getattr(embedder, "misses", 0)
    with Stopwatch() as sw:
        result = lm.index_codebase(root, project=package, progress=False)
    embedded_now = getattr(embedder, "misses", 0) - misses_before
    log(f"quality {package}: {len(sample.files)} files, {result.units} units, {len(sample.queries)} queries, "
        f"indexed in {sw.seconds:.1f} s ({embedded_now} texts embedded by the model, the rest from cache)")
    snapshot = lm._code_index.snapshot()
    eligible = snapshot.eligible()
    keys = list(zip(snapshot.table.column("module").to_pylist(), snapshot.table.column("qualified_name").to_pylist()))
    known = set(keys)
    queries = [q for q in sample.queries if (q.module, q.qualified_name) in known]
    ranks: dict[str, list[int]] = {label: [] for label, _, _ in configs()}
    ranks["search_code (default)"] = []
    importance, recency = np.zeros(snapshot.size), np.arange(snapshot.size)
    for q in queries:
        answer = (q.module, q.qualified_name)
        vector = embedder.embed([q.text])[0]
        with one_blas_thread():
            similarity = snapshot.vectors @ vector
        terms = keywords.terms(q.text)
        for label, fusion, alpha in configs():
            ranked = hybrid_rank(similarity, snapshot.bm25, terms, eligible, K, importance, recency,
                                 fusion=fusion, alpha=alpha)
            ranks[label].append(next((i + 1 for i, row in enumerate(ranked.rows[:K]) if keys[row] == answer), 0))
        hits = lm.search_code(q.text, limit=K)
        ranks["search_code (default)"].append(
            next((i + 1 for i, h in enumerate(hits) if (h.module, h.qualified_name) == answer), 0))
    lm.close()
    return {"package": package, "files": len(sample.files), "units": result.units,
            "eligible": int(eligible.sum()), "queries": len(queries), "dropped": len(sample.queries) - len(queries),
            "index_seconds": sw.seconds, "embedded": embedded_now,
            "scores": {label: metrics(r) for label, r in ranks.items()}}


def paired_ci(a: np.ndarray, b: np.ndarray, resamples: int = 2000, seed: int = 11) -> tuple[float, float, float]:
    """Mean of a - b (per-query reciprocal ranks) and its 95% bootstrap interval."""
    diff = a - b
    rng = np.random.default_rng(seed)
    means = diff[rng.integers(0, len(diff), (resamples, len(diff)))].mean(axis=1)
    return float(diff.mean()), float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))
