"""Context assembly and premortems, on a real file with the real model, real code and real git history."""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import learnmem
from learnmem.context import assembly as context
from learnmem.embedding.embed import HashingEmbedder
from tests.conftest import copy_corpus
from tests.gitrepo import GitRepo

DATA = Path(__file__).resolve().parents[1] / "data"
THEMES = json.loads((DATA / "experiences_themes.json").read_text(encoding="utf-8"))
VALUES = json.loads((DATA / "experiences_values.json").read_text(encoding="utf-8"))["values"]

CACHE_CODE = '''"""The price cache."""

_PRICES = {}


def cached_price(sku, fetch):
    """Return the cached price of a SKU, fetching it on a miss."""
    if sku not in _PRICES:
        _PRICES[sku] = fetch(sku)
    return _PRICES[sku]


def clear_price_cache():
    """Empty the module-level price cache (tests call it in teardown)."""
    _PRICES.clear()
'''

REPORT_CODE = '''def render_invoice(order):
    """Format an order as a plain-text invoice."""
    return "\\n".join(f"{line.sku}: {line.total}" for line in order.lines)
'''


@pytest.fixture(scope="module")
def world(tmp_path_factory, embedder, corpus_file):
    """A project: the corpus of experiences (imported first: tests/conftest.py corpus_file), code and history
    indexed, memories, the experiences clustered, a value stored, one GHAP cycle of our own (falsified) and one
    active entry."""
    root = tmp_path_factory.mktemp("context")
    copy_corpus(corpus_file, root / "memory.duckdb")
    repo = GitRepo.init(root / "shop")
    now = int(time.time())
    repo.write("shop/cache.py", CACHE_CODE)
    repo.commit("Add the price cache", when=now - 7200)
    repo.write("shop/invoice.py", REPORT_CODE)
    repo.commit("Render invoices as text", when=now - 3600)
    repo.write("shop/cache.py", CACHE_CODE + "\n\nCACHE_TTL_SECONDS = 300\n")
    repo.commit("Cache prices for five minutes", when=now - 600)

    lm = learnmem.open(root / "memory.duckdb", embedder=embedder)
    lm.index_codebase(repo.path, project="shop", progress=False)
    lm.index_commits(repo.path, project="shop", progress=False)
    ids = {
        "decision": lm.store_memory("We decided to cache prices for five minutes because the pricing API "
                                    "rate-limits us at 10 requests per second", category="decision",
                                    importance=0.9).id,
        "preference": lm.store_memory("Use ruff for formatting, not black", category="preference",
                                      importance=0.6).id,
        "fact": lm.store_memory("The staging database is refreshed from production every Sunday night",
                                category="fact", importance=0.3).id,
    }
    assert lm.sql("SELECT count(*) FROM ghap_entries").fetchone() == (332,)
    lm.get_clusters("full")
    rows = lm.sql("SELECT ghap_id, cluster_id FROM current_cluster_members WHERE axis = 'full' AND cluster_id "
                  "IS NOT NULL").fetchall()
    cluster = Counter(c for g, c in rows if THEMES[g] == "timezone-dst").most_common(1)[0][0]
    ids["value"] = lm.store_value(VALUES["timezone-dst"], cluster, "full").id

    lm.start_ghap("testing", "root-cause-analysis", "Make test_cached_price_refetches pass in the full suite",
                  "The price cache keeps entries from earlier tests", "Run the test alone and after the others",
                  "It passes alone and fails after test_cached_price_hit")
    ids["ours"] = lm.resolve_ghap(
        "falsified", "It failed alone too: the fetch stub was never called",
        surprise="The stub recorded zero calls even on a cold cache",
        root_cause={"category": "wrong-assumption",
                    "description": "The test patched shop.cache.fetch, but cached_price receives fetch as an argument"},
        lesson={"what_worked": "Passing the stub as the fetch argument",
                "takeaway": "Clear the module-level price cache in teardown with clear_price_cache()"}).id
    ids["active"] = lm.start_ghap("performance", "divide-and-conquer", "Halve the invoice rendering time",
                                  "String concatenation dominates", "Profile render_invoice",
                                  "Most time is spent in the join").id
    return lm, ids


def test_light_context_shows_every_source_with_ids(world):
    lm, ids = world
    result = lm.get_context()
    text = result.markdown
    assert result.depth == "light" and result.situation is None
    for section in ("## Active GHAP", "## Values", "## Recent experiences", "## Memories", "## Recent commits",
                    "## Hotspots"):
        assert section in text, section
    for key in ("active", "value", "ours", "decision", "preference", "fact"):
        assert f"`{ids[key]}`" in text, key
    assert "Cache prices for five minutes" in text and "shop/cache.py" in text
    assert {item.kind for item in result.items} == {"active", "value", "experience", "memory", "commit", "hotspot"}
    assert result.tokens == sum(lm.count_tokens([text])) <= result.max_tokens == 2000


def test_rich_context_brings_the_lesson_the_memory_and_the_code(world):
    lm, ids = world
    result = lm.get_context("test_cached_price_refetches fails again after the other cache tests: stale price",
                            depth="rich")
    text = result.markdown
    assert text.startswith("# learnmem context (rich): test_cached_price_refetches fails again")
    assert f"`{ids['ours']}`" in text and "clear_price_cache()" in text  # our own falsified cycle's lesson
    assert "## Patterns" in text and "root cause" in text
    assert "## Relevant code" in text and "(function, shop/cache.py:" in text  # the code to look at
    assert f"`{ids['decision']}`" in text  # the memory about the price cache
    assert result.tokens <= 2000
    without_code = lm.get_context("stale price in the cache tests", depth="rich", include_code=False)
    assert "## Relevant code" not in without_code.markdown
    assert all(item.kind != "code" for item in without_code.items)


def test_the_budget_is_kept_and_shared_by_rank(world):
    lm, _ = world
    full = lm.get_context("a flaky test that depends on the order of the suite", depth="rich", max_tokens=32_000)
    tight = lm.get_context("a flaky test that depends on the order of the suite", depth="rich", max_tokens=300)
    assert tight.tokens <= 300 < full.tokens
    assert tight.omitted > full.omitted >= 0
    assert len(tight.items) + tight.omitted == len(full.items) + full.omitted
    assert sum(lm.count_tokens([tight.markdown])) == tight.tokens
    # round robin: no section gets its second item while another section's first is left out and would fit
    kinds = Counter(item.kind for item in tight.items)
    firsts = {item.kind for item in full.items}
    cheapest_first = min(item.tokens for item in full.items)
    assert all(kinds[kind] >= 1 for kind in firsts) or tight.tokens + cheapest_first > 300


def test_items_are_not_repeated_across_sections(world):
    lm, ids = world
    duplicate = lm.store_memory(VALUES["timezone-dst"], category="fact").id
    try:
        text = lm.get_context("timezone bugs around daylight saving time", depth="rich").markdown
        normal = " ".join(VALUES["timezone-dst"].split())
        assert text.count(normal) == 1 and f"`{ids['value']}`" in text and f"`{duplicate}`" not in text
        ghap_ids = [item.id for item in lm.get_context("timezone bugs", depth="rich").items
                    if item.kind == "experience"]
        assert len(ghap_ids) == len(set(ghap_ids))
    finally:
        lm.delete_memory(duplicate)


def test_premortem_counts_failures_causes_and_values(world):
    lm, ids = world
    pair = lm.sql("SELECT domain, strategy, count(*) AS n FROM experiences WHERE outcome_status = 'falsified' "
                  "GROUP BY ALL ORDER BY n DESC, domain, strategy LIMIT 1").fetchone()
    domain, strategy, falsified = pair
    counts = dict(lm.sql("SELECT outcome_status, count(*) FROM experiences WHERE domain = ? AND strategy = ? "
                         "GROUP BY ALL", [domain, strategy]).fetchall())
    result = lm.get_premortem(domain, strategy)
    assert (result.total, result.confirmed, result.falsified, result.abandoned) == (
        sum(counts.values()), counts.get("confirmed", 0), falsified, counts.get("abandoned", 0))
    assert 1 <= len(result.failures) <= 5 and all(f.domain == domain and f.strategy == strategy
                                                  for f in result.failures)
    categories = lm.sql("SELECT root_cause_category, count(*) AS n FROM experiences WHERE domain = ? AND "
                        "strategy = ? AND root_cause_category IS NOT NULL GROUP BY ALL ORDER BY n DESC, 1",
                        [domain, strategy]).fetchall()
    assert [(c.text.split(":")[0], c.count) for c in result.root_causes] == categories[:5]
    assert f"{result.total} earlier attempts" in result.markdown and "## Frequent root causes" in result.markdown

    ours = lm.get_premortem("testing", "root-cause-analysis", "the cached price test fails after the others")
    assert ours.failures and ours.failures[0].ghap_id == ids["ours"]
    assert "clear_price_cache()" in ours.markdown

    timezone_entry = next(g for g, theme in THEMES.items() if theme == "timezone-dst")
    tz_domain, tz_strategy = lm.sql("SELECT domain, strategy FROM experiences WHERE id = ?",
                                    [timezone_entry]).fetchone()
    assert ids["value"] in {value.id for value in lm.get_premortem(tz_domain, tz_strategy).values}


def test_an_empty_file_gets_an_honest_context(tmp_path, embedder):
    lm = learnmem.open(tmp_path / "empty.duckdb", embedder=embedder)
    light = lm.get_context()
    assert light.items == () and light.omitted == 0 and "Nothing stored yet" in light.markdown
    assert lm.get_context("anything at all", depth="rich").items == ()
    premortem = lm.get_premortem("debugging", "trial-and-error")
    assert premortem.total == 0 and premortem.failures == () and "No resolved debugging experience" in \
        premortem.markdown


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"depth": "medium"}, "depth"),
    ({"depth": "rich"}, "situation"),
    ({"depth": "rich", "situation": "   "}, "situation"),
    ({"max_tokens": 99}, "max_tokens"),
    ({"max_tokens": 32_001}, "max_tokens"),
    ({"situation": "x" * 2001}, "situation"),
    ({"project": ""}, "project"),
])
def test_bad_context_input_names_the_field(tmp_path, kwargs, field):
    lm = learnmem.open(tmp_path / "bad.duckdb", embedder=HashingEmbedder())
    with pytest.raises(learnmem.ValidationError, match=field):
        lm.get_context(**kwargs)


@pytest.mark.parametrize(("args", "field"), [
    (("cooking", "trial-and-error"), "domain"),
    (("debugging", "guessing"), "strategy"),
    (("debugging", "trial-and-error", "x" * 2001), "situation"),
])
def test_bad_premortem_input_names_the_field(tmp_path, args, field):
    lm = learnmem.open(tmp_path / "bad.duckdb", embedder=HashingEmbedder())
    with pytest.raises(learnmem.ValidationError, match=field):
        lm.get_premortem(*args)


def test_tokens_are_counted_whole_by_the_models_tokenizer(embedder, tmp_path):
    long_text = "the " * 600  # far past the model's 256-token window
    assert embedder.count_tokens([long_text, "", "hello world"]) == [600, 0, 2]
    unloaded = learnmem.open(tmp_path / "tokens.duckdb")  # no embedder given: the tokenizer alone is loaded
    assert unloaded.count_tokens([long_text, "hello world"]) == [600, 2]


@settings(max_examples=200, deadline=None)
@given(budget=st.integers(min_value=1, max_value=400),
       sizes=st.lists(st.lists(st.integers(min_value=1, max_value=40), max_size=6), max_size=6))
def test_assembly_never_exceeds_the_budget(budget, sizes):
    sections = [context._Section(f"S{n}", tuple(
        context._Candidate("memory", f"m{n}-{r}", "- " + " ".join(["w"] * size) + f" `m{n}-{r}`", 1.0, f"m{n}-{r}")
        for r, size in enumerate(section))) for n, section in enumerate(sizes)]
    sections = [section for section in sections if section.candidates]
    result = context._assemble(HashingEmbedder().count_tokens, "# h", "light", None, budget, sections)
    if result.items:
        assert result.tokens <= budget
    else:
        assert result.markdown.startswith("# h\n\nNothing ")
    assert len(result.items) + result.omitted == sum(len(section) for section in sizes)
    for item in result.items:
        assert item.text in result.markdown
