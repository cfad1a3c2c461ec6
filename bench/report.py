"""Render the results of a run as markdown tables."""

from __future__ import annotations

from bench.corpus import N_BASE, QUERY_TARGET_RANGE
from bench.vectors import SIGMA

LABELS = {"learnmem": "learnmem (hybrid)", "qdrant": "qdrant-local + SQLite", "sqlite-vec": "sqlite-vec"}


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _num(value, digits: int = 1) -> str:
    if value is None or value != value:  # None or NaN
        return "–"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def _size(n: int) -> str:
    return f"{n // 1000}k" if n % 1000 == 0 else str(n)


def _ratio(numerator, denominator) -> str:
    if not numerator or not denominator:
        return "–"
    return f"{numerator / denominator:.2f}×"


def _systems(size_result: dict) -> list[str]:
    return [name for name in LABELS if name in size_result]


def _machine(results: dict) -> str:
    m = results["machine"]
    rows = [[key, str(m[key])] for key in m if key != "packages"]
    rows.append(["packages", ", ".join(f"{k} {v}" for k, v in m["packages"].items())])
    rows.append(["embedding model", f"{results['model']} (ONNX Runtime, fp32, CPU)"])
    return _table(["", ""], rows)


def _method(results: dict) -> str:
    s = results["settings"]
    return "\n".join([
        f"- **Corpus** (`bench/corpus.py`): seeded, template-generated agent memories about software projects "
        f"(facts, decisions, preferences, corrections; 15–30 tokens). The first {N_BASE:,} are *base* memories; "
        f"beyond that each memory is a base memory with a lead-in and a provenance clause "
        f"(\"Note: … (seen in ORION-4821, deploy/values.yaml, 2024-03-07)\"). All contents are distinct; "
        f"every size is a prefix of the next.",
        f"- **Vectors** (`bench/vectors.py`): base memories and all queries are embedded with the real model once "
        f"(cached in bench/out/). A derived memory gets normalise(parent vector + N(0, {SIGMA}²) per dimension): "
        f"cosine ≈0.88 to its parent, ≈0.77 between siblings. So at 1k every vector is real; at 10k/100k "
        f"{N_BASE:,} are real and the rest are synthetic neighbours of them. learnmem gets these vectors through its "
        f"embedder interface (a lookup table); the peers get the same arrays.",
        f"- **Store** = `store_memories` (learnmem) / upsert + SQLite insert (qdrant) / vec0 + metadata insert "
        f"(sqlite-vec), {s['batch']} memories per call and per transaction for everyone; storage only "
        f"(precomputed vectors) except the row marked *real embedder*.",
        f"- **Warm retrieve**: one long-lived handle per system, {s['warmup']} warm-up queries, then "
        f"{s['queries']} distinct paraphrase-style questions, interleaved across systems (rotating order). "
        f"The query is embedded with the real model **inside the timed region for every system** "
        f"(same model, same call). Top 10.",
        "- **recall@10** = share of the exact cosine top-10 (numpy brute force over the same vectors) found in the "
        "system's top 10. learnmem's retrieval is *hybrid* (vector + BM25, fused), so its number is a vector-overlap "
        "measure, not a defect count: it deliberately lets keyword matches displace some nearest vectors. Both peers "
        "are vector-only and exact (Qdrant local mode and vec0 are brute force), so they should reach 1.0.",
        f"- **target hit@10** = share of queries whose source memory (the one the question was written from, "
        f"index < {QUERY_TARGET_RANGE:,}) is in the top 10: a rough quality signal; at 10k/100k near-copies of "
        f"the target compete for the same slots.",
        "- **Cold process** = a fresh `python -c` process per run: imports, `load_embedder()`, open the store, "
        f"embed the query, retrieve the top 10 (median of {s['cold_runs']} runs, a different query each). "
        "*wall* is spawn-to-exit as seen by the parent; *open+query* is the part after imports and model load.",
        "- **Size** = the files after everything is closed (learnmem: `.duckdb` + `.wal`; qdrant: its directory "
        "+ the SQLite file; sqlite-vec: the SQLite file and its WAL).",
        "- The machine is shared with other work (see the load averages above): treat differences under ~20 % as noise.",
    ])


def _embedding(results: dict) -> str:
    e = results["embedding"]
    r = results["real_store"]
    return _table(["measure", "result"], [
        [f"short memory texts ({e['short_n']}, batch 32)", f"{_num(e['short_per_s'])} texts/s"],
        [f"{e['chunk_tokens']}-token code chunks ({e['chunks_n']}, batch 32)", f"{_num(e['chunks_per_s'])} chunks/s"],
        [f"one query (batch of 1, {e['query_n']} queries)", f"p50 {_num(e['query_p50_ms'])} ms, p95 {_num(e['query_p95_ms'])} ms"],
        [f"learnmem `store_memories`, real embedder, {_size(r['n'])} memories (embedding included)",
         f"{_num(r['per_s'])} memories/s ({_num(r['seconds'], 2)} s)"],
    ])


def _store(results: dict) -> str:
    rows = []
    for n, per in results["sizes"].items():
        for name in _systems(per):
            x = per[name]
            if "skipped" in x:
                rows.append([_size(int(n)), LABELS[name], "skipped", "–", "–", x["skipped"]])
                continue
            note = f"{x['vector_misses']} texts missed the vector table" if x.get("vector_misses") else ""
            rows.append([_size(int(n)), LABELS[name], _num(x["store_per_s"]), _num(x["last_batch_per_s"]),
                         _num(x["store_s"], 2), note])
    return _table(["size", "system", "memories/s", "last batch memories/s", "total s", "note"], rows)


def _warm(results: dict) -> str:
    rows = []
    for n, per in results["sizes"].items():
        embed = per.get("embed-only")
        if embed:
            rows.append([_size(int(n)), "*query embedding alone*", _num(embed["p50_ms"], 2), _num(embed["p95_ms"], 2),
                         "", "", "", ""])
        for name in _systems(per):
            x = per[name]
            if "skipped" in x:
                rows.append([_size(int(n)), LABELS[name]] + ["–"] * 6)
                continue
            rows.append([_size(int(n)), LABELS[name], _num(x["p50_ms"], 2), _num(x["p95_ms"], 2),
                         f"{x['recall']:.3f}", f"{x['target_hit']:.2f}", _num(x["open_ms"]), _num(x["first_query_ms"])])
            if "alone_p50_ms" in x:
                rows.append([_size(int(n)), f"{LABELS[name]}, alone", _num(x["alone_p50_ms"], 2),
                             _num(x["alone_p95_ms"], 2), "", "", "", ""])
    return _table(["size", "system", "p50 ms", "p95 ms", "recall@10 vs exact", "target hit@10",
                   "open ms", "first query ms"], rows)


def _search_only(results: dict) -> str:
    rows = []
    for n, per in results["sizes"].items():
        lm = per.get("learnmem", {})
        for name in _systems(per):
            x = per[name]
            if "search_p50_ms" not in x:
                continue
            ratio = "" if name == "learnmem" else _ratio(x["search_p95_ms"], lm.get("search_p95_ms"))
            rows.append([_size(int(n)), LABELS[name], _num(x["search_p50_ms"], 2), _num(x["search_p95_ms"], 2),
                         f"{x['search_recall']:.3f}", ratio])
    return _table(["size", "system", "p50 ms", "p95 ms", "recall@10 vs exact", "p95 peer/lm"], rows)


def _cold(results: dict) -> str:
    rows = []
    for n, per in results["sizes"].items():
        for name in _systems(per):
            c = per[name].get("cold")
            if not c:
                continue
            rows.append([_size(int(n)), LABELS[name], _num(c["wall"], 0), _num(c["imports"], 0), _num(c["model"], 0),
                         _num(c["query"], 0)])
    return _table(["size", "system", "wall ms", "imports ms", "model load ms", "open+query ms"], rows)


def _disk(results: dict) -> str:
    rows = []
    for n, per in results["sizes"].items():
        for name in _systems(per):
            x = per[name]
            if "disk_bytes" not in x:
                continue
            rows.append([_size(int(n)), LABELS[name], f"{x['disk_bytes'] / 1e6:.1f}", f"{x['bytes_per_10k'] / 1e6:.1f}"])
    return _table(["size", "system", "MB on disk", "MB per 10k memories"], rows)


def _ratios(results: dict) -> str:
    rows = []
    for n, per in results["sizes"].items():
        lm = per["learnmem"]
        for name in _systems(per):
            if name == "learnmem":
                continue
            p = per[name]
            if "skipped" in p:
                rows.append([_size(int(n)), LABELS[name], "skipped", "", "", "", "", ""])
                continue
            rows.append([
                _size(int(n)), LABELS[name],
                _ratio(lm.get("store_per_s"), p.get("store_per_s")),
                _ratio(p.get("p50_ms"), lm.get("p50_ms")),
                _ratio(p.get("p95_ms"), lm.get("p95_ms")),
                _ratio(p.get("cold", {}).get("wall"), lm.get("cold", {}).get("wall")),
                _ratio(p.get("disk_bytes"), lm.get("disk_bytes")),
                f"{lm['recall']:.3f} / {p['recall']:.3f}",
            ])
    return _table(["size", "peer", "store rate (lm/peer)", "warm p50 (peer/lm)", "warm p95 (peer/lm)",
                   "cold wall (peer/lm)", "disk (peer/lm)", "recall@10 lm / peer"], rows)


def render(results: dict) -> str:
    """The whole report as one markdown string."""
    return "\n\n".join([
        "# learnmem benchmarks",
        f"Produced by `{results['machine']['command']}` (bench/). Raw numbers: bench/out/results-*.json.",
        "## Machine",
        _machine(results),
        "## Method",
        _method(results),
        "## Embedding",
        _embedding(results),
        "## Store throughput (storage only, precomputed vectors)",
        "*last batch* is the rate of the final store call alone (the last 1,000 memories, into a store already "
        "holding n − 1,000): a rate that falls with n means each write costs more as the store grows.",
        _store(results),
        "## Retrieve, warm (long-lived process, query embedding included)",
        "Every system's time includes embedding the query; the *query embedding alone* row is that embedding "
        "timed in the same rotation, so the search part is roughly the difference. The *alone* row runs the same "
        "queries through learnmem with no peer in the rotation: the peers' BLAS threads keep spinning after "
        "their searches and slow whatever runs next, the query embedding most of all.",
        _warm(results),
        "## Retrieve, warm, search only (query vector given)",
        "The same rotation with the query already embedded: each system's own search cost. learnmem still "
        "runs its whole hybrid path (vector scan, BM25, fusion, filters, result rows); only the model call is gone.",
        _search_only(results),
        "## Retrieve, cold process",
        _cold(results),
        "## Size on disk",
        _disk(results),
        "## learnmem against each peer",
        "Ratios above 1× favour learnmem. Recall is shown as values, not a ratio: learnmem's is the vector overlap "
        "of a hybrid ranking (see Method).",
        _ratios(results),
        "## Other benchmarks",
        "Each area has its own runner and report, kept beside it:\n\n"
        "- code intelligence (index speed, search latency and quality): `python -m bench.code` -> "
        "[bench/code/RESULTS.md](code/RESULTS.md); code search per language on docs-stripped libraries "
        "(Python, JavaScript/TypeScript; `make bench-libs` installs the npm ones): `python -m bench.code.quality`\n"
        "- git history (cold and incremental index, blame, file history, commit search, unit history, "
        "with git itself as reference): `python -m bench.git` -> [bench/git/RESULTS.md](git/RESULTS.md)\n"
        "- GHAP tracking and experiences (library calls at 10k entries, `learnmem ghap status`, connection bursts): "
        "`python -m bench.ghap` -> [bench/ghap/RESULTS.md](ghap/RESULTS.md)\n"
        "- retrieval quality (fusion methods): `python -m bench.quality.evaluate` -> "
        "[bench/quality/RESULTS.md](quality/RESULTS.md)",
    ]) + "\n"
