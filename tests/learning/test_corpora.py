"""The two GHAP corpora written blind (bench/learning/corpora/: platform-terse and product-wordy), with the
real model: the full axis's clusters against their planted themes, and the value ritual.

Each corpus was written by a helper who saw only GHAP.md's entry format and a list of themes, with each
theme's faithful and paraphrased one-sentence values and unrelated statements, and frozen before the method
changed (each folder's README.md). `python -m bench.learning.corpora` measured, with the library as it is
(commit in bench/learning/RESULTS.md, "Every corpus"): purity 0.94 / 0.97, every planted theme leading a cluster
(6 of 6 on both), faithful values accepted 11/12 and 12/12, paraphrases 10/12 and 10/12, every other theme's
value and every unrelated statement refused. The floors below sit under that: they fail when a change makes
things far worse, not on noise. tests/learning/test_corpus.py does the same on the original corpus.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import learnmem

CORPORA = Path(__file__).resolve().parents[2] / "bench" / "learning" / "corpora"
PURITY_FLOOR = 0.85
LEADING_FLOOR = 5  # of 6 planted themes
# kind: (least accepted or refused as it should be, of how many)
RITUAL_FLOORS = {"faithful": (8, 12), "paraphrased": (7, 12), "other": (57, 60), "unrelated": (48, 48)}


@pytest.fixture(scope="module", params=["platform-terse", "product-wordy"])
def corpus(request, tmp_path_factory, embedder):
    folder = CORPORA / request.param
    lm = learnmem.open(tmp_path_factory.mktemp(request.param) / "corpus.duckdb", embedder=embedder)
    result = lm.import_ghap(folder / "experiences.jsonl")
    assert result.imported >= 200 and not result.errors
    truth = json.loads((folder / "themes.json").read_text(encoding="utf-8"))
    statements = json.loads((folder / "values.json").read_text(encoding="utf-8"))
    run = lm.get_clusters("full")
    members = {c.cluster_id: [m.ghap_id for m in lm.get_cluster_members(c.cluster_id, limit=100)]
               for c in run.clusters}
    yield lm, truth, statements, members
    lm.close()


def test_the_full_axis_finds_the_planted_themes(corpus):
    _, truth, _, members = corpus
    counts = [Counter(truth[ghap_id] for ghap_id in ids) for ids in members.values()]
    clustered = sum(sum(c.values()) for c in counts)
    purity = sum(c.most_common(1)[0][1] for c in counts) / clustered
    leading = {c.most_common(1)[0][0] for c in counts} - {"noise"}
    assert purity >= PURITY_FLOOR, purity
    assert len(leading) >= LEADING_FLOOR, sorted(leading)


def test_the_value_ritual_accepts_faithful_values_and_refuses_the_rest(corpus):
    lm, truth, statements, members = corpus
    got = {kind: 0 for kind in RITUAL_FLOORS}
    for theme, faithful in statements["faithful"].items():
        held = Counter({cid: sum(truth[g] == theme for g in ids) for cid, ids in members.items()})
        cluster_id = held.most_common(1)[0][0]
        others = [text for other, texts in statements["faithful"].items() if other != theme for text in texts]
        for kind, texts, want in (("faithful", faithful, True), ("paraphrased", statements["paraphrased"][theme], True),
                                  ("other", others, False), ("unrelated", statements["unrelated"], False)):
            for text in texts:
                check = lm.validate_value(text, cluster_id)
                got[kind] += check.valid == want
                assert check.reason and check.cluster_id == cluster_id
    for kind, (floor, total) in RITUAL_FLOORS.items():
        assert got[kind] >= floor, (kind, got[kind], total)
