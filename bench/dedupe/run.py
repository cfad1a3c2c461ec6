"""Where near-duplicate and supersede thresholds for memories should sit: cosine similarities of written pairs.

    python -m bench.dedupe

bench/dedupe/pairs.jsonl holds pairs of memory statements of three kinds: `paraphrase` (the same fact
reworded: a duplicate), `update` (the same subject with a changed value or decision: a supersede candidate)
and `distinct` (the same subject, a different fact). For each kind the report gives the distribution of
the pair's cosine similarity with the real model, and the thresholds that best separate paraphrases from
the rest and updates-or-paraphrases from distinct pairs (the highest accuracy; ties to the midpoint).
Then the restatement rule store_memory applies (learnmem.memory.dedupe: similarity >= 0.75, the same key tokens,
no word of change): how many pairs of each kind it refuses, on these pairs and on bench/dedupe/heldout.jsonl
(10 pairs of each kind, written after the rule was fixed and not used to shape it).
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from learnmem.memory.dedupe import is_restatement
from learnmem.embedding.embed import load_embedder
from bench.measure import git_commit

PAIRS = Path(__file__).resolve().parent / "pairs.jsonl"
HELDOUT = Path(__file__).resolve().parent / "heldout.jsonl"
# One-word updates (a swapped word, on/off, before/after), written after a suite test showed the rule refusing
# "... from pid right" as restating "... from pid left".
SUBSTITUTIONS = Path(__file__).resolve().parent / "substitutions.jsonl"


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


def _pairs(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _similarities(embedder, pairs: list[dict]) -> list[float]:
    vectors = embedder.embed([text for pair in pairs for text in (pair["a"], pair["b"])])
    return [float(vectors[2 * n] @ vectors[2 * n + 1]) for n in range(len(pairs))]


def _refused(pairs: list[dict], similarities: list[float]) -> str:
    counts: dict[str, list[int]] = {}
    for pair, similarity in zip(pairs, similarities):
        count = counts.setdefault(pair["kind"], [0, 0])
        count[0] += is_restatement(pair["b"], pair["a"], similarity)
        count[1] += 1
    return " | ".join(f"{refused} of {total}" for refused, total in counts.values())


def main() -> int:
    pairs = _pairs(PAIRS)
    embedder = load_embedder()
    similarities = _similarities(embedder, pairs)
    print(f"Produced by `python -m bench.dedupe` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} at "
          f"{git_commit()}, all-MiniLM-L6-v2.\n")
    by_kind: dict[str, list[float]] = {}
    for pair, similarity in zip(pairs, similarities):
        by_kind.setdefault(pair["kind"], []).append(similarity)
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
    heldout = _pairs(HELDOUT)
    print("\nThe restatement rule (learnmem.memory.dedupe.is_restatement, b stored after a): pairs refused\n")
    print("| pairs | " + " | ".join(by_kind) + " |\n|---|" + "---|" * len(by_kind))
    print(f"| {PAIRS.name} | {_refused(pairs, similarities)} |")
    print(f"| {HELDOUT.name} (held out) | {_refused(heldout, _similarities(embedder, heldout))} |")
    substitutions = _pairs(SUBSTITUTIONS)
    print(f"\n{SUBSTITUTIONS.name} (one-word updates): {_refused(substitutions, _similarities(embedder, substitutions))} "
          "refused")
    return 0

