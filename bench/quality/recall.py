"""Memory recall per set, through the library: the default retrieval beside BM25 alone and the vector alone.

    python -m bench.quality.recall [--sets NAME ...] [--json OUT] > report.md

Two kinds of set:
- bench/quality/heldout/<name>/: long multi-session chats, written by hand by writers who never saw the
  retrieval code (each set's README.md says who wrote what). Every turn is stored as one memory, as the
  benchmark of issue 22 stores them: "[<session date>] <speaker>: <text>", category fact, in the order said.
  Questions are of four kinds (single-hop, multi-hop, temporal, open-domain), each labelled with the turns
  that answer it (its evidence).
- bench/quality/<name>.jsonl: the three sets of memories and queries the fusion was chosen on
  (coding_agent, conversational) or checked on (first_person); each query names its relevant memories.

Each set gets a fresh file, filled with `store_memories` (the library's own rules: a turn that restates an
earlier one of its category is not stored again, and its label then points at the memory it restates). Each
question is ranked three ways over the same snapshot with learnmem.search.hybrid.hybrid_rank: `default`
(the fusion retrieve_memories uses, checked against retrieve_memories itself on every question), `bm25`
(the keyword ranking alone) and `vector` (the cosine ranking alone).

Metrics, averaged over questions: R@k = share of a question's evidence in the top k (the issue's
"evidence R@5"); nDCG@10, binary; any@5 = share of questions with any evidence in the top 5.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import learnmem
from learnmem.search import keywords
from learnmem.memory.memories import RETRIEVAL_FUSION
from learnmem.search.hybrid import hybrid_rank

HERE = Path(__file__).resolve().parent
HELDOUT = HERE / "heldout"
OLD_SETS = ("conversational", "coding_agent", "first_person")
METHODS = {"default": RETRIEVAL_FUSION, "bm25": {"fusion": "keyword"}, "vector": {"fusion": "vector"}}
DEPTH = 10


@dataclass
class Question:
    text: str
    evidence: tuple[str, ...]  # the set's own ids of the memories that answer it
    kind: str


@dataclass
class RecallSet:
    name: str
    memories: list[tuple[str, str]]  # (the set's id, content), in storing order
    questions: list[Question]
    heldout: bool
    scores: dict[str, dict[str, list[float]]] = field(default_factory=dict)  # method -> metric -> per question


def load_heldout(folder: Path) -> RecallSet:
    """A chat set: turns.jsonl and questions.jsonl (bench/quality/heldout/*/README.md)."""
    memories = []
    for line in (folder / "turns.jsonl").read_text(encoding="utf-8").splitlines():
        turn = json.loads(line)
        memories.append((turn["turn"], f"[{turn['date']}] {turn['speaker']}: {turn['text']}"))
    questions = [Question(q["question"], tuple(q["evidence"]), q["kind"])
                 for q in map(json.loads, (folder / "questions.jsonl").read_text(encoding="utf-8").splitlines())]
    return RecallSet(folder.name, memories, questions, heldout=True)


def load_old(name: str) -> RecallSet:
    """One of bench/quality/*.jsonl: memory rows, then query rows naming their relevant memories."""
    memories, questions = [], []
    for row in map(json.loads, (HERE / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()):
        if row["type"] == "memory":
            memories.append((row["id"], row["content"]))
        else:
            questions.append(Question(row["query"], tuple(row["relevant"]), row.get("kind", "query")))
    return RecallSet(name, memories, questions, heldout=False)


def all_sets() -> list[RecallSet]:
    heldout = [load_heldout(folder) for folder in sorted(HELDOUT.iterdir()) if (folder / "questions.jsonl").exists()]
    return heldout + [load_old(name) for name in OLD_SETS]


def _metrics(ranked_ids: list[str], evidence: set[str]) -> dict[str, float]:
    gains = [1.0 if memory_id in evidence else 0.0 for memory_id in ranked_ids[:DEPTH]]
    ideal = sum(1 / math.log2(rank + 2) for rank in range(min(DEPTH, len(evidence))))
    return {
        "R@5": sum(gains[:5]) / len(evidence),
        "R@10": sum(gains[:10]) / len(evidence),
        "nDCG@10": sum(g / math.log2(rank + 2) for rank, g in enumerate(gains)) / ideal,
        "any@5": 1.0 if any(gains[:5]) else 0.0,
    }


def run_set(recall_set: RecallSet, folder: Path) -> dict[str, float]:
    """Store the set in a new file under `folder`, rank every question three ways; the timings."""
    lm = learnmem.open(folder / f"{recall_set.name}.duckdb")
    started = time.perf_counter()
    results = lm.store_memories([{"content": text, "category": "fact"} for _, text in recall_set.memories])
    stored_s = time.perf_counter() - started
    memory_of = {set_id: result.id for (set_id, _), result in zip(recall_set.memories, results)}
    snapshot = lm._memory_index.snapshot()
    eligible = snapshot.eligible(None, ())
    ids = snapshot.table.column("id").to_pylist()
    scores: dict[str, dict[str, list[float]]] = {method: {} for method in METHODS}
    mismatches = 0
    started = time.perf_counter()
    for question in recall_set.questions:
        evidence = {memory_of[e] for e in question.evidence}
        similarity = snapshot.similarity(lm.embedder.embed([question.text])[0])
        terms = keywords.terms(question.text)
        for method, fusion in METHODS.items():
            ranked = hybrid_rank(similarity, snapshot.bm25, terms, eligible, DEPTH, importance=snapshot.importance,
                                 recency=snapshot.seq, **fusion)
            ranked_ids = [ids[row] for row in ranked.rows]
            if method == "default":
                mismatches += ranked_ids != [hit.id for hit in lm.retrieve_memories(question.text, limit=DEPTH)]
            for metric, value in _metrics(ranked_ids, evidence).items():
                scores[method].setdefault(metric, []).append(value)
    recall_set.scores = scores
    lm.close()
    if mismatches:
        raise AssertionError(f"{recall_set.name}: the default ranking differs from retrieve_memories on "
                             f"{mismatches} questions: the bench no longer measures what the library does")
    return {"store_s": stored_s, "query_s": time.perf_counter() - started,
            "stored": len(set(memory_of.values())), "turns": len(memory_of)}


def _mean(values: list[float]) -> float:
    return float(np.mean(values)) if values else float("nan")


def report(sets: list[RecallSet], timings: dict[str, dict[str, float]]) -> str:
    lines = ["| set | memories (stored) | questions | method | R@5 | R@10 | nDCG@10 | any@5 |", "|---|---|---|---|---|---|---|---|"]
    for s in sets:
        t = timings[s.name]
        for method in METHODS:
            m = s.scores[method]
            lines.append(f"| {s.name}{' (held out)' if s.heldout else ''} | {t['turns']} ({t['stored']}) | "
                         f"{len(s.questions)} | {method} | {_mean(m['R@5']):.3f} | {_mean(m['R@10']):.3f} | "
                         f"{_mean(m['nDCG@10']):.3f} | {_mean(m['any@5']):.3f} |")
    heldout = [s for s in sets if s.heldout]
    if heldout:
        lines += ["", "Held-out chats, evidence R@5 by kind of question (all sets pooled):", "",
                  "| kind | questions | " + " | ".join(METHODS) + " |", "|---|---|" + "---|" * len(METHODS)]
        kinds = sorted({q.kind for s in heldout for q in s.questions})
        for kind in kinds:
            cells = []
            for method in METHODS:
                values = [v for s in heldout for q, v in zip(s.questions, s.scores[method]["R@5"]) if q.kind == kind]
                cells.append(f"{_mean(values):.3f}")
            count = sum(q.kind == kind for s in heldout for q in s.questions)
            lines.append(f"| {kind} | {count} | " + " | ".join(cells) + " |")
        pooled = {method: _mean([v for s in heldout for v in s.scores[method]["R@5"]]) for method in METHODS}
        lines.append("| all | " + str(sum(len(s.questions) for s in heldout)) + " | "
                     + " | ".join(f"{pooled[m]:.3f}" for m in METHODS) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quality.recall", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="*", help="set names (default: every held-out chat and the three old sets)")
    parser.add_argument("--json", type=Path, help="also write the per-set means here")
    args = parser.parse_args(argv)
    sets = [s for s in all_sets() if not args.sets or s.name in args.sets]
    if not sets:
        parser.error(f"--sets: none of {args.sets} is a set; known: {[s.name for s in all_sets()]}")
    timings = {}
    with tempfile.TemporaryDirectory(prefix="learnmem-recall-") as tmp:
        for recall_set in sets:
            print(f"{recall_set.name}: {len(recall_set.memories)} memories, {len(recall_set.questions)} questions",
                  file=sys.stderr)
            timings[recall_set.name] = run_set(recall_set, Path(tmp))
    print(f"Command: python -m bench.quality.recall; {platform.machine()}, {platform.python_version()}, "
          f"learnmem {learnmem.__version__}\n")
    print(report(sets, timings))
    if args.json:
        args.json.write_text(json.dumps({s.name: {m: {k: _mean(v) for k, v in s.scores[m].items()} for m in METHODS}
                                         | {"timings": timings[s.name]} for s in sets}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
