"""The frozen dataclasses learning returns (shapes from ../shared/GHAP.md "Tool outputs").

Times are ISO 8601 strings in UTC ending in `Z`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ClusterInfo:
    """One cluster of a run: `label` is the terms that set it apart from the rest of the axis."""

    cluster_id: str
    label: str
    size: int
    avg_weight: float


@dataclass(frozen=True)
class ClusterRun:
    """get_clusters: the clusters of one axis, largest first, and how many experiences were noise;
    `experience_count` is how many could be members (the warm ones), `cold_count` how many could not (they
    take part in finding the clusters, never in one: learning.get_clusters)."""

    axis: str
    run_id: str
    clusters: tuple[ClusterInfo, ...]
    count: int
    noise_count: int
    experience_count: int
    created_at: str
    dissolved_values: tuple[str, ...] = ()  # values this run left without a cluster (flagged, not deleted)
    cold_count: int = 0  # cold experiences of the axis: never members (kept in the file; terms.cold_tiers)


@dataclass(frozen=True)
class ValueCheck:
    """validate_value: whether `text` may be stored as a value of the cluster, and why.

    `centroid_distance` is the candidate's cosine distance to the centroid of what the cluster's
    members learned (their value forms) and `threshold_distance` the published bound (mean + 1 sd
    of those members' distances); `similarity` is 1 - centroid_distance. `cluster_similarity` is
    the candidate's cosine similarity to the cluster's own centroid, `nearest_cluster_id` the axis
    cluster it is closest to, and `nearest_other_cluster_id` / `nearest_other_similarity` the
    closest cluster besides this one (None when the axis has no other). `shared_terms` are the
    candidate's words (as it spells them) whose stem at least two members wrote, most common among
    the members first: what it shares with the cluster in words. values.validate_value documents the rule.
    """

    valid: bool
    similarity: float
    centroid_distance: float
    threshold_distance: float
    reason: str
    cluster_id: str
    nearest_cluster_id: str
    cluster_similarity: float = 0.0
    nearest_other_cluster_id: str | None = None
    nearest_other_similarity: float | None = None
    shared_terms: tuple[str, ...] = ()


@dataclass(frozen=True)
class Value:
    """A stored value (store_value, list_values, search_values); `dissolved_at` is set when its cluster
    dissolved, `score` by search_values."""

    id: str
    text: str
    axis: str
    cluster_id: str
    cluster_size: int
    similarity_to_centroid: float
    created_at: str
    dissolved_at: str | None = None
    score: float | None = None


def value_from_row(row: dict, score: float | None = None) -> Value:
    """A Value from a row of learned_values with its cluster's size (queries all_values, hooks' values)."""
    from learnmem.storage.store import iso

    return Value(id=row["id"], text=row["text"], axis=row["axis"], cluster_id=row["cluster_id"],
                 cluster_size=int(row["cluster_size"]), similarity_to_centroid=float(row["similarity_to_centroid"]),
                 created_at=iso(row["created_at"]),
                 dissolved_at=iso(row["dissolved_at"]) if row["dissolved_at"] is not None else None, score=score)
