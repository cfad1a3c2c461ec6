"""Experiences: axis texts, the bronze rule, pending embeddings, hybrid search over resolved GHAP entries."""

from __future__ import annotations

import duckdb
import numpy as np
import pytest

import learnmem
from learnmem.learning import experiences, ghap
from learnmem.search import keywords
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import ValidationError
from learnmem.learning.experiences import (
    ExperienceIndex,
    axis_texts,
    bronze_reason,
    embed_pending,
    search_experiences,
)

# -- helpers ---------------------------------------------------------------------


def resolve(store, embedder, *, domain, strategy, goal, hypothesis, action, prediction, status, result,
            surprise=None, root_cause=None, lesson=None, auto_captured=False):
    """Start and resolve one entry through the GHAP state machine; its id."""
    started = ghap.start_ghap(store, domain, strategy, goal, hypothesis, action, prediction)
    ghap.resolve_ghap(store, embedder, status, result, surprise, root_cause, lesson, auto_captured)
    return started.id


def axis_rows(path) -> dict[tuple[str, str], tuple[str, bool]]:
    """{(ghap_id, axis): (text, embedded)} read straight from the file."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        rows = con.execute("SELECT ghap_id, axis, text, embedding IS NOT NULL FROM experience_axes").fetchall()
    finally:
        con.close()
    return {(ghap_id, axis): (text, embedded) for ghap_id, axis, text, embedded in rows}


class FailingEmbedder:
    """An embedder whose model is broken."""

    name, dim = "hashing-384", 384

    def embed(self, texts, batch_size=32):
        raise RuntimeError("model crashed")


AUTH = {
    "domain": "debugging", "strategy": "systematic-elimination", "goal": "Fix the auth timeout bug",
    "hypothesis": "Slow network responses exceed the 30 s timeout", "action": "Raise the timeout to 60 s",
    "prediction": "Auth failures stop",
}

# -- axis texts ------------------------------------------------------------------


def test_axis_texts_of_a_confirmed_entry_follow_the_templates(hashed_lm):
    entry_id = resolve(hashed_lm.store, None, **AUTH, status="confirmed",
                       result="No auth failures in 200 logins over a throttled link",
                       lesson={"what_worked": "Timing the slow requests first", "takeaway": "Measure before tuning"})
    rows = axis_rows(hashed_lm.path)
    assert set(rows) == {(entry_id, "full"), (entry_id, "strategy")}  # no surprise/root_cause unless falsified
    assert rows[(entry_id, "full")][0] == (
        "Domain: debugging | Strategy: systematic-elimination\n"
        "Goal: Fix the auth timeout bug\n"
        "Hypothesis: Slow network responses exceed the 30 s timeout\n"
        "Action: Raise the timeout to 60 s | Prediction: Auth failures stop\n"
        "Outcome: confirmed - No auth failures in 200 logins over a throttled link\n"
        "Lesson: Timing the slow requests first - Measure before tuning"
    )
    assert rows[(entry_id, "strategy")][0] == (
        "Strategy: systematic-elimination\n"
        "Applied to: Fix the auth timeout bug\n"
        "Hypothesis: Slow network responses exceed the 30 s timeout\n"
        "Iterations: 1\n"
        "Outcome: confirmed"
    )


def test_axis_texts_of_a_falsified_entry_include_surprise_and_root_cause(hashed_lm):
    store = hashed_lm.store
    ghap.start_ghap(store, "testing", "read-the-error", "Fix flaky test in test_cache.py",
                    "The cache TTL expires mid-test because CI clocks are slow", "Freeze time in test_cache",
                    "test_cache passes 20 of 20 CI runs")
    ghap.update_ghap(store, hypothesis="The TTL is shorter than the CI test duration")  # a second iteration
    entry_id = ghap.get_active_ghap(store).id
    ghap.resolve_ghap(store, None, "falsified", "Still failed 6 of 20 runs with time frozen",
                      surprise="It failed only when test_session ran first",
                      root_cause={"category": "test-isolation", "description": "A module-level dict leaked between tests"},
                      lesson={"what_worked": "Running the tests in random order"})
    rows = axis_rows(hashed_lm.path)
    assert rows[(entry_id, "full")][0] == (
        "Domain: testing | Strategy: read-the-error\n"
        "Goal: Fix flaky test in test_cache.py\n"
        "Hypothesis: The TTL is shorter than the CI test duration\n"
        "Action: Freeze time in test_cache | Prediction: test_cache passes 20 of 20 CI runs\n"
        "Outcome: falsified - Still failed 6 of 20 runs with time frozen\n"
        "Surprise: It failed only when test_session ran first\n"
        "Root cause: test-isolation: A module-level dict leaked between tests\n"
        "Lesson: Running the tests in random order"
    )
    assert rows[(entry_id, "strategy")][0] == (
        "Strategy: read-the-error\nApplied to: Fix flaky test in test_cache.py\n"
        "Hypothesis: The TTL is shorter than the CI test duration\nIterations: 2\nOutcome: falsified"
    )
    assert rows[(entry_id, "surprise")][0] == "It failed only when test_session ran first"
    assert rows[(entry_id, "root_cause")][0] == "test-isolation: A module-level dict leaked between tests"


def test_axis_texts_of_abandoned_entries_including_superseded_ones(hashed_lm):
    store = hashed_lm.store
    first = ghap.start_ghap(store, **AUTH).id
    second = ghap.start_ghap(store, "feature", "research-first", "Add WebSocket notifications",
                             "The proxy forwards Upgrade headers", "Open a socket through staging",
                             "A ping frame reaches the browser").id  # supersedes the first
    ghap.abandon_ghap(store, None, "User chose server-sent events instead")
    rows = axis_rows(hashed_lm.path)
    assert set(rows) == {(first, "full"), (first, "strategy"), (second, "full"), (second, "strategy")}
    assert rows[(first, "full")][0].endswith(f"Outcome: abandoned - superseded by {second}")
    assert rows[(second, "full")][0].splitlines()[-1] == "Outcome: abandoned - User chose server-sent events instead"
    assert rows[(second, "strategy")][0].splitlines()[-1] == "Outcome: abandoned"


def test_axis_texts_leave_out_missing_parts():
    entry = dict(AUTH, outcome_status="falsified", outcome_result="Failures went on", iteration_count=3,
                 surprise="   ", root_cause_category=None, root_cause_description=None,
                 lesson_what_worked=None, lesson_takeaway=None)
    texts = axis_texts(entry)
    assert set(texts) == {"full", "strategy"}
    assert texts["full"].splitlines()[-1] == "Outcome: falsified - Failures went on"
    assert "Iterations: 3" in texts["strategy"]


# -- the bronze rule ---------------------------------------------------------------

GOOD = dict(AUTH, outcome_status="confirmed", outcome_result="No auth failures in 200 logins over a throttled link")


@pytest.mark.parametrize(("change", "reason"), [
    # 1. too little in the hypothesis (GHAP.md's bad example, and hedged vagueness)
    ({"hypothesis": "The tests will tell me what's wrong"}, "hypothesis states too little"),
    ({"hypothesis": "I think the problem is in the parser"}, "hypothesis states too little"),
    # 2. the hypothesis says only that the action reaches the goal
    ({"goal": "Fix the SSL error on upload", "action": "Upgrade requests",
      "hypothesis": "Upgrading requests fixes the SSL error"}, "restates the goal and the action"),
    # 3. nothing observable predicted (GHAP.md's bad prediction)
    ({"prediction": "Tests fail"}, "prediction names nothing observable"),
    ({"prediction": "It works"}, "prediction names nothing observable"),
    # 4. the prediction repeats the hypothesis
    ({"prediction": "Slow network responses exceed the 30 s timeout"}, "prediction repeats the hypothesis"),
    # 5. an ambiguous resolution
    ({"outcome_result": "done"}, "result says nothing specific"),
    ({"outcome_result": "It worked, all tests pass now"}, "result says nothing specific"),
])
def test_bronze_rule_each_clause_fires(change, reason):
    assert bronze_reason(GOOD) is None
    found = bronze_reason(dict(GOOD, **change))
    assert found is not None and reason in found


@pytest.mark.parametrize("change", [
    # 1. short but specific hypotheses are fine
    {"hypothesis": "Stale lockfile pins urllib3 1.x"},
    {"hypothesis": "The parser drops a trailing comma in JSON arrays"},
    # 2. a hypothesis sharing a word with the goal but saying why
    {"goal": "Fix the SSL error on upload", "action": "Upgrade requests",
     "hypothesis": "The bundled certifi lacks the new Let's Encrypt root certificate"},
    # 3. a prediction naming what will be seen, even with a generic word in it
    {"prediction": "test_cache passes 20 of 20 runs in random order"},
    # 4. a prediction that shares terms with the hypothesis but adds an observation
    {"prediction": "No response exceeds 60 s in the access log"},
    # 5. results with something specific in them
    {"outcome_result": "test passed 3/3 runs"},
    {"outcome_result": "Login p95 fell from 31 s to 2 s"},
])
def test_bronze_rule_lets_specific_entries_through(change):
    assert bronze_reason(dict(GOOD, **change)) is None


def test_bronze_rule_lists_every_reason_and_skips_abandoned_entries():
    bad = {"outcome_status": "confirmed", "goal": "Run the tests", "hypothesis": "The tests will tell me what's wrong",
               "action": "Running pytest", "prediction": "Tests fail", "outcome_result": "ok"}
    reason = bronze_reason(bad)
    assert reason.count("; ") == 2 and "prediction" in reason and "result" in reason
    assert bronze_reason(dict(bad, outcome_status="abandoned")) is None


def test_resolution_tiers_use_the_bronze_rule(hashed_lm):
    store = hashed_lm.store
    resolve(store, None, domain="testing", strategy="trial-and-error", goal="Run the tests",
            hypothesis="The tests will tell me what's wrong", action="Running pytest", prediction="Tests fail",
            status="confirmed", result="done", auto_captured=True)
    resolve(store, None, **AUTH, status="confirmed", result="No auth failures in 200 logins", auto_captured=True)
    resolve(store, None, **AUTH, status="confirmed", result="No auth failures in 200 logins")
    tiers = hashed_lm.sql("SELECT confidence_tier FROM experiences ORDER BY resolved_at, id").fetchall()
    assert sorted(t for (t,) in tiers) == ["bronze", "gold", "silver"]


# -- recording and embedding --------------------------------------------------------


def test_record_axes_then_embed_pending_fills_each_row_once(hashed_lm):
    store, hashed = hashed_lm.store, HashingEmbedder()
    first = resolve(store, None, **AUTH, status="confirmed", result="No auth failures in 200 logins")
    second = resolve(store, None, **AUTH, status="falsified", result="Failures went on at 60 s",
                     surprise="The timeout was never read: the client used its own 10 s default",
                     root_cause={"category": "wrong-assumption", "description": "Config key ignored by the client"})
    assert {embedded for _, embedded in axis_rows(hashed_lm.path).values()} == {False}
    assert dict(hashed_lm.sql("SELECT id, pending_axes FROM experiences").fetchall()) == {first: 2, second: 4}
    assert embed_pending(store, hashed) == 6
    assert embed_pending(store, hashed) == 0  # idempotent
    assert {embedded for _, embedded in axis_rows(hashed_lm.path).values()} == {True}
    assert dict(hashed_lm.sql("SELECT id, pending_axes FROM experiences").fetchall()) == {first: 0, second: 0}
    con = duckdb.connect(str(hashed_lm.path), read_only=True)
    text, terms, vector = con.execute(
        "SELECT text, terms, embedding FROM experience_axes WHERE ghap_id = ? AND axis = 'surprise'", [second]).fetchone()
    con.close()
    assert terms == keywords.terms(text)
    assert np.allclose(vector, hashed.embed([text])[0], atol=1e-6)


def test_a_failing_embedder_leaves_axes_pending_until_a_later_call(hashed_lm):
    store = hashed_lm.store
    entry_id = resolve(store, FailingEmbedder(), **AUTH, status="confirmed", result="No auth failures in 200 logins")
    assert hashed_lm.sql("SELECT pending_axes FROM experiences").fetchall() == [(2,)]  # resolved, not lost
    with pytest.raises(RuntimeError, match="model crashed"):
        embed_pending(store, FailingEmbedder())
    assert hashed_lm.sql("SELECT pending_axes FROM experiences").fetchall() == [(2,)]
    assert embed_pending(store, HashingEmbedder()) == 2
    assert {axis for (_, axis), (_, embedded) in axis_rows(hashed_lm.path).items() if embedded} == {"full", "strategy"}
    assert entry_id in {ghap_id for ghap_id, _ in axis_rows(hashed_lm.path)}


def test_racing_embedders_fill_each_pending_row_once(hashed_lm):
    store = hashed_lm.store
    resolve(store, None, **AUTH, status="confirmed", result="No auth failures in 200 logins")

    class Racing(HashingEmbedder):
        """While this call embeds (no connection held), another process embeds the same rows."""

        raced = False

        def embed(self, texts, batch_size=32):
            if not Racing.raced:
                Racing.raced = True
                assert embed_pending(store, HashingEmbedder()) == 2
            return super().embed(texts, batch_size)

    assert embed_pending(store, Racing()) == 0  # the other one got there first
    assert hashed_lm.sql("SELECT sum(pending_axes) FROM experiences").fetchone()[0] == 0


def test_embedded_axes_move_to_the_big_table_in_bulk_and_pending_ones_stay(hashed_lm, monkeypatch):
    monkeypatch.setattr(experiences, "FOLD_ROWS", 6)
    store, hashing = hashed_lm.store, HashingEmbedder()
    falsified = dict(AUTH, status="falsified", result="Still timing out after the change",
                     surprise="The requests never reached the network", root_cause={
                         "category": "wrong-assumption", "description": "DNS lookups hung on a dead resolver"})
    ids = [resolve(store, hashing, **falsified)]  # 4 embedded rows: below the fold
    ids.append(resolve(store, FailingEmbedder(), **falsified))  # 4 pending rows
    counts = "SELECT (SELECT count(*) FROM experience_axes_recent), (SELECT count(*) FROM experience_axes_embedded)"
    assert hashed_lm.sql(counts).fetchone() == (8, 0)
    ids.append(resolve(store, hashing, **falsified))  # embeds the 8 pending: 12 embedded >= 6, they move
    assert hashed_lm.sql(counts).fetchone() == (0, 12)
    ids.append(resolve(store, hashing, **falsified))
    assert hashed_lm.sql(counts).fetchone() == (4, 12)
    rows = hashed_lm.sql("SELECT ghap_id, axis, embedding IS NULL FROM experience_axes").fetchall()
    assert sorted(rows) == sorted((ghap_id, axis, False) for ghap_id in ids
                                  for axis in ("full", "strategy", "surprise", "root_cause"))
    hits = search_experiences(ExperienceIndex(store, 384), store, hashing, "DNS lookups hung on a dead resolver",
                              axis="root_cause", limit=10)
    assert {hit.ghap_id for hit in hits} == set(ids)


def test_reembed_rebuilds_texts_made_by_an_older_template(hashed_lm, embedder):
    store = hashed_lm.store
    entry_id = resolve(store, HashingEmbedder(), **AUTH, status="falsified", result="Still timing out",
                       surprise="The requests never left the host",
                       root_cause={"category": "environment-issue", "description": "A dead DNS resolver"})
    old_text = "environment-issue: A dead DNS resolver\nContext: Fix the auth timeout bug\nHypothesis was: ..."
    with store.write() as con:  # what a file written before the root_cause template changed holds
        con.execute("UPDATE experience_axes_recent SET text = ? WHERE axis = 'root_cause'", [old_text])
    assert experiences.reembed_experiences(store, embedder) == 4
    rows = axis_rows(hashed_lm.path)
    assert rows[(entry_id, "root_cause")] == ("environment-issue: A dead DNS resolver", True)
    assert len(rows) == 4 and all(embedded for _, embedded in rows.values())


def test_reembed_experiences_embeds_every_axis_again(hashed_lm, embedder):
    store = hashed_lm.store
    resolve(store, HashingEmbedder(), **AUTH, status="confirmed", result="No auth failures in 200 logins")
    resolve(store, None, **AUTH, status="abandoned", result="Moved to the SSO work")  # left pending
    index = ExperienceIndex(store, 384)
    assert len(index.snapshot().axes["full"].table) == 2
    assert experiences.reembed_experiences(store, embedder) == 4
    con = duckdb.connect(str(hashed_lm.path), read_only=True)
    rows = con.execute("SELECT text, embedding FROM experience_axes").fetchall()
    con.close()
    for text, vector in rows:
        assert np.allclose(vector, embedder.embed([text])[0], atol=1e-5)
    # The snapshot notices the new vectors although no row was added or removed.
    full = index.snapshot().axes["full"]
    texts = dict(hashed_lm.sql("SELECT ghap_id, text FROM experience_axes WHERE axis = 'full'").fetchall())
    expected = embedder.embed([texts[g] for g in full.table.column("ghap_id").to_pylist()])
    assert np.allclose(full.vectors, expected, atol=1e-5)


# -- search ------------------------------------------------------------------------

CORPUS = {
    "auth": dict(
        AUTH, status="confirmed", result="No auth failures in 200 logins over a throttled 3G link",
        lesson={"what_worked": "Timing the slow requests before touching the code"}),
    "flaky": {
        "domain": "testing", "strategy": "read-the-error", "goal": "Fix flaky test in test_cache.py",
        "hypothesis": "The cache TTL expires mid-test because the CI machines are slow",
        "action": "Freeze time with freezegun in test_cache", "prediction": "test_cache passes 20 of 20 CI runs",
        "status": "falsified", "result": "Still failed 6 of 20 runs with time frozen",
        "surprise": "It failed only when test_session ran before it: a module-level cache dict leaked between tests",
        "root_cause": {"category": "test-isolation", "description": "Global cache shared across tests made them order-dependent"},
        "lesson": {"what_worked": "Clearing the cache in an autouse fixture",
                   "takeaway": "Suspect shared state before timing when a test fails only in the full suite"}},
    "export": {
        "domain": "performance", "strategy": "divide-and-conquer", "goal": "Make the CSV export of customers fast",
        "hypothesis": "The ORM lazily loads each customer's account, one SQL query per row",
        "action": "Prefetch the account relation with select_related",
        "prediction": "Exporting 10k rows takes under 5 s and the query log shows 2 queries",
        "status": "confirmed", "result": "Export took 3.1 s with 2 queries instead of 41 s"},
    "dotenv": {
        "domain": "configuration", "strategy": "check-assumptions", "goal": "Point the staging app at the new database",
        "hypothesis": "DATABASE_URL in .env takes precedence over settings.toml",
        "action": "Log the resolved database URL at startup", "prediction": "The startup log shows the .env URL",
        "status": "falsified", "result": "The startup log shows the old URL from the container",
        "surprise": "python-dotenv never overrides a variable already set: the Docker image exported an old DATABASE_URL",
        "root_cause": {"category": "environment-issue",
                       "description": "load_dotenv keeps existing environment variables unless override=True"}},
    "payments": {
        "domain": "refactoring", "strategy": "copy-from-similar", "goal": "Remove duplication between payment clients",
        "hypothesis": "The Stripe and PayPal clients share retry and request-signing logic",
        "action": "Move retry backoff and signing into a BasePaymentClient class",
        "prediction": "All payment unit tests pass unchanged and each client file loses 80 lines",
        "status": "confirmed", "result": "64 payment tests pass; stripe_client.py lost 92 lines, paypal_client.py 85"},
    "websocket": {
        "domain": "feature", "strategy": "research-first", "goal": "Push order notifications to the browser",
        "hypothesis": "The nginx proxy forwards WebSocket Upgrade headers",
        "action": "Open a WebSocket through the staging proxy", "prediction": "A ping frame reaches the browser",
        "status": "abandoned", "result": "The user chose server-sent events instead"},
    "logout": {
        "domain": "security", "strategy": "root-cause-analysis", "goal": "Stop sessions working after logout",
        "hypothesis": "The logout endpoint leaves the refresh token in Redis",
        "action": "Compare Redis keys before and after logout",
        "prediction": "The refresh token key is still in Redis after logout",
        "status": "falsified", "result": "The key is deleted at logout, yet old access tokens are still accepted",
        "surprise": "Access tokens are checked only by signature and expiry, so they stay valid for 15 minutes "
                     "after logout whatever Redis holds",
        "root_cause": {"category": "wrong-scope",
                       "description": "The gap is in access-token validation: no revocation list is consulted"}},
    "mock": {
        "domain": "testing", "strategy": "trial-and-error", "goal": "Keep the fetcher unit test off the network",
        "hypothesis": "The HTTP call is slow in the unit test because requests.get is not mocked",
        "action": "Patch requests.get with mock.patch('requests.get')",
        "prediction": "The test runs in under 100 ms with the network disabled",
        "status": "falsified", "result": "The test still reaches the network and takes 2 s",
        "surprise": "The patch had no effect: the module did 'from requests import get', so the name had to be "
                     "patched where it is looked up, app.fetcher.get",
        "root_cause": {"category": "missing-knowledge",
                       "description": "mock.patch replaces a name in one namespace; the code had its own reference"}},
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, embedder):
    """A file with the eight experiences above; the last two left pending (search embeds them)."""
    lm = learnmem.open(tmp_path_factory.mktemp("experiences") / "learnmem.duckdb", embedder=embedder)
    ids = {}
    for position, (name, spec) in enumerate(CORPUS.items()):
        spec = dict(spec)
        status, result = spec.pop("status"), spec.pop("result")
        extra = {key: spec.pop(key) for key in ("surprise", "root_cause", "lesson") if key in spec}
        ids[name] = resolve(lm.store, embedder if position < 6 else None, **spec, status=status, result=result,
                            **extra)
    return lm, ids


def test_realistic_entries_are_not_bronze(corpus):
    lm, ids = corpus
    tiers = dict(lm.sql("SELECT id, confidence_tier FROM experiences").fetchall())
    assert tiers == {ids[name]: "abandoned" if spec["status"] == "abandoned" else "silver"
                     for name, spec in CORPUS.items()}


def search(corpus, embedder, query, **options):
    lm, _ = corpus
    return search_experiences(ExperienceIndex(lm.store, 384), lm.store, embedder, query, **options)


def test_search_embeds_pending_axes_first(corpus, embedder):
    lm, ids = corpus
    hits = search(corpus, embedder, "the mock did not apply because of how the function was imported", limit=3)
    assert hits[0].ghap_id == ids["mock"]
    assert lm.sql("SELECT sum(pending_axes) FROM experiences").fetchone()[0] == 0


@pytest.mark.parametrize(("query", "expected"), [
    ("login requests time out on a slow network", "auth"),
    ("exporting a spreadsheet is slow because of an N+1 query problem", "export"),
    ("a test passes alone but fails in the full suite", "flaky"),
    ("old access tokens still accepted after the user signs out", "logout"),
    ("deduplicate retry logic shared by two API clients", "payments"),
])
def test_search_on_the_full_axis_ranks_the_right_experience_first(corpus, embedder, query, expected):
    _, ids = corpus
    hits = search(corpus, embedder, query)
    assert hits[0].ghap_id == ids[expected], [(h.ghap_id, round(h.score, 3)) for h in hits]
    assert hits[0].axis == "full" and hits[0].id == f"{ids[expected]}:full"
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


@pytest.mark.parametrize(("query", "expected"), [
    ("patching had no effect because the function was imported into the module under test", "mock"),
    ("an environment variable already set in the container wins over the dotenv file", "dotenv"),
    ("state leaked from one test into another", "flaky"),
])
def test_search_on_the_surprise_axis_ranks_the_right_experience_first(corpus, embedder, query, expected):
    _, ids = corpus
    hits = search(corpus, embedder, query, axis="surprise")
    assert hits[0].ghap_id == ids[expected], [(h.ghap_id, round(h.score, 3)) for h in hits]
    # Only falsified entries have a surprise axis.
    assert {h.ghap_id for h in hits} == {ids[n] for n in ("flaky", "dotenv", "logout", "mock")}


def test_search_results_carry_the_whole_experience(corpus, embedder):
    _, ids = corpus
    hit = search(corpus, embedder, "module-level cache dict leaked between tests", axis="root_cause", limit=1)[0]
    spec = CORPUS["flaky"]
    assert (hit.id, hit.ghap_id, hit.axis) == (f"{ids['flaky']}:root_cause", ids["flaky"], "root_cause")
    assert (hit.domain, hit.strategy, hit.goal, hit.hypothesis, hit.action, hit.prediction) == tuple(
        spec[k] for k in ("domain", "strategy", "goal", "hypothesis", "action", "prediction"))
    assert (hit.outcome_status, hit.outcome_result, hit.surprise) == ("falsified", spec["result"], spec["surprise"])
    assert hit.root_cause == spec["root_cause"] and hit.lesson == spec["lesson"]
    assert hit.confidence_tier == "silver" and hit.created_at.endswith("Z") and isinstance(hit.score, float)
    auth = search(corpus, embedder, "auth timeout", limit=1)[0]
    assert auth.root_cause is None and auth.lesson == {"what_worked": CORPUS["auth"]["lesson"]["what_worked"],
                                                       "takeaway": None}


def test_search_filters_are_exact(corpus, embedder):
    _, ids = corpus
    query = "login requests time out on a slow network"  # best matched by a debugging entry
    testing = search(corpus, embedder, query, domain="testing")
    assert {h.ghap_id for h in testing} == {ids["flaky"], ids["mock"]}
    falsified = search(corpus, embedder, query, outcome="falsified")
    assert {h.ghap_id for h in falsified} == {ids[n] for n in ("flaky", "dotenv", "logout", "mock")}
    both = search(corpus, embedder, query, domain="testing", outcome="confirmed")
    assert both == []
    # Abandoned entries are cold (tests/learning/test_cold_storage.py): the outcome filter finds them with include_cold.
    assert search(corpus, embedder, "notifications", outcome="abandoned", axis="strategy") == []
    abandoned = search(corpus, embedder, "notifications", outcome="abandoned", axis="strategy", include_cold=True)
    assert [h.ghap_id for h in abandoned] == [ids["websocket"]] and abandoned[0].outcome_status == "abandoned"
    assert len(search(corpus, embedder, query, limit=3)) == 3


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_an_empty_query_finds_nothing(corpus, embedder, query):
    assert search(corpus, embedder, query) == []


@pytest.mark.parametrize(("options", "field", "shown"), [
    ({"limit": 0}, "limit", "[1, 50]"),
    ({"limit": 51}, "limit", "[1, 50]"),
    ({"limit": "10"}, "limit", "integer"),
    ({"axis": "domain"}, "axis", "full, strategy, surprise, root_cause"),
    ({"domain": "ops"}, "domain", "debugging, refactoring"),
    ({"outcome": "active"}, "outcome", "confirmed, falsified, abandoned"),
])
def test_bad_arguments_name_the_field_and_the_options(corpus, embedder, options, field, shown):
    with pytest.raises(ValidationError, match=rf"^{field}: ") as error:
        search(corpus, embedder, "anything", **options)
    assert shown in str(error.value)


def test_search_through_the_facade_and_read_only_handles(corpus, embedder):
    lm, ids = corpus
    hits = lm.search_experiences("exports slowed by one query per row", limit=2)
    assert hits[0].ghap_id == ids["export"]
    reader = learnmem.open(lm.path, read_only=True, embedder=embedder)
    assert reader.search_experiences("exports slowed by one query per row", limit=1)[0].ghap_id == ids["export"]


def test_search_on_an_empty_file(hashed_lm):
    index = ExperienceIndex(hashed_lm.store, 384)
    assert search_experiences(index, hashed_lm.store, HashingEmbedder(), "anything") == []
    assert hashed_lm.sql("SELECT count(*) FROM experiences").fetchone() == (0,)
