"""The code benchmark driver: `python -m bench.code [--quick] [--out bench/code/RESULTS.md]`.

1. Indexing speed: cold index of a real pip-installed library (real embedder),
   parse + call extraction alone, an incremental re-index after appending a
   function to one module, and an unchanged re-index.
2. Search latency: warm `search_code` p50/p95 (query embedding included) on a
   file of ~50k units from several real libraries (derived vectors, see
   bench/code/embedders.py DerivingEmbedder).
3. Quality: docstring first sentence -> function, on docstring-stripped copies
   of several libraries (bench/code/quality.py); alpha chosen on one library,
   reported on the others.

Markdown goes to stdout (and --out); progress to stderr; raw numbers to
bench/out/code/. Benchmarks are not tests: nothing asserts on time.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.code import quality as quality_mod
from bench.code import speed
from bench.code.embedders import CachingEmbedder
from bench.code.libs import sample_library
from bench.measure import load_average, machine_info
from bench.vectors import OUT_DIR

CODE_OUT = OUT_DIR / "code"


def log(message: str) -> None:
    print(f"[bench.code {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m bench.code", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small libraries and sizes: a smoke run")
    parser.add_argument("--out", type=Path, help="also write the markdown report to this file")
    parser.add_argument("--index-lib", help="library for the indexing measurements (default hypothesis; quick filelock)")
    parser.add_argument("--tune-lib", help="library alpha is chosen on (default hypothesis)")
    parser.add_argument("--heldout", help="comma-separated held-out libraries (default anyio,pydantic,huggingface_hub,mcp)")
    parser.add_argument("--units", type=int, help="latency file size target in units (default 50000; quick 5000)")
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: indexing,latency,quality")
    args = parser.parse_args(argv)
    quick = args.quick
    return {
        "quick": quick,
        "out": args.out,
        "index_lib": args.index_lib or ("filelock" if quick else "hypothesis"),
        "tune_lib": args.tune_lib or "hypothesis",
        "heldout": tuple((args.heldout or ("anyio,filelock" if quick else "anyio,pydantic,huggingface_hub,mcp")).split(",")),
        "units": args.units or (5000 if quick else 50000),
        "queries": 30 if quick else 200,
        "warmup": 5 if quick else 10,
        "max_units": 300 if quick else 1500,
        "max_queries": 60 if quick else 400,
        "skip": set(filter(None, args.skip.split(","))),
    }


def fmt(x, digits=3):
    return f"{x:.{digits}f}"


def report(info: dict, cfg: dict, idx: dict | None, lat: dict | None, qual: dict | None) -> str:
    lines = ["# learnmem code-intelligence benchmarks", "",
             "Produced by `python -m bench.code` (bench/code/). Raw numbers: bench/out/code/results-*.json.", "",
             "## Machine", "", "|  |  |", "|---|---|"]
    for key, value in info.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        lines.append(f"| {key} | {value} |")
    lines.append("")
    lines.append("The machine is shared (2 cores; another engineer's tests may run): see the load averages; "
                 "treat timing differences under ~20 % as noise.")
    lines.append("")

    if idx:
        c, inc, un, po = idx["cold"], idx["incremental"], idx["unchanged"], idx["parse_only"]
        lines += [
            "## 1. Indexing speed", "",
            f"Library: `{idx['package']}` as pip-installed (its {idx['files']} `.py` files, {idx['loc']:,} physical lines, "
            "copied to a temp dir), indexed into a fresh file with the real embedder (all-MiniLM-L6-v2, ONNX, fp32, CPU).",
            f"Load average before: {idx['load_before']}; after the cold index: {idx['load_after_cold']}.", "",
            "| measure | result |", "|---|---|",
            f"| cold index, wall | {c['wall']:.1f} s |",
            f"| files/s | {c['files_indexed'] / c['wall']:.1f} |",
            f"| units/s | {c['units'] / c['wall']:.1f} ({c['units']:,} units) |",
            f"| LOC/s | {idx['loc'] / c['wall']:,.0f} |",
            f"| units embedded | {c['units_embedded']:,} |",
            f"| calls (resolved) | {c['calls']:,} ({c['calls_resolved']:,} resolved, "
            f"{c['calls_resolved'] / max(c['calls'], 1):.0%}) |",
            f"| parse + call/import extraction only ({po['files']} files, {po['units']:,} units, {po['call_sites']:,} call sites) "
            f"| {po['seconds']:.2f} s = **{po['files_per_min']:,.0f} files/min**, {po['loc_per_s']:,.0f} LOC/s (target > 2,000 files/min) |",
            f"| incremental re-index after appending a function to `{idx['touched']}` | **{inc['wall']:.2f} s** wall "
            f"({inc['files_indexed']} file re-indexed, {inc['units_embedded']} units embedded; target <= 1 s) |",
            f"| unchanged re-index | {un['wall']:.2f} s ({un['files_unchanged']} files unchanged) |",
            "",
        ]
        if "parse_all" in idx:
            pa_ = idx["parse_all"]
            lines += [f"Parse + call extraction over all {pa_['files']:,} files of the latency corpus "
                      f"({pa_['loc']:,} lines): {pa_['seconds']:.1f} s = {pa_['files_per_min']:,.0f} files/min, "
                      f"{pa_['loc_per_s']:,.0f} LOC/s.", ""]
        lines += ["The cold index is dominated by embedding (one text of up to ~600 body characters per unit); "
                  "the incremental re-index hashes every file, parses and embeds only the changed one "
                  "(unchanged units keep their vectors) and rebuilds the project's call graph.", ""]

    if lat:
        lines += [
            "## 2. Search latency", "",
            f"One file holding {len(lat['libraries'])} real libraries as separate projects: {', '.join(lat['libraries'])}: "
            f"**{lat['units']:,} units** ({lat['eligible']:,} non-module units searched by default), {lat['files']:,} files, "
            f"{lat['loc']:,} lines, {lat['db_mib']:.0f} MiB on disk.",
            "",
            f"Vectors: the {lat['real_vectors']:,} units whose embedded text the real model had embedded in part 1 "
            f"(hypothesis) get those real vectors; the other {lat['derived_vectors']:,} get a derived vector "
            "normalise(v[j] + N(0, 0.028² I)) where j and the noise are seeded by a hash of the unit's text and v are "
            "the real hypothesis vectors (bench/code/embedders.py DerivingEmbedder). So the BM25 postings are those of real "
            "code; the vectors are synthetic beyond hypothesis, which does not change the cost of the exact "
            "matrix-vector product. Building this file (parse, BM25 terms, writes, call graphs; no model calls) took "
            f"{lat['index_seconds']:.0f} s = {lat['units'] / lat['index_seconds']:,.0f} units/s.",
            "",
            f"Then the file is reopened with the **real embedder**, {lat['warmup']} warm-up queries, and {lat['queries']} "
            "queries (first sentences of hypothesis docstrings) are timed through the public `lm.search_code(query, limit=10)`, "
            "query embedding included. Load average before/after: "
            f"{lat['load_before']} / {lat['load_after']}.", "",
            "| measure | p50 | p95 | max |", "|---|---|---|---|",
            f"| `search_code`, no filter | {lat['all_p50']:.1f} ms | **{lat['all_p95']:.1f} ms** | {lat['all_max']:.1f} ms |",
            f"| `search_code`, `project=\"hypothesis\"` | {lat['project_p50']:.1f} ms | {lat['project_p95']:.1f} ms | {lat['project_max']:.1f} ms |",
            f"| `code_search.search_code` given the query vector (no model call) | {lat['rank_p50']:.1f} ms | {lat['rank_p95']:.1f} ms | {lat['rank_max']:.1f} ms |",
            f"| query embedding alone (for reference) | {lat['embed_p50']:.1f} ms | {lat['embed_p95']:.1f} ms | {lat['embed_max']:.1f} ms |",
            "", "Target: p95 <= 20 ms at ~50k units.", "",
        ]

    if qual:
        lines += quality_report(qual)
    lines += ["## Command", "", f"`{info['command']}`", ""]
    return "\n".join(lines)


def quality_report(q: dict) -> list[str]:
    tune, held = q["tune"], q["heldout"]
    libs = [tune] + held
    res = q["libraries"]
    lines = ["## 3. Retrieval quality (docstring first sentence -> function)", "",
             "Method (bench/code/quality.py, bench/code/libs.py): for each library a seeded random sample of its `.py` files "
             f"(up to {q['max_units']:,} units) is copied with **every docstring replaced by `pass` and every comment blanked** "
             "(bench.code.libs.strip_docs, line numbers kept) "
             "and indexed with the real embedder into a file of its own. Queries: the first sentence of each function's or "
             "method's docstring in the sample (>= 4 words; texts shared by several functions dropped; at most "
             f"{q['max_queries']} per library, seeded). Answer: the unit with that (module, qualified name). Rankings are "
             "computed with `learnmem.search.hybrid.hybrid_rank` on the code snapshot exactly as `search_code` calls it (module units "
             "excluded, top 10), for each fusion; the last row is the public `lm.search_code` (library default, "
             "`CODE_FUSION`, `CODE_ALPHA`). Vectors are the real model's (cached on disk by text hash between runs).", "",
             "| library | files | units (searched) | queries | role |", "|---|---|---|---|---|"]
    for lib in libs:
        r = res[lib]
        lines.append(f"| {lib} | {r['files']} | {r['units']:,} ({r['eligible']:,}) | {r['queries']} | "
                     f"{'tuning' if lib == tune else 'held-out'} |")
    lines.append("")
    a, ca = q["alpha"], q["convex_alpha"]
    shown = ["vector", "keyword (BM25)", "rrf k=60", f"convex a={ca}", "qnorm a=0.9", f"qnorm a={a}",
             "search_code (default)"]
    shown = list(dict.fromkeys(shown))
    lines += [f"Alpha chosen on **{tune}** only (best MRR@10): qnorm a={a}, convex a={ca}. "
              "Held-out mean = unweighted mean over the held-out libraries.", ""]
    for metric, title in (("mrr", "MRR@10"), ("r1", "Recall@1"), ("r10", "Recall@10")):
        lines += [f"**{title}**", "", "| ranking | " + " | ".join(f"{l}{' (tune)' if l == tune else ''}" for l in libs)
                  + " | held-out mean |", "|---" * (len(libs) + 2) + "|"]
        for label in shown:
            vals = [res[l]["scores"][label][metric] for l in libs]
            mean = np.mean([res[l]["scores"][label][metric] for l in held])
            lines.append(f"| {label} | " + " | ".join(fmt(v) for v in vals) + f" | {fmt(mean)} |")
        lines.append("")
    lines += ["**Alpha sweep, MRR@10** (qnorm: alpha * cosine + (1 - alpha) * min(1, BM25 / query idf mass); "
              "convex: alpha * cosine + (1 - alpha) * BM25 / best BM25)", "",
              "| fusion | " + " | ".join(libs) + " | held-out mean |", "|---" * (len(libs) + 2) + "|"]
    for fusion in ("qnorm", "convex"):
        for alpha in quality_mod.ALPHAS:
            label = f"{fusion} a={alpha}"
            vals = [res[l]["scores"][label]["mrr"] for l in libs]
            mean = np.mean([res[l]["scores"][label]["mrr"] for l in held])
            lines.append(f"| {label} | " + " | ".join(fmt(v) for v in vals) + f" | {fmt(mean)} |")
    lines.append("")
    lines += [f"**Does hybrid (qnorm a={a}) beat both single rankings?** Paired difference of per-query reciprocal rank, "
              "mean and 95 % bootstrap interval:", "",
              f"| library | vs vector | vs BM25 | vs {q['current_alpha']} (shipped: CODE_FUSION, CODE_ALPHA) |", "|---|---|---|---|"]
    for lib in libs:
        row = q["ci"][lib]
        lines.append(f"| {lib} | {row['vector'][0]:+.3f} [{row['vector'][1]:+.3f}, {row['vector'][2]:+.3f}] | "
                     f"{row['keyword'][0]:+.3f} [{row['keyword'][1]:+.3f}, {row['keyword'][2]:+.3f}] | "
                     + (f"{row['current'][0]:+.3f} [{row['current'][1]:+.3f}, {row['current'][2]:+.3f}] |" if row.get("current") else "n/a |"))
    lines += ["", "### Recommendation", "", q["recommendation"], ""]
    return lines


def run_quality(cfg: dict, real, work: Path) -> dict:
    cache = CachingEmbedder(real, CODE_OUT)
    libs = [cfg["tune_lib"]] + [l for l in cfg["heldout"] if l != cfg["tune_lib"]]
    results = {}
    for lib in libs:
        results[lib] = quality_mod.evaluate_library(lib, cache, work, cfg["max_units"], cfg["max_queries"], log)
        cache.save()
    tune, held = libs[0], libs[1:]

    def best(fusion):
        return max(quality_mod.ALPHAS, key=lambda a: (results[tune]["scores"][f"{fusion} a={a}"]["mrr"], a))

    alpha, convex_alpha = best("qnorm"), best("convex")
    from learnmem.code.search import CODE_ALPHA, CODE_FUSION

    shipped = f"{CODE_FUSION} a={CODE_ALPHA}"

    ci = {}
    for lib in libs:
        s = results[lib]["scores"]
        chosen = s[f"qnorm a={alpha}"]["rr"]
        ci[lib] = {"vector": quality_mod.paired_ci(chosen, s["vector"]["rr"]),
                   "keyword": quality_mod.paired_ci(chosen, s["keyword (BM25)"]["rr"])}
        if f"qnorm a={alpha}" != shipped and shipped in s:
            ci[lib]["current"] = quality_mod.paired_ci(chosen, s[shipped]["rr"])

    def held_mean(label, metric="mrr"):
        return float(np.mean([results[l]["scores"][label][metric] for l in held]))

    beats = all(results[l]["scores"][f"qnorm a={alpha}"]["mrr"] > max(results[l]["scores"]["vector"]["mrr"],
                                                                        results[l]["scores"]["keyword (BM25)"]["mrr"])
                for l in held)
    current = shipped if CODE_ALPHA in quality_mod.ALPHAS else None
    text = (f"On {tune} (tuning) the best qnorm alpha is **{alpha}** (MRR@10 {results[tune]['scores'][f'qnorm a={alpha}']['mrr']:.3f}). "
            f"On the held-out libraries ({', '.join(held)}) it gives mean MRR@10 **{held_mean(f'qnorm a={alpha}'):.3f}** "
            f"(R@1 {held_mean(f'qnorm a={alpha}', 'r1'):.3f}, R@10 {held_mean(f'qnorm a={alpha}', 'r10'):.3f}) against "
            f"vector-only {held_mean('vector'):.3f}, BM25-only {held_mean('keyword (BM25)'):.3f}, RRF {held_mean('rrf k=60'):.3f}, "
            f"convex a={convex_alpha} {held_mean(f'convex a={convex_alpha}'):.3f}")
    if current:
        text += f", and the shipped {shipped} {held_mean(current):.3f}"
    text += (f"; `search_code` as shipped: {held_mean('search_code (default)'):.3f}. "
             + ("Hybrid beats both single rankings on every held-out library." if beats else
                "Hybrid does **not** beat both single rankings on every held-out library (see the tables)."))
    return {"tune": tune, "heldout": held, "libraries": results, "alpha": alpha, "convex_alpha": convex_alpha,
            "ci": ci, "current_alpha": shipped, "recommendation": text, "max_units": cfg["max_units"], "max_queries": cfg["max_queries"],
            "cache_hits": cache.hits, "cache_misses": cache.misses}


def main(argv=None) -> int:
    cfg = parse_args(argv)
    command = "python -m bench.code" + ("" if argv is None and len(sys.argv) <= 1 else " " + shlex.join(argv if argv is not None else sys.argv[1:]))
    info = machine_info(command)
    info["embedding model"] = "all-MiniLM-L6-v2 (ONNX Runtime, fp32, CPU)"
    started = time.monotonic()
    from learnmem.embedding.embed import load_embedder

    real = load_embedder()
    real.embed(["warm up the model"])
    work = Path(tempfile.mkdtemp(prefix="learnmem-bench-code-"))
    idx = lat = qual = None
    try:
        known = None
        if "indexing" not in cfg["skip"] or "latency" not in cfg["skip"]:
            idx, known = speed.indexing(cfg["index_lib"], real, work / "index", log)
        if "latency" not in cfg["skip"]:
            queries = [q.text for q in sample_library("hypothesis", 10**9, cfg["queries"]).queries]
            lat = speed.latency(real, known, queries, work / "index", cfg["units"], cfg["warmup"], log)
            from bench.code.libs import package_files
            all_files = [f for lib in lat["libraries"] for f in package_files(lib.split(" ")[0])]
            idx["parse_all"] = speed.parse_only(all_files)
            log(f"latency: p50 {lat['all_p50']:.1f} ms, p95 {lat['all_p95']:.1f} ms at {lat['units']} units")
        if "indexing" in cfg["skip"]:
            idx = None
        if "quality" not in cfg["skip"]:
            qual = run_quality(cfg, real, work)
            log(qual["recommendation"])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    info["load average at end"] = load_average()
    info["run time"] = f"{time.monotonic() - started:.0f} s"
    text = report(info, cfg, idx, lat, qual)
    print(text)
    if cfg["out"]:
        cfg["out"].write_text(text, encoding="utf-8")
    CODE_OUT.mkdir(parents=True, exist_ok=True)
    raw = {"info": info, "indexing": idx, "latency": lat, "quality": qual}
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (CODE_OUT / f"results-{stamp}.json").write_text(json.dumps(raw, indent=1, default=_jsonable), encoding="utf-8")
    return 0


def _jsonable(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    return str(value)
