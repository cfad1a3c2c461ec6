"""Index bookkeeping speed: get_indexing_stats and remove_file on a real index (this repository's code).

    python -m bench.code_stats [--root DIR]

Indexes DIR (default: this repository's learnmem/ and mcp_adapter/ folders, copied to a temporary folder)
with the real model into a fresh file, then times get_indexing_stats (20 calls, warm process) and
remove_file of 10 files (each removed while still on disk, then indexed back: the call graph is resolved
again inside remove_file's transaction, which is most of its time). Prints markdown.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import learnmem

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.code_stats", description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, help="the folder to index (default: a copy of learnmem/ + mcp_adapter/)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        root = args.root
        if root is None:
            root = Path(folder) / "project"
            for part in ("learnmem", "mcp_adapter"):
                shutil.copytree(REPO / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
        lm = learnmem.open(Path(folder) / "bench.duckdb")
        started = time.perf_counter()
        indexed = lm.index_codebase(str(root), project="bench", progress=False)
        index_s = time.perf_counter() - started
        stats_ms = []
        for _ in range(20):
            started = time.perf_counter()
            stats = lm.get_indexing_stats("bench")
            stats_ms.append((time.perf_counter() - started) * 1000)
        files = sorted(path for path in root.rglob("*.py"))[:: max(1, stats.files // 10)][:10]
        remove_ms = []
        for path in files:
            started = time.perf_counter()
            lm.remove_file(str(path), project="bench")
            remove_ms.append((time.perf_counter() - started) * 1000)
            lm.index_codebase(str(root), project="bench", progress=False)
        print(f"# Index bookkeeping\n\n`python -m bench.code_stats` on {platform.machine()}, "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {stats.files} files, {stats.units} units, "
              f"{stats.calls} calls ({stats.calls_resolved} resolved); first index {index_s:.1f} s "
              f"({indexed.files_indexed} files).\n")
        print("| call | p50 | max |\n|---|---|---|")
        print(f"| get_indexing_stats (20 calls) | {statistics.median(stats_ms):.1f} ms | {max(stats_ms):.1f} ms |")
        print(f"| remove_file (10 files; graph resolved again) | {statistics.median(remove_ms):.0f} ms | "
              f"{max(remove_ms):.0f} ms |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
