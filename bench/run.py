"""The benchmark driver: `python -m bench [--quick] [--sizes 1000,10000,100000] [--out FILE]`.

For each corpus size it builds a fresh learnmem file and a fresh store for
each peer from the same texts and the same vectors, then measures store
throughput, warm retrieval latency and recall, cold-process retrieval and
the size on disk. Embedding throughput and learnmem's store throughput with
the real model are measured once. Everything is printed as markdown (see
`bench.report`) and the raw numbers are saved under bench/out/.

Benchmarks are not tests: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench import corpus as corpus_mod
from bench import report
from bench.cold import run_cold
from bench.measure import Stopwatch, load_average, machine_info, median, percentile_ms
from bench.peers import dir_bytes, open_peer
from bench.vectors import OUT_DIR, PrecomputedEmbedder, cached_embed, derive, exact_top_k

PEER_KINDS = ("qdrant", "sqlite-vec")
SYSTEMS = ("learnmem",) + PEER_KINDS
K = 10


@dataclass(frozen=True)
class Settings:
    """What one run measures, and how much of it."""

    sizes: tuple[int, ...]
    queries: int
    warmup: int
    cold_runs: int
    short_texts: int
    chunks: int
    chunk_tokens: int
    real_store: int
    batch: int
    peer_limit_s: float
    peers: tuple[str, ...]
    keep: bool


def parse_args(argv: list[str] | None) -> tuple[Settings, Path | None]:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", help="comma-separated corpus sizes (default 1000,10000,100000; quick: 300,3000)")
    parser.add_argument("--quick", action="store_true", help="small sizes and few repetitions: a smoke run")
    parser.add_argument("--queries", type=int, help="measured queries per size (default 200; quick 30)")
    parser.add_argument("--cold-runs", type=int, help="cold processes per system and size (default 3; quick 1)")
    parser.add_argument("--batch", type=int, default=1000, help="memories per store call, for every system")
    parser.add_argument("--peer-limit", type=float, default=300.0,
                        help="skip a peer's size when its store is projected to take longer (seconds)")
    parser.add_argument("--peers", default=",".join(PEER_KINDS), help="peers to compare with ('' for none)")
    parser.add_argument("--keep", action="store_true", help="keep the stores under bench/out/work/")
    parser.add_argument("--out", type=Path, help="also write the markdown report to this file")
    args = parser.parse_args(argv)
    quick = args.quick
    sizes = tuple(int(s) for s in args.sizes.split(",")) if args.sizes else ((300, 3000) if quick else (1000, 10000, 100000))
    settings = Settings(
        sizes=tuple(sorted(sizes)),
        queries=args.queries or (30 if quick else 200),
        warmup=5 if quick else 10,
        cold_runs=args.cold_runs if args.cold_runs is not None else (1 if quick else 3),
        short_texts=64 if quick else 512,
        chunks=8 if quick else 48,
        chunk_tokens=230,
        real_store=min(1000, min(sizes)),
        batch=args.batch,
        peer_limit_s=args.peer_limit,
        peers=tuple(p for p in args.peers.split(",") if p),
        keep=args.keep,
    )
    return settings, args.out


def log(message: str) -> None:
    """Progress goes to stderr so stdout stays the report."""
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ embedding


def _tokenizer(embedder):
    """A `tokenizers.Tokenizer` for the embedder's model, without truncation or padding."""
    from tokenizers import Tokenizer

    model_dir = getattr(embedder, "model_dir", None)
    tk = Tokenizer.from_file(str(Path(model_dir) / "tokenizer.json"))
    tk.no_truncation()
    tk.no_padding()
    return tk


def measure_embedding(real, s: Settings, query_texts: list[str]) -> dict:
    """Throughput on short texts and on code chunks (batch 32), and single-query latency."""
    short = corpus_mod.short_texts(s.short_texts)
    chunks = corpus_mod.code_chunks(s.chunks, s.chunk_tokens, _tokenizer(real))
    real.embed(short[:32])  # warm the session's allocations
    with Stopwatch() as sw_short:
        real.embed(short, batch_size=32)
    with Stopwatch() as sw_chunks:
        real.embed(chunks, batch_size=32)
    single = []
    for text in query_texts:
        with Stopwatch() as sw:
            real.embed([text])
        single.append(sw.seconds)
    return {
        "short_n": len(short), "short_per_s": len(short) / sw_short.seconds,
        "chunks_n": len(chunks), "chunk_tokens": s.chunk_tokens, "chunks_per_s": len(chunks) / sw_chunks.seconds,
        "query_n": len(single), "query_p50_ms": percentile_ms(single, 50), "query_p95_ms": percentile_ms(single, 95),
    }


# ------------------------------------------------------------------ learnmem


def _learnmem_bytes(path: Path) -> int:
    wal = Path(str(path) + ".wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def store_learnmem(path: Path, embedder, records: list[dict], batch: int) -> tuple[float, list[str]]:
    """Store `records` through store_memories in batches; returns (seconds, ids in order)."""
    import learnmem

    lm = learnmem.open(path, embedder=embedder)
    ids: list[str] = []
    duplicates = 0
    batch_s = []
    with Stopwatch() as sw:
        for start in range(0, len(records), batch):
            t0 = time.perf_counter()
            results = lm.store_memories(records[start : start + batch])
            batch_s.append(time.perf_counter() - t0)
            ids.extend(r.id for r in results)
            duplicates += sum(r.duplicate for r in results)
    lm.close()
    if duplicates:
        log(f"warning: learnmem reported {duplicates} duplicates")
    return sw.seconds, ids, batch_s


def measure_real_store(real, records: list[dict], work: Path, batch: int) -> dict:
    """learnmem store throughput with the real embedder: embedding included."""
    path = work / "real-embedder" / "learnmem.duckdb"
    shutil.rmtree(path.parent, ignore_errors=True)
    path.parent.mkdir(parents=True)
    seconds, _, _ = store_learnmem(path, real, records, batch)
    shutil.rmtree(path.parent, ignore_errors=True)
    return {"n": len(records), "seconds": seconds, "per_s": len(records) / seconds}


# ------------------------------------------------------------------ peers


def store_peer(kind: str, directory: Path, dim: int, ids: np.ndarray, vectors: np.ndarray, records: list[dict],
               batch: int, limit_s: float) -> dict:
    """Store into a fresh peer in batches; stops early when the projected total exceeds `limit_s`."""
    shutil.rmtree(directory, ignore_errors=True)
    try:
        peer = open_peer(kind, directory, dim)
    except (ImportError, RuntimeError) as exc:  # e.g. a Python whose sqlite3 cannot load extensions
        return {"skipped": f"cannot open: {exc}"}
    n = len(records)
    done = 0
    start = time.perf_counter()
    try:
        while done < n:
            end = min(done + batch, n)
            t0 = time.perf_counter()
            peer.store(ids[done:end], vectors[done:end], records[done:end])
            last_batch_per_s = (end - done) / (time.perf_counter() - t0)
            done = end
            elapsed = time.perf_counter() - start
            projected = elapsed / done * n
            if done < n and done >= 5 * batch and projected > limit_s:
                return {"skipped": f"store projected at {projected:.0f} s (> {limit_s:.0f} s limit) "
                                   f"after {done} memories in {elapsed:.0f} s"}
        seconds = time.perf_counter() - start
    finally:
        peer.close()
    return {"store_s": seconds, "store_per_s": n / seconds, "last_batch_per_s": last_batch_per_s}


# ------------------------------------------------------------------ retrieval


def warm_retrieval(systems: dict, queries: list, warmup: list, exact: np.ndarray) -> dict:
    """Time every query on every open system, interleaved so machine noise hits all alike.

    `systems` maps name -> callable(query text) -> list of corpus indexes.
    The query is embedded inside the timed call for every system.
    """
    first = {}
    for name, search in systems.items():
        with Stopwatch() as sw:
            search(warmup[0].text)
        first[name] = sw.seconds
        for q in warmup[1:]:
            search(q.text)
    times = {name: [] for name in systems}
    found = {name: [] for name in systems}
    names = list(systems)
    gc.collect()
    for i, q in enumerate(queries):
        order = names[i % len(names):] + names[: i % len(names)]  # rotate who goes first
        for name in order:
            t0 = time.perf_counter()
            result = systems[name](q.text)
            times[name].append(time.perf_counter() - t0)
            found[name].append(result)
    out = {}
    for name in names:
        recall = [len(set(r[:K]) & set(exact[i].tolist())) / K for i, r in enumerate(found[name])]
        target = [queries[i].target in r[:K] for i, r in enumerate(found[name])]
        out[name] = {
            "p50_ms": percentile_ms(times[name], 50), "p95_ms": percentile_ms(times[name], 95),
            "first_query_ms": first[name] * 1000, "recall": float(np.mean(recall)),
            "target_hit": float(np.mean(target)), "n_queries": len(queries),
        }
    return out


def search_only(lm_path: Path, id_to_index: dict, base: Path, active: list, real, texts, vectors, data: dict,
                exact) -> dict:
    """The same warm rotation with the query vector given: what each system's search itself costs.

    learnmem gets the query vector through its embedder interface (a table
    look-up, microseconds); the peers get it as an argument.
    """
    import learnmem

    query_text = [q.text for q in data["queries"] + data["warmup"]]
    query_rows = np.vstack([data["query_vectors"], real.embed([q.text for q in data["warmup"]])])
    lookup = PrecomputedEmbedder(real, list(texts) + query_text, np.vstack([vectors, query_rows]))
    vector_of = dict(zip(query_text, query_rows))
    lm = learnmem.open(lm_path, embedder=lookup)
    systems = {"learnmem": lambda q: [id_to_index[h.id] for h in lm.retrieve_memories(q, limit=K)]}
    handles = {kind: open_peer(kind, base / kind, dim=vectors.shape[1], create=False) for kind in active}
    for kind, handle in handles.items():
        systems[kind] = (lambda p: lambda q: [r["id"] for r in p.search(vector_of[q], K)])(handle)
    try:
        return warm_retrieval(systems, data["queries"], data["warmup"], exact)
    finally:
        lm.close()
        for handle in handles.values():
            handle.close()


def cold_retrieval(paths: dict, queries: list, runs: int) -> dict:
    """Median phases of `runs` fresh processes per system (each asks a different query)."""
    out = {}
    for name, path in paths.items():
        samples = [run_cold(name, path, queries[r % len(queries)].text) for r in range(runs)]
        out[name] = {key: median([s[key] for s in samples]) * 1000 for key in ("wall", "imports", "model", "query")}
        out[name]["runs"] = runs
    return out


# ------------------------------------------------------------------ one size


def run_size(n: int, s: Settings, data: dict, real, work: Path, previous: dict) -> dict:
    """Everything measured at one corpus size."""
    import learnmem

    texts, records, vectors = data["texts"][:n], data["records"][:n], data["vectors"][:n]
    dim = vectors.shape[1]
    base = work / f"n{n}"
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir(parents=True)
    result: dict = {name: {} for name in ("learnmem",) + s.peers}

    # -- store: storage only, same vectors for everyone
    log(f"n={n}: learnmem store")
    lm_path = base / "learnmem" / "learnmem.duckdb"
    lm_path.parent.mkdir()
    table = PrecomputedEmbedder(real, texts, vectors)
    seconds, ids, batch_s = store_learnmem(lm_path, table, records, s.batch)
    result["learnmem"].update(store_s=seconds, store_per_s=n / seconds, vector_misses=table.misses,
                              last_batch_per_s=min(s.batch, n) / batch_s[-1])
    if table.misses:
        log(f"warning: learnmem embedded {table.misses} texts not in the vector table: vectors differ from the peers'")
    id_to_index = {memory_id: i for i, memory_id in enumerate(ids)}
    index_ids = np.arange(n, dtype=np.int64)
    for kind in s.peers:
        rate = previous.get(kind, {}).get("store_per_s")
        if rate and n / rate > s.peer_limit_s:
            result[kind]["skipped"] = (f"store projected at {n / rate:.0f} s from the {previous[kind]['n']} run "
                                       f"({rate:.0f}/s; > {s.peer_limit_s:.0f} s limit)")
            log(f"n={n}: {kind} skipped: {result[kind]['skipped']}")
            continue
        log(f"n={n}: {kind} store")
        result[kind].update(store_peer(kind, base / kind, dim, index_ids, vectors, records, s.batch, s.peer_limit_s))
    active = [k for k in s.peers if "skipped" not in result[k]]

    # -- warm retrieval: long-lived handles, query embedded inside the timed region
    log(f"n={n}: warm retrieval ({s.queries} queries x {1 + len(active)} systems)")
    exact = exact_top_k(vectors, data["query_vectors"], K)
    with Stopwatch() as sw:
        lm = learnmem.open(lm_path, embedder=PrecomputedEmbedder(real, texts, vectors))
    result["learnmem"]["open_ms"] = sw.seconds * 1000
    systems = {"learnmem": lambda q: [id_to_index[h.id] for h in lm.retrieve_memories(q, limit=K)]}
    handles = {}
    for kind in active:
        with Stopwatch() as sw:
            handles[kind] = open_peer(kind, base / kind, dim, create=False)
        result[kind]["open_ms"] = sw.seconds * 1000
        systems[kind] = (lambda p: lambda q: [r["id"] for r in p.search(real.embed([q])[0], K)])(handles[kind])
    # The embedding alone, timed in the same rotation: the part of every row above that is the model's.
    systems["embed-only"] = lambda q: (real.embed([q]), [])[1]
    try:
        warm = warm_retrieval(systems, data["queries"], data["warmup"], exact)
        # learnmem on its own: the peers' BLAS threads keep spinning after their searches and
        # slow whatever runs next in the shared rotation (the embedding most of all).
        alone = warm_retrieval({"learnmem": systems["learnmem"]}, data["queries"], data["warmup"], exact)["learnmem"]
        warm["learnmem"] |= {"alone_p50_ms": alone["p50_ms"], "alone_p95_ms": alone["p95_ms"]}
    finally:
        lm.close()
        for handle in handles.values():
            handle.close()
    for name, numbers in warm.items():
        result.setdefault(name, {}).update(numbers)
    log(f"n={n}: warm retrieval, search only (query vector given)")
    for name, numbers in search_only(lm_path, id_to_index, base, active, real, texts, vectors, data, exact).items():
        result[name].update({f"search_{key}": value for key, value in numbers.items()})

    # -- size on disk, everything closed
    result["learnmem"]["disk_bytes"] = _learnmem_bytes(lm_path)
    for kind in active:
        result[kind]["disk_bytes"] = dir_bytes(base / kind)
    for name in ["learnmem"] + active:
        result[name]["bytes_per_10k"] = result[name]["disk_bytes"] * 10_000 / n

    # -- cold processes
    if s.cold_runs:
        log(f"n={n}: cold processes ({s.cold_runs} per system)")
        paths = {"learnmem": lm_path} | {kind: base / kind for kind in active}
        for name, numbers in cold_retrieval(paths, data["queries"], s.cold_runs).items():
            result[name]["cold"] = numbers
    if not s.keep:
        shutil.rmtree(base, ignore_errors=True)
    for numbers in result.values():
        numbers["n"] = n
    return result


# ------------------------------------------------------------------ main


def prepare(real, s: Settings) -> dict:
    """Texts, records, vectors and queries for the largest size, and the exact-search oracle inputs."""
    n_max = max(max(s.sizes), corpus_mod.N_BASE)
    corpus = corpus_mod.memories(n_max)
    texts = corpus.texts
    log(f"corpus: {n_max} memories; embedding the {corpus_mod.N_BASE} base texts (cached under bench/out/)")
    base_vectors, hit = cached_embed(real, texts[: corpus_mod.N_BASE], "base", batch_size=32)
    log(f"base vectors {'from cache' if hit else 'embedded'}")
    queries = corpus_mod.queries(s.queries)
    warmup = corpus_mod.queries(s.warmup, offset=s.queries)
    query_vectors, _ = cached_embed(real, [q.text for q in queries], "queries", batch_size=1)
    return {
        "texts": texts, "records": corpus.records, "vectors": derive(base_vectors, corpus.parents, corpus_mod.N_BASE),
        "queries": queries, "warmup": warmup, "query_vectors": query_vectors,
    }


def main(argv: list[str] | None = None) -> int:
    s, out = parse_args(argv)
    run_start = time.perf_counter()
    args = sys.argv[1:] if argv is None else argv
    command = " ".join(["python -m bench", *args])
    machine = machine_info(command)
    from learnmem.embedding.embed import load_embedder

    log(f"settings: {s}")
    real = load_embedder()
    data = prepare(real, s)
    work = OUT_DIR / "work"
    results: dict = {"machine": machine, "settings": vars(s) | {"sizes": list(s.sizes)}, "model": real.name}

    log("embedding throughput")
    results["embedding"] = measure_embedding(real, s, [q.text for q in data["warmup"] + data["queries"]][:50])
    log(f"learnmem store with the real embedder ({s.real_store} memories)")
    results["real_store"] = measure_real_store(real, data["records"][: s.real_store], work, s.batch)

    results["sizes"] = {}
    previous: dict = {}
    for n in s.sizes:
        started = time.perf_counter()
        results["sizes"][n] = run_size(n, s, data, real, work, previous)
        for kind in s.peers:
            if "store_per_s" in results["sizes"][n][kind]:
                previous[kind] = {"n": n, "store_per_s": results["sizes"][n][kind]["store_per_s"]}
        log(f"n={n}: done in {time.perf_counter() - started:.0f} s")
    results["machine"]["load average at end"] = load_average()
    results["machine"]["run time"] = f"{time.perf_counter() - run_start:.0f} s"

    markdown = report.render(results)
    print(markdown)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    (OUT_DIR / f"results-{stamp}.json").write_text(json.dumps(results, indent=2, default=str))
    if out is not None:
        out.write_text(markdown)
        log(f"wrote {out}")
    return 0
