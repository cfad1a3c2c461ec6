"""Acknowledged writes survive kill -9; concurrent writers both land; readers coexist with writers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import learnmem
from learnmem.embedding.embed import HashingEmbedder

STORE_THEN_HANG = textwrap.dedent(
    """
    import sys, time
    import learnmem
    from learnmem.embedding.embed import HashingEmbedder
    lm = learnmem.open(sys.argv[1], embedder=HashingEmbedder())
    for i in range(int(sys.argv[2])):
        result = lm.store_memory(f"acknowledged write number {i} from pid {sys.argv[3]}", "fact")
        print(result.id, flush=True)
    time.sleep(60)
    """
)


def _spawn(path, count: int, tag: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", STORE_THEN_HANG, str(path), str(count), tag],
        stdout=subprocess.PIPE,
        text=True,
    )


def test_a_store_that_returned_survives_kill_9(db_path):
    learnmem.open(db_path, embedder=HashingEmbedder())
    writer = _spawn(db_path, 3, "a")
    ids = [writer.stdout.readline().strip() for _ in range(3)]
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    reopened = learnmem.open(db_path, embedder=HashingEmbedder())
    assert [reopened.get_memory(i).id for i in ids] == ids


def test_kill_9_in_the_middle_of_a_write_stream_loses_nothing_acknowledged(db_path):
    learnmem.open(db_path, embedder=HashingEmbedder())
    writer = _spawn(db_path, 10_000, "b")
    acknowledged = [writer.stdout.readline().strip() for _ in range(25)]
    os.kill(writer.pid, signal.SIGKILL)  # killed while still writing
    writer.wait()
    reopened = learnmem.open(db_path, embedder=HashingEmbedder())
    stored = {row[0] for row in reopened.sql("SELECT id FROM memories").fetchall()}
    assert set(acknowledged) <= stored
    # The file is consistent: the keyword and vector columns of every row are whole.
    assert reopened.sql("SELECT count(*) FROM memories WHERE len(terms) = 0 OR embedding IS NULL").fetchone() == (0,)
    assert len(reopened.retrieve_memories("acknowledged write", limit=5)) == 5


def test_two_processes_storing_at_once_both_succeed(db_path):
    learnmem.open(db_path, embedder=HashingEmbedder())
    writers = [_spawn(db_path, 20, tag) for tag in ("left", "right")]
    ids = [[w.stdout.readline().strip() for _ in range(20)] for w in writers]
    for writer in writers:
        writer.kill()
        writer.wait()
    lm = learnmem.open(db_path, embedder=HashingEmbedder())
    assert lm.info().counts["memories"] == 40
    assert {m.id for m in lm.list_memories(limit=100)} == set(ids[0]) | set(ids[1])


SAME_TEXTS = textwrap.dedent(
    """
    import sys
    import learnmem
    from learnmem.embedding.embed import HashingEmbedder
    lm = learnmem.open(sys.argv[1], embedder=HashingEmbedder())
    for i in range(20):
        lm.store_memory(f"the same fact number {i}, stored by two agents at once", "fact")
    print("done", flush=True)
    """
)


def test_two_processes_storing_the_same_texts_store_each_once(db_path):
    learnmem.open(db_path, embedder=HashingEmbedder())
    writers = [
        subprocess.Popen([sys.executable, "-c", SAME_TEXTS, str(db_path)], stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    assert [w.communicate(timeout=120)[0].strip() for w in writers] == ["done", "done"]
    lm = learnmem.open(db_path, embedder=HashingEmbedder())
    assert lm.sql("SELECT count(*), count(DISTINCT content_hash), count(DISTINCT id) FROM memories").fetchone() == (20, 20, 20)
