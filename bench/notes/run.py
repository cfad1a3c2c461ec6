"""Sharing through git notes at team scale: export N memories as notes, rebuild a fresh file from them.

    python -m bench.notes [--memories 1000] [--repeat 3] [--out bench/notes/RESULTS.md]

A repository is made with dulwich in a temporary folder: 50 commits, and after each one N/50 memories of
bench.corpus are stored (each records that HEAD), every fourth with a source document, and one in
twenty superseded by a corrected text. Then, timed: `export_notes` (notes written, one commit per
category ref), and `import_notes` into a new, empty file in the same repository, which parses every note,
checks it, embeds every memory with the real model (loaded inside the timed part: a fresh process pays
the same) and writes them in one transaction. The rebuilt file must hold the same memories, states,
commits and sources as the original (checked, not timed). The target (issue 8): rebuild 1,000 memories
<= 10 s including embedding. Nothing asserts on time.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from dulwich import porcelain

import learnmem
from bench import corpus
from bench.measure import git_commit

COMMITS = 50


def _build(folder: Path, count: int) -> tuple[Path, learnmem.Learnmem]:
    repo_path = folder / "project"
    porcelain.init(str(repo_path))
    lm = learnmem.open(repo_path / ".learnmem" / "learnmem.duckdb")
    records = corpus.memories(count).records
    per_commit = max(1, count // COMMITS)
    for start in range(0, count, per_commit):
        (repo_path / "CHANGES.md").write_text(f"change {start}\n")
        porcelain.add(str(repo_path), [str(repo_path / "CHANGES.md")])
        porcelain.commit(str(repo_path), message=f"change {start}".encode(), author=b"bench <b@example.com>",
                         committer=b"bench <b@example.com>")
        chunk = [dict(record) | ({"sources": [f"docs/{record['tags'][1]}.md"]} if (start + i) % 4 == 0 else {})
                 for i, record in enumerate(records[start:start + per_commit])]
        results = lm.store_memories(chunk)
        for i, result in enumerate(results):
            if (start + i) % 20 == 0:
                lm.supersede_memory(result.id, chunk[i]["content"] + " (corrected)")
    return repo_path, lm


def _all(lm: learnmem.Learnmem) -> list[tuple]:
    rows, offset = [], 0
    while True:
        page = lm.list_memories(limit=100, offset=offset, include_superseded=True)
        rows += [(m.id, m.content, m.category, m.importance, m.tags, m.superseded_by, m.commit_sha, m.sources)
                 for m in page]
        if len(page) < 100:
            return sorted(rows)
        offset += 100


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.notes", description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="learnmem-notes-bench-") as temp:
        folder = Path(temp)
        print(f"building {args.memories} memories over {COMMITS} commits...", file=sys.stderr)
        repo_path, lm = _build(folder, args.memories)
        expected = _all(lm)
        started = time.perf_counter()
        exported = lm.export_notes()
        export_s = time.perf_counter() - started
        rebuilds = []
        for n in range(args.repeat):
            fresh = learnmem.open(folder / f"rebuilt-{n}.duckdb")  # its model loads inside the timed part
            started = time.perf_counter()
            result = fresh.import_notes(repo_path, progress=False)
            rebuilds.append(time.perf_counter() - started)
            if _all(fresh) != expected:
                raise SystemExit(f"rebuild {n}: the rebuilt file differs from the original")
            print(f"rebuild {n}: {rebuilds[-1]:.2f} s ({result.imported['memories']} memories)", file=sys.stderr)
    lines = [
        "# Rebuilding memories from git notes",
        "",
        f"Produced by `python -m bench.notes --memories {args.memories} --repeat {args.repeat}` on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} at {git_commit()}, all-MiniLM-L6-v2, {os.cpu_count()}-core {platform.machine()}.",
        "",
        f"{len(expected)} memories ({args.memories} stored, {len(expected) - args.memories} superseding texts) "
        f"over {COMMITS} commits, {exported.notes} notes on {len(exported.refs)} refs.",
        "",
        "| step | seconds |",
        "|---|---|",
        f"| export_notes (write every note) | {export_s:.2f} |",
        f"| import_notes into an empty file, median of {args.repeat} (parse, check, load the model, embed, "
        f"one transaction) | {statistics.median(rebuilds):.2f} |",
        f"| the same, slowest | {max(rebuilds):.2f} |",
        "",
        f"Target: <= 10 s for 1,000 memories including embedding: "
        f"{'met' if max(rebuilds) <= 10 else 'MISSED'} ({len(expected) / statistics.median(rebuilds):.0f} "
        f"memories/s). Every rebuilt file held the same memories, states, commits and sources.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0
