"""Learning benchmarks: how well clustering recovers the planted themes, whether the value ritual works,
and how fast clustering and values are.

    python -m bench.learning [--out bench/learning/RESULTS.md] [--quick]

1. Quality: tests/data/experiences.jsonl (planted themes, bench/learning/themes.py) imported with the real
   model; per axis, a grid of the parameters of the axis's method (linkage: the cut distance and the terms'
   weight; HDBSCAN: principal components kept, min_cluster_size, min_samples) scored against the themes:
   adjusted Rand index (noise as one more label), purity of the clustered points, and coverage (share of
   themed experiences that land in a cluster). Like the library (clustering.member_labels), every experience
   is clustered and the cold ones (cold storage: learnmem.learning.terms.cold_tiers, LEARNMEM_COLD_TIER) are
   then taken out of their clusters; the warm ones are scored. A table compares the defaults with no cold
   storage and with the warm ones clustered alone.
2. The value ritual with the library's defaults: for every theme and axis, the theme's cluster (the one
   holding most of its experiences) must accept the theme's faithful summary (themes.VALUES) and refuse
   the other themes' summaries and unrelated statements (themes.UNRELATED).
3. Speed: get_clusters on 1,000 and 10,000 experiences (the bench.ghap corpus), validate_value and
   list_values, warm.
4. Every corpus (bench/learning/corpora.py): the original corpus and the ones written blind, clusters and
   the ritual per axis, with the original method, the method before issue 24 and the library's, in this run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

import learnmem
from bench.learning import corpora, themes
from learnmem.learning import terms
from learnmem.learning import clusters as clustering
from learnmem.embedding.embed import load_embedder
from learnmem.storage.vectors import to_matrix
from bench.measure import git_commit

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "bench" / "out" / "learning"
GHAP_CORPUS = ROOT / "bench" / "out" / "ghap" / "corpus"
AXES = ("full", "strategy", "surprise", "root_cause")
GRID_VARIANCE = (0.3, 0.4, 0.5, 0.65, 1.0)  # share of the variance the projection keeps; 1.0: none
GRID_SIZES = ((3, 1), (4, 2), (5, 1), (5, 3), (8, 1), (8, 3))
GRID_DISTANCES = (0.6, 0.65, 0.7, 0.75, 0.8)  # where average linkage stops merging
GRID_TERM_WEIGHTS = (0.0, 1.0, 1.5, 2.0)  # 0: the reduced embedding alone


def grid(base: clustering.Parameters) -> list[tuple[str, str, clustering.Parameters]]:
    """(row, column, parameters) of the axis's method's grid, with the defaults in it."""
    if base.method == "linkage":
        cells = [(f"{d}", f"{w}", replace(base, distance=d, term_weight=w))
                 for d in GRID_DISTANCES for w in GRID_TERM_WEIGHTS]
    else:
        cells = [(f"{v}", f"{a}/{b}", replace(base, explained_variance=v, min_cluster_size=a, min_samples=b))
                 for v in GRID_VARIANCE for a, b in GRID_SIZES]
    if base not in [chosen for _, _, chosen in cells]:  # defaults overridden by the environment
        cells.append(("default", "default", base))
    return cells


def log(message: str) -> None:
    print(f"[bench.learning {datetime.now():%H:%M:%S}] {message}", file=sys.stderr, flush=True)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def corpus_file(embedder) -> Path:
    path = OUT / "corpus.duckdb"
    for stale in (path, Path(str(path) + ".wal")):
        stale.unlink(missing_ok=True)
    OUT.mkdir(parents=True, exist_ok=True)
    lm = learnmem.open(path, embedder=embedder)
    result = lm.import_ghap(themes.CORPUS)
    assert not result.errors, result.errors
    return path


def scores(labels_true: list[str], labels: list[int]) -> dict:
    from sklearn.metrics import adjusted_rand_score

    themed = [i for i, t in enumerate(labels_true) if t != "noise"]
    return {"n": len(labels), "clusters": len(set(labels) - {-1}), "noise": labels.count(-1),
            "ari": adjusted_rand_score(labels_true, labels), "purity": themes.purity(labels, labels_true),
            "coverage": sum(1 for i in themed if labels[i] >= 0) / max(len(themed), 1)}


def cold_comparison(lm, truth: dict[str, str]) -> dict:
    """The defaults per axis: every experience clustered and scored (no cold storage); every one clustered,
    then the cold ones taken out of their clusters (the library: cold ones shape the clusters only); the warm
    ones alone clustered (an alternative the library measured and left: it thins the small themes)."""
    out: dict = {}
    for axis in AXES:
        base = clustering.parameters(axis)
        data = corpora.axis_data(lm, truth, axis)
        warm, terms_of = data.warm, data.term_lists
        everything = clustering.cluster_labels(data.vectors, base, terms_of)[0]
        density = clustering.member_labels(data.vectors, warm, base, terms_of)[0][warm]
        alone = clustering.cluster_labels(data.vectors[warm], base, [t for t, w in zip(terms_of, warm) if w])[0]
        warm_truth = [t for t, w in zip(data.truth, warm) if w]
        out[axis] = {"cold": int((~warm).sum()), "all": scores(data.truth, everything.tolist()),
                     "density_only": scores(warm_truth, density.tolist()), "warm": scores(warm_truth, alone.tolist())}
        log(f"cold {axis}: {out[axis]['cold']} cold; ari all {out[axis]['all']['ari']:.3f}, cold as density only "
            f"(library) {out[axis]['density_only']['ari']:.3f}, warm alone {out[axis]['warm']['ari']:.3f}")
    return out


def quality(lm, truth: dict[str, str], strategies: dict[str, str]) -> dict:
    from sklearn.metrics import adjusted_rand_score

    out: dict = {}
    for axis in AXES:
        base = clustering.parameters(axis)
        data = corpora.axis_data(lm, truth, axis)
        ids = [i for i, w in zip(data.ids, data.warm) if w]  # the warm ones are scored: cold ones are never members
        labels_true = [t for t, w in zip(data.truth, data.warm) if w]
        themed = [i for i, t in enumerate(labels_true) if t != "noise"]
        rows = []
        for row, column, chosen in grid(base):
            labels, dims = clustering.member_labels(data.vectors, data.warm, chosen, data.term_lists)
            labels = labels[data.warm].tolist()
            rows.append({
                "row": row, "column": column, "dims": dims,
                "clusters": len(set(labels) - {-1}), "noise": labels.count(-1),
                "ari": adjusted_rand_score(labels_true, labels),
                "ari_strategy": adjusted_rand_score([strategies[i] for i in ids], labels),
                "purity": themes.purity(labels, labels_true),
                "coverage": sum(1 for i in themed if labels[i] >= 0) / max(len(themed), 1),
                "default": chosen == base,
            })
        out[axis] = {"n": len(ids), "themed": len(themed), "cold": int((~data.warm).sum()), "method": base.method,
                     "grid": rows}
        best = max(rows, key=lambda r: r["ari"])
        chosen_row = next(r for r in rows if r["default"])
        log(f"{axis} ({base.method}): n={len(ids)} default ari {chosen_row['ari']:.3f} purity "
            f"{chosen_row['purity']:.3f}; best ari {best['ari']:.3f} at {best['row']}, {best['column']}")
    return out


def ritual(lm, truth: dict[str, str]) -> dict:
    """The value ritual with the library's defaults, per axis and theme."""
    out: dict = {}
    for axis in ("full", "surprise", "root_cause"):
        run = lm.get_clusters(axis)
        members = {c.cluster_id: {m.ghap_id for m in lm.get_cluster_members(c.cluster_id, limit=100)}
                   for c in run.clusters}
        narrative = narrative_rule(lm, axis)
        rows = []
        for theme, value in themes.VALUES.items():
            counts = {cid: sum(1 for g in ids if truth.get(g) == theme) for cid, ids in members.items()}
            cluster_id = max(counts, key=counts.get) if counts and max(counts.values()) > 0 else None
            if cluster_id is None:
                rows.append({"theme": theme, "cluster_id": None})
                continue
            own = lm.validate_value(value, cluster_id)
            second_text = themes.SECOND_DRAFTS.get(axis, {}).get(theme)
            second = lm.validate_value(second_text, cluster_id) if second_text and not own.valid else None
            others = [lm.validate_value(v, cluster_id) for t, v in themes.VALUES.items() if t != theme]
            unrelated = [lm.validate_value(v, cluster_id) for v in themes.UNRELATED]
            other_texts = [v for t, v in themes.VALUES.items() if t != theme]
            rows.append({
                "theme": theme, "cluster_id": cluster_id, "cluster_size": len(members[cluster_id]),
                "theme_share": counts[cluster_id] / len(members[cluster_id]),
                "faithful_valid": own.valid, "faithful_distance": own.centroid_distance,
                "threshold": own.threshold_distance, "faithful_nearest": own.nearest_cluster_id,
                "faithful_reason": own.reason,
                "second_draft_valid": None if second is None else second.valid,
                "second_draft_distance": None if second is None else second.centroid_distance,
                "other_themes_refused": sum(not c.valid for c in others), "other_themes": len(others),
                "unrelated_refused": sum(not c.valid for c in unrelated), "unrelated": len(unrelated),
                "narrative_faithful_valid": narrative(value, cluster_id),
                "narrative_other_refused": sum(not narrative(v, cluster_id) for v in other_texts),
                "narrative_unrelated_refused": sum(not narrative(v, cluster_id) for v in themes.UNRELATED),
            })
        out[axis] = rows
        found = [r for r in rows if r["cluster_id"]]
        log(f"ritual {axis}: faithful {sum(r['faithful_valid'] for r in found)}/{len(found)}, after second drafts "
            f"{sum(bool(r['faithful_valid'] or r['second_draft_valid']) for r in found)}, other themes refused "
            f"{sum(r['other_themes_refused'] for r in found)}/{sum(r['other_themes'] for r in found)}, unrelated "
            f"refused {sum(r['unrelated_refused'] for r in found)}/{sum(r['unrelated'] for r in found)}")
    return out


def narrative_rule(lm, axis: str):
    """The formula applied to the axis embeddings themselves, for comparison: valid when the cluster is the
    text's nearest and its distance to the cluster's centroid is within mean + 1 sd of the members' distances."""
    rows = lm.sql("SELECT cluster_id, centroid, threshold_distance FROM clusters WHERE run_id = "
                  "(SELECT run_id FROM latest_cluster_runs WHERE axis = ?) ORDER BY cluster_id", [axis]).fetchall()
    ids = [row[0] for row in rows]
    centroids = np.asarray([row[1] for row in rows], dtype=np.float32)
    thresholds = {row[0]: row[2] for row in rows}

    def valid(text: str, cluster_id: str) -> bool:
        similarity = centroids @ lm.embedder.embed([text])[0]
        return ids[int(np.argmax(similarity))] == cluster_id and \
            1.0 - float(similarity[ids.index(cluster_id)]) <= thresholds[cluster_id]
    return valid


def ghap_corpus(size: int) -> Path | None:
    found = sorted(GHAP_CORPUS.glob(f"n{size}-*/ghap.duckdb"))
    return found[0] if found else None


def speed(embedder, quick: bool) -> dict:
    out: dict = {}
    for size in (1000,) if quick else (1000, 10000):
        source = ghap_corpus(size)
        if source is None:
            log(f"no bench.ghap corpus of {size} entries (run `python -m bench.ghap` once): skipped")
            continue
        work = OUT / f"speed-{size}.duckdb"
        shutil.copy(source, work)
        Path(str(work) + ".wal").unlink(missing_ok=True)
        lm = learnmem.open(work, embedder=embedder)
        lm.get_clusters("surprise")  # imports hdbscan/sklearn and migrates the copy: not timed
        times = {}
        for axis in AXES:
            started = time.perf_counter()
            run = lm.get_clusters(axis)
            times[axis] = {"s": time.perf_counter() - started, "n": run.experience_count, "clusters": run.count,
                           "noise": run.noise_count, "cold": run.cold_count}
        out[size] = {"axes": times, "all_s": sum(t["s"] for t in times.values())}
        log(f"cluster {size}: " + ", ".join(f"{a} {t['s']:.2f} s ({t['n']})" for a, t in times.items()))
        if size == 1000:
            out["values"] = value_speed(lm)
    return out


def value_speed(lm) -> dict:
    run = lm.get_clusters("surprise")
    clusters = run.clusters[:20]
    texts = []
    for cluster in clusters:
        central = lm.get_cluster_members(cluster.cluster_id, limit=1)[0]
        lm.store_value(central.surprise, cluster.cluster_id, "surprise")
        texts.append((central.surprise, cluster.cluster_id))
    # Warm: each cluster's value forms are embedded once (its first validation) before the timed calls.
    cold = []
    for text, cluster_id in texts:
        started = time.perf_counter()
        lm.validate_value(text + " (first)", cluster_id)
        cold.append(time.perf_counter() - started)
    validate, listing = [], []
    for i in range(200):
        text, cluster_id = texts[i % len(texts)]
        started = time.perf_counter()
        lm.validate_value(text + f" (case {i})", cluster_id)
        validate.append(time.perf_counter() - started)
    time.sleep(0.5)  # ONNX Runtime's threads spin for a moment after a run: list on a quiet CPU, as a caller would
    for i in range(200):
        started = time.perf_counter()
        lm.list_values(limit=20)
        listing.append(time.perf_counter() - started)
    # The same after every call another handle writes (a hook counting a tool call): the file changed, so the
    # list opens it to check; the values did not, so it does not reload them.
    hook = learnmem.open(lm.path)
    after_write = []
    for i in range(200):
        hook.increment_tool_count()
        started = time.perf_counter()
        lm.list_values(limit=20)
        after_write.append(time.perf_counter() - started)
    return {"validate_p50_ms": 1000 * statistics.median(validate), "validate_p95_ms": 1000 * p95(validate),
            "validate_cold_p50_ms": 1000 * statistics.median(cold), "validate_cold_max_ms": 1000 * max(cold),
            "list_p50_ms": 1000 * statistics.median(listing), "list_p95_ms": 1000 * p95(listing),
            "list_after_write_p50_ms": 1000 * statistics.median(after_write),
            "list_after_write_p95_ms": 1000 * p95(after_write),
            "values": len(texts)}


def report(info: dict, q: dict, r: dict, s: dict, c: dict, every: dict) -> str:
    lines = ["# learnmem learning benchmarks", "",
             f"Produced by `{info['command']}` (bench/learning/). Raw numbers: bench/out/learning/results.json.", "",
             "## Machine", "", "|  |  |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in info.items()]
    lines += ["", "## 1. Planted themes recovered (tests/data/experiences.jsonl, all-MiniLM-L6-v2)", "",
              "The library's defaults, per axis (learnmem/learning/clusters.py): the principal components that keep "
              f"{clustering.EXPLAINED_VARIANCE:.0%} of the variance ({clustering.MIN_DIMS}-{clustering.MAX_DIMS}; "
              "the run's count below); then on full and strategy (linkage) each experience's reduced vector beside "
              f"{clustering.TERM_WEIGHT} x the TF-IDF of its terms, {clustering.HYBRID_DIMS} centred components, "
              f"average linkage cut at cosine distance {clustering.LINKAGE_DISTANCE}; on surprise and root_cause "
              f"(hdbscan) HDBSCAN min_cluster_size {clustering.DEFAULT_MIN_CLUSTER_SIZE}, min_samples "
              f"{clustering.DEFAULT_MIN_SAMPLES}, eom. Groups smaller than {clustering.DEFAULT_MIN_CLUSTER_SIZE} are "
              "noise. ARI: adjusted Rand index against the themes (noise experiences are one more label; noise one "
              "more cluster); purity: of the clustered experiences; coverage: share of the themed experiences that "
              "land in some cluster. ARI vs strategy: the same labels scored against the entries' strategy field. "
              f"Cold experiences (tiers {', '.join(terms.cold_tiers()) or 'none'}: cold storage) take part in "
              "finding the clusters but are never members, as in the library; the warm ones are scored. The next "
              "table shows what that changes.", "",
              "| axis | method | warm experiences (themed; cold) | defaults: dims, clusters / noise | ARI | purity "
              "| coverage | ARI vs strategy | best ARI in the grid (row, column) |",
              "|---|---|---|---|---|---|---|---|---|"]
    for axis, data in q.items():
        d = next(row for row in data["grid"] if row["default"])
        best = max(data["grid"], key=lambda row: row["ari"])
        lines.append(f"| {axis} | {data['method']} | {data['n']} ({data['themed']}; {data['cold']}) | {d['dims']}, "
                     f"{d['clusters']} / {d['noise']} | {d['ari']:.3f} | {d['purity']:.3f} | {d['coverage']:.3f} | "
                     f"{d['ari_strategy']:.3f} | {best['ari']:.3f} ({best['row']}, {best['column']}) |")
    lines += ["", "Cold storage, with the defaults: **all** clusters every experience and scores them all (no cold "
              "storage, as before it); **cold as density only** clusters every experience, then takes the cold ones "
              "out of their clusters (a cluster left with fewer than min_cluster_size warm members becomes noise) "
              "and scores the warm ones: the library (clustering.member_labels); **warm alone** clusters the warm "
              "ones only: measured and left, it thins the small themes. ARI / purity / coverage (clusters, noise "
              "of n):", "",
              "| axis | cold | all | cold as density only (library) | warm alone |", "|---|---|---|---|---|"]
    for axis, data in c.items():
        lines.append(f"| {axis} | {data['cold']} | " + " | ".join(
            f"{x['ari']:.3f} / {x['purity']:.3f} / {x['coverage']:.3f} ({x['clusters']}, {x['noise']} of {x['n']})"
            for x in (data["all"], data["density_only"], data["warm"])) + " |")
    lines += ["", "The grid (ARI / purity / coverage / clusters). Linkage: rows the cut distance, columns the terms' "
              "weight (0: the reduced embedding alone). HDBSCAN: rows the variance kept (dims), columns "
              "min_cluster_size/min_samples.", ""]
    for axis, data in q.items():
        columns = list(dict.fromkeys(row["column"] for row in data["grid"] if row["column"] != "default"))
        lines += [f"**{axis}** ({data['method']})", "", "| | " + " | ".join(columns) + " |",
                  "|---|" + "---|" * len(columns)]
        for row_name in dict.fromkeys(row["row"] for row in data["grid"] if row["row"] != "default"):
            cells = [row for row in data["grid"] if row["row"] == row_name and row["column"] in columns]
            label = f"{row_name} ({cells[0]['dims']})" if data["method"] == "hdbscan" else row_name
            lines.append(f"| {label} | " + " | ".join(
                f"{c['ari']:.2f} / {c['purity']:.2f} / {c['coverage']:.2f} / {c['clusters']}" for c in cells) + " |")
        lines.append("")
    lines += ["## 2. The value ritual (library defaults)", "",
              "For each theme, its cluster is the one holding most of its experiences. A faithful one-sentence "
              "summary of the theme written before clustering (the first draft, bench/learning/themes.py VALUES) "
              "should be valid for it; where it is refused, a second draft written by reading that cluster's "
              "members (themes.SECOND_DRAFTS, written for the full axis) must be. The other themes' summaries and "
              "unrelated statements must be refused.", "",
              "**library** is `validate_value` (nearest cluster + within mean + 1 sd of the members' value forms, "
              "leave-one-out when the value shares a term with them); "
              "**narrative** applies the same formula to the axis embeddings themselves (nearest cluster + within "
              "mean + 1 sd of the members' distances to the cluster's centroid), for comparison.", "",
              "| axis | rule | themes with a cluster | first drafts accepted | with second drafts | other themes refused "
              "| unrelated refused |", "|---|---|---|---|---|---|---|"]
    for axis, rows in r.items():
        found = [row for row in rows if row["cluster_id"]]
        lines.append(f"| {axis} | library | {len(found)} of {len(rows)} | {sum(x['faithful_valid'] for x in found)} | "
                     f"{sum(bool(x['faithful_valid'] or x['second_draft_valid']) for x in found)} | "
                     f"{sum(x['other_themes_refused'] for x in found)} of {sum(x['other_themes'] for x in found)} | "
                     f"{sum(x['unrelated_refused'] for x in found)} of {sum(x['unrelated'] for x in found)} |")
        lines.append(f"| {axis} | narrative | | {sum(x['narrative_faithful_valid'] for x in found)} | | "
                     f"{sum(x['narrative_other_refused'] for x in found)} of {sum(x['other_themes'] for x in found)} | "
                     f"{sum(x['narrative_unrelated_refused'] for x in found)} of {sum(x['unrelated'] for x in found)} |")
    lines += ["", "Per theme (distance of the faithful summary / threshold; the reason when refused):", ""]
    for axis, rows in r.items():
        for row in rows:
            if row["cluster_id"] is None:
                lines.append(f"- {axis} / {row['theme']}: no cluster holds any of its experiences")
            elif not row["faithful_valid"]:
                lines.append(f"- {axis} / {row['theme']} ({row['cluster_id']}, {row['cluster_size']} members, "
                             f"{row['theme_share']:.0%} of them from the theme): refused: {row['faithful_reason']}"
                             + ("" if row["second_draft_valid"] is None else
                                f"; second draft {'accepted' if row['second_draft_valid'] else 'refused'} "
                                f"(distance {row['second_draft_distance']:.3f})"))
    lines += ["", "## 3. Speed", "", "| what | n | time | target |", "|---|---|---|---|"]
    targets = {1000: ("<= 1 s", "<= 3 s"), 10000: ("-", "<= 20 s")}
    for size in (1000, 10000):
        if size not in s:
            continue
        for axis, t in s[size]["axes"].items():
            lines.append(f"| get_clusters({axis!r}) | {t['n']:,} (+{t.get('cold', 0):,} cold) | {t['s']:.2f} s "
                         f"({t['clusters']} clusters, "
                         f"{t['noise']} noise) | {targets[size][0] if axis == 'full' else '-'} |")
        lines.append(f"| all four axes | {size:,} entries | {s[size]['all_s']:.2f} s | {targets[size][1]} |")
    if "values" in s:
        v = s["values"]
        lines += [f"| validate_value, warm (200 calls) | {v['values']} clusters | p50 {v['validate_p50_ms']:.1f} / "
                  f"p95 {v['validate_p95_ms']:.1f} ms | p95 <= 30 ms |",
                  f"| validate_value, a cluster's first (its value forms embedded), {v['values']} calls | | p50 "
                  f"{v['validate_cold_p50_ms']:.1f} / max {v['validate_cold_max_ms']:.1f} ms | |",
                  f"| list_values, limit 20, file unchanged since the last call (200 calls) | {v['values']} values | "
                  f"p50 {v['list_p50_ms']:.2f} / p95 {v['list_p95_ms']:.2f} ms | p95 <= 10 ms |",
                  f"| list_values, limit 20, another handle wrote before each call (200 calls) | {v['values']} values "
                  f"| p50 {v['list_after_write_p50_ms']:.1f} / p95 {v['list_after_write_p95_ms']:.1f} ms | p95 <= 10 ms |"]
    lines += ["", "## 4. Every corpus", "",
              "bench/learning/corpora.py, in this run: `original` is tests/data/experiences.jsonl; the others were "
              "written blind and frozen before issue 24 changed the method (bench/learning/corpora/*/README.md). "
              "Methods: **original**, as GHAP.md first described it (HDBSCAN 5/3 on the raw 384-d vectors; valid "
              "within mean + 1 sd of the members' distances to the centroid, no nearest-cluster condition); "
              "**previous**, the library before issue 24 (HDBSCAN 5/1 on the reduced vectors on every axis; value "
              "forms; the nearest cluster strictly); **library**, as it is. Each theme's cluster is the one "
              "holding most of its experiences.", "", corpora.report(every)]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.learning", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="also write the markdown report to this file")
    parser.add_argument("--quick", action="store_true", help="1,000 entries only for the speed section")
    args = parser.parse_args(argv)
    started = time.time()
    embedder = load_embedder()
    entries, truth = themes.load_corpus()
    strategies = {entry["id"]: entry["strategy"] for entry in entries}
    lm = learnmem.open(corpus_file(embedder), embedder=embedder)
    q = quality(lm, truth, strategies)
    c = cold_comparison(lm, truth)
    r = ritual(lm, truth)
    s = speed(embedder, args.quick)
    every = corpora.measure_all(embedder=embedder)
    info = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "git": git_commit(),
            "command": "python -m bench.learning" + (" --quick" if args.quick else "") +
                       (f" --out {args.out}" if args.out else ""),
            "cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
            "python": platform.python_version(), "load average at start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
            "corpus": f"{len(entries)} entries, {len(set(truth.values()) - {'noise'})} themes + noise",
            "cold tiers (never cluster members)": ", ".join(terms.cold_tiers()) or "none",
            "run time": f"{time.time() - started:.0f} s"}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "results.json").write_text(json.dumps({"info": info, "quality": q, "cold": c, "ritual": r, "speed": s,
                                                  "corpora": every},
                                                 indent=1, default=str), encoding="utf-8")
    text = report(info, q, r, s, c, every)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0
