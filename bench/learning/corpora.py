"""The learning loop on every corpus: clusters against the planted themes and the value ritual, per corpus
and axis (issue 24).

    python -m bench.learning.corpora [--corpora NAME ...] [--json OUT] > report.md

Corpora: `original` (tests/data/experiences.jsonl, the corpus the method was built with) and every folder of
bench/learning/corpora/ (written blind: each folder's README.md says how), each with `experiences.jsonl`,
`themes.json` ({entry id: theme or "noise"}) and `values.json` ({"faithful": {theme: [...]}, "paraphrased":
{theme: [...]}, "unrelated": [...]}).

Each corpus is imported with `import_ghap` into a new file with the real model. Per axis:
- clustering, with the library's parameters (`today`) and with the method as GHAP.md first described it
  (`original`: raw 384-d vectors, HDBSCAN min_cluster_size 5 / min_samples 3): purity of the clustered warm
  experiences, and how many planted themes lead a cluster (are the most common theme of at least one);
- the value ritual with the library (get_clusters -> validate_value), against each theme's cluster (the one
  holding most of its experiences): faithful statements accepted, their paraphrases accepted, the other
  themes' faithful statements refused, unrelated statements refused. A theme without a cluster accepts nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import learnmem
from bench.learning import themes
from bench.learning.run import axis_data
from learnmem.learning import clusters as clustering

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT / "bench" / "learning" / "corpora"
AXES = ("full", "strategy", "surprise", "root_cause")
RITUAL_AXES = ("full", "surprise", "root_cause")


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


def clustering_scores(lm, corpus: Corpus, axis: str) -> dict:
    vectors, _, truth, warm = axis_data(lm, axis, corpus.truth)
    planted = sorted(set(truth) - {"noise"})
    out = {"n": int(warm.sum()), "themes": len(planted)}
    today = clustering.parameters()
    original = replace(today, explained_variance=1.0, min_cluster_size=5, min_samples=3)
    for method, chosen in (("original", original), ("today", today)):
        labels = clustering.member_labels(vectors, warm, chosen)[0][warm].tolist()
        warm_truth = [t for t, w in zip(truth, warm) if w]
        out[method] = {"clusters": len(set(labels) - {-1}), "noise": labels.count(-1),
                       "purity": themes.purity(labels, warm_truth), "leading": len(leading(labels, warm_truth))}
    return out


def ritual(lm, corpus: Corpus, axis: str) -> dict:
    run = lm.get_clusters(axis)
    members = {c.cluster_id: [m.ghap_id for m in lm.get_cluster_members(c.cluster_id, limit=100)]
               for c in run.clusters}
    counts = {"faithful": [0, 0], "paraphrased": [0, 0], "other_refused": [0, 0], "unrelated_refused": [0, 0]}
    for theme, statements in corpus.faithful.items():
        held = {cid: sum(corpus.truth.get(g) == theme for g in ids) for cid, ids in members.items()}
        cluster_id = max(held, key=held.get) if held and max(held.values()) > 0 else None
        others = [s for t, texts in corpus.faithful.items() if t != theme for s in texts]
        for key, texts, want in (("faithful", statements, True), ("paraphrased", corpus.paraphrased.get(theme, []), True),
                                 ("other_refused", others, False), ("unrelated_refused", corpus.unrelated, False)):
            for text in texts:
                counts[key][1] += 1
                valid = cluster_id is not None and lm.validate_value(text, cluster_id).valid
                counts[key][0] += valid == want
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.learning.corpora", description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", nargs="*", help="corpus names (default: all)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    corpora = [c for c in all_corpora() if not args.corpora or c.name in args.corpora]
    results: dict = {}
    with tempfile.TemporaryDirectory(prefix="learnmem-corpora-") as tmp:
        for corpus in corpora:
            print(f"{corpus.name}: importing {corpus.entries}", file=sys.stderr, flush=True)
            lm = learnmem.open(Path(tmp) / f"{corpus.name}.duckdb")
            imported = lm.import_ghap(corpus.entries)
            assert not imported.errors, imported.errors
            results[corpus.name] = {"clusters": {a: clustering_scores(lm, corpus, a) for a in AXES},
                                    "ritual": {a: ritual(lm, corpus, a) for a in RITUAL_AXES}}
            lm.close()
    print("| corpus | axis | experiences | themes | original: clusters / purity / themes leading | "
          "today: clusters / purity / themes leading |\n|---|---|---|---|---|---|")
    for name, result in results.items():
        for axis, row in result["clusters"].items():
            o, t = row["original"], row["today"]
            print(f"| {name} | {axis} | {row['n']} | {row['themes']} | {o['clusters']} / {o['purity']:.2f} / "
                  f"{o['leading']} | {t['clusters']} / {t['purity']:.2f} / {t['leading']} |")
    print("\n| corpus | axis | faithful accepted | paraphrases accepted | other themes refused | unrelated refused |"
          "\n|---|---|---|---|---|---|")
    for name, result in results.items():
        for axis, row in result["ritual"].items():
            cells = [f"{ok}/{n}" if n else "-" for ok, n in row.values()]
            print(f"| {name} | {axis} | " + " | ".join(cells) + " |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
