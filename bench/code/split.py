"""Where a cold code index spends its time (issue 23, item 4): walk and read, parse, embed, write, call graph.

    python -m bench.code.split [--js-files 1000] [--python hypothesis]

Two trees, copied into a temporary folder and indexed cold into a new file with the real model:
- JavaScript/TypeScript: the first `--js-files` .js/.mjs/.cjs/.ts/.tsx files of the npm packages the MCP
  clients install (tests/clients/node_modules), in sorted order, outside the folders the index skips
  (nested node_modules, dist, build: learnmem.code.walk.SKIPPED_DIRS);
- Python: a package of the venv (default hypothesis, ~46k lines).
Each phase is timed by wrapping the indexer's own steps (learnmem.code.indexer: `_parse`, `_write_batch`,
`_rebuild_call_graph`; the embedder's calls inside `_write_batch`); "walk" is what is left of the run: finding,
reading and hashing the files and the bookkeeping. Then the same texts are embedded again alone, in the
indexer's batches of 64, as the floor an index can reach. Reported: each phase's seconds and share, files/s,
units/s, lines/s.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import learnmem
from bench.code.libs import SITE_PACKAGES
from bench.measure import git_commit
from learnmem.code import indexer
from learnmem.code.walk import SKIPPED_DIRS
from learnmem.embedding.embed import load_embedder

ROOT = Path(__file__).resolve().parents[2]
NODE = ROOT / "tests" / "clients" / "node_modules"
JS_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".tsx")


class _Timed:
    """The real embedder, adding up the seconds of its calls and keeping the texts."""

    def __init__(self, real):
        self.real, self.name, self.dim = real, real.name, real.dim
        self.seconds, self.texts = 0.0, []

    def embed(self, texts, batch_size: int = 32):
        started = time.perf_counter()
        vectors = self.real.embed(list(texts), batch_size=batch_size)
        self.seconds += time.perf_counter() - started
        self.texts.append(list(texts))
        return vectors


def _wrap(name: str, totals: dict[str, float]):
    original = getattr(indexer, name)

    def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            totals[name] = totals.get(name, 0.0) + time.perf_counter() - started
    setattr(indexer, name, timed)
    return original


def js_tree(dest: Path, count: int) -> list[Path]:
    files = sorted(p for p in NODE.rglob("*") if p.suffix in JS_SUFFIXES and p.is_file()
                   and not (set(p.relative_to(NODE).parts[:-1]) & (SKIPPED_DIRS | {"node_modules"})))[:count]
    for path in files:
        target = dest / path.relative_to(NODE)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return files


def python_tree(dest: Path, package: str) -> list[Path]:
    files = sorted(p for p in (SITE_PACKAGES / package).rglob("*.py") if "__pycache__" not in p.parts)
    for path in files:
        target = dest / path.relative_to(SITE_PACKAGES)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return files


def measure(tree: Path, files: list[Path], real, folder: Path, name: str) -> dict:
    totals: dict[str, float] = {}
    originals = {step: _wrap(step, totals) for step in ("_parse", "_write_batch", "_rebuild_call_graph")}
    embedder = _Timed(real)
    try:
        lm = learnmem.open(folder / f"{name}.duckdb", embedder=embedder)
        started = time.perf_counter()
        result = lm.index_codebase(tree, project=name, progress=False)
        total = time.perf_counter() - started
        lm.close()
    finally:
        for step, original in originals.items():
            setattr(indexer, step, original)
    started = time.perf_counter()
    for texts in embedder.texts:
        real.embed(texts)
    alone = time.perf_counter() - started
    phases = {"walk, read, bookkeeping": total - sum(totals.values()), "parse": totals.get("_parse", 0.0),
              "embed": embedder.seconds, "write": totals.get("_write_batch", 0.0) - embedder.seconds,
              "call graph": totals.get("_rebuild_call_graph", 0.0)}
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    return {"files": result.files_indexed, "units": result.units, "lines": lines, "total": total,
            "phases": phases, "embed_alone": alone}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.code.split", description=__doc__.split("\n\n")[0])
    parser.add_argument("--js-files", type=int, default=1000)
    parser.add_argument("--python", default="hypothesis")
    args = parser.parse_args(argv)
    real = load_embedder()
    real.embed(["warm up"])
    results = {}
    with tempfile.TemporaryDirectory(prefix="learnmem-split-") as tmp:
        folder = Path(tmp)
        for name, make in (("js-ts", lambda d: js_tree(d, args.js_files)), ("python", lambda d: python_tree(d, args.python))):
            tree = folder / name
            files = make(tree)
            print(f"{name}: {len(files)} files, indexing cold", file=sys.stderr, flush=True)
            results[name] = measure(tree, files, real, folder, name)
    print(f"Command: python -m bench.code.split --js-files {args.js_files} --python {args.python}; learnmem at "
          f"{git_commit()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n")
    print("| tree | files | units | lines | total s | walk, read, bookkeeping | parse | embed | write | call graph "
          "| embed share | embed alone s | files/s | units/s | lines/s |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, r in results.items():
        p = r["phases"]
        cells = " | ".join(f"{seconds:.1f} s ({seconds / r['total']:.0%})" for seconds in p.values())
        print(f"| {name} | {r['files']} | {r['units']} | {r['lines']:,} | {r['total']:.1f} | {cells} | "
              f"{p['embed'] / r['total']:.0%} | {r['embed_alone']:.1f} | {r['files'] / r['total']:.1f} | "
              f"{r['units'] / r['total']:.1f} | {r['lines'] / r['total']:,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
