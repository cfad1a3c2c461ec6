"""A single store acknowledged in the file's journal and folded into the file later (learnmem.memory.pending,
learnmem.storage.journal): durable when acknowledged, seen by every read, written once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import duckdb
import pyarrow as pa
from hypothesis import given, settings, strategies as st

import learnmem
from learnmem.embedding.embed import HashingEmbedder
from learnmem.memory import pending
from learnmem.memory.index import MemorySnapshot
from learnmem.storage import memory_rows
from learnmem.storage.journal import Journal


def _plain_contents(path) -> list[str]:
    """What the DuckDB CLI sees."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        return [content for (content,) in con.execute("SELECT content FROM memories ORDER BY seq").fetchall()]
    finally:
        con.close()


def _wait_folded(lm, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while lm.store.pending.holds_rows():
        assert time.monotonic() < deadline, "the journal was not folded"
        time.sleep(0.05)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.text(max_size=40), min_size=1, max_size=4), min_size=1, max_size=5),
       st.integers(min_value=1, max_value=64))
def test_the_journal_gives_back_what_was_appended_and_drops_a_torn_tail(tmp_path_factory, batches, cut):
    journal = Journal(tmp_path_factory.mktemp("journal") / "learnmem.duckdb")
    for texts in batches:
        journal.append(pa.table({"content": texts}))
    size = journal.path.stat().st_size
    with open(journal.path, "ab") as handle:  # a record cut short by a kill: its fsync never returned
        handle.write(b"\xff" * cut)
    claimed = journal.claim()
    assert claimed.column("content").to_pylist() == [text for texts in batches for text in texts]
    assert not journal.path.exists() and journal.folding.stat().st_size == size + cut
    journal.release()
    assert not journal.holds_rows() and journal.claim() is None


def test_a_single_store_is_in_the_journal_when_acknowledged_and_in_the_file_once_stores_pause(hashed_lm):
    assert hashed_lm.retrieve_memories("warm") == []
    stored = hashed_lm.store_memory("The nightly export runs at 02:00 UTC", "fact")
    assert hashed_lm.store.pending.holds_rows()
    # This process sees it at once: retrieval through the snapshot, reads of the file after a fold.
    assert [hit.id for hit in hashed_lm.retrieve_memories("nightly export")] == [stored.id]
    _wait_folded(hashed_lm)  # the Folder, FOLD_DELAY_S after the last store
    assert _plain_contents(hashed_lm.path) == ["The nightly export runs at 02:00 UTC"]


def test_any_read_of_the_file_folds_the_journal_first(hashed_lm):
    hashed_lm._folder.delay_s = 60  # not the Folder: the reads
    stored = hashed_lm.store_memory("The staging cluster has 3 nodes", "fact")
    assert hashed_lm.store.pending.holds_rows()
    assert hashed_lm.sql("SELECT id FROM memories").fetchall() == [(stored.id,)]
    assert not hashed_lm.store.pending.holds_rows()


def test_a_read_only_handle_folds_what_was_acknowledged(hashed_lm):
    # A hook's view and `learnmem recall` open the file read-only: what they write is what was acknowledged already.
    hashed_lm._folder.delay_s = 60
    stored = hashed_lm.store_memory("The release branch is cut on Thursdays", "fact")
    reader = learnmem.open(hashed_lm.path, read_only=True, embedder=HashingEmbedder())
    assert reader.get_memory(stored.id).content == "The release branch is cut on Thursdays"
    assert not hashed_lm.store.pending.holds_rows()
    assert [hit.id for hit in hashed_lm.retrieve_memories("release branch")] == [stored.id]


def test_another_handle_sees_the_journal_and_refuses_its_duplicate(hashed_lm, open_again):
    hashed_lm._folder.delay_s = 60
    other = open_again(embedder=HashingEmbedder())
    assert other.retrieve_memories("warm") == []  # its snapshot, made before the store
    stored = hashed_lm.store_memory("Deploys need two approvals", "decision")
    assert [hit.id for hit in other.retrieve_memories("deploys approvals")] == [stored.id]
    again = other.store_memory("Deploys need two approvals", "decision")
    assert again.duplicate and again.id == stored.id
    assert hashed_lm.info().counts["memories"] == 1


def test_a_loop_of_single_stores_never_reloads_the_snapshot_and_folds_every_fold_rows(hashed_lm, monkeypatch):
    # What makes a store fast, counted rather than timed: after the first load, the snapshot is extended by each
    # store and kept across this process's folds (every FOLD_ROWS stores), never read back from the file.
    monkeypatch.setattr(memory_rows, "FOLD_ROWS", 8)
    monkeypatch.setattr(pending, "FOLD_ROWS", 8)
    hashed_lm._folder.delay_s = 60
    assert hashed_lm.retrieve_memories("warm") == []
    loads = []
    original = MemorySnapshot.from_table.__func__
    monkeypatch.setattr(MemorySnapshot, "from_table", classmethod(lambda cls, *a: loads.append(1) or original(cls, *a)))
    ids = [hashed_lm.store_memory(f"Service {i} listens on port {8000 + i}", "fact").id for i in range(20)]
    assert loads == []
    assert len(_plain_contents(hashed_lm.path)) == 16  # two folds of 8; 4 wait in the journal
    hits = hashed_lm.retrieve_memories("Service 19 listens on port 8019", limit=1)
    assert hits[0].id == ids[19] and loads == []
    assert [m.id for m in hashed_lm.list_memories(limit=100)][::-1] == ids  # the read folded the last 4, in order
    assert hashed_lm.sql("SELECT count(DISTINCT seq) FROM memories").fetchone() == (20,)


def test_a_text_appended_twice_lands_once(hashed_lm):
    # Two handles whose snapshots could not see each other's rows (the fold before a read found the file held by
    # another process) may append the same text: the fold writes it once.
    hashed_lm._folder.delay_s = 60
    first = hashed_lm.store_memory("The cache holds 512 entries", "fact")
    journal = hashed_lm.store.pending.path
    journal.write_bytes(journal.read_bytes() * 2)  # its record twice
    assert hashed_lm.sql("SELECT id FROM memories").fetchall() == [(first.id,)]


CHILD = textwrap.dedent(
    """
    import os, signal, sys
    import learnmem
    from learnmem.embedding.embed import HashingEmbedder
    from learnmem.storage import journal

    lm = learnmem.open(sys.argv[1], embedder=HashingEmbedder())
    lm._folder.delay_s = 600
    stored = lm.store_memory("Acknowledged, then the process was killed", "fact")
    if sys.argv[2] == "fold":  # killed once the fold has committed, before it forgets the journal
        journal.Journal.release = lambda self: os.kill(os.getpid(), signal.SIGKILL)
        lm.close()
    print(stored.id, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


def _killed_child(db_path, moment: str) -> str:
    child = subprocess.run([sys.executable, "-c", CHILD, str(db_path), moment], capture_output=True, text=True)
    assert child.returncode == -signal.SIGKILL
    return child.stdout.strip()


def test_a_single_store_acknowledged_before_a_kill_reaches_the_file_at_the_next_open(db_path):
    learnmem.open(db_path, embedder=HashingEmbedder()).close()
    stored_id = _killed_child(db_path, "ack")
    assert stored_id and Journal(db_path).holds_rows()
    assert _plain_contents(db_path) == []  # the DuckDB CLI sees it once a learnmem process has opened the file
    lm = learnmem.open(db_path, embedder=HashingEmbedder())
    assert lm.get_memory(stored_id).content == "Acknowledged, then the process was killed"
    assert not Journal(db_path).holds_rows() and len(_plain_contents(db_path)) == 1


def test_a_fold_killed_after_its_commit_is_not_written_twice(db_path):
    learnmem.open(db_path, embedder=HashingEmbedder()).close()
    _killed_child(db_path, "fold")
    assert Journal(db_path).folding.exists() and _plain_contents(db_path) == ["Acknowledged, then the process was killed"]
    lm = learnmem.open(db_path, embedder=HashingEmbedder())
    assert [m.content for m in lm.list_memories()] == ["Acknowledged, then the process was killed"]
    assert not Journal(db_path).holds_rows() and not os.path.exists(f"{db_path}.folding")
