"""The gate's workloads: each check times one small, deterministic piece of work in every benchmark area.

`Workspace.prepare()` builds what the checks start from once per run (files of 2,000 and 16,000 memories, a
source tree, a git history, a small file made with the real model); each check then copies what it changes,
so every round measures the same work. Every check returns {figure: seconds}. The hashing embedder stands in
for the model wherever the model is not what is measured (it is the same fixed cost on every commit); the
calibration measures the model itself.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import learnmem
from bench import corpus as corpus_mod
from bench.mcp.run import INITIALIZE, INITIALIZED
from learnmem.embedding.embed import HashingEmbedder
from learnmem.memory.memories import KEYED_BATCH

ROOT = Path(__file__).resolve().parents[2]
SMALL, LARGE, BATCH = 2_000, 16_000, 500  # the growth check stores BATCH into files of SMALL and LARGE memories
SINGLE_STORES, QUERIES = 20, 40
EXPERIENCES = ROOT / "tests" / "data" / "experiences.jsonl"
HISTORY_COMMITS = 300
TIMEOUT_S = 120


def seconds(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def median_of(work: Callable[[int], object], count: int) -> float:
    """The median seconds of `count` calls work(0), work(1), ..."""
    return float(np.median([seconds(lambda i=i: work(i)) for i in range(count)]))


# -- calibration -------------------------------------------------------------------------------------------


def calibration(embedder) -> dict[str, float]:
    """How fast this machine is right now: a fixed Python loop, a fixed numpy product, the model on a fixed
    batch. Figures are divided by their geometric mean (calibration_seconds)."""

    def python_loop() -> None:
        total = 0
        for i in range(1_500_000):
            total += i % 7
        {str(i): i for i in range(100_000)}

    rng = np.random.default_rng(0)
    left, right = rng.random((600, 384), np.float32), rng.random((384, 2000), np.float32)
    texts = [f"The deploy of service {i} waits for the nightly migration to finish." for i in range(32)]
    embedder.embed(texts)  # warm
    return {"calibration.python": seconds(python_loop),
            "calibration.numpy": seconds(lambda: [left @ right for _ in range(20)]),
            "calibration.embed": seconds(lambda: embedder.embed(texts))}


def calibration_seconds(figures: dict[str, float]) -> float:
    parts = [value for name, value in figures.items() if name.startswith("calibration.")]
    return float(np.exp(np.mean(np.log(parts))))


# -- what the checks start from ----------------------------------------------------------------------------


class Workspace:
    """The files and trees the checks copy from, made once per run under `folder`."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.records = corpus_mod.memories(LARGE + 2 * BATCH).records
        self.small = folder / "small.duckdb"
        self.large = folder / "large.duckdb"
        self.model_file = folder / "model.duckdb"
        self.source = folder / "source"
        self.history: Path | None = None

    def prepare(self, embedder) -> None:
        import hdbscan  # noqa: F401 - a process's first clustering imported it (1.8 s against 0.17 s after)

        self.folder.mkdir(parents=True, exist_ok=True)
        for path, count in ((self.small, SMALL), (self.large, LARGE)):
            lm = learnmem.open(path, embedder=HashingEmbedder())
            for start in range(0, count, 1000):
                lm.store_memories(self.records[start : min(start + 1000, count)])
            lm.close()
        lm = learnmem.open(self.model_file, embedder=embedder)  # for the processes, which load the real model
        lm.store_memories(self.records[:40])
        lm.close()
        from bench.git.synth import HistorySpec, build_history, load_seed

        for path, content in load_seed().files.items():  # this project's files at a pinned commit
            if path.startswith("learnmem/"):
                target = self.source / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(content)
        self.history, _ = build_history(HistorySpec(commits=HISTORY_COMMITS, extra=0))

    def fresh(self, name: str) -> Path:
        """work/`name`, with no file (nor WAL) there."""
        target = self.folder / "work" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        for leftover in (target, Path(f"{target}.wal")):
            leftover.unlink(missing_ok=True)
        return target

    def copy(self, source: Path, name: str) -> Path:
        target = self.fresh(name)
        shutil.copyfile(source, target)
        return target


# -- the checks --------------------------------------------------------------------------------------------


def stores(space: Workspace) -> dict[str, float]:
    """A bulk store into a new file; a batch into a file of SMALL and one of LARGE memories; single stores."""
    lm = learnmem.open(space.fresh("bulk.duckdb"), embedder=HashingEmbedder())
    figures = {"store.bulk_2000": seconds(lambda: [lm.store_memories(space.records[s : s + 1000])
                                                     for s in range(0, SMALL, 1000)])}
    lm.close()
    batch = space.records[LARGE : LARGE + BATCH]
    warm = space.records[LARGE + BATCH + SINGLE_STORES : LARGE + BATCH + SINGLE_STORES + KEYED_BATCH]
    for name, source in (("store.batch_into_2000", space.small), ("store.batch_into_16000", space.large)):
        lm = learnmem.open(space.copy(source, "batch.duckdb"), embedder=HashingEmbedder())
        lm.store_memories(warm)  # the snapshot and its key tokens, made once per process, as in a long import
        figures[name] = seconds(lambda: lm.store_memories(batch))
        lm.close()
    lm = learnmem.open(space.copy(space.small, "single.duckdb"), embedder=HashingEmbedder())
    lm.retrieve_memories("warm the snapshot", limit=1)
    singles = space.records[LARGE + BATCH : LARGE + BATCH + SINGLE_STORES]
    figures["store.single"] = median_of(lambda i: lm.store_memory(**singles[i]), SINGLE_STORES)
    lm.close()
    return figures


def retrieval(space: Workspace) -> dict[str, float]:
    """Warm retrieval over LARGE memories: hybrid ranking, filters, result rows (the query embedding hashed)."""
    lm = learnmem.open(space.large, embedder=HashingEmbedder(), read_only=True)
    queries = [q.text for q in corpus_mod.queries(QUERIES)]
    lm.retrieve_memories(queries[0], limit=10)
    figures = {"retrieve.warm": median_of(lambda i: lm.retrieve_memories(queries[i], limit=10), QUERIES)}
    lm.close()

    def open_and_query() -> None:
        cold = learnmem.open(space.large, embedder=HashingEmbedder(), read_only=True)
        cold.retrieve_memories(queries[1], limit=10)
        cold.close()

    figures["retrieve.open_first"] = seconds(open_and_query)
    return figures


def code(space: Workspace) -> dict[str, float]:
    """A cold index of learnmem's own package at a pinned commit; searches and caller lookups on it."""
    lm = learnmem.open(space.copy(space.small, "code.duckdb"), embedder=HashingEmbedder())
    figures = {"code.index": seconds(lambda: lm.index_codebase(space.source, project="gate", progress=False))}
    queries = ["open the store file", "parse a source file", "rank memories by similarity", "load the model"]
    figures["code.search"] = median_of(lambda i: lm.search_code(queries[i % 4], project="gate"), 12)
    names = ["open", "store_memories", "index_codebase", "retrieve_memories"]
    figures["code.callers"] = median_of(lambda i: lm.find_callers(names[i % 4], project="gate"), 12)
    lm.close()
    return figures


def git(space: Workspace) -> dict[str, float]:
    """Indexing a synthetic history of HISTORY_COMMITS commits, then a file's history."""
    lm = learnmem.open(space.copy(space.small, "git.duckdb"), embedder=HashingEmbedder())
    figures = {"git.index": seconds(lambda: lm.index_commits(space.history, project="gate", progress=False))}
    figures["git.search"] = median_of(lambda i: lm.search_commits(["fix the parser", "add tests"][i % 2],
                                                                  project="gate"), 10)
    lm.close()
    return figures


def learning(space: Workspace) -> dict[str, float]:
    """GHAP cycles (start, update, resolve), an import of 332 experiences, clustering them on one axis."""
    lm = learnmem.open(space.copy(space.small, "ghap.duckdb"), embedder=HashingEmbedder())

    def cycle(i: int) -> None:
        lm.start_ghap("debugging", "systematic-elimination", f"find why job {i} fails", "the cache is stale",
                      "clear the cache and rerun", "the job passes")
        lm.update_ghap(note=f"cleared cache {i}")
        lm.resolve_ghap("confirmed", f"job {i} passed after the cache was cleared")

    figures = {"ghap.cycle": median_of(cycle, 8), "ghap.import": seconds(lambda: lm.import_ghap(EXPERIENCES))}
    figures["learning.clusters"] = seconds(lambda: lm.get_clusters("full"))
    lm.close()
    return figures


def processes(space: Workspace) -> dict[str, float]:
    """A SessionStart hook as Claude Code runs it, and the MCP server's start up to its tool list."""
    bin_folder = Path(sys.executable).parent
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEARNMEM_")}
    db = space.copy(space.model_file, "process.duckdb")
    payload = json.dumps({"session_id": "gate", "transcript_path": "/dev/null", "cwd": str(space.folder),
                          "hook_event_name": "SessionStart", "source": "startup"})

    def hook(_: int) -> None:
        done = subprocess.run([str(bin_folder / "learnmem"), "hook", "session-start", "--db", str(db)],
                              input=payload, capture_output=True, text=True, env=env, cwd=space.folder,
                              timeout=TIMEOUT_S, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"the session-start hook failed ({done.returncode}): {done.stderr[-2000:]}")

    def mcp_start(_: int) -> None:
        messages = [INITIALIZE, INITIALIZED, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
        stdin = "".join(json.dumps(m) + "\n" for m in messages)
        # The server answers both requests, then exits when its stdin closes.
        done = subprocess.run([str(bin_folder / "learnmem-mcp"), "--db", str(db)], input=stdin, capture_output=True,
                              text=True, env=env, cwd=space.folder, timeout=TIMEOUT_S, check=False)
        answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
        if not any(a.get("id") == 2 and "result" in a for a in answers):
            raise RuntimeError(f"the MCP server listed no tools ({done.returncode}): {done.stderr[-2000:]}")

    return {"hooks.session_start": median_of(hook, 3), "mcp.start": median_of(mcp_start, 3)}


CHECKS = (stores, retrieval, code, git, learning, processes)
