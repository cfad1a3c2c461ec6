"""Where near-duplicate and supersede thresholds for memories should sit: cosine similarities of written pairs.

    python -m bench.dedupe

bench/dedupe/pairs.jsonl holds pairs of memory statements of three kinds: `paraphrase` (the same fact
reworded: a duplicate), `update` (the same subject with a changed value or decision: a supersede candidate)
and `distinct` (the same subject, a different fact). For each kind the report gives the distribution of
the pair's cosine similarity with the real model, and the thresholds that best separate paraphrases from
the rest and updates-or-paraphrases from distinct pairs (the highest accuracy; ties to the midpoint).
Groundwork for issue 8 (dedupe on store, supersede candidates); the pairs are written for this, not tuned.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from learnmem.embed import load_embedder

PAIRS = Path(__file__).resolve().parent / "pairs.jsonl"


def best_threshold(positive: list[float], negative: list[float]) -> tuple[float, float]:
    """(threshold, accuracy) of `similarity >= threshold` separating positive from negative pairs."""
    candidates = sorted(set(positive + negative))
    best = (0.0, 0.0)
    for low, high in zip(candidates, candidates[1:]):
        cut = (low + high) / 2
        correct = sum(s >= cut for s in positive) + sum(s < cut for s in negative)
        accuracy = correct / (len(positive) + len(negative))
        if accuracy > best[1]:
            best = (cut, accuracy)
    return best


def main() -> int:
    pairs = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]
    embedder = load_embedder()
    vectors = embedder.embed([text for pair in pairs for text in (pair["a"], pair["b"])])
    by_kind: dict[str, list[float]] = {}
    for n, pair in enumerate(pairs):
        by_kind.setdefault(pair["kind"], []).append(float(vectors[2 * n] @ vectors[2 * n + 1]))
    print("| kind | pairs | min | p10 | median | p90 | max |\n|---|---|---|---|---|---|---|")
    for kind, sims in by_kind.items():
        deciles = statistics.quantiles(sims, n=10)
        print(f"| {kind} | {len(sims)} | {min(sims):.3f} | {deciles[0]:.3f} | {statistics.median(sims):.3f} | "
              f"{deciles[-1]:.3f} | {max(sims):.3f} |")
    para, update, distinct = by_kind["paraphrase"], by_kind["update"], by_kind["distinct"]
    cut, accuracy = best_threshold(para, update + distinct)
    print(f"\nduplicate (paraphrase vs the rest): similarity >= {cut:.3f}, accuracy {accuracy:.0%}")
    cut, accuracy = best_threshold(para + update, distinct)
    print(f"same subject (paraphrase or update vs distinct): similarity >= {cut:.3f}, accuracy {accuracy:.0%}")
    return 0

