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
