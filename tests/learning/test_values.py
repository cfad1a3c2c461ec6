"""Learning: clustering runs, stable cluster ids, members, values and their bad input.

The quality of the clusters and of the value ritual on the planted-theme corpus
(real model) is in tests/learning/test_corpus.py.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import learnmem
from learnmem.learning import clusters, values
from learnmem.search import keywords
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import InsufficientDataError, NotFoundError, ValidationError

# The contract tests: each test that opens a store runs on a file and on a lake (tests/conftest.py).
BOTH_BACKENDS = True

TOPICS = {
    "tz": ("the CI runner uses UTC while the laptop uses local time", "timezone offset"),
    "cache": ("the CDN kept serving the stale bundle after the deploy", "stale cache"),
    "mock": ("the patch replaced the name where it was defined, not where it was used", "wrong mock target"),
}


def entries(count: int, seed: int = 3) -> list[dict]:
    """`count` falsified entries spread over a few topics, in the entry format of GHAP.md."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        topic = list(TOPICS)[n % len(TOPICS)]
        surprise, cause = TOPICS[topic]
        detail = rng.choice(["in the billing service", "in the export job", "in the login flow", "in reports"])
        out.append({
            "id": f"ghap_20250901_{n // 60:02d}{n % 60:02d}00_{n:06x}", "session_id": "session_20250901_000000_aaaaaa",
            "created_at": f"2025-09-01T{n // 60:02d}:{n % 60:02d}:00Z", "domain": "debugging",
            "strategy": "systematic-elimination", "goal": f"Fix the {topic} failure {detail}",
            "hypothesis": f"The {topic} failure {detail} comes from a slow database query",
            "action": "Profile the query plan", "prediction": "The plan shows a sequential scan over orders",
            "outcome": {"status": "falsified", "result": f"The query took 3 ms {detail}",
                        "captured_at": f"2025-09-01T{n // 60:02d}:{n % 60:02d}:30Z", "auto_captured": False},
            "surprise": f"{surprise} {detail}", "root_cause": {"category": "wrong-assumption",
                                                               "description": f"{cause} {detail}"},
        })
    return out


def with_entries(lm, tmp_path, count: int, seed: int = 3):
    source = tmp_path / f"entries-{seed}.jsonl"
    source.write_text("".join(json.dumps(entry) + "\n" for entry in entries(count, seed)), encoding="utf-8")
    result = lm.import_ghap(source)
    assert result.imported == count and not result.errors
    return lm


@pytest.fixture
def clustered(hashed_lm, tmp_path):
    return with_entries(hashed_lm, tmp_path, 60)


# -- matching clusters across runs ---------------------------------------------------


def test_matching_keeps_ids_of_clusters_that_carry_over_and_numbers_new_ones():
    previous = {"surprise-1": {"a", "b", "c", "d"}, "surprise-2": {"e", "f", "g"}, "surprise-4": {"h", "i"}}
    new = [{"a", "b", "c", "x", "y"}, {"e", "z"}, {"h", "i", "j"}, {"k", "l"}]
    assert clusters.match_clusters(previous, new, "surprise", 4) == ["surprise-1", "surprise-5", "surprise-4",
                                                                     "surprise-6"]


def test_matching_a_split_gives_the_old_id_to_the_larger_half_only():
    previous = {"full-3": set("abcdefgh")}
    assert clusters.match_clusters(previous, [set("abc"), set("defgh")], "full", 3) == ["full-4", "full-3"]


def _partition(labels: list[int]) -> list[set[int]]:
    """Clusters as a clustering gives them: disjoint, non-empty (label -1 is noise)."""
    groups: dict[int, set[int]] = {}
    for item, label in enumerate(labels):
        if label >= 0:
            groups.setdefault(label, set()).add(item)
    return [groups[label] for label in sorted(groups)]


LABELLINGS = st.lists(st.integers(-1, 6), min_size=40, max_size=40).map(_partition)


@settings(max_examples=200, deadline=None)
@given(LABELLINGS, LABELLINGS, st.integers(0, 20))
def test_matching_ids_are_unique_and_inherited_only_with_most_members(old_sets, new_sets, extra):
    previous = {f"full-{i + 1}": set(members) for i, members in enumerate(old_sets)}
    highest = len(old_sets) + extra
    ids = clusters.match_clusters(previous, [set(m) for m in new_sets], "full", highest)
    assert len(ids) == len(set(ids)) == len(new_sets)
    for cluster_id, members in zip(ids, new_sets):
        if cluster_id in previous:
            assert len(previous[cluster_id] & members) >= clusters.CARRY_OVER * len(previous[cluster_id])
        else:
            assert int(cluster_id.split("-")[1]) > highest
    # The same clusters again keep every id.
    assert clusters.match_clusters(dict(zip(ids, map(set, new_sets))), [set(m) for m in new_sets], "full",
                                   highest + len(new_sets)) == ids


# -- runs --------------------------------------------------------------------------


def test_a_run_is_stored_with_its_clusters_members_and_parameters(clustered):
    run = clustered.get_clusters("surprise")
    assert run.count == len(run.clusters) >= 2 and run.experience_count == 60
    assert sum(c.size for c in run.clusters) + run.noise_count == 60
    assert [c.size for c in run.clusters] == sorted((c.size for c in run.clusters), reverse=True)
    stored = clustered.sql("SELECT axis, experience_count, cluster_count, noise_count, parameters FROM cluster_runs "
                           "WHERE id = ?", [run.run_id]).fetchone()
    assert stored[:4] == ("surprise", 60, run.count, run.noise_count)
    parameters = json.loads(stored[4])
    assert clusters.MIN_DIMS <= parameters.pop("reduced_dims") <= clusters.MAX_DIMS
    assert parameters == {"min_cluster_size": clusters.DEFAULT_MIN_CLUSTER_SIZE,
                          "min_samples": clusters.DEFAULT_MIN_SAMPLES,
                          "explained_variance": clusters.EXPLAINED_VARIANCE, "selection": "eom", "method": "hdbscan",
                          "cold_tiers": ["bronze", "abandoned"]}  # cold storage: left out of the run
    members = clustered.sql("SELECT count(*), count(cluster_id) FROM cluster_members WHERE run_id = ?",
                            [run.run_id]).fetchone()
    assert members == (60, 60 - run.noise_count)
    for cluster in run.clusters:
        listed = clustered.get_cluster_members(cluster.cluster_id, limit=100)
        assert len(listed) == cluster.size
        assert [m.score for m in listed] == sorted((m.score for m in listed), reverse=True)
        assert all(m.axis == "surprise" for m in listed)


def test_reclustering_the_same_experiences_keeps_every_cluster_id(clustered, tmp_path):
    first = clustered.get_clusters("root_cause")
    again = clustered.get_clusters("root_cause")
    assert [c.cluster_id for c in again.clusters] == [c.cluster_id for c in first.clusters]
    assert clustered.sql("SELECT count(*) FROM current_clusters WHERE axis = 'root_cause'").fetchone() == (again.count,)


def test_fewer_than_20_experiences_is_insufficient_data_with_the_count(hashed_lm, tmp_path):
    with_entries(hashed_lm, tmp_path, 19)
    with pytest.raises(InsufficientDataError, match="19 embedded experiences; clustering needs at least 20"):
        hashed_lm.get_clusters("surprise")
    assert hashed_lm.sql("SELECT count(*) FROM cluster_runs").fetchone() == (0,)


def test_an_unknown_axis_names_the_options(clustered):
    with pytest.raises(ValidationError, match="axis.*full, strategy, surprise, root_cause"):
        clustered.get_clusters("domain")


@pytest.mark.parametrize("variable, raw", [("LEARNMEM_MIN_CLUSTER_SIZE", "1"), ("LEARNMEM_MIN_CLUSTER_SIZE", "five"),
                                           ("LEARNMEM_MIN_SAMPLES", "0")])
def test_bad_parameters_in_the_environment_name_the_variable(clustered, monkeypatch, variable, raw):
    monkeypatch.setenv(variable, raw)
    with pytest.raises(ValidationError, match=variable):
        clustered.get_clusters("surprise")


def test_parameters_come_from_the_environment(clustered, monkeypatch):
    monkeypatch.setenv("LEARNMEM_MIN_CLUSTER_SIZE", "8")
    monkeypatch.setenv("LEARNMEM_MIN_SAMPLES", "2")
    run = clustered.get_clusters("surprise")
    parameters = json.loads(clustered.sql("SELECT parameters FROM cluster_runs WHERE id = ?", [run.run_id]).fetchone()[0])
    assert (parameters["min_cluster_size"], parameters["min_samples"]) == (8, 2)
    assert all(c.size >= 8 for c in run.clusters)


def test_an_axis_of_only_noise_is_insufficient_data_and_stores_nothing(clustered, monkeypatch):
    first = clustered.get_clusters("surprise")
    monkeypatch.setenv("LEARNMEM_MIN_CLUSTER_SIZE", "500")  # nothing can form a cluster now
    with pytest.raises(InsufficientDataError, match="none of the 60 experiences .* at least 500"):
        clustered.get_clusters("surprise")
    assert clustered.sql("SELECT count(*) FROM cluster_runs").fetchone() == (1,)
    current = clustered.sql("SELECT run_id FROM latest_cluster_runs WHERE axis = 'surprise'").fetchone()[0]
    assert current == first.run_id  # the earlier clustering stays the current one


def test_values_whose_cluster_has_no_successor_are_flagged_not_deleted(clustered, monkeypatch):
    run = clustered.get_clusters("surprise")
    stored = {}
    for cluster in run.clusters:
        central = clustered.get_cluster_members(cluster.cluster_id, limit=1)[0]
        if clustered.validate_value(central.surprise, cluster.cluster_id).valid:
            stored[clustered.store_value(central.surprise, cluster.cluster_id, "surprise").id] = cluster.cluster_id
    assert len(stored) >= 3
    monkeypatch.setenv("LEARNMEM_MIN_CLUSTER_SIZE", "15")  # fewer, larger clusters: several old ones merge
    merged = clustered.get_clusters("surprise")
    survivors = {cluster.cluster_id for cluster in merged.clusters}
    orphaned = {value_id for value_id, cluster_id in stored.items() if cluster_id not in survivors}
    assert orphaned and set(merged.dissolved_values) == orphaned
    listed = {value.id: value for value in clustered.list_values(limit=100)}
    assert set(listed) == set(stored)  # nothing deleted
    assert {value_id for value_id, value in listed.items() if value.dissolved_at} == orphaned
    assert all(listed[value_id].cluster_size == 0 for value_id in orphaned)
    assert set(list(listed)[-len(orphaned):]) == orphaned  # listed last: their cluster has no size now


# -- values ------------------------------------------------------------------------


@pytest.mark.parametrize("cluster_id", ["surprise", "surprise-0", "mood-1", "surprise-x", 3, None, "surprise-1 "])
def test_malformed_cluster_ids_are_validation_errors(clustered, cluster_id):
    clustered.get_clusters("surprise")
    for call in (lambda: clustered.validate_value("A value", cluster_id),
                 lambda: clustered.get_cluster_members(cluster_id)):
        with pytest.raises(ValidationError, match="cluster_id: expected '<axis>-<number>'"):
            call()


def test_unknown_cluster_ids_are_not_found(clustered):
    clustered.get_clusters("surprise")
    with pytest.raises(NotFoundError, match="surprise-999"):
        clustered.validate_value("A value", "surprise-999")
    with pytest.raises(NotFoundError, match="strategy-1"):
        clustered.get_cluster_members("strategy-1")  # that axis was never clustered


@pytest.mark.parametrize("text, message", [("", "text: must not be empty"), ("   ", "text: must not be empty"),
                                           ("x" * 501, "500")])
def test_empty_or_oversized_values_are_refused_and_nothing_is_stored(clustered, text, message):
    run = clustered.get_clusters("surprise")
    with pytest.raises(ValidationError, match=message):
        clustered.validate_value(text, run.clusters[0].cluster_id)
    with pytest.raises(ValidationError, match=message):
        clustered.store_value(text, run.clusters[0].cluster_id, "surprise")
    assert clustered.list_values() == []


def test_store_value_refuses_an_axis_that_is_not_the_clusters(clustered):
    run = clustered.get_clusters("surprise")
    with pytest.raises(ValidationError, match="axis: 'full' is not the axis of cluster"):
        clustered.store_value("A value", run.clusters[0].cluster_id, "full")
    assert clustered.list_values() == []


def test_an_invalid_value_is_refused_with_the_reason_and_nothing_is_stored(clustered):
    run = clustered.get_clusters("surprise")
    with pytest.raises(ValidationError, match="not stored as a value of .*distance"):
        clustered.store_value("Bananas ripen faster in a paper bag", run.clusters[0].cluster_id, "surprise")
    assert clustered.list_values() == []


def test_a_check_names_the_nearest_other_cluster_and_the_terms_it_shares(clustered):
    run = clustered.get_clusters("surprise")
    own, *others = [c.cluster_id for c in run.clusters]
    text = clustered.get_cluster_members(own, limit=1)[0].surprise  # the most central member's own words
    check = clustered.validate_value(text, own)
    assert check.valid and check.nearest_cluster_id == own
    assert check.nearest_other_cluster_id in others and check.nearest_other_similarity < check.cluster_similarity
    assert check.shared_terms and all(word in text.lower() for word in check.shared_terms)  # as the text spells them
    assert check.nearest_other_cluster_id in check.reason and ", ".join(check.shared_terms) in check.reason
    unrelated = clustered.validate_value("Bananas ripen faster in a paper bag", own)
    assert unrelated.shared_terms == () and "shares no term" in unrelated.reason


def test_another_cluster_may_be_nearer_by_at_most_the_margin(clustered, monkeypatch):
    run = clustered.get_clusters("surprise")
    own, other = run.clusters[0].cluster_id, run.clusters[1].cluster_id
    text = clustered.get_cluster_members(other, limit=1)[0].surprise  # about the other cluster
    check = clustered.validate_value(text, own)
    assert not check.valid and check.nearest_cluster_id != own and "closer to cluster" in check.reason
    gap = check.nearest_other_similarity - check.cluster_similarity
    assert gap > values.NEAREST_MARGIN
    monkeypatch.setattr(values, "NEAREST_MARGIN", gap + 0.01)  # within the margin now: only the distance decides
    widened = clustered.validate_value(text, own)
    assert "closer to cluster" not in widened.reason
    assert widened.valid == (widened.centroid_distance <= widened.threshold_distance)


def test_values_are_listed_by_cluster_size_and_found_by_search(clustered):
    run = clustered.get_clusters("surprise")
    stored = []
    for cluster in run.clusters[:2]:
        central = clustered.get_cluster_members(cluster.cluster_id, limit=1)[0]
        stored.append(clustered.store_value(central.surprise, cluster.cluster_id, "surprise"))
    listed = clustered.list_values()
    assert [v.id for v in listed] == [s.id for s in sorted(stored, key=lambda s: -s.cluster_size)]
    assert clustered.list_values(axis="full") == []
    assert clustered.search_values("") == []
    hits = clustered.search_values(stored[1].text, limit=1)
    assert [h.id for h in hits] == [stored[1].id] and hits[0].score is not None
    with pytest.raises(ValidationError, match="limit"):
        clustered.list_values(limit=0)


def test_a_handles_value_list_follows_what_other_handles_write(clustered, open_again, monkeypatch):
    run = clustered.get_clusters("surprise")
    other = open_again(embedder=HashingEmbedder())
    assert clustered.list_values() == []  # cached now
    central = clustered.get_cluster_members(run.clusters[0].cluster_id, limit=1)[0]
    stored = other.store_value(central.surprise, run.clusters[0].cluster_id, "surprise")
    assert [v.id for v in clustered.list_values()] == [stored.id]
    assert clustered.search_values(central.surprise)[0].id == stored.id
    monkeypatch.setenv("LEARNMEM_MIN_CLUSTER_SIZE", "15")
    other.get_clusters("surprise")  # sizes change (or the cluster dissolves): the list shows it
    (value,) = clustered.list_values()
    current = {c.cluster_id: c.size for c in other.get_clusters("surprise").clusters}
    assert value.cluster_size == current.get(stored.cluster_id, 0)


def test_clusters_keep_their_ids_when_new_experiences_join_them(clustered, tmp_path):
    first = clustered.get_clusters("surprise")
    before = {c.cluster_id: {m.ghap_id for m in clustered.get_cluster_members(c.cluster_id, limit=100)}
              for c in first.clusters}
    more = [dict(entry, id=entry["id"].replace("ghap_20250901", "ghap_20250902"),
                 created_at=entry["created_at"].replace("2025-09-01", "2025-09-02"),
                 outcome=dict(entry["outcome"], captured_at=entry["outcome"]["captured_at"].replace("2025-09-01",
                                                                                                    "2025-09-02")))
            for entry in entries(30, seed=9)]
    source = tmp_path / "more.jsonl"
    source.write_text("".join(json.dumps(entry) + "\n" for entry in more), encoding="utf-8")
    assert clustered.import_ghap(source).imported == 30
    grown = clustered.get_clusters("surprise")
    assert grown.experience_count == 90
    after = {c.cluster_id: {m.ghap_id for m in clustered.get_cluster_members(c.cluster_id, limit=100)}
             for c in grown.clusters}
    for cluster_id, members in before.items():  # every old cluster whose members stayed together kept its id
        holder = max(after.values(), key=lambda new: len(new & members))
        if len(holder & members) >= clusters.CARRY_OVER * len(members):
            assert members & after.get(cluster_id, set()), cluster_id
    assert set(before) & set(after)


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=2, max_value=12), st.integers(min_value=0, max_value=2**31 - 1))
def test_leave_one_out_distances_are_each_forms_distance_to_the_others_centroid(count, seed):
    """The threshold a text sharing a term with the members is held to: each form against the weighted
    centroid of the other forms (brute force here), never nearer than against the centroid of all of them."""
    import numpy as np

    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(count, 8))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    weights = rng.uniform(0.2, 1.0, size=count)
    got = values._leave_one_out_distances(vectors, weights)
    centroid = (vectors * weights[:, None]).sum(axis=0)
    for i in range(count):
        others = np.delete(vectors, i, axis=0) * np.delete(weights, i)[:, None]
        rest = others.sum(axis=0)
        assert got[i] == pytest.approx(1.0 - vectors[i] @ rest / np.linalg.norm(rest), abs=1e-9)
        assert got[i] >= 1.0 - vectors[i] @ centroid / np.linalg.norm(centroid) - 1e-9
