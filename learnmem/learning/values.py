"""Values: one-sentence principles an agent writes for a cluster, accepted only when grounded in it.

No language model runs here. The library clusters the embedded experiences of
an axis (clusters.py); an agent reads a cluster's members and writes a
candidate value; the library accepts it only when the text is grounded in that
cluster (`validate_value`), stores it with its embedding, and finds it again
by list or by hybrid search.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from learnmem import validate
from learnmem.errors import ValidationError
from learnmem.learning import experiences, ghap
from learnmem.learning.clusters import AXES, EMBEDDING_DIM, cluster_axis, current_cluster
from learnmem.learning.records import Value, ValueCheck, value_from_row
from learnmem.search import keywords
from learnmem.storage import sql
from learnmem.storage.snapshot_cache import SnapshotCache
from learnmem.storage.store import Store, iso, utc_now

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

MAX_VALUE_CHARS = 500
MAX_VALUES = 100
MAX_SEARCH = 50
VALUE_FORM_MEMBERS = 20  # the most central members whose value forms a value is compared with
# How much nearer another cluster may be: a theme split in two clusters has near twin centroids, and a
# faithful value of it lands a little nearer the twin as often as not (bench/learning/RESULTS.md).
NEAREST_MARGIN = 0.06
SHARED_TERMS = 10  # at most this many shared terms in a check


def value_form(axis: str, member: dict) -> str | None:
    """What a member experience taught, in the shape of a value: the text a value is compared with.

    surprise: the surprise; root_cause: `{category}: {description}`; full and strategy: the lesson
    (takeaway, then what worked), else the root cause, else the result.
    """
    cause = member["root_cause_description"]
    if axis == "surprise":
        return member["surprise"]
    if axis == "root_cause":
        return f"{member['root_cause_category']}: {cause}" if cause else None
    lesson = " ".join(part for part in (member["lesson_takeaway"], member["lesson_what_worked"]) if part)
    return lesson or cause or member["outcome_result"]


@dataclass(frozen=True)
class ValueForms:
    """A cluster's value forms embedded (their tier-weighted centroid and the published threshold over them),
    and in how many members each term occurs."""

    centroid: np.ndarray
    threshold: float
    term_counts: dict[str, int]
    outer_threshold: float  # the same over each form's distance to the centroid of the *other* forms


def _leave_one_out_distances(vectors: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each form's cosine distance to the weighted centroid of the other forms: where a new statement of the
    theme falls, since a candidate value is not part of the centroid it is measured against (a form is, and
    sits nearer it than a newcomer would, the more so the fewer the forms). Needs two forms at least."""
    import numpy as np

    total = (vectors * weights[:, None]).sum(axis=0)
    others = total[None, :] - vectors * weights[:, None]
    others /= np.maximum(np.linalg.norm(others, axis=1, keepdims=True), 1e-12)
    return 1.0 - np.einsum("ij,ij->i", vectors, others)


class ValueFormCache:
    """Embedded value forms per (file, run, cluster): a warm process validates without the model's help."""

    def __init__(self):
        self._cache: dict[tuple[str, str, str], ValueForms] = {}

    def get(self, con, embedder, store: Store, cluster: dict) -> ValueForms:
        import numpy as np

        key = (str(store.path), cluster["run_id"], cluster["cluster_id"])
        if key not in self._cache:
            cursor = con.execute(sql.query("cluster_value_forms"), {
                "run_id": cluster["run_id"], "cluster_id": cluster["cluster_id"], "limit": VALUE_FORM_MEMBERS})
            names = [column[0] for column in cursor.description]
            members = [dict(zip(names, row)) for row in cursor.fetchall()]
            texts = [(member["weight"], value_form(cluster["axis"], member)) for member in members]
            texts = [(weight, text) for weight, text in texts if text]
            vectors = embedder.embed([text for _, text in texts])
            weights = np.maximum(np.asarray([weight for weight, _ in texts]), 1e-6)
            centroid = (vectors * weights[:, None]).sum(axis=0)
            centroid /= max(float(np.linalg.norm(centroid)), 1e-12)
            distances = 1.0 - vectors @ centroid
            # One form has no others: its in-sample distance (0) stands.
            loo_distances = _leave_one_out_distances(vectors, weights) if len(vectors) > 1 else distances
            counts: Counter[str] = Counter()
            member_terms = con.execute(sql.query("cluster_member_terms"), {
                "run_id": cluster["run_id"], "cluster_id": cluster["cluster_id"], "axis": cluster["axis"]}).fetchall()
            for (written,) in member_terms:
                counts.update(set(written or ()))
            self._cache[key] = ValueForms(centroid=centroid, threshold=float(distances.mean() + distances.std()),
                                          term_counts=dict(counts),
                                          outer_threshold=float(loo_distances.mean() + loo_distances.std()))
        return self._cache[key]


def validate_value(store: Store, embedder, text: str, cluster_id: str, cache: ValueFormCache | None = None
                   ) -> ValueCheck:
    """Whether `text` is grounded in the cluster: valid when BOTH hold

    1. the cluster is the nearest of its axis's clusters to the text (centroids of the
       axis embeddings), or no other is nearer by more than NEAREST_MARGIN in cosine
       similarity: a statement that fits another cluster clearly better is about that one;
    2. the text is within the published threshold of the cluster's *value forms*:
       its cosine distance to their tier-weighted centroid is at most the mean + 1 sd
       of their distances to it. When the text shares a term that at least two members
       wrote, each form's distance is measured to the centroid of the *other* forms
       (leave-one-out: a candidate is not part of the centroid it is measured against,
       and a form is, so the in-sample distances are too short, the more so the
       smaller the cluster); a text that shares no term with them meets the in-sample
       threshold, the stricter.

    The value forms are what the cluster's VALUE_FORM_MEMBERS most central members
    learned, written the way a value is (`value_form`): a one-sentence principle
    sits far from the centroid of long narratives even when it summarises them
    faithfully, but close to the lessons they drew. The margin of condition 1 is for
    a theme that came out as two clusters: their centroids are near twins, and the
    theme's faithful summary falls a little nearer either one. bench/learning
    (`python -m bench.learning.corpora`) measures both on three corpora: the
    leave-one-out threshold for every text let 2 of 48 unrelated statements pass on
    a loose one-sentence axis; asked only of texts that share a term, none passes. The check
    explains itself: the distances and threshold of condition 2, the similarity to
    the cluster and to the nearest other one, and the terms the text shares with the
    members.
    """
    text = validate.text("text", text, max_chars=MAX_VALUE_CHARS)
    with store.read() as con:
        return _check(con, store, embedder, text, cluster_id, cache or ValueFormCache())[0]


def _check(con, store: Store, embedder, text: str, cluster_id: str, cache: ValueFormCache
           ) -> tuple[ValueCheck, dict, np.ndarray]:
    import numpy as np

    from learnmem.storage.vectors import to_matrix

    cluster = current_cluster(con, cluster_id)
    centroids = con.execute(sql.query("current_centroids"), {"axis": cluster["axis"]}).to_arrow_table()
    forms = cache.get(con, embedder, store, cluster)
    vector = embedder.embed([text])[0]
    similarities = to_matrix(centroids.column("centroid"), len(vector)) @ vector
    names = centroids.column("cluster_id").to_pylist()
    own = float(similarities[names.index(cluster_id)])
    others = [(float(similarity), name) for name, similarity in zip(names, similarities) if name != cluster_id]
    other_similarity, other = max(others) if others else (None, None)
    nearest = other if other is not None and other_similarity > own else cluster_id
    similarity = float(forms.centroid @ vector)
    common = [term for term in set(keywords.terms(text)) if forms.term_counts.get(term, 0) >= 2]
    common.sort(key=lambda term: (-forms.term_counts[term], term))
    distance = 1.0 - similarity
    threshold, measured = ((forms.outer_threshold, "each one's distance to the others' centroid") if common
                           else (forms.threshold, "their own distances"))
    shared = keywords.spelled([text], common[:SHARED_TERMS])
    words = f"shares {', '.join(shared)} with its members" if shared else "shares no term that two members wrote"
    near_enough = other is None or other_similarity - own <= NEAREST_MARGIN
    if not near_enough:
        reason = (f"closer to cluster {other} (similarity {other_similarity:.3f}) than to {cluster_id} ({own:.3f}), "
                  f"by more than the margin {NEAREST_MARGIN}: write the value for {other}, or say what sets "
                  f"{cluster_id} apart; it {words}")
    elif distance > threshold:
        reason = (f"too far from what the members of {cluster_id} learned: distance {distance:.3f} > threshold "
                  f"{threshold:.3f} (mean + 1 sd of {measured}); it {words}; say more precisely what "
                  "they share")
    else:
        rival = f"; nearest other cluster {other} ({other_similarity:.3f})" if other is not None else ""
        reason = (f"grounded in {cluster_id}: similarity {own:.3f} to it{rival}; distance {distance:.3f} <= "
                  f"threshold {threshold:.3f}; it {words}")
    check = ValueCheck(valid=near_enough and distance <= threshold, similarity=round(similarity, 6),
                       centroid_distance=round(distance, 6), threshold_distance=round(threshold, 6), reason=reason,
                       cluster_id=cluster_id, nearest_cluster_id=nearest, cluster_similarity=round(own, 6),
                       nearest_other_cluster_id=other,
                       nearest_other_similarity=None if other_similarity is None else round(other_similarity, 6),
                       shared_terms=tuple(shared))
    return check, cluster, vector


def store_value(store: Store, embedder, text: str, cluster_id: str, axis: str,
                cache: ValueFormCache | None = None) -> Value:
    """Validate `text` against the cluster again and store it; an invalid value raises ValidationError
    (with the check's reason) and nothing is stored."""
    text = validate.text("text", text, max_chars=MAX_VALUE_CHARS)
    validate.choice("axis", axis, AXES)
    if (owner := cluster_axis(cluster_id)) != axis:
        raise ValidationError(f"axis: {axis!r} is not the axis of cluster {cluster_id!r} ({owner!r})")
    with store.write() as con:  # checked and stored in one transaction: a re-clustering cannot slip between
        now = utc_now()
        check, cluster, vector = _check(con, store, embedder, text, cluster_id, cache or ValueFormCache())
        if not check.valid:
            raise ValidationError(f"text: not stored as a value of {cluster_id}: {check.reason}")
        value_id = ghap.new_id("value", now)
        con.execute(sql.query("insert_value"), {
            "id": value_id, "text": text, "axis": axis, "cluster_id": cluster_id, "cluster_size": cluster["size"],
            "similarity_to_centroid": check.similarity, "centroid_distance": check.centroid_distance,
            "threshold_distance": check.threshold_distance, "terms": keywords.terms(text),
            "embedding": [float(x) for x in vector], "created_at": now,
        })
    return Value(id=value_id, text=text, axis=axis, cluster_id=cluster_id, cluster_size=int(cluster["size"]),
                 similarity_to_centroid=check.similarity, created_at=iso(now))


class ValueSnapshot:
    """Every stored value, in list order, with its vector and BM25 terms."""

    def __init__(self, table: pa.Table):
        from learnmem.search.hybrid import Bm25
        from learnmem.storage.vectors import to_matrix_with_gaps

        self.rows = table.drop_columns(["embedding", "terms"]).to_pylist()
        self.vectors = to_matrix_with_gaps(table.column("embedding"), EMBEDDING_DIM)
        self.bm25 = Bm25(table.column("terms"))


class ValueIndex(SnapshotCache[ValueSnapshot]):
    """Keeps a ValueSnapshot current for one store (reloaded when values or clusterings change)."""

    def __init__(self, store: Store):
        super().__init__(store, sql.query("value_stats"), sql.query("all_values"), ValueSnapshot)


def list_values(index: ValueIndex, axis: str | None = None, limit: int = 20) -> list[Value]:
    """Stored values by the size of their cluster now, then newest first (dissolved ones last)."""
    if axis is not None:
        validate.choice("axis", axis, AXES)
    validate.integer("limit", limit, low=1, high=MAX_VALUES)
    rows = index.snapshot().rows
    return [value_from_row(row) for row in rows if axis is None or row["axis"] == axis][:limit]


def search_values(index: ValueIndex, embedder, query: str, axis: str | None = None, limit: int = 5) -> list[Value]:
    """Values matching `query` by meaning and keywords (hybrid), best first; an empty query finds nothing."""
    import numpy as np

    from learnmem.search.hybrid import hybrid_rank, one_blas_thread

    text = validate.text("query", query, max_chars=experiences.MAX_QUERY_CHARS, allow_empty=True)
    if axis is not None:
        validate.choice("axis", axis, AXES)
    validate.integer("limit", limit, low=1, high=MAX_SEARCH)
    if not text:
        return []
    values = index.snapshot()
    eligible = np.asarray([axis is None or row["axis"] == axis for row in values.rows], dtype=bool)
    if not eligible.any():
        return []
    query_vector = embedder.embed([text])[0]
    with one_blas_thread():
        similarity = values.vectors @ query_vector
    ranked = hybrid_rank(similarity, values.bm25, keywords.terms(text), eligible, limit,
                         importance=np.asarray([row["cluster_size"] for row in values.rows], dtype=float),
                         recency=-np.arange(len(values.rows), dtype=float))
    return [value_from_row(values.rows[int(row)], round(float(score), 6)) for row, score in zip(ranked.rows, ranked.scores)]
