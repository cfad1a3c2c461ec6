"""Indexing speed (cold, parse-only, incremental, unchanged) and warm search_code latency at ~50k units."""

from __future__ import annotations

import gc
import os
from pathlib import Path


from bench.code.embedders import DerivingEmbedder, RecordingEmbedder
from bench.code.libs import SITE_PACKAGES, copy_package, loc, package_files
from bench.measure import Stopwatch, load_average, percentile_ms

# Libraries indexed for the latency file, in order, until the target unit count is reached.
LATENCY_LIBS = ("hypothesis", "pip", "debugpy", "tornado", "pyarrow", "setuptools", "onnx", "IPython",
                "prompt_toolkit", "qdrant_client", "huggingface_hub", "pydantic", "_pytest", "jedi", "pygments",
                "mcp", "anyio", "click", "filelock")
APPENDED = '''

def bench_appended_function(values, scale=2):
    """Added by the incremental re-index benchmark."""
    total = 0
    for value in values:
        total += value * scale
    return total
'''


def parse_only(files: list[Path]) -> dict:
    """Parse + Python call/import extraction over `files`, as the indexer does it, without embedding or writing."""
    from learnmem.code.parse import parse_source_with_tree
    from learnmem.code.pycalls import python_calls_and_imports

    blobs = [(p.relative_to(SITE_PACKAGES).as_posix(), p.read_bytes()) for p in files]
    units = calls = 0
    with Stopwatch() as sw:
        for relative, data in blobs:
            parsed, tree = parse_source_with_tree(relative, data, "python")
            if tree is not None:
                parsed.calls, parsed.imports = python_calls_and_imports(
                    tree.root_node, data, parsed.units, parsed.module, relative.endswith("__init__.py"))
            units += len(parsed.units)
            calls += len(parsed.calls)
    lines = sum(d.count(b"\n") for _, d in blobs)
    return {"files": len(blobs), "loc": lines, "units": units, "call_sites": calls, "seconds": sw.seconds,
            "files_per_min": len(blobs) / sw.seconds * 60, "loc_per_s": lines / sw.seconds}


def _result(r, wall: float) -> dict:
    return {"files_seen": r.files_seen, "files_indexed": r.files_indexed, "files_unchanged": r.files_unchanged,
            "units": r.units, "units_embedded": r.units_embedded, "calls": r.calls, "calls_resolved": r.calls_resolved,
            "seconds": r.seconds, "wall": wall}


def indexing(package: str, real, work: Path, log) -> tuple[dict, dict]:
    """Cold index of a copy of `package` with the real embedder, then one touched file, then nothing changed.

    Returns (numbers, text -> vector table of what the model embedded)."""
    import learnmem

    root = work / "cold-src"
    files = package_files(package)
    copy_package(package, root)
    recorder = RecordingEmbedder(real)
    db = work / "cold.duckdb"
    lm = learnmem.open(db, embedder=recorder)
    out = {"package": package, "files": len(files), "loc": loc(files), "load_before": load_average()}
    log(f"cold index of {package}: {len(files)} files, {out['loc']} LOC")
    with Stopwatch() as sw:
        cold = lm.index_codebase(root, project=package, progress=False)
    out["cold"] = _result(cold, sw.seconds)
    out["load_after_cold"] = load_average()
    log(f"  cold: {cold.units} units in {sw.seconds:.1f} s")

    # Incremental: append a function to one module (the largest one under 2,000 lines, so the file is ordinary).
    sizes = sorted((p.read_bytes().count(b"\n"), p) for p in (root / package).rglob("*.py"))
    touched = [p for n, p in sizes if n < 2000][-1]
    with open(touched, "a", encoding="utf-8") as handle:
        handle.write(APPENDED)
    with Stopwatch() as sw:
        incremental = lm.index_codebase(root, project=package, progress=False)
    out["incremental"] = _result(incremental, sw.seconds)
    touched_lines = touched.read_bytes().count(b"\n")
    out["touched"] = f"{touched.relative_to(root).as_posix()} ({touched_lines} lines after the append)"
    with Stopwatch() as sw:
        unchanged = lm.index_codebase(root, project=package, progress=False)
    out["unchanged"] = _result(unchanged, sw.seconds)
    lm.close()
    out["parse_only"] = parse_only(files)
    log(f"  incremental {out['incremental']['wall']:.2f} s, unchanged {out['unchanged']['wall']:.2f} s, "
        f"parse-only {out['parse_only']['files_per_min']:.0f} files/min")
    return out, recorder.table


def latency(real, known: dict, queries: list[str], work: Path, target_units: int, warmup: int, log) -> dict:
    """Fill one file with several libraries (derived vectors), reopen it with the real embedder, time search_code."""
    import learnmem

    deriving = DerivingEmbedder(real, known)
    db = work / "latency.duckdb"
    lm = learnmem.open(db, embedder=deriving)
    built, total, files, lines, index_s = [], 0, 0, 0, 0.0
    for package in LATENCY_LIBS:
        if total >= target_units:
            break
        if not (SITE_PACKAGES / package).is_dir():
            continue
        root = work / "latency-src" / package
        pkg_files = package_files(package)
        copy_package(package, root, pkg_files)
        result = lm.index_codebase(root, project=package, progress=False)
        total += result.units
        files += result.files_indexed
        lines += loc(pkg_files)
        index_s += result.seconds
        built.append(f"{package} ({result.units:,})")
        log(f"  latency file: +{package} {result.units} units ({total} total, {result.seconds:.1f} s)")
    lm.close()
    gc.collect()

    lm = learnmem.open(db, embedder=real)
    snapshot = lm._code_index.snapshot()
    units, eligible = snapshot.size, int(snapshot.eligible().sum())
    for text in queries[:warmup]:
        lm.search_code(text, limit=10)
    out = {"units": units, "eligible": eligible, "libraries": built, "files": files, "loc": lines,
           "index_seconds": index_s, "real_vectors": deriving.real_hits, "derived_vectors": deriving.derived,
           "queries": len(queries), "warmup": warmup, "load_before": load_average()}
    from learnmem.code import search as code_search

    index = lm._code_index
    given = _GivenVector(real)
    timed = {"all": [], "project": [], "embed": [], "rank": []}
    for i, text in enumerate(queries):
        with Stopwatch() as sw:
            lm.search_code(text, limit=10)
        timed["all"].append(sw.seconds)
        with Stopwatch() as sw:
            lm.search_code(text, project="hypothesis", limit=10)
        timed["project"].append(sw.seconds)
        with Stopwatch() as sw:
            given.vector = real.embed([text])[0]
        timed["embed"].append(sw.seconds)
        with Stopwatch() as sw:  # the same public function, handed the vector just computed
            code_search.search_code(index, given, text, limit=10)
        timed["rank"].append(sw.seconds)
    out["load_after"] = load_average()
    for name, seconds in timed.items():
        out[f"{name}_p50"] = percentile_ms(seconds, 50)
        out[f"{name}_p95"] = percentile_ms(seconds, 95)
        out[f"{name}_max"] = max(seconds) * 1000
    lm.close()
    out["db_mib"] = (db.stat().st_size + (os.path.getsize(str(db) + ".wal") if os.path.exists(str(db) + ".wal") else 0)) / 2**20
    return out


class _GivenVector:
    """An embedder returning a vector computed beforehand: times search_code without the model call."""

    def __init__(self, real):
        self.name, self.dim, self.vector = real.name, real.dim, None

    def embed(self, texts, batch_size: int = 32):
        return self.vector[None, :]
