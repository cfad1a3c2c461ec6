"""One memory at a time, as an agent stores them (issue 22, item 4): `store_memory` latency at 1k, 10k and 100k.

    python -m bench.single_store [--sizes 1000 10000 100000] [--stores 200]

For each size, a file is filled with that many memories of the bench corpus (bench/corpus.py) through
`store_memories`, with the corpus's vectors (bench.vectors.PrecomputedEmbedder: the real model's name, so
the file opens with the real model afterwards); it is built once and kept under bench/out/single_store/. A
copy is opened with the real model and `--stores` new memories are stored one call each: turns of the
held-out chats (bench/quality/heldout/), "[<date>] <speaker>: <text>", category fact, so each is embedded,
checked for restatement and similarity, written, and survives kill -9 when the call returns, as in use.
Reported: p50, p95 and max of the calls that stored (one refused as a restatement writes nothing and is
counted apart), and the rate one after another. The process is warm (model loaded, snapshot built by one
first store), as an MCP server is.

A store is acknowledged once it is in the file's journal (learnmem.memory.pending); the journal is folded into
the file when stores pause, or by the store that finds memories.FOLD_ROWS waiting, which back to back is one
store in 64 (the max column). `--pause S` stores one memory every S seconds instead, as an agent does between
its turns, and also reports how long after its acknowledgement each memory was in the file itself (what the
DuckDB CLI sees): the background fold's delay and duration.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import time
from pathlib import Path

import learnmem
from bench import corpus as corpus_mod
from bench.vectors import PrecomputedEmbedder, cached_embed, derive
from learnmem.embedding.embed import load_embedder

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out" / "single_store"
HELDOUT = ROOT / "bench" / "quality" / "heldout"


def chat_turns(count: int) -> list[str]:
    """`count` turns of the held-out chats, as the memories issue 22's benchmark stores."""
    texts = []
    for turns in sorted(HELDOUT.glob("*/turns.jsonl")):
        for line in turns.read_text(encoding="utf-8").splitlines():
            turn = json.loads(line)
            texts.append(f"[{turn['date']}] {turn['speaker']}: {turn['text']}")
    return texts[:count]


def filled(n: int, real) -> Path:
    """A file holding the first `n` corpus memories (made once)."""
    path = OUT / f"n{n}.duckdb"
    if path.exists():
        return path
    corpus = corpus_mod.memories(max(n, corpus_mod.N_BASE))
    base, _ = cached_embed(real, corpus.texts[: corpus_mod.N_BASE], "base", batch_size=32)
    vectors = derive(base, corpus.parents, corpus_mod.N_BASE)
    building = path.with_suffix(".building")
    for leftover in (building, Path(f"{building}.wal")):
        leftover.unlink(missing_ok=True)
    building.parent.mkdir(parents=True, exist_ok=True)
    lm = learnmem.open(building, embedder=PrecomputedEmbedder(real, corpus.texts[:n], vectors[:n]))
    for start in range(0, n, 1000):
        lm.store_memories(corpus.records[start : min(n, start + 1000)])
    lm.close()
    building.rename(path)
    Path(f"{building}.lock").unlink(missing_ok=True)
    return path


def measure(n: int, stores: int, real, work: Path, pause_s: float = 0.0) -> dict:
    copy = work / f"n{n}.duckdb"
    shutil.copyfile(filled(n, real), copy)
    lm = learnmem.open(copy, embedder=real)
    texts = chat_turns(stores + 1)
    lm.store_memory(texts[0], "fact")  # warm: model session, snapshot
    lm.store.settle()  # the warm-up store folded: the measured ones start from an empty journal
    stored, refused, in_file = [], 0, []
    started = time.perf_counter()
    for text in texts[1:]:
        t0 = time.perf_counter()
        result = lm.store_memory(text, "fact")
        elapsed = (time.perf_counter() - t0) * 1000
        if result.duplicate:
            refused += 1
        else:
            stored.append(elapsed)
        if pause_s:
            while lm.store.pending.holds_rows() and time.perf_counter() - t0 < pause_s:
                time.sleep(0.002)
            in_file.append((time.perf_counter() - t0) * 1000)
            time.sleep(max(0.0, pause_s - (time.perf_counter() - t0)))
    total = time.perf_counter() - started
    lm.close()
    stored.sort()
    return {"n": n, "stored": len(stored), "refused": refused, "p50_ms": statistics.median(stored),
            "p95_ms": stored[max(0, round(0.95 * len(stored)) - 1)], "max_ms": stored[-1],
            "per_s": (len(stored) + refused) / total,
            "in_file_ms": (statistics.median(in_file), max(in_file)) if in_file else None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.single_store", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--stores", type=int, default=200)
    parser.add_argument("--pause", type=float, default=0.0, help="seconds from one store to the next (0: back to back)")
    args = parser.parse_args(argv)
    real = load_embedder()
    work = OUT / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    paced = f" --pause {args.pause:g}" if args.pause else ""
    print(f"Command: python -m bench.single_store --sizes {' '.join(map(str, args.sizes))} --stores {args.stores}"
          f"{paced}; {platform.machine()}, Python {platform.python_version()}\n")
    extra = " in the file after, p50 / max ms |" if args.pause else ""
    print(f"| memories in the file | stored | refused (restatements) | p50 ms | p95 ms | max ms | stores/s |{extra}")
    print("|---|---|---|---|---|---|---|" + ("---|" if args.pause else ""))
    for n in args.sizes:
        r = measure(n, args.stores, real, work, args.pause)
        after = f" {r['in_file_ms'][0]:.0f} / {r['in_file_ms'][1]:.0f} |" if r["in_file_ms"] else ""
        print(f"| {n:,} | {r['stored']} | {r['refused']} | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} | {r['max_ms']:.1f} "
              f"| {r['per_s']:.1f} |{after}", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
