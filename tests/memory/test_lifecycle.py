"""Memory lifecycle: supersede (old kept, hidden), forget (soft and recoverable, or hard and scrubbed from the
file), restore. Real DuckDB files; the hashing embedder where retrieval quality is not judged."""

from __future__ import annotations

from pathlib import Path

import pytest

import learnmem
from learnmem.memory import dedupe
from learnmem.memory.memories import MEMORY_TABLES
from learnmem.embedding.embed import HashingEmbedder


@pytest.fixture
def memory(tmp_path):
    return learnmem.open(tmp_path / "memory.duckdb", embedder=HashingEmbedder())


def test_a_superseded_memory_is_kept_hidden_and_names_its_replacement(memory):
    old = memory.store_memory("The API listens on port 8080 in development", "fact", 0.7, ["api"])
    new = memory.supersede_memory(old.id, "The API listens on port 9090 in development")
    assert new.superseded == old.id and not new.duplicate and "supersedes" in new.message
    assert [m.id for m in memory.list_memories()] == [new.id]
    assert {m.id: m.superseded_by for m in memory.list_memories(include_superseded=True)} == {new.id: None,
                                                                                              old.id: new.id}
    assert [h.id for h in memory.retrieve_memories("API port in development")] == [new.id]
    found = {h.id: h.superseded_by for h in memory.retrieve_memories("API port", include_superseded=True)}
    assert found == {new.id: None, old.id: new.id}
    replacement = memory.get_memory(new.id)  # same category, importance and tags as the one it replaced
    assert (replacement.category, replacement.importance, replacement.tags) == ("fact", 0.7, ("api",))
    assert memory.get_memory(old.id).superseded_by == new.id
    assert memory.sql("SELECT superseded_by FROM memory_list WHERE id = ?", [old.id]).fetchone() == (new.id,)
    # The chain goes on from its newest link only.
    newest = memory.store_memory("The API listens on port 9443 with TLS", "fact", supersedes=new.id)
    assert memory.get_memory(new.id).superseded_by == newest.id
    with pytest.raises(learnmem.ValidationError, match=f"supersedes: .*already superseded by '{new.id}'"):
        memory.store_memory("The API listens on port 1234", "fact", supersedes=old.id)


@pytest.mark.parametrize("case", ["unknown", "itself", "forgotten"])
def test_a_bad_supersede_stores_nothing(memory, case):
    target = memory.store_memory("Deploys happen on Tuesdays", "fact")
    content = "Deploys happen every weekday"
    if case == "unknown":
        error, target_id = learnmem.NotFoundError, "mem_nope"
    elif case == "itself":
        error, target_id, content = learnmem.ValidationError, target.id, "Deploys happen  on Tuesdays"
    else:
        memory.forget(target.id)
        error, target_id = learnmem.ValidationError, target.id
    before = memory.sql("SELECT count(*) FROM memories").fetchone()
    with pytest.raises(error, match="supersedes"):
        memory.store_memory(content, "fact", supersedes=target_id)
    assert memory.sql("SELECT count(*) FROM memories").fetchone() == before
    assert memory.sql("SELECT count(*) FROM memory_states WHERE superseded_by IS NOT NULL").fetchone() == (0,)


def test_soft_forget_hides_and_restore_brings_back(memory):
    kept = memory.store_memory("Staging refreshes on Sundays", "fact", tags=["ops"])
    gone = memory.store_memory("The on-call rotation changes on Mondays", "fact", tags=["ops", "people"])
    result = memory.forget(gone.id)
    assert (result.ids, result.count, result.hard) == ((gone.id,), 1, False)
    assert [m.id for m in memory.list_memories()] == [kept.id]
    assert gone.id not in {h.id for h in memory.retrieve_memories("on-call rotation Mondays")}
    with pytest.raises(learnmem.NotFoundError, match="forgotten .*restore_memory"):
        memory.get_memory(gone.id)
    assert memory.sql("SELECT count(*) FROM memory_list").fetchone() == (1,)
    assert memory.restore_memory(gone.id).id == gone.id
    assert {m.id for m in memory.list_memories()} == {kept.id, gone.id}
    with pytest.raises(learnmem.NotFoundError, match="not a forgotten memory"):
        memory.restore_memory(gone.id)
    # By tags (all must match), by category, everything; an already forgotten one is not counted twice.
    assert memory.forget(tags=["ops", "people"]).ids == (gone.id,)
    assert memory.forget(tags=["ops"]).ids == (kept.id,)
    memory.store_memory("Use ruff", "preference")
    assert memory.forget(category="preference").count == 1
    assert memory.forget(everything=True).count == 0
    assert memory.list_memories() == []


def test_another_handle_sees_a_forget_at_once(tmp_path):
    path = tmp_path / "shared.duckdb"
    reader = learnmem.open(path, embedder=HashingEmbedder())
    writer = learnmem.open(path, embedder=HashingEmbedder())
    stored = writer.store_memory("The deploy key rotates every 90 days", "fact")
    assert [h.id for h in reader.retrieve_memories("deploy key rotation")] == [stored.id]  # its snapshot is loaded
    writer.forget(stored.id)
    assert reader.retrieve_memories("deploy key rotation") == []
    writer.restore_memory(stored.id)
    assert [h.id for h in reader.retrieve_memories("deploy key rotation")] == [stored.id]


def test_a_hard_forget_scrubs_the_text_from_the_file(tmp_path):
    path = tmp_path / "scrub.duckdb"
    memory = learnmem.open(path, embedder=HashingEmbedder())
    memory.store_memories([{"content": f"filler memory number {n} about nothing in particular", "category": "fact"}
                           for n in range(300)])
    marker = "ZEBRA-PRIVATE-NOTE-7731"
    secret = memory.store_memory(f"{marker}: the customer's phone number is in the ticket", "fact")
    replacement = memory.supersede_memory(secret.id, "Customer contact details live in the CRM only")
    memory.forget(secret.id)  # soft first: the text is still in the file
    assert marker.encode() in path.read_bytes()
    result = memory.forget(secret.id, hard=True)  # a soft-forgotten memory can still be purged
    assert (result.ids, result.hard) == ((secret.id,), True)
    assert marker.encode() not in path.read_bytes()
    assert not path.with_name(path.name + ".wal").exists() and not path.with_name(path.name + ".rewrite").exists()
    again = learnmem.open(path, embedder=HashingEmbedder())  # the rewritten file opens and holds the rest
    assert again.info().counts["memories"] == 301
    assert again.get_memory(replacement.id).content == "Customer contact details live in the CRM only"
    with pytest.raises(learnmem.NotFoundError):
        again.get_memory(secret.id)
    assert again.store_memory("A new memory after the rewrite", "fact").id  # sequences carried over
    with pytest.raises(learnmem.NotFoundError, match="no memory"):
        again.forget(secret.id, hard=True)


def test_deleting_a_replacement_makes_the_old_memory_current_again(memory):
    old = memory.store_memory("Tests run against PostgreSQL", "fact")
    new = memory.supersede_memory(old.id, "Tests run against SQLite")
    memory.forget(new.id, hard=True)
    assert [m.id for m in memory.list_memories()] == [old.id]
    assert memory.get_memory(old.id).superseded_by is None
    newer = memory.supersede_memory(old.id, "Tests run against PostgreSQL 16")
    memory.delete_memory(newer.id)
    assert memory.get_memory(old.id).superseded_by is None


@pytest.mark.parametrize("kwargs", [
    {}, {"id": "mem_x", "category": "fact"}, {"id": "mem_x", "everything": True},
    {"category": "fact", "everything": True}, {"tags": ["a"], "everything": True},
])
def test_forget_needs_exactly_one_selection(memory, kwargs):
    with pytest.raises(learnmem.ValidationError, match="forget: give one id, or a category and/or tags, or"):
        memory.forget(**kwargs)


def test_forget_names_a_bad_category_and_an_unknown_id(memory):
    with pytest.raises(learnmem.ValidationError, match="category"):
        memory.forget(category="gossip")
    with pytest.raises(learnmem.NotFoundError, match="mem_nope"):
        memory.forget("mem_nope")


def test_storing_a_forgotten_text_again_brings_it_back(memory):
    first = memory.store_memory("Feature flags live in LaunchDarkly", "decision")
    memory.forget(first.id)
    again = memory.store_memory("Feature flags live in  LaunchDarkly", "decision")
    assert (again.id, again.duplicate) == (first.id, True) and "restored" in again.message
    assert [m.id for m in memory.list_memories()] == [first.id]


def test_context_and_the_hooks_view_leave_hidden_memories_out(lm):
    from learnmem.context.oneshot import OneShotView

    memory = lm  # the real model: the hooks' view embeds with it
    old = memory.store_memory("The nightly export runs at 02:00 UTC", "fact", importance=0.9)
    new = memory.supersede_memory(old.id, "The nightly export runs at 03:00 UTC")
    gone = memory.store_memory("The export bucket is s3://exports-old", "fact", importance=0.95)
    memory.forget(gone.id)
    ids = {item.id for item in memory.get_context().items if item.kind == "memory"}
    assert new.id in ids and not ids & {old.id, gone.id}
    view = OneShotView(memory.store)
    try:
        assert [hit.id for hit in view.retrieve_memories("nightly export time bucket", limit=10)] == [new.id]
    finally:
        view.close()


def test_recency_and_importance_weights_reorder_by_a_documented_factor(tmp_path):
    import duckdb

    path = tmp_path / "weights.duckdb"
    memory = learnmem.open(path, embedder=HashingEmbedder())
    old = memory.store_memory("The deploy job runs from the release branch", "fact", importance=1.0).id
    new = memory.store_memory("The deploy job runs from the release branch nightly", "fact", importance=0.0).id
    memory.close()
    with duckdb.connect(str(path)) as con:  # age the first one by 60 days, as if stored back then
        for table in MEMORY_TABLES:
            con.execute(f"UPDATE {table} SET created_at = created_at - INTERVAL 60 DAY WHERE id = ?", [old])
    memory = learnmem.open(path, embedder=HashingEmbedder())
    plain = {hit.id: hit.score for hit in memory.retrieve_memories("deploy job release branch")}
    recent = {hit.id: hit.score for hit in memory.retrieve_memories("deploy job release branch",
                                                                    recency_half_life_days=30)}
    assert recent[old] == pytest.approx(plain[old] * 0.25, rel=1e-3)  # two half-lives
    assert recent[new] == pytest.approx(plain[new], rel=1e-3)
    assert [hit.id for hit in memory.retrieve_memories("deploy job release branch", recency_half_life_days=30)][0] \
        == new
    weighted = {hit.id: hit.score for hit in memory.retrieve_memories("deploy job release branch",
                                                                      importance_weight=1.0)}
    assert weighted[old] == pytest.approx(plain[old] * 1.5) and weighted[new] == pytest.approx(plain[new] * 0.5)
    with pytest.raises(learnmem.ValidationError, match="importance_weight"):
        memory.retrieve_memories("deploy", importance_weight=2)
    with pytest.raises(learnmem.ValidationError, match="recency_half_life_days"):
        memory.retrieve_memories("deploy", recency_half_life_days=0)


def test_unused_memories_are_listed_as_stale_and_use_is_counted(tmp_path):
    import duckdb

    path = tmp_path / "usage.duckdb"
    memory = learnmem.open(path, embedder=HashingEmbedder())
    ids = [memory.store_memory(text, "fact").id for text in
           ("The release train leaves every second Tuesday", "Invoices are numbered per tenant",
            "The search index rebuilds nightly")]
    memory.close()
    with duckdb.connect(str(path)) as con:  # stored 40 days ago
        for table in MEMORY_TABLES:
            con.execute(f"UPDATE {table} SET created_at = created_at - INTERVAL 40 DAY")
    memory = learnmem.open(path, embedder=HashingEmbedder())
    assert [m.id for m in memory.list_stale_memories(days=30)] == ids  # never used, all stored long ago
    assert memory.list_stale_memories(days=50) == []
    hits = memory.retrieve_memories("release train Tuesday", limit=1)
    assert hits[0].id == ids[0]
    memory.get_memory(ids[1])
    stale = memory.list_stale_memories(days=30)  # writes the pending counts first
    assert [(m.id, m.accesses, m.last_accessed_at) for m in stale] == [(ids[2], 0, None)]
    assert memory.touch_memory(ids[2]).id == ids[2]
    assert memory.list_stale_memories(days=30) == []
    usage = dict(memory.sql("SELECT memory_id, accesses FROM memory_usage").fetchall())
    assert usage == {ids[0]: 1, ids[1]: 1, ids[2]: 1}
    with pytest.raises(learnmem.NotFoundError):
        memory.touch_memory("mem_nope")
    with pytest.raises(learnmem.ValidationError, match="days"):
        memory.list_stale_memories(days=-1)


def test_counts_wait_in_the_handle_until_a_flush_and_read_only_handles_count_nothing(tmp_path):
    path = tmp_path / "batches.duckdb"
    memory = learnmem.open(path, embedder=HashingEmbedder())
    stored = memory.store_memory("The cache TTL is five minutes", "decision").id
    for _ in range(3):
        memory.retrieve_memories("cache TTL")
    rows = "SELECT count(*) FROM memory_accesses"
    assert memory.sql(rows).fetchone() == (0,)  # not yet written: one write a minute at most
    memory.close()
    assert memory.sql("SELECT memory_id, accesses FROM memory_usage").fetchall() == [(stored, 3)]
    reader = learnmem.open(path, read_only=True, embedder=HashingEmbedder())
    reader.retrieve_memories("cache TTL")
    reader.close()
    assert memory.sql("SELECT accesses FROM memory_usage").fetchall() == [(3,)]


def test_a_stored_memory_reports_similar_ones_without_deciding(lm):
    port = lm.store_memory("The API server listens on port 8080 in development.", "fact")
    update = lm.store_memory("The API server now listens on port 9090 in development.", "fact")
    assert [(s.id, s.content) for s in update.similar] == [(port.id, "The API server listens on port 8080 in "
                                                                       "development.")]
    assert update.similar[0].similarity >= 0.6 and f"similar to {port.id}" in update.message
    assert {m.id for m in lm.list_memories()} == {port.id, update.id}  # both stored: the caller decides
    assert lm.store_memory("Refresh tokens rotate on every use.", "fact").similar == ()  # another subject
    assert lm.store_memory("The API server listens on port 8080 in development.", "decision").similar == ()
    newer = lm.supersede_memory(update.id, "The API server listens on port 7070 in development.")
    assert update.id not in {s.id for s in newer.similar}  # the one it replaces is not a candidate
    again = lm.store_memory("The API server now listens on port 9090 in development.", "fact")
    assert again.duplicate and again.similar == ()


def test_a_restatement_is_not_stored_twice_but_an_update_is(lm, tmp_path):
    port = lm.store_memory("The API server listens on port 8080 in development.", "fact")
    again = lm.store_memory("In dev, the API runs on port 8080.", "fact")  # a paraphrase (bench/dedupe)
    assert again.duplicate and again.near_duplicate and again.id == port.id
    assert again.similar[0].id == port.id and again.similar[0].similarity >= 0.75
    assert f"restates {port.id}" in again.message and "force=True" in again.message
    assert len(lm.list_memories()) == 1
    # An update changes a number, a name or says what changed: stored, and reported as similar.
    for update in ("The API server listens on port 9090 in development.",
                   "The API server now listens on port 8080 in production.",
                   "The API server moved to port 8080 in development."):
        result = lm.store_memory(update, "fact")
        assert not result.duplicate and not result.near_duplicate, update
    assert not lm.store_memory("In development the API runs on port 8080.", "decision").duplicate  # other category
    forced = lm.store_memory("In dev, the API runs on port 8080.", "fact", force=True)
    assert not forced.duplicate and forced.similar[0].id == port.id
    batch = lm.store_memories([{"content": "Refresh tokens rotate on every use.", "category": "fact"},
                               {"content": "The API server listens on port 8080 in development!", "category": "fact"}])
    assert [r.near_duplicate for r in batch] == [False, True]
    with pytest.raises(learnmem.ValidationError, match="force: expected True or False"):
        lm.store_memory("Anything.", "fact", force="yes")


def test_the_same_key_tokens_in_another_order_are_another_fact():
    # Found by test_backup_while_another_process_writes: "batch 10 item 1" was refused as "batch 1 item 10".
    assert not dedupe.is_restatement("writer batch 10 item 1", "writer batch 1 item 10", 0.99)
    assert dedupe.is_restatement("In dev, the API listens on port 8080.", "The API listens on port 8080 in dev.", 0.9)
    assert not dedupe.is_restatement("The API now runs on port 8080.", "The API runs on port 8080.", 0.99)


def test_a_bulk_store_compares_each_item_with_its_few_candidates_not_the_whole_store(memory, monkeypatch):
    # Issue 25: the restatement check scanned every stored memory for every item of a batch, so a bulk load went
    # quadratic (2,782/s at the first batch, 195/s at 30,000). Now each item meets only the stored memories of
    # its category with its key tokens; counted here, as no timing on a fast machine would show it.
    from learnmem.memory.index import MemorySnapshot

    full_passes, pairs = [], []
    for name in ("eligible", "similarity"):
        original = getattr(MemorySnapshot, name)
        monkeypatch.setattr(MemorySnapshot, name, lambda self, *a, _o=original, _n=name, **k:
                            full_passes.append(_n) or _o(self, *a, **k))
    similarities = MemorySnapshot.similarities
    monkeypatch.setattr(MemorySnapshot, "similarities", lambda self, rows, vectors:
                        pairs.append(len(rows) * len(vectors)) or similarities(self, rows, vectors))
    batches, size = 6, 50
    for batch in range(batches):
        results = memory.store_memories([{"content": f"Build {batch}-{item} of the payment service passed.",
                                          "category": "fact"} for item in range(size)])
        assert not any(r.duplicate for r in results)
    assert full_passes == [] and sum(pairs) == 0  # every item has key tokens of its own: no candidate at all
    # Items that share their key tokens with stored ones are compared with those alone, in one product.
    results = memory.store_memories([{"content": f"Build 0-{item} of the payment service has passed.",
                                      "category": "fact"} for item in range(size)])
    assert all(r.near_duplicate for r in results) and full_passes == []
    assert len(pairs) == size and sum(pairs) == size  # one candidate each, not batches * size
    assert len(memory.list_memories(limit=100)) == 100 and memory.info().counts["memories"] == batches * size
    # An agent's single store is compared with the whole category instead, to the same effect: one pass, whose
    # product also gives the similar memories (learnmem.memory.pending).
    again = learnmem.open(memory.store.path, embedder=HashingEmbedder())  # its snapshot knows no key tokens yet
    single = again.store_memory("Build 3-7 of the payment service has passed.", "fact")
    assert single.near_duplicate and single.similar[0].content == "Build 3-7 of the payment service passed."
    assert full_passes == ["eligible"] and len(pairs) == size
    assert not again.store_memory("Build 3-7 of the payment service failed.", "fact").duplicate  # an update


def test_a_swapped_word_is_an_update_not_a_restatement(hashed_lm):
    # Found by test_two_processes_storing_at_once_both_succeed: "... from pid right" was refused as "... pid left".
    for old, new in (("acknowledged write number 1 from pid left", "acknowledged write number 1 from pid right"),
                     ("The cache is enabled in staging.", "The cache is disabled in staging."),
                     ("Deploys go to the staging cluster first.", "Deploys go to the production cluster first."),
                     ("The linter runs before the tests.", "The linter runs after the tests.")):
        assert not dedupe.is_restatement(new, old, 0.99), new
        hashed_lm.store_memory(old, "fact")
        assert not hashed_lm.store_memory(new, "fact").duplicate, new


def test_compacting_keeps_the_newest_of_each_group_and_supersedes_the_rest(lm, tmp_path):
    texts = [("The API server listens on port 8080 in development.", "fact"),
             ("In development the API server listens on port 8080.", "fact"),
             ("The API server listens on port 9090 in development.", "fact"),
             ("Refresh tokens rotate on every use.", "fact"),
             ("Never log the request body of the payment webhook.", "correction"),
             ("Do not log the payment webhook's request body.", "correction")]
    ids = [lm.store_memory(text, category, force=True).id for text, category in texts]  # restatements too
    preview = lm.compact_memories()
    assert preview.dry_run and preview.backup is None
    assert [(g.keep.id, sorted(m.id for m in g.merged)) for g in preview.groups] == [(ids[2], sorted(ids[:2]))]
    assert (preview.memories_before, preview.memories_after) == (6, 4)
    assert len(lm.list_memories()) == 6  # a dry run changes nothing
    assert lm.compact_memories(category="correction").groups == ()  # corrections are never merged
    applied = lm.compact_memories(dry_run=False)
    assert not applied.dry_run and applied.backup and Path(applied.backup).is_file()
    assert {m.id for m in lm.list_memories()} == {ids[2], ids[3], ids[4], ids[5]}
    assert {lm.get_memory(i).superseded_by for i in ids[:2]} == {ids[2]}
    assert lm.compact_memories().groups == ()  # nothing left to merge
    with pytest.raises(learnmem.ValidationError, match="category"):
        lm.compact_memories(category="gossip")


def test_two_extensions_of_one_snapshot_keep_their_own_key_tokens(memory):
    # A write's snapshot can be extended and dropped (another refresh came first) and the same base extended
    # again: each line of snapshots must see only its own rows under their key tokens.
    from learnmem.memory.index import MemoryIndex, MemorySnapshot

    texts = [f"Release {i} shipped on time." for i in range(3)]
    keys = [dedupe.key_tokens(text) for text in texts]
    memory.store_memories([{"content": text, "category": "fact"} for text in texts])
    with memory.store.read() as con:
        rows = MemoryIndex._load(con, after_seq=0)
    base = MemorySnapshot.from_table(rows.slice(0, 1), 384)
    assert list(base.restatable("fact", keys[0])) == [0]  # the key tokens are read now
    first = base.extended(rows.slice(1, 1), 384)
    second = base.extended(rows.slice(2, 1), 384)
    assert list(first.restatable("fact", keys[1])) == [1] and list(first.restatable("fact", keys[2])) == []
    assert list(second.restatable("fact", keys[2])) == [1] and list(second.restatable("fact", keys[1])) == []
    assert second.memory(1).content == texts[2]


def test_extended_snapshots_rank_by_keywords_as_one_loaded_whole(memory):
    # A snapshot indexes its appended rows' terms only when it first ranks by keywords; a line of extensions,
    # one of them asked halfway and one branch beside it, must score every row as a snapshot loaded at once.
    from learnmem.memory.index import MemoryIndex, MemorySnapshot

    texts = [f"Release {i} of the {word} parser shipped on {day}." for i, (word, day) in
             enumerate(zip("tokio rayon serde axum hyper tonic".split(), "monday tuesday friday".split() * 2))]
    memory.store_memories([{"content": text, "category": "fact"} for text in texts])
    with memory.store.read() as con:
        rows = MemoryIndex._load(con, after_seq=0)
    query = ["parser", "serd", "friday", "releas"]
    snapshot = MemorySnapshot.from_table(rows.slice(0, 1), 384)
    for cut in range(1, len(texts)):
        if cut == 3:
            halfway = snapshot.bm25.scores(query)  # indexed here; the rows after it wait again
            assert len(halfway) == 3
            branch = snapshot.extended(rows.slice(3, 2), 384)  # another extension of the same snapshot
        snapshot = snapshot.extended(rows.slice(cut, 1), 384)
    whole = MemorySnapshot.from_table(rows, 384)
    assert snapshot.bm25.scores(query).tolist() == whole.bm25.scores(query).tolist()
    assert snapshot.bm25.scores(query)[2] > 0 and snapshot.bm25.scores(query)[5] > 0
    assert branch.bm25.scores(query).tolist() == MemorySnapshot.from_table(rows.slice(0, 5), 384).bm25.scores(query).tolist()


def test_a_writes_snapshot_holds_what_a_fresh_load_reads(memory, tmp_path):
    # A store on a file extends the process's snapshot with the rows it inserted (numbered by the insert's
    # RETURNING), not with a read back: every column, vector, passage and keyword score must be what a process
    # that loads the file afresh sees, through single stores (the small table and its fold), a batch, turns,
    # long texts of several passages, tags, sources, and a store that another process's write came before.
    from learnmem.memory import index as memory_index
    from learnmem.memory.index import MemoryIndex, MemorySnapshot

    taken = []
    original = memory_index._numbered
    memory_index._numbered = lambda *args: taken.append(len(args[0])) or original(*args)
    try:
        memory.store_memory("The first note about tokio", "fact")
        memory.retrieve_memories("tokio")  # the snapshot exists from here on
        for i in range(70):  # past FOLD_ROWS: the small table folds into the big one on the way
            memory.store_memory(f"Note {i}: serde {i} derives for the v{i} schema", "fact", tags=["serde", f"n{i}"],
                                sources=[f"docs/{i}.md"])
        memory.store_memories([{"content": f"[{i}] Bob: we moved the axum router {i} times " + "word " * (200 if i % 7 == 0 else 3),
                                "category": "fact", "speaker": "Bob", "session": "s1", "said_at": f"2026-01-{1 + i % 28:02d}"}
                               for i in range(80)])
        learnmem.open(memory.store.path, embedder=HashingEmbedder()).store_memory("Another process's note", "decision")
        memory.store_memory("A note stored after another process's", "fact")  # its check refreshes first
    finally:
        memory_index._numbered = original
    assert taken == [1] * 71 + [80, 1, 1]  # every store took its own rows: the other handle's too
    snapshot = memory._memory_index.snapshot()
    with memory.store.read() as con:
        fresh = MemorySnapshot.from_table(MemoryIndex._load(con, after_seq=0), 384)
    assert snapshot.size == fresh.size == 153
    assert snapshot.table.to_pylist() == fresh.table.to_pylist()
    assert (snapshot.vectors == fresh.vectors).all()
    assert (snapshot.passages.owners == fresh.passages.owners).all()
    assert (snapshot.passages.vectors == fresh.passages.vectors).all()
    for query in (["axum", "router", "move"], ["serd", "schema", "v7"], ["tokio"]):
        assert snapshot.bm25.scores(query).tolist() == fresh.bm25.scores(query).tolist()
