"""Values: one-sentence principles an agent writes for a cluster, accepted only when grounded in it.

No language model runs here. The library clusters the embedded experiences of
an axis (clusters.py); an agent reads a cluster's members and writes a
candidate value; the library accepts it only when the text is grounded in that
cluster (`validate_value`), stores it with its embedding, and finds it again
by list or by hybrid search.
"""

from __future__ import annotations

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
    """A cluster's value forms embedded: their tier-weighted centroid and the published threshold over them."""

    centroid: np.ndarray
    threshold: float


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
            self._cache[key] = ValueForms(centroid=centroid, threshold=float(distances.mean() + distances.std()))
        return self._cache[key]


def validate_value(store: Store, embedder, text: str, cluster_id: str, cache: ValueFormCache | None = None
                   ) -> ValueCheck:
    """Whether `text` is grounded in the cluster: valid when BOTH hold

    1. the cluster is the nearest of its axis's clusters to the text (centroids of the
       axis embeddings): a statement that fits another cluster better is about that one;
    2. the text is within the published threshold of the cluster's *value forms*:
       its cosine distance to their tier-weighted centroid is at most the mean + 1 sd
       of their own distances to it.

    The value forms are what the cluster's VALUE_FORM_MEMBERS most central members
    learned, written the way a value is (`value_form`): a one-sentence principle
    sits far from the centroid of long narratives even when it summarises them
    faithfully, but close to the lessons they drew (bench/learning: on the full
    axis 8 of 10 faithful theme summaries pass this way, 3 of 10 against the
    narratives' own centroid and threshold, and the other 2 pass as a second
    draft written from the cluster's members; no unrelated statement or other
    theme's summary passes either way). `similarity`, `centroid_distance` and
    `threshold_distance` are those of condition 2.
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
    nearest = names[int(np.argmax(similarities))]
    similarity = float(forms.centroid @ vector)
    distance, threshold = 1.0 - similarity, forms.threshold
    if nearest != cluster_id:
        reason = (f"closer to cluster {nearest} (similarity {float(similarities.max()):.3f}) than to {cluster_id} "
                  f"({float(similarities[names.index(cluster_id)]):.3f}): write the value for {nearest}, or say "
                  f"what sets {cluster_id} apart")
    elif distance > threshold:
        reason = (f"too far from what the members of {cluster_id} learned: distance {distance:.3f} > threshold "
                  f"{threshold:.3f} (mean + 1 sd of their own distances); say more precisely what they share")
    else:
        reason = f"grounded in {cluster_id}: its nearest cluster, distance {distance:.3f} <= threshold {threshold:.3f}"
    check = ValueCheck(valid=nearest == cluster_id and distance <= threshold, similarity=round(similarity, 6),
                       centroid_distance=round(distance, 6), threshold_distance=round(threshold, 6), reason=reason,
                       cluster_id=cluster_id, nearest_cluster_id=nearest)
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
