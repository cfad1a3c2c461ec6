"""Clustering and the value ritual on the planted-theme corpus, with the real model.

tests/data/experiences.jsonl holds 332 experiences: 10 planted themes of ~25
(flaky tests from shared state, timezone bugs, stale caches, ...) written with
varied wording, and 82 one-off tasks. The floors below sit well under what
bench/learning measured with the library's defaults: they fail when a change
makes things far worse, not on noise. `python -m bench.learning.corpora`
(bench/learning/RESULTS.md, "Every corpus") measured purity 0.82 on the full
axis (0.70 with HDBSCAN there, the method before issue 24: the full axis's
floor of 0.76 sits between), 0.54 on strategy, 0.46 on surprise, 0.70 on
root_cause; the ritual on the full axis accepted 9 of 10 first drafts,
refused 89 of the 90 other themes' summaries and every unrelated statement. The ARI
floors predate the change and stay as they were. tests/learning/test_corpora.py
does the same on the two corpora written blind.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from sklearn.metrics import adjusted_rand_score

import learnmem
from learnmem.learning import values
from tests.conftest import copy_corpus

DATA = Path(__file__).resolve().parents[1] / "data"
THEMES = json.loads((DATA / "experiences_themes.json").read_text(encoding="utf-8"))
WRITTEN = json.loads((DATA / "experiences_values.json").read_text(encoding="utf-8"))
VALUES, UNRELATED = WRITTEN["values"], WRITTEN["unrelated"]
SECOND_DRAFTS = WRITTEN["second_drafts"]["full"]

# axis: (ARI floor, purity floor)
FLOORS = {"full": (0.12, 0.76), "strategy": (0.03, 0.30), "surprise": (0.07, 0.30), "root_cause": (0.09, 0.45)}
FAITHFUL_FLOOR = 7  # first drafts accepted, of the 10 themes, on the full axis
# Issue 24's floor for other themes' summaries: at least 95 % refused. Measured: 1 of the 90 first drafts passes
# (flaky-shared-state's for mock-wrong-target's cluster: two themes about tests, whose clusters sit side by side).
OTHER_REFUSED_SHARE = 0.95


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, embedder, corpus_file):
    """The corpus imported (tests/conftest.py corpus_file: 332 entries, no error or warning) and clustered."""
    lm = learnmem.open(copy_corpus(corpus_file, tmp_path_factory.mktemp("corpus") / "corpus.duckdb"),
                       embedder=embedder)
    runs = {axis: lm.get_clusters(axis) for axis in FLOORS}
    return lm, runs


def memberships(lm, axis: str) -> tuple[list[str], list[int]]:
    """(true theme, cluster number or -1) of every experience of the axis's latest run."""
    rows = lm.sql("SELECT ghap_id, cluster_id FROM current_cluster_members WHERE axis = ? ORDER BY ghap_id",
                  [axis]).fetchall()
    numbers = {cluster_id: n for n, cluster_id in enumerate(sorted({c for _, c in rows if c}))}
    return [THEMES[ghap_id] for ghap_id, _ in rows], [numbers.get(c, -1) for _, c in rows]


def purity(truth: list[str], labels: list[int]) -> float:
    clusters: dict[int, Counter] = {}
    for true, label in zip(truth, labels):
        if label >= 0:
            clusters.setdefault(label, Counter())[true] += 1
    return sum(c.most_common(1)[0][1] for c in clusters.values()) / sum(sum(c.values()) for c in clusters.values())


@pytest.mark.parametrize("axis", list(FLOORS))
def test_clustering_recovers_the_planted_themes(corpus, axis):
    lm, runs = corpus
    truth, labels = memberships(lm, axis)
    # Cold storage: the 34 abandoned entries (full and strategy axes only) are left out of the clustering.
    assert len(truth) == runs[axis].experience_count == (298 if axis in ("full", "strategy") else 198)
    assert runs[axis].cold_count == (34 if axis in ("full", "strategy") else 0)
    ari, pure = adjusted_rand_score(truth, labels), purity(truth, labels)
    shuffled = adjusted_rand_score(sorted(truth), labels)  # the same clusters against scrambled themes
    ari_floor, purity_floor = FLOORS[axis]
    assert ari >= ari_floor and pure >= purity_floor, (axis, ari, pure)
    assert ari > shuffled + 0.03, (axis, ari, shuffled)


def theme_cluster(lm, axis: str, theme: str) -> str:
    """The cluster of the axis holding most of the theme's experiences."""
    rows = lm.sql("SELECT ghap_id, cluster_id FROM current_cluster_members WHERE axis = ? AND cluster_id IS NOT NULL",
                  [axis]).fetchall()
    counts = Counter(cluster_id for ghap_id, cluster_id in rows if THEMES[ghap_id] == theme)
    return counts.most_common(1)[0][0]


def test_the_value_ritual_on_every_planted_theme(corpus):
    """Full axis, every theme: a faithful summary passes for the theme's cluster, no unrelated statement
    passes for it, and at most 5 % of the other themes' summaries (first and second drafts) do.

    The first draft is the theme's summary, written before clustering; at most three may be refused (a
    cluster holding only one slice of its theme). Where the first draft is refused, the second draft, written
    by reading that cluster's members as the refusal asks, must pass: the ritual works in two drafts at most.
    """
    lm, _ = corpus
    first_accepted, accepted, others_accepted, others_checked = [], [], [], 0
    for theme, value in VALUES.items():
        cluster_id = theme_cluster(lm, "full", theme)
        check = lm.validate_value(value, cluster_id)
        assert check.cluster_id == cluster_id and check.threshold_distance > 0 and check.reason
        if check.valid:
            first_accepted.append(theme)
        elif theme in SECOND_DRAFTS:
            assert "closer to cluster" in check.reason or "too far" in check.reason, check.reason
            check = lm.validate_value(SECOND_DRAFTS[theme], cluster_id)
        if check.valid:
            accepted.append(theme)
            nearer = (check.nearest_other_similarity or -1.0) - check.cluster_similarity
            assert nearer <= values.NEAREST_MARGIN and check.centroid_distance <= check.threshold_distance
        for other in VALUES:
            if other != theme and theme_cluster(lm, "full", other) != cluster_id:
                for text in filter(None, (VALUES[other], SECOND_DRAFTS.get(other))):
                    others_checked += 1
                    if lm.validate_value(text, cluster_id).valid:
                        others_accepted.append((theme, other, text))
        for statement in UNRELATED:
            refused = lm.validate_value(statement, cluster_id)
            assert not refused.valid and refused.centroid_distance > refused.threshold_distance, (theme, statement)
    assert accepted == list(VALUES), sorted(set(VALUES) - set(accepted))
    assert len(first_accepted) >= FAITHFUL_FLOOR, sorted(set(VALUES) - set(first_accepted))
    assert len(others_accepted) <= (1 - OTHER_REFUSED_SHARE) * others_checked, others_accepted


@pytest.mark.parametrize("axis", ["surprise", "root_cause", "strategy"])
def test_unrelated_statements_are_refused_by_every_cluster(corpus, axis):
    lm, runs = corpus
    for cluster in runs[axis].clusters:
        for statement in UNRELATED:
            assert not lm.validate_value(statement, cluster.cluster_id).valid, (cluster.cluster_id, statement)


def test_a_faithful_value_is_stored_and_found(corpus):
    lm, _ = corpus
    cluster_id = theme_cluster(lm, "full", "timezone-dst")
    stored = lm.store_value(VALUES["timezone-dst"], cluster_id, "full")
    assert stored.cluster_size >= 10 and stored.similarity_to_centroid > 0
    assert lm.search_values("naive datetimes break on CI around daylight saving", limit=1)[0].id == stored.id
    assert stored.id in {value.id for value in lm.list_values(axis="full")}
