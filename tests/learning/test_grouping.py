"""How experiences are grouped (clusters.cluster_labels): the narrative axes by average linkage over each
experience's reduced embedding beside the TF-IDF of its terms, the one-sentence axes by HDBSCAN. No model:
vectors are made here. What the method finds on real corpora, against the method before it, is measured in
tests/learning/test_corpora.py and bench/learning."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from learnmem.errors import ValidationError
from learnmem.learning import clusters


def two_themes(sizes=(12, 8), seed: int = 0):
    """Tight groups of unit vectors around two random directions, and terms of each group's own."""
    rng = np.random.default_rng(seed)
    directions = rng.normal(size=(len(sizes), 384))
    rows = [directions[g] + 0.35 * rng.normal(size=384) for g, size in enumerate(sizes) for _ in range(size)]
    vectors = np.asarray(rows, dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    words = (["redis", "ttl", "evict"], ["mock", "patch", "import"])
    term_lists = [list(words[g]) + [f"own{g}{n}"] for g, size in enumerate(sizes) for n in range(size)]
    return vectors, term_lists, [g for g, size in enumerate(sizes) for _ in range(size)]


def groups(labels) -> set[frozenset[int]]:
    return {frozenset(np.flatnonzero(np.asarray(labels) == label).tolist()) for label in set(labels) - {-1}}


def test_narrative_axes_use_linkage_and_one_sentence_axes_hdbscan():
    assert {axis: clusters.parameters(axis).method for axis in clusters.AXES} == {
        "full": "linkage", "strategy": "linkage", "surprise": "hdbscan", "root_cause": "hdbscan"}
    assert set(clusters.parameters("full").stored()) == {"min_cluster_size", "explained_variance", "method",
                                                          "term_weight", "hybrid_dims", "distance"}


def test_linkage_finds_the_groups_numbered_largest_first():
    vectors, term_lists, truth = two_themes()
    labels, _ = clusters.cluster_labels(vectors, clusters.parameters("full"), term_lists)
    assert groups(labels) == groups(truth)
    assert labels[0] == 0 and labels[-1] == 1  # the group of 12 is cluster 0


def test_a_group_smaller_than_min_cluster_size_is_noise():
    vectors, term_lists, _ = two_themes()
    labels, _ = clusters.cluster_labels(vectors, replace(clusters.parameters("full"), min_cluster_size=10),
                                        term_lists)
    assert groups(labels) == {frozenset(range(12))} and (labels[12:] == -1).all()


def test_experiences_without_a_shared_term_are_grouped_by_the_embedding_alone():
    vectors, _, truth = two_themes()
    unique = [[f"only{n}"] for n in range(len(vectors))]  # no term in two experiences: no TF-IDF column
    labels, _ = clusters.cluster_labels(vectors, clusters.parameters("full"), unique)
    assert groups(labels) == groups(truth)


def test_an_unknown_method_names_the_options():
    with pytest.raises(ValidationError, match="method.*linkage, hdbscan"):
        clusters.cluster_labels(two_themes()[0], replace(clusters.parameters("full"), method="kmeans"))


def partition(labels) -> set[frozenset[int]]:
    found: dict[int, set[int]] = {}
    for point, label in enumerate(np.asarray(labels).tolist()):
        found.setdefault(label, set()).add(point)
    return {frozenset(points) for points in found.values()}


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("distance", [0.3, 0.7, 1.0])
def test_the_linkage_cut_is_scipys_average_linkage_cut(seed, distance):
    """The nearest-neighbour chain gives the partition scipy's O(n^2) average linkage gives, on groups of
    varied tightness and size (an independent implementation as the reference)."""
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.spatial.distance import pdist

    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(6, 16))
    points = np.concatenate([centre + rng.uniform(0.2, 1.5) * rng.normal(size=(int(rng.integers(3, 40)), 16))
                             for centre in centres])
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    reference = fcluster(linkage(np.clip(pdist(points, "cosine"), 0, 2), "average"), distance, "distance")
    assert partition(clusters.average_linkage_cut(points, distance)) == partition(reference)
