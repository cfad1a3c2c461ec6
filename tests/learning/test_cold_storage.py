"""Cold storage: experiences of the cold tiers are kept but left out of clustering and default retrieval.

Real model, real files. The cold tiers are the threshold (`cold_tier=` / LEARNMEM_COLD_TIER: silver, bronze,
abandoned or none; default bronze) and every tier below it (gold > silver > bronze > abandoned).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from learnmem.learning import terms
import learnmem
from learnmem.context import assembly as context
from learnmem.learning import experiences
from learnmem.errors import InsufficientDataError, ValidationError
from learnmem.context.oneshot import OneShotView

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = "silver, bronze, abandoned, none"
TOPIC = "flamingo export"
QUERY = "flamingo export times out in the nightly report job"


@pytest.fixture(autouse=True)
def no_cold_variable(monkeypatch):
    """Every test starts from the default (bronze), whatever the environment says."""
    monkeypatch.delenv("LEARNMEM_COLD_TIER", raising=False)


def _resolve(lm, hypothesis: str, status: str, result: str, *, gold: bool = False, goal: str | None = None,
             surprise: str | None = None, cause: str | None = None) -> str:
    lm.start_ghap("performance", "systematic-elimination", goal or f"Stop the {TOPIC} timing out every night",
                  hypothesis, "Add an index on orders.created_at and rerun the export",
                  "The EXPLAIN plan shows an index scan and the export ends within 60 s")
    if status == "abandoned":
        return lm.abandon_ghap(result).id
    root_cause = {"category": "wrong-assumption", "description": cause} if cause else None
    return lm.resolve_ghap(status, result, surprise=surprise, root_cause=root_cause, auto_captured=gold).id


@pytest.fixture(scope="module")
def tiered(tmp_path_factory, embedder) -> tuple[Path, dict[str, str]]:
    """A file with one experience of each tier, all about the flamingo export: {tier: ghap id}."""
    path = tmp_path_factory.mktemp("tiered") / "tiered.duckdb"
    lm = learnmem.open(path, embedder=embedder, cold_tier="none")
    ids = {
        "gold": _resolve(lm, "The report query scans the whole orders table because the date index is missing",
                         "confirmed", "The flamingo export finished in 40 s instead of timing out after 600 s",
                         gold=True),
        "silver": _resolve(lm, "The flamingo export sorts every order in memory before writing the CSV",
                           "falsified", "Memory stayed flat at 200 MB while the export still timed out",
                           surprise="The flamingo export spent its time waiting on a table lock held by the vacuum",
                           cause="autovacuum on orders held a lock during the nightly window"),
        # The bronze rule: a hypothesis with too few specific terms ("tests", "tell", "wrong" are generic).
        "bronze": _resolve(lm, "The tests will tell me what's wrong", "falsified",
                           "The flamingo export timed out again after 600 s in the nightly report job",
                           goal="Find why the flamingo export times out in the nightly report job",
                           surprise="The flamingo export timeout came from the reverse proxy, not the database",
                           cause="the proxy's 600 s read timeout cut the long flamingo export response"),
        "abandoned": _resolve(lm, "The flamingo export is slow because the S3 upload uses one thread",
                              "abandoned", "The flamingo export job was retired before the upload was measured"),
    }
    tiers = dict(lm.sql("SELECT id, confidence_tier FROM ghap_resolved").fetchall())
    assert {ids[tier]: tier for tier in ids} == tiers  # the bronze rule made the third one bronze
    bronze = lm.sql("SELECT * FROM ghap_resolved WHERE id = ?", [ids["bronze"]]).df().iloc[0].to_dict()
    assert experiences.bronze_reason(bronze).startswith("hypothesis states too little")
    lm.close()
    return path, ids


def _found(lm, query: str = QUERY, **kwargs) -> dict[str, str]:
    return {hit.ghap_id: hit.confidence_tier for hit in lm.search_experiences(query, limit=10, **kwargs)}


# -- retrieval -------------------------------------------------------------------------


def test_bronze_and_abandoned_are_left_out_of_search_by_default_and_found_with_include_cold(tiered, embedder):
    path, ids = tiered
    lm = learnmem.open(path, embedder=embedder)
    assert set(_found(lm).values()) == {"gold", "silver"}
    assert set(_found(lm, include_cold=True).values()) == {"gold", "silver", "bronze", "abandoned"}
    # The bronze entry is the best match of its own goal: with include_cold it comes first, by default not at all.
    best = lm.search_experiences("Find why the flamingo export times out", limit=1, include_cold=True)
    assert best[0].ghap_id == ids["bronze"]
    assert lm.search_experiences("Find why the flamingo export times out", limit=1)[0].confidence_tier in ("gold", "silver")
    # Other axes too: the bronze entry's surprise is found only with include_cold.
    surprise = "the reverse proxy timeout, not the database"
    assert [h.confidence_tier for h in lm.search_experiences(surprise, axis="surprise")] == ["silver"]
    assert {h.confidence_tier for h in lm.search_experiences(surprise, axis="surprise", include_cold=True)} == \
        {"silver", "bronze"}
    # Filters combine: abandoned outcome asked for explicitly is still cold unless include_cold.
    assert lm.search_experiences(QUERY, outcome="abandoned") == []
    assert [h.ghap_id for h in lm.search_experiences(QUERY, outcome="abandoned", include_cold=True)] == [ids["abandoned"]]


def test_nothing_is_deleted_cold_entries_stay_listed_embedded_and_exported(tiered, embedder, tmp_path):
    path, ids = tiered
    lm = learnmem.open(path, embedder=embedder)
    assert {entry.id for entry in lm.list_ghap_entries()} == set(ids.values())
    axes = dict(lm.sql("SELECT ghap_id, count(embedding) FROM experience_axes GROUP BY ghap_id").fetchall())
    assert axes[ids["bronze"]] == 4 and axes[ids["abandoned"]] == 2  # full, strategy (+ surprise, root_cause)
    out = tmp_path / "entries.jsonl"
    assert lm.export_ghap(out) == 4
    exported = {json.loads(line)["id"]: json.loads(line)["confidence_tier"] for line in out.read_text().splitlines()}
    assert exported == {ghap_id: tier for tier, ghap_id in ids.items()}
    again = learnmem.open(tmp_path / "again.duckdb", embedder=embedder)
    assert again.import_ghap(out).imported == 4
    assert again.info().cold_experiences == {"bronze": 1, "abandoned": 1}
    assert set(_found(again, include_cold=True).values()) == {"gold", "silver", "bronze", "abandoned"}


@pytest.mark.parametrize("setting, warm", [
    ("none", {"gold", "silver", "bronze", "abandoned"}),
    ("abandoned", {"gold", "silver", "bronze"}),
    ("bronze", {"gold", "silver"}),
    ("silver", {"gold"}),
])
def test_the_threshold_names_the_highest_cold_tier(tiered, embedder, setting, warm):
    path, _ = tiered
    lm = learnmem.open(path, embedder=embedder, cold_tier=setting)
    assert set(_found(lm).values()) == warm
    assert set(_found(lm, include_cold=True).values()) == {"gold", "silver", "bronze", "abandoned"}
    cold = {"gold", "silver", "bronze", "abandoned"} - warm
    expected = {tier: 1 for tier in terms.TIERS if tier in cold}
    assert lm.info().cold_experiences == expected
    assert list(lm.info().cold_experiences) == [tier for tier in terms.TIERS if tier in cold]  # best tier first


def test_the_keyword_wins_over_the_variable_which_is_read_at_each_use(tiered, embedder, monkeypatch):
    path, _ = tiered
    monkeypatch.setenv("LEARNMEM_COLD_TIER", "abandoned")
    by_variable = learnmem.open(path, embedder=embedder)
    assert set(_found(by_variable).values()) == {"gold", "silver", "bronze"}
    assert set(_found(learnmem.open(path, embedder=embedder, cold_tier="silver")).values()) == {"gold"}
    assert set(_found(learnmem.Learnmem(path, embedder=embedder, cold_tier="none")).values()) == \
        {"gold", "silver", "bronze", "abandoned"}
    monkeypatch.setenv("LEARNMEM_COLD_TIER", " None ")  # trimmed, any case
    assert by_variable.info().cold_experiences == {}
    assert len(_found(by_variable)) == 4
    monkeypatch.setenv("LEARNMEM_COLD_TIER", "")  # blank: the default
    assert by_variable.info().cold_experiences == {"bronze": 1, "abandoned": 1}


@pytest.mark.parametrize("value", ["gold", "Bronze", "", "lukewarm", 3, True])
def test_a_bad_keyword_is_refused_at_open_naming_it_the_value_and_the_options(db_path, embedder, value):
    with pytest.raises(ValidationError) as refused:
        learnmem.open(db_path, embedder=embedder, cold_tier=value)
    message = str(refused.value)
    assert message.startswith("cold_tier: ") and repr(value) in message and ALLOWED in message


def test_a_bad_variable_is_a_validation_error_where_it_is_used_and_changes_nothing(tiered, embedder, monkeypatch):
    path, _ = tiered
    lm = learnmem.open(path, embedder=embedder)
    runs = lm.sql("SELECT count(*) FROM cluster_runs").fetchone()
    monkeypatch.setenv("LEARNMEM_COLD_TIER", "lukewarm")
    for call in (lambda: lm.search_experiences(QUERY), lambda: lm.get_clusters("full"), lm.info,
                 lambda: lm.get_context(QUERY, depth="rich")):
        with pytest.raises(ValidationError, match=f"LEARNMEM_COLD_TIER: 'lukewarm' is not one of: {ALLOWED}"):
            call()
    assert set(_found(lm, include_cold=True).values()) == {"gold", "silver", "bronze", "abandoned"}
    assert set(_found(learnmem.open(path, embedder=embedder, cold_tier="none")).values()) == \
        {"gold", "silver", "bronze", "abandoned"}  # the keyword does not read the variable
    monkeypatch.delenv("LEARNMEM_COLD_TIER")
    assert lm.sql("SELECT count(*) FROM cluster_runs").fetchone() == runs
    assert lm.info().cold_experiences == {"bronze": 1, "abandoned": 1}


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_include_cold_must_be_a_boolean(tiered, embedder, value):
    lm = learnmem.open(tiered[0], embedder=embedder)
    with pytest.raises(ValidationError, match=f"include_cold: expected True or False, got {value!r}"):
        lm.search_experiences(QUERY, include_cold=value)


# -- context, premortem and the hooks' view ------------------------------------------------


def test_context_leaves_cold_experiences_out_unless_nothing_is_cold(tiered, embedder):
    path, ids = tiered
    default, everything = (learnmem.open(path, embedder=embedder, cold_tier=setting) for setting in ("bronze", "none"))
    for depth in ("light", "rich"):
        shown = {item.id for item in default.get_context(QUERY, depth=depth, max_tokens=4000).items}
        assert ids["gold"] in shown and ids["silver"] in shown, (depth, shown)
        assert ids["bronze"] not in shown and not any(ids["bronze"] in item for item in shown), (depth, shown)
        markdown = default.get_context(QUERY, depth=depth, max_tokens=4000).markdown
        assert ids["bronze"] not in markdown and ids["abandoned"] not in markdown
        # Brought in (cold_tier none), the bronze entry shows: the exclusion above is the setting's doing.
        assert ids["bronze"] in everything.get_context(QUERY, depth=depth, max_tokens=4000).markdown, depth


@pytest.mark.parametrize("situation", [None, QUERY])
def test_premortem_counts_every_entry_but_shows_warm_failures(tiered, embedder, situation):
    path, ids = tiered
    default = learnmem.open(path, embedder=embedder).get_premortem("performance", "systematic-elimination", situation)
    assert (default.total, default.confirmed, default.falsified, default.abandoned) == (4, 1, 2, 1)
    assert [f.ghap_id for f in default.failures] == [ids["silver"]]
    everything = learnmem.open(path, embedder=embedder, cold_tier="none").get_premortem(
        "performance", "systematic-elimination", situation)
    assert {f.ghap_id for f in everything.failures} == {ids["silver"], ids["bronze"], ids["abandoned"]}


def test_the_hooks_one_shot_view_leaves_cold_experiences_out(tiered, embedder, monkeypatch):
    path, ids = tiered
    lm = learnmem.open(path, embedder=embedder)
    view = OneShotView(lm.store)
    try:
        assert {h.confidence_tier for h in view.search_experiences(QUERY)} == {"gold", "silver"}
        assert {h.confidence_tier for h in view.search_experiences(QUERY, include_cold=True)} == \
            {"gold", "silver", "bronze", "abandoned"}
        # One place asked for, the best match cold: the view looks deeper than the cold rows that took it.
        goal = "Find why the flamingo export times out"
        top = view.search_experiences(goal, axis="strategy", limit=1, include_cold=True)[0]
        assert top.confidence_tier in ("bronze", "abandoned"), top
        assert view.search_experiences(goal, axis="strategy", limit=1)[0].confidence_tier in ("gold", "silver")
        for depth in ("light", "rich"):  # the hooks' context, read through the view
            markdown = context.get_context(view, QUERY, depth=depth, max_tokens=4000, include_code=False).markdown
            assert ids["gold"] in markdown and ids["bronze"] not in markdown and ids["abandoned"] not in markdown
        monkeypatch.setenv("LEARNMEM_COLD_TIER", "abandoned")  # the hooks read the variable
        assert {h.confidence_tier for h in view.search_experiences(QUERY)} == {"gold", "silver", "bronze"}
    finally:
        view.close()


def test_the_cli_searches_cold_experiences_with_include_cold(tiered):
    path, ids = tiered
    env = {key: value for key, value in os.environ.items() if key not in ("LEARNMEM_DB", "LEARNMEM_COLD_TIER")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))

    def search(*extra: str, variable: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "learnmem.cli", "ghap", "search", QUERY, "--db", str(path),
                               "--json", *extra], check=False, capture_output=True, text=True, cwd=ROOT, timeout=120,
                              env=env | ({"LEARNMEM_COLD_TIER": variable} if variable else {}))

    default, cold = search(), search("--include-cold")
    assert default.returncode == cold.returncode == 0, (default.stderr, cold.stderr)
    assert {hit["confidence_tier"] for hit in json.loads(default.stdout)["results"]} == {"gold", "silver"}
    assert {hit["ghap_id"] for hit in json.loads(cold.stdout)["results"]} == set(ids.values())
    refused = search(variable="tepid")
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    assert f"LEARNMEM_COLD_TIER: 'tepid' is not one of: {ALLOWED}" in refused.stderr


# -- clustering --------------------------------------------------------------------------

THEMES = {
    "tz": ("the CI runner uses UTC while the laptop uses local time", "timezone offset between CI and laptops"),
    "cache": ("the CDN kept serving the stale bundle after the deploy", "stale CDN cache after deploys"),
    "mock": ("the patch replaced the name where it was defined, not where it was used", "mock patched the wrong target"),
}
DETAILS = ("in the billing service", "in the export job", "in the login flow", "in the reports page",
           "in the search API", "in the invoice mailer", "in the admin panel", "in the signup form")


def _entry(n: int, theme: str, detail: str, tier: str | None) -> dict:
    surprise, cause = THEMES[theme]
    entry = {
        "id": f"ghap_20250901_{n // 60:02d}{n % 60:02d}00_{n:06x}", "session_id": "session_20250901_000000_aaaaaa",
        "created_at": f"2025-09-01T{n // 60:02d}:{n % 60:02d}:00Z", "domain": "debugging",
        "strategy": "systematic-elimination", "goal": f"Fix the {theme} test failure {detail}",
        "hypothesis": f"The {theme} failure {detail} comes from a slow database query",
        "action": "Profile the query plan", "prediction": "The plan shows a sequential scan over orders",
    }
    if tier == "abandoned":
        return entry | {"outcome": {"status": "abandoned", "result": f"Gave up on the {theme} failure {detail}",
                                    "captured_at": entry["created_at"], "auto_captured": False}}
    return entry | {
        "outcome": {"status": "falsified", "result": f"The query took 3 ms {detail}", "captured_at": entry["created_at"],
                    "auto_captured": False},
        "surprise": f"{surprise} {detail}", "root_cause": {"category": "wrong-assumption", "description": f"{cause} {detail}"},
    } | ({"confidence_tier": tier} if tier else {})


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, embedder) -> tuple[Path, set[str]]:
    """3 themes x 24 falsified entries (3 per theme bronze) and 2 abandoned ones per theme: (file, cold ids)."""
    folder = tmp_path_factory.mktemp("corpus")
    rows, n = [], 0
    for theme in THEMES:
        for k in range(24):
            rows.append(_entry(n, theme, DETAILS[k % len(DETAILS)] + f" (case {k})", "bronze" if k % 8 == 0 else None))
            n += 1
        for k in range(2):
            rows.append(_entry(n, theme, DETAILS[k] + f" (case {k})", "abandoned"))
            n += 1
    source = folder / "entries.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    lm = learnmem.open(folder / "corpus.duckdb", embedder=embedder)
    result = lm.import_ghap(source)
    assert (result.imported, result.errors) == (len(rows), ())
    cold = {ghap_id for (ghap_id,) in lm.sql("SELECT id FROM ghap_resolved WHERE confidence_tier IN "
                                             "('bronze', 'abandoned')").fetchall()}
    assert len(cold) == 3 * 3 + 3 * 2
    lm.close()
    return folder / "corpus.duckdb", cold


def _members(lm, run) -> set[str]:
    return {ghap_id for (ghap_id,) in lm.sql("SELECT ghap_id FROM cluster_members WHERE run_id = ? AND cluster_id "
                                             "IS NOT NULL", [run.run_id]).fetchall()}


@pytest.mark.parametrize("axis, cold_count", [("full", 15), ("surprise", 9)])
def test_cold_experiences_are_left_out_of_clustering(corpus, embedder, axis, cold_count):
    path, cold = corpus
    # Brought in (cold_tier none), cold experiences are cluster members, weighed by their tier.
    everything = learnmem.open(path, embedder=embedder, cold_tier="none")
    run = everything.get_clusters(axis)
    assert run.cold_count == 0 and run.experience_count == (78 if axis == "full" else 72)
    assert _members(everything, run) & cold
    assert min(cluster.avg_weight for cluster in run.clusters) < terms.TIER_WEIGHTS["silver"]
    # By default they are left out: not members, not noise, not weighed; counted in cold_count.
    lm = learnmem.open(path, embedder=embedder)
    run = lm.get_clusters(axis)
    assert run.cold_count == cold_count and run.experience_count == 63 and run.count >= 2
    recorded = {ghap_id for (ghap_id,) in lm.sql("SELECT ghap_id FROM cluster_members WHERE run_id = ?",
                                                 [run.run_id]).fetchall()}
    assert len(recorded) == 63 and not recorded & cold
    assert all(cluster.avg_weight == terms.TIER_WEIGHTS["silver"] for cluster in run.clusters)
    parameters = json.loads(lm.sql("SELECT parameters FROM cluster_runs WHERE id = ?", [run.run_id]).fetchone()[0])
    assert parameters["cold_tiers"] == ["bronze", "abandoned"]
    for cluster in run.clusters:  # members and the value ritual follow the clustering
        members = lm.get_cluster_members(cluster.cluster_id, limit=100)
        assert len(members) == cluster.size and not {m.ghap_id for m in members} & cold
        assert {m.confidence_tier for m in members} == {"silver"}
    # The entries stay: searching with include_cold still finds the cold ones.
    assert {h.ghap_id for h in lm.search_experiences("mock patched the wrong target", axis=axis, limit=50,
                                                     include_cold=True)} & cold


def test_too_few_warm_experiences_is_insufficient_data_naming_the_cold_ones(tmp_path, embedder):
    rows = [_entry(n, list(THEMES)[n % 3], DETAILS[n % len(DETAILS)] + f" (case {n})", "bronze" if n >= 19 else None)
            for n in range(25)]
    source = tmp_path / "few.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    lm = learnmem.open(tmp_path / "few.duckdb", embedder=embedder)
    assert lm.import_ghap(source).imported == 25
    with pytest.raises(InsufficientDataError, match=r"19 embedded experiences; clustering needs at least 20 "
                                                    r"\(6 cold ones of tier bronze or abandoned are never members; "
                                                    r"cold_tier"):
        lm.get_clusters("surprise")
    assert lm.sql("SELECT count(*) FROM cluster_runs").fetchone() == (0,)
    assert learnmem.open(lm.path, embedder=embedder, cold_tier="none").get_clusters("surprise").experience_count == 25


# -- the retro notebook -------------------------------------------------------------------


def test_the_retro_notebook_shows_how_many_experiences_are_cold(tiered, embedder, monkeypatch, tmp_path):
    path, _ = tiered
    notebook = nbformat.read(ROOT / "notebooks" / "retro.ipynb", as_version=4)
    notebook.cells = [cell for cell in notebook.cells if cell.get("id") in ("setup", "refresh-clusters", "cold-storage")]
    assert len(notebook.cells) == 3
    monkeypatch.setenv("LEARNMEM_DB", str(path))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
                   ).execute()
    cold = next(cell for cell in notebook.cells if cell.id == "cold-storage")
    text = "\n".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", "")) for o in cold.outputs)
    assert "2 of 4 experiences are in cold storage (bronze 1, abandoned 1)" in text, text
    assert not [o for o in cold.outputs if o.output_type == "error"]
