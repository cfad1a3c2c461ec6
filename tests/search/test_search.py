"""BM25 and fusion on small arrays: the pieces retrieval is built from."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from learnmem.search import hybrid as search
from learnmem.search.keywords import terms

documents = st.lists(st.lists(st.sampled_from(["alpha", "beta", "gamma", "delta", "eps"]), max_size=6), min_size=1, max_size=30)


@settings(max_examples=80, deadline=None)
@given(docs=documents, cuts=st.lists(st.integers(min_value=1, max_value=5), max_size=12))
def test_appending_segments_scores_exactly_like_a_full_rebuild(docs, cuts):
    lists = pa.array(docs, pa.list_(pa.string()))
    index = search.Bm25(lists.slice(0, 1))
    position = 1
    for cut in [*cuts, len(docs)]:
        if position >= len(docs):
            break
        index = index.extended(lists.slice(position, cut))
        position += cut
    index = index.extended(lists.slice(position)) if position < len(docs) else index
    full = search.Bm25(lists)
    for query in (["alpha"], ["beta", "eps"], ["missing"], ["gamma", "delta", "alpha"]):
        np.testing.assert_allclose(index.scores(query), full.scores(query), rtol=1e-6)


def test_bm25_prefers_rare_terms_and_short_documents():
    docs = [terms(t) for t in ("the cache is warm", "cache cache cache misses", "the redis cache", "cache eviction policy for redis in production clusters")]
    scores = search.Bm25(pa.array(docs, pa.list_(pa.string()))).scores(terms("redis"))
    assert scores[0] == scores[1] == 0
    assert scores[2] > scores[3] > 0  # same tf, shorter document wins


def test_identifiers_match_by_their_parts():
    assert {"load", "config"} <= set(terms("Never call load_config() at import time"))
    assert {"pars", "http", "request"} <= set(terms("parseHTTPRequest"))


def test_filters_apply_before_ranking():
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((1000, 8)).astype(np.float32)
    eligible = np.zeros(1000, dtype=bool)
    eligible[[3, 500, 999]] = True  # 0.3 % of rows pass the filter
    ranked = search.hybrid_rank(
        vectors @ vectors[0], search.Bm25(pa.array([["x"]] * 1000)), ["x"], eligible, 10,
        importance=np.zeros(1000), recency=np.arange(1000),
    )
    assert sorted(ranked.rows) == [3, 500, 999]


def _zscore(similarity, docs, query, eligible=None, limit=10, importance=None, neighbours=0.0, alpha=0.85):
    count = len(similarity)
    return search.hybrid_rank(
        np.asarray(similarity, dtype=np.float32), search.Bm25(pa.array(docs, pa.list_(pa.string()))), query,
        np.ones(count, dtype=bool) if eligible is None else eligible, limit,
        importance=np.zeros(count) if importance is None else np.asarray(importance), recency=np.arange(count),
        fusion="zscore", alpha=alpha, neighbours=neighbours)


def test_zscore_fusion_without_keywords_or_neighbours_ranks_and_scores_by_the_cosine():
    cosines = [0.1, 0.7, 0.3, 0.5, -0.2]
    ranked = _zscore(cosines, [["a"]] * 5, ["missing"])
    assert list(ranked.rows) == [1, 3, 2, 0, 4]
    np.testing.assert_allclose(ranked.scores, [0.7, 0.5, 0.3, 0.1, -0.2], atol=1e-6)


def test_zscore_fusion_lifts_a_keyword_match_over_a_slightly_closer_vector():
    cosines = [0.50, 0.52, 0.10, 0.12, 0.08, 0.11]
    docs = [["redis"], ["cache"], ["x"], ["y"], ["z"], ["w"]]
    assert list(_zscore(cosines, docs, ["redis"], limit=2).rows) == [0, 1]
    assert list(_zscore(cosines, docs, ["missing"], limit=2).rows) == [1, 0]


def test_zscore_fusion_lets_a_stored_neighbour_carry_a_memory_up():
    # Rows 2 and 5 are equally close to the query; row 6, stored right after row 5, matches it strongly.
    cosines = [0.0, 0.1, 0.40, 0.0, 0.1, 0.40, 0.9, 0.0]
    docs = [["x"]] * 8
    assert _zscore(cosines, docs, [], neighbours=0.2).rows[:2].tolist() == [6, 5]
    # Without the neighbour weight the tie falls to the newer row, 5, by recency too: make row 2 more important.
    importance = [0, 0, 1, 0, 0, 0, 0, 0]
    assert _zscore(cosines, docs, [], neighbours=0.0, importance=importance).rows[:3].tolist() == [6, 2, 5]
    assert _zscore(cosines, docs, [], neighbours=0.2, importance=importance).rows[:3].tolist() == [6, 5, 2]


def test_zscore_fusion_neighbours_are_the_eligible_rows_in_stored_order():
    cosines = [0.40, 0.9, 0.40, 0.0]
    eligible = np.array([True, False, True, True])  # row 1, next to both 0 and 2, is filtered out
    ranked = _zscore(cosines, [["x"]] * 4, [], eligible=eligible, neighbours=0.2, importance=[1, 0, 0, 0])
    assert ranked.rows.tolist() == [0, 2, 3]  # 0 and 2 tie (each beside the other): importance decides


def test_zscore_fusion_breaks_exact_ties_by_importance_then_recency_even_at_the_cut():
    cosines = [0.3, 0.3, 0.3, 0.3, 0.9]
    ranked = _zscore(cosines, [["x"]] * 5, [], limit=3, importance=[0, 1, 0, 0, 0])
    assert ranked.rows.tolist() == [4, 1, 3]
    assert len(_zscore(cosines, [["x"]] * 5, [], eligible=np.zeros(5, dtype=bool)).rows) == 0


def test_zscore_fusion_finds_neighbours_by_recency_not_by_row_position():
    cosines = np.array([0.9, 0.4, 0.0, 0.4, 0.0], dtype=np.float32)  # rows 1 and 3 are equally close

    def top_two(recency):
        return search.hybrid_rank(cosines, search.Bm25(pa.array([["x"]] * 5)), [], np.ones(5, dtype=bool), 2,
                                  importance=np.zeros(5), recency=np.array(recency), fusion="zscore",
                                  alpha=0.85, neighbours=0.2).rows.tolist()

    assert top_two([0, 1, 2, 3, 4]) == [0, 1]  # row 1 was stored right after row 0
    assert top_two([0, 3, 2, 1, 4]) == [0, 3]  # now row 3 was
