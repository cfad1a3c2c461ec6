"""Cold-process retrieval: a fresh `python -c` process opens the store and answers one query.

This is what a Claude Code hook or a CLI call pays. The child reports the
time of three phases measured from its first statement:

* imports  — `import learnmem` (or the peer's client libraries),
* model    — loading the ONNX embedder (same `load_embedder()` for everyone),
* query    — opening the store, embedding the query and retrieving the top 10.

The parent measures the whole wall time from spawn to exit; what is neither
of those phases is interpreter start-up and shutdown.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

_LEARNMEM = """
import sys, time, json
t0 = time.perf_counter()
import learnmem
from learnmem.embedding.embed import load_embedder
t1 = time.perf_counter()
embedder = load_embedder()
t2 = time.perf_counter()
lm = learnmem.open(sys.argv[1], embedder=embedder)
hits = lm.retrieve_memories(sys.argv[2], limit=10)
t3 = time.perf_counter()
print(json.dumps({"imports": t1 - t0, "model": t2 - t1, "query": t3 - t2, "hits": len(hits)}))
"""

_PEER = """
import sys, time, json
t0 = time.perf_counter()
from bench.peers import open_peer
{imports}
from learnmem.embedding.embed import load_embedder
t1 = time.perf_counter()
embedder = load_embedder()
t2 = time.perf_counter()
peer = open_peer({kind!r}, sys.argv[1], embedder.dim, create=False)
rows = peer.search(embedder.embed([sys.argv[2]])[0], 10)
t3 = time.perf_counter()
print(json.dumps({{"imports": t1 - t0, "model": t2 - t1, "query": t3 - t2, "hits": len(rows)}}))
"""

_PEER_IMPORTS = {
    "qdrant": "import sqlite3, qdrant_client",
    "sqlite-vec": "import sqlite_vec; from bench.peers import sqlite_with_extensions; sqlite_with_extensions()",
}


def script(system: str) -> str:
    """The `python -c` program for `system` ("learnmem", "qdrant" or "sqlite-vec")."""
    if system == "learnmem":
        return _LEARNMEM
    return _PEER.format(kind=system, imports=_PEER_IMPORTS[system])


def run_cold(system: str, path: Path, query: str, timeout: float = 120.0) -> dict:
    """Run one cold retrieval in a fresh process; returns its phases plus `wall` (all in seconds)."""
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", script(system), str(path), query],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout,
    )
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"cold {system} run failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["wall"] = wall
    return result
