"""The crash harness (bench/crash, issue 9 item 1) in short, its verifier shown to catch what it must, and the
defects it led to as regression tests.

The short run kills about 20 writer processes with SIGKILL (memories, GHAP, learning, indexing; the
HashingEmbedder first, then a few kills with the real model) and checks the file through the three doors
after every episode; `python -m bench.crash --kills 200` is the long form (bench/crash/RESULTS.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest

import learnmem
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import LearnmemError

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # `bench` lives at the repository root

from bench.crash import run as crash


def test_a_short_crash_run_loses_no_acknowledged_write(tmp_path):
    # 16 kills on a file embedded with the HashingEmbedder, then 4 on one embedded with the real model (its
    # slower embedding leaves experience axes pending when a resolve is killed). One indexer at a time (the
    # long run in bench has two at once).
    result = crash.run(20, tmp_path, seed=11, generation_kills=16, model_every=2, second_indexer=0.0)
    assert result.failures == []
    assert result.kills >= 20 and result.counts.generations == 2 and result.counts.final_index_checks == 2
    acknowledged = result.counts.acks
    # How many writes are acknowledged before their kills depends on the machine's speed (17 over these 20 kills
    # on a busy 2-core run of the whole suite): the floor says the run wrote, the loss check above is the test.
    assert sum(acknowledged.values()) >= 10
    assert acknowledged["store"] + acknowledged["store_batch"] > 0
    assert result.counts.door_checks == 3 * result.counts.episodes  # three doors after every episode


# -- the verifier catches what it must -----------------------------------------------------------------


def _log(path: Path, *records: dict) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    """A seeded file and tree (60 resolved GHAP entries), checked clean; made once for the module."""
    gen = crash.Generation(tmp_path_factory.mktemp("seeded"), 0, "hashing", seed=5)
    assert gen.setup_failures == []
    return gen


@pytest.fixture
def generation(seeded, tmp_path):
    """A copy of the seeded generation (file, tree and model) of the test's own."""
    return seeded.copy_to(tmp_path / "copy")


def test_the_verifier_reports_an_acknowledged_memory_that_is_missing(generation, tmp_path):
    lost = "mem_20990101_000000_0123456789"
    log = _log(tmp_path / "child.jsonl",
               {"ph": "intent", "op": "store", "content": "The parser caches module lookups (writer 1, note 1)."},
               {"ph": "ack", "op": "store", "content": "The parser caches module lookups (writer 1, note 1).",
                "id": lost, "duplicate": False})
    failures = generation.check_episode([log], crash.Counts())
    assert any(lost in f and "acknowledged" in f and "missing" in f for f in failures), failures


def test_the_verifier_reports_a_write_no_log_asked_for(generation):
    stray = learnmem.open(generation.db, embedder=HashingEmbedder()).store_memory("Written behind the logs' back", "fact")
    failures = generation.check_episode([], crash.Counts())
    assert any(stray.id in f and "no log acknowledged or attempted it" in f for f in failures), failures


def test_the_verifier_reports_a_half_applied_supersede(generation, tmp_path):
    lm = learnmem.open(generation.db, embedder=HashingEmbedder())
    old = lm.store_memory("The export job retries each request (writer 2, note 1).", "fact").id
    # The kill cut a supersede: its new memory is stored, but the old one is not superseded.
    lm.store_memory("The export job skips each request (revised, writer 2, note 2).", "fact")
    log = _log(tmp_path / "child.jsonl",
               {"ph": "intent", "op": "store", "content": "The export job retries each request (writer 2, note 1)."},
               {"ph": "ack", "op": "store", "content": "The export job retries each request (writer 2, note 1).",
                "id": old, "duplicate": False},
               {"ph": "intent", "op": "supersede", "old": old,
                "content": "The export job skips each request (revised, writer 2, note 2)."})
    failures = generation.check_episode([log], crash.Counts())
    assert any("half applied" in f and old in f for f in failures), failures


def test_the_verifier_reports_dangling_rows_through_every_door(generation):
    entry = learnmem.open(generation.db, embedder=HashingEmbedder()).sql(
        "SELECT id FROM ghap_resolved ORDER BY id LIMIT 1").fetchone()[0]
    con = duckdb.connect(str(generation.db))
    con.execute("INSERT INTO memory_states VALUES ('mem_20990101_000000_ffffffffff', NULL, NULL, now()::TIMESTAMP)")
    con.execute("INSERT INTO calls VALUES ($1, 'pkg/gone.py', 'pkg.gone', 'run', 'pkg.gone', 'helper', 'helper', 3)",
                [crash.PROJECT])
    con.execute("DELETE FROM experience_axes_embedded WHERE ghap_id = $1 AND axis = 'strategy'", [entry])
    con.execute("DELETE FROM experience_axes_recent WHERE ghap_id = $1 AND axis = 'strategy'", [entry])
    con.close()
    failures = generation.check_episode([], crash.Counts())
    for door in ("duckdb read-only", "learnmem read-only", "learnmem read-write"):
        for check in ("memory states name stored memories", "call edges come from existing units",
                      "calls belong to files", "resolved entries have their full and strategy axes"):
            assert any(f.startswith(f"[{door}] integrity: {check}") for f in failures), (door, check, failures)
    assert any(crash.STALE_GRAPH in f for f in failures), failures


# -- regression tests for what the harness found -----------------------------------------------------


INDEX_ANOTHER_PROCESS = textwrap.dedent(
    """
    import sys
    import learnmem
    from learnmem.storage import store
    from learnmem.embedding.embed import HashingEmbedder
    store.LOCK_DEADLINE_S = 2  # a fixed indexer holds the writer lock meanwhile: give up soon
    learnmem.open(sys.argv[1], embedder=HashingEmbedder()).index_codebase(sys.argv[2], project="p", progress=False)
    """
)


def test_a_call_graph_computed_before_another_indexers_run_does_not_overwrite_it(tmp_path, monkeypatch):
    import random

    from learnmem.code import resolve

    tree, path = tmp_path / "tree", tmp_path / "learnmem.duckdb"
    crash.make_tree(tree, random.Random(1), 10)
    first = learnmem.open(path, embedder=HashingEmbedder())
    first.index_codebase(tree, project="p", progress=False)
    resolve_calls, interleaved = resolve.resolve_calls, []

    def another_indexer_runs_meanwhile(files):
        edges = resolve_calls(files)  # the graph of what this run read...
        if not interleaved:  # ... and before it writes it, another process edits the tree and indexes it whole
            min((tree / "pkg").glob("mod_*.py")).write_text('"""Emptied."""\n', encoding="utf-8")
            interleaved.append(subprocess.run([sys.executable, "-c", INDEX_ANOTHER_PROCESS, str(path), str(tree)],
                                              check=False, capture_output=True, timeout=120).returncode)
        return edges

    monkeypatch.setattr(resolve, "resolve_calls", another_indexer_runs_meanwhile)
    (tree / "pkg" / "mod_new.py").write_text("def helper(value):\n    return value\n", encoding="utf-8")
    first.index_codebase(tree, project="p", progress=False)
    monkeypatch.setattr(resolve, "resolve_calls", resolve_calls)
    first.index_codebase(tree, project="p", progress=False)  # the tree as the other process indexed it
    clean = learnmem.open(tmp_path / "clean.duckdb", embedder=HashingEmbedder())
    clean.index_codebase(tree, project="p", progress=False)
    edges = "SELECT file_path, caller_module, caller_qualified_name, callee_module, callee_qualified_name, line FROM calls"
    assert sorted(map(repr, first.sql(edges).fetchall())) == sorted(map(repr, clean.sql(edges).fetchall()))


KILLED_AFTER_COMMIT = textwrap.dedent(
    """
    import os, signal, sys
    from contextlib import contextmanager
    import learnmem
    from learnmem.storage import store
    from learnmem.embedding.embed import HashingEmbedder

    @contextmanager
    def write(self, committed=None):  # Store.write, killed once its COMMIT has returned, before the detach's checkpoint
        with self._writer() as con:
            con.begin()
            yield con
            con.commit()
            os.kill(os.getpid(), signal.SIGKILL)

    lm = learnmem.open(sys.argv[1], embedder=HashingEmbedder())
    store.Store.write = write
    # store_memories writes the file itself (a single store would be acknowledged in the journal first)
    lm.store_memories([{"content": "Stored by a writer killed while committing", "category": "fact"}])
    """
)


def test_backup_works_after_a_writer_was_killed_while_committing(db_path):
    lm = learnmem.open(db_path, embedder=HashingEmbedder())
    lm.store_memory("Stored before the crash", "fact")
    killed = subprocess.run([sys.executable, "-c", KILLED_AFTER_COMMIT, str(db_path)], check=False)
    assert killed.returncode == -9
    wal = Path(f"{db_path}.wal")
    # The kill came while the commit was being written: its last bytes never reached the WAL. (The harness
    # met this state by killing an indexer holding the writer lock; cutting the tail makes it certain.)
    with open(wal, "r+b") as handle:
        handle.truncate(wal.stat().st_size - 8)
    assert [m.content for m in lm.list_memories()] == ["Stored before the crash"]  # the torn commit is dropped
    for _ in range(3):  # "try again": it fails alike every time
        try:
            backup = lm.backup()
            break
        except LearnmemError:
            continue
    else:
        raise LearnmemError("backup refused three times")
    assert learnmem.open(backup, read_only=True).sql("SELECT count(*) FROM memories").fetchone() == (1,)
