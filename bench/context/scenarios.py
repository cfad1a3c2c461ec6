"""The world and the situations of the context benchmark, with the items each situation must surface.

Written for the benchmark, not taken from the test corpus's wording: the situations
are new failures told the way an agent would tell them, and the memories include
distractors on the same subjects (other decisions about caches, locks, dates...).
"""

from __future__ import annotations

# -- memories ------------------------------------------------------------------------
# (key, category, importance, tags, content). Keys name the ones a scenario expects.

MEMORIES = [
    # scenario "flaky cache test"
    ("cache-teardown", "learning", 0.6, ["testing"],
     "The price cache in shop/cache.py is module-level: any test that fills it must call clear_price_cache() in "
     "teardown, or later tests see stale prices"),
    # scenario "decision survives a restart"
    ("job-locks", "decision", 0.7, ["scheduler"],
     "We chose PostgreSQL advisory locks over Redis locks for the job scheduler, because our Redis runs without "
     "persistence and a restart would let two workers run the same job"),
    # scenario "semantic query among distractors"
    ("money-decimal", "decision", 0.6, ["billing"],
     "Amounts of money are Decimal in Python and NUMERIC(12,2) in the database; floats are forbidden for prices"),
    ("api-versioning", "decision", 0.6, ["api"],
     "Breaking API changes go to a new /v2 prefix; /v1 stays frozen for twelve months after /v2 ships"),
    ("feature-flags", "decision", 0.6, ["release"],
     "New features ship dark behind a LaunchDarkly flag and are enabled per tenant, never with a global deploy"),
    ("uuid-keys", "decision", 0.6, ["database"],
     "Public identifiers are UUIDv7 so they sort by creation time; integer keys never leave the database"),
    ("retry-policy", "decision", 0.6, ["http"],
     "Outgoing HTTP calls retry only idempotent requests, three times with exponential backoff and jitter"),
    # scenario "active spec": its blockers and learnings (a `spec:` tag becomes the memory's spec)
    ("spec-blocker-3ds", "blocker", 0.5, ["spec:checkout-v2"],
     "Checkout v2 blocker: the payment provider's sandbox does not support 3-D Secure 2 challenges yet, so the "
     "saved-card flow cannot be tested end to end"),
    ("spec-blocker-legal", "blocker", 0.5, ["spec:checkout-v2"],
     "Checkout v2 blocker: legal has not approved the new terms checkbox wording for one-page checkout"),
    ("spec-learning-cents", "learning", 0.5, ["spec:checkout-v2"],
     "Checkout v2: the cart service returns prices in cents as integers; convert to Decimal once, at the boundary"),
    # distractors: same subjects, other content
    ("d-redis-cache", "decision", 0.8, ["cache"],
     "Session data lives in Redis with a 30-minute sliding expiry; nothing else may use that Redis database"),
    ("d-cache-headers", "decision", 0.5, ["http", "cache"],
     "Static assets get Cache-Control: max-age=31536000, immutable, with a content hash in the file name"),
    ("d-celery", "decision", 0.7, ["scheduler"],
     "Periodic jobs are Celery beat tasks defined in code, never cron entries on a host"),
    ("d-timezone", "decision", 0.7, ["dates"],
     "Store timestamps as timestamptz in UTC; convert to the user's zone only in the template"),
    ("d-logging", "decision", 0.5, ["ops"],
     "Logs are JSON lines with a request id; no print statements in application code"),
    ("d-migrations", "decision", 0.6, ["database"],
     "Schema migrations must be backward compatible with the previous release so that deploys can roll back"),
    ("d-orm", "decision", 0.5, ["database"],
     "Use SQLAlchemy Core for reports and the ORM for request handling; no raw SQL strings in views"),
    ("d-auth", "decision", 0.8, ["security"],
     "Access tokens live 15 minutes and refresh tokens rotate on every use; a reused refresh token revokes all"),
    ("d-queue", "decision", 0.5, ["scheduler"],
     "Email sending goes through the outbox table and a worker, never directly inside a request"),
    ("d-frontend", "decision", 0.4, ["frontend"],
     "The admin UI is server-rendered with htmx; no single-page framework for internal tools"),
    ("d-tests-db", "decision", 0.6, ["testing"],
     "Tests run against a real PostgreSQL in a container; SQLite is not a stand-in"),
    ("d-coverage", "preference", 0.4, ["testing"], "Aim for branch coverage on billing code, not a global percentage"),
    ("d-ruff", "preference", 0.7, ["style"], "Format with ruff format and lint with ruff; black and isort are gone"),
    ("d-commits", "preference", 0.5, ["git"], "Commit messages in the imperative mood, one subject line under 72 "
                                               "characters, and why in the body"),
    ("d-reviews", "preference", 0.5, ["process"], "Small pull requests: under 400 changed lines unless generated"),
    ("d-typing", "preference", 0.6, ["style"], "Type hints on every public function; mypy strict in billing/"),
    ("d-staging", "fact", 0.5, ["ops"], "Staging is refreshed from an anonymised production dump every Sunday at 02:00"),
    ("d-ci", "fact", 0.4, ["ci"], "CI runs on GitHub Actions with four parallel test shards"),
    ("d-oncall", "fact", 0.3, ["ops"], "The on-call rotation changes every Monday at 10:00 Berlin time"),
    ("d-vendor-limits", "fact", 0.6, ["integration"], "The shipping vendor's API allows 10 requests per second "
                                                       "per API key and answers 429 above it"),
    ("d-cdn", "fact", 0.4, ["ops"], "Images are served through CloudFront; invalidations take up to 15 minutes"),
    ("d-search", "fact", 0.5, ["search"], "Product search runs on OpenSearch 2.11 with one index per locale"),
    ("d-payments", "fact", 0.6, ["billing"], "Refunds older than 180 days must go through the finance team"),
    ("d-monorepo", "fact", 0.4, ["repo"], "The mobile apps live in a separate repository; only the API is here"),
    ("d-locks-docs", "learning", 0.4, ["scheduler"], "Celery's visibility timeout must exceed the longest task, "
                                                       "or the broker redelivers tasks that are still running"),
    ("d-dates-learning", "learning", 0.5, ["dates"], "freezegun does not patch time inside C extensions such as "
                                                       "the pendulum parser"),
    ("d-http-learning", "learning", 0.4, ["http"], "requests has no default timeout; every call needs timeout="),
    ("d-cache-learning", "learning", 0.5, ["cache"], "functools.lru_cache on a method keeps every instance alive"),
]

# -- a GHAP cycle of this project, for the flaky-cache scenario -------------------------

FLAKY_CACHE_CYCLE = {
    "start": ("testing", "root-cause-analysis", "Make test_refetch_after_expiry pass in the full suite",
              "The fake clock does not reach the cache's expiry check",
              "Run test_refetch_after_expiry alone, then after test_cached_price_hit",
              "It fails in both orders if the clock is the cause"),
    "resolve": dict(
        status="falsified", result="It passed alone and failed only after test_cached_price_hit",
        surprise="The price it saw was the one test_cached_price_hit had stored",
        root_cause={"category": "test-isolation",
                    "description": "shop/cache.py keeps prices in a module-level dict that no test cleared"},
        lesson={"what_worked": "An autouse fixture calling clear_price_cache() after each test",
                "takeaway": "Module-level caches need clearing in teardown"}),
}

# -- code ------------------------------------------------------------------------------
# A small shop whose cache teardown the flaky-cache scenario must surface.

CODE = {
    "shop/cache.py": '''"""Prices, cached for the process."""

_PRICES = {}


def cached_price(sku, fetch):
    """The price of a SKU, fetched once and then served from the module-level cache."""
    if sku not in _PRICES:
        _PRICES[sku] = fetch(sku)
    return _PRICES[sku]


def clear_price_cache():
    """Forget every cached price (tests call this in teardown)."""
    _PRICES.clear()
''',
    "shop/invoice.py": '''"""Invoices as text."""


def render_invoice(order):
    """Format an order as a plain-text invoice, one line per item."""
    return "\\n".join(f"{line.sku}: {line.quantity} x {line.price}" for line in order.lines)


def invoice_total(order):
    """Sum of the order's lines."""
    return sum(line.quantity * line.price for line in order.lines)
''',
    "shop/scheduler.py": '''"""Runs periodic jobs under a database lock."""


def run_exclusively(connection, job_name, job):
    """Run `job` only if no other worker holds the advisory lock for `job_name`."""
    key = hash(job_name) & 0x7FFFFFFF
    if not connection.execute("SELECT pg_try_advisory_lock(%s)", (key,)).scalar():
        return False
    try:
        job()
    finally:
        connection.execute("SELECT pg_advisory_unlock(%s)", (key,))
    return True
''',
    "shop/dates.py": '''"""Dates for display."""
from datetime import timezone


def to_utc(moment):
    """An aware datetime in UTC; a naive one is refused."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime")
    return moment.astimezone(timezone.utc)
''',
    "tests/test_cache.py": '''from shop.cache import cached_price, clear_price_cache


def test_cached_price_hit():
    assert cached_price("A1", lambda sku: 5) == 5


def test_refetch_after_expiry():
    clear_price_cache()
    assert cached_price("A1", lambda sku: 7) == 7
''',
}

# -- situations --------------------------------------------------------------------------
# (name, depth, situation, expected keys). Keys: memory keys above; "cycle" (the flaky-cache GHAP
# cycle); "code:<path>:<function>"; "theme:<name>" (any experience of that planted theme); "value:<theme>"
# (the value stored for the theme's cluster).

THEME_SITUATIONS = {
    "flaky-shared-state": "A test passes on its own but fails when the whole suite runs, depending on test order",
    "timezone-dst": "Timestamps are off by an hour for some users since the clocks changed last weekend",
    "stale-cache": "Users keep seeing the old product data after we updated it; a restart fixes it",
    "env-config-drift": "The feature works in staging but fails in production with the same build",
    "pagination-off-by-one": "The export misses the last record whenever the total is an exact multiple of the "
                             "page size",
    "mock-wrong-target": "My patch has no effect: the real function still runs in the test even though I mocked it",
    "n-plus-one-queries": "The orders page got slow and the log shows one SQL query per row of the list",
    "dependency-drift": "The build broke overnight although nobody changed our code; a library update is suspected",
    "race-conditions": "Two requests at the same moment sometimes both succeed and corrupt the stock count",
    "text-encoding": "Names with accents show up as garbled characters after the import",
}

SCENARIOS = [
    ("flaky cache test", "rich", "the flaky cache test fails again after the other cache tests",
     ["cycle", "code:shop/cache.py:clear_price_cache", "cache-teardown"]),
    *[(f"theme: {theme}", "rich", situation, [f"theme:{theme}", f"value:{theme}"])
      for theme, situation in THEME_SITUATIONS.items()],
    ("git-native 1: a decision survives a restart, recalled by meaning", "rich-restart",
     "how do we make sure two workers never run the same scheduled job at once?", ["job-locks"]),
    ("git-native 2: session start for an active spec shows its blockers and learnings", "light-spec", None,
     ["spec-blocker-3ds", "spec-blocker-legal", "spec-learning-cents"]),
    ("git-native 3: a semantic query finds the decision among distractors (money)", "rich",
     "what type should I use for the price field in the new refund model?", ["money-decimal"]),
    ("git-native 3: ... (API change)", "rich", "I need to rename a field in a public endpoint's response",
     ["api-versioning"]),
    ("git-native 3: ... (rollout)", "rich", "how should the new loyalty points feature be released to customers?",
     ["feature-flags"]),
    ("git-native 3: ... (identifiers)", "rich", "which kind of id should the new invoices table expose in URLs?",
     ["uuid-keys"]),
    ("git-native 3: ... (retries)", "rich", "the call to the shipping API sometimes times out; should we retry it?",
     ["retry-policy"]),
]

ACTIVE_SPEC = "checkout-v2"  # what learnmem.context.specs finds in docs/spec/active/ at session start
SPEC_GHAP = ("feature", "divide-and-conquer", "Implement the checkout v2 spec: one-page checkout with saved cards",
             "Splitting checkout v2 into cart, payment and confirmation steps lets each ship behind its own flag",
             "Build the cart step first", "The cart step passes its tests without touching payment")
