"""The learning loop on every corpus: clusters against the planted themes and the value ritual, per corpus
and axis (issue 24).

    python -m bench.learning.corpora [--corpora NAME ...] [--json OUT] > report.md

Corpora: `original` (tests/data/experiences.jsonl, the corpus the method was built with) and every folder of
bench/learning/corpora/ (written blind: each folder's README.md says how), each with `experiences.jsonl`,
`themes.json` ({entry id: theme or "noise"}) and `values.json` ({"faithful": {theme: [...]}, "paraphrased":
{theme: [...]}, "unrelated": [...]}).

Each corpus is imported with `import_ghap` into a new file with the real model. Three methods, per axis:
- `original`, as GHAP.md first described it: HDBSCAN min_cluster_size 5 / min_samples 3 on the raw 384-d
  vectors; a value valid when its distance to the cluster's (tier-weighted) centroid is within the mean + 1 sd
  of the members' distances to it;
- `previous`, the library before issue 24: HDBSCAN 5/1 on the reduced vectors, every axis; validation against
  the value forms with a strict nearest-cluster condition (values.NEAREST_MARGIN 0);
- `library`: the library as it is (clusters.AXIS_METHOD, values.NEAREST_MARGIN).

Clustering: purity of the clustered warm experiences, how many planted themes lead a cluster (are the most
common theme of at least one) and coverage (the share of the themed warm experiences that are in a cluster).
The value ritual, against each theme's cluster (the one holding most of its experiences): faithful statements
accepted, their paraphrases accepted, the other themes' faithful statements refused, unrelated statements
refused; a theme without a cluster accepts nothing. `previous` and `library` run it through the library
(get_clusters -> validate_value, `previous` with the constants it had); `original` computes its rule here.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import learnmem
from bench.learning import themes
from learnmem.learning import clusters as clustering
from learnmem.learning import terms, values
from learnmem.storage import sql
from learnmem.storage.vectors import to_matrix

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT / "bench" / "learning" / "corpora"
AXES = ("full", "strategy", "surprise", "root_cause")
RITUAL_AXES = ("full", "surprise", "root_cause")
METHODS = ("original", "previous", "library")
RITUAL_KINDS = ("faithful", "paraphrased", "other_refused", "unrelated_refused")


@dataclass
class Corpus:
    name: str
    entries: Path
    truth: dict[str, str]
    faithful: dict[str, list[str]]
    paraphrased: dict[str, list[str]]
    unrelated: list[str]


def all_corpora() -> list[Corpus]:
    found = [Corpus("original", themes.CORPUS, themes.load_corpus()[1], {t: [v] for t, v in themes.VALUES.items()},
                    {}, list(themes.UNRELATED))]
    for folder in sorted(p for p in CORPORA.iterdir() if (p / "experiences.jsonl").exists()):
        values = json.loads((folder / "values.json").read_text(encoding="utf-8"))
        found.append(Corpus(folder.name, folder / "experiences.jsonl",
                            json.loads((folder / "themes.json").read_text(encoding="utf-8")),
                            values["faithful"], values.get("paraphrased", {}), values["unrelated"]))
    return found


def leading(labels: list[int], truth: list[str]) -> set[str]:
    """The planted themes that are the most common theme of at least one cluster."""
    by_cluster: dict[int, Counter] = {}
    for label, true in zip(labels, truth):
        if label >= 0:
            by_cluster.setdefault(label, Counter())[true] += 1
    return {counts.most_common(1)[0][0] for counts in by_cluster.values()} - {"noise"}


def parameters(method: str, axis: str) -> clustering.Parameters:
    if method == "original":
        return clustering.Parameters(min_cluster_size=5, min_samples=3, explained_variance=1.0, method="hdbscan")
    if method == "previous":
        return clustering.Parameters(min_cluster_size=5, min_samples=1, method="hdbscan")
    return clustering.parameters(axis)


@dataclass
class AxisData:
    ids: list[str]
    vectors: np.ndarray
    term_lists: list[list[str]]
    truth: list[str]
    warm: np.ndarray
    weights: np.ndarray


def axis_data(lm, truth: dict[str, str], axis: str) -> AxisData:
    """The axis's embedded experiences as get_clusters reads them (the same query, the same order), with their
    planted themes (`truth`: {ghap id: theme or "noise"})."""
    rows = lm.sql(sql.query("axis_vectors"), {"axis": axis}).to_arrow_table()
    tiers = rows.column("confidence_tier").to_pylist()
    cold = terms.cold_tiers()
    ids = rows.column("ghap_id").to_pylist()
    return AxisData(ids=ids, vectors=to_matrix(rows.column("embedding"), 384),
                    term_lists=rows.column("terms").to_pylist(), truth=[truth[i] for i in ids],
                    warm=np.asarray([tier not in cold for tier in tiers], dtype=bool),
                    weights=np.asarray([terms.TIER_WEIGHTS.get(tier, 0.0) for tier in tiers]))


def clustering_scores(data: AxisData, labels: np.ndarray) -> dict:
    warm_labels = labels[data.warm].tolist()
    warm_truth = [t for t, w in zip(data.truth, data.warm) if w]
    themed = [label for label, true in zip(warm_labels, warm_truth) if true != "noise"]
    return {"clusters": len(set(warm_labels) - {-1}), "noise": warm_labels.count(-1),
            "purity": themes.purity(warm_labels, warm_truth), "leading": len(leading(warm_labels, warm_truth)),
            "coverage": sum(label >= 0 for label in themed) / max(len(themed), 1)}


def statements(corpus: Corpus, theme: str):
    """(kind, text, should be valid) for one theme's cluster."""
    others = [s for t, texts in corpus.faithful.items() if t != theme for s in texts]
    for kind, texts, want in (("faithful", corpus.faithful[theme], True),
                              ("paraphrased", corpus.paraphrased.get(theme, []), True),
                              ("other_refused", others, False), ("unrelated_refused", corpus.unrelated, False)):
        for text in texts:
            yield kind, text, want


def theme_cluster(members: dict, truth: dict[str, str], theme: str):
    """The cluster holding most of the theme's experiences (None when none holds any)."""
    held = {cid: sum(truth.get(g) == theme for g in ids) for cid, ids in members.items()}
    return max(held, key=held.get) if held and max(held.values()) > 0 else None


def ritual(lm, corpus: Corpus, axis: str) -> dict:
    """The value ritual through the library: get_clusters, then validate_value per statement."""
    run = lm.get_clusters(axis)
    members = {c.cluster_id: [m.ghap_id for m in lm.get_cluster_members(c.cluster_id, limit=100)]
               for c in run.clusters}
    counts = {kind: [0, 0] for kind in RITUAL_KINDS}
    for theme in corpus.faithful:
        cluster_id = theme_cluster(members, corpus.truth, theme)
        for kind, text, want in statements(corpus, theme):
            counts[kind][1] += 1
            counts[kind][0] += (cluster_id is not None and lm.validate_value(text, cluster_id).valid) == want
    return counts


def original_ritual(lm, corpus: Corpus, data: AxisData, labels: np.ndarray) -> dict:
    """GHAP.md's first rule: valid when the statement's cosine distance to the cluster's tier-weighted centroid
    is within the mean + 1 sd of its warm members' distances to it (no nearest-cluster condition)."""
    counts = {kind: [0, 0] for kind in RITUAL_KINDS}
    truth = np.asarray(data.truth)
    for theme in corpus.faithful:
        held = Counter(int(label) for label, true in zip(labels, truth) if true == theme and label >= 0)
        rule = None
        if held:
            members = np.flatnonzero(labels == held.most_common(1)[0][0])
            centroid = (data.vectors[members] * np.maximum(data.weights[members], 1e-6)[:, None]).sum(axis=0)
            centroid /= np.linalg.norm(centroid)
            distances = 1.0 - data.vectors[members] @ centroid
            rule = (centroid, distances.mean() + distances.std())
        found = list(statements(corpus, theme))
        vectors = lm.embedder.embed([text for _, text, _ in found]) if rule else None
        for index, (kind, _, want) in enumerate(found):
            counts[kind][1] += 1
            valid = rule is not None and 1.0 - float(vectors[index] @ rule[0]) <= float(rule[1])
            counts[kind][0] += int(valid == want)
    return counts


@contextmanager
def previous_library():
    """The library's clustering and validation as they were before issue 24 (HDBSCAN on every axis, a strict
    nearest-cluster condition)."""
    saved = dict(clustering.AXIS_METHOD), values.NEAREST_MARGIN
    clustering.AXIS_METHOD.update({axis: "hdbscan" for axis in clustering.AXIS_METHOD})
    values.NEAREST_MARGIN = 0.0
    try:
        yield
    finally:
        clustering.AXIS_METHOD.update(saved[0])
        values.NEAREST_MARGIN = saved[1]


def measure(lm, corpus: Corpus) -> dict:
    out: dict = {"clusters": {}, "ritual": {method: {} for method in METHODS}}
    for axis in AXES:
        data = axis_data(lm, corpus.truth, axis)
        planted = sorted(set(data.truth) - {"noise"})
        row = {"n": int(data.warm.sum()), "themes": len(planted)}
        for method in METHODS:
            labels = clustering.member_labels(data.vectors, data.warm, parameters(method, axis), data.term_lists)[0]
            row[method] = clustering_scores(data, labels)
            if method == "original" and axis in RITUAL_AXES:
                out["ritual"]["original"][axis] = original_ritual(lm, corpus, data, labels)
        out["clusters"][axis] = row
    with previous_library():
        out["ritual"]["previous"] = {axis: ritual(lm, corpus, axis) for axis in RITUAL_AXES}
    out["ritual"]["library"] = {axis: ritual(lm, corpus, axis) for axis in RITUAL_AXES}
    return out


def measure_all(names: list[str] | None = None, embedder=None) -> dict:
    """measure() on every corpus (or those named), each imported into a new file."""
    results: dict = {}
    with tempfile.TemporaryDirectory(prefix="learnmem-corpora-") as tmp:
        for corpus in [c for c in all_corpora() if not names or c.name in names]:
            print(f"{corpus.name}: importing {corpus.entries}", file=sys.stderr, flush=True)
            lm = learnmem.open(Path(tmp) / f"{corpus.name}.duckdb", embedder=embedder)
            imported = lm.import_ghap(corpus.entries)
            assert not imported.errors, imported.errors
            results[corpus.name] = measure(lm, corpus)
            lm.close()
    return results


def report(results: dict) -> str:
    lines = ["| corpus | axis | experiences | themes | " + " | ".join(
        f"{method}: clusters / purity / themes leading / coverage" for method in METHODS) + " |",
        "|---|---|---|---|" + "---|" * len(METHODS)]
    for name, result in results.items():
        for axis, row in result["clusters"].items():
            cells = [f"{row[m]['clusters']} / {row[m]['purity']:.2f} / {row[m]['leading']} / {row[m]['coverage']:.2f}"
                     for m in METHODS]
            lines.append(f"| {name} | {axis} | {row['n']} | {row['themes']} | " + " | ".join(cells) + " |")
    lines += ["", "| corpus | axis | method | faithful accepted | paraphrases accepted | other themes refused | "
              "unrelated refused |", "|---|---|---|---|---|---|---|"]
    for name, result in results.items():
        for axis in RITUAL_AXES:
            for method in METHODS:
                cells = [f"{ok}/{n}" if n else "-" for ok, n in result["ritual"][method][axis].values()]
                lines.append(f"| {name} | {axis} | {method} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.learning.corpora", description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", nargs="*", help="corpus names (default: all)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    results = measure_all(args.corpora)
    print(report(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
