"""The file: creation, migrations, the pinned schema, meta, extensions, locking."""

from __future__ import annotations

import subprocess
import sys
import time

import duckdb
import pytest

import learnmem
from learnmem.storage import extensions, sql, store
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import LearnmemError, ModelMismatchError, NotFoundError, StoreBusyError

# The public contract for SQL users: tables and their columns (README "SQL"). Change it only on purpose.
EXPECTED_SCHEMA = {
    "meta": ["key", "value"],
    "memories": ["id", "seq", "content", "content_hash", "category", "importance", "tags", "terms", "created_at", "embedding", "passages",
                 "commit_sha", "sources", "spec", "phase", "session", "speaker", "said_at"],
    # The view `memories` shows these two (migration 014): the bulk, and the newest stores.
    **dict.fromkeys(("memories_stored", "memories_recent"),
                    ["id", "seq", "content", "content_hash", "category", "importance", "tags", "terms", "created_at",
                     "embedding", "passages", "commit_sha", "sources", "spec", "phase", "session", "speaker",
                     "said_at"]),
    "schema_migrations": ["version", "name", "applied_at"],
    "memory_list": ["id", "content", "category", "importance", "tags", "created_at", "superseded_by", "spec", "phase",
                    "session", "speaker", "said_at"],
    "memory_states": ["memory_id", "superseded_by", "forgotten_at", "changed_at"],
    "memory_accesses": ["memory_id", "accesses", "last_accessed_at"],
    "memory_usage": ["memory_id", "accesses", "last_accessed_at"],
    "memory_categories": ["category", "memories", "avg_importance", "last_stored"],
    "code_files": ["project", "path", "language", "module", "content_hash", "size_bytes", "syntax_errors", "indexed_at",
                   "flow"],
    "code_units": ["id", "seq", "project", "file_path", "module", "name", "qualified_name", "unit_type", "signature",
                   "docstring", "content", "start_line", "end_line", "language", "complexity", "content_hash", "bases",
                   "terms", "embedding"],
    "code_imports": ["project", "file_path", "local", "module", "name", "line"],
    "call_sites": ["project", "file_path", "caller", "callee", "name", "line", "receiver_type"],
    "calls": ["project", "file_path", "caller_module", "caller_qualified_name", "callee_module",
              "callee_qualified_name", "callee_name", "line"],
    "call_edges": ["project", "caller_module", "caller_qualified_name", "callee_module", "callee_qualified_name",
                   "callee_name", "file_path", "line"],
    "git_repos": ["project", "root", "refs", "tips", "shallow", "indexed_at"],
    "commits": ["project", "sha", "position", "parents", "subject", "message", "author", "author_email", "committer",
                "committer_email", "authored_at", "committed_at", "insertions", "deletions", "files_changed",
                "is_merge", "terms", "embedding"],
    "commit_files": ["project", "sha", "path", "old_path", "change_type", "insertions", "deletions", "is_binary",
                     "from_merged"],
    "sessions": ["id", "started_at", "ended_at", "tool_count"],
    "ghap_active": ["id", "session_id", "created_at", "updated_at", "revised_at", "domain", "strategy", "goal",
                    "hypothesis", "action", "prediction", "history", "iteration_count", "notes"],
    "ghap_resolved": ["id", "session_id", "created_at", "updated_at", "revised_at", "domain", "strategy", "goal",
                      "hypothesis", "action", "prediction", "history", "iteration_count", "notes", "outcome_status",
                      "outcome_result", "captured_at", "auto_captured", "surprise", "root_cause_category",
                      "root_cause_description", "lesson_what_worked", "lesson_takeaway", "confidence_tier"],
    "ghap_entries": ["id", "session_id", "created_at", "updated_at", "revised_at", "active", "domain", "strategy",
                     "goal", "hypothesis", "action", "prediction", "history", "iteration_count", "notes",
                     "outcome_status", "outcome_result", "captured_at", "auto_captured", "surprise",
                     "root_cause_category", "root_cause_description", "lesson_what_worked", "lesson_takeaway",
                     "confidence_tier"],
    "ghap_observations": ["ghap_id", "session_id", "observed_at", "tool", "command", "kind", "outcome",
                          "exit_code", "summary"],
    "capture_queue": ["id", "session_id", "captured_at", "tool", "category", "content", "key"],
    "experience_axes": ["ghap_id", "axis", "text", "terms", "embedding", "created_at"],
    "experience_axes_embedded": ["ghap_id", "axis", "text", "terms", "embedding", "created_at"],
    "experience_axes_recent": ["ghap_id", "axis", "text", "terms", "embedding", "created_at"],
    "cluster_runs": ["id", "axis", "created_at", "parameters", "experience_count", "cluster_count", "noise_count"],
    "clusters": ["run_id", "axis", "cluster_id", "label", "size", "avg_weight", "centroid", "mean_distance",
                 "sd_distance", "threshold_distance"],
    "cluster_members": ["run_id", "axis", "cluster_id", "ghap_id", "weight", "distance"],
    "learned_values": ["id", "text", "axis", "cluster_id", "cluster_size", "similarity_to_centroid",
                       "centroid_distance", "threshold_distance", "terms", "embedding", "created_at", "dissolved_at"],
    "latest_cluster_runs": ["axis", "run_id", "created_at"],
    "current_clusters": ["axis", "cluster_id", "label", "size", "avg_weight", "mean_distance", "sd_distance",
                         "threshold_distance", "run_id", "clustered_at"],
    "current_cluster_members": ["axis", "cluster_id", "ghap_id", "weight", "distance", "domain", "strategy", "goal",
                                "outcome_status", "surprise", "root_cause_category", "root_cause_description",
                                "lesson_what_worked", "confidence_tier", "created_at"],
    "experiences": ["id", "session_id", "domain", "strategy", "goal", "hypothesis", "action", "prediction",
                    "iteration_count", "outcome_status", "outcome_result", "surprise", "root_cause_category",
                    "root_cause_description", "lesson_what_worked", "lesson_takeaway", "confidence_tier",
                    "created_at", "resolved_at", "pending_axes"],
    "churn": ["project", "path", "commits", "insertions", "deletions", "authors", "first_change", "last_change"],
}


def columns(path) -> dict[str, list[str]]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        rows = con.execute(
            "SELECT table_name, column_name FROM information_schema.columns ORDER BY table_name, ordinal_position"
        ).fetchall()
    finally:
        con.close()
    found: dict[str, list[str]] = {}
    for table, column in rows:
        found.setdefault(table, []).append(column)
    return found


def test_schema_is_pinned(hashed_lm):
    assert columns(hashed_lm.path) == EXPECTED_SCHEMA


def test_migrations_are_recorded_once_and_meta_is_written(hashed_lm):
    ledger = hashed_lm.sql("SELECT version, name FROM schema_migrations ORDER BY version").fetchall()
    assert ledger == [(v, n) for v, n, _ in sql.migrations()]
    learnmem.open(hashed_lm.path, embedder=HashingEmbedder())  # reopening applies nothing twice
    assert hashed_lm.sql("SELECT count(*) FROM schema_migrations").fetchone()[0] == len(ledger)
    info = hashed_lm.info()
    assert (info.embedding_model, info.embedding_dim) == ("hashing-384", 384)
    assert info.schema_version == len(ledger)
    assert info.library_version == learnmem.__version__


def test_failed_migration_rolls_back_and_is_not_recorded(db_path, monkeypatch):
    good = sql.migrations()
    learnmem.open(db_path, embedder=HashingEmbedder()).close()  # an existing file: each migration on its own
    broken = (len(good) + 1, "broken", "CREATE TABLE half_made (x INTEGER); SELECT * FROM no_such_table;")
    monkeypatch.setattr(sql, "migrations", lambda: [*good, broken])
    with pytest.raises(LearnmemError, match="broken failed and was rolled back"):
        learnmem.open(db_path, embedder=HashingEmbedder())
    monkeypatch.setattr(sql, "migrations", lambda: good)
    lm = learnmem.open(db_path, embedder=HashingEmbedder())
    assert "half_made" not in columns(lm.path)
    assert lm.sql("SELECT max(version) FROM schema_migrations").fetchone()[0] == len(good)


def test_a_new_file_whose_migration_fails_is_left_empty(db_path, monkeypatch):
    """A new file is made in one transaction: a failing migration leaves no table, not even the first ones."""
    good = sql.migrations()
    broken = (len(good) + 1, "broken", "CREATE TABLE half_made (x INTEGER); SELECT * FROM no_such_table;")
    monkeypatch.setattr(sql, "migrations", lambda: [*good, broken])
    with pytest.raises(LearnmemError, match="broken failed and was rolled back"):
        learnmem.open(db_path, embedder=HashingEmbedder())
    assert columns(db_path) == {}
    monkeypatch.setattr(sql, "migrations", lambda: good)
    lm = learnmem.open(db_path, embedder=HashingEmbedder())
    assert lm.sql("SELECT count(*) FROM schema_migrations").fetchone()[0] == len(good)


def test_opening_with_another_model_names_reembed(db_path, embedder):
    hashed = learnmem.open(db_path, embedder=HashingEmbedder())
    hashed.store_memory("vectors of the hashing model", "fact")
    other = learnmem.open(db_path, embedder=embedder)
    assert other.info().counts["memories"] == 1  # reading is fine
    with pytest.raises(ModelMismatchError, match="learnmem reembed"):
        other.retrieve_memories("anything")


def test_read_only_open_of_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(NotFoundError, match="no learnmem file"):
        learnmem.open(tmp_path / "absent.duckdb", read_only=True)


def test_read_only_handle_refuses_writes(hashed_lm):
    reader = learnmem.open(hashed_lm.path, read_only=True, embedder=HashingEmbedder())
    with pytest.raises(LearnmemError, match="opened read-only"):
        reader.store_memory("nope", "fact")
    assert reader.info().counts["memories"] == 0


def test_default_path_is_the_git_root_unless_overridden(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    (tmp_path / "src" / "deep").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "src" / "deep")
    monkeypatch.delenv("LEARNMEM_DB", raising=False)
    assert store.default_path() == tmp_path.resolve() / ".learnmem" / "learnmem.duckdb"
    monkeypatch.setenv("LEARNMEM_DB", str(tmp_path / "elsewhere.duckdb"))
    assert store.default_path() == tmp_path / "elsewhere.duckdb"


def test_init_project_creates_the_file_and_ignores_it(tmp_path, monkeypatch):
    monkeypatch.delenv("LEARNMEM_DB", raising=False)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("build/")
    path = learnmem.init_project(tmp_path)
    assert path == tmp_path.resolve() / ".learnmem" / "learnmem.duckdb" and path.is_file()
    learnmem.init_project(tmp_path)  # idempotent
    assert (tmp_path / ".gitignore").read_text() == "build/\n.learnmem/\n"


@pytest.mark.parametrize("name", ["vss", "fts"])
def test_extensions_load_from_their_wheels(tmp_path, name):
    con = duckdb.connect(str(tmp_path / "x.duckdb"), config={"autoinstall_known_extensions": False})
    extensions.load_extension(con, name)
    loaded = con.execute("SELECT loaded FROM duckdb_extensions() WHERE extension_name = ?", [name]).fetchone()
    con.close()
    assert loaded == (True,)


HOLD = """
import duckdb, sys, time
con = duckdb.connect(sys.argv[1], read_only=sys.argv[3] == "read-only")
print("holding", flush=True)
time.sleep(float(sys.argv[2]))
con.close()
"""


def _hold(path, seconds: float, mode: str = "read-only") -> subprocess.Popen:
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(path), str(seconds), mode], stdout=subprocess.PIPE,
                              text=True)
    assert holder.stdout.readline().strip() == "holding"
    return holder


def test_writer_waits_for_a_foreign_reader_then_succeeds(hashed_lm):
    holder = _hold(hashed_lm.path, 0.8)
    result = hashed_lm.store_memory("written after the notebook let go", "fact")
    holder.wait(timeout=10)
    assert hashed_lm.get_memory(result.id).content == "written after the notebook let go"


def test_snapshot_waits_for_a_foreign_writer_then_copies_the_file(hashed_lm):
    hashed_lm.store_memory("copied into memory", "fact")
    holder = _hold(hashed_lm.path, 0.8, mode="read-write")
    copy = hashed_lm.snapshot()
    holder.wait(timeout=10)
    assert copy.execute("SELECT content FROM memory_list").fetchall() == [("copied into memory",)]


def test_a_writer_outwaited_for_the_writer_lock_says_how_long_it_waited(tmp_path, monkeypatch):
    from filelock import FileLock

    path = tmp_path / "busy.duckdb"
    learnmem.open(path, embedder=HashingEmbedder()).close()
    monkeypatch.setattr(store, "LOCK_DEADLINE_S", 1.0)
    lm = learnmem.open(path, embedder=HashingEmbedder())  # its lock is made with the deadline above
    other_writer = FileLock(f"{path}.lock")
    other_writer.acquire()
    try:
        with pytest.raises(StoreBusyError, match=r"waited 1 s for .*busy\.duckdb\.lock: other learnmem writers kept it"):
            lm.store_memory("cannot land", "fact")
    finally:
        other_writer.release()
    assert lm.store_memory("lands now", "fact").id and lm.info().counts["memories"] == 1


def test_writer_gives_up_with_a_clear_error_when_the_file_stays_locked(hashed_lm, monkeypatch):
    monkeypatch.setattr(store, "LOCK_DEADLINE_S", 0.3)
    holder = _hold(hashed_lm.path, 3)
    try:
        started = time.monotonic()
        with pytest.raises(StoreBusyError, match="stayed locked by another process"):
            hashed_lm.store_memories([{"content": "cannot land", "category": "fact"}])
        assert time.monotonic() - started < 2.5
    finally:
        holder.kill()
        holder.wait()
    assert hashed_lm.info().counts["memories"] == 0


def test_a_single_store_is_acknowledged_while_another_process_holds_the_file_and_lands_after(hashed_lm, monkeypatch):
    # learnmem.memory.pending: the store waits in the journal; reads meanwhile do not wait for the file (the fold
    # before them gives up after SETTLE_PATIENCE_S), and the first read once the file is free folds it.
    monkeypatch.setattr(store, "LOCK_DEADLINE_S", 0.3)
    assert hashed_lm.retrieve_memories("anything") == []  # the handle's snapshot, read before the file is taken
    holder = _hold(hashed_lm.path, 30, mode="read-write")
    try:
        stored = hashed_lm.store_memory("acknowledged while the DuckDB CLI held the file", "fact")
        assert not stored.duplicate and hashed_lm.store.pending.holds_rows()
        assert [hit.id for hit in hashed_lm.retrieve_memories("the DuckDB CLI held the file")] == [stored.id]
    finally:
        holder.kill()
        holder.wait()
    assert hashed_lm.get_memory(stored.id).content == "acknowledged while the DuckDB CLI held the file"
    assert not hashed_lm.store.pending.holds_rows()


def test_opening_an_up_to_date_file_does_not_wait_for_a_foreign_reader(hashed_lm):
    holder = _hold(hashed_lm.path, 3)
    try:
        started = time.monotonic()
        reopened = learnmem.open(hashed_lm.path, embedder=HashingEmbedder())
        assert reopened.list_memories() == []  # reading works alongside the other reader
        assert time.monotonic() - started < 2
    finally:
        holder.kill()
        holder.wait()


def test_reembed_moves_a_file_to_another_model(db_path, embedder):
    hashed = learnmem.open(db_path, embedder=HashingEmbedder())
    hashed.store_memory("The staging database is reset every night.", "fact")
    hashed.store_memory("Use ruff, not black.", "preference")
    assert hashed.retrieve_memories("formatter")  # snapshot loaded with the old vectors
    other = learnmem.open(db_path, embedder=embedder)
    with pytest.raises(ModelMismatchError):
        other.retrieve_memories("which formatter do we use?")
    assert other.reembed() == 2
    assert other.info().embedding_model == embedder.name
    assert other.retrieve_memories("which formatter do we use?", limit=1)[0].content == "Use ruff, not black."
    with pytest.raises(ModelMismatchError):  # the old model is now the stranger
        learnmem.open(db_path, embedder=HashingEmbedder()).retrieve_memories("formatter")


def test_read_only_handle_checks_the_schema_on_its_first_read(hashed_lm):
    """A read-only open costs no connection of its own; its first read refuses a file an older learnmem wrote."""
    con = duckdb.connect(str(hashed_lm.path))
    con.execute("UPDATE meta SET value = '0.0.1' WHERE key = 'library_version'")
    con.close()
    reader = learnmem.open(hashed_lm.path, read_only=True, embedder=HashingEmbedder())
    with pytest.raises(LearnmemError, match="older learnmem"):
        reader.list_memories()
    learnmem.open(hashed_lm.path, embedder=HashingEmbedder())  # read-write: upgrades it
    assert learnmem.open(hashed_lm.path, read_only=True, embedder=HashingEmbedder()).list_memories() == []


def test_reads_held_share_one_connection_and_let_writes_through(hashed_lm):
    """What a served hook reads through (learnmem.agents.hook_views.ServedView): one connection for the reads, the
    file let go for a write inside, and every read after it sees the write."""
    file = hashed_lm.store
    with file.reads_held():
        with file.read() as first, file.read() as second:
            assert first is second
        hashed_lm.store_memory("Held reads see what was written in between", "fact")
        with file.read() as con:
            assert con.execute("SELECT count(*) FROM memories").fetchone() == (1,)
        with file.reads_held(), file.read() as nested:  # nested: the outer one holds
            assert nested is con
    # Released: another process may write now.
    script = ("import learnmem, sys\nfrom learnmem.embedding.embed import HashingEmbedder\n"
              "learnmem.open(sys.argv[1], embedder=HashingEmbedder()).store_memory('From another process', 'fact')")
    subprocess.run([sys.executable, "-c", script, str(file.path)], check=True, timeout=120)
    assert hashed_lm.sql("SELECT count(*) FROM memories").fetchone() == (2,)
