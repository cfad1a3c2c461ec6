"""Hybrid retrieval over an in-memory snapshot: exact vectors + BM25, fused.

Vector search is exact (a matrix-vector product over every row): at the sizes
an agent's memory reaches it is a few milliseconds, it filters before ranking,
and it never goes stale. BM25 runs over postings built with numpy from the
stored term lists. Code, experiences and values fuse the two by a weighted sum
of the cosine and the BM25 score normalised by the query's own idf mass
("qnorm", chosen over reciprocal rank fusion by measurement); memories by
z-scores with their stored neighbours ("zscore", chosen on seven recall sets at
once). Both measured in bench/quality/RESULTS.md. Exact ties break by
importance, then recency.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from threadpoolctl import ThreadpoolController


@cache
def _blas_controller() -> ThreadpoolController:
    return ThreadpoolController()


def one_blas_thread():
    """A matrix-vector product gains nothing from BLAS threads, and their busy-waiting after
    the call starves the embedding model's threads on a small machine: retrieve p95 at 10k
    memories went from ~16 ms to ~5 ms on 2 cores with one BLAS thread."""
    return _blas_controller().limit(limits=1, user_api="blas")


# From this many rows, matvec splits a product between two threads: 100,000 x 384 took 12.5 ms on one thread and
# 6.7 ms on two, 10,000 0.43 and 0.26 ms (2-core machine); below it a handoff costs more than it saves.
SPLIT_ROWS = 32_768
_SPLIT_WAYS = min(os.cpu_count() or 1, 4)


@cache
def _product_pool(pid: int) -> ThreadPoolExecutor:
    """This process's threads for matvec (a forked child, `pid`, makes its own: its parent's are not in it)."""
    return ThreadPoolExecutor(_SPLIT_WAYS - 1, thread_name_prefix="learnmem-matvec")


def matvec(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """`matrix @ vector` with one BLAS thread (one_blas_thread), split between the cores when the matrix is large:
    a product over every stored vector reads them all, and one core cannot read 150 MB (100,000 memories) as
    fast as two. Python threads wait for their slices without spinning, unlike BLAS's own."""
    with one_blas_thread():
        if len(matrix) < SPLIT_ROWS or _SPLIT_WAYS < 2:
            return matrix @ vector
        out = np.empty(len(matrix), dtype=np.result_type(matrix, vector))
        bounds = np.linspace(0, len(matrix), _SPLIT_WAYS + 1).astype(int)
        slices = list(zip(bounds[:-1], bounds[1:]))
        futures = [_product_pool(os.getpid()).submit(np.matmul, matrix[a:b], vector, out=out[a:b]) for a, b in slices[1:]]
        np.matmul(matrix[slices[0][0] : slices[0][1]], vector, out=out[slices[0][0] : slices[0][1]])
        for future in futures:
            future.result()
        return out


BM25_K1 = 1.2
BM25_B = 0.75
RRF_K = 60
# Weight of the cosine in the default fusion; chosen by measurement (bench/quality/RESULTS.md).
QNORM_ALPHA = 0.9
# Memories ("zscore" fusion): weight of the cosine's z-score against BM25's, and of the fused score of each
# neighbour in stored order. The middle of the plateau where the fusion beats both BM25 and the vector on all
# seven recall sets in R@5, R@10 and nDCG@10 (bench/quality/RESULTS.md, issue 22).
ZSCORE_ALPHA = 0.85
NEIGHBOUR_WEIGHT = 0.2
# Each ranking contributes this many candidates (or `limit`, if larger) to the fusion.
CANDIDATES = 50


class _Postings:
    """One segment's postings in compressed sparse form: term -> (docs, term frequencies)."""

    def __init__(self, term_lists: pa.ListArray, first_doc: int):
        docs = len(term_lists)
        owners = pc.list_parent_indices(term_lists).to_numpy().astype(np.int64)
        encoded = pc.list_flatten(term_lists).dictionary_encode()
        self.vocabulary = {term: i for i, term in enumerate(encoded.dictionary.to_pylist())}
        term_ids = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        # One key per (term, doc) pair; np.unique sorts by term, then doc, and counts repeats (tf).
        stride = max(docs, 1)
        keys, frequencies = np.unique(term_ids * stride + owners, return_counts=True)
        self.docs = keys % stride + first_doc
        self.tf = frequencies.astype(np.float32)
        self.offsets = np.searchsorted(keys // stride, np.arange(len(self.vocabulary) + 1))
        self.lengths = np.bincount(owners, minlength=docs).astype(np.float32)

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        term_id = self.vocabulary.get(term)
        if term_id is None:
            return _NO_DOCS, _NO_TF
        start, end = self.offsets[term_id], self.offsets[term_id + 1]
        return self.docs[start:end], self.tf[start:end]


_NO_DOCS = np.zeros(0, dtype=np.int64)
_NO_TF = np.zeros(0, dtype=np.float32)
# Appends add small segments; past this many they are merged into one.
_MAX_SEGMENTS = 8


class Bm25:
    """Okapi BM25 over segments of postings; appending documents adds a segment instead of rebuilding."""

    def __init__(self, term_lists: pa.ListArray | pa.ChunkedArray, _segments: list[_Postings] | None = None):
        self.term_lists = _as_chunked(term_lists)
        self.segments = _segments if _segments is not None else [_Postings(self.term_lists.combine_chunks(), 0)]
        self.docs = len(self.term_lists)
        lengths = np.concatenate([segment.lengths for segment in self.segments])
        average = float(lengths.mean()) if self.docs and lengths.sum() else 1.0
        self.length_norm = BM25_K1 * (1 - BM25_B + BM25_B * lengths / average)

    def extended(self, new_term_lists: pa.ListArray | pa.ChunkedArray) -> Bm25:
        """BM25 over these documents followed by the new ones."""
        combined = pa.chunked_array(self.term_lists.chunks + _as_chunked(new_term_lists).chunks, self.term_lists.type)
        if len(self.segments) >= _MAX_SEGMENTS:
            # Fold the small appended segments into one; rebuild all only once they outgrow a quarter.
            base = len(self.segments[0].lengths)
            if (len(combined) - base) * 4 > len(combined):
                return Bm25(combined)
            return Bm25(combined, [self.segments[0], _Postings(combined[base:].combine_chunks(), base)])
        segment = _Postings(_as_chunked(new_term_lists).combine_chunks(), self.docs)
        return Bm25(combined, [*self.segments, segment])

    def document_frequency(self, term: str) -> int:
        """How many documents contain the term."""
        return sum(len(segment.postings(term)[0]) for segment in self.segments)

    def idf(self, term: str) -> float:
        """Okapi idf of a term present in `df` documents: ln(1 + (N - df + 0.5) / (df + 0.5))."""
        df = self.document_frequency(term)
        return float(np.log1p((self.docs - df + 0.5) / (df + 0.5)))

    def scores(self, query_terms: Sequence[str]) -> np.ndarray:
        """BM25 score of every document for the query (0 where no term matches)."""
        scores = np.zeros(self.docs, dtype=np.float32)
        for term in set(query_terms):
            found = [segment.postings(term) for segment in self.segments]
            docs = np.concatenate([d for d, _ in found])
            if not len(docs):
                continue
            tf = np.concatenate([t for _, t in found])
            scores[docs] += self.idf(term) * tf * (BM25_K1 + 1) / (tf + self.length_norm[docs])
        return scores

    def query_norm(self, query_terms: Sequence[str]) -> float:
        """Sum of the idf of the query's terms found in the index.

        What a document of average length holding each of them once would
        score: dividing by it tells how much of the query's rare vocabulary a
        document holds, unlike dividing by the best score, which gives 1 to a
        document matching a single name.
        """
        return sum(self.idf(term) for term in set(query_terms) if self.document_frequency(term))


def _as_chunked(term_lists: pa.ListArray | pa.ChunkedArray) -> pa.ChunkedArray:
    if isinstance(term_lists, pa.ChunkedArray):
        return term_lists
    return pa.chunked_array([term_lists], term_lists.type)


@dataclass(frozen=True)
class Ranked:
    """Rows of the snapshot in fused order, with their fused scores."""

    rows: np.ndarray
    scores: np.ndarray


def _top(values: np.ndarray, eligible: np.ndarray, count: int) -> np.ndarray:
    """Indices of the `count` largest eligible values, best first."""
    candidates = np.flatnonzero(eligible)
    if len(candidates) > count:
        candidates = candidates[np.argpartition(-values[candidates], count - 1)[:count]]
    return candidates[np.argsort(-values[candidates], kind="stable")]


def _shared_ranks(descending: np.ndarray) -> np.ndarray:
    """1-based ranks of values sorted best first, equal values sharing the best rank among them."""
    return np.searchsorted(-descending, -descending, side="left") + 1


def hybrid_rank(
    similarity: np.ndarray,
    bm25: Bm25,
    query_terms: Sequence[str],
    eligible: np.ndarray,
    limit: int,
    importance: np.ndarray,
    recency: np.ndarray,
    fusion: str = "qnorm",
    alpha: float = QNORM_ALPHA,
    neighbours: float = 0.0,
    bonus: Callable[[np.ndarray], np.ndarray] | None = None,
) -> Ranked:
    """Fuse the vector ranking (`similarity`: each row's cosine to the query) and the BM25 ranking of the eligible rows.

    Candidates: the best CANDIDATES rows by cosine and the best CANDIDATES with any keyword match.
    fusion "qnorm" (default): alpha * cosine + (1 - alpha) * min(1, BM25 / the query's BM25 norm).
    fusion "convex": alpha * cosine + (1 - alpha) * BM25 / the best BM25 of the query.
    fusion "rrf": reciprocal rank fusion, sum of 1 / (RRF_K + rank).
    fusion "zscore": every eligible row, by alpha * z(cosine) + (1 - alpha) * z(BM25), each z-scored over the
      eligible rows, plus `neighbours` x the same fused value of the eligible row stored just before it and of
      the one just after (by `recency`): what is stored together is often asked about together, such as a turn
      and the answer that follows it. Scores are put back on the cosine's scale (see `_zscore_rank`).
    fusion "vector" / "keyword": one ranking alone (for measurement).
    `bonus`, given the candidate rows, returns what to add to their fused scores (code search's name match);
    not used by "zscore".
    `recency` is any number that grows with time (e.g. insertion order); it and
    `importance` only break exact ties of the fused score.
    """
    depth = max(CANDIDATES, limit)
    keyword = bm25.scores(query_terms)
    if fusion == "zscore":
        return _zscore_rank(similarity, keyword, eligible, limit, importance, recency, alpha, neighbours)
    by_vector = _top(similarity, eligible, depth) if fusion != "keyword" else _NO_DOCS
    by_keyword = _top(keyword, eligible & (keyword > 0), depth) if fusion != "vector" else _NO_DOCS
    chosen = np.union1d(by_vector, by_keyword).astype(np.int64)
    fused = np.zeros(len(similarity), dtype=np.float64)
    if fusion == "qnorm":
        norm = bm25.query_norm(query_terms)
        keyword_part = np.minimum(1.0, keyword[chosen] / norm) if norm > 0 else 0.0
        fused[chosen] = alpha * similarity[chosen] + (1 - alpha) * keyword_part
    elif fusion == "convex":
        best = float(keyword[by_keyword[0]]) if len(by_keyword) else 1.0
        fused[chosen] = alpha * similarity[chosen] + (1 - alpha) * keyword[chosen] / best
    elif fusion == "rrf":
        for ranking, values in ((by_vector, similarity), (by_keyword, keyword)):
            fused[ranking] += 1.0 / (RRF_K + _shared_ranks(values[ranking]))
    elif fusion == "vector":
        fused[chosen] = similarity[chosen]
    elif fusion == "keyword":
        fused[chosen] = keyword[chosen]
    else:
        raise ValueError(f"fusion: {fusion!r} is not one of: qnorm, zscore, convex, rrf, vector, keyword")
    if bonus is not None:
        fused[chosen] += bonus(chosen)
    order = np.lexsort((-recency[chosen], -importance[chosen], -fused[chosen]))[:limit]
    return Ranked(rows=chosen[order], scores=fused[chosen[order]])


def _z(values: np.ndarray) -> np.ndarray:
    """Standard scores; all zeros when the values do not vary (no keyword matched, or one row)."""
    spread = values.std()
    return (values - values.mean()) / spread if spread > 0 else np.zeros(len(values))


def _zscore_rank(similarity: np.ndarray, keyword: np.ndarray, eligible: np.ndarray, limit: int,
                 importance: np.ndarray, recency: np.ndarray, alpha: float, neighbours: float) -> Ranked:
    """hybrid_rank's "zscore" fusion over every eligible row.

    z-scores over the whole eligible store, not over a candidate pool: a pool's make-up changes with the
    query (how many rows matched a keyword), which moved its z-scores and lost to the vector on one set.
    The score returned is the fused value on the cosine's scale, mean + sd x fused / alpha of the eligible
    rows' cosines, in the same order as the fused value: a row's own cosine, plus its keyword match and its
    neighbours' relevance in cosine units (with no keyword matched and no neighbours, exactly the cosine).
    """
    rows = np.flatnonzero(eligible)
    if not len(rows):
        return Ranked(rows=rows, scores=np.zeros(0))
    stored = recency[rows]
    in_order = bool((stored[1:] >= stored[:-1]).all())  # a memory snapshot's rows are in stored order
    if not in_order:
        rows = rows[np.argsort(stored, kind="stable")]
    everything = in_order and len(rows) == len(similarity)  # then no copy of the rows' values is needed
    cosine = (similarity if everything else similarity[rows]).astype(np.float64)
    fused = alpha * _z(cosine) + (1 - alpha) * _z(keyword if everything else keyword[rows])
    if neighbours:
        own = fused.copy()
        fused[1:] += neighbours * own[:-1]
        fused[:-1] += neighbours * own[1:]
    keep = np.arange(len(rows))
    if len(rows) > limit:
        cut = np.partition(fused, len(rows) - limit)[len(rows) - limit]
        keep = np.flatnonzero(fused >= cut)  # every row tied with the last place, for the tie-break below
    order = keep[np.lexsort((-recency[rows[keep]], -importance[rows[keep]], -fused[keep]))][:limit]
    scores = cosine.mean() + cosine.std() * fused[order] / alpha
    return Ranked(rows=rows[order], scores=scores)
