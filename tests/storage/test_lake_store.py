"""learnmem on a lake (learnmem.storage.lake_store, learnmem.exchange.lake_sync), on a real PostgreSQL catalog: opening it,
projects and agents kept apart, a conflicting commit run again, push and pull, and the refusals.

The shared contract tests (test_memories, test_ghap, test_learning) run on a lake too (BOTH_BACKENDS); this
file covers what only a lake has."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import learnmem
from learnmem.exchange import lake_sync
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import LakeError, LearnmemError, ModelMismatchError, ValidationError

_names = itertools.count(1)


def _project() -> str:
    return f"store-{os.getpid()}-{next(_names)}"


@pytest.fixture
def lake(lake_catalog):
    """open(project=..., agent=...) on the module's lake."""
    catalog, files = lake_catalog
    return lambda project, agent="agent-1", **options: learnmem.open(
        catalog, data_path=files, project=project, agent=agent, embedder=options.pop("embedder", HashingEmbedder()),
        **options)


def test_learnmem_db_names_a_lake_and_the_environment_names_its_project_and_agent(lake_catalog, monkeypatch):
    catalog, files = lake_catalog
    project = _project()
    monkeypatch.setenv("LEARNMEM_DB", catalog)
    monkeypatch.setenv("LEARNMEM_LAKE_DATA_PATH", str(files))
    monkeypatch.setenv("LEARNMEM_PROJECT", project)
    monkeypatch.setenv("LEARNMEM_AGENT", "from-env")
    lm = learnmem.open(embedder=HashingEmbedder())
    assert (lm.store.kind, lm.store.project, lm.store.agent) == ("lake", project, "from-env")
    assert f"project={project} agent=from-env" in repr(lm) and "password" not in repr(lm)
    stored = lm.store_memory("The staging database is rebuilt every night", "fact")
    assert [m.id for m in lm.list_memories()] == [stored.id]
    info = lm.info()
    assert info.path.startswith("ducklake:postgres:") and info.counts["memories"] == 1


def test_projects_never_see_each_other_and_agents_keep_their_own_working_state(lake):
    project, other_project = _project(), _project()
    first, second = lake(project, "alice"), lake(project, "bob")
    elsewhere = lake(other_project, "alice")
    kept = first.store_memory("Releases are cut from the main branch", "decision")
    assert [m.id for m in second.list_memories()] == [kept.id]  # one project: shared
    assert elsewhere.list_memories() == [] and elsewhere.sql("SELECT count(*) FROM memories").fetchone() == (0,)
    alice = first.start_ghap(domain="debugging", strategy="systematic-elimination", goal="find the leak",
                             hypothesis="the cache", action="bisect", prediction="found in 3 steps")
    bob = second.start_ghap(domain="feature", strategy="divide-and-conquer", goal="add the flag",
                            hypothesis="one module", action="edit it", prediction="tests pass")
    assert alice.warning is None and bob.warning is None  # each agent's active entry is its own
    assert first.get_active_ghap().id == alice.id and second.get_active_ghap().id == bob.id
    first.resolve_ghap(status="confirmed", result="found it in the cache")
    assert second.get_active_ghap().id == bob.id
    assert [e.id for e in second.list_ghap_entries(outcome="confirmed")] == [alice.id]  # resolved: shared
    assert elsewhere.list_ghap_entries() == []


def test_a_commit_that_conflicts_with_another_writer_runs_again_on_the_newer_snapshot(lake):
    from learnmem.storage import sql

    project = _project()
    first, second = lake(project, "one"), lake(project, "two")
    ids = [first.store_memory(f"Fact number {n} about the build", "fact").id for n in range(2)]
    with first.store.write() as con:  # forget ids[0] ...
        con.execute(sql.query("forget_known_states"), {"ids": [ids[0]], "now": "2026-01-01 00:00:00"})
        con.execute(sql.query("forget_new_states"), {"ids": [ids[0]], "now": "2026-01-01 00:00:00"})
        second.forget(ids[1])  # ... while another writer changes the same table and commits first
    forgotten = {row[0] for row in second.sql("SELECT memory_id FROM memory_states WHERE forgotten_at IS NOT NULL")
                 .fetchall()}
    assert forgotten == set(ids)  # both: the refused commit was run again
    assert first.list_memories() == []


WRITER = """
import sys
import learnmem
from learnmem.embedding.embed import HashingEmbedder
catalog, files, project, agent, rounds = sys.argv[1:6]
lm = learnmem.open(catalog, data_path=files, project=project, agent=agent, embedder=HashingEmbedder())
for n in range(int(rounds)):
    lm.store_memory(f"{agent} learned lesson {n} about flaky builds", "learning")
    lm.start_ghap(domain="debugging", strategy="systematic-elimination", goal=f"{agent} goal {n}",
                  hypothesis="a race", action="add a lock", prediction="passes")
    lm.update_ghap(note=f"note {n}")
    lm.resolve_ghap(status="confirmed", result="it passed")
print("done")
"""


def test_writers_in_several_processes_at_once_lose_nothing(lake_catalog, lake):
    catalog, files = lake_catalog
    project, writers, rounds = _project(), 4, 5
    lake(project)  # made once, before the race
    running = [subprocess.Popen([sys.executable, "-c", WRITER, catalog, str(files), project, f"w{n}", str(rounds)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for n in range(writers)]
    for proc in running:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0 and out.strip() == "done", err[-2000:]
    lm = lake(project)
    assert len(lm.list_memories(limit=100)) == writers * rounds
    entries = lm.list_ghap_entries(limit=100)
    assert len(entries) == writers * rounds and {e.outcome_status for e in entries} == {"confirmed"}


def test_push_adds_what_the_lake_lacks_and_pull_writes_a_file_that_opens(lake, tmp_path):
    local = learnmem.open(tmp_path / "mine.duckdb", embedder=HashingEmbedder())
    kept = local.store_memory("The API rate limit is 100 requests per minute", "fact")
    gone = local.store_memory("Old deploy notes", "fact")
    local.forget(gone.id)
    local.start_ghap(domain="debugging", strategy="systematic-elimination", goal="fix the 429s",
                     hypothesis="no backoff", action="add backoff", prediction="no more 429s")
    local.resolve_ghap(status="confirmed", result="none since")
    project = _project()
    team = lake(project)
    team.store_memory("Deploys happen on Tuesdays", "decision")
    first = lake_sync.push(team.store, tmp_path / "mine.duckdb")
    assert first.added["memories"] == 2 and first.added["memory_states"] == 1 and first.added["ghap_resolved"] == 1
    assert lake_sync.push(team.store, tmp_path / "mine.duckdb").added == {}  # idempotent
    assert {m.id for m in team.list_memories()} == {kept.id} | {m.id for m in team.list_memories()
                                                                if m.content.startswith("Deploys")}
    pulled = lake_sync.pull(team.store, tmp_path / "copy.duckdb")
    assert pulled.added["memories"] == 3
    copy = learnmem.open(tmp_path / "copy.duckdb", embedder=HashingEmbedder())
    assert {m.content for m in copy.list_memories()} == {m.content for m in team.list_memories()}
    assert copy.retrieve_memories("rate limit", limit=1)[0].id == kept.id
    assert len(copy.list_ghap_entries()) == 1
    with pytest.raises(ValidationError, match=r"^file: .*copy.duckdb exists; pull writes a new file"):
        lake_sync.pull(team.store, tmp_path / "copy.duckdb")
    with pytest.raises(ValidationError, match=r"is a file; push copies a file into a lake"):
        lake_sync.push(local.store, tmp_path / "copy.duckdb")
    real_model = learnmem.open(tmp_path / "real.duckdb")
    real_model.store_memory("A memory embedded by the real model", "fact")
    with pytest.raises(ModelMismatchError, match=r"real.duckdb holds 'all-MiniLM-L6-v2' \(384-d\) vectors"):
        lake_sync.push(team.store, tmp_path / "real.duckdb")


def test_the_cli_pushes_and_pulls(lake_catalog, embedder, tmp_path):
    catalog, files = lake_catalog
    local = learnmem.open(tmp_path / "mine.duckdb", embedder=embedder)  # the CLI's model: the real one
    local.store_memory("Use the staging bucket for test uploads", "fact")
    project = _project()  # made by the first push
    base = [sys.executable, "-m", "learnmem.cli", "lake"]
    where = ["--db", catalog, "--data-path", str(files), "--project", project]
    env = dict(os.environ)
    pushed = subprocess.run([*base, "push", str(tmp_path / "mine.duckdb"), *where, "--json"], capture_output=True,
                            text=True, env=env, timeout=300)
    assert pushed.returncode == 0, pushed.stderr
    assert '"memories": 1' in pushed.stdout
    again = subprocess.run([*base, "push", str(tmp_path / "mine.duckdb"), *where], capture_output=True, text=True,
                           env=env, timeout=300)
    assert again.returncode == 0 and "(nothing new)" in again.stdout, again.stderr
    pulled = subprocess.run([*base, "pull", str(tmp_path / "copy.duckdb"), *where], capture_output=True, text=True,
                            env=env, timeout=300)
    assert pulled.returncode == 0 and "Pulled 1 rows" in pulled.stdout, pulled.stderr
    refused = subprocess.run([*base, "pull", str(tmp_path / "copy.duckdb"), *where], capture_output=True, text=True,
                             env=env, timeout=300)
    assert refused.returncode == 2 and "exists; pull writes a new file" in refused.stderr


def test_bad_names_and_options_are_refused_before_anything_is_written(lake_catalog, lake, tmp_path):
    catalog, files = lake_catalog
    for project, message in (("Team Alpha", "is not a project name"), ("a__b", "is not a project name"),
                             ("x" * 64, "is not a project name"), (7, "is not a project name")):
        with pytest.raises(ValidationError, match=rf"^project: .*{message}"):
            learnmem.open(catalog, data_path=files, project=project, embedder=HashingEmbedder())
    with pytest.raises(ValidationError, match=r"^agent: 'bob smith' is not a agent name"):
        learnmem.open(catalog, data_path=files, project="fine", agent="bob smith", embedder=HashingEmbedder())
    for option in ("data_path", "project", "agent"):
        with pytest.raises(ValidationError, match=rf"^{option}: only a lake takes one"):
            learnmem.open(tmp_path / "file.duckdb", **{option: "x"})
    assert not (tmp_path / "file.duckdb").exists()


def test_a_read_only_lake_reads_and_refuses_writes_and_a_backup(lake):
    project = _project()
    lake(project).store_memory("Feature flags live in flags.yaml", "fact")
    reader = lake(project, read_only=True)
    assert len(reader.list_memories()) == 1
    with pytest.raises(LearnmemError, match=r"was opened read-only"):
        reader.store_memory("Another fact", "fact")
    with pytest.raises(LakeError, match=r"^backup: .* is a lake, not a file; `learnmem lake pull`"):
        reader.backup()


def test_sql_on_a_lake_reads_only_and_a_snapshot_copies_the_project(lake):
    project = _project()
    lm = lake(project)
    lm.store_memory("The linter runs before the tests", "fact")
    assert lm.sql("SELECT count(*) FROM memory_list").fetchone() == (1,)
    for statement in ("DELETE FROM memories", "ATTACH 'x.duckdb' AS x", "SELECT * FROM read_csv('/etc/passwd')"):
        with pytest.raises(ValidationError, match=r"^query: "):
            lm.sql(statement)
    copy = lm.snapshot()
    assert copy.execute("SELECT count(*) FROM memories").fetchone() == (1,)
    assert copy.execute("SELECT typeof(embedding) FROM memories").fetchone() == ("FLOAT[384]",)


def test_the_snapshot_id_moves_with_every_commit_by_anyone(lake):
    project = _project()
    first, second = lake(project, "one"), lake(project, "two")
    before = first.store.signature()
    assert first.store.signature() == before  # a read is no commit
    second.store_memory("The cache is warmed at boot", "fact")
    assert first.store.signature() != before
    assert [m.content for m in first.retrieve_memories("cache warmed at boot", limit=1)] == [
        "The cache is warmed at boot"]


def test_the_hooks_work_on_a_lake_named_by_learnmem_db(lake_catalog, tmp_path):
    from tests.agents.test_hooks import context_of, run_hook

    catalog, files = lake_catalog
    project = _project()
    env = {"LEARNMEM_DB": catalog, "LEARNMEM_LAKE_DATA_PATH": str(files), "LEARNMEM_PROJECT": project + "-hooks",
           "LEARNMEM_AGENT": "hooked"}
    (tmp_path / "repo").mkdir()
    seeded = learnmem.open(catalog, data_path=files, project=project + "-hooks", agent="seeder")
    seeded.store_memory("Run the migrations with `make migrate`, never by hand", "decision", importance=0.9)
    started = run_hook("session-start", {"session_id": "s1", "cwd": str(tmp_path / "repo")}, cwd=tmp_path / "repo",
                       env=env)
    assert started.returncode == 0, started.stderr
    assert "make migrate" in context_of(started, "SessionStart")
    assert (tmp_path / "repo" / ".learnmem").is_dir() and not any(
        p.suffix == ".duckdb" for p in (tmp_path / "repo" / ".learnmem").iterdir())  # no file made for a lake


OPENER = """
import sys
import learnmem
from learnmem.embedding.embed import HashingEmbedder
catalog, files, project, agent = sys.argv[1:5]
lm = learnmem.open(catalog, data_path=files, project=project, agent=agent, embedder=HashingEmbedder())
lm.store_memory(f"{agent} opened the project", "fact")
print("done")
"""


def test_processes_making_one_new_project_at_once_make_it_once(lake_catalog, lake):
    catalog, files = lake_catalog
    project = _project()
    running = [subprocess.Popen([sys.executable, "-c", OPENER, catalog, str(files), project, f"o{n}"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for n in range(4)]
    for proc in running:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0 and out.strip() == "done", err[-2000:]
    lm = lake(project)
    assert len(lm.list_memories()) == 4
    assert lm.sql("SELECT count(*) FROM meta WHERE key = 'schema_version'").fetchone() == (1,)


def test_the_mcp_server_serves_a_lake(lake_catalog, embedder, monkeypatch, tmp_path):
    from tests.mcp_adapter.test_mcp import _ok, _run

    catalog, files = lake_catalog
    project = _project()
    for name, value in (("LEARNMEM_LAKE_DATA_PATH", str(files)), ("LEARNMEM_PROJECT", project),
                        ("LEARNMEM_AGENT", "mcp")):
        monkeypatch.setenv(name, value)

    async def scenario(session) -> None:
        stored = await _ok(session, "store_memory", content="Schema changes need a migration file", category="decision")
        found = await _ok(session, "retrieve_memories", query="how do I change the schema", limit=1)
        assert found["results"][0]["id"] == stored["id"]

    _run(catalog, tmp_path, scenario)
    assert [m.content for m in learnmem.open(catalog, data_path=files, project=project, embedder=embedder)
            .list_memories()] == ["Schema changes need a migration file"]


def test_the_hooks_capture_into_a_lake_and_stop_stores_it(lake_catalog, embedder, tmp_path):
    from tests.agents.test_capture import TASK_REPORT, system_message, task

    catalog, files = lake_catalog
    project, root = _project(), tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("LEARNMEM_", "CLAUDE_"))}
    env |= {"LEARNMEM_DB": catalog, "LEARNMEM_LAKE_DATA_PATH": str(files), "LEARNMEM_PROJECT": project,
            "LEARNMEM_AGENT": "hooked"}

    def hook(event: str, payload: dict) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "learnmem.cli", "hook", event],
                              input=json.dumps({"session_id": "s-1", "cwd": str(root), **payload}),
                              capture_output=True, text=True, cwd=root, env=env, timeout=300, check=False)

    assert hook("post-tool-use", task(TASK_REPORT)).returncode == 0
    message = system_message(hook("stop", {"stop_hook_active": False}))
    assert message.startswith("learnmem: kept 1 of 1 learning captured from tool output")
    team = learnmem.open(catalog, data_path=files, project=project, agent="someone-else", embedder=embedder)
    assert [m.content[:12] for m in team.list_memories(tags=["auto-captured"])] == ["Turns out th"]
    assert team.list_queued_memories() == []  # the queue was the hooked agent's own


def test_hard_forget_export_and_import_work_on_a_lake(lake, tmp_path):
    lm = lake(_project())
    kept = lm.store_memory("The on-call rotation changes on Mondays", "fact")
    gone = lm.store_memory("The old VPN password hint was the office plant", "fact")
    lm.forget(gone.id, hard=True)  # deleted, and the lake's older snapshots expired and their files deleted
    assert [m.id for m in lm.list_memories(include_superseded=True)] == [kept.id]
    assert lm.sql("SELECT count(*) FROM memories WHERE id = $id", {"id": gone.id}).fetchone() == (0,)
    exported = lm.export_data(tmp_path / "out.jsonl")
    assert exported.memories == 1
    other = lake(_project())
    assert other.import_data(tmp_path / "out.jsonl", progress=False).imported["memories"] == 1
    assert [m.id for m in other.list_memories()] == [kept.id]


def test_a_resolve_on_a_lake_writes_its_axes_embedded(lake):
    lm = lake(_project())
    lm.start_ghap(domain="debugging", strategy="read-the-error", goal="fix the import error",
                  hypothesis="a circular import between api and store", action="move the import into the function",
                  prediction="the module imports cleanly")
    lm.resolve_ghap(status="falsified", result="still failing", surprise="the cycle was through the CLI",
                    root_cause={"category": "wrong-assumption", "description": "the CLI imported api at load"})
    assert lm.sql("SELECT count(*) FROM experience_axes_recent").fetchone() == (0,)  # nothing left to fill in
    assert lm.sql("SELECT count(*) FROM experience_axes_embedded WHERE embedding IS NOT NULL").fetchone() == (4,)
    assert lm.search_experiences("circular import through the command line", axis="surprise", limit=1,
                                include_cold=True)  # ("still failing" says too little: bronze, cold)


def test_released_instances_attach_again_and_keep_every_row(lake):
    from learnmem.storage.lake_store import _instances, release_instances

    project = _project()
    stored = lake(project).store_memory("The release train leaves on Thursdays", "fact")
    assert _instances, "a lake store holds this process's attached instance"
    release_instances()
    assert not _instances
    again = lake(project)
    assert again.get_memory(stored.id).content == "The release train leaves on Thursdays"
    assert again.store_memory("Hotfixes skip the train", "fact").duplicate is False
