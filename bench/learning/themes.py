"""The planted themes of tests/data/experiences.jsonl and what an agent would write about each.

`VALUES` (tests/data/experiences_values.json) are the faithful one-sentence
summaries of each theme, written before clustering: the first draft an agent
could write (the value ritual should accept each for its own theme's cluster).
`SECOND_DRAFTS` ({axis: {theme: text}}) were written after a refusal, by
reading the refused cluster's members as the ritual asks. `UNRELATED` are
statements about nothing in the corpus (it must refuse them everywhere).
tests/learning/test_corpus.py reads the same file.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "experiences.jsonl"
THEMES = ROOT / "tests" / "data" / "experiences_themes.json"

_WRITTEN = json.loads((ROOT / "tests" / "data" / "experiences_values.json").read_text(encoding="utf-8"))
VALUES: dict[str, str] = _WRITTEN["values"]
SECOND_DRAFTS: dict[str, dict[str, str]] = _WRITTEN["second_drafts"]
UNRELATED: list[str] = _WRITTEN["unrelated"]


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
