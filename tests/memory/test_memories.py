"""Memories with the real model and a real file: store, duplicates, bad input, retrieval, list, delete."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import learnmem
from learnmem.search import hybrid as search
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import NotFoundError, ValidationError
from learnmem.memory import memories, pending
from learnmem.storage import memory_rows

# Single stores that fold into the big table in this module's test of it (memories.FOLD_ROWS is 64).
FOLD_ROWS = 5

# The contract tests: each test that opens a store runs on a file and on a lake (tests/conftest.py).
BOTH_BACKENDS = True

PROJECT_MEMORIES = [
    ("Use ruff for formatting and linting; black is not used in this repository.", "preference", ["style"]),
    ("The API server listens on port 8080 in development and 443 in production.", "fact", ["ops"]),
    ("We chose DuckDB over SQLite because the analytics queries scan whole tables.", "decision", ["db"]),
    ("Never call load_config() at import time: it reads the environment too early.", "correction", ["config"]),
    ("Integration tests need the REDIS_URL environment variable to point at a local redis.", "requirement", ["tests"]),
    ("The deploy pipeline is blocked until the staging certificate is renewed.", "blocker", ["ops"]),
    ("Database migrations live in sql/migrations and are numbered; never edit a released one.", "convention", ["db"]),
    ("Flaky test_cache failures came from a shared temp directory between workers.", "learning", ["tests"]),
    ("The user prefers small pull requests with one idea each.", "preference", []),
    ("Feature flags are read from flags.yaml at startup and cached for the process lifetime.", "fact", ["config"]),
]


@pytest.fixture
def filled(lm):
    lm.store_memories([{"content": c, "category": k, "tags": t} for c, k, t in PROJECT_MEMORIES])
    return lm


def test_store_then_get_round_trips(lm):
    result = lm.store_memory("  Prefer pathlib over os.path  ", "preference", importance=0.8, tags=["style", "python", "style"])
    assert not result.duplicate and result.id.startswith("mem_") and result.created_at.endswith("Z")
    memory = lm.get_memory(result.id)
    assert (memory.content, memory.category, memory.importance, memory.tags) == (
        "Prefer pathlib over os.path", "preference", 0.8, ("style", "python"))
    assert memory.created_at == result.created_at


def test_exact_duplicates_return_the_existing_id_and_write_nothing(lm):
    first = lm.store_memory("The cache TTL is 300 seconds.", "fact")
    again = lm.store_memory("The cache  TTL is 300 seconds.\n", "decision", importance=0.9)
    assert again.duplicate and again.id == first.id and "already stored" in again.message
    batch = lm.store_memories([{"content": "new one", "category": "fact"}, {"content": "new one", "category": "fact"}])
    assert [r.duplicate for r in batch] == [False, True] and batch[0].id == batch[1].id
    assert lm.info().counts["memories"] == 2


BAD_INPUTS = [
    (dict(content="", category="fact"), "content: must not be empty"),
    (dict(content="   ", category="fact"), "content: must not be empty"),
    (dict(content="x" * 10_001, category="fact"), "content: 10001 characters is over the limit of 10000"),
    (dict(content=42, category="fact"), "content: expected a string"),
    (dict(content="ok", category="factoid"), "category: 'factoid' is not one of: fact, preference"),
    (dict(content="ok", category="fact", importance=1.5), r"importance: 1.5 is outside the range \[0, 1\]"),
    (dict(content="ok", category="fact", importance=-0.1), "importance: -0.1 is outside"),
    (dict(content="ok", category="fact", importance=float("nan")), "importance: expected a number"),
    (dict(content="ok", category="fact", importance=True), "importance: expected a number"),
    (dict(content="ok", category="fact", tags=[1]), r"tags\[0\]: expected a string, got int 1"),
    (dict(content="ok", category="fact", tags="style"), "tags: expected a list of strings"),
    (dict(content="ok", category="fact", tags=[""]), r"tags\[0\]: must not be empty"),
    (dict(content="ok", category="fact", tags=["ok", "t" * 101]), r"tags\[1\]: 101 characters is over the limit of 100"),
]


@pytest.mark.parametrize(("kwargs", "message"), BAD_INPUTS)
def test_bad_input_names_the_field_and_writes_nothing(hashed_lm, kwargs, message):
    with pytest.raises(ValidationError, match=message):
        hashed_lm.store_memory(**kwargs)
    assert hashed_lm.info().counts["memories"] == 0


def test_one_bad_item_in_a_batch_writes_nothing(hashed_lm):
    items = [{"content": "fine", "category": "fact"}, {"content": "also fine", "category": "nope"}]
    with pytest.raises(ValidationError, match=r"memories\[1\]\.category"):
        hashed_lm.store_memories(items)
    with pytest.raises(ValidationError, match=r"memories\[0\]\.colour: unknown field"):
        hashed_lm.store_memories([{"content": "x", "category": "fact", "colour": "red"}, items[0]])
    assert hashed_lm.info().counts["memories"] == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda lm: lm.retrieve_memories("q", limit=0), r"limit: 0 is outside the range \[1, 100\]"),
        (lambda lm: lm.retrieve_memories("q", limit=101), r"limit: 101 is outside the range \[1, 100\]"),
        (lambda lm: lm.retrieve_memories(""), "query: must not be empty"),
        (lambda lm: lm.retrieve_memories("q", category="x"), "category: 'x' is not one of"),
        (lambda lm: lm.list_memories(limit=500), r"limit: 500 is outside the range \[1, 100\]"),
        (lambda lm: lm.list_memories(offset=-1), "offset: -1 is outside the range >= 0"),
        (lambda lm: lm.list_memories(tags=[None]), r"tags\[0\]: expected a string"),
    ],
)
def test_bad_query_arguments(hashed_lm, call, message):
    with pytest.raises(ValidationError, match=message):
        call(hashed_lm)


def test_unknown_ids_are_not_found(hashed_lm):
    with pytest.raises(NotFoundError, match="id: no memory 'mem_nope'"):
        hashed_lm.get_memory("mem_nope")
    with pytest.raises(NotFoundError, match="id: no memory 'mem_nope'"):
        hashed_lm.delete_memory("mem_nope")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("which code formatter should I use?", "Use ruff"),  # semantic: no shared keyword but "format"
        ("what port does the server run on", "port 8080"),
        ("why did we pick duckdb", "We chose DuckDB"),
        ("load_config", "Never call load_config()"),  # an identifier: keyword search carries it
        ("REDIS_URL", "REDIS_URL"),
        ("why can't we ship to production right now?", "deploy pipeline is blocked"),
        ("how big should a pull request be", "small pull requests"),
    ],
)
def test_retrieval_puts_the_relevant_memory_first(filled, query, expected):
    hits = filled.retrieve_memories(query, limit=3)
    assert expected in hits[0].content, [h.content for h in hits]
    assert hits[0].score >= hits[-1].score


def test_retrieval_filters_before_ranking(filled):
    hits = filled.retrieve_memories("configuration", category="fact", tags=["config"])
    assert [h.content for h in hits] == [PROJECT_MEMORIES[9][0]]
    assert filled.retrieve_memories("anything", tags=["no-such-tag"]) == []


def test_importance_then_recency_break_ties():
    # Four rows with the same vector and no keyword match: the fused scores tie exactly.
    vectors = np.tile(np.eye(1, 384, dtype=np.float32), (4, 1))
    ranked = search.hybrid_rank(
        vectors @ vectors[0],
        search.Bm25(pa.array([["a"], ["b"], ["c"], ["d"]])),
        ["zzz"],
        np.ones(4, dtype=bool),
        limit=4,
        importance=np.array([0.2, 0.9, 0.2, 0.5]),
        recency=np.array([1, 2, 3, 4]),
    )
    assert list(ranked.rows) == [1, 3, 2, 0]


def test_retrieval_sees_writes_and_deletes_from_another_handle(lm, embedder, open_again):
    lm.store_memory("first memory about caching", "fact")
    assert len(lm.retrieve_memories("caching")) == 1  # snapshot loaded
    other = open_again(embedder=embedder)
    added = other.store_memory("second memory about caching layers", "fact").id
    assert {h.id for h in lm.retrieve_memories("caching")} >= {added}
    other.delete_memory(added)
    assert added not in {h.id for h in lm.retrieve_memories("caching")}


def test_single_stores_gather_in_the_small_table_and_move_to_the_big_one_together(hashed_lm, open_again, monkeypatch):
    """Migration 014: one store at a time goes to memories_recent, FOLD_ROWS of them move to memories_stored in one
    append; a batch of FOLD_ROWS or more goes there at once; the view `memories`, listing and retrieval (this
    handle's, kept current by its own writes, and another's) see every one once. FOLD_ROWS is made small: the
    rule is the same, and 67 single stores took ~30 s on a lake."""
    monkeypatch.setattr(memory_rows, "FOLD_ROWS", FOLD_ROWS)
    monkeypatch.setattr(pending, "FOLD_ROWS", FOLD_ROWS)
    halves = "SELECT (SELECT count(*) FROM memories_stored), (SELECT count(*) FROM memories_recent)"
    other = open_again(embedder=HashingEmbedder())
    assert other.retrieve_memories("warm-up") == []  # its snapshot: empty, loaded
    singles = [hashed_lm.store_memory(f"The cache number {i} warms in {i * 7} seconds", "fact").id
               for i in range(FOLD_ROWS + 3)]
    assert hashed_lm.sql(halves).fetchone() == (FOLD_ROWS, 3)
    batch = [r.id for r in hashed_lm.store_memories([{"content": f"Queue {i} drains {i * 3} jobs a minute",
                                                       "category": "fact"} for i in range(FOLD_ROWS)])]
    assert hashed_lm.sql(halves).fetchone() == (2 * FOLD_ROWS, 3)
    every = singles + batch
    assert hashed_lm.sql("SELECT count(*), count(DISTINCT id) FROM memories").fetchone() == (len(every), len(every))
    # Newest first: the batch (its rows tie in a lake, where one insert's rows share their seq), then the singles.
    listed = [m.id for page in range(0, len(every), 100) for m in hashed_lm.list_memories(limit=100, offset=page)]
    assert set(listed[: len(batch)]) == set(batch) and listed[len(batch):] == singles[::-1]
    for handle in (hashed_lm, other):
        assert handle.retrieve_memories("cache number 5 warms in 35 seconds", limit=1)[0].id == singles[5]
        last = f"Queue {FOLD_ROWS - 1} drains {(FOLD_ROWS - 1) * 3} jobs a minute"
        assert handle.retrieve_memories(last, limit=1)[0].id == batch[-1]
    hashed_lm.delete_memory(singles[-1])
    hashed_lm.delete_memory(singles[0])  # one from each half
    assert hashed_lm.sql(halves).fetchone() == (2 * FOLD_ROWS - 1, 2)
    assert singles[0] not in {h.id for h in other.retrieve_memories("cache number 0 warms", limit=5)}


def test_list_is_newest_first_with_filters_and_paging(filled):
    everything = filled.list_memories(limit=100)
    assert len(everything) == len(PROJECT_MEMORIES)
    assert [m.created_at for m in everything] == sorted((m.created_at for m in everything), reverse=True)
    assert {m.category for m in filled.list_memories(category="preference")} == {"preference"}
    assert all("ops" in m.tags for m in filled.list_memories(tags=["ops"]))
    assert len(filled.list_memories(tags=["ops"])) == 2
    pages = filled.list_memories(limit=4) + filled.list_memories(limit=4, offset=4) + filled.list_memories(limit=4, offset=8)
    assert [m.id for m in pages] == [m.id for m in everything]


def test_delete_removes_it_everywhere(filled):
    target = filled.retrieve_memories("REDIS_URL", limit=1)[0]
    assert filled.delete_memory(target.id).deleted
    with pytest.raises(NotFoundError):
        filled.get_memory(target.id)
    assert target.id not in {h.id for h in filled.retrieve_memories("REDIS_URL")}
    assert filled.sql("SELECT count(*) FROM memories WHERE id = $id", {"id": target.id}).fetchone() == (0,)


def test_sql_returns_a_usable_relation(filled):
    relation = filled.sql("SELECT category, count(*) AS n FROM memory_list GROUP BY category ORDER BY category")
    assert ("preference", 2) in relation.fetchall()
    assert relation.df()["n"].sum() == len(PROJECT_MEMORIES)
    assert relation.arrow().read_all().num_rows == len(relation.fetchall())


text_strategy = st.text(st.characters(codec="utf-8"), min_size=1, max_size=300).filter(lambda s: s.strip())
# A tag is at most 100 characters (longer ones are refused: BAD_INPUTS).
tag_strategy = st.text(st.characters(codec="utf-8"), min_size=1, max_size=100).filter(lambda s: s.strip())


# A store on a lake costs ~5x one on a file (its catalog's round trips): the file explores the texts, the lake
# checks that it keeps what it is given as the file does.
UNICODE_EXAMPLES = {"file": 60, "lake": 20}


def test_arbitrary_unicode_round_trips(hashed_lm, backend):
    @settings(max_examples=UNICODE_EXAMPLES[backend], deadline=None)
    @given(content=text_strategy, tags=st.lists(tag_strategy, max_size=4))
    def round_trip(content, tags):
        stored = hashed_lm.store_memory(content, "fact", tags=tags)
        memory = hashed_lm.get_memory(stored.id)
        assert memory.content == learnmem_clean(content) or stored.duplicate
        if stored.duplicate:  # hypothesis repeats texts; the first copy's tags stay
            return
        assert memory.tags == tuple(dict.fromkeys(learnmem_clean(t) for t in tags))

    round_trip()


def learnmem_clean(value: str) -> str:
    from learnmem.validate import clean_text

    return clean_text(value).strip()


def test_invalid_utf8_is_replaced_not_refused(hashed_lm):
    stored = hashed_lm.store_memory("broken \ud800 surrogate and \x00 nul", "fact")
    assert hashed_lm.get_memory(stored.id).content == "broken \ufffd surrogate and \ufffd nul"


def test_hashing_embedder_file_is_separate_from_real_model(tmp_path):
    lm = learnmem.open(tmp_path / "h.duckdb", embedder=HashingEmbedder())
    assert lm.store_memory("x", "fact").duplicate is False


def test_a_fact_deep_inside_a_long_memory_is_found(lm):
    filler = " ".join(
        f"Session note {i}: we reviewed the sprint board, discussed the roadmap and agreed to revisit the backlog."
        for i in range(40)
    )
    long_memory = filler + " Finally, the production database password rotates every 30 days via Vault."
    assert len(long_memory.split()) > 500  # far past the model's 256-token window
    stored = lm.store_memory(long_memory, "fact").id
    lm.store_memory("The staging database is reset every night at 2 am.", "fact")
    lm.store_memory("Passwords for developer laptops must be at least 14 characters.", "requirement")
    hits = lm.retrieve_memories("how often is the prod db credential rotated?", limit=3)
    assert hits[0].id == stored, [h.content[-80:] for h in hits]
    row = lm.sql("SELECT len(passages) FROM memories WHERE id = $id", {"id": stored}).fetchone()
    assert row[0] > 3
