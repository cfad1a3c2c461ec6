"""Retrieval-quality sweep: how should learnmem fuse its vector and BM25 rankings?

    python -m bench.quality.evaluate [--depth 50] [--bootstrap 2000] [--out bench/out/quality] > report.md

Parameters are chosen on conversational + coding_agent; first_person is a
third, held-out style used only to check the choice.

For each dataset (bench/quality/*.jsonl) every memory is embedded with the
library's embedder (all-MiniLM-L6-v2, cached under bench/out/quality/) and
tokenised with learnmem.search.keywords.terms into learnmem.search.hybrid.Bm25. Each query
is scored against the whole store, and the fusion methods below rank the
union of the top-`depth` rows of each ranking, exactly as
learnmem.search.hybrid.hybrid_rank does (its rrf k=60 and convex alpha=0.7 are
cross-checked against the library at start-up).

Metrics (binary relevance, 1-3 relevant memories per query, mean over queries):
  R@k     |relevant in top k| / min(k, |relevant|)   (R@1 = hit rate of rank 1)
  MRR@10  1 / rank of the first relevant memory (0 if not in the top 10)
  nDCG@10 standard binary nDCG with the ideal DCG of min(10, |relevant|) hits

Fusion methods (s = cosine similarity, b = BM25 score, over candidates C =
top-depth by s  UNION  top-depth by b among b > 0; rows outside C never rank):
  vector            s
  bm25              b (only rows with b > 0)
  rrf(k)            1/(k + rank_s) + 1/(k + rank_b)      (rank 1-based, equal scores
                    share the best rank as in the library; a term is 0 when the
                    row is not in that ranking's top-depth)
  rrfseq(k)         rrf with plain 1,2,3... ranks (ties broken by row order, the
                    library's behaviour before shared ranks)
  wrrf(k, w)        2*(w/(k + rank_s) + (1-w)/(k + rank_b))   (w=0.5 is rrf)
  convex(a)         a*s + (1-a)*b/max_C(b)                (hybrid_rank's "convex")
  minmax(a)         a*mm(s) + (1-a)*mm(b), mm = min-max over C
  sat(a, c)         a*s + (1-a)*b/(b + c)                 (saturating BM25)
  qnorm(a)          a*s + (1-a)*min(1, b/B_q), B_q = sum over distinct query terms
                    present in the index of idf(t) (the BM25 score of a
                    document of average length that contains each term once)
  dbsf(a)           a*z(s) + (1-a)*z(b), z(x) = (x - (mu-3sd)) / (6sd) with mu, sd
                    over that ranking's own top-depth list (Qdrant's DBSF), 0 for
                    rows outside it
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa

from learnmem.search import hybrid as search
from learnmem.embedding.embed import load_embedder
from learnmem.search.keywords import terms
from learnmem.search.hybrid import BM25_K1, Bm25

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DATASETS = ("conversational", "coding_agent")  # parameters are chosen on these
HELDOUT = "first_person"  # a third style, used only to test the choice
KS = (1, 5, 10)


# ------------------------------------------------------------------ data


@dataclass
class Dataset:
    name: str
    ids: list[str]
    texts: list[str]
    queries: list[dict]
    vectors: np.ndarray = field(repr=False, default=None)
    query_vectors: np.ndarray = field(repr=False, default=None)
    bm25: Bm25 = field(repr=False, default=None)
    query_terms: list[list[str]] = field(repr=False, default=None)
    doc_freq: dict[str, int] = field(repr=False, default=None)


def load(name: str) -> Dataset:
    ids, texts, queries = [], [], []
    for line in (HERE / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["type"] == "memory":
            ids.append(row["id"])
            texts.append(row["content"])
        else:
            queries.append(row)
    return Dataset(name, ids, texts, queries)


def merged(parts: list[Dataset], name: str) -> Dataset:
    """One store holding every dataset's memories; every dataset's queries."""
    return Dataset(
        name,
        [i for d in parts for i in d.ids],
        [t for d in parts for t in d.texts],
        [q for d in parts for q in d.queries],
    )


def embed_cached(embedder, texts: list[str], cache_dir: Path) -> np.ndarray:
    """Embed texts, reusing bench/out/quality/emb-<hash>.npy when the texts are unchanged."""
    digest = hashlib.sha256(("\x00".join([embedder.name, *texts])).encode()).hexdigest()[:16]
    path = cache_dir / f"emb-{digest}.npy"
    if path.exists():
        return np.load(path)
    vectors = embedder.embed(texts)
    cache_dir.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def prepare(ds: Dataset, embedder, cache_dir: Path) -> Dataset:
    ds.vectors = embed_cached(embedder, ds.texts, cache_dir)
    ds.query_vectors = embed_cached(embedder, [q["query"] for q in ds.queries], cache_dir)
    term_lists = [terms(t) for t in ds.texts]
    ds.bm25 = Bm25(pa.array(term_lists, pa.list_(pa.string())))
    ds.doc_freq = Counter(t for tl in term_lists for t in set(tl))
    ds.query_terms = [terms(q["query"]) for q in ds.queries]
    return ds


# ------------------------------------------------------------------ fusion


def _top(values: np.ndarray, mask: np.ndarray, count: int) -> np.ndarray:
    rows = np.flatnonzero(mask)
    if len(rows) > count:
        rows = rows[np.argpartition(-values[rows], count - 1)[:count]]
    return rows[np.lexsort((rows, -values[rows]))]


def _shared_ranks(descending: np.ndarray) -> np.ndarray:
    """1-based ranks of values sorted best first, equal values sharing the best rank (as the library does)."""
    return np.searchsorted(-descending, -descending, side="left") + 1


def query_bm25_norm(doc_freq: dict[str, int], docs: int, query_terms: list[str]) -> float:
    """Sum of BM25 idf over the distinct query terms present in the index (see qnorm)."""
    total = 0.0
    for term in set(query_terms):
        df = doc_freq.get(term, 0)
        if df:
            total += float(np.log1p((docs - df + 0.5) / (df + 0.5)))
    return total


def _dbsf(values: np.ndarray, ranking: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(n)
    if len(ranking) == 0:
        return out
    v = values[ranking].astype(np.float64)
    mu, sd = v.mean(), v.std()
    if sd == 0:
        out[ranking] = 0.5
        return out
    out[ranking] = (v - (mu - 3 * sd)) / (6 * sd)
    return out


def fuse(method: tuple, sim: np.ndarray, kw: np.ndarray, qnorm: float, depth: int, limit: int = 10) -> np.ndarray:
    """Row indices of the top `limit` rows for one query under `method` (name, *params)."""
    kind, *p = method
    n = len(sim)
    everyone = np.ones(n, dtype=bool)
    by_vec = _top(sim, everyone, max(depth, limit)) if kind != "bm25" else np.array([], dtype=np.int64)
    by_kw = _top(kw, kw > 0, max(depth, limit)) if kind != "vector" else np.array([], dtype=np.int64)
    chosen = np.union1d(by_vec, by_kw).astype(np.int64)
    if kind == "vector":
        score = sim[chosen]
    elif kind == "bm25":
        score = kw[chosen]
    elif kind in ("rrf", "wrrf", "rrfseq"):
        k = p[0]
        w = p[1] if kind == "wrrf" else 0.5
        ranks = _shared_ranks if kind != "rrfseq" else (lambda v: np.arange(1, len(v) + 1))
        fused = np.zeros(n)
        fused[by_vec] += 2 * w / (k + ranks(sim[by_vec]))
        fused[by_kw] += 2 * (1 - w) / (k + ranks(kw[by_kw]))
        score = fused[chosen]
    else:
        a = p[0]
        s, b = sim[chosen].astype(np.float64), kw[chosen].astype(np.float64)
        if kind == "convex":
            best = float(kw[by_kw[0]]) if len(by_kw) else 1.0
            score = a * s + (1 - a) * b / best
        elif kind == "minmax":
            mm = lambda x: (x - x.min()) / (x.max() - x.min()) if x.max() > x.min() else np.zeros_like(x)  # noqa: E731
            score = a * mm(s) + (1 - a) * mm(b)
        elif kind == "sat":
            score = a * s + (1 - a) * b / (b + p[1])
        elif kind == "qnorm":
            score = a * s + (1 - a) * (np.minimum(1.0, b / qnorm) if qnorm > 0 else 0.0)
        elif kind == "dbsf":
            score = a * _dbsf(sim, by_vec, n)[chosen] + (1 - a) * _dbsf(kw, by_kw, n)[chosen]
        else:
            raise ValueError(kind)
    order = np.lexsort((chosen, -score))[:limit]
    return chosen[order]


def label(method: tuple) -> str:
    kind, *p = method
    if kind in ("vector", "bm25"):
        return kind
    if kind == "rrf":
        return f"rrf k={p[0]}"
    if kind == "rrfseq":
        return f"rrfseq k={p[0]}"
    if kind == "wrrf":
        return f"wrrf k={p[0]} w_vec={p[1]}"
    if kind == "sat":
        return f"sat a={p[0]} c={p[1]}"
    return f"{kind} a={p[0]}"


ALPHAS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def methods() -> list[tuple]:
    grid: list[tuple] = [("vector",), ("bm25",)]
    grid += [("rrf", k) for k in (10, 30, 60)]
    grid += [("rrfseq", k) for k in (10, 60)]
    grid += [("wrrf", k, w) for k in (10, 30, 60) for w in (0.6, 0.7)]
    grid += [("convex", a) for a in (*ALPHAS, 0.85)]
    grid += [("minmax", a) for a in ALPHAS]
    grid += [("sat", a, c) for a in (0.5, 0.6, 0.7, 0.8) for c in (1.0, 3.0, 6.0)]
    grid += [("qnorm", a) for a in (*ALPHAS, 0.85)]
    grid += [("dbsf", a) for a in ALPHAS]
    return grid


# ------------------------------------------------------------------ metrics


def per_query_metrics(ranked_ids: list[str], relevant: set[str]) -> dict[str, float]:
    hits = [i in relevant for i in ranked_ids[:10]]
    out = {f"R@{k}": sum(hits[:k]) / min(k, len(relevant)) for k in KS}
    first = next((r for r, h in enumerate(hits, 1) if h), None)
    out["MRR@10"] = 1.0 / first if first else 0.0
    dcg = sum(1.0 / np.log2(r + 1) for r, h in enumerate(hits, 1) if h)
    ideal = sum(1.0 / np.log2(r + 1) for r in range(1, min(10, len(relevant)) + 1))
    out["nDCG@10"] = dcg / ideal
    return out


METRICS = ("R@1", "R@5", "R@10", "MRR@10", "nDCG@10")


def evaluate(ds: Dataset, grid: list[tuple], depth: int) -> dict[tuple, list[dict]]:
    """method -> per-query metric dicts (query order)."""
    results: dict[tuple, list[dict]] = {m: [] for m in grid}
    for qi, query in enumerate(ds.queries):
        sim = ds.vectors @ ds.query_vectors[qi]
        kw = ds.bm25.scores(ds.query_terms[qi])
        qn = query_bm25_norm(ds.doc_freq, len(ds.ids), ds.query_terms[qi])
        relevant = set(query["relevant"])
        for m in grid:
            rows = fuse(m, sim, kw, qn, depth)
            results[m].append(per_query_metrics([ds.ids[r] for r in rows], relevant))
    return results


def mean(rows: list[dict], metric: str) -> float:
    return float(np.mean([r[metric] for r in rows])) if rows else float("nan")


def cross_check_library(ds: Dataset, depth: int) -> int:
    """Compare fuse() with learnmem.search.hybrid.hybrid_rank (its default qnorm, rrf k=60, convex a=0.7); return mismatches."""
    if search.RRF_K != 60 or search.CANDIDATES != depth:
        return -1
    n = len(ds.ids)
    imp, rec = np.zeros(n), -np.arange(n, dtype=np.float64)
    mismatches = 0
    for qi in range(len(ds.queries)):
        sim = ds.vectors @ ds.query_vectors[qi]
        kw = ds.bm25.scores(ds.query_terms[qi])
        qnorm = ds.bm25.query_norm(ds.query_terms[qi])
        default = (("qnorm", search.QNORM_ALPHA), "qnorm", search.QNORM_ALPHA)
        for mine, fusion, alpha in (default, (("rrf", 60), "rrf", 0.7), (("convex", 0.7), "convex", 0.7)):
            lib = search.hybrid_rank(sim, ds.bm25, ds.query_terms[qi],
                                     np.ones(n, dtype=bool), 10, imp, rec, fusion=fusion, alpha=alpha)
            ours = fuse(mine, sim, kw, qnorm, depth)
            mismatches += int(not np.array_equal(np.asarray(lib.rows)[:10], ours))
    return mismatches


# ------------------------------------------------------------------ statistics


def paired_bootstrap(a: list[dict], b: list[dict], metric: str, rounds: int, seed: int = 0) -> tuple[float, float, float]:
    """Mean of (a - b) and its 95% bootstrap interval over queries."""
    diff = np.array([x[metric] - y[metric] for x, y in zip(a, b)])
    rng = np.random.default_rng(seed)
    samples = rng.choice(diff, size=(rounds, len(diff)), replace=True).mean(axis=1)
    return float(diff.mean()), float(np.quantile(samples, 0.025)), float(np.quantile(samples, 0.975))


# ------------------------------------------------------------------ report


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=search.CANDIDATES, help="candidates per ranking (default: library's)")
    ap.add_argument("--bootstrap", type=int, default=2000, help="paired bootstrap rounds")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "quality")
    ap.add_argument("--sort", default="nDCG@10", choices=METRICS)
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    embedder = load_embedder()
    parts = [prepare(load(n), embedder, args.out) for n in DATASETS]
    heldout = prepare(load(HELDOUT), embedder, args.out)
    mixed = prepare(merged(parts, "mixed"), embedder, args.out)
    grid = methods()
    print(f"# learnmem fusion sweep\n\nmodel {embedder.name}; depth {args.depth}; python {platform.python_version()}; "
          f"{platform.platform()}; BM25 k1={BM25_K1} b={search.BM25_B}\n")
    for ds in parts:
        print(f"- {ds.name}: {len(ds.ids)} memories, {len(ds.queries)} queries")
    print(f"- {HELDOUT} (held out, never used for choosing): {len(heldout.ids)} memories, {len(heldout.queries)} queries")
    print(f"- mixed (both stores as one, all queries; robustness check): {len(mixed.ids)} memories\n")
    for ds in parts:
        bad = cross_check_library(ds, args.depth)
        print(f"cross-check vs learnmem.search.hybrid.hybrid_rank on {ds.name}: "
              + ("skipped (library constants differ)" if bad < 0 else f"{bad} mismatching top-10 lists"))

    res = {ds.name: evaluate(ds, grid, args.depth) for ds in [*parts, heldout, mixed]}
    key = args.sort
    avg = {m: np.mean([mean(res[d][m], key) for d in DATASETS]) for m in grid}
    order = sorted(grid, key=lambda m: -avg[m])
    # Selection rule, fixed before looking at the held-out set: best worst case over the tuning datasets.
    worst_case = {m: min(mean(res[d][m], key) for d in DATASETS) for m in grid}
    chosen = max(grid, key=lambda m: worst_case[m])
    print(f"\nSelection rule (maximin {key} over {', '.join(DATASETS)}): **{label(chosen)}** "
          f"(worst case {worst_case[chosen]:.3f}; best average is {label(order[0])} at {avg[order[0]]:.3f})")

    # main table
    header = (["method"] + [f"{d[:4]} {x}" for d in DATASETS for x in METRICS] + [f"avg {x}" for x in METRICS]
              + [f"mixed {key}", f"held-out {key}"])
    rows = []
    for m in order:
        cells = [label(m)]
        for d in DATASETS:
            cells += [f"{mean(res[d][m], x):.3f}" for x in METRICS]
        cells += [f"{np.mean([mean(res[d][m], x) for d in DATASETS]):.3f}" for x in METRICS]
        cells += [f"{mean(res['mixed'][m], key):.3f}", f"{mean(res[HELDOUT][m], key):.3f}"]
        rows.append(cells)
    print(f"\n## All methods, sorted by average {key} over the two datasets\n")
    print(table(header, rows))

    # compact: best of each family
    families = defaultdict(list)
    for m in grid:
        families[m[0]].append(m)
    print(f"\n## Best setting per family (by average {key})\n")
    frows = []
    for fam, ms in families.items():
        best = max(ms, key=lambda m: avg[m])
        frows.append([label(best)] + [f"{mean(res[d][best], key):.3f}" for d in DATASETS] + [f"{avg[best]:.3f}",
                     f"{mean(res['mixed'][best], key):.3f}"] + [f"{np.mean([mean(res[d][best], x) for d in DATASETS]):.3f}" for x in ("R@1", "R@5", "MRR@10")])
    frows.sort(key=lambda r: -float(r[3]))
    print(table(["best of family", f"conv {key}", f"code {key}", f"avg {key}", f"mixed {key}", "avg R@1", "avg R@5", "avg MRR@10"], frows))

    # cross-validation: choose on one dataset, report on the other
    print(f"\n## Cross-validation (choose by {key} on one dataset, report on the other)\n")
    cvrows = []
    for fam in [None, *families]:
        pool = grid if fam is None else families[fam]
        if len(pool) < 2:
            continue
        for tune, test in ((DATASETS[0], DATASETS[1]), (DATASETS[1], DATASETS[0])):
            best = max(pool, key=lambda m: mean(res[tune][m], key))
            oracle = max(pool, key=lambda m: mean(res[test][m], key))
            cvrows.append([fam or "ALL", tune, label(best), f"{mean(res[tune][best], key):.3f}", test,
                           f"{mean(res[test][best], key):.3f}", f"{mean(res[test][oracle], key):.3f} ({label(oracle)})"])
    print(table(["family", "tuned on", "chosen", "score there", "tested on", "score there", "best possible there"], cvrows))

    # worst-case (min over datasets) ranking: robustness
    print(f"\n## Top 10 by the worse of the two datasets ({key})\n")
    worst = sorted(grid, key=lambda m: -worst_case[m])[:10]
    print(table(["method", "min", "conv", "code", "mixed"],
                [[label(m), f"{min(mean(res[d][m], key) for d in DATASETS):.3f}"] + [f"{mean(res[d][m], key):.3f}" for d in (*DATASETS, 'mixed')] for m in worst]))

    # per-kind table for the 3 best + the references
    top3 = list(dict.fromkeys([chosen, *order]))[:3]
    refs = [m for m in (("rrf", 60), ("convex", 0.7), ("vector",), ("bm25",)) if m not in top3]
    shown = top3 + refs
    print(f"\n## Per query kind ({key}; n = queries of that kind): the choice, the next best by average, then references\n")
    for d in (*DATASETS, HELDOUT):
        qs = next(p for p in (*parts, heldout) if p.name == d).queries
        kinds = sorted({q["kind"] for q in qs})
        krows = []
        for k in kinds:
            idx = [i for i, q in enumerate(qs) if q["kind"] == k]
            krows.append([f"{k} (n={len(idx)})"] + [f"{np.mean([res[d][m][i][key] for i in idx]):.3f}" for m in shown])
        print(f"### {d}\n")
        print(table(["kind"] + [label(m) for m in shown], krows) + "\n")

    # held-out check: what was chosen on the two tuning sets, measured on the third style
    print(f"\n## Held-out dataset ({HELDOUT}): the choice, the 5 best by tuning-set average, then references\n")
    shown_h = list(dict.fromkeys([chosen, *order[:5], ("rrf", 60), ("convex", 0.7), ("convex", 0.9), ("vector",), ("bm25",)]))
    print(table(["method", "tuning avg " + key] + [f"held-out {x}" for x in METRICS],
                [[label(m), f"{avg[m]:.3f}"] + [f"{mean(res[HELDOUT][m], x):.3f}" for x in METRICS] for m in shown_h]))
    best_h = max(grid, key=lambda m: mean(res[HELDOUT][m], key))
    print(f"\n(best possible on {HELDOUT}: {label(best_h)} {mean(res[HELDOUT][best_h], key):.3f})")

    # candidate depth
    print(f"\n## Candidate depth per ranking ({key}; tuning avg / held-out)\n")
    depths = (10, 20, 50, 100, 200)
    dm = [chosen, order[0], ("convex", 0.9), ("convex", 0.7), ("rrf", 60), ("rrf", 10)]
    dm = list(dict.fromkeys(dm))
    drows = []
    for m in dm:
        cells = [label(m)]
        for dep in depths:
            per = {ds.name: evaluate(ds, [m], dep)[m] for ds in (*parts, heldout)}
            cells.append(f"{np.mean([mean(per[d], key) for d in DATASETS]):.3f} / {mean(per[HELDOUT], key):.3f}")
        drows.append(cells)
    print(table(["method"] + [f"depth {d}" for d in depths], drows))

    # paired bootstrap: best vs references
    print(f"## Paired bootstrap, {args.bootstrap} rounds: Δ{key} of the top method vs references (mean [95% CI])\n")
    brows = []
    for m in top3:
        for ref in (("rrf", 60), ("convex", 0.7), ("vector",)):
            if ref == m:
                continue
            cells = [label(m), label(ref)]
            for d in (*DATASETS, HELDOUT, "mixed"):
                mu, lo, hi = paired_bootstrap(res[d][m], res[d][ref], key, args.bootstrap)
                cells.append(f"{mu:+.3f} [{lo:+.3f}, {hi:+.3f}]")
            brows.append(cells)
    print(table(["method", "vs", *DATASETS, HELDOUT, "mixed"], brows))

    args.out.mkdir(parents=True, exist_ok=True)
    dump = {"chosen": label(chosen), **{d: {label(m): {x: mean(res[d][m], x) for x in METRICS} for m in grid} for d in res}}
    (args.out / "fusion_sweep.json").write_text(json.dumps(dump, indent=1))
    print(f"\n(wall time {time.perf_counter() - t0:.1f} s; raw numbers in {args.out / 'fusion_sweep.json'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
