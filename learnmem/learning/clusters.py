"""Clusters of experiences per axis: the themes an agent writes values for (values.py).

No language model runs here. The library clusters the embedded experiences of
an axis (experiences.py); an agent reads a cluster's members and writes a
candidate value (a one-sentence principle); the library accepts it only when
the text is grounded in that cluster (`validate_value`).

Clustering (`get_clusters`): the unit vectors of the axis are centred,
projected on as many principal components as it takes to keep
EXPLAINED_VARIANCE of their variance (within MIN_DIMS..MAX_DIMS: templated
narratives need few, short varied texts more) and put back on the unit sphere;
high-dimensional densities are too flat to separate themes (../shared/GHAP.md
"Clustering"). Then, by axis (AXIS_METHOD):

- narratives (full, strategy): each experience is that reduced vector beside
  the TF-IDF of its own terms (TERM_WEIGHT), projected again on HYBRID_DIMS
  centred components, and grouped by average linkage cut at cosine distance
  LINKAGE_DISTANCE; groups smaller than min_cluster_size are noise. The words
  an agent wrote (a library, an error, a table) separate themes the sentence
  embedding blurs, and average linkage does not chain one theme into another
  through a few bridging experiences as HDBSCAN's density did;
- one-sentence axes (surprise, root_cause): HDBSCAN (`hdbscan`, excess-of-mass
  selection) on the reduced vectors: one sentence's terms are too few for
  TF-IDF, and a fixed linkage cut left most of them unclustered.

The measurements behind both, on three corpora (two written blind), are in
bench/learning/RESULTS.md ("Every corpus").
Centroids are taken back in the model's space, weighted by tier, so that a
value's embedding can be compared with them. Every run is stored
(`cluster_runs`, `clusters`, `cluster_members`). A new cluster inherits the id
of the previous run's cluster whose members it keeps at least CARRY_OVER of
(largest overlaps first, one to one), so values stay attached; a value whose
cluster found no successor is flagged (`dissolved_at`), never deleted. An
axis where nothing clusters raises InsufficientDataError and stores nothing.

"""

from __future__ import annotations

import json
import math
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from learnmem.learning import experiences, ghap, terms
from learnmem.search import keywords
from learnmem.storage import sql
from learnmem import validate
from learnmem.errors import InsufficientDataError, NotFoundError, ValidationError
from learnmem.learning.ghap_records import Experience
from learnmem.learning.records import ClusterInfo, ClusterRun
from learnmem.storage.store import Store, iso, utc_now

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

AXES = experiences.AXES
EMBEDDING_DIM = experiences.EMBEDDING_DIM
MIN_EXPERIENCES = 20  # fewer on an axis: InsufficientDataError
MAX_MEMBERS = 100
CARRY_OVER = 0.5  # share of an old cluster's members a new cluster must hold to inherit its id
LABEL_TERMS = 3
EXPLAINED_VARIANCE = 0.5  # of the centred vectors' variance kept by the projection
MIN_DIMS, MAX_DIMS = 8, 48
DEFAULT_MIN_CLUSTER_SIZE = 5
DEFAULT_MIN_SAMPLES = 1
METHODS = ("linkage", "hdbscan")
AXIS_METHOD = {"full": "linkage", "strategy": "linkage", "surprise": "hdbscan", "root_cause": "hdbscan"}
TERM_WEIGHT = 1.5  # the TF-IDF terms' weight beside the reduced embedding (both unit length)
HYBRID_DIMS = 32  # centred components of the joined vectors that linkage compares, at most
# and at most one per this many experiences: a few dozen experiences cannot place 32 components, and with too
# many the noise keeps every group apart (60 experiences of the original corpus formed no cluster at all)
EXPERIENCES_PER_DIM = 6
LINKAGE_DISTANCE = 0.7  # average cosine distance at which linkage stops merging groups
CLUSTER_ID = re.compile(r"^(" + "|".join(AXES) + r")-([1-9][0-9]{0,8})$")


@dataclass(frozen=True)
class Parameters:
    """What a clustering run uses; `stored()` is what the run records."""

    min_cluster_size: int
    min_samples: int
    explained_variance: float = EXPLAINED_VARIANCE
    selection: str = "eom"
    method: str = "hdbscan"
    term_weight: float = TERM_WEIGHT
    hybrid_dims: int = HYBRID_DIMS
    distance: float = LINKAGE_DISTANCE

    def stored(self) -> dict:
        """The parameters the run's method uses (min_samples and selection are HDBSCAN's alone)."""
        fields = asdict(self)
        if self.method == "linkage":
            del fields["min_samples"], fields["selection"]
        else:
            del fields["term_weight"], fields["hybrid_dims"], fields["distance"]
        return fields


def parameters(axis: str) -> Parameters:
    """The clustering parameters of `axis` (its method: AXIS_METHOD): `LEARNMEM_MIN_CLUSTER_SIZE` and
    `LEARNMEM_MIN_SAMPLES` (HDBSCAN's axes) override the defaults."""
    validate.choice("axis", axis, AXES)
    values: dict = {"method": AXIS_METHOD[axis]}
    for name, variable, default, low in (("min_cluster_size", "LEARNMEM_MIN_CLUSTER_SIZE", DEFAULT_MIN_CLUSTER_SIZE, 2),
                                         ("min_samples", "LEARNMEM_MIN_SAMPLES", DEFAULT_MIN_SAMPLES, 1)):
        raw = os.environ.get(variable)
        if raw is None or not raw.strip():
            values[name] = default
            continue
        try:
            values[name] = validate.integer(variable, int(raw), low=low, high=10_000)
        except ValueError:
            raise ValidationError(f"{variable}: expected an integer >= {low}, got {raw!r}") from None
    return Parameters(**values)


# -- clustering ----------------------------------------------------------------------


def get_clusters(store: Store, embedder, axis: str, cold_tier: str | None = None) -> ClusterRun:
    """Cluster the experiences of `axis` now, store the run and return its clusters (largest first).

    Cold experiences (tiers at or below `cold_tier`, terms.cold_tiers: by default bronze and abandoned) are
    never members of a cluster: they are not counted, weigh nothing in centroids and thresholds (so values
    are validated against warm experiences only), and get_cluster_members never returns them; a cluster
    left with fewer than min_cluster_size warm members is noise. They do take part in finding where the
    clusters are: measured on the planted corpus (bench/learning), leaving them out of the input thinned the
    small themes (strategy ARI 0.068 -> 0.022, worse than dropping as many entries at random), while keeping
    them for the density gives 0.071. `cold_count` says how many there were; cold_tier "none" makes every
    experience a possible member, as before cold storage.
    """
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    from learnmem.storage.vectors import to_matrix, vector_width

    validate.choice("axis", axis, AXES)
    cold = terms.cold_tiers(cold_tier)
    chosen = parameters(axis)
    if embedder is not None and not store.read_only:
        ghap.embed_pending_quietly(store, embedder)  # a resolve whose embedding failed still counts
    with store.read() as con:
        rows = con.execute(sql.query("axis_vectors"), {"axis": axis}).to_arrow_table()
    warm = pc.invert(pc.is_in(rows.column("confidence_tier"), value_set=pa.array(cold, pa.string())))
    warm = warm.to_numpy(zero_copy_only=False).astype(bool)
    warm_count, cold_count = int(warm.sum()), int((~warm).sum())
    left_out = (f" ({cold_count} cold ones of tier {' or '.join(cold)} are never members; cold_tier or "
                f"{terms.COLD_TIER_VARIABLE} 'none' makes them count)") if cold_count else ""
    if warm_count < MIN_EXPERIENCES:
        raise InsufficientDataError(f"axis {axis!r}: {warm_count} embedded experiences; clustering needs at "
                                    f"least {MIN_EXPERIENCES}{left_out}")
    vectors = to_matrix(rows.column("embedding"), vector_width(rows.column("embedding")))
    term_lists = rows.column("terms").to_pylist()
    labels, dims = member_labels(vectors, warm, chosen, term_lists)
    weights = np.asarray([terms.TIER_WEIGHTS.get(t, 0.0) for t in rows.column("confidence_tier").to_pylist()])
    ghap_ids = rows.column("ghap_id").to_pylist()
    groups = [np.flatnonzero(labels == label) for label in sorted(set(labels.tolist()) - {-1})]
    noise_count = warm_count - sum(len(members) for members in groups)
    if not groups:  # nothing stored: the axis's earlier clustering, if any, stays the current one
        raise InsufficientDataError(
            f"axis {axis!r}: none of the {warm_count} experiences form a cluster of at least "
            f"{chosen.min_cluster_size} (all are noise){left_out}; wait for more experiences or lower "
            "LEARNMEM_MIN_CLUSTER_SIZE")
    groups.sort(key=lambda members: (-len(members), int(members[0])))
    texts = _TermDocuments(term_lists, rows.column("text").to_pylist())
    found = [_describe(vectors, weights, members, texts) for members in groups]
    now = utc_now()
    run_id = ghap.new_id("run", now)
    with store.write() as con:
        previous = con.execute(sql.query("latest_run"), {"axis": axis}).fetchone()
        memberships: dict[str, set[str]] = {}
        if previous is not None:
            for cluster_id, ghap_id in con.execute(sql.query("run_memberships"), {"run_id": previous[0]}).fetchall():
                memberships.setdefault(cluster_id, set()).add(ghap_id)
        highest = con.execute(sql.query("highest_cluster_number"), {"axis": axis}).fetchone()[0]
        ids = match_clusters(memberships, [{ghap_ids[i] for i in members} for members in groups], axis, highest)
        con.execute(sql.query("insert_cluster_run"), {
            "id": run_id, "axis": axis, "created_at": now,
            "parameters": json.dumps(chosen.stored() | {"reduced_dims": dims, "cold_tiers": list(cold)}),
            "experience_count": warm_count, "cluster_count": len(groups), "noise_count": noise_count,
        })
        _insert(con, "new_clusters", sql.query("insert_clusters"), _cluster_rows(run_id, axis, ids, found))
        _insert(con, "new_cluster_members", sql.query("insert_cluster_members"),
                _member_rows(run_id, axis, ids, groups, found, ghap_ids, weights, warm))
        dissolved = [value_id for (value_id,) in
                     con.execute(sql.query("values_to_dissolve"), {"axis": axis, "run_id": run_id}).fetchall()]
        con.execute(sql.query("dissolve_values"), {"axis": axis, "run_id": run_id, "now": now})
    clusters = tuple(ClusterInfo(cluster_id=cluster_id, label=info.label, size=len(members),
                                 avg_weight=round(info.avg_weight, 4))
                     for cluster_id, info, members in zip(ids, found, groups))
    return ClusterRun(axis=axis, run_id=run_id, clusters=clusters, count=len(clusters),
                      noise_count=noise_count, experience_count=warm_count, created_at=iso(now),
                      dissolved_values=tuple(sorted(dissolved)), cold_count=cold_count)


def member_labels(vectors: np.ndarray, warm: np.ndarray, chosen: Parameters,
                  term_lists: Sequence[Sequence[str]] | None = None) -> tuple[np.ndarray, int]:
    """The cluster of each experience (-1: none) as get_clusters stores it: every experience clustered
    (cluster_labels), then the cold ones (`warm` false) taken out of their clusters, and a cluster left with
    fewer than min_cluster_size warm members made noise."""
    import numpy as np

    labels, dims = cluster_labels(vectors, chosen, term_lists)
    labels = np.where(warm, labels, -1)
    for label in set(labels.tolist()) - {-1}:
        if int((labels == label).sum()) < chosen.min_cluster_size:
            labels[labels == label] = -1
    return labels, dims


def cluster_labels(vectors: np.ndarray, chosen: Parameters,
                   term_lists: Sequence[Sequence[str]] | None = None) -> tuple[np.ndarray, int]:
    """Cluster labels (-1 = noise) of unit vectors by `chosen.method`, found on their first principal
    components; and how many components were kept (enough for `chosen.explained_variance` of the variance,
    MIN_DIMS to MAX_DIMS). Linkage joins each experience's terms (`term_lists`) to its reduced vector."""
    import numpy as np

    validate.choice("method", chosen.method, METHODS)
    centred = vectors - vectors.mean(axis=0)
    _, singular, components = np.linalg.svd(centred, full_matrices=False)
    explained = np.cumsum(singular**2) / max(float((singular**2).sum()), 1e-12)
    if chosen.explained_variance >= 1:  # no reduction (bench/learning compares)
        dims = len(singular)
    else:
        dims = int(np.searchsorted(explained, chosen.explained_variance)) + 1
        dims = min(max(dims, MIN_DIMS), MAX_DIMS, len(singular))
    reduced = _unit_rows(centred @ components[:dims].T)  # directions, not lengths, carry the meaning
    if chosen.method == "linkage":
        return _linkage_labels(_joined(reduced, term_lists, chosen), chosen), dims
    import hdbscan

    clusterer = hdbscan.HDBSCAN(min_cluster_size=chosen.min_cluster_size, min_samples=chosen.min_samples,
                                cluster_selection_method=chosen.selection, core_dist_n_jobs=1)
    return clusterer.fit_predict(reduced.astype(np.float64)), dims


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    import numpy as np

    return matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)


def _joined(reduced: np.ndarray, term_lists: Sequence[Sequence[str]] | None, chosen: Parameters) -> np.ndarray:
    """Each reduced vector beside chosen.term_weight x the unit TF-IDF vector of the experience's terms (terms
    in at least two experiences, sublinear counts), projected on the first centred components of the joined
    matrix (chosen.hybrid_dims, or one per EXPERIENCES_PER_DIM experiences when that is fewer, MIN_DIMS at
    least) and put back on the unit sphere."""
    import numpy as np
    from scipy import sparse
    from scipy.sparse.linalg import LinearOperator, svds
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.preprocessing import normalize

    blocks = [sparse.csr_matrix(reduced)]
    if term_lists is not None and chosen.term_weight > 0:
        try:
            documents = [list(terms or ()) for terms in term_lists]
            tfidf = TfidfVectorizer(analyzer=list, min_df=2, sublinear_tf=True).fit_transform(documents)
            blocks.append(chosen.term_weight * normalize(tfidf))
        except ValueError:  # no term is shared by two experiences: the embedding alone
            pass
    joined = sparse.hstack(blocks).tocsr().astype(np.float64)
    wanted = max(MIN_DIMS, min(chosen.hybrid_dims, joined.shape[0] // EXPERIENCES_PER_DIM))
    rank = min(wanted, min(joined.shape) - 1)
    if rank < 1:
        return reduced
    mean = np.asarray(joined.mean(axis=0)).ravel()

    def times(x):  # (joined - 1 mean) @ x: centred without densifying the terms
        x = x.reshape(joined.shape[1], -1)
        return joined @ x - (mean @ x)[None, :]

    def transposed_times(y):
        y = y.reshape(joined.shape[0], -1)
        return joined.T @ y - np.outer(mean, y.sum(axis=0))

    centred = LinearOperator(joined.shape, dtype=np.float64, matvec=times, rmatvec=transposed_times,
                             matmat=times, rmatmat=transposed_times)
    start = np.full(min(joined.shape), 1.0 / math.sqrt(min(joined.shape)))  # ARPACK's start: fixed, not random
    left, singular, _ = svds(centred, k=rank, v0=start)
    return _unit_rows(left * singular)


def _linkage_labels(points: np.ndarray, chosen: Parameters) -> np.ndarray:
    """Average-linkage groups of unit `points` cut at cosine distance chosen.distance, numbered largest first;
    groups smaller than chosen.min_cluster_size are noise (-1)."""
    import numpy as np

    groups = average_linkage_cut(points, chosen.distance)
    counts = Counter(groups.tolist())
    kept = sorted((group for group, size in counts.items() if size >= chosen.min_cluster_size),
                  key=lambda group: (-counts[group], group))
    number = {group: index for index, group in enumerate(kept)}
    return np.asarray([number.get(group, -1) for group in groups.tolist()], dtype=np.int64)


def average_linkage_cut(points: np.ndarray, distance: float) -> np.ndarray:
    """The groups (a representative point's index per point) of the average-linkage dendrogram of unit `points`
    under cosine distance, cut at `distance`: the same partition as scipy's `linkage(pdist(points, "cosine"),
    "average")` cut by `fcluster(..., distance, "distance")`, in O(n x dims) memory instead of O(n^2).

    Two facts make it so. For unit vectors the mean cosine distance between two groups is 1 minus the dot
    product of their mean vectors, so a group is its mean and its size. And average linkage is reducible, so
    the nearest-neighbour chain (Murtagh 1983; Muellner 2011, "Modern hierarchical, agglomerative clustering
    algorithms") finds its merges one reciprocal pair at a time; a group whose nearest group is farther than
    the cut can only grow farther from every group as others merge, so it is closed instead of merged.
    """
    import numpy as np

    count = len(points)
    means = np.array(points, dtype=np.float64)
    sizes = np.ones(count)
    closed = np.zeros(count)  # -inf once a group is merged into another or cannot merge below the cut
    parent = np.arange(count)
    least_similarity = 1.0 - distance
    chain: list[int] = []
    open_groups = count
    while open_groups > 1:
        if not chain:
            chain.append(int(np.argmax(closed)))  # the first open group
        group = chain[-1]
        similarity = means @ means[group] + closed
        similarity[group] = -np.inf
        nearest = int(np.argmax(similarity))
        if len(chain) > 1 and similarity[chain[-2]] >= similarity[nearest]:
            nearest = chain[-2]  # ties go back down the chain, so that it cannot cycle
        if similarity[nearest] < least_similarity:  # nothing within the cut: this group is final
            closed[group] = -np.inf
            open_groups -= 1
            chain.pop()
        elif len(chain) > 1 and nearest == chain[-2]:  # reciprocal nearest neighbours: merge
            chain.pop()
            chain.pop()
            total = sizes[group] + sizes[nearest]
            means[group] = (sizes[group] * means[group] + sizes[nearest] * means[nearest]) / total
            sizes[group] = total
            closed[nearest] = -np.inf
            parent[nearest] = group
            open_groups -= 1
        else:
            chain.append(nearest)
    for point in range(count):  # each point's group: follow parents to the root, compressing the path
        root = point
        while parent[root] != root:
            root = parent[root]
        while parent[point] != root:
            parent[point], point = root, parent[point]
    return parent


@dataclass(frozen=True)
class _Found:
    label: str
    avg_weight: float
    centroid: np.ndarray
    distances: np.ndarray
    mean: float
    sd: float


def _describe(vectors: np.ndarray, weights: np.ndarray, members: np.ndarray, texts: _TermDocuments) -> _Found:
    """Centroid (tier-weighted, unit), member distances and label of one cluster."""
    import numpy as np

    member_weights = np.maximum(weights[members], 1e-6)
    centroid = (vectors[members] * member_weights[:, None]).sum(axis=0)
    centroid /= max(float(np.linalg.norm(centroid)), 1e-12)
    distances = 1.0 - vectors[members] @ centroid
    return _Found(label=texts.label(members), avg_weight=float(weights[members].mean()),
                  centroid=centroid.astype(np.float32), distances=distances, mean=float(distances.mean()),
                  sd=float(distances.std()))


class _TermDocuments:
    """The specific terms of each experience text, to name a cluster by what sets it apart."""

    def __init__(self, term_lists: list[list[str]], texts: list[str]):
        self.docs = [set(terms) - experiences.GENERIC_TERMS for terms in term_lists]
        self.texts = texts
        self.df = Counter(term for doc in self.docs for term in doc)

    def label(self, members: np.ndarray) -> str:
        """The LABEL_TERMS terms most typical of the members and rare elsewhere, as the words they wrote."""
        inside = Counter(term for i in members for term in self.docs[int(i)])
        total = len(self.docs)
        scored = sorted(((-(count / len(members)) * math.log(total / self.df[term]), term)
                         for term, count in inside.items() if count >= 2 and len(term) > 2))
        chosen = [term for _, term in scored[:LABEL_TERMS]]
        return ", ".join(keywords.spelled((self.texts[int(i)] for i in members), chosen))


def match_clusters(previous: dict[str, set[str]], new: Sequence[set[str]], axis: str, highest: int) -> list[str]:
    """Ids for the new clusters: an old id goes to the new cluster holding at least CARRY_OVER of the old
    cluster's members (largest overlaps first, each id once); the others get numbers never used on the axis."""
    pairs = sorted(((len(old & members), old_id, index) for old_id, old in previous.items()
                    for index, members in enumerate(new) if len(old & members) >= CARRY_OVER * len(old)),
                   key=lambda pair: (-pair[0], pair[1], pair[2]))
    ids: dict[int, str] = {}
    for _, old_id, index in pairs:
        if index not in ids and old_id not in ids.values():
            ids[index] = old_id
    for index in range(len(new)):
        if index not in ids:
            highest += 1
            ids[index] = f"{axis}-{highest}"
    return [ids[index] for index in range(len(new))]


def _cluster_rows(run_id: str, axis: str, ids: list[str], found: list[_Found]) -> pa.Table:
    import numpy as np
    import pyarrow as pa

    from learnmem.storage.vectors import to_column

    centroids = np.stack([info.centroid for info in found]) if found else np.zeros((0, EMBEDDING_DIM), np.float32)
    return pa.table({
        "run_id": [run_id] * len(ids), "axis": [axis] * len(ids), "cluster_id": ids,
        "label": [info.label for info in found],
        "size": pa.array([len(info.distances) for info in found], pa.int32()),
        "avg_weight": [info.avg_weight for info in found],
        "centroid": to_column(centroids, EMBEDDING_DIM),
        "mean_distance": [info.mean for info in found], "sd_distance": [info.sd for info in found],
        "threshold_distance": [info.mean + info.sd for info in found],
    })


def _member_rows(run_id: str, axis: str, ids: list[str], groups: list[np.ndarray], found: list[_Found],
                 ghap_ids: list[str], weights: np.ndarray, warm: np.ndarray) -> pa.Table:
    """One row per warm experience of the run: its cluster (None: noise) and distance to the centroid. Cold
    experiences are not recorded: neither members nor noise."""
    import pyarrow as pa

    cluster_of: list[str | None] = [None] * len(ghap_ids)
    distance_of: list[float | None] = [None] * len(ghap_ids)
    for cluster_id, members, info in zip(ids, groups, found):
        for row, distance in zip(members, info.distances):
            cluster_of[int(row)], distance_of[int(row)] = cluster_id, float(distance)
    table = pa.table({
        "run_id": [run_id] * len(ghap_ids), "axis": [axis] * len(ghap_ids),
        "cluster_id": pa.array(cluster_of, pa.string()), "ghap_id": ghap_ids,
        "weight": weights.astype(float), "distance": pa.array(distance_of, pa.float64()),
    })
    return table.filter(pa.array(warm))


def _insert(con, view: str, query: str, rows: pa.Table) -> None:
    """Run an INSERT that reads the Arrow table `rows` registered as `view`."""
    con.register(view, rows)
    try:
        con.execute(query)
    finally:
        con.unregister(view)


# -- members -------------------------------------------------------------------------


def cluster_axis(cluster_id: object) -> str:
    """The axis a cluster id names; ValidationError when it is not `<axis>-<n>`."""
    if not isinstance(cluster_id, str) or not CLUSTER_ID.match(cluster_id):
        raise ValidationError(f"cluster_id: expected '<axis>-<number>' with axis one of {', '.join(AXES)} "
                              f"(e.g. 'surprise-3'), got {cluster_id!r}")
    return cluster_id.rsplit("-", 1)[0]


def current_cluster(con, cluster_id: str) -> dict:
    axis = cluster_axis(cluster_id)
    cursor = con.execute(sql.query("current_cluster"), {"cluster_id": cluster_id, "axis": axis})
    row = cursor.fetchone()
    if row is None:
        raise NotFoundError(f"cluster_id: {cluster_id!r} is not a cluster of the latest clustering of axis "
                            f"{axis!r}; get_clusters({axis!r}) lists the current ones")
    return dict(zip([column[0] for column in cursor.description], row))


def get_cluster_members(index: experiences.ExperienceIndex, store: Store, cluster_id: str,
                        limit: int = 50) -> list[Experience]:
    """The experiences of a cluster of the latest run, most central first (score = cosine to the centroid)."""
    validate.integer("limit", limit, low=1, high=MAX_MEMBERS)
    with store.read() as con:
        cluster = current_cluster(con, cluster_id)
        members = con.execute(sql.query("cluster_member_ids"),
                              {"run_id": cluster["run_id"], "cluster_id": cluster_id, "limit": limit}).fetchall()
    rows = index.snapshot().axes[cluster["axis"]]
    position = {ghap_id: row for row, ghap_id in enumerate(rows.table.column("ghap_id").to_pylist())}
    return [rows.experience(position[ghap_id], round(1.0 - distance, 6))
            for ghap_id, distance in members if ghap_id in position]
