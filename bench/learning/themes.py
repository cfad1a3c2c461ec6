"""The planted themes of tests/data/experiences.jsonl and what an agent would write about each.

`VALUES` are the faithful one-sentence summaries an agent could write after
reading a theme's cluster (the value ritual must accept each for its own
theme's cluster); `UNRELATED` are statements about nothing in the corpus (it
must refuse them everywhere). Both are used by bench/learning and by
tests/test_learning_corpus.py.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "experiences.jsonl"
THEMES = ROOT / "tests" / "data" / "experiences_themes.json"

VALUES = {
    "flaky-shared-state": "Tests that pass alone but fail in the suite usually share state: module-level caches, "
                    "leftover database rows or test order leak between them.",
    "timezone-dst": "Date bugs that appear only on CI or around DST come from mixing naive local times with UTC: "
                "keep datetimes timezone-aware in UTC.",
    "stale-cache": "When a deploy seems to have no effect, suspect a cache still serving the old data: CDN, "
                   "memoization, build cache or HTTP cache headers.",
    "env-config-drift": "When code works in one environment and not another, compare the configuration first: "
                  "environment variables, .env files, feature flags and settings differ.",
    "pagination-off-by-one": "Missing or repeated items at page boundaries are off-by-one errors in offset arithmetic or "
                  "inclusive versus exclusive bounds.",
    "mock-wrong-target": "A mock that has no effect patches the name where it is defined instead of where the code "
                   "under test looks it up.",
    "n-plus-one-queries": "Slow list endpoints usually run one query per row: load the related objects eagerly instead "
                  "of in a loop (N+1 queries).",
    "dependency-drift": "Breakage without a code change comes from dependency versions drifting: unpinned or "
                        "transitive packages and a stale lockfile.",
    "race-conditions": "Intermittent wrong results under concurrency come from unsynchronised shared state or a "
                      "missing await, not from the logic itself.",
    "text-encoding": "Garbled or rejected text comes from encoding mismatches: decode bytes as UTF-8 explicitly and "
                "normalise Unicode.",
}

UNRELATED = [
    "Bananas ripen faster when stored in a paper bag next to apples.",
    "The quarterly marketing budget should favour podcasts over billboards.",
    "A good sourdough starter needs feeding twice a day at room temperature.",
    "Team offsites work best with a clear agenda and short sessions.",
]


def load_corpus() -> tuple[list[dict], dict[str, str]]:
    """The corpus entries and their themes ({ghap id: theme or 'noise'})."""
    entries = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    themes = json.loads(THEMES.read_text(encoding="utf-8"))
    return entries, themes


def purity(labels: list[int], truth: list[str]) -> float:
    """Share of the clustered points (noise left out) whose cluster's most common true label is theirs."""
    clusters: dict[int, Counter] = {}
    for label, true in zip(labels, truth):
        if label >= 0:
            clusters.setdefault(label, Counter())[true] += 1
    clustered = sum(sum(counts.values()) for counts in clusters.values())
    return sum(counts.most_common(1)[0][1] for counts in clusters.values()) / clustered if clustered else 0.0


def theme_recall(labels: list[int], truth: list[str]) -> dict[str, float]:
    """For each theme, the share of its points that sit in the one cluster holding most of them."""
    out = {}
    for theme in sorted(set(truth) - {"noise"}):
        in_clusters = Counter(label for label, true in zip(labels, truth) if true == theme and label >= 0)
        total = sum(1 for true in truth if true == theme)
        out[theme] = (in_clusters.most_common(1)[0][1] / total) if in_clusters else 0.0
    return out
