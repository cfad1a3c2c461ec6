"""Generate the planted-theme GHAP corpus used to test experience clustering.

What the corpus is
------------------
`experiences.jsonl` holds 332 resolved GHAP entries (Goal, Hypothesis, Action,
Prediction) of an AI coding agent's debugging and coding work, in the entry
format of GHAP.md (one JSON object per line, oldest first, no
`confidence_tier`: the importer computes it). The entries are spread over 60
sessions between 2025-09-01 and 2025-11-23 (UTC); entries of one session
follow each other, and each is resolved minutes to hours after it started.

Every entry was written individually (below, in a compact block format);
this script only adds ids, sessions, times, the auto-capture flag and the
JSON layout. `experiences_themes.json` maps every entry id to the theme that
really explains it, or to "noise".

Planted themes (25 entries each: 16-17 falsified, 6-7 confirmed, 2-3 abandoned)
--------------------------------------------------------------------------------
In a falsified entry the agent's hypothesis was something else; the
surprise says what was unexpected and the root cause names the theme's
actual cause. In a confirmed entry the agent guessed the theme; abandoned
entries stop before it is proven. Projects, languages and wording vary
within each theme (Python/pytest/Django/FastAPI/SQLAlchemy, TypeScript/Jest/
Node, Go, Java/Spring, Rust, Ruby, Kotlin ...).

  flaky-shared-state     flaky tests caused by state shared between tests
                         (module-level caches, leftover rows, test order)
  timezone-dst           naive vs aware datetimes, UTC vs local on CI, DST
  stale-cache            caches serving old data (CDN, memoization, build
                         caches, HTTP caching headers)
  env-config-drift       configuration differing between environments
                         (missing env vars, .env files, feature flags)
  pagination-off-by-one  page/offset math, inclusive/exclusive bounds
  mock-wrong-target      mocks patching where a name is defined instead of
                         where it is looked up, missing autospec, leaks
  n-plus-one-queries     N+1 queries and slow ORM access
  dependency-drift       unpinned transitive deps, stale lockfiles,
                         breaking minor releases
  race-conditions        missing awaits, shared mutable state across
                         threads, check-then-act
  text-encoding          latin-1 vs utf-8, normalisation, BOM, emoji

plus 82 "noise" entries: one-off tasks in every domain (features, docs,
refactors, a memory leak, a wrong regex, an expired certificate ...), 37 of
them falsified. In all: 198 falsified, 100 confirmed, 34 abandoned; about
one entry in five has earlier iterations (history), one in four has notes,
one in ten has no lesson. All nine domains, all nine strategies and all nine
root-cause categories occur. auto_captured (gold tier) is drawn by the seed
for about a third of the confirmed and falsified entries.

Block format
------------
Each entry starts with a line `@ STATUS DOMAIN STRATEGY [CATEGORY]` (codes in
the tables below; CATEGORY only for falsified entries), followed by lines
`KEY text`: G goal, H hypothesis, A action, P prediction, E an earlier
iteration `hypothesis || action || prediction` (repeatable, oldest first),
N a note (repeatable), R outcome result, S surprise, C root-cause
description, W lesson what_worked (no W: no lesson), T lesson takeaway (the
generator keeps the takeaway of about 70 % of lessons, chosen by the seed).

Regenerate
----------
    python tests/data/make_experiences.py

writes tests/data/experiences.jsonl and tests/data/experiences_themes.json
next to this script. The output depends only on SEED and the texts: running
it twice gives byte-identical files. Check with

    learnmem --db /tmp/x.duckdb ghap import tests/data/experiences.jsonl --json
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from pathlib import Path

SEED = 20250901
HERE = Path(__file__).resolve().parent

STATUSES = {"F": "falsified", "C": "confirmed", "A": "abandoned"}
DOMAINS = {"dbg": "debugging", "ref": "refactoring", "fea": "feature", "tst": "testing",
           "cfg": "configuration", "doc": "documentation", "perf": "performance",
           "sec": "security", "int": "integration"}
STRATEGIES = {"se": "systematic-elimination", "te": "trial-and-error", "rf": "research-first",
              "dc": "divide-and-conquer", "rca": "root-cause-analysis", "cs": "copy-from-similar",
              "ca": "check-assumptions", "re": "read-the-error", "au": "ask-user"}
CATEGORIES = {"wa": "wrong-assumption", "mk": "missing-knowledge", "ov": "oversight",
              "env": "environment-issue", "ms": "misleading-symptom", "if": "incomplete-fix",
              "ws": "wrong-scope", "ti": "test-isolation", "tm": "timing-issue"}

THEMES: dict[str, str] = {}

THEMES["flaky-shared-state"] = r"""
@ F dbg rca ti
G Stop test_invoice_totals in the billing API from failing about one CI run in five
H Invoice.total() sums line items as floats, so three-decimal unit prices occasionally round the total down by a cent
A Switched the accumulation in Invoice.total() to Decimal with ROUND_HALF_UP and pushed 30 CI reruns
P All 30 reruns pass and the 'AssertionError: 3 != 2' on the invoice count never shows up
R Still red in 6 of 30 runs. Totals were exact to the cent; the failing assertion was the invoice count, and every red run had test_refund_flow scheduled earlier
S The failure had nothing to do with money: the test counted one invoice too many, and only when the refund tests happened to run first
C RefundFlowTests.setUpClass creates an Invoice before calling super().setUpClass(), outside the class-wide transaction, so the row is never rolled back and Invoice.objects.count() in the later test sees it
W Moved the invoice creation into setUpTestData so Django rolls it back, then ran the suite under pytest-randomly with 40 seeds
T Anything created before super().setUpClass() escapes Django's rollback; use setUpTestData for class fixtures

@ F tst se ti
G Make digest.test.ts in the notification service pass when the whole file runs, not just with it.only
H Jest's modern fake timers are not advancing past the 15-minute digest window, so sendDigest() never fires in the batched case
A Replaced jest.advanceTimersByTime(15 * 60_000) with jest.runAllTimers() in the batched-digest test
P The batched test sees exactly two emails sent and the 'expected 2, received 0' assertion clears
E The SMTP transport mock resolves after the assertion runs || Added await flushPromises() before the expect || The send count reads 2 instead of 0
R Timers were fine: with runAllTimers the count was still 0. Logging inside sendDigest showed it skipped every recipient as already sent
S sendDigest was being called; it just believed every user had already received today's digest
C digest.ts keeps `const sentToday = new Set<string>()` at module scope; the earlier 'sends one digest per user' test fills it with the same fixture user ids, and Jest reuses the module for every test in the file
W Exported a resetDigestState() helper and called it in beforeEach; also considered jest.isolateModules but the helper was simpler
T Module-level collections live as long as the test file does in Jest, not as long as a test

@ F dbg ca ti
G Find out why GET /users/{id}/profile returns 404 in test_get_profile only under pytest -n 4
H With pytest-xdist the FastAPI lifespan handler runs before the per-worker database is migrated, so the users table is empty
A Added an explicit alembic upgrade head in the per-worker session fixture before creating the TestClient
P test_get_profile passes under -n 4 in ten consecutive runs
R Still 404 in 3 of 10 runs with the schema definitely present; the user row existed but the permission check rejected the request before the lookup
S The 404 came from the permission layer, not from the database, and it followed whichever test the worker had executed just before
C load_role_permissions() is wrapped in functools.lru_cache at module level; test_guest_access on the same worker populated it with the guest role map, and later tests kept getting the guest permissions
W Added an autouse fixture calling load_role_permissions.cache_clear() and verified with pytest -p randomly -n 4 over 25 seeds
T An lru_cache on a module-level function is process-wide state; clear it between tests or inject the cache

@ C tst rca
G Get TestRegisterUser in the Go accounts service green under go test -shuffle=on
H TestLogin inserts alice@example.com into the shared Postgres test database and never truncates users, so TestRegisterUser hits users_email_key when it runs later
A Wrapped each test in a transaction via a txtest.Begin(t) helper that rolls back in t.Cleanup, and switched both tests to it
P 50 runs with -shuffle=on pass, and removing the rollback brings back 'duplicate key value violates unique constraint users_email_key'
E The bcrypt cost in tests is high enough that the registration handler times out || Lowered bcrypt cost to 4 in the test config || TestRegisterUser stops failing with context deadline exceeded
N Failure message was the unique-constraint violation, not a timeout, once I read past the first wrapped error.
R 50/50 shuffled runs green; with the rollback commented out the duplicate-key error came back on the first seed that ordered TestLogin first
W Reading the wrapped error chain to the bottom before touching timeouts
T Tests that share a database need per-test rollback or unique fixture data, never fixed emails

@ F tst te ti
G Fix OrderServiceIT failing only in the full Maven build of the fulfilment service
H The Testcontainers Postgres is not ready when the Spring context starts, so Flyway migrations race the first query
A Added a wait strategy Wait.forLogMessage(".*ready to accept connections.*", 2) to the container definition
P OrderServiceIT passes in mvn verify five times in a row
E The Flyway migration for stock_reservations runs after Hibernate's ddl-auto has already created the table || Set spring.jpa.hibernate.ddl-auto=none for the IT profile || Schema warnings vanish from the IT log and the test passes
N Only fails when the build runs the whole failsafe phase; mvn -Dit.test=OrderServiceIT verify is green every time.
R Failed 2 of 5 builds with the container clearly healthy; the assertion was on the reservation count (expected 1, got 4)
S Running OrderServiceIT alone was always green even with the old container setup; only the full build produced extra reservations
C InventoryControllerIT, which runs earlier in the same JVM against the same reused container, inserts stock_reservations rows without @Transactional or @Sql cleanup, so OrderServiceIT starts with three rows already present
W Added @Sql(scripts = "/truncate.sql", executionPhase = AFTER_TEST_METHOD) to the integration base class
T A reused Testcontainers database is shared state across every IT class in the build

@ F dbg rf ti
G Work out why test_dedupe_events fails on CI but never on my laptop
H CI installs pandas 2.2, where drop_duplicates changed how it treats NaN keys, so dedupe keeps one extra event
A Pinned pandas to the local version 2.1.4 in the CI job and reran the pipeline tests
P With identical pandas versions the CI job reports 1412 deduplicated events like local runs do
N The CI job runs 'pytest tests/', while the Makefile target I use locally runs one file at a time.
R Same failure with pandas pinned: CI reports 1411. Running the whole tests/ directory locally reproduces it too
S Locally I had only ever run tests/test_dedupe.py; the failure needed the backfill tests in the same process
C pipeline/dedupe.py caches seen event keys in a module-level _SEEN_KEYS set; test_backfill.py runs first alphabetically and leaves one key behind that test_dedupe_events expects to be new
W Made the seen-key set an attribute of the Deduper instance and reproduced the old failure with pytest tests/ -p no:randomly
T When a test fails only on CI, first run the whole suite locally in CI's order before blaming versions

@ C dbg ca
G Stop the Rust config crate's writes_config_file test from failing with 'File exists (os error 17)' about once in ten cargo test runs
H cargo test runs tests on parallel threads and both writes_config_file and overwrites_existing_config use the fixed path /tmp/appcfg-test
A Switched both tests to tempfile::tempdir() so each gets its own directory
P A loop of 200 cargo test runs finishes without os error 17
R 200 of 200 runs green; forcing --test-threads=1 on the old code had also hidden the failure, which matches the shared-path explanation
W Checking which tests touch the same filesystem path before looking at the code under test
T Fixed paths in tests are global state once tests run in parallel

@ F tst ca ti
G Fix rateLimiter.test.ts in the API gateway, which fails whenever it runs after auth.test.ts
H Jest's default 5 s timeout is too short on the shared CI runners, so the burst test times out midway
A Raised the timeout for rateLimiter.test.ts to 20 s with jest.setTimeout and reran the pipeline
P The burst test completes and all 60 requests get 200 before the 61st gets 429
R Not a timeout: the run finished in 1.2 s, but request 3 already received 429 Too Many Requests
S The limiter thought the client had used 58 of its 60 requests before the test sent anything
C The Redis instance in the CI service container is shared by all test files; auth.test.ts logs in 58 times from 127.0.0.1 and its ratelimit:127.0.0.1 counter is never flushed
W Added FLUSHDB in a globalSetup-per-file hook and gave each test file its own Redis logical database
T A shared Redis in CI carries counters from one test file to the next unless you flush it

@ F dbg se ti
G Find why test_signup_sends_welcome_email sometimes sees two messages in the outbox
H The post_save receiver for User is connected twice because accounts.signals is imported from both apps.py and models.py
A Added dispatch_uid="welcome_email" to the receiver and counted connections with len(post_save.receivers)
P Only one receiver is registered and the test sees exactly one message
E The welcome-email Celery task is retried once on CI because the broker is slow to acknowledge || Set CELERY_TASK_ALWAYS_EAGER and disabled retries in the test settings || The test sees one message in every order
R Exactly one receiver was connected, yet the test still saw two messages in 4 of 20 random orders
S The extra message was addressed to a different user, one created by the password-reset tests
C Our custom tests.mail_backends.CaptureBackend stores messages in a module-level SENT list instead of mail.outbox, and nothing clears it between tests, so an earlier test's email leaks in
W Cleared CaptureBackend.SENT in an autouse fixture and switched assertions to django.core.mail.outbox
T Custom capture backends need an explicit reset; Django only clears its own outbox

@ F tst rca ti
G Make test_init_creates_config in the shipit CLI pass regardless of test order
H click's CliRunner.isolated_filesystem leaves the previous test's .shipit directory behind, so init sees an existing config
A Printed os.listdir() inside the isolated filesystem at the start of test_init_creates_config
P The listing shows a leftover .shipit directory from test_init_with_existing
R The isolated directory was empty every time, but init still reported 'config already initialised' after test_init_with_existing had run
S The CLI believed a config existed even though no file was on disk
C shipit/config.py loads ~/.shipitrc into a module-level CONFIG dict at import time and test_init_with_existing mutates that dict in place; the mutation outlives the test
W Turned CONFIG into a load_config() call per command and added a fixture that points HOME at tmp_path
T Import-time config loading turns every test in the process into one shared state

@ C tst cs
G Get test_report_counts in the reporting package stable when the suite runs in random order
H The db_session fixture is scoped to the whole session, so rows inserted by test_import_csv are still there when test_report_counts counts them
A Copied the nested-transaction fixture from the orders repo: each test runs inside a SAVEPOINT that is rolled back, with the engine still session-scoped
P pytest -p randomly with 20 different seeds passes every time, including seeds that run test_import_csv first
R 20 of 20 seeds green; before the change seed 4127 failed reliably with 'assert 212 == 200'
W Reusing a rollback fixture pattern we already trusted in another repo
T Session-scoped engines are fine; session-scoped sessions leak rows between tests

@ F dbg rf ti
G Explain why TestMetricsHandler reports requests_total=3 when it made one request, only under go test -count=2
H The metrics middleware is registered twice on the router, so every request increments the counter two or three times
A Dumped the chi router's middleware stack in the test and counted instrumentation wrappers
P Two instrumentation wrappers appear in the stack
R Only one wrapper was present; a fresh binary with -count=1 reported 1 as expected
S The extra counts came from earlier iterations of the same test, not from double instrumentation
C The counter is registered on prometheus.DefaultRegisterer, a process-global, so its value accumulates across repeated runs and across other tests in the package
W Created a prometheus.NewRegistry() per test and passed it into NewMetrics
T Global metric registries are shared state; tests should own their registry

@ F tst se ti
G Fix the formatReport snapshot test that passes with -t formatReport but fails in the full report.test.ts run
H The snapshot is stale after the column reorder last week and just needs updating with jest -u
A Ran only formatReport with -u, committed the snapshot, then ran the full file
P The full file passes with the refreshed snapshot
R The refreshed snapshot failed again in the full run: amounts rendered as 1.234,50 instead of 1,234.50
S The diff was locale formatting, not the column order, and it only happened after the translation tests in the same file
C 'renders German headers' calls i18n.setLocale('de-DE') on the singleton i18n module and never resets it, so every later test in report.test.ts formats numbers the German way
W Added afterEach(() => i18n.setLocale('en-US')) and reverted the bogus snapshot update
T Never update a snapshot to make a flaky test pass before checking what else ran first

@ F dbg ca ti
G Fix CurrencyConverterTest failing since JUnit parallel execution was switched on
H The converter uses RoundingMode.HALF_EVEN while the expectations assume HALF_UP, which shows up for 0.005 edge cases
A Changed the expected values to HALF_EVEN and ran the class twenty times in parallel mode
P The 0.005 edge-case assertions pass consistently
N junit-platform.properties switched to mode 'concurrent' with a fixed pool of four threads last week.
R Still failed intermittently with 24.00 instead of 12.00 for a EUR amount, nowhere near a rounding boundary
S The wrong answers were off by exactly a factor of two, which no rounding mode produces
C RateCache is a static ConcurrentHashMap; ExchangeFeedTest, running concurrently in another thread, puts a stub EUR rate of 2.0 into it that CurrencyConverterTest then reads
W Injected a RateCache instance per test and marked the remaining static-using class @Isolated
T Static caches and parallel test execution do not mix

@ C dbg rca
G Stop test_export_plugins from failing after test_register_custom_plugin in the ETL toolkit
H The plugin registry in etl/plugins.py is a module-level dict; test_register_custom_plugin adds a 'dummy' exporter that is never removed, so export lists one plugin too many
A Added an autouse fixture that copies plugins._REGISTRY before each test and restores it afterwards
P Both test orders pass, and the export list has 4 entries instead of 5
E The entry-point scan picks up an installed dev copy of the package twice || Compared importlib.metadata.entry_points() output with the registry contents || Duplicate entry points for etl.plugins show up
R Both orders pass with pytest-reverse; the export list contains exactly the four built-in exporters
W Ruling out entry points first, then diffing the registry before and after each test
T Registries that tests can write to need snapshot-and-restore fixtures

@ F tst te ti
G Fix TestSessionExpiry in the Go web backend, which flakes in CI about twice a day
H Redis TTLs have one-second resolution, so waiting exactly 1s after a 1s TTL is borderline
A Changed the session TTL in the test to 1s and the wait to 2500ms
P The flake disappears across 30 CI runs
E The session middleware refreshes the TTL on every read, so the session outlives its TTL || Disabled sliding expiry in the test configuration || The session is gone right after the 1 s TTL
E Redis in CI runs with maxmemory and evicts sessions under memory pressure || Checked INFO memory and evicted_keys on the CI Redis || evicted_keys above zero during failing runs
N Failing runs coincide with the auth package's tests running; go test -p 1 ./... never failed in 40 runs.
R Still flaked 3 times in 30 runs; the failing runs reported the session missing immediately after creation, long before expiry
S The session disappeared early, not late; waiting longer could never have helped
C go test runs packages in parallel and the auth package's TestLogoutAll calls FLUSHDB on the same Redis database 0 the session tests use
W Gave each package its own Redis DB index via REDIS_TEST_DB and stopped using FLUSHDB in tests
T Packages run concurrently under go test ./..., so anything they share is a race between tests

@ F dbg se ti
G Find why test_slug_generation expects 'my-post' but sometimes gets 'my-post-2'
H The slug uniqueness check reads from the replica connection, which lags and misses the row just written
A Forced the uniqueness query onto the default database with .using('default') and reran the suite
P test_slug_generation produces 'my-post' in every run
N Failure rate about 1 in 6 with pytest-randomly enabled; never with -p no:randomly.
R Still got 'my-post-2' whenever test_search.py ran earlier; with the replica out of the picture the leftover was clearly in the primary
S There was already a post titled 'My Post' in the database at the start of a test that creates none
C SearchIndexTests is a TransactionTestCase that creates 'My Post' in setUpClass, outside any transaction, and TransactionTestCase only truncates at the start of its own tests, so the row survives into later TestCase classes
W Moved the fixture creation into setUp and listed the row counts per table at test start while bisecting the order
T TransactionTestCase cleanup is not symmetric; data it leaves behind is visible to the next class

@ A tst au
G Make checkout.spec.ts in the storefront's Playwright suite stop failing intermittently on the cart total
H All specs log in as the same seeded user qa+shared@shop.test, and a spec that aborts midway leaves items in that user's server-side cart
A Asked the QA lead whether we can provision one test account per Playwright worker
P With per-worker accounts the cart starts empty in every checkout run
N Cart contained a USB cable in every failing run, the item added by cart-edit.spec.ts.
R Abandoned for now: account provisioning is owned by the QA platform team and they will not have it before the release; added retries: 2 as a stopgap

@ F dbg rca ti
G Explain why test_parse_headers errors only when the full suite runs under python -m unittest discover
H unittest discover imports a stale compiled parser.cpython-311.pyc from an old module layout
A Deleted every __pycache__ directory and reran discover from a clean checkout
P The suite passes after clearing bytecode
R Same error on the clean checkout: DeprecationWarning: 'cgi' is deprecated raised as an exception inside parse_headers
S The warning was raised as an error, although nothing in test_parse_headers asks for that
C test_deprecations.py calls warnings.simplefilter('error') at import time and never restores the filters, so every later test in the process turns warnings into exceptions
W Wrapped the strict filter in warnings.catch_warnings() inside the tests that need it

@ C tst ca
G Fix the ids_start_at_one test in the Rust event-sourcing crate, which fails in roughly one of three cargo test runs
H EventId::next() uses a process-wide static AtomicU64, and other tests running on parallel threads consume ids before this one asks for its first
A Made the id generator a field of Store and constructed a fresh Store in every test
P cargo test -- --test-threads=8 passes in 200 loops, and the first id is always 1
N Reproduced 11 failures in 30 runs of cargo test; 0 in 30 runs with --test-threads=1.
R 200 loops green at 8 threads; printing the ids before the change had shown the test starting at 7, 12 or 19
W Printing the actual value the test received before theorising
T Process-wide counters make any assertion on absolute ids order-dependent

@ F tst se ti
G Fix UserProfileCacheTest, which sees a user named 'Old Name' in the Spring Boot account service suite
H The profile repository's @Cacheable result is evicted asynchronously, so the assertion runs before eviction finishes
A Added Awaitility polling for up to 5 s on the cached name in the rename test
P The rename test sees 'New Name' within the polling window
E The rename endpoint commits after the response is sent, so the test reads before the write lands || Called the service method directly instead of going through the endpoint || The direct call returns 'New Name'
R Polling timed out after 5 s; the cached entry never changed, and running UserProfileCacheTest alone passed immediately
S The stale name came from a different test class, UserAdminTest, which had cached user 42 with the same id
C Spring's test context cache shares one application context, and with it one Caffeine cache bean, between test classes; UserAdminTest populated user 42 and nothing cleared the cache
W Added a @BeforeEach that calls cacheManager.getCacheNames().forEach(n -> cacheManager.getCache(n).clear())
T Cached application contexts also share every cache bean inside them between test classes

@ F dbg ca ti
G Find why test_list_orders suddenly returns fake orders in the FastAPI shop backend
H The TestClient instance is module-scoped and keeps a session cookie from the admin login test, so the request is served as admin
A Created a fresh TestClient inside test_list_orders and cleared cookies before the request
P The response contains only the three orders belonging to the test customer
R A fresh client still returned the two 'FAKE-001' orders that only the in-memory fake repository knows about
S The production repository was never called at all in that test
C test_refund_endpoint sets app.dependency_overrides[get_order_repo] = lambda: FakeRepo() on the global app object and never removes it, so every later test in the process uses the fake
W Used a fixture that sets the override and calls app.dependency_overrides.clear() on teardown
T dependency_overrides lives on the app object; it is global unless a fixture cleans it up

@ F tst rf ti
G Fix TestLoadConfig in the Go deploy tool, which passes alone and fails in the package run
H viper looks for config.yaml relative to the working directory, and go test runs the package from a different directory than my editor
A Read the viper docs on search paths and printed viper.ConfigFileUsed() in the failing test
P The failing run reports a different config file path than the passing run
N go test -run TestLoadConfig passes 20 of 20 times; the full package run fails every time.
R Both runs used the same config file; in the failing run APP_PORT came from the environment as 9999
S A port value that appears in no config file was overriding the file
C TestOverridePort calls os.Setenv("APP_PORT", "9999") without restoring it, and viper's AutomaticEnv picks the variable up in every later test
W Replaced os.Setenv with t.Setenv, which restores the value after the test
T Environment variables set in a test leak to the rest of the process unless t.Setenv or a fixture restores them

@ A dbg se
G Stop test_export_zip in the reporting CLI from failing under pytest -n auto with BadZipFile
H Two xdist workers write the archive to the same build/export.zip path and one truncates the other's file
A Ran the test 300 times under -n 8 with logging of the worker id and output path
P At least one failure shows two workers writing build/export.zip at overlapping times
R Abandoned: 300 runs produced zero failures on my machine and CI has not failed since Tuesday; left a TODO to move the output to tmp_path and moved on to the release

@ C dbg re
G Fix EventListenerTest in the Java audit module, which sees events from other tests
H RecordingListener keeps captured events in a static List that no @AfterEach clears, so earlier tests' AUDIT_LOGIN events are counted
A Made the list an instance field and created a new RecordingListener in @BeforeEach
P EventListenerTest asserts exactly 2 events regardless of which test class ran first
E The event bus delivers asynchronously, so late events from the previous test arrive during this one || Drained the bus in @AfterEach before the next test starts || The count stabilises at 2
R Passes in every order I tried, including -Dsurefire.runOrder=reversealphabetical which failed before with 'expected 2 but was 5'
W Reading the assertion message carefully: 5 events meant three came from somewhere else
T Static collections in test helpers accumulate across the whole JVM run
"""
THEMES["timezone-dst"] = r"""
@ F dbg rca wa
G Find why appointment reminders in the clinic scheduling app went out an hour early after 26 October
H Celery beat is falling behind because the worker queue backs up in the morning, so the 09:00 reminder batch drifts
A Compared the scheduled ETA stored on each reminder task with the time the worker actually picked it up
P The pick-up time lags the stored ETA by tens of minutes on the affected mornings
N Support forwarded 43 complaints, all for appointments on or after 27 October.
R Tasks ran within two seconds of their ETA; the ETAs themselves were 08:00 local for appointments at 09:00 the next day
S The reminder times were computed wrong before they ever reached the queue, and only for appointments after the clocks went back
C remind_at is computed as appointment_utc - timedelta(hours=24); across the end of CEST that lands at 08:00 local on the previous day, while users expect the same wall-clock time the day before
W Computing the reminder in Europe/Berlin wall time (localise, subtract one calendar day, convert to UTC) and adding a test for 26 October
T "The day before" is calendar arithmetic in the user's zone, not 24 hours in UTC

@ F tst ca env
G Make test_receipt_timestamp in the POS exporter pass on CI as it does on my machine
H The CI image runs Python 3.12, whose strftime('%H:%M') output differs from 3.11 for our format string
A Ran the test locally under Python 3.12 with pyenv
P The test fails locally on 3.12 the same way CI does, expecting '09:00' and getting '07:00'
E The CI runner's locale formats hours with a leading space instead of a zero || Compared locale.getlocale(locale.LC_TIME) on CI and locally || CI reports a different LC_TIME value
R Passed locally on 3.12. Running it with TZ=UTC made it fail on 3.11 as well
S The Python version was irrelevant; the two-hour difference was exactly my Berlin summer offset
C format_receipt_time uses datetime.fromtimestamp(ts), which converts to the machine's local zone; the expected strings were written on a CEST laptop, while CI runners use UTC
W Passing tz=ZoneInfo(store.timezone) to fromtimestamp and running the suite once with TZ=Pacific/Auckland to flush out other cases
T A test that only passes in one machine timezone is testing the machine, not the code

@ F dbg se ms
G Fix the events page of the community app showing Sunday meetups under Saturday for US users
H date-fns format() is using a locale whose week starts on Monday, which shifts the calendar grouping by a day
A Set weekStartsOn: 0 in the calendar grouping and compared the output for a Chicago test account
P Sunday events move back under Sunday for the Chicago account
N Only reported by users in the Americas; testers in Berlin see the correct day.
R No change: the meetup on 12 October still rendered as Saturday 11 October 7:00 PM
S The event's time showed as 7 PM although meetups are created as all-day events with no time at all
C The API sends all-day dates as '2025-10-12', and new Date('2025-10-12') parses a date-only ISO string as UTC midnight, which is the evening before in America/Chicago
W Parsing date-only strings with parseISO into a local date and keeping all-day events as plain dates end to end
T Date-only ISO strings become UTC midnight in JavaScript; never pass them through new Date

@ C dbg rca
G Stop the Go billing service from generating duplicate monthly invoices on 2 November
H The invoice cron spec '30 1 * * *' is evaluated in America/New_York, and at the fall-back transition 01:30 occurs twice, so robfig/cron fires the job both times
A Switched the scheduler to CRON_TZ=UTC with '30 6 * * *' and added an idempotency key per customer and billing period
P A simulated clock walked across 2 November 2025 fires the job once, and a forced second run creates no invoices
E Two replicas of the billing service both run the scheduler || Checked the deployment for replicas and leader election || The duplicates come from two different pod names
N Both duplicates came from the same pod, which ruled out the two-replica theory.
R Simulation fired once; the rerun created 0 invoices thanks to the idempotency key. Logs from 2 November showed both runs at 01:30 EDT and 01:30 EST from the same pod
W Checking the pod name on the duplicates before assuming a deployment problem
T Never schedule jobs in a local time that has a repeated or missing hour

@ F dbg ca env
G Explain why bookings created through the London app server appear one hour off in the reporting service
H The mobile client sends the booking time with a wrong UTC offset during British Summer Time
A Logged the raw request bodies for ten new bookings on the London server
P The logged requests carry +00:00 for times that should be +01:00
E The reporting service converts timestamps with the wrong zone for the UK region || Ran the reporting query with an explicit AT TIME ZONE 'UTC' || The shift disappears in the raw query
R Requests carried correct offsets, e.g. 2025-09-18T14:00:00+01:00, and the shift only showed for rows written by the London instance
S Bookings from the two app servers disagreed even though they run the same build and talk to the same database
C The booking entity uses LocalDateTime; the London host's JVM default zone is Europe/London while the others run in UTC, so the offset is dropped in a different zone depending on which server handled the request
W Setting -Duser.timezone=UTC everywhere and migrating the column to timestamptz with an Instant field
T A LocalDateTime in a shared database silently encodes the timezone of whoever wrote it

@ F dbg re wa
G Fix 'TypeError: can't compare offset-naive and offset-aware datetimes' in refresh_session for SSO users
H The SSO provider omits the expires claim for some tenants, and our fallback assigns a default of a different type
A Logged the claims dictionary for failing SSO refreshes in staging
P Failing refreshes show no 'expires' claim
R Every failing refresh had an expires claim like '2025-10-02T10:15:00+00:00'; password logins with the same code path never failed
S The SSO path was the one behaving correctly; it was the only place producing timezone-aware values
C The SSO branch parses expires with datetime.fromisoformat, which keeps the +00:00 offset, while the session model compares it with datetime.utcnow(), which is naive
W Replacing utcnow() with datetime.now(UTC) across the auth package and adding a lint rule against utcnow
T Mixing naive and aware datetimes only fails when both kinds meet, which can be one code path in ten

@ F dbg dc ms
G Find the missing hour in the 30 March hourly traffic aggregates that the analytics team reported
H The Kafka consumer dropped messages during the 02:00 rebalance, so an hour of raw events never landed
A Counted raw events per UTC hour for 30 March directly in the landing bucket
P The raw count for the affected hour is near zero
N The autumn file for 26 October shows a doubled 02:00 bucket as well, so both transitions are affected.
R Raw events were complete: 24 UTC hours, all with normal volume. The gap only appeared after the aggregation step
S Nothing was lost; the aggregate table simply had 23 rows for that day
C The job builds hourly buckets with pd.date_range in naive Europe/Berlin local time and joins on local hour; 02:00-03:00 does not exist on the spring-forward day, so that hour's events fold into the wrong bucket
W Bucketing in UTC and converting to local only for display, with a regression test for both 2025 transition days
T Bucket in UTC; local-time buckets have 23 or 25 hours twice a year

@ C cfg ca
G Make is_business_hours() tests in the support-routing service independent of where they run
H The tests pass on laptops in Europe/Lisbon and fail on CI because is_business_hours() reads the machine's local time instead of the customer's zone
A Made is_business_hours() take a ZoneInfo argument, froze time with time-machine at a fixed UTC instant, and set TZ=Asia/Tokyo in one CI job to prove independence
P The tests pass both in the UTC job and in the Asia/Tokyo job
R Both CI jobs green; before the change the Tokyo job failed 7 of 12 business-hours cases
W Running one CI job in a far-off timezone on purpose
T If changing TZ changes the result, the code depends on the machine's clock zone

@ F dbg re mk
G Fix the panic 'called Option::unwrap() on a None value' in the Rust meter-reading importer for the 26 October file
H The CSV for 26 October has a malformed timestamp row that the parser turns into None
A Validated every timestamp string in the file against the expected '%Y-%m-%d %H:%M' format
P At least one row fails format validation
N The 26 October file has 100 quarter-hour rows instead of the usual 96.
R All 100 rows were well formed. The panic came from Local.from_local_datetime(...).single().unwrap() on the 02:30 rows
S Perfectly valid readings at 02:00 and 02:30 were rejected, and the file had two of each
C On 26 October 02:00-03:00 happens twice in Europe/Berlin, so chrono returns LocalResult::Ambiguous and single() is None; the meter vendor disambiguates with a separate DST flag column we ignored
W Reading the vendor's dst_flag column and mapping it to earliest()/latest()
T Local wall times are ambiguous once a year; any API returning an Option for them will return None that day

@ F int rf wa
G Fix scheduled push notifications from the fitness app backend arriving hours late for users outside UTC
H APNs throttles our notifications during peak hours and delivers them late
A Compared our send log timestamps with APNs delivery receipts for 50 delayed notifications
P The send log shows on-time sends and the receipts show late delivery
E The scheduler's worker pool falls behind during the evening peak || Added a queue-depth metric and compared it with send delays || Delays grow with queue depth
R Our sends were themselves late: a reminder scheduled for 18:00 in Madrid was sent at 20:00 local
S The delay matched each user's UTC offset exactly, two hours for Madrid and seven for Denver in the opposite direction
C The iOS client serialises the chosen time as '2025-10-03T18:00:00' without an offset, and Jackson on the server binds it to LocalDateTime that the scheduler then treats as UTC
W Changing the client to send ISO 8601 with offset and rejecting offset-less timestamps at the API
T An offset-less timestamp crossing a network boundary is a timezone bug waiting to happen

@ F dbg ca env
G Explain why daily sales totals in the production dashboard differ from the staging copy of the same data
H Production has late-arriving orders that were not yet in the nightly snapshot restored to staging
A Compared order ids between prod and the staging snapshot for 14 September
P Production contains orders missing from staging
R Identical order sets; the same SQL still gave different per-day totals in each database
S Same rows, same query, different answers: the query depended on something outside the data
C The query groups by date_trunc('day', created_at) on a timestamptz column, which uses the session TimeZone; the production role has ALTER ROLE ... SET timezone = 'America/New_York' and staging defaults to UTC
W Writing date_trunc('day', created_at AT TIME ZONE 'UTC') and checking pg_settings on both databases
T date_trunc on timestamptz depends on the session timezone; make the zone explicit in reporting SQL

@ A dbg au
G Fix appointments for a customer in Phoenix showing one hour late since March
H We map Arizona users to 'Mountain Time (US & Canada)', which observes DST, instead of America/Phoenix, which does not
A Asked support for the customer's profile export to see the stored time_zone value
P The stored zone is 'Mountain Time (US & Canada)'
R Abandoned: the customer cancelled their subscription and support closed the ticket before sending the profile; opened a backlog item to audit Rails zone mappings for no-DST regions

@ F tst ca wa
G Fix the opening-hours check in the Go store-locator that reports Sydney stores closed at 09:15 local
H The store hours config for the Sydney region has opens and closes swapped
A Printed the parsed opening hours for three Sydney stores in the test
P One or more stores show an opening time after the closing time
R Config was correct: opens 09:00, closes 17:30. The comparison still returned closed
S The parsed opening time printed as 09:00 UTC next to the current time in AEST
C time.Parse("15:04", cfg.Opens) yields a time in UTC, and the handler compares its hour with time.Now().In(sydney), so two clocks in different zones are compared
W Using time.ParseInLocation with the store's location and comparing minutes since local midnight
T time.Parse without a location means UTC; comparing it with a local clock is comparing two zones

@ C dbg rca
G Fix the hourly-energy ingest for the UK grid feed failing on the 26 October file
H pandas tz_localize('Europe/London') raises AmbiguousTimeError because 01:00-02:00 occurs twice at the end of BST
A Switched the ingest to read the feed's UTC column and convert with tz_convert, keeping the local column only for display
P The 26 October file ingests with 25 hourly rows and no exception
R Ingest succeeded with 25 rows; the traceback in the failed run was 'AmbiguousTimeError: Cannot infer dst time from 2025-10-26 01:00:00'
W Preferring the source's UTC column over localising wall-clock times
T If the source offers UTC, never reconstruct it from local time

@ F dbg rca env
G Find why the invoicing report shows timestamps one hour off for summer months only
H The frontend applies the user's offset twice: once in moment-timezone and once in the API response
A Called the reporting API directly with curl and compared it with the database rows
P The API returns correct times and only the UI is shifted
R The API was already an hour off compared with what the billing service logged when writing; the UI was innocent
S Winter timestamps matched exactly, and the error appeared only between late March and late October
C The billing service writes Instants into MySQL DATETIME via Connector/J, which converts using the JVM default zone Europe/Dublin; the reporting service reads with a UTC JVM, so during Irish summer time values shift by an hour
W Setting connectionTimeZone=UTC and forceConnectionTimeZoneToSession=true on both services, plus a one-off data migration for summer rows
T DATETIME has no zone; every JDBC client must agree on one explicitly

@ F fea rf mk
G Add weekly usage billing to the metering service, charging for elapsed hours between period start and end
H Subtracting two timezone-aware datetimes in the same ZoneInfo gives the real elapsed time, so the week of 26 October yields 169 hours
A Read the datetime docs on aware arithmetic and wrote a unit test for the week containing the fall-back transition
P The test computes 169 hours for 20-27 October in Europe/Paris
R The test computed 168 hours
S Python ignored the DST change entirely when both datetimes shared one tzinfo object
C For aware datetimes with the same tzinfo, subtraction uses wall-clock values and ignores utcoffset(); elapsed time requires converting both to UTC first
W Converting period bounds to UTC before subtracting and documenting it next to the billing calculation
T Same-tzinfo datetime arithmetic in Python is wall-clock arithmetic

@ F cfg se env
G Make the nightly cleanup cron in the Alpine-based worker container run at 03:00 Madrid time
H The crontab's day-of-week field is wrong, so the job runs on a different schedule than intended
A Validated the crontab line with crontab.guru and busybox crond -l 8 debug output
P The debug output shows a schedule other than daily at 03:00
R The schedule was daily at 03:00, but the job ran at 05:00 Madrid time in summer and 04:00 in winter
S TZ=Europe/Madrid was set in the Dockerfile and the container still behaved as UTC
C The alpine base image has no tzdata package, so the TZ variable names a zone that does not exist and libc silently falls back to UTC
W apk add tzdata in the image and checking date output in the container before touching cron
T A TZ variable without zoneinfo files fails silently

@ C tst cs
G Make the order-history snapshot tests in the TypeScript web app produce the same output on every developer machine
H The snapshot diffs ('Oct 5, 11:00 PM' vs 'Oct 6, 1:00 AM') happen because developers run Jest in different local timezones
A Copied the globalSetup from the admin-console repo that sets process.env.TZ = 'UTC' before any Date is created
P Snapshots generated in São Paulo and in Warsaw become byte-identical
R Two developers regenerated snapshots with the new setup and the files were identical; setting TZ inside a test file instead had not worked because Date was already initialised
W Borrowing a setup another team had already proven
T Pin TZ in Jest's globalSetup, not in individual test files

@ F dbg ca wa
G Find why events in the SQLAlchemy telemetry store are saved two hours later than the device reported
H The upstream Kafka producer stamps events in its local time instead of UTC
A Consumed twenty raw messages from the topic and inspected their timestamps
P Raw messages carry local times without offsets
R Raw messages were correct ISO strings ending in Z; the shift appeared between the consumer and the table
S The consumer logged the right aware datetime immediately before the insert
C The column is declared DateTime() without timezone=True, so Postgres stores it as timestamp without time zone after converting the aware value into the session TimeZone, Europe/Berlin
W Migrating the column to DateTime(timezone=True) and setting the connection timezone to UTC
T An aware datetime written into timestamp without time zone is converted to the session zone and then loses it

@ F dbg re ov
G Fix access tokens from the Python auth service expiring immediately for the New York deployment
H Clock skew between the auth service and the API gateway exceeds the 30 s leeway
A Compared chronyc tracking output on both hosts and the token's iat with the gateway's receive time
P The hosts disagree by more than 30 seconds
N Only the us-east deployment sets TZ=America/New_York in its container spec.
R Clocks agreed within 4 ms, yet every token's exp was already 4 hours in the past when it was issued
S The error was exactly the New York offset, and the same build in UTC containers was fine
C Tokens set exp = datetime.utcnow().timestamp(); timestamp() treats the naive utcnow value as local time, so on a host set to America/New_York the epoch is off by four hours
W Using datetime.now(timezone.utc).timestamp() and adding a test that runs with TZ=America/New_York
T Calling .timestamp() on a naive datetime assumes the machine's local zone

@ F tst te tm
G Fix test_weekly_summary, which fails every Monday in the early morning
H The CI database container is slow on Monday mornings when the weekly backup runs, and the query times out
A Raised the query timeout to 30 s in the CI settings
P Monday morning runs pass
E The order factory creates random timestamps that sometimes fall outside the summarised week || Seeded the factory with a fixed seed || The Monday failures stop
N CI history puts every failure between 00:05 and 01:55 CEST on a Monday.
R Failed again on Monday at 00:40 CEST, in 0.3 s, with the summary assigning Monday's orders to the previous ISO week
S The assertion, not the query, failed, and only between midnight and 02:00 local time
C The summary computes the ISO week from the UTC timestamp while the test builds its expectation from the local date; for two hours after midnight on Monday CEST it is still Sunday in UTC
W Deriving both sides from the shop's zone and freezing the clock to Monday 00:30 local in a new test
T A test that fails at a particular hour is usually comparing dates in two different zones

@ A int rf
G Parse delivery windows from the freight partner's API, which sends times like '14:00 EST'
H dateutil maps the abbreviation 'EST' to a fixed UTC-5 offset, so summer windows labelled EST by the partner are an hour off
A Read the dateutil tzinfos docs and drafted a mapping from the partner's abbreviations to America/New_York
P With the mapping, July windows convert to UTC-4
R Abandoned: the partner announced that API v2, shipping next month, sends ISO 8601 with offsets; we will migrate instead of parsing abbreviations

@ C dbg re
G Fix 'unknown time zone America/Sao_Paulo' from the Go scheduler after moving to a distroless image
H The distroless static image ships no /usr/share/zoneinfo, so time.LoadLocation cannot find any zone
A Added import _ "time/tzdata" to main.go to embed the zone database in the binary
P The scheduler starts and logs next runs in America/Sao_Paulo
N The same binary ran fine in the old debian-slim image.
R Started cleanly; next run logged as 2025-10-06T09:00:00-03:00. Binary grew by about 450 KB
W Reading the error literally: unknown zone means missing data, not a bad name
T Minimal images need zone data embedded or installed explicitly

@ C dbg ca
G Fix daily streaks resetting for users in Auckland in the habit-tracker backend
H Streak days are computed from the UTC date, and for New Zealand users a morning check-in and the next morning's can fall on the same UTC day or skip one
A Computed the streak day in the user's profile zone with zoneinfo and replayed two weeks of Auckland check-ins
P The replay shows unbroken streaks for the reported users
E The streak job runs at 00:00 UTC before late check-ins are synced from the mobile app || Moved the job to 03:00 UTC || Resets stop for Auckland users
R Replay for 31 Auckland users showed no false resets; under the old logic 12 of them lost their streak on 28 September, the NZ DST start
W Replaying real check-in histories through both implementations
T A user's day is their local calendar day, not a UTC date

@ A tst se
G Stabilise ScheduledReportTest in the Spring reporting module, which fails around DST changes
H The scheduler computes the next run with Clock.systemDefaultZone(), so the test's expectation shifts during DST transition weeks
A Started replacing the system clock with an injected fixed Clock in the scheduler and its test
P With a fixed clock in Europe/Berlin the next-run assertions hold in every week of the year
R Abandoned: the team decided to replace the home-grown scheduler with Quartz next sprint, so the test is being deleted with it
"""
THEMES["stale-cache"] = r"""
@ F dbg se ms
G Fix the blank page with 'ChunkLoadError: Loading chunk 412 failed' that users get right after each dashboard deploy
H The deploy script's S3 sync fails partway for some chunks, so a few new chunk files never get uploaded
A Listed the bucket after a deploy and compared it with the chunk names in the fresh build manifest
P Some chunk files named in the new manifest are missing from the bucket
E The new build's chunk names collide with the old build's names for different content || Compared chunk file names and hashes across two consecutive builds || Identical names with different content
E An ad blocker blocks requests to the chunk host for some users || Checked the failing sessions' user agents and extensions in the error reports || Failing sessions share one extension
E The CDN answers requests for missing chunks with the HTML error page and status 200 || Fetched a missing chunk URL with curl -i || An HTML body with status 200
N Errors spike for about 24 hours after each deploy, then fade out.
R Every new chunk was in the bucket. The failing browsers were requesting chunk names from the previous build, which the sync had deleted
S The browsers asked for files that only the old index.html referenced, hours after the deploy
C CloudFront served index.html with Cache-Control: max-age=86400 inherited from the default behaviour, so clients kept the old HTML pointing at deleted hashed chunks
W Serving index.html with no-cache, keeping the previous build's chunks for a week, and invalidating /index.html on deploy
T Hashed assets can be cached forever only if the HTML that names them is not

@ F dbg ca wa
G Find why the pricing worker quotes exchange rates that are three days old
H The rates provider's EUR endpoint returns stale data when called without the 'latest' flag
A Called the provider API by hand and compared its timestamp with what the worker logged
P The API response itself carries a three-day-old timestamp
R The provider returned today's rates. The worker had not called it since it started on Monday
S No outgoing request to the rates provider appeared in the worker's logs after the first one
C get_exchange_rates() is decorated with functools.lru_cache(maxsize=1) and the worker process runs for days, so the first response is memoised for the life of the process
W Replacing lru_cache with a small TTL cache (cachetools.TTLCache, 15 minutes) and logging cache misses
T Memoising a function whose answer changes over time needs an expiry

@ C dbg rca
G Make category edits in the Django shop admin show up in the storefront sidebar immediately
H The {% cache 600 sidebar %} fragment key does not vary with the categories, so edits stay hidden for up to ten minutes
A Added the max(updated_at) of Category as a vary-on argument to the cache tag
P A renamed category appears in the sidebar on the next page load
E The admin writes to the replica while the storefront reads the primary || Checked DATABASE_ROUTERS for the admin's write path || The admin writes somewhere other than the primary
R Renamed 'Outdoor' to 'Outdoor & Garden' and the sidebar updated on the next request; without the vary-on it took 9 minutes 40 seconds
W Timing how long the old value survived, which matched the 600 s timeout
T A fragment cache key must change whenever the data it renders changes

@ F cfg re env
G Explain why the fraud-rules service still applies last quarter's rules after rebuilding its image
H The deploy pipeline pulled an old image tag because the tag was reused
A Compared the image digest running in production with the digest the pipeline pushed
P The running digest differs from the newly pushed one
N rules.json inside the image has mtime 2025-07-02 although the image was built yesterday.
R Digests matched; the new image really was running, and it contained a rules.json dated 2 July
S A freshly built image contained a file downloaded months ago
C The Dockerfile fetches the rules with RUN curl -o /app/rules.json .../latest, and since the command text never changes Docker reuses the cached layer from the first build
W Adding ARG RULES_VERSION to the curl layer and building with --no-cache in the release job
T Docker caches RUN steps by their text, not by what the network would return today

@ F dbg rf ms
G Fix the field-service mobile app still showing the old job address format after the API serializer change
H The app's offline SQLite schema was not migrated, so it renders the address with the old columns
A Installed the latest app build on a clean device and opened a job
P A clean install shows the new format
R The clean install showed the new format, but the upgraded devices kept showing the old one even after a pull-to-refresh
S The server answered the refresh with 304 Not Modified although the response body had changed shape
C The API computes the ETag from the job row's updated_at only, so the serializer change produced new JSON with the old ETag and clients with a cached copy kept revalidating it successfully
W Including a serializer version in the ETag hash
T An ETag must change whenever the representation changes, not only when the row does

@ F sec se ov
G Find out why a user removed from the admin group could still open /admin/billing for about an hour
H The user's JWT still carries the old roles claim until it expires, because we do not revoke issued tokens
A Decoded the user's current access token after the role change
P The token still lists 'admin' in its roles claim
N Access stopped at 14:02, exactly one hour after the role change at 13:02.
R The token had been refreshed and listed only 'member'; the authorisation check still granted admin
S A token with the right roles was accepted as admin anyway
C Authorisation reads permissions from Redis key perms:{user_id} with a one-hour TTL, and the role-change endpoint never deletes that key
W Deleting the permission key in the same transaction hook that changes roles, plus a test that revokes and immediately checks access
T Security-relevant caches need explicit invalidation on every write path, not a TTL

@ C perf rca
G Make price updates in the Go catalog service visible on every replica, not just some
H Each of the six replicas holds a local ristretto cache with a 10-minute TTL, and the update only invalidates the cache on the replica that served the write
A Published invalidation messages on a Redis pub/sub channel that every replica subscribes to
P After an update, requests to all six replicas return the new price within a second
R Curling each pod directly after an update returned the new price on 6 of 6 within 300 ms; before, 5 of 6 served the old one
W Hitting each pod individually instead of going through the load balancer
T A per-replica cache needs a broadcast invalidation once there is more than one replica

@ F dbg te ms
G Get CSS changes to appear in the local dev server of the booking frontend again
H The HMR websocket is blocked by the corporate proxy, so updates never reach the browser
A Opened the dev tools network tab and checked the websocket connection to the Vite dev server
P The websocket connection fails or is missing
E Vite's dependency pre-bundling cache in node_modules/.vite is stale || Deleted node_modules/.vite and restarted the dev server || The new styles appear after the restart
R The websocket was connected and received update messages, yet the old stylesheet stayed
S Requests for /assets/app.css were answered 'from ServiceWorker' on localhost
C A Workbox service worker registered by an earlier production-mode build on localhost:3000 kept serving cached /assets/* files
W Unregistering the service worker in Application > Service Workers and disabling registration in dev mode
T Service workers outlive the build that installed them, including on localhost

@ F dbg ca ov
G Fix product pages in the Spring storefront showing old prices after the nightly repricing job
H The repricing transaction is still open when the product page reads, so it sees the pre-commit values
A Logged commit times of the repricing job and read times of the product page for one SKU
P Some page reads happen before the repricing commit
E The CDN caches product pages for an hour after the repricing || Requested the page with a cache-busting query parameter || The fresh page shows the new price
E The nightly job writes prices into the staging schema by mistake || Queried the production price table for one repriced SKU || The production table still has the old price
R Reads happened hours after the commit and still returned the old price
S Products edited one at a time through the admin UI updated instantly; only the nightly job's changes were invisible
C findById is @Cacheable("products"), and the single-product update path has @CacheEvict, but the nightly job uses a JPQL bulk UPDATE in bulkUpdatePrices that bypasses the cache entirely
W Adding @CacheEvict(value = "products", allEntries = true) to bulkUpdatePrices
T Bulk updates bypass entity-level cache annotations

@ F cfg rca mk
G Make the status page reflect an incident within a minute instead of ten
H The status endpoint reads from a Postgres read replica that lags several minutes behind the primary
A Checked pg_stat_replication lag during the last incident window
P Replica lag of several minutes during the incident
N Upstream request logs show exactly one /api/status request every 600 s.
R Lag never exceeded 200 ms, but the endpoint kept returning 'operational' for 10 minutes
S The upstream service logged only one request per ten minutes for /api/status, although the page polls every 15 seconds
C An included nginx snippet sets proxy_cache_valid 200 10m for every location, and the status endpoint sends no Cache-Control, so nginx cached it for ten minutes
W Reading the full nginx -T output instead of the site file alone, then adding proxy_no_cache for /api/status
T Without its own Cache-Control, a response is cached by whatever default the proxy has

@ F dbg dc ov
G Find why the TypeScript client in the monorepo still lacks the new Invoice.dueDate field from the proto schema
H The CI image's protoc is older than the one that supports the optional keyword we used
A Compared protoc --version in CI and locally, then regenerated locally with the CI version
P The CI protoc version generates code without dueDate
E The proto change was never pushed to the remote branch || Checked proto/invoice.proto on the remote branch || The remote file lacks dueDate
R Both versions generated dueDate fine; in CI the codegen task logged 'cache hit, replaying logs' and never ran protoc
S The build did not regenerate anything although the .proto file had changed
C turbo.json declares inputs for the codegen task as src/** only; the .proto files live in ../proto, so Turborepo's remote cache returned outputs from before the schema change
W Adding ../proto/**/*.proto to the task inputs and checking the task hash changes after editing a proto
T A build cache is only as correct as its declared inputs

@ C tst re
G Make Jest pick up the new babel plugin for optional chaining in the legacy widgets package
H Our custom Jest transformer has no getCacheKey, so Jest caches transformed files by source content only and ignores the changed babel config
A Ran jest --clearCache, then added getCacheKey that hashes babel.config.js into the key
P After clearing, tests compile with the plugin; after editing the config again they recompile without clearing
R With getCacheKey in place, editing babel.config.js invalidated the transform cache on the next run; before that, only --clearCache helped
W Reading the stack trace, which pointed into a cached file in /tmp/jest_rs
T Custom transformers must include their configuration in the cache key

@ F dbg se ms
G Fix replaced product thumbnails that keep showing the old image on the marketplace
H The thumbnail regeneration job failed for the replaced images
A Fetched the thumbnail directly from the S3 origin URL
P The origin still has the old thumbnail
R S3 had the new thumbnail; through the CDN the old one came back with cf-cache-status: HIT and age: 371204
S The edge had been serving the old object for four days with no attempt to revalidate
C Uploads set Cache-Control: public, max-age=604800 and the replacement reuses the same object key, so Cloudflare keeps the old thumbnail for a week
W Writing replacements under a new content-hash key and purging the old URL on replace
T Replacing content at a cached URL requires a purge or a new URL

@ F perf ca wa
G Find why the shipping-cost panel in the React checkout keeps showing the previous country's rates
H reselect compares inputs deeply, so it keeps returning the memoised value when only a nested field changes
A Read the reselect docs and logged input identity on every selector call
P Inputs change identity but the selector still returns the cached result
R Input identity never changed: the same config object was passed every time, with a different country inside
S Changing the country left the state object's reference untouched
C The settings reducer mutates state.shipping.country in place; the memoize helper keys its WeakMap on the object reference, so it returns the result computed for the old country
W Making the reducer return a new object (Immer) and adding a freeze in development to catch mutations
T Reference-keyed memoisation silently breaks when inputs are mutated in place

@ C sec rf
G Stop /api/me from returning the previous user's profile after switching accounts in Safari
H /api/me has no Cache-Control header, and Safari applies heuristic freshness based on Last-Modified, so it serves the cached response of the previous session
A Added Cache-Control: no-store, private to /api/me and all authenticated JSON responses
P After logging out and in as another user, Safari's network log shows a fresh /api/me request and the new user's name
R Safari fetched /api/me from the network after the change; before it, the inspector showed '(memory cache)' for the same request
W Reading RFC 9111 on heuristic freshness before blaming the session code
T Personal API responses need explicit no-store; no header is not the same as no caching

@ F dbg rca ms
G Restore the order service's database connectivity after the RDS failover, which kept failing for 40 minutes
H The HikariCP pool holds connections to the old primary and never validates them
A Lowered maxLifetime to 60 s and enabled connection validation
P A test failover recovers within a minute
N The RDS event log says the failover completed on the AWS side in 35 s.
R Recovery still took over 30 minutes; new connections kept going to the old, now read-only, IP address
S Freshly created connections used the stale address, not only pooled ones
C The JVM caches DNS lookups indefinitely when a security manager is installed, so the RDS endpoint kept resolving to the pre-failover IP
W Setting networkaddress.cache.ttl=30 in java.security and verifying with a forced failover
T DNS answers are cached in the JVM too, sometimes forever

@ F dbg ca ms
G Fix the to-do list in the React app not showing a renamed item until reload
H The rename mutation is not persisted on the server, and the reload shows a server-side retry
A Checked the database row right after the mutation returned
P The row still has the old title
R The row had the new title immediately; only the UI kept the old one
S The mutation response contained the new title, and Apollo's cache still held the old title for that item
C The mutation's selection set did not request id, so Apollo could not normalise the result onto Todo:42 and the cached list entry was never updated
W Adding id to every mutation selection set and enabling the cache's warnings for missing keys
T Apollo only updates cached entities it can identify by id and __typename

@ F int se wa
G Find why the re-run of the 9 October ingest in Airflow still loaded the broken partner export
H The partner re-published the corrected export after our re-run started
A Compared the partner's S3 object LastModified with the start time of our re-run
P The corrected file's timestamp is later than our re-run
R The corrected file was uploaded two hours before the re-run, which still loaded the old rows
S The task log said 'using cached file /tmp/exports/2025-10-09.csv' and never downloaded anything
C fetch_export() caches downloads on the worker's local disk keyed only by date, so a re-run on the same worker reuses the original broken file
W Keying the cache by the object's ETag and adding a force_download param for re-runs
T A cache keyed on a date cannot tell a corrected file from the original

@ C dbg ca
G Make new comments appear on cached blog post pages in the Rails app
H The post's cache fragment depends on post.updated_at, and Comment belongs_to :post without touch: true, so adding a comment never changes the key
A Added touch: true to the association and a request spec that comments and re-renders
P The rendered page contains the new comment on the next request
R The spec passes and the post's cache key changes on comment creation; the old key was reused in the failing case
W Printing the fragment cache key before and after creating a comment
T Russian-doll caching needs touch: true on every child association that affects the parent view

@ A perf au
G Stop the product pages from showing sold-out items as available for hours during backend slowdowns
H Varnish grace mode serves stale objects for up to 24 h while the backend is slow, which includes stock levels
A Asked the infrastructure team for the production VCL and grace settings
P beresp.grace is set to 24h for product pages
R Abandoned: infrastructure replied that the Varnish tier is being decommissioned in favour of Fastly next month, so grace settings will be redefined there

@ F dbg te ms
G Make the admin frontend call the new API host after the API moved to api2.internal
H REACT_APP_API_URL was not set during the production build, so the old default URL is compiled into the bundle
A Rebuilt with REACT_APP_API_URL set explicitly and grepped the bundle
P The fresh bundle contains the new host
N Incognito windows used the new host immediately.
R The bundle had the new host even before the rebuild, since the URL is not compiled in but loaded from /config.js at runtime. Browsers were still loading the old config.js
S The file on the server was correct and browsers still got the old one without contacting the server
C The static server's catch-all rule sends Cache-Control: max-age=31536000, immutable for every .js file, including the unhashed /config.js
W Adding a no-cache rule for /config.js ahead of the catch-all
T Only content-hashed files may be immutable

@ F perf rf wa
G Find why the autumn promotion discount is still applied two days after it ended
H The promotion end time is compared in UTC while the promo was configured in local time
A Checked the stored promo end and the comparison code
P The end time is off by the local offset
E Someone extended the promotion in the admin by mistake || Checked the promotion's audit log || An edit after the original end date
R End time and comparison were correct; compute_discount for SKU 1842 still returned 15% on a fresh process only after a restart stopped doing so
S Restarting the pricing service ended the promotion instantly
C compute_discount(sku) is memoised with lru_cache(maxsize=None) although its answer depends on today's date, so a discount computed during the promo was reused after it ended
W Adding the date to the cache key and expiring the cache at midnight
T Every input a memoised function depends on, including the clock, belongs in its key

@ C cfg se
G Fix CI builds that ship an outdated generated OpenAPI client in the mobile backend monorepo
H The actions/cache step restores build/ using the restore-keys prefix 'build-', so a cache from another branch with old generated sources is restored and the generator skips as up to date
A Removed build/ from the cache paths and cached only ~/.gradle/caches keyed on the lockfiles
P The generated client matches the current openapi.yaml on every branch build
R Three consecutive builds produced the current client; the previous build log had shown 'Cache restored from key: build-main-8f2c'
W Reading which cache key was actually restored in the log
T Cache build outputs only under keys that include every input

@ C int rf
G Find why the release-notes CLI keeps listing v2.3 as the latest release of our repos
H The CLI installs a requests-cache SQLite cache with no expiry, so GitHub API responses from the first run are served forever
A Read the requests-cache docs and set expire_after=timedelta(hours=1) and cache_control=True
P The CLI lists v2.4 immediately, and a debug log shows a real request after an hour
R v2.4 listed on the next run; ~/.cache/relnotes.sqlite had held responses from August
W Checking for a persistent HTTP cache before suspecting GitHub rate limiting
T HTTP caches installed globally in a CLI need an expiry or to honour Cache-Control

@ A dbg rf
G Explain why the Android client shows yesterday's feed when the network is flaky
H OkHttp's cache is configured with max-stale of one day for the feed endpoint, so the client prefers stale data on any error
A Read the OkHttp interceptor code in the mobile repo to find the cache control settings
P An interceptor adds CacheControl with maxStale(1, DAYS) on errors
R Abandoned: the mobile team owns that interceptor and is rewriting the networking layer; handed them my notes instead
"""
THEMES["env-config-drift"] = r"""
@ F dbg se env
G Fix password-reset emails that never arrive in production although they work in staging
H The SMTP relay rejects mail from the production sending domain because its SPF record is incomplete
A Checked the relay's delivery logs and the SPF record for mail.example.com
P The relay logs show rejections with an SPF failure
N Staging and production run the same image tag, 2025.10.3.
R The relay had no record of any attempt from production; the app log had 'ConnectionRefusedError: [Errno 111]' from send_mail
S Production never reached the relay at all; it was connecting to port 25 on its own container
C EMAIL_HOST and EMAIL_HOST_PASSWORD are set in staging's .env but missing from the production Kubernetes secret, so Django fell back to its default EMAIL_HOST='localhost'
W Diffing the variable names between the staging .env and the production secret, and failing startup when EMAIL_HOST is unset
T Defaults that make sense on a laptop, like localhost, hide missing production configuration

@ F cfg ca wa
G Fix the CORS errors that the customer portal only gets against the production API
H CloudFront strips the Origin header before the request reaches the FastAPI app, so CORSMiddleware never adds the allow header
A Logged request headers in the app for a production preflight request
P The logged preflight request has no Origin header
R Origin arrived intact as 'https://portal.example.com'; the middleware still rejected it
S The rejected origin appeared, character for character, in the production ALLOWED_ORIGINS variable
C Production sets ALLOWED_ORIGINS='https://portal.example.com, https://www.example.com' with a space after the comma; the settings code splits on ',' without stripping, so the allowed entry is ' https://portal.example.com'. Staging lists one origin only
W Stripping and validating each origin in the settings class, and logging the parsed list at startup
T Compare parsed configuration, not the raw environment strings, when environments disagree

@ C cfg rca
G Find why the redesigned checkout appears in staging but not for production customers
H The new_checkout flag in LaunchDarkly is targeted on in the staging environment only; production still serves the default variation false
A Fetched the flag configuration for both environments through the LaunchDarkly REST API and compared the targeting rules
P Production shows targeting off with the off variation false
R Production targeting was off; staging had it on with a 100% rollout. Turning it on for the internal segment in production made the checkout appear for employees
W Comparing the flag per environment in the API instead of in the UI, which defaults to the last environment viewed
T Feature flags are per-environment configuration and drift like any other

@ F int rf env
G Fix 'AccessDenied' when the Go media service uploads to S3 in production
H Nobody added a grant for the media service's IRSA role when the production bucket was created, so the resource side denies PutObject
A Read the bucket policy and simulated the role's PutObject with the IAM policy simulator
P The simulator denies PutObject for the role
E The bucket's default encryption uses a KMS key the role cannot use || Checked the bucket's encryption settings and the key policy || The key policy lacks the role
E The S3 VPC endpoint policy denies PutObject for this bucket || Read the policy attached to the VPC endpoint || A deny statement covering the bucket
R The simulator allowed it. CloudTrail showed the request signed by a deploy user, not the service role
S The pod was not using its IRSA role at all, although staging pods with the same manifest were
C Old production Helm values still set AWS_PROFILE=deploy, which makes the SDK read the mounted legacy credentials file instead of the web-identity token; staging values never had it
W Removing AWS_PROFILE from the production values and logging sts:GetCallerIdentity at startup
T Log which identity a service actually assumes; the SDK's credential chain depends on environment variables

@ F dbg ca ms
G Fix 'LazyInitializationException: could not initialize proxy - no Session' on GET /orders in production only
H Production runs a newer Hibernate patch version than staging, which changed lazy loading of the items collection
A Compared dependency trees of the staging and production artifacts
P The artifacts resolve different Hibernate versions
R Same artifact, same Hibernate 6.4.4. The difference was the active profile
S The identical JAR failed in one environment and not the other
C application-prod.yml sets spring.jpa.open-in-view=false, while staging uses the default true, so the controller serialises the lazy items collection after the session closed only in production
W Fetching items with a join in the repository query and disabling open-in-view in every profile so staging behaves like production
T Profile-specific settings need the same review as code; keep environments' behaviour flags identical

@ F cfg se env
G Find why API rate limiting does not trigger in production although load tests in staging hit it
H The Redis instance backing the limiter is unreachable in production and the limiter fails open
A Checked Redis connectivity from a production pod and the limiter's error counters
P Connection errors or a fail-open counter above zero
N Staging's values file was copied from the load-test environment; production's never had a load test.
R Redis was reachable and the limiter recorded no errors; it recorded no requests either
S The limiter middleware was not in the production request pipeline at all
C RATELIMIT_ENABLED defaults to false when unset, and only the staging Helm values set it to true
W Printing the effective settings at startup in both environments and diffing them
T Security controls should default to on; an unset variable should never disable them

@ C dbg re
G Fix the Rust ingestion service crashing on startup in production after Monday's release
H The release added database_pool_size to the Config struct loaded with envy, without a serde default, and the production deployment does not define DATABASE_POOL_SIZE
A Added #[serde(default = "default_pool_size")] and added the variable to the production values file
P The service starts and logs a pool size of 16
R Started cleanly after the deploy; the crash log had read 'missing value for field database_pool_size'
W Reading the exact field name in the panic message
T Every new configuration field needs a default or a deployment change in every environment

@ F dbg dc env
G Get error reports from the production build of the React booking app into Sentry
H Sentry is dropping events because our DSN hit its rate limit
A Checked the project's usage stats and rate-limit settings in Sentry
P Dropped events appear in the usage stats
E The Sentry SDK is tree-shaken out of the production bundle || Searched the production bundle for the Sentry.init call || The call is missing from the bundle
R No dropped events; production sent nothing. Sentry.init received dsn: undefined
S The staging build reported errors fine with the same code
C Vite only exposes variables prefixed with VITE_; the staging build reads .env.staging with VITE_SENTRY_DSN, while the production CI pipeline exports SENTRY_DSN, which Vite ignores
W Renaming the CI variable and asserting at build time that required VITE_ variables are set
T Bundlers filter environment variables by prefix; a missing prefix looks like a missing variable

@ F cfg rca wa
G Find why the notification service in production still sends from the old sender address after the ConfigMap change
H The ConfigMap was applied to the staging namespace instead of production
A Checked the ConfigMap in the prod namespace with kubectl get configmap notifier -o yaml
P The prod ConfigMap still contains the old sender
N kubectl rollout history shows the last production rollout was nine days ago.
R The prod ConfigMap had the new address. The running pods' environment still had the old one
S Staging had switched over immediately after the same change
C The pods read SENDER_ADDRESS via envFrom, which is resolved only when a container starts; staging pods happened to be restarted by an unrelated deploy, production pods had been running for nine days
W Adding a checksum of the ConfigMap as a pod annotation so changes roll the deployment
T Environment variables from a ConfigMap are fixed at container start

@ F sec ca env
G Fix 'CSRF verification failed. Origin checking failed' on form posts in production behind the load balancer
H The new SESSION_COOKIE_SAMESITE='Strict' setting drops the CSRF cookie on cross-site redirects from the SSO page
A Temporarily set SameSite to Lax in production and retried the login form
P The form posts succeed with Lax
R Still failed with 'https://app.example.com does not match any trusted origins'
S The error named our own domain as untrusted
C Production settings lack CSRF_TRUSTED_ORIGINS and SECURE_PROXY_SSL_HEADER; the LB terminates TLS and forwards plain http, so Django 4's origin check compares https to http. Staging runs without TLS and never hits it
W Adding SECURE_PROXY_SSL_HEADER and CSRF_TRUSTED_ORIGINS to the production settings module and a TLS-terminating proxy in staging
T Staging should terminate TLS the way production does, or TLS-only settings never get tested

@ A cfg au
G Fix iOS push notifications that work in staging but never arrive in production
H The production APNs configuration has APNS_USE_SANDBOX=true copied from staging, so tokens from App Store builds are rejected
A Asked the ops on-call to show the production notifier secret
P The secret contains APNS_USE_SANDBOX=true
R Abandoned: before I got an answer, the on-call rotated the whole notifier secret during an unrelated incident and pushes started working; no way left to confirm what the old value was

@ F dbg se ws
G Explain why the mobile app fails to parse createdAt in production API responses but not in staging
H The production app build uses an older JSON client library that cannot parse ISO dates
A Pointed the same production app build at the staging API
P The app fails against staging too
R Against staging it parsed fine. Production responses had createdAt as 1730815200000, staging as '2024-11-05T14:00:00Z'
S The two environments serialised the same field differently
C spring.jackson.serialization.write-dates-as-timestamps=false is only in application-staging.yml; production falls back to Jackson's default of epoch milliseconds
W Moving Jackson settings to the shared application.yml and adding a contract test on the date format
T Serialization settings belong in shared configuration, not in one profile

@ C cfg ca
G Stop the Node API container from crashing in production with "Cannot find module 'pino-pretty'"
H The production values set LOG_PRETTY=true, copied from the dev compose file, and pino-pretty is a devDependency that npm ci --omit=dev does not install
A Removed LOG_PRETTY from the production values and made the logger ignore it when NODE_ENV=production
P The container starts and logs plain JSON lines
N The crash appeared right after the Helm values refactor merged staging and production into one file with overrides.
R Container started and logged JSON; setting LOG_PRETTY=true again reproduced the crash in a local production-mode build
W Reproducing with the production install flags locally
T Development conveniences switched by environment variables leak into production configs

@ F perf se env
G Find why the Django API is three times slower in production than in staging on identical hardware
H Production tables are larger and a query on orders is missing an index there
A Ran EXPLAIN ANALYZE for the ten slowest endpoints' queries in production
P At least one query does a sequential scan on a large table
E Production runs on ARM instances where a dependency falls back to a pure-Python implementation || Compared the wheel platform tags in both images || Different orjson wheels in the two images
E DEBUG is on in production and Django keeps every SQL query in memory || Checked settings.DEBUG in a production shell || DEBUG is True
R All queries used indexes and took under 15 ms; requests queued before reaching Django
S CPU usage on the production pods never exceeded one core
C WEB_CONCURRENCY is unset in production, so gunicorn starts one worker; staging's .env sets it to 4
W Comparing process lists (ps aux) on both environments before profiling queries
T Check how many workers actually run before optimising anything

@ F dbg ca wa
G Fix 404s on the /v2/ endpoints of the Go catalog API in production
H The ingress rewrite rule in production strips the /v2 prefix
A Compared the ingress manifests of both environments
P The production ingress contains a rewrite-target annotation
R The ingress manifests were identical; requests reached the pods, which answered 404 themselves
S The handler for /v2 was never registered in production, although the image was the same
C FEATURE_V2_API is set to 'yes' by the production Terraform module, which strconv.ParseBool rejects; the error was ignored and the flag defaulted to false. Staging sets 'true'
W Logging every parsed flag at startup and failing on parse errors instead of defaulting
T Boolean environment variables need one accepted spelling and loud failure on others

@ F int re env
G Fix Stripe webhook signature failures in production
H An Express JSON body parser re-serialises the body before the webhook handler, breaking the signature
A Checked the middleware order for the /webhooks/stripe route
P A JSON parser runs before express.raw on that route
N The Vault paths are secret/payments/staging and secret/payments/prod, with identical key names.
R The route used express.raw correctly; the verification still failed with 'No signatures found matching the expected signature'
S The same code verified staging webhooks without trouble
C The Vault path for production was copied from staging, so STRIPE_WEBHOOK_SECRET holds the whsec of the test-mode endpoint, not the live one
W Comparing the secret's prefix with the endpoint's secret in the Stripe dashboard for live mode
T Copying a secrets path between environments copies environment-specific secrets

@ C dbg rf
G Fix missing CSS and JS on the Rails app after moving production from Heroku to containers
H RAILS_SERVE_STATIC_FILES is not set on the new platform; Heroku's buildpack set it implicitly, so Rails no longer serves public/assets
A Read the Rails production.rb defaults and set RAILS_SERVE_STATIC_FILES=1 in the container environment
P /assets/application-*.css returns 200 instead of 404
R Assets returned 200 after the change; the variable had indeed been injected by the Heroku Ruby buildpack
W Listing which variables the old platform added silently
T Migrating platforms means inventorying the environment it provided implicitly

@ A cfg dc
G Fix the report-export Lambda timing out in production while it completes in staging
H The timeout variable is only set in staging's tfvars, so production keeps the 3-second default
A Started comparing terraform plan output for both environments' export module
P Production plan shows timeout = 3
R Abandoned: product decided to move exports to the batch queue this sprint, and the Lambda is being removed

@ F dbg se ov
G Fix the deploy script failing in CI with 'Missing API key' while it works for every developer
H The CI secret for the deployment API key has expired and the API rejects it
A Regenerated the key and updated the CI secret
P The deploy step passes with the new key
R Same error, raised before any HTTP request
S The script did not even try to call the API
C The script reads API_KEY, which developers have in their local .env; CI only defines DEPLOY_API_KEY, and there is no .env in CI
W Printing which configuration variables the script needs at the top and checking them explicitly
T A .env file on developer machines hides the list of variables other environments must define

@ F sec rf mk
G Fix token validation failing for every request in the production gateway
H Clock skew between the identity provider and the gateway exceeds the default 60 s leeway
A Compared iat of fresh tokens with the gateway's clock
P Tokens appear to be issued in the future
R Times matched within a second; the error was 'invalid issuer'
S The issuer in the token looked identical to the configured one
C Production sets JWT_ISSUER='https://auth.example.com/' with a trailing slash while tokens carry iss without it; staging's value has no slash
W Reading the library's issuer comparison (exact string match) and normalising the configured value
T Issuer checks are exact string comparisons, and a trailing slash counts

@ C perf ca
G Find why the Java search service is OOMKilled in production but fine in staging
H The production Helm values override JAVA_TOOL_OPTIONS with -Xmx512m while staging uses the chart default of 2g
A Printed the JVM flags via jcmd VM.flags in a production pod and compared with staging
P Production MaxHeapSize is 512 MB
R Production MaxHeapSize was 536870912; staging 2147483648. Removing the override stopped the OOMKills over the next day
W Reading the effective flags in the running JVM rather than trusting the chart
T Values files layered per environment hide overrides; inspect the running process

@ F dbg te env
G Find why production Postgres rejects connections with 'remaining connection slots are reserved'
H A code path leaks connections by not releasing them after an exception
A Checked pg_stat_activity for idle connections older than an hour
P Many long-idle connections from the same code path
N max_connections is 500 on the production cluster; 40 pods x 20 = 800.
R Connections were short-lived and balanced per pod; there were simply 800 of them
S Each pod held 20 connections, which is the staging setting
C DB_POOL_MAX=20 was copied from the staging values, which has 3 pods; production runs 40 pods, so the pools alone exceed max_connections of 500
W Sizing the pool from max_connections divided by the pod count and documenting it next to the replica count
T Per-pod settings must be scaled with the environment's replica count

@ F tst ca wa
G Fix test_search_case_insensitive, which passes locally and fails in CI
H CI runs migrations in a different order and the search index migration has not been applied
A Checked the migration state of the CI test database
P The index migration is missing in CI
E The CI Postgres image uses a different default collation || Checked datcollate in the CI database || A collation other than en_US.UTF-8
R Migrations were complete in both places. Locally the tests ran against SQLite, in CI against Postgres
S My local test run was not using Postgres at all
C pytest-dotenv loads the developer .env, which sets USE_SQLITE=1; SQLite's LIKE is case-insensitive for ASCII, Postgres's is not, and CI has no .env
W Making the test settings ignore .env and using ILIKE in the query
T Local .env files can silently change which database your tests run against

@ C cfg rca
G Find why the production web app reports analytics into the staging GA property
H NEXT_PUBLIC_GA_ID is inlined at build time, and we build the image once in staging and promote the same image to production
A Moved the analytics ID to a runtime /api/config endpoint read on page load
P Production page views appear in the production property and none in staging
R Production views appeared in the production property within minutes; the promoted image had contained G-STAGING in the JS bundle
W Grepping the built bundle for the ID
T Build-time public variables break build-once-promote-everywhere pipelines

@ A cfg se
G Find why the temp-file cleanup task runs hourly in staging but only once a day in production
H Production uses the django-celery-beat database scheduler, whose stored interval for the task was edited by hand long ago, while staging reads CELERY_BEAT_SCHEDULE from settings
A Started comparing the PeriodicTask rows in both databases with the schedule in settings
P The production PeriodicTask row for cleanup has a 24-hour interval and staging has none
R Abandoned: the cleanup task is being replaced by dropping old Postgres partitions next sprint, so the schedule difference stops mattering
"""
THEMES["pagination-off-by-one"] = r"""
@ F dbg se ov
G Stop the mobile feed endpoint from repeating the last post of each page at the top of the next one
H Posts are ordered by created_at alone, and posts with identical timestamps swap places between queries
A Added id as a tie-breaker to the ordering and fetched pages 1-5 of a test account
P No post appears on two pages
N Reported by the iOS team: the post 'Weekend plans' appears at the end of page 1 and again at the start of page 2.
R Every page boundary still repeated one post, and the repeated posts had distinct timestamps
S The duplicate was always exactly one item, at exactly the page boundary, regardless of timestamps
C The custom FeedPaginator slices queryset[start:end + 1], treating end as inclusive, so each page returns page_size + 1 items and the extra one is the first item of the next page
W Writing a test that walks all pages of 53 posts and asserts the concatenation equals the full list
T Python slice ends are exclusive; a paginator test should reassemble the full list from its pages

@ F dbg ca wa
G Find why the first 20 products never show up in the Spring Boot catalog's web listing
H The default sort puts inactive products first and the listing filters them out after paging
A Checked the repository query and the listing's filter code
P Inactive products are removed after the page is fetched
R Filtering happens in the query. With page=1 in the request, the log showed OFFSET 20 LIMIT 20
S The request for page 1 produced an offset of 20
C The web client sends 1-based page numbers, and the controller passes them straight into PageRequest.of(page, 20), which is 0-based, so the first page is unreachable
W Setting spring.data.web.pageable.one-indexed-parameters=true and adding a test for page=1
T Agree on 0- or 1-based pages at the API boundary and test the first page explicitly

@ C dbg rca
G Make the Go CLI that lists repository issues include issues from the last page of the GitHub API
H The loop 'for page := 1; page < lastPage; page++' stops before the page number parsed from the Link header's rel="last"
A Changed the loop condition to page <= lastPage and added a test with a fake server returning 3 pages
P The fake server sees requests for pages 1, 2 and 3 and the CLI prints all 71 issues
R The test passes; before the change the fake server never received page=3 and the CLI printed 60 issues
W Counting the requests the fake server received
T When paging by last-page number, the last page is inclusive

@ F dbg dc ms
G Find the 20 rows missing from the 10,000-row customer CSV export
H Customers soft-deleted during the export are excluded from later batches
A Compared exported ids with the ids in the database snapshot taken at export start
P Missing ids belong to customers with deleted_at set
E The export query drops customers without a country code || Checked the country filter against the missing ids || The missing customers lack a country code
R None of the missing customers were deleted. The missing ids were evenly spaced: every 500th row
S Exactly one customer per batch of 500 was missing
C The exporter builds batches with rows.slice(i, i + batchSize - 1); slice's end is exclusive, so the last row of each batch is dropped
W Looking at the spacing of the missing ids, which pointed at the batch size
T Evenly spaced missing rows point at batch boundaries

@ F dbg se wa
G Fix the storefront search showing only 4 pages for 'linen' although the header says 112 results
H Elasticsearch's min_score setting drops low-relevance hits after the count is computed
A Removed min_score from the query and compared hit counts
P The number of reachable results changes when min_score is removed
N Page size is 25, and 4 x 25 = 100 is exactly the number of results reachable in the UI.
R Same 112 hits with or without min_score; items 101-112 were returned by the API when requested directly with page=5
S The API had the items; the UI never offered page 5
C The pager computes the page count as Math.floor(112 / 25) = 4 instead of Math.ceil, so the last partial page is never linked
W Requesting the missing page directly to decide whether the API or the UI was at fault
T Page counts round up; floor silently drops the last partial page

@ F dbg ca ov
G Fix the duplicated boundary record when clients page through /events with a cursor in the FastAPI service
H Clients retry timed-out page requests and re-append the same page
A Checked client logs for retries and the gateway logs for repeated cursor values
P Duplicates coincide with retried requests
R No retries happened; every page's first event equalled the previous page's last one
S The duplication occurred on every page, even in a single clean loop run from a script
C The keyset query uses Event.id >= cursor, and the cursor is the id of the last event already returned, so each page starts with it again
W Writing the keyset predicate as id > cursor and testing pages against a full scan
T A cursor that names the last item seen needs a strict comparison

@ C tst ca
G Stop the admin user list from showing an empty final page when the user count is an exact multiple of 50
H has_more is computed as len(rows) == limit, so when exactly 50 rows remain the API promises another page that turns out empty
A Changed the query to fetch limit + 1 rows and set has_more from whether the extra row exists
P With 100 users the UI shows exactly two pages, and with 101 three
R Tests with 0, 50, 100 and 101 users pass; before the change 100 users produced a third, empty page
W Testing the boundary counts 0, n, 2n and 2n + 1
T Fetch one extra row to know whether another page exists

@ F dbg rf wa
G Fix the transaction history in the banking portal showing 21 rows per page with one repeated
H The Oracle query's ORDER BY posting_date is non-deterministic for same-day rows
A Added transaction_id to the ORDER BY and reloaded pages 1-3
P Rows stop moving between pages
R Order was stable but each page still had 21 rows and shared one row with the next
S Every page was exactly one row too long
C The query filters row_number() BETWEEN :start AND :start + :size; BETWEEN includes both bounds, so each page has size + 1 rows and overlaps the next
W Rewriting the bounds as rn > :start AND rn <= :start + :size with a test on page sizes
T BETWEEN is inclusive at both ends, which is the wrong shape for pages

@ F int se ms
G Find why the Ruby sync job has the partner's first 50 records twice and never the last 50
H The partner API returns inconsistent pages while records are being updated on their side
A Ran the sync twice against the partner's sandbox, which has no concurrent writes
P The sandbox run shows no duplicates
E The sync deduplicates by email and collapses records that share one || Checked the emails of the duplicated records || The duplicated records share emails
E The partner's API sorts pages differently between requests unless a sort parameter is given || Requested the same page twice with an explicit sort parameter || The second request returns a different order
R The sandbox run had the same duplicates and the same gap
S The duplication reproduced with a static data set
C The partner's pages are 1-based and clamp page=0 to page 1; the job iterates (0...total_pages), so it fetches page 1 twice and never requests the last page
W Reading the partner's API docs on page numbering and iterating 1..total_pages
T Check whether an API's pages start at 0 or 1; some clamp invalid pages instead of failing

@ F dbg te ms
G Fix the orders table footer showing 'Showing 21-41 of 87' on the second page
H The API returns 21 orders for page 2 because its LIMIT is off by one
A Inspected the page 2 response in the network tab
P The response holds 21 orders
R The response held exactly 20 orders; the table rendered 20 rows
S The data was right and only the label was wrong
C The footer computes to = from + pageSize with from already 1-based, so the upper bound is one too high
W Checking the raw response before touching the backend
T Human-facing ranges are inclusive: last = first + count - 1

@ F dbg rca wa
G Fix the Rust listings API panicking with 'attempt to subtract with overflow' on some requests
H The query-string parser fails when per_page is missing and leaves a zero that is later subtracted from
A Sent requests with and without per_page to a debug build
P Requests without per_page panic
R Requests without per_page worked; the panic happened for page=0
S Clients were sending page=0 as a perfectly normal first page
C The handler computes (page - 1) * per_page on a u32, assuming 1-based pages, while the new Android client sends 0-based pages
W Validating page >= 1 in the extractor and returning 400 with a clear message
T Pagination arithmetic on unsigned integers turns a base mismatch into a crash

@ C dbg re
G Stop the notification consumer from re-sending one email after every restart
H The consumer commits record.offset() instead of record.offset() + 1, so Kafka redelivers the last processed message when the consumer group restarts
A Changed the manual commit to offset + 1 and restarted the consumer three times
P No duplicate emails after the three restarts
E The email worker retries sends that timed out but actually succeeded || Logged SMTP message ids for the duplicates || Different message ids per duplicate pair
R Three restarts, zero duplicates; the previous log showed each restart resuming at the offset that had just been processed
W Reading the committed offset versus the last processed offset in the logs
T A Kafka committed offset is the next message to read, not the last one read

@ F dbg se wa
G Find why the daily order export files contain some orders twice
H The 26 October DST change produced a 25-hour day, which overlapped two export windows
A Listed the duplicated orders and their timestamps
P Duplicates cluster around the DST change
E The export job runs twice on some days || Checked the scheduler's run history for October || Two runs on the days with duplicates
E The payment webhook retry writes some orders twice || Checked the orders table for duplicate rows || Duplicate order rows in the database
N Finance noticed because the daily files for October summed to 0.4 % more than the monthly total.
R Duplicates occurred on every day of October, not only around the DST change
S Every duplicated order had a timestamp of exactly 00:00:00.000
C Each export selects created_at BETWEEN day_start AND next_day_start, and the inclusive upper bound puts midnight orders into two files
W Using created_at >= day_start AND created_at < next_day_start for all window queries
T Time windows are half-open; inclusive upper bounds double-count the boundary

@ F dbg ca ms
G Fix the first item of every page duplicating the previous page's last item in the GraphQL products connection
H Apollo's relayStylePagination merge function appends without deduplication
A Disabled the custom merge and inspected the raw network responses
P Raw responses contain no duplicates
R Raw responses did contain the duplicates: each page's first edge had the cursor passed as after
S The server echoed the after cursor back as its first edge
C The resolver decodes after into an array index and slices from that index instead of index + 1
W Inspecting the raw responses before blaming the client cache
T 'after' means strictly after; the cursor's own item belongs to the previous page

@ C dbg cs
G Fix the new audit-log endpoint returning 49 entries per page instead of 50
H The pagination code copied from the orders endpoint uses LIMIT page_size - 1 because orders reserves one slot for a pinned order
A Removed the minus one in the copied query and added a shared paginate() helper with a test
P Every full page of the audit log has 50 entries
R Pages now hold 50 entries; the orders endpoint keeps its pinned-slot variant with a comment explaining it
W Rereading the copied code for endpoint-specific adjustments
T Copied pagination code brings along its special cases

@ F tst se wa
G Fix test_paginate_last_page, which expects 5 items on the last page of 105 and gets 4
H The factory silently drops one item because of a unique constraint collision on generated slugs
A Asserted the item count right after the factory call
P The fixture contains 104 items
N Pages 1-10 have 10 items each; page 11 should have 5.
R The fixture had 105 items; the paginator returned 4 on page 11
S Only the last page was short; all earlier pages had 10 items
C For the last page the paginator sets end = total - 1 and slices items[start:end], which drops the final item
W Asserting the fixture size first, then testing only the paginator
T Verify the fixture before suspecting the code; then suspect the bounds

@ F dbg dc ms
G Find why the S3 key migration skipped a few thousand of 1.2 million rows
H Rows locked by concurrent updates were skipped by our SELECT ... FOR UPDATE SKIP LOCKED
A Ran the migration against a snapshot without concurrent writers
P The snapshot run skips nothing
E The S3 copy calls fail silently for keys containing spaces || Grepped the migration log for S3 errors || Errors logged for the skipped keys
R The snapshot run skipped 1,201 rows as well
S The skipped ids were exactly one past the end of each batch of 1,000
C The batch loop sets last_id = rows[-1].id + 1 and then queries WHERE id > last_id, so the id immediately after each batch is skipped
W Rerunning without concurrent writers to separate timing from arithmetic
T Keyset loops should store the last id seen and compare strictly, never add one

@ A dbg au
G Fix a duplicated item appearing roughly every 30 items in the Android app's infinite scroll
H The client computes the next offset as items.size - 1 after removing the loading placeholder row, so it re-requests one item
A Asked the Android developer for the PagingSource implementation
P The offset computation subtracts one when the placeholder is present
R Abandoned: the Android team had already migrated to Paging 3 with keyset cursors for the next release, and I could not reproduce it on that build

@ F dbg ca ov
G Fix the Go reports API panicking on the last page with 'slice bounds out of range [:60] with capacity 53'
H A concurrent delete shrinks the slice between counting and slicing
A Held a read lock across count and slice and reran the request
P The panic disappears with the lock held
N 53 rows with page size 20: pages 1 and 2 work, page 3 panics.
R Still panicked on the last page with no concurrent deletes
S The panic happened for every data set whose size was not a multiple of the page size
C The handler slices items[offset:offset+limit] without clamping the end to len(items)
W Clamping end to min(offset+limit, len(items)) and testing with 53 items
T The last page is usually partial; clamp the upper bound

@ C int rf
G Fix the nightly sync failing with 404 whenever the vendor has an exact multiple of 100 records
H The job computes pages = total // 100 + 1, which asks for an extra page when total is divisible by 100, and the vendor answers 404 for pages past the end
A Replaced it with ceil division and added a test with 4,000 records
P The 4,000-record test makes 40 requests and no 404
R 40 requests, no 404; the failing night had exactly 4,000 records and the job asked for page 41
W Matching the failing nights with the vendor's record count
T Ceil division is (n + size - 1) // size; adding one to floor is wrong for exact multiples

@ F int rf mk
G Find why the Graph API user sync only imports half of the directory
H Users without a mail attribute are filtered out by our mapping
A Counted directory users with and without mail
P The missing users lack a mail attribute
E Guest accounts are excluded by the default user filter || Added a $filter that includes guests || The missing users appear
R Missing users had mail set; the sync imported 100 users per request but advanced $skip by 200
S The response sizes were 100 while the code assumed each page had $top = 200
C The API caps page size at 100 regardless of $top, and our loop increments the offset by the requested page size instead of the number of items returned
W Reading the API's paging docs and following @odata.nextLink instead of computing offsets
T Advance by items received or follow the next link; never by the page size requested

@ C dbg se
G Fix the Node orders API skipping one order between consecutive pages
H The Knex query uses .offset((page - 1) * size + 1), so one row between pages is never returned
A Removed the + 1 and compared a full page walk against SELECT id FROM orders
P The page walk returns every order exactly once
R Walk over 2,341 orders returned each exactly once; before, 46 were missing, one per page boundary
W Comparing a full page walk with a plain SELECT
T Offset for page n (1-based) is (n - 1) * size, nothing added

@ F tst ca ms
G Fix the Jest test for the Pager component where 'Next' is disabled on page 4 of 5
H The mocked API returns totalCount 80 instead of 100
A Logged the props the Pager receives in the test
P totalCount is 80 in the props
R totalCount was 100 and totalPages 5; the component still disabled Next on page 4
S The math was right on the parent side; the component disabled its button one page early
C hasNext is computed as page < totalPages - 1, which is correct for 0-based pages, while this Pager receives 1-based pages
W Logging the actual props before changing the mock
T Each component needs to document whether its page numbers are 0- or 1-based

@ C perf rca
G Find why the hourly clickstream aggregates never include events from 23:00-24:00
H The Spark job iterates partitions with range(0, 23), which excludes hour 23
A Changed it to range(24) and reran yesterday's aggregation
P Yesterday's aggregate contains 24 hourly rows and the day total matches the raw count
R 24 rows and totals matched the raw count to the event; before the change daily totals were about 4 % short
W Comparing daily totals with raw counts before looking at the code
T range() excludes its end, which matters for every bounded loop

@ A int se
G Stop the storefront import job from importing the first page twice when it resumes
H The job saves the cursor of the page it is processing rather than the next cursor, so after a restart it repeats the last page
A Added logging of the saved cursor and waited for the next scheduled restart
P The resumed run requests the cursor that was already processed
R Abandoned: the vendor deprecated the cursor endpoint; we are switching the import to their bulk export API next week
"""
THEMES["mock-wrong-target"] = r"""
@ F tst re wa
G Stop test_place_order from sending a real confirmation email through the SMTP sandbox
H settings_test.py leaves Django's default SMTP email backend active, so any message sent during tests goes out for real instead of into mail.outbox
A Switched settings_test.py to the locmem email backend and reran the order tests
P No mail arrives in the sandbox and mail.outbox has one message
E The test runs with the staging settings module because DJANGO_SETTINGS_MODULE is exported in my shell || Unset DJANGO_SETTINGS_MODULE and ran with --ds=settings_test || No mail reaches the sandbox
R Mail still arrived in the sandbox; our send_email helper talks to the provider's HTTP API, not Django's mail backends
S The test patched app.utils.send_email, yet the real helper ran
C orders/service.py does 'from app.utils import send_email', binding the name in its own namespace at import; patching app.utils.send_email replaces the definition, not the name orders.service looks up
W Patching 'orders.service.send_email', where the name is looked up
T Patch the name where it is used, not where it is defined

@ F tst ca wa
G Keep test_fetch_forecast from calling the real weather API
H The forecast client makes its HTTP call from a background thread that starts before the patch is applied
A Moved the patch into a fixture that runs before the client is created
P The mocked requests.get records one call and no network request happens
N pytest-socket would have caught this immediately; it is not enabled in this repository yet.
R The network request still happened and requests.get recorded zero calls
S The patched function was never called at all, so the code was not going through requests.get
C The client creates a requests.Session() at construction and calls session.get(); patching requests.get does not affect a Session's bound method
W Patching 'forecast.client.requests.Session' and asserting on the session mock
T Find the exact call path before choosing the patch target

@ C tst rca
G Stop unrelated tests failing with 'ReadTimeout after 1s' after test_retry_backoff runs
H test_retry_backoff starts mock.patch.object(Config, 'TIMEOUT', 1) with patcher.start() in setUp and never stops it, so the patched timeout outlives the test
A Registered self.addCleanup(patcher.stop) immediately after start()
P Running test_retry_backoff before the rest of the suite no longer produces one-second timeouts elsewhere
R Suite passes in both orders; before the fix, 14 tests failed after it with ReadTimeout
W Grepping for patcher.start() calls without a matching stop
T Every patcher.start() needs addCleanup(patcher.stop) on the very next line

@ F tst se ms
G Make the jest.mock for the HTTP layer apply in OrderSummary.test.tsx
H The mock factory references a variable from outside its scope, so babel-jest's hoisting leaves it undefined
A Renamed the variable with the mock prefix so babel-plugin-jest-hoist allows it
P The component renders the mocked orders
N The same mock works in Cart.test.tsx, which imports from '../services'.
R The hoisting warning went away but the component still made real fetches to /api/orders
S The mock was registered fine; the component simply never imported the mocked module
C The test mocks '../services', a barrel index.ts that re-exports http.ts, while OrderSummary imports directly from '../services/http'; jest.mock replaces a module by its resolved path, so the barrel mock does not touch the file the component loads
W Mocking '../services/http' and adding a lint rule to import services only through the barrel
T jest.mock works on module paths; mock the file the code under test actually imports

@ F tst ca wa
G Explain why charge_customer passed its tests but fails in production with "TypeError: charge() got an unexpected keyword argument 'amount_cents'"
H Production runs an older payments SDK where charge() still takes amount instead of amount_cents
A Compared the payments SDK version in the production image with the lockfile
P Production has an older SDK version
N The production error rate of charge_customer has been 100 % since the 3 October deploy.
R Both had 4.2.0, whose charge() signature is charge(amount, currency); our code was the one using the wrong name
S The tests had been calling charge(amount_cents=...) for weeks without complaint
C The tests patch PaymentsClient with a plain MagicMock, which accepts any arguments; without autospec nothing checks calls against the real signature
W Using mock.patch(..., autospec=True) for every patched client in the payments tests
T Mocks without autospec accept calls the real object would reject

@ F tst re mk
G Make test_token_expires_after_ttl deterministic in the session store tests
H The TTL check uses time.monotonic(), so patching time.time has no effect
A Checked which clock function sessions/store.py calls
P The store calls time.monotonic()
R The store called time() as well, and the patch on time.time was in place; expires still used the real clock
S Patching time.time affected calls in the test file but not inside the store module
C store.py does 'from time import time' at import, so it holds a reference to the original function; patching 'time.time' afterwards does not change the store's name
W Patching 'sessions.store.time' and, later, injecting a clock callable into the store
T from-imports copy the reference; patch the importing module's attribute

@ C tst ca
G Make PaymentControllerTest stop calling the real payment provider
H The test declares @Mock PaymentClient, but in a @SpringBootTest the controller gets the real PaymentClient bean from the context, not the Mockito mock
A Replaced @Mock with @MockBean so the context's bean is swapped for the mock
P The controller uses the mock and no outbound request reaches the provider sandbox
R With @MockBean the sandbox saw no requests and the verify() call passed; with @Mock the sandbox logged one charge per test run
W Checking the provider sandbox's request log as ground truth
T @Mock does not touch the Spring context; @MockBean does

@ F tst se ti
G Fix test_metrics_emitted in test_api.py, which fails only when the whole suite runs
H CI's statsd UDP port is taken by a leftover agent, so the metric never reaches the test listener
A Checked the port on the CI runner and ran the test with a random port
P With a free port the metric arrives
R The metric still never arrived; logging showed app.metrics.statsd was a MagicMock when the test ran
S A mock appeared in a test that does not mock anything
C test_worker.py calls mock.patch('app.metrics.statsd').start() at module level during collection and never stops it, so the mock stays active for every test collected after it
W Moving the patch into a fixture with yield and searching the test tree for module-level patch starts
T A patch started at import time is a global; it leaks into everything collected after it

@ F tst ca wa
G Make TestScheduleNextRun in the Go job runner stop depending on the real clock
H The test replaces the package-level var now = time.Now, and parallel subtests race on restoring it
A Removed t.Parallel() from the subtests
P The subtests pass consistently without parallelism
E The test's fixed time is in UTC while the scheduler works in local time || Set the fixed time in the scheduler's location || The computed next run matches the expectation
R Still failed; the computed next run was based on the real date even in a single sequential test
S The seam was swapped correctly, and some code simply did not use it
C nextWindow() in window.go calls time.Now() directly instead of the package's now variable, so replacing the variable has no effect on it
W Passing a clock interface into the scheduler and deleting the package variable
T A seam only works if every caller uses it

@ F tst rf mk
G Make jest.mock('../db') apply in the ESM test suite of the Node API
H transformIgnorePatterns excludes the db module from babel-jest, so the mock is never hoisted
A Read the Jest ESM docs and adjusted transformIgnorePatterns
P The db module is transformed and the mock applies
R No transform is involved: the project runs native ESM with --experimental-vm-modules. The real db module was still loaded
S Changing the transform config had no effect at all, because no transform was running
C With native ESM, jest.mock is not hoisted above static imports, so the test file had already bound the real module; ESM needs jest.unstable_mockModule followed by a dynamic import
W Using jest.unstable_mockModule('../db', ...) and await import('../handlers') after it
T In native ESM, mock first, then dynamically import the code under test

@ F tst se wa
G Stop test_refund from calling Stripe's test API despite patch('payments.service.StripeClient')
H The VCR cassette for the refund test is missing, so vcrpy lets the request through
A Recorded a fresh cassette for the refund test
P With the cassette present no live request happens
R The cassette recorded a real request, and the StripeClient mock had zero calls
S The patched class was never instantiated during the test
C payments/service.py creates client = StripeClient() at module import; the test patches the class afterwards, but the code uses the instance that already exists
W Patching 'payments.service.client' (the instance) and planning to inject the client instead
T Patching a class does not affect instances created before the patch

@ C tst re
G Find why assert_called_once fails on mock_email although the email is clearly sent in test_signup
H With stacked @patch decorators the mocks are passed bottom-up, so the parameter named mock_email actually holds the audit-log mock
A Swapped the parameter order to match the decorators from the bottom
P mock_email.assert_called_once() passes and mock_audit sees the audit call
E The email is sent from an on_commit hook that never runs inside the test transaction || Wrapped the call in captureOnCommitCallbacks(execute=True) || mock_email records the call
R Both assertions pass after reordering; printing mock_email._mock_name before had shown 'log_event'
W Printing the mock's name to see which patch it came from
T Stacked patch decorators inject arguments bottom-up

@ F dbg ca ms
G Fix auth.test.ts, whose token-refresh tests fail only after the 'expires at' test runs
H The test config sets TOKEN_TTL_SECONDS=0, so tokens expire immediately in some tests
A Printed the TTL and the current time inside the failing test
P TTL is 0 in the failing test
N All failing tests report 'token expired' with an exp one hour after 2025-01-01T00:00:00Z.
R TTL was 900 s, and Date.now() returned the same frozen value, 2025-01-01T00:00:00Z, in every test after the 'expires at' test
S Time stood still in tests that never asked for a fake clock
C The 'expires at' test calls jest.spyOn(Date, 'now').mockReturnValue(...) and never restores it, and the project config has restoreMocks: false
W Setting restoreMocks: true in jest.config.ts and restoring the spy explicitly in that test
T A spy on a global outlives its test unless something restores it

@ F tst dc wa
G Make NotificationServiceTest verify the SMS sent on order shipment
H Mockito cannot mock the final SmsSender class without mockito-inline, so the real class runs
A Enabled mockito-inline and reran
P verify(sender).send(...) passes
R verify still reported zero interactions, and the real SMS gateway received nothing either
S Neither the mock nor the real SMS sender was called
C @MockBean NotificationSender replaced the primary emailSender bean, while the service injects @Qualifier("smsSender"), a different bean, so the mock was never wired where the code looks
W Mocking the qualified bean with @MockBean(name = "smsSender")
T A mock must replace the exact bean the code injects

@ C tst rca
G Stop the geocoding view tests from hitting the real maps API
H The tests patch app.clients.geocode, but views.py imports geocode from app.clients.google, so the view keeps the unpatched function
A Changed the patch target to 'app.views.geocode'
P The view tests make no outbound HTTP calls and the mock records each lookup
R No outbound calls (checked with pytest-socket) and the mock recorded 6 lookups across the tests
W Blocking sockets in tests to make leaks visible
T Use pytest-socket or similar so a wrong patch target fails loudly

@ F tst se ov
G Make the mockall expectations apply in the Rust CLI's integration tests in tests/
H The tokio test runtime starts the client before the mock expectations are set
A Moved expectation setup before the runtime starts
P The mock sees one call to fetch_release
E The expectation uses a different argument than the CLI passes || Relaxed the expectation to any argument with withf(|_| true) || The mock records a call
R Still no calls on the mock; the test made a real HTTPS request
S The same mock worked in the unit tests inside src/
C The library swaps in the mock with #[cfg(test)], but integration tests link the library compiled without cfg(test), so the real HttpClient is used
W Adding a 'mocks' feature enabled in dev-dependencies and using it instead of cfg(test)
T cfg(test) applies only to the crate being tested, not to a library used by integration tests

@ A tst ca
G Make test_apply_coupon verify that Cart.recalculate is called
H The test patches recalculate on the cart fixture instance, but apply_coupon builds a fresh Cart from the session, so the patched instance is never used
A Started tracing where apply_coupon obtains its Cart
P apply_coupon calls Cart.from_session and ignores the fixture's cart
R Abandoned: apply_coupon was deleted in the pricing refactor merged the same afternoon, together with this test

@ A tst au
G Get the moto-based S3 tests in the archiver working
H The @mock_aws decorator does not intercept because archiver.storage creates its boto3 client at import time, before the decorator activates
A Asked the team whether to restructure the client creation or move to localstack for these tests
P Either approach makes the tests stop reaching AWS
R Abandoned: the team chose localstack in CI for all storage tests, so the moto tests are being removed rather than fixed

@ F dbg re mk
G Fix "Cannot read properties of undefined (reading 'get')" in every test that uses jest.mock('axios')
H The axios 1.x upgrade changed the default export, so the manual mock no longer matches
A Checked the axios version and the shape of its default export
P The default export differs from what the mock provides
N Every failing test file imports something that imports src/http.ts.
R The default export was unchanged; the undefined value was the instance returned by axios.create()
S The mock was in place, and it was the mock itself returning undefined
C The code uses an instance created with axios.create() at module load; jest's automock returns undefined from create(), so the module-level instance is undefined
W Mocking our http.ts module (which exports the instance) instead of axios itself
T Mock your own wrapper around a library rather than the library's factory

@ C tst ca
G Find why test_list_invoices still passes after fetch_all was renamed to list_all in the repository class
H The test's repository mock is a plain MagicMock, so calls to the old method name succeed and return another mock
A Replaced the mock with create_autospec(InvoiceRepository, instance=True)
P The test now fails with AttributeError: Mock object has no attribute 'fetch_all' until the test is updated
R It failed with exactly that AttributeError; after updating the test it passes against the real method name
W Deliberately checking that the test can fail
T An unspecced mock lets a test pass for code that no longer exists

@ F tst te ws
G Make the patched get_current_user apply in the FastAPI route tests
H The test token is signed with the wrong secret, so authentication fails before the patched function matters
A Signed the test token with the test settings' secret
P Authentication succeeds and the route sees the fake user
N The same patch worked before the route moved from a direct function call to Depends().
R Still 401; the real get_current_user ran and rejected the token
S The patch was active, checked with a print from the patched function's module, yet the route ignored it
C FastAPI captures the dependency function object in the route's dependant when the route is declared; patching the module attribute later does not change it, and dependency_overrides is the supported hook
W Using app.dependency_overrides[get_current_user] = lambda: fake_user in a fixture
T Framework-captured references cannot be patched by name; use the framework's override mechanism

@ F tst ca ms
G Fix 'TypeError: catching classes that do not inherit from BaseException is not allowed' in test_uploader.py
H botocore and boto3 versions are mismatched in the test environment, so ClientError is not the expected class
A Ran pip freeze in the test environment and printed what the except clause's class actually resolves to
P Mismatched versions and an unexpected ClientError type
E The uploader catches an exception class that was renamed in our own code || Grepped for the class name in the uploader || The name no longer exists
R Versions matched; ClientError was a MagicMock attribute
S Importing botocore gave a mock module
C test_archiver.py assigns sys.modules['boto3'] = MagicMock() (and botocore) at the top to avoid an import and never restores it, so every later test gets mocked modules
W Replacing the sys.modules hack with mock.patch.dict(sys.modules, ...) inside a fixture
T Writing to sys.modules without restoring it mocks a library for the rest of the session

@ A tst se
G Make the gomock expectations in the Go order service tests actually fail when a call is missing
H The old github.com/golang/mock version requires ctrl.Finish(), which our tests never call, so missing calls are never reported
A Removed one expected call from the code and started checking which tests still pass
P The test still passes with the call removed
R Abandoned: while checking, the module was migrated to go.uber.org/mock, whose NewController registers Finish via t.Cleanup automatically, so the question no longer applies

@ C dbg rf
G Make the test for the order-created handler assert the published event
H handlers.py aliases publish = EventBus.publish at import time, so patching EventBus.publish does not affect the alias the handler calls
A Patched 'handlers.publish' instead of the class method
P The mock records one call with event type 'order.created'
R The mock recorded exactly that call; the previous patch target had recorded nothing while the real bus logged the event
W Reading the import section of the module under test before writing the patch
T Module-level aliases are names of their own and must be patched by their own path

@ F tst se wa
G Make OrderExpiryServiceTest use the fixed clock instead of the system clock
H Clock is a final class, so Mockito needs mockito-inline to mock it
A Switched to Clock.fixed(...) passed as a @Mock-free field and kept @InjectMocks
P The service uses the fixed instant
N The test only fails after 23:00 UTC, when the system date differs from the fixed date.
R The service still used Clock.systemUTC()
S @InjectMocks injected the other mocks but left the clock untouched
C The service declares private final Clock clock = Clock.systemUTC(); field injection cannot replace an initialised final field, so @InjectMocks silently skips it
W Adding a constructor taking a Clock and building the service by hand in the test
T @InjectMocks skips what it cannot inject without telling you; prefer constructor injection
"""
THEMES["n-plus-one-queries"] = r"""
@ F perf se wa
G Bring the GET /api/orders list endpoint of the Django shop from 4 s down to under 300 ms
H Serializing the Decimal price fields through DRF's DecimalField is slow for 500 orders
A Profiled the view with cProfile and compared time spent in to_representation versus database calls
P Most of the time is in DecimalField.to_representation
N 4.1 s with 500 orders, 0.3 s with 20; time grows linearly with page size.
R Serialization of decimals took 40 ms; the request executed 501 SQL queries, 500 of them identical apart from the customer id
S The time was almost all in the database driver, in hundreds of tiny queries
C OrderSerializer includes customer_name = CharField(source='customer.name'), and each order lazily loads its customer in a separate query
W Adding select_related('customer') to the viewset queryset and a django_assert_max_num_queries test
T Any serializer field that follows a foreign key needs select_related in the queryset

@ F perf rca ms
G Speed up the Rails project dashboard, which takes 6 seconds for accounts with 300 projects
H Fragment caching is missing for the project cards, so Redis is hit with cache misses on every request
A Enabled cache logging and counted cache reads per request
P Hundreds of cache misses per dashboard request
E The dashboard's JSON is large and slow to render with jbuilder || Timed view rendering in the Rails log || Rendering dominates the request time
R 2 cache reads; the log showed 301 'SELECT COUNT(*) FROM tasks WHERE project_id = ?' queries
S Each project card ran its own COUNT query against tasks
C The view calls project.tasks.count for each project, which issues a COUNT query per project instead of using a preloaded or cached counter
W Adding a tasks_count counter_cache column, backfilling it, and reading it in the view
T Calling count on an association inside a loop is a query per row

@ C perf ca
G Cut the time to render the monthly invoice PDF batch in the billing worker
H Invoice.lines uses the default lazy='select' loading, so iterating invoices fires one query per invoice for its lines
A Added .options(selectinload(Invoice.lines)) to the batch query and counted statements with an event listener
P The statement count for 200 invoices drops from 201 to 2 and the batch time drops noticeably
E WeasyPrint font loading dominates each PDF render || Profiled a single invoice render || Most of the time in font loading
R Statements went from 201 to 2 and the batch took 9 s instead of 41 s
W Counting statements with a before_cursor_execute listener before and after
T Measure statement counts; lazy loading hides in plain attribute access

@ F perf dc ms
G Make the posts feed GraphQL query in the Node API respond in under 500 ms
H Apollo tracing shows long waits, so the TypeORM connection pool of 10 is exhausted under load
A Raised the pool size to 30 and reran the k6 load test
P p95 latency for the feed query drops sharply
N Apollo Studio traces show 50 sequential 3 ms spans under Post.author.
R p95 barely moved from 2.1 s to 1.9 s; with a single request the resolver still made 51 queries
S Even one request without any concurrency was slow and very chatty
C The Post.author field resolver calls userRepository.findOneBy({ id }) for every post, so a page of 50 posts runs 50 extra queries
W Batching author lookups with a per-request DataLoader
T Field resolvers that load by id need a DataLoader, or each list becomes N+1 queries

@ F perf te wa
G Speed up the Spring Boot order export that takes minutes for 1,000 orders
H The query on orders filters by created_at, which has no index
A Added an index on orders(created_at) and ran EXPLAIN
P The export query switches to an index scan and the export finishes in seconds
E The export writes the CSV row by row with a flush after each row || Wrapped the writer in a BufferedWriter || Export time drops noticeably
R The main query used the new index and ran in 12 ms, but the export still took 3 minutes; Hibernate statistics counted 1,001 statements
S The first query was fast and was followed by a thousand single-row selects on customers
C Order.customer is @ManyToOne with JPA's default FetchType.EAGER, and a JPQL query loads each eager association with a separate select per order
W Making the association LAZY and using JOIN FETCH in the export query
T JPA's @ManyToOne is eager by default, and eager does not mean joined

@ F perf se ms
G Fix the Django admin changelist for Subscription that takes 8 s to load
H The search_fields include a related email field and force a full table scan on every page
A Loaded the changelist without a search term
P Without searching the page is fast
N Page size is 100 rows; 104 queries = 100 + 4.
R Still 8 s without a search; the debug toolbar showed 104 queries, 100 of them on subscription_item
S The slowness had nothing to do with searching
C list_display includes a method item_count that returns obj.items.count(), one COUNT query per row on the page
W Annotating the queryset in get_queryset with Count('items') and reading the annotation
T Admin list_display methods run once per row; keep queries out of them

@ C perf rca
G Reduce the latency of the Go order history endpoint
H Each order's items are loaded in a loop with db.Where("order_id = ?", o.ID).Find(&items), one query per order, because GORM's Preload is not used
A Replaced the loop with db.Preload("Items").Find(&orders) and compared query logs
P The log shows two queries for any number of orders and p50 latency falls below 50 ms
R Two queries for 120 orders; p50 went from 310 ms to 38 ms
W Turning on GORM's logger at Info level to see every statement
T Read the ORM's query log before optimising anything else

@ F perf ca wa
G Speed up the project list API that returns a can_edit flag per project
H The permission class calls the external auth service once per request, which takes 600 ms
A Timed the auth service call in isolation and stubbed it
P With the stub the endpoint is fast
R With the stub the endpoint still took 1.4 s for 200 projects
S The slowness scaled with the number of projects, not with requests
C get_can_edit, a SerializerMethodField, queries Membership for each project to check the user's role
W Prefetching the user's memberships once and passing a role map through the serializer context
T SerializerMethodFields that query the database run once per object

@ F dbg rf ms
G Fix the Celery task exporting 50,000 users that hits its 10-minute time limit
H Uploading the CSV to S3 is slow because the file is written in one big put
A Switched to a multipart upload and timed the upload separately
P The upload step takes most of the time and the multipart version is much faster
E The CSV writer's quoting is slow for the long address fields || Switched to QUOTE_MINIMAL and timed a 5,000-row sample || The sample runs much faster
E The worker's prefetch keeps the export waiting behind other long tasks || Ran the export on a dedicated queue with prefetch 1 || The time limit is no longer hit
R The upload took 8 s; building the rows took over 9 minutes
S Time was spent long before any bytes went to S3
C Each row reads user.profile.company, a OneToOne and a ForeignKey loaded lazily, so the export ran about 100,000 queries
W select_related('profile__company') with .iterator(chunk_size=2000), which brought the task to 40 s
T Exports loop over many rows; every related field read in the loop is a query unless preloaded

@ F perf dc ws
G Bring the Spring Data REST /products endpoint under 200 ms for 100 products
H Jackson serialization of the large response dominates the time
A Measured serialization separately with a JMH benchmark on the same data
P Serialization takes most of the request time
R Serialization took 9 ms; the request issued 101 SQL statements
S The statements ran while Jackson was writing the response, not in the repository call
C Product.tags is a lazy @OneToMany, and Jackson touches it during serialization under open-in-view, loading tags with one query per product
W Adding @EntityGraph(attributePaths = "tags") to the repository method
T Lazy collections serialized by Jackson produce N+1 queries at render time

@ C perf ca
G Speed up the author leaderboard in the TypeScript blog API built on Prisma
H The handler awaits prisma.post.count({ where: { authorId } }) inside a loop over authors, one query per author
A Replaced the loop with prisma.post.groupBy({ by: ['authorId'], _count: true })
P One query for the whole leaderboard and a response under 100 ms
R Single query, 62 ms for 400 authors instead of 3.8 s
W Enabling Prisma's query logging to count statements
T An await inside a loop over rows is usually an N+1 query

@ F perf se wa
G Make the order-lines report in the FastAPI backend fast again after adding product categories
H selectinload with 5,000 ids creates a huge IN list that Postgres plans badly
A Checked the IN query's execution time in the Postgres log
P The IN query takes seconds
N The report got slow on 14 October, the day Product.category was introduced.
R The IN query took 30 ms. After it came 5,000 single-row selects on categories
S The eager loading worked for the first level and then the old problem reappeared one level deeper
C The query uses selectinload(Order.lines).selectinload(Line.product), but the report reads line.product.category, which is still lazy, so each product loads its category separately
W Adding .selectinload(Product.category) to the chain and setting lazy='raise' on relationships in the report's session
T Eager loading must cover every level the code walks; lazy='raise' finds the gaps

@ F perf te ms
G Speed up the Rails blog index, which shows approved comment counts per post
H The comments.approved column needs an index
A Added an index on comments(post_id, approved)
P The per-post comment queries get faster
R Each query got slightly faster, but there were still 50 of them per page
S includes(:comments) was already in the controller, so the comments should not have been queried again
C The view calls post.comments.where(approved: true).size, which builds a new relation and queries the database instead of filtering the preloaded comments
W Preloading a scoped association has_many :approved_comments and using it in the view
T A where on a preloaded association throws away the preload

@ A perf au
G Speed up the order status report page in the internal tools app
H The template tag {% latest_status order %} queries StatusEvent once per order, 800 times per page
A Asked the product owner whether the page is still used before optimising it
P The owner confirms and the fix is worth doing
R Abandoned: the product owner said the page is being replaced by a Metabase dashboard next month, so we left it

@ F perf rca wa
G Reduce the query count of the Django packing-slip view from 200 to a handful
H The prefetch is applied after the queryset is evaluated, so it never happens
A Moved prefetch_related('items') before any evaluation and checked the query log
P The items are fetched in one query
R The prefetch query ran, and then each order still issued its own items query
S Prefetching worked and was thrown away
C The template iterates order.items.order_by('position'), and order_by on a prefetched manager creates a new queryset that hits the database
W Using Prefetch('items', queryset=Item.objects.order_by('position')) and iterating .all()
T Any filter or order_by on a prefetched relation discards the prefetch cache

@ F perf ca wa
G Speed up the Go balance report that takes 40 s for 8,000 customers
H The sqlx pool is limited to two open connections, so queries wait for a connection
A Raised SetMaxOpenConns to 20 and reran the report
P The report finishes several times faster
N Duration scales linearly with customers: 4 s for 800, 40 s for 8,000.
R 38 s instead of 40; the report ran its queries sequentially anyway, 8,001 of them
S More connections did nothing because the loop never issued two queries at once
C After loading the customers, the report queries SUM(amount) from ledger_entries for each customer in a loop
W Replacing the loop with one GROUP BY customer_id query joined in memory
T Pool size is irrelevant for a sequential loop of queries; remove the loop

@ C perf re
G Reduce the number of queries on the Django article page with 300 comments
H The debug toolbar's 312 similar 'SELECT ... FROM auth_user WHERE id = %s' queries come from comment.author in the template
A Added select_related('author') to the comment queryset in the view
P The page runs around a dozen queries and the duplicated auth_user queries are gone
R 11 queries after the change; the toolbar no longer flags duplicates
W Reading the toolbar's 'similar queries' grouping, which named the table directly
T Duplicated single-row queries in the toolbar mean a missing select_related

@ F perf se ms
G Make the Kotlin feed endpoint of the photo app respond within 300 ms
H Presigning S3 URLs for each image is CPU-heavy and dominates the request
A Profiled the endpoint with async-profiler
P Most CPU time is in the AWS SDK signer
E Thumbnails are resized on the fly for every request || Checked the trace for calls to the resize service || Resize calls appear in the trace
R Signing took 4 % of the time; 90 % was waiting on JDBC
S The endpoint was mostly idle, waiting for the database, and not computing at all
C For every post in the page the mapper calls Likes.select { Likes.postId eq id }.count(), an Exposed query per post
W Loading like counts for the page in one grouped query and passing them into the mapper
T Wall-clock profiles show database waits that CPU profiles hide

@ F tst ca ov
G Add a regression test capping the checkout API at 10 queries
H The extra queries in the assertion failure come from session and authentication middleware
A Ran the same request without authentication through a public variant of the endpoint
P The query count drops to about 10
R Still 43 queries without authentication; 31 of them loaded shipping addresses
S The middleware accounted for only 2 queries
C The nested ShippingAddressSerializer reads cart.user.shipping_address for each cart item, loading the address separately each time
W Reading the captured query list from django_assert_num_queries instead of guessing
T Query-count tests print the queries; read them before forming a theory

@ F perf dc wa
G Speed up the Rust order sync service built on Diesel
H Checking out r2d2 connections per query is slow because the pool is too small
A Raised the pool's max_size and measured checkout wait times
P Checkout waits account for most of the latency
R Checkout waits were microseconds; the sync issued one items query per order, 2,000 per batch
S The pool was idle most of the time
C The loop calls items::table.filter(items::order_id.eq(order.id)).load() for each order instead of loading items for all orders at once
W Using Item::belonging_to(&orders).load() and grouped_by(&orders)
T Diesel's belonging_to and grouped_by exist to replace per-row queries

@ C perf cs
G Fix the N+1 query in CustomerRepository.findActiveWithAddresses in the Java CRM
H Addresses are lazily loaded per customer; the JOIN FETCH pattern used in OrderRepository would load them in the same query
A Copied the JOIN FETCH query with DISTINCT from OrderRepository and adapted it
P Hibernate statistics report one statement for the whole page
R Statistics showed 1 statement instead of 401; the page rendered in 140 ms
W Reusing a fetch pattern already proven in another repository
T When a sibling repository already solved N+1, copy its fetch strategy

@ C perf ca
G Reduce memory and time of the Rails job that emails all active users
H User.where(active: true).each instantiates all 2 million records at once before the loop starts, and the job only needs ids and emails
A Switched to find_each(batch_size: 5000) for the loop and pluck(:id, :email) where only two columns are needed
P Memory stays below 500 MB and the job completes in under 20 minutes
R Peak memory 310 MB (was 9 GB) and 14 minutes instead of being OOM-killed at 40
W Checking memory growth in the first minute of the job
T Iterating a whole table through the ORM needs batches or plucks

@ A perf se
G Speed up the SQLAlchemy-based quarterly report
H Relationships declared with lazy='dynamic' issue a query on every access in the report loop
A Started counting statements per report section with an event listener
P Sections that use dynamic relationships show one query per row
R Abandoned: the data team replaced the report with a materialized view refreshed nightly, so the ORM code path is going away

@ C perf se
G Speed up the nightly order-confirmation email batch
H The email template loops over order.items and prints item.product.name, loading each product separately, so the batch runs tens of thousands of queries
A Added prefetch_related('items__product') to the batch queryset and counted queries for 1,000 orders
P Three queries per chunk of orders instead of one per item
R Query count for 1,000 orders went from 6,214 to 3; the batch runs in 2 minutes instead of 25
W Rendering the template in a shell with query counting on
T Templates hide queries; count them when rendering in bulk

@ F dbg ca wa
G Fix order list timeouts in the Java payment dashboard after the new summary mapper was merged
H The database host is saturated by another tenant on the shared RDS instance
A Checked Performance Insights for the instance during the timeouts
P High load from other databases on the instance
N Timeouts started right after PR 2231 (OrderSummaryMapper) was merged.
R The load was ours: thousands of 'select ... from payment where order_id=?' per minute
S One page view issued about 800 queries
C The new OrderSummaryMapper calls order.getPayments() for each order, lazily loading payments with one SELECT per order
W Adding a batch fetch size of 50 to Order.payments and a fetch join in the list query
T Mappers that walk associations need to be reviewed for lazy loads
"""
THEMES["dependency-drift"] = r"""
@ F dbg se env
G Fix "ImportError: cannot import name 'url_quote' from 'werkzeug.urls'" that broke every CI run of the Flask admin app this morning
H Yesterday's merge of the URL helpers refactor left a stale import of url_quote in admin/utils.py
A Grepped the repository for url_quote and reverted the refactor on a branch
P With the refactor reverted CI passes
N The last green build installed Werkzeug 2.3.7; the first red one 3.0.0.
R Our code never imports url_quote, and the reverted branch failed identically; the import was inside flask/helpers.py
S The failing import lived in Flask itself, not in our code, and nothing in our repository had changed
C Flask 2.2 was pinned but Werkzeug, its transitive dependency, was not; Werkzeug 3.0 was released overnight and removed url_quote
W Locking the full dependency tree with pip-compile and installing only from the lock in CI
T Pinning direct dependencies is not enough; transitive ones float too

@ F int rf ms
G Find why the production Docker build of the TypeScript API fails type checking while CI passes
H A colleague's commit merged after CI ran introduced type errors in the handlers
A Checked out the exact commit that the failing image was built from and ran tsc locally
P Local tsc on that commit reports the same errors
E The Docker build uses a different tsconfig than CI || Diffed the tsconfig files used by both builds || Different strict settings
R Local tsc passed on the same commit; inside the image, tsc --version printed 5.5.4 while the lockfile says 5.3.3
S The same commit type-checked differently depending on where it was installed
C The Dockerfile copies package.json but not package-lock.json before npm install, so the ^5.3.0 range resolves to the newest 5.x, whose stricter checks reject our code
W Copying the lockfile into the image and using npm ci
T A build that ignores the lockfile builds a different program

@ C dbg rca
G Fix "urllib3 v2.0 only supports OpenSSL 1.1.1+" on the Amazon Linux 2 build agents
H requests does not cap urllib3, and a fresh virtualenv resolved urllib3 2.x, which refuses the agents' OpenSSL 1.0.2
A Added urllib3<2 to the constraints file and rebuilt the environment on an agent
P The build imports requests without the error and pip freeze shows urllib3 1.26.x
R Build passed with urllib3 1.26.20; the failing build had urllib3 2.2.1 although nobody had changed requirements
W Comparing pip freeze between the last good and first bad build
T Diff the resolved environment of the last good build, not just the requirement files

@ F tst ca env
G Fix the lint stage of the Go payments service, which started failing on unchanged code
H Someone committed code that was not run through gofmt, and the lint stage catches it
A Ran gofmt -l on the main branch
P gofmt lists the badly formatted files
N Nothing in the repository changed between the last green run and the first red one.
R gofmt listed nothing; the failures came from linters named errorlint and perfsprint that we never configured
S Linters nobody had enabled were reporting errors
C The CI job installs golangci-lint with go install ...@latest, and a new release enabled additional linters and changed default behaviour
W Pinning golangci-lint to a fixed version in the CI image and updating it deliberately
T Tools installed with @latest are unpinned dependencies of the build

@ F dbg dc ms
G Fix NoSuchMethodError: 'com.fasterxml.jackson.databind.JsonNode.asOptional()' in the Spring reporting service after adding the PDF library
H The local ~/.m2 cache holds a corrupted jackson-databind jar
A Deleted the jackson artifacts from ~/.m2 and rebuilt
P The error disappears after a clean download
E The PDF library shades Jackson and the shaded classes clash with ours || Listed the classes in both jars with jar tf || Duplicate unshaded Jackson classes
R Same error after redownloading; mvn dependency:tree showed jackson-databind 2.12.7 instead of 2.15.2
S Adding an unrelated PDF library downgraded our JSON library
C The PDF library declares jackson-databind 2.12.7 closer to the root of the tree, and Maven's nearest-wins mediation chose it over the 2.15.2 that came through Spring Boot
W Importing the Jackson BOM in dependencyManagement so one version wins regardless of tree depth
T Maven resolves conflicts by distance in the tree; use a BOM or dependencyManagement for shared libraries

@ F dbg re wa
G Fix the analytics service crashing at startup with "PydanticUserError: `const` is removed, use `Literal` instead"
H The service image moved to Python 3.12, which our pydantic models do not support
A Built the image on Python 3.11 and started the service
P The 3.11 image starts cleanly
R The 3.11 image failed the same way; it had pydantic 2.7.1 installed
S The error was from a major version of pydantic we had never used
C requirements.txt says pydantic>=1.8 with no upper bound, and the image rebuild resolved pydantic 2.x, which removed const
W Pinning pydantic<2 until the migration and adding upper bounds for libraries with major versions pending
T An open upper bound is an agreement to accept the next major version

@ C int ca
G Fix the CI build of the Rust log-shipper binary failing with 'package time v0.3.36 cannot be built because it requires rustc 1.67.1'
H Cargo.lock is not committed for this binary crate, so CI resolves the newest compatible time version, which raised its minimum Rust version above our pinned toolchain
A Generated Cargo.lock with the last known good versions via cargo update -p time --precise 0.3.23 and committed it
P CI builds with the pinned 1.66 toolchain
R CI passed; the lockfile has been committed and a Renovate rule now proposes updates along with toolchain bumps
W Reading the error for the exact crate and version that moved
T Binary crates should commit Cargo.lock

@ F tst se ms
G Fix the Jest tests that fail on a fresh clone of the design-system repo but pass on existing checkouts
H Fresh clones get Node 20 from .nvmrc while existing checkouts still run Node 18
A Ran the suite on a fresh clone under Node 18
P The fresh clone passes under Node 18
N yarn.lock changed by 3,400 lines in the merge commit.
R Still failing under Node 18: 'await user.click' warnings and state assertions running before updates
S Only the installed packages differed between the two checkouts
C A yarn.lock merge conflict had been resolved by deleting and regenerating the lockfile, which floated @testing-library/user-event from 13 to 14, where interactions are async
W Restoring the previous lockfile, then upgrading user-event on purpose with the await changes
T Never resolve lockfile conflicts by regenerating the whole file

@ F dbg rca env
G Fix the image build of the ingestion worker failing with "ModuleNotFoundError: No module named 'distutils'"
H One of our dependencies dropped its setuptools requirement, so distutils is no longer provided
A Compared the resolved dependency lists of the last good and the failing build
P setuptools is missing from the failing build
N The last good build was 12 days ago, with no Dockerfile changes since.
R Both builds had the same Python packages; the failing one ran Python 3.12.3 instead of 3.11.9
S The Python version changed although nobody touched the Dockerfile
C The Dockerfile uses FROM python:3-slim; the floating tag moved to 3.12, which removed distutils
W Pinning the base image to python:3.11.9-slim-bookworm by digest
T A floating base-image tag is an unpinned dependency

@ F dbg ca wa
G Fix "ValueError: numpy.dtype size changed, may indicate binary incompatibility" when importing pandas in the forecasting job
H The CI wheel cache holds a partially downloaded pandas wheel
A Cleared the pip cache and rebuilt the environment
P Import succeeds after a clean install
R The clean environment failed the same way, with numpy 2.0.1 installed next to pandas 2.0.3
S A clean install reproduced the incompatibility deterministically
C numpy is an unpinned transitive dependency of pandas 2.0.3, whose wheels were compiled against numpy 1.x; the new environment resolved numpy 2.0
W Constraining numpy<2 together with the pandas pin, and planning a pandas upgrade
T Compiled extensions tie you to the ABI of their build-time dependencies

@ A int au
G Fix the Rails app failing to boot on the old CentOS 7 batch servers after bundle install
H bundle update pulled a newer nokogiri minor whose precompiled gem requires glibc 2.28, which CentOS 7 lacks
A Asked the ops team whether the batch servers could be upgraded or whether we should pin nokogiri's platform
P Ops confirms glibc 2.17 on those servers
R Abandoned: ops replied that the batch servers will be decommissioned in two weeks and jobs move to containers, so we pinned nothing and will test on the new image

@ F dbg se ms
G Fix "Error [ERR_REQUIRE_ESM]: require() of ES Module node-fetch" in the billing webhook worker
H The Node 22 upgrade changed how require() handles ESM packages
A Ran the worker under Node 20 again
P It starts without error under Node 20
E Our bundler config switched the worker's output format to ESM || Checked the module format of the worker's build output || The output is ESM
R Same error under Node 20; node_modules contained node-fetch 3.3.2
S Our package.json never listed node-fetch at all
C The vendor's SDK declares node-fetch: "*" and the lockfile had been regenerated, so npm resolved node-fetch 3, which is ESM-only
W Adding an overrides entry forcing node-fetch@2 for the SDK and reporting the wildcard upstream
T A wildcard range in a transitive dependency accepts any breaking release

@ C cfg rca
G Find why the production image's package versions differ from requirements.lock
H The Dockerfile runs pip install -e ., which resolves the loose ranges in setup.cfg and ignores requirements.lock entirely
A Changed the build to pip install -r requirements.lock followed by pip install --no-deps -e .
P pip freeze inside the image matches requirements.lock exactly
R Diffing pip freeze against the lock showed zero differences; before, 14 packages differed, including sqlalchemy 2.0.31 vs 2.0.25
W Diffing pip freeze from the image against the lock
T A lockfile only matters if the install command reads it

@ F tst te ms
G Fix "AttributeError: 'CallSpec2' object has no attribute 'funcargs'" during collection in the API tests
H Our conftest parametrizes a fixture incorrectly after yesterday's refactor
A Reverted the conftest changes from yesterday
P Collection succeeds on the reverted conftest
R Same error with the old conftest; the traceback ended in pytest_lazyfixture.py
S The failure came from a plugin we had not touched in a year
C pytest is unpinned in requirements-dev.txt; the new CI environment installed pytest 8, which removed CallSpec2.funcargs, and pytest-lazy-fixture has no release supporting it
W Pinning pytest<8 and replacing pytest-lazy-fixture with pytest-lazy-fixtures
T Dev tooling needs pins as much as runtime code

@ F dbg rf wa
G Fix ClusterAuthorizationException from the Kafka producer in the Java order service after a routine rebuild
H The platform team tightened the broker ACLs for our service account
A Asked for the ACL change log and read the Kafka client docs on authorization errors
P A recent ACL change removed a permission we use
N Our producer configuration sets nothing about idempotence.
R No ACL changes in months; the rebuilt service used kafka-clients 3.7.0 instead of 3.0.2
S A rebuild without code changes produced a different Kafka client
C build.gradle declares kafka-clients:3.+, and newer 3.x clients enable idempotence by default, which requires the IDEMPOTENT_WRITE permission our account lacks
W Pinning kafka-clients, setting enable.idempotence explicitly, and requesting the permission for the upgrade
T Dynamic versions like 3.+ turn rebuilds into upgrades

@ F sec se ov
G Clear the Dependabot alert for lodash prototype pollution in the storefront although package.json requires lodash 4.17.21
H The scanner reads a stale SBOM uploaded weeks ago
A Regenerated the SBOM and re-ran the scan
P The alert disappears with a fresh SBOM
R The fresh SBOM still listed lodash 4.17.15
S Two copies of lodash were installed, and the old one was nested
C package-lock.json pins lodash 4.17.15 under node_modules/legacy-formatter/node_modules, a nested copy that never got refreshed because the lockfile was never regenerated for that subtree
W Running npm ls lodash to find every copy, then npm update with an override for lodash
T Vulnerable versions hide in nested lockfile entries; check npm ls, not package.json

@ C dbg re
G Fix "ImportError: cannot import name 'soft_unicode' from 'markupsafe'" in the legacy docs builder
H Jinja2 2.11 depends on markupsafe without an upper bound, and markupsafe 2.1 removed soft_unicode
A Pinned markupsafe==2.0.1 in the docs requirements and rebuilt
P The docs build succeeds with markupsafe 2.0.1
R Build passed; pip freeze from the last good build also showed 2.0.1
W Reading the traceback to find which package imports the missing name
T Old packages without upper bounds break when their dependencies remove deprecated names

@ F perf ca env
G Find why the worker image build went from 4 to 24 minutes overnight
H The CI runners were moved to a smaller instance type
A Checked the runner specs and timed an unrelated build on them
P Other builds are slower too
N The pip log shows 'Building wheel for grpcio' taking 19 minutes.
R Other builds were unchanged; the slow step was 'Building wheel for grpcio (pyproject.toml)'
S pip compiled a package from source that it had always installed as a wheel
C grpcio is an unpinned transitive dependency of google-cloud-pubsub; a new grpcio release had no musllinux wheel yet, so pip built it from source
W Pinning grpcio to the last version with a musllinux wheel in the constraints file
T A new release without wheels for your platform turns into a source build

@ F dbg dc wa
G Find why signup rejects emails like jane+test@example.com since the last deploy
H My regex change in signup_form.ts for trimming whitespace broke the plus sign handling
A Reverted my change locally and tested the address
P The address is accepted with my change reverted
R Still rejected with the old code; the validator function comes from @acme/validators, which went from 2.3.1 to 2.4.0 in the deployed lockfile
S Our own code had nothing to do with the validation
C The lockfile was regenerated in an unrelated PR, and the ^2.3.0 range picked up @acme/validators 2.4.0, a minor release that made email validation stricter
W Diffing package-lock.json between the last two deploys
T Review lockfile diffs in pull requests; minor releases of internal packages break things too

@ C int rf
G Fix S3 uploads to the on-prem Ceph gateway failing with 'XAmzContentSHA256Mismatch' after rebuilding the archiver
H boto3 is unpinned and the rebuild picked up a release that sends default checksums, which our Ceph version rejects
A Read the boto3 changelog and set request_checksum_calculation='when_required' in the client config
P Uploads succeed with the setting, and pip freeze shows a newer boto3 than the last good image
N The Ceph RGW version is 16.2; the rejected header is x-amz-checksum-crc32.
R Uploads succeeded; the new image had boto3 1.36.2, the old one 1.34.0
W Reading the changelog of the library between the two versions
T Client libraries change defaults in minor releases; S3-compatible servers lag behind

@ F dbg se env
G Fix the build of our internal legacy-utils package failing with "error: invalid command 'test'"
H A tox configuration change replaced the pytest command with setup.py test
A Checked the history of tox.ini
P tox.ini was recently changed
R tox.ini had not changed in a year; the error came from the isolated build environment, which now had setuptools 72
S The package build broke without any change in our repository
C pyproject.toml declares requires = ["setuptools>=40"], so each isolated build installs the newest setuptools, and 72 removed the test command our setup.py still registers
W Removing the custom test command and capping setuptools in build-system requires
T Build-system requirements are dependencies too and float unless pinned

@ A dbg se
G Find the cause of intermittent IllegalReferenceCountException in the gateway's Netty pipeline
H A transitive netty-buffer version drifted apart from netty-handler after a dependency update, mixing two Netty minors
A Started comparing the resolved Netty module versions in the failing and working builds
P Different minors of Netty modules in the failing build
R Abandoned: Renovate bumped the whole Netty BOM the next day, the error has not reappeared, and I could not reproduce it with the old build

@ A dbg rca
G Fix "Duplicate identifier 'AbortSignal'" type errors in the Node CLI after a fresh install
H @types/node is pulled in twice, once by us and once through a dependency that declares "@types/node": "*", which resolves to a newer major
A Started listing the @types/node copies with npm ls @types/node
P Two different major versions appear
R Abandoned: the TypeScript 5.5 upgrade planned for next week replaces these typings anyway, and skipLibCheck is an accepted stopgap until then

@ F dbg ca wa
G Find why the Spring Boot inventory service stopped writing any logs after a rebuild
H The logback.xml file is no longer included in the built jar
A Listed the jar contents
P logback.xml is missing
E An environment variable in the new deployment sets the root log level to OFF || Checked LOGGING_LEVEL_ROOT in the pod || The variable is set
R logback.xml was present; the startup printed 'SLF4J: No SLF4J providers were found'
S The logging configuration was fine; the binding between API and implementation was missing
C build.gradle requests ch.qos.logback:logback-classic:latest.release, which resolved logback 1.4 using SLF4J 2's provider mechanism, while slf4j-api stayed pinned at 1.7
W Pinning logback and slf4j to a compatible pair via the Spring Boot BOM
T latest.release makes every build a potential upgrade

@ C int rca
G Fix the Go notification service build failing on CI with 'missing go.sum entry for module providing package golang.org/x/exp/slices'
H The merged branch added an import of golang.org/x/exp/slices and committed go.mod without the matching go.sum lines, and CI builds with -mod=readonly, which refuses to add them
A Ran go mod tidy on main, committed go.mod and go.sum, and added a CI step that fails when tidy would change either file
P CI builds again, and the tidy check passes on the next pull request
N Locally the build worked because my go command added the missing go.sum lines silently during go run.
R Build green; the new tidy check caught a stale go.sum in another pull request the following day
W Reproducing CI's -mod=readonly build locally
T Treat go.sum like a lockfile: regenerate and commit it with every dependency change
"""
THEMES["race-conditions"] = r"""
@ F dbg se tm
G Find why comments posted through the async FastAPI endpoint sometimes vanish after a 201 response
H The Postgres isolation level lets a concurrent transaction overwrite the new comment row
A Logged transaction ids and isolation levels around the insert and checked for concurrent writes to the same row
P Two transactions touch the same comment row within milliseconds
N About 3 % of comments since the refactor on 29 September, all through the /comments/quick path.
R No concurrent writers at all. The logs had 'RuntimeWarning: coroutine AsyncSession.commit was never awaited' for every lost comment
S The handler returned 201 for rows that were never committed, whether or not anything else was running
C A helper called session.commit() without await on one branch, so the coroutine was created and dropped, and the session was closed with the transaction still open
W Enabling PYTHONASYNCIODEBUG in staging and turning 'never awaited' warnings into errors in tests
T A missing await fails silently; make the warning fatal in tests

@ F dbg rca tm
G Stop the flash-sale endpoint from overselling limited stock in the Django shop
H The warehouse sync job overwrites stock counts with stale values during the sale
A Paused the warehouse sync and replayed the sale traffic against staging
P With the sync paused, stock never goes negative
E The cart lets buyers add more than the stock, and checkout never rechecks || Added a stock check at checkout || Overselling stops
R Stock went to -7 with the sync paused and 200 concurrent buyers
S Overselling needed nothing but concurrent buyers for the same product
C reserve() reads product.stock, checks stock >= qty in Python, and saves the decremented value; concurrent requests pass the check before any of them writes
W Using a single UPDATE ... SET stock = stock - qty WHERE stock >= qty and checking the affected row count
T Check-then-act on shared rows must happen in one atomic statement or under a row lock

@ C dbg ca
G Stop the Go metrics aggregator from crashing with 'fatal error: concurrent map writes' under load
H Each HTTP handler goroutine writes into the shared counts map without holding a lock
A Guarded the map with a sync.Mutex in Record and Snapshot and ran the load test with a -race build
P No race reports from the detector and no crash during a one-hour load test
R One hour at 2,000 rps without a crash; the race detector, which had reported the map write immediately before, was silent
W Running the load test with a -race binary
T Go maps are not safe for concurrent writes; the runtime only sometimes tells you

@ F dbg dc ms
G Fix the random NumberFormatException: multiple points in the Java invoice importer
H Some rows in the supplier CSV contain malformed dates like 12.10..2025
A Validated every date string in the last week's files before parsing
P Malformed date strings appear in the failing files
E The supplier switched the date format in some files || Grepped the files for other date patterns || Other date formats found
N Errors only since the importer switched to a parallel stream with 8 threads.
R All date strings were well formed, and reprocessing a failed file on one thread worked
S The same input parsed fine single-threaded and failed under the parallel import
C DateUtil holds a static SimpleDateFormat that several import threads share; it keeps parse state in instance fields and is not thread-safe
W Replacing it with an immutable DateTimeFormatter
T SimpleDateFormat must never be shared between threads

@ F tst te tm
G Fix the flaky 'imports all rows' test in the Node importer's Jest suite
H The in-memory database mock is slow, so the assertion runs before its writes land
A Increased the mock's artificial delay to zero and added a 100 ms wait before the assertion
P With the wait the test passes consistently
R Passed more often but still failed occasionally under load; removing the sleep made it fail every time with 0 rows
S The assertion was running before any write had happened, not just before the last one
C The importer does rows.forEach(async (row) => await db.insert(row)), and forEach ignores the returned promises, so importAll() resolves before any insert
W Replacing forEach with for...of and await, and removing the sleep
T forEach does not await async callbacks

@ F dbg se tm
G Find why settings saved by the Rust desktop sync agent sometimes lose recently changed keys
H serde skips fields marked skip_serializing_if when they hold default values, so some keys are not written
A Wrote a unit test that serialises and deserialises every settings field
P Some fields are lost in the round trip
R Round trip was lossless; lost keys were always ones written by the background sync task while the user changed something else
S Losses only happened when two writers saved within the same second
C The UI task and the sync task each read settings.json, modify their copy and write it back without a lock, so the later writer overwrites the other's change
W Funnelling all writes through one tokio task that owns the settings and receives updates on a channel
T Read-modify-write of a shared file by concurrent tasks loses updates

@ C dbg rca
G Fix the processed-files counter in the Python thumbnailer reporting fewer files than were processed
H Eight ThreadPoolExecutor workers do self.processed += 1, which is a read-modify-write and can lose increments between threads
A Protected the counter with a threading.Lock and compared it with the number of output files over ten runs
P Counter equals the number of output files in all ten runs
E Some images fail silently and are never counted || Counted exceptions in the worker logs || Failures equal the missing count
R 10 of 10 runs matched (12,000 files); before the lock the counter was 20 to 140 short
W Comparing the counter against an independent count of outputs
T += on shared state is not atomic, even with the GIL

@ F dbg ca tm
G Find why the nightly billing job occasionally runs twice
H The job is defined in the crontab of two hosts after last month's migration
A Listed crontabs on every host in the cluster
P Two hosts have the job scheduled
E A Kubernetes CronJob and the host crontab both still schedule billing || Listed the CronJobs in the cluster || A billing CronJob exists
N Both runs started within 4 ms of each other, on different hosts.
R Both hosts have it, by design; they rely on a Redis lock so only one should run
S The lock logs showed both hosts acquiring the same lock a few milliseconds apart
C The lock does GET billing-lock and then SET when empty, two separate commands, so both hosts can see the key missing before either sets it
W Acquiring with a single SET billing-lock <token> NX PX 600000
T A lock acquired in two steps is not a lock

@ F dbg re wa
G Fix the search box in the product catalog showing results for an earlier query than the one typed
H The debounce on the input is not working, so every keystroke fires a search
A Logged every request the search box sends while typing 'lamp shade'
P Each keystroke sends a request
R The debounce worked: 3 requests for the whole phrase. The displayed results matched the second one, 'lamp sh'
S The older response arrived after the newer one and replaced it
C The component sets results from whichever fetch resolves last; requests race and a slower earlier response overwrites the latest
W Aborting the previous request with an AbortController and ignoring responses whose query no longer matches the input
T Concurrent requests resolve in any order; the UI must only accept the latest

@ F dbg se ms
G Fix 'RuntimeError: Session is closed' in the async price scraper
H Target servers close keep-alive connections and aiohttp reuses dead ones
A Disabled keep-alive with force_close=True on the connector
P The error disappears without keep-alive
E The scraper hits aiohttp's per-host connection limit and the pool gets closed || Raised limit_per_host to 50 || The error disappears
R Still 'Session is closed', raised before any connection was made
S The session itself was closed while other tasks were still using it
C fetch_one() wraps the shared ClientSession in 'async with session:', so whichever task finishes first closes the session for all tasks gathered concurrently
W Creating the session once in main() under async with and passing it to tasks that never close it
T Concurrent tasks must not own the lifecycle of a shared resource

@ C dbg re
G Fix the data race the race detector reports in the Go config client's lazy initialisation
H getClient() does 'if c.client == nil { c.client = newClient() }' from multiple goroutines, racing on the field and sometimes creating two clients
A Replaced the nil check with sync.Once
P go test -race passes and only one client is ever created
R -race clean across 50 runs; logging in newClient showed one call instead of two or three
W Reading the race detector's two stack traces, which pointed at both sides of the nil check
T Lazy initialisation shared between goroutines needs sync.Once

@ F dbg ca wa
G Fix 'Order.DoesNotExist' errors in the Celery task that sends order confirmations
H The worker reads from the read replica, which lags behind the primary
A Routed the task's query to the primary database
P DoesNotExist errors stop
N Errors only for orders with many line items, which take longer to commit.
R Errors continued at the same rate on the primary
S The order did not exist on the primary either at the moment the task ran, yet it existed a second later
C The view calls send_confirmation.delay(order.id) inside the atomic block that creates the order, so a fast worker runs before the transaction commits
W Enqueuing with transaction.on_commit(lambda: send_confirmation.delay(order.id))
T Tasks enqueued inside a transaction can run before it commits

@ F int dc tm
G Stop wallet top-ups from being credited twice when the payment provider retries a webhook
H The provider retries only because our handler responds too slowly, so answering faster fixes it
A Moved processing to a queue and returned 200 immediately
P No more duplicate credits
N The provider's dashboard shows two deliveries for each duplicated event, 1.1 s apart.
R Duplicates fell but did not stop: two deliveries of the same event were processed by two workers in parallel
S Both workers' idempotency checks had found no previous record of the event
C The handler checks SELECT ... WHERE event_id = ? and then inserts; with two workers both checks pass before either insert, and there is no unique constraint on event_id
W Adding a unique index on event_id and inserting first, treating a conflict as already processed
T Idempotency needs a unique constraint, not a prior lookup

@ F dbg se tm
G Fix the intermittent ConcurrentModificationException in the Spring notification API's GET /recent
H The pagination code modifies the list while slicing it
A Read through the pagination helper and made it work on a copy
P The exception stops
E Jackson serializes the list lazily after the controller has returned || Copied the list in the controller before returning it || The exception disappears
R Still thrown, now from Jackson while writing the response
S The list was being changed by a thread that had nothing to do with the request
C NotificationStore is a singleton bean holding an ArrayList that an @Async listener appends to while request threads iterate over it
W Switching to a CopyOnWriteArrayList and returning immutable snapshots
T Singleton beans are shared by every thread; their mutable fields need concurrency-safe types

@ C tst cs
G Make test_publish_event in the pytest-asyncio suite stop failing one run in ten
H publish() starts the send with asyncio.create_task and returns, and the test asserts on the fake broker before that task has run
A Copied the pattern from the notifications tests: publish returns the task, and the test awaits it before asserting
P 500 runs of the test pass
R 500 of 500 passed; logging showed the failing runs asserted while the send task was still pending
W Reusing a known-good awaiting pattern from a sibling test module
T Fire-and-forget tasks make tests race; expose something to await

@ F dbg rca ms
G Find why the Kotlin sync service reports fewer imported contacts than the API returned
H The partner API filters out contacts without email on later pages
A Compared the API's returned contact count with our imported count for one account
P The API returns fewer contacts than its total field claims
R The API returned all 4,812; our counter said 4,790 and the database had all 4,812
S Everything was imported correctly; only the reported number was wrong, and different on each run
C Coroutines on Dispatchers.Default increment a shared var imported = 0 without synchronisation, so concurrent increments get lost
W Using AtomicInteger for the counter
T Plain var increments from parallel coroutines lose updates

@ C dbg ca
G Fix user uploads occasionally showing another user's image in the avatar service
H Temporary files are named /tmp/upload-{int(time.time())}, so two uploads in the same second write to the same file before it is moved to S3
A Switched to tempfile.NamedTemporaryFile with delete=False and replayed 50 parallel uploads
P Each of the 50 uploads ends up with its own image
R All 50 images matched their uploaders; with the old naming 7 of 50 were swapped
W Replaying parallel uploads in a load test
T File names derived from timestamps collide under concurrency

@ A dbg au
G Find why the Rust API sometimes fails startup with 'EOF while parsing' in config.json after deploys
H The deploy tool writes config.json in place while the service is reading it at startup, so the service sometimes sees a partial file
A Asked ops whether the deploy tool writes to a temp file and renames it
P Ops confirm in-place writes
R Abandoned: ops moved the service to ConfigMap-mounted volumes, which swap files atomically via symlinks, before answering; the error has not recurred

@ F dbg dc wa
G Fix users occasionally seeing another user's dashboard in the Node admin API
H The CDN caches the personalised /dashboard response and serves it to other users
A Checked response headers and CDN logs for cache hits on /dashboard
P Cache hits on the personalised endpoint
N Only under load tests with more than 20 concurrent users; never in manual testing.
R All /dashboard responses were cache misses; wrong data came straight from the origin
S The origin itself returned user B's data to user A under concurrent load
C The auth middleware stores the user in a module-level variable currentUser, which the handler reads after an await; a second request can overwrite it in between
W Moving per-request state into AsyncLocalStorage and removing module-level request variables
T Module-level variables in Node are shared by every concurrent request

@ C dbg se
G Fix the occasional NullPointerException from ConfigRegistry.getInstance().get() at service startup
H getInstance uses double-checked locking on a non-volatile field, so another thread can see a partially constructed instance
A Declared the instance field volatile, then replaced the whole thing with the holder-class idiom
P No NPE during 200 restarts with parallel warm-up threads
R 200 restarts without an NPE; the failure had happened about once in 40 restarts before
W Recognising the double-checked locking pattern in the stack trace
T Double-checked locking needs volatile; the holder idiom avoids it entirely

@ F tst se tm
G Fix TestWorkerPool in the Go job queue, which sometimes reports fewer completed jobs than submitted
H The results channel is too small, so results are dropped when it fills
A Increased the channel buffer to the number of jobs
P All jobs are reported
N Fails about 1 in 15 runs locally and 1 in 4 on CI's 2-core runners.
R Still short in some runs; the race detector flagged WaitGroup usage
S Wait() returned before all workers had even started
C Each goroutine calls wg.Add(1) itself, so wg.Wait() can run before some Adds and return early
W Calling wg.Add(n) before starting the goroutines
T WaitGroup.Add must happen before the goroutine starts, not inside it

@ F dbg ca wa
G Fix 'This session is provisioning a new connection; concurrent operations are not permitted' in the async report builder
H The connection pool is too small for the number of concurrent queries
A Raised pool_size from 5 to 20
P The error disappears
R Same error with 20 connections available
S The error was about one session, not about the pool
C build_report passes one AsyncSession to several coroutines run with asyncio.gather, and an AsyncSession cannot be used by concurrent tasks
W Giving each coroutine its own session from the sessionmaker
T One AsyncSession per task; gather and a shared session do not mix

@ A dbg rf
G Stop the deadlocks between the two ledger workers updating account balances
H Worker A updates accounts in ascending id order and worker B in the order of the incoming transfer, so they lock the same rows in opposite orders
A Read the Postgres deadlock reports in the log to see which rows each transaction held
P The reports show opposite lock orders on the same two accounts
R Abandoned: the payments team moved ledger updates to a single-consumer queue the same week, which removes the concurrency altogether

@ C perf rca
G Fix the article view counter undercounting during traffic spikes
H The view handler reads views in Python and writes views + 1 back, so concurrent requests overwrite each other's increments
A Replaced it with UPDATE articles SET views = views + 1 WHERE id = :id and load-tested with 1,000 parallel requests
P The counter increases by exactly 1,000
R It increased by 1,000; the old code reached only 212 in the same test
W Load-testing with a known number of requests and checking the exact delta
T Increment in the database, not in application code

@ F dbg se tm
G Find why the Rust enrichment service sends duplicate lookups to the rate-limited geo API
H The retry policy re-sends requests that actually succeeded but timed out
A Disabled retries and watched the request log
P Duplicates disappear without retries
E Two replicas of the enrichment service each keep their own cache || Scaled the deployment to one replica || Duplicates stop
R Duplicates continued without retries; they were separate lookups for the same IP a few milliseconds apart
S Two tasks both decided the same IP was missing from the cache
C The cache lookup takes a read lock, drops it, and only then takes the write lock to insert, so concurrent tasks all see a miss and all call the API
W Using a per-key once cell (moka's get_with) so only one task computes each entry
T Check under a read lock followed by insert under a write lock is check-then-act
"""
THEMES["text-encoding"] = r"""
@ F dbg se env
G Fix customer names like 'Müller' arriving as 'MÃ¼ller' from the partner CSV import
H The MySQL connection uses the latin1 character set, so the driver mangles the names on insert
A Checked the connection charset and the column collation, and inserted 'Müller' by hand through the same connection
P The hand-inserted value is mangled as well
N Only rows imported since the import job moved to the Windows batch server.
R The hand-inserted value was stored correctly with utf8mb4; the importer's Python string was already 'MÃ¼ller' before the insert
S The corruption happened while reading the file, before the database was involved
C The import server runs Windows, and open(path) without an encoding argument decodes the partner's UTF-8 file as cp1252
W Passing encoding='utf-8' explicitly to every open() in the importer and enabling PYTHONWARNDEFAULTENCODING in CI
T Never rely on the platform default encoding when reading files from elsewhere

@ F dbg ca wa
G Fix "Incorrect string value: '\xF0\x9F\x98\x80' for column 'body'" when users post comments with emoji
H The ORM escapes the string incorrectly before sending it to MySQL
A Inserted the same comment with a raw parameterised query through the driver
P The raw insert succeeds
R The raw insert failed with the same error
S Accented letters worked fine and only emoji failed
C The comments table was created with the utf8 (utf8mb3) charset, which stores at most three bytes per character, and emoji need four
W Converting the table to utf8mb4 and setting the connection charset to utf8mb4
T MySQL's utf8 is not UTF-8; use utf8mb4 everywhere

@ C dbg rca
G Fix "KeyError: 'id'" when importing the product spreadsheet exported from Excel
H Excel's 'CSV UTF-8' export starts the file with a byte order mark, so the first header is '\ufeffid' rather than 'id'
A Printed repr() of the header row, then opened the file with encoding='utf-8-sig'
P repr shows '\ufeffid', and with utf-8-sig the import finds the id column
R repr showed '\ufeffid'; with utf-8-sig all 3,412 rows imported
W Printing repr() of the key that looked right but did not match
T When a key looks identical but does not match, print its repr

@ F dbg dc ms
G Fix login failures for user 'José' on macOS clients while the same account works on Windows
H bcrypt truncates the password at 72 bytes, and the macOS password manager generates longer passwords
A Checked the password length for the affected account
P The password is longer than 72 bytes
E The macOS app sends the username with a trailing newline from the keychain || Logged repr() of the username on the server || A trailing newline appears
R The password was 18 characters; the lookup failed before any password check ran
S The username lookup returned no user although 'José' existed in the database
C Usernames are stored NFC ('é' as U+00E9) but the macOS client sends NFD ('e' plus combining U+0301), so the byte comparison fails
W Normalising usernames to NFC at registration and at login
T Compare user-entered text only after Unicode normalisation

@ F dbg re wa
G Fix '�' at the end of truncated post previews in the social feed
H The preview font lacks glyphs for some emoji and renders the replacement character
A Rendered the same previews in a system font
P The '�' goes away with another font
N Only previews whose 140th code unit falls inside an emoji are affected.
R The '�' stayed; the preview string itself ended with a lone surrogate U+D83D
S The string had been cut in the middle of an emoji
C The preview uses text.slice(0, 140), which counts UTF-16 code units and can split a surrogate pair in half
W Truncating by grapheme with Intl.Segmenter
T JavaScript string indices count UTF-16 code units, not characters

@ F int rf mk
G Fix scraped product titles from a supplier site showing 'FaÃ§ade' instead of 'Façade'
H The supplier's HTML already contains double-encoded bytes, so the mojibake is baked into what their server sends
A Fetched the page with curl and viewed it as UTF-8
P curl output also shows mojibake
R curl output was correct UTF-8; the mojibake appeared only in response.text in our scraper
S The page's bytes were fine, and our decoded string was not
C The server sends Content-Type: text/html without a charset, and requests then decodes text/* as ISO-8859-1
W Decoding response.content as UTF-8 when the header lacks a charset, falling back to the meta charset tag
T Check response.encoding; requests assumes ISO-8859-1 for text without a declared charset

@ C int ca
G Fix Polish characters breaking in emails generated by the Java notification service on the Windows servers
H The service builds the mail body with new String(bytes) and getBytes() without a charset, so on Windows with Java 11 it uses windows-1252
A Passed StandardCharsets.UTF_8 explicitly to every conversion in the mail builder
P 'Zażółć gęślą jaźń' arrives intact in the test mailbox from the Windows server
R The test mail arrived intact; before the change it read 'Za?ó?? g??l? ja??'
W Grepping for getBytes() and new String( without a charset argument
T Before Java 18 the default charset depends on the OS; always pass one

@ F tst ca env
G Fix 'UnicodeEncodeError: charmap codec can't encode character \u2713' in the CLI tests on the Windows CI runner
H The test data file with check marks was corrupted by a line-ending conversion
A Compared the fixture's bytes on the runner with the repository
P The bytes differ
N Linux and macOS jobs are green on the same commit.
R Identical bytes; the error came from print() writing the check mark to stdout
S Linux and macOS runners never complained about the same output
C The Windows runner's stdout uses the cp1252 code page, which cannot encode U+2713
W Setting PYTHONUTF8=1 in the Windows job and making the CLI fall back to ASCII symbols when stdout cannot encode them
T Console encodings differ by platform; test output paths on Windows too

@ F dbg se ms
G Fix the Go profile API rejecting 8-character Japanese display names as longer than 20 characters
H The frontend pads the name with trailing whitespace
A Logged the received name with %q
P The logged name has trailing spaces
N Latin names of 20 characters are accepted; Japanese names fail from 7 characters up.
R No spaces: "山田太郎の店舗名前", and len() returned 27
S The validation counted almost three times as many characters as the user typed
C The validator uses len(name), which counts bytes, and each of those characters is three bytes in UTF-8
W Counting with utf8.RuneCountInString
T len() of a Go string is its byte length

@ F dbg ca wa
G Fix 'ERROR: invalid byte sequence for encoding "UTF8": 0xe9 0x20 0x64' when loading the vendor price file with COPY
H The new Postgres cluster was initialised with SQL_ASCII and rejects non-ASCII bytes
A Checked SHOW server_encoding on the new cluster
P server_encoding is SQL_ASCII
R server_encoding was UTF8, as on the old cluster
S The byte 0xe9 followed by a space cannot be part of a UTF-8 sequence at all
C The vendor file is Latin-1 ('é' is 0xE9), and the old load script converted it with iconv, a step the new pipeline dropped
W Adding ENCODING 'LATIN1' to the COPY command and asking the vendor to declare the encoding
T 0xE9 followed by ASCII is the signature of Latin-1 text

@ A dbg au
G Fix garbled Hebrew text in PDF invoices for a customer in Tel Aviv
H The PDF font has no Hebrew glyphs and the renderer does not apply right-to-left shaping
A Asked the customer for a sample invoice and their expected layout
P The sample shows missing glyphs and reversed word order
R Abandoned: the customer switched their invoice language to English and closed the request before sending a sample

@ F dbg rca ov
G Fix the Rust catalog service panicking with 'byte index 100 is not a char boundary' on some product descriptions
H Some descriptions contain invalid UTF-8 that from_utf8_lossy turns into replacement characters of unexpected length
A Validated all descriptions with std::str::from_utf8
P Validation finds invalid descriptions
E The database truncates descriptions at 255 bytes, ending them mid-character || Checked the byte lengths of descriptions in the database || Descriptions at exactly 255 bytes
R All descriptions were valid UTF-8; the panicking ones had a 'ü' straddling byte 100
S Valid text still made the slicing code panic
C The summary uses &desc[..100], slicing at a byte offset that can fall inside a multi-byte character
W Truncating at the last char boundary with char_indices
T String slices in Rust take byte offsets that must land on character boundaries

@ C dbg re
G Fix "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x92 in position 1534" when reading the legacy CRM export
H The export is cp1252, where 0x92 is the right single quotation mark used in words like don’t
A Decoded the file with cp1252 and inspected the text around position 1534
P The text around the byte reads as a word with an apostrophe
R Around position 1534 it reads 'don’t'; the whole file decodes cleanly as cp1252
W Looking up the offending byte in the cp1252 table
T Bytes 0x80-0x9F in Western text usually mean cp1252

@ F sec ca ws
G Stop users registering names that look identical to existing staff accounts
H The unique constraint uses a case-sensitive collation, so 'Admin' and 'admin' are both allowed
A Switched the username comparison to a case-insensitive collation
P A second 'admin' in any case is rejected
N Security reported two look-alike accounts, for 'admin' and 'support'.
R Case variants were rejected, but 'аdmin' registered fine, displaying exactly like 'admin'
S The new account's name was byte-for-byte different from 'admin' though it rendered identically
C Its first letter is Cyrillic U+0430, and neither case folding nor normalisation maps it to Latin 'a'; the check needs a confusable skeleton
W Rejecting names whose Unicode confusable skeleton matches an existing account
T Case-insensitivity is not enough for look-alike names; use confusable skeletons

@ F dbg dc ms
G Fix meeting invitation subjects appearing as 'RÃ©union' in some mail clients
H Outlook has a known bug rendering accented subjects
A Sent the same invitation to Gmail and Thunderbird
P Only Outlook shows the wrong subject
R Thunderbird showed the same mojibake; Gmail guessed correctly
S The raw message headers contained unencoded 8-bit bytes in the Subject
C The Python sender builds headers by string concatenation and passes raw UTF-8 to smtplib, without RFC 2047 encoding, so clients guess the charset
W Building messages with email.message.EmailMessage, which encodes headers properly
T Non-ASCII headers must be RFC 2047 encoded; clients guess otherwise

@ C cfg ca
G Fix UTF-8 CSV and TXT reports showing mojibake when opened directly in the browser
H nginx serves .csv and .txt without a charset in Content-Type, so browsers fall back to windows-1252
A Added 'charset utf-8;' and 'charset_types text/csv text/plain;' to the reports location
P Response headers show text/csv; charset=utf-8 and the browser displays the accents correctly
R Headers included charset=utf-8 and 'Ångström' rendered correctly in Chrome and Firefox
W Reading the response headers with curl -I
T Text responses need an explicit charset

@ F dbg se wa
G Fix occasional '�' characters in large translation bundles downloaded by the Node build script
H The translation service sometimes sends invalid UTF-8
A Downloaded the same bundle with curl and validated it with iconv
P iconv reports invalid sequences
E The CDN serving the bundles transcodes responses || Downloaded through and around the CDN and compared hashes || The hashes differ
R The curl download was valid; the corruption appeared in different places on each run of our script
S The position of the bad characters moved between runs of the same download
C The script does data += chunk for each Buffer, decoding every chunk separately, so a multi-byte character split across chunk boundaries becomes two replacement characters
W Collecting Buffers and calling Buffer.concat(chunks).toString('utf8') once
T Decode a byte stream once at the end, or with a streaming decoder, never per chunk

@ F dbg ca ms
G Fix the product list putting 'Äpfel' after 'Zucker' in the German shop
H The database collation is C, which sorts by byte
A Checked the collation of the product name column
P The column uses the C collation
N Only words with umlauts are misplaced; 'Apfelsaft' sorts correctly.
R The column used de_DE.utf8 and SQL returned the correct order; the list was re-sorted in the browser
S The order was right in the API response and wrong on screen
C The frontend calls products.sort((a, b) => a.name > b.name ? 1 : -1), which compares UTF-16 code units, placing Ä (U+00C4) after Z
W Using Intl.Collator('de').compare for sorting
T Sort human-readable text with a locale-aware collator

@ F tst te env
G Fix test_load_cafe_fixture, which passes on macOS and fails on the Linux CI runner with FileNotFoundError
H Linux's case-sensitive filesystem does not match the fixture's capitalisation
A Compared the fixture's filename case with the path in the test
P The case differs
R Same case; the filename bytes in git were 'cafe\u0301.json' while the test used 'caf\u00e9.json'
S Two visually identical file names differed in their bytes
C The fixture was added from an older macOS machine that stored the name in NFD; macOS matches both forms, Linux does not
W Renaming the file to its NFC form and normalising paths in the fixture loader
T File names with accents can differ by normalisation form between platforms

@ C dbg rca
G Fix the finance team seeing 'BeitrÃ¤ge' when they open the UTF-8 export in Excel
H Excel opens CSV files without a BOM using the Windows ANSI code page, so UTF-8 needs a byte order mark to be recognised
A Wrote the export with encoding='utf-8-sig' and asked a finance colleague to open it
P Excel shows 'Beiträge' correctly after a double-click
R The colleague confirmed the umlauts; the file now starts with EF BB BF
W Testing with the actual consumer, Excel, not a text editor
T For CSV aimed at Excel, write UTF-8 with a BOM

@ F int se wa
G Fix Chinese supplier names turning into '???' when the sync writes them to SQL Server
H pyodbc's decoding settings are wrong, so names read back incorrectly although they are stored fine
A Configured setdecoding/setencoding for UTF-16 and read the rows back
P The names read back correctly with the new settings
N Names in Latin script sync fine, so the connection itself works.
R They still read back as '???', and in SSMS the stored values were literally question marks
S The data was destroyed at write time, not mangled on read
C supplier.name is VARCHAR with the SQL_Latin1_General_CP1_CI_AS collation, which cannot represent Chinese, so SQL Server replaces them with '?'
W Migrating the column to NVARCHAR and re-running the sync for affected suppliers
T Non-Latin text in SQL Server needs NVARCHAR or a UTF-8 collation

@ F dbg re mk
G Fix the address deduplication missing duplicates like 'Hauptstraße 5' and 'HAUPTSTRASSE 5'
H Trailing whitespace in one of the records prevents the match
A Stripped whitespace on both sides before comparing
P The two addresses match after stripping
R Still no match; lower() turned them into 'hauptstraße 5' and 'hauptstrasse 5'
S Lower-casing both strings did not make them equal
C str.lower() keeps 'ß', while upper-casing it yields 'SS'; caseless comparison needs str.casefold(), which maps 'ß' to 'ss'
W Comparing casefold() of NFKC-normalised strings
T Use casefold(), not lower(), for caseless matching

@ A int rf
G Handle the partner's SFTP files that occasionally arrive in UTF-16LE instead of UTF-8
H Those files have no byte order mark, so our charset detection picks UTF-8 and the parser fails
A Read the charset-normalizer docs and prototyped detection on the three failing files
P Detection identifies UTF-16LE on all three
R Abandoned: the partner agreed to send UTF-8 only from the next quarter, so we added a clear error message instead of detection

@ C tst ca
G Fix the webhook signature test failing because our JSON payload differs from the partner's reference body
H Go's json.Marshal escapes <, > and & as \u003c, \u003e and \u0026 for HTML safety, so the bytes we sign differ from the partner's
A Encoded with a json.Encoder with SetEscapeHTML(false) and trimmed the trailing newline
P Our bytes equal the reference payload and the signature matches
E The partner decodes the shared secret from base64 while we use it as raw text || Compared our key handling with the partner's documentation || The key handling differs
R Byte-for-byte equal; the HMAC matched the partner's example
W Diffing the payload bytes at the first differing offset
T Signatures are over bytes; any encoder default that changes bytes breaks them

@ A dbg se
G Make user names with non-ASCII characters searchable in the application logs
H The JSON log formatter uses ensure_ascii=True, so 'Zoë' is written as 'Zo\u00eb' and grep for the literal name finds nothing
A Started checking the log formatter configuration in each service
P Formatters use ensure_ascii=True
R Abandoned: the log platform is moving to Loki next month, where fields are indexed after JSON decoding, so the escaping no longer matters for search
"""
NOISE = r"""
@ C fea rf
G Add a CSV export button to the sales report page that works for 200,000 rows
H Building the whole CSV in memory is what made the earlier prototype time out; streaming rows with StreamingHttpResponse and a generator keeps memory flat
A Implemented the export as a StreamingHttpResponse over queryset.values_list().iterator() with a csv.writer on a pseudo-buffer
P The 200,000-row export starts downloading within a second and the worker's RSS stays under 150 MB
R First bytes after 0.4 s, full file in 38 s, peak RSS 122 MB; the prototype had peaked at 1.9 GB
W Following the Django docs' streaming CSV recipe
T Stream large downloads instead of building them in memory

@ F fea ca wa
G Ship dark mode for the analytics dashboard
H Switching CSS custom properties under prefers-color-scheme: dark covers every component including charts
A Defined dark values for the colour variables and toggled the OS theme
P The whole dashboard, charts included, switches to the dark palette
E The global stylesheet overrides the colour variables with hard-coded values || Searched the stylesheets for hard-coded hex colours || Hard-coded colours in the chart container styles
R Layout and tables switched, but every chart kept white backgrounds and black gridlines
S The charts ignored the CSS variables completely
C The chart library draws on canvas with colours passed in its JavaScript options, so CSS variables never reach it
W Reading the computed CSS variables in JS and passing them to the chart theme, re-rendering on theme change
T Canvas-rendered components need their theme passed in code

@ C fea cs
G Add a 'resend invitation' endpoint to the team management API
H The password-reset flow already issues signed, expiring tokens and sends templated mail, so the same pieces can issue a fresh invitation token
A Copied the reset-token view and serializer, swapped the template and purpose salt, and added tests
P Resending invalidates the previous invitation link and the new link opens the accept page
R Old link returned 'invitation expired', new link worked; 6 new tests pass
W Reusing the signing and mailing code of the reset flow
T A different salt per token purpose keeps copied token flows from accepting each other's tokens

@ F fea te mk
G Add drag-and-drop file upload to the document inbox
H Handling the drop event on the drop zone is enough; the browser delivers the dropped files to onDrop
A Added an onDrop handler that reads event.dataTransfer.files
P Dropping a PDF calls onDrop with one file
N The Storybook example works, but it uses a library component.
R onDrop never fired; the browser opened the PDF in the tab instead
S Dropping the file navigated away from the app
C The drop event only fires if the dragover event's default action is prevented; without preventDefault in onDragOver the browser treats the drop as navigation
W Adding onDragOver={e => e.preventDefault()} and a visual hover state
T HTML5 drop targets need dragover cancelled before drop fires

@ C fea rf
G Make outbound webhook delivery survive receiver outages without hammering them
H Retrying with exponential backoff and full jitter, capped at 6 hours, spreads retries after an outage instead of sending them in waves
A Read the AWS architecture note on backoff and jitter and implemented delay = random(0, min(cap, base * 2 ** attempt))
P A simulated 30-minute receiver outage produces a smooth retry rate instead of synchronised spikes
R The simulation's retry histogram was flat after the outage; without jitter it had spikes of 1,800 requests every backoff step
W Simulating the outage with a fake receiver before shipping
T Backoff without jitter synchronises clients

@ A fea au
G Add SAML single sign-on for the enterprise customer Northwind
H Their IdP is ADFS and needs our SP metadata with a signed AuthnRequest
A Asked the customer's IT contact for their IdP metadata and test accounts
P With their metadata, a test login through ADFS succeeds in staging
R Abandoned: Northwind postponed their rollout to next year and asked us to pause the integration

@ F fea dc ov
G Deliver order status updates to the web app over a GraphQL subscription
H The WebSocket connection works through the AWS load balancer as long as it supports the upgrade header
A Deployed the subscription server behind the ALB and watched a client for ten minutes
P The client stays connected and receives updates
N Locally, without the ALB, the connection stayed open for hours.
R The client disconnected every 60 seconds when no updates were sent
S Connections died at exactly one minute whenever the order was idle
C The ALB's idle timeout is 60 seconds and the subscription server sent no keep-alive messages
W Enabling graphql-ws keep-alive pings every 20 s
T Long-lived connections need keep-alives shorter than every idle timeout on the path

@ C fea ca
G Sign outbound webhooks so receivers can verify that requests come from us
H An HMAC-SHA256 over timestamp.body with a per-endpoint secret, sent in a header, lets receivers verify authenticity and reject replays older than five minutes
A Implemented signing, a verification helper for our SDK, and tests with a known vector
P The SDK verifies our signed requests and rejects a modified body or an old timestamp
R Verification succeeded for genuine requests and failed for both tampering and replay cases in the tests
W Writing the verification helper alongside the signer so both are tested together
T Include a timestamp in the signed content to prevent replays

@ F fea se wa
G Generate thumbnails for uploaded photos in the listings service
H Pillow's thumbnail() keeps the orientation of the original image
A Generated thumbnails for twenty phone photos from the QA set
P All thumbnails have the same orientation as the photos appear in the gallery app
R Seven of twenty thumbnails were rotated 90 degrees
S The originals looked upright everywhere, yet their thumbnails were sideways
C Phone cameras store pixels unrotated with an EXIF Orientation tag; Pillow ignores the tag, and the thumbnail drops the EXIF data
W Calling ImageOps.exif_transpose before creating the thumbnail
T Apply EXIF orientation before transforming photos

@ C fea rf
G Add full-text search over help-center articles without a separate search service
H Postgres tsvector with a GIN index and websearch_to_tsquery is fast enough for 40,000 articles and supports the quoted phrases support agents use
A Added a generated tsvector column with weights for title and body, a GIN index, and a search endpoint
P Typical queries return in under 50 ms and phrase queries rank exact matches first
R Median query time 9 ms, p99 31 ms; "reset password" in quotes ranked the exact-phrase articles first
W Reading the Postgres text search docs on weighting before building
T Postgres full-text search covers many product search needs before a separate engine is justified

@ C ref dc
G Split the 2,000-line orders/views.py into a package without changing URLs
H The module separates cleanly into checkout, refunds and admin views, since no view calls another directly
A Moved each group into orders/views/ modules, re-exported them in __init__.py, and ran the full suite after each move
P The URL resolver finds every view and the 412 tests pass after each step
R All 412 tests passed after each of the three moves; reverse() resolves every URL name
W Moving one group at a time with the suite run in between
T Re-exporting from __init__ keeps imports stable during a split

@ F ref ca wa
G Replace the hand-written retry loop in the sync client with tenacity
H A bare @retry decorator has the same behaviour as our loop, three attempts on any exception
A Swapped the loop for @retry and ran the client's tests
P The tests that expect failure after three attempts still pass
N The CI timeout is 20 minutes; the test hung for all of it.
R The test for a permanently failing server hung until the CI timeout
S The decorated call never gave up
C tenacity's defaults are stop_never and no wait, so a bare @retry retries forever
W Using @retry(stop=stop_after_attempt(3), wait=wait_exponential(), reraise=True)
T Library defaults rarely match the loop you are replacing; set them explicitly

@ C ref se
G Extract a payment provider interface so the checkout can support a second provider
H The checkout calls only five provider methods, so an interface with authorise, capture, refund, void and status covers every call
A Listed every call into the Stripe client, defined a Protocol with those methods, and moved the Stripe code behind it
P mypy passes with the checkout depending only on the Protocol, and all checkout tests pass
R mypy clean; 87 checkout tests pass; a grep shows no remaining direct Stripe imports in checkout/
W Listing the actual calls before designing the interface
T Design the interface from the calls you have, not the ones you imagine

@ F ref rca if
G Rename customer_id to account_id across the reporting services
H Renaming with the IDE's refactor tool and updating the SQL views covers every use
A Renamed with the IDE, updated the views, and ran the test suites
P All suites pass and the reports render
N Reports that failed: weekly_revenue and churn_by_segment.
R Suites passed, but the weekly revenue report crashed in staging with AttributeError: 'Row' object has no attribute 'customer_id'
S A code path the tests never exercised still used the old name
C The report builder reads columns via getattr(row, f"{entity}_id") with the entity name from a YAML config, which no refactoring tool can see
W Grepping YAML and string literals for the old name and adding a test that renders every report
T Dynamic attribute access hides references from refactoring tools

@ C ref cs
G Convert the callback-based storage module of the Node uploader to async/await
H Every callback in the module follows the (err, result) convention, so util.promisify can wrap them without behaviour changes
A Wrapped the fs and S3 callbacks with util.promisify, following the approach used in the thumbnails module, and rewrote callers with await
P The module's tests pass unchanged and error cases still reject with the same error codes
R 54 tests pass unchanged, including the ENOENT and AccessDenied cases
W Copying the conversion approach from the thumbnails module
T Callbacks that follow the Node convention convert mechanically

@ A ref au
G Migrate the admin frontend's state management from Redux to Zustand
H Most of the Redux slices are simple local state that Zustand stores would reduce by half the code
A Asked the frontend lead whether the migration fits the roadmap before starting
P The lead approves a gradual migration
R Abandoned: the lead prefers to keep Redux Toolkit for consistency with the customer app; no migration

@ F ref dc wa
G Remove dead code reported by vulture in the scheduling service
H Every function vulture reports with 100 % confidence is unused and can be deleted
A Deleted the 14 reported functions and deployed to staging
P Tests pass and staging behaves as before
R Tests passed, but the nightly digest job failed in staging with 'Received unregistered task of type digest.tasks.send_weekly'
S A function reported as certainly unused was run every night
C The Celery beat schedule references the task by its dotted name in a settings string, which static analysis cannot follow
W Adding a vulture whitelist generated from the beat schedule and task registry
T Dead-code tools cannot see string references; check schedules and configs

@ C ref ca
G Replace the hand-rolled argparse setup of the ops CLI with Typer
H Typer generates the same --help and option names from type hints, so existing scripts calling the CLI keep working
A Ported the commands and ran the shell scripts in scripts/ that invoke the CLI
P All scripts run unchanged and the exit codes match
R All 11 scripts passed; one option's short flag had to be declared explicitly to keep -n
W Running the real callers, not only the CLI's own tests
T Callers are the compatibility test for a CLI rewrite

@ C doc rf
G Document the API's OAuth authorisation flow for partner developers
H Partners keep failing at the PKCE step, so a sequence diagram with exact request examples for each step will cut support tickets
A Read the last 20 partner tickets, then wrote the guide with a Mermaid sequence diagram and curl examples
P The two partners onboarding this month get through the flow without asking support
R Both partners completed the flow; the only question was about token lifetime, which I added to the guide
W Starting from actual support tickets
T Document the step where people actually fail

@ F doc ca wa
G Update the README's setup instructions for new developers on macOS
H make setup still works on a fresh macOS installation with Homebrew Python
A Ran make setup on a freshly provisioned Mac
P Setup completes and the dev server starts
R Setup failed building psycopg2: 'pg_config executable not found'
S A fresh machine hit a build step that every existing developer machine had already satisfied
C Building psycopg2 from source needs the PostgreSQL client library and headers (brew install libpq) plus the Xcode command-line tools, which the README never mentioned
W Testing the README on a clean machine and documenting both prerequisites
T Setup docs rot silently; test them on a clean machine

@ C doc cs
G Write an on-call runbook for the disk-space alerts on the build servers
H The existing database runbook's structure (symptoms, checks, safe actions, escalation) fits disk alerts too
A Copied the database runbook's template and filled in commands for finding large directories and safe cleanups
P The next on-call engineer resolves a disk alert using only the runbook
R The next alert was resolved in 12 minutes by the on-call engineer following the runbook
W Reusing a runbook format the team already knew
T A familiar runbook structure makes a new runbook usable under stress

@ F doc re ov
G Fix the Sphinx docs build failing in CI with warnings treated as errors
H autodoc cannot import the API modules because the heavy native dependencies are not mocked
A Added the native packages to autodoc_mock_imports
P The build completes without warnings
R The build still failed: 'duplicate label installation, other instance in guides/quickstart'
S The failure was not about imports at all but about section titles
C autosectionlabel creates labels from section titles, and two pages have an 'Installation' section
W Setting autosectionlabel_prefix_document = True
T Read the first warning in full before fixing what you expect

@ C doc rf
G Record the decision between Postgres and DynamoDB for the new audit-log store
H Our access pattern (filter by tenant, time range and actor, plus ad hoc queries by compliance) favours Postgres with partitioning
A Wrote an ADR comparing query flexibility, cost at 50 million rows per month and operational load
P The architecture review accepts the ADR without requesting a proof of concept
R Accepted in review; the only follow-up was to document the partition retention policy
W Writing down the access patterns before comparing databases
T ADRs go faster when access patterns are explicit

@ A doc au
G Provide the user guide in Spanish for the Latin American launch
H Machine translation plus review by a native speaker is enough for the user guide
A Asked the product manager about budget for a reviewer
P Budget approved and a reviewer assigned
R Abandoned: the Latin American launch was moved to next year, so the translation was deprioritised

@ C doc ca
G Fix broken links after moving the docs site to a new URL structure
H The move broke links that used relative paths across sections, about a dozen according to the 404 logs
A Ran linkchecker against the staging site and fixed each broken link
P linkchecker reports zero broken internal links
R 14 broken links found and fixed; linkchecker is now part of the docs CI job
W Checking the staging site with a crawler rather than reading markdown
T Add a link checker to CI when restructuring docs

@ F sec re env
G Restore payment callbacks failing with 'certificate has expired' since this morning
H The payment provider's callback client has an outdated CA bundle that does not trust our new intermediate
A Checked our certificate chain with openssl s_client -showcerts
P Our chain uses an intermediate that older bundles lack
E Our WAF blocks the provider's new callback IP range || Checked the WAF logs for blocked callbacks || Blocked requests from the provider
N cert-manager's Certificate resource had shown Ready=False for 14 days.
R Our leaf certificate on api.example.com itself had expired at 06:00 UTC
S cert-manager had not renewed a certificate that it manages
C cert-manager's DNS-01 challenge failed for two weeks because the DNS provider API token in its secret had been rotated, and the renewal alerts went to an unmonitored channel
W Updating the token secret, forcing renewal, and routing cert-manager alerts to the on-call channel
T Certificate automation needs monitoring of its failures

@ C sec rca
G Fix the SQL injection reported in the internal customer search endpoint
H The search builds its WHERE clause with an f-string around the user's query, so a quote breaks out of the string literal
A Replaced the f-string with a parameterised query and added a test with a payload containing a quote and UNION SELECT
P The payload is treated as a literal search term and returns no rows
R The test payload returned zero rows; a repository grep found two more f-string queries, which I also fixed
W Grepping for other queries built with f-strings
T One injectable query suggests others built the same way

@ F sec ca wa
G Close the open redirect in the login page's next parameter
H Our is_safe_next() check already rejects absolute URLs, so only encoded variants could slip through
A Tested next values like https://evil.test and URL-encoded versions against is_safe_next()
P Only encoded variants get through
R Encoded variants were rejected; next=//evil.test was accepted and redirected off-site
S A value starting with a slash was treated as a local path by our check and as a different host by the browser
C is_safe_next() only checks next.startswith('/'), and '//evil.test' is a scheme-relative URL
W Using Django's url_has_allowed_host_and_scheme with allowed_hosts
T Use the framework's redirect check instead of prefix matching

@ C sec rf
G Add a Content-Security-Policy to the customer web app without breaking analytics
H The analytics snippet is the only inline script, so a nonce-based policy plus its domain will work
A Read the analytics vendor's CSP docs, deployed the policy in report-only mode for a week, then enforced it
P Report-only mode shows violations only from browser extensions
R A week of reports showed only extension violations; enforced the policy and analytics still records page views
W Running report-only for a week before enforcing
T Deploy CSP in report-only first and read the reports

@ F sec se mk
G Stop the API key for the geocoding service appearing in the application logs
H The structlog processor that masks 'password', 'token' and 'key' fields misses a field named api_key
A Added api_key to the processor's masked keys
P No more keys in the logs
R Keys still appeared, inside URLs: 'GET https://geo.example/v1?api_key=...'
S The key was never a structured log field at all
C urllib3's debug logging writes the full request URL, query string included, and the logging configuration had DEBUG enabled for urllib3
W Moving the key to a header and setting urllib3's logger to WARNING
T Library debug logging can leak secrets in URLs; keep credentials out of query strings

@ C sec ca
G Handle the AWS access key discovered in an old commit of the deploy repository
H The key from 2022 may still be active, since nobody remembers rotating it
A Ran aws sts get-caller-identity with the key in an isolated shell
P The call succeeds, proving the key is live
R The call succeeded as user deploy-bot; deactivated and deleted the key, confirmed no workloads used it in CloudTrail for 90 days
W Checking whether the credential worked before deciding how urgent it was
T Treat any credential in git history as compromised until proven inactive

@ A sec au
G Fix the clickjacking finding on the marketing site from the penetration test
H Adding X-Frame-Options: DENY and frame-ancestors 'none' to the marketing site's responses closes the finding
A Asked the marketing team who controls the hosting configuration
P Marketing gives access to the CDN configuration
R Abandoned: the site is hosted by an external agency; forwarded the finding to them through marketing

@ F sec dc ov
G Fix the stored XSS in the markdown preview of support tickets
H bleach's allowed-protocols list lets javascript: URLs through in links
A Tested the server-side rendering with a javascript: link
P The server-rendered HTML contains the javascript: link
R Server-side output was clean; the payload executed in the agent's live preview before saving
S The vulnerable HTML never came from the server
C The live preview renders markdown in the browser with marked and inserts it via dangerouslySetInnerHTML without sanitising
W Sanitising the client-side preview with DOMPurify and sharing one sanitiser config with the server
T Every rendering path needs sanitising, not just the server's

@ F perf se wa
G Find the memory leak that makes the Node websocket gateway restart every two days
H Event listeners accumulate on the shared EventEmitter, since Node prints MaxListenersExceededWarning occasionally
A Took heap snapshots six hours apart and compared retained sizes
P Listener arrays on the emitter dominate the growth
E The ws library buffers messages for slow clients without a limit || Checked bufferedAmount across connected sockets || Large buffered amounts on some sockets
E The TLS session cache grows with every reconnect || Disabled TLS session resumption on one instance || Memory growth stops on that instance
N RSS grows about 40 MB per hour regardless of connection count.
R Listeners were stable; a Map called pendingAcks had grown to 1.8 million entries
S The growth was in our own bookkeeping, not in listeners
C Entries are added to pendingAcks for every message and deleted only when the client acknowledges, so disconnected clients' entries stay forever
W Deleting a client's entries on disconnect and adding a size metric for the map
T Heap snapshot diffs show what grows; guesses from warnings often do not

@ C perf rca
G Shrink the 2.3 GB Docker image of the API service
H The image contains the compiler toolchain and build-time packages because everything happens in one stage
A Moved to a multi-stage build that copies only the built virtualenv into a slim runtime image
P The runtime image is under 400 MB and the service starts normally
R 310 MB image; startup and smoke tests unchanged; pulls during deploys went from 70 s to 9 s
W Inspecting image layers with dive before changing anything
T Build in one stage, run from another

@ F perf te ms
G Fix the registration endpoint taking 30 seconds for some inputs
H The email uniqueness query is slow under load
A Timed the query separately for the slow inputs
P The query takes most of the 30 seconds
N Slow requests arrive in bursts from one IP range, all with local parts longer than 40 characters.
R The query took 3 ms; the CPU was pinned inside the re module
S The slow requests all had long email addresses without an @ sign
C The email validation regex has nested quantifiers, and non-matching inputs trigger catastrophic backtracking
W Replacing the regex with a simple structural check plus a length limit
T Nested quantifiers in regexes can take exponential time on non-matching input

@ C perf ca
G Speed up the ops CLI, which takes 2 seconds to print --help
H The entry point imports pandas and boto3 at module level, and only two subcommands use them
A Moved the heavy imports into the subcommands that need them and measured with python -X importtime
P --help takes under 300 ms
R --help in 180 ms; importtime showed pandas had cost 1.3 s of the 2 s
W Measuring with -X importtime before moving imports
T Import heavy modules where they are used in CLIs

@ F perf dc wa
G Improve the landing page's Largest Contentful Paint from 4.8 s
H The JavaScript bundle is too large and delays rendering
A Measured bundle size and its share of load time with Lighthouse
P Bundle parsing dominates the time to LCP
R Bundle was 180 KB and parsed quickly; the LCP element was a 6 MB PNG hero image
S One image outweighed all the scripts and styles together
C The hero image was uploaded as an uncompressed PNG and served without responsive variants
W Serving AVIF/WebP variants with srcset and preloading the hero
T Check what the LCP element is before optimising scripts

@ C perf rf
G Fix the slow customer detail page in the CRM, which takes 2 s on the contacts query
H contacts.customer_id has no index, since Postgres does not index foreign keys automatically, so the lookup scans 8 million rows
A Read the EXPLAIN output, then created the index concurrently
P The plan switches to an index scan and the query drops to milliseconds
R EXPLAIN showed Seq Scan before and Index Scan after; the query went from 1.9 s to 4 ms
W Reading EXPLAIN ANALYZE before adding anything
T Postgres does not index foreign key columns for you

@ A perf se
G Reduce the long GC pauses in the Java recommendation service
H The service allocates large temporary arrays that go straight to the old generation, and G1 pauses to collect them
A Started collecting GC logs with -Xlog:gc* during peak hours
P The logs show humongous allocations before the long pauses
R Abandoned: the service is being rewritten in the new platform next quarter and the pauses are within the SLO after a node upgrade

@ F perf ca ms
G Reduce the 4-second cold starts of the Python image-tagging Lambda
H The deployment package is too large, and unzipping it dominates the cold start
A Trimmed the package from 48 MB to 19 MB and measured cold starts again
P Cold starts drop considerably
R Cold starts went from 4.1 s to 3.9 s; the init phase was spent connecting to three services
S Package size barely mattered
C The module opens connections to the database, Redis and a model endpoint at import time, even for invocations that need none of them
W Creating connections lazily on first use
T Profile the init phase before shrinking packages

@ F dbg re wa
G Fix the signup form rejecting valid UK phone numbers
H The frontend strips the leading + before sending, so the backend sees an incomplete number
A Logged the raw value received by the backend
P The logged number lacks the +
R The backend received '+447911123456' intact and still rejected it
S An untouched, correctly formatted number failed validation
C The validation regex is ^\+?\d{10,11}$, written for US numbers; a UK mobile number in E.164 has 12 digits after the plus sign
W Validating with the phonenumbers library instead of a regex
T Phone number formats vary by country; use a library

@ C dbg rca
G Fix the failing deploy migration that renames the shipping address column
H The Alembic migration refers to 'shipping_adress', a typo that matches the column name created by an older migration, while the model uses 'shipping_address'
A Checked the column name in the production schema and the history of the migrations
P The production column is named shipping_adress, so the migration must rename from that spelling
N The deploy log says: column "shipping_address" does not exist.
R Production had shipping_adress from migration 0042; rewrote the migration to rename it properly and the deploy succeeded
W Checking the real schema rather than the model
T Migrations must be written against the schema that exists, typos included

@ F dbg se ov
G Fix CI jobs failing with 'No space left on device' on the self-hosted runner
H Old Docker images accumulate on the runner
A Ran docker system prune -a on the runner
P Free space goes back above 50 %
N The runner has a 100 GB disk shared by all jobs.
R Reclaimed 4 GB, still at 97 %; /tmp held 61 GB of pytest-of-runner directories
S Most of the disk was used by test temporary directories, not Docker
C pytest keeps the last three tmp_path base directories per user, and our large-file tests write 20 GB per run under a runner user that never gets cleaned
W Cleaning basetemp in the job and pointing --basetemp at the job workspace
T Check du on the whole disk before cleaning the usual suspect

@ F dbg ca wa
G Fix order lookups failing for new orders in the Java fulfilment client
H The client's JSON parser cannot handle the new order id format
A Parsed a new order's JSON with the same Jackson mapper in a test
P Parsing fails for the new id
R Parsing succeeded; the id came out as -2147483571
S A positive id from the API turned negative in our client
C Order ids passed 2,147,483,647 last week, and the client maps them to int, which overflows
W Changing the id field to long throughout the client
T Use 64-bit ids from the start

@ C dbg re
G Fix 'RecursionError: maximum recursion depth exceeded' when exporting category trees
H The category tree contains a cycle, a category set as its own ancestor, so the recursive serializer never terminates
A Searched for cycles with a recursive CTE and printed the path
P The CTE finds a cycle
N The export worked for every tenant except one.
R Found one: 'Garden' > 'Tools' > 'Garden'; fixed the data and added a check constraint on updates
W Reading the repeated frames in the traceback, which alternated between the same two ids
T A RecursionError in tree code is often a cycle in the data

@ F dbg rf mk
G Find the segfault in the XML ingest worker
H A known memory corruption bug in our lxml version is crashing the process
A Read lxml's changelog and upgraded to the latest release
P The crash stops after the upgrade
E The kernel's OOM killer terminates the worker || Checked dmesg for OOM killer messages at crash time || OOM messages at the crash times
R Still crashing; faulthandler showed a deep recursion in the parsing of one deeply nested document
S The crash only happened in worker threads; the same document parsed fine in the main thread
C Worker threads have a smaller stack than the main thread, and a 40,000-level nested document overflows it in the C recursion
W Enabling faulthandler and raising threading.stack_size for the workers, plus a depth limit on input
T Enable faulthandler to see where native crashes happen

@ C dbg ca
G Fix 'OSError: [Errno 24] Too many open files' in the crawler after a few hours
H Each fetch creates a new requests.Session that is never closed, leaking a socket per call
A Switched to one session per worker and checked open descriptors in /proc/<pid>/fd over time
P The descriptor count stays flat over hours
E The crawler opens its SQLite database per page and never closes it || Counted descriptors pointing at the database file in /proc/<pid>/fd || Most descriptors point at the database file
R Descriptor count stable at about 40 over 6 hours; before, it grew by about 300 per minute
W Watching the descriptor count while the crawler runs
T Create HTTP sessions once and close them

@ F dbg dc ov
G Make the nightly backup script in /etc/cron.daily actually run
H The cron daemon is not started in the container
A Checked the process list for crond
P crond is missing
R crond was running, and the other cron.daily scripts had run
S Only this one script was skipped, with nothing in the logs
C run-parts ignores files whose names contain a dot, and the script is called backup.sh
W Renaming it to backup and running run-parts --test /etc/cron.daily to see what it would execute
T run-parts --test shows which scripts will run

@ A dbg au
G Find the cause of intermittent 502 errors from the load balancer on the orders API
H The API's keep-alive timeout is shorter than the load balancer's, so the LB reuses connections the server already closed
A Asked the infrastructure team for the load balancer's idle timeout setting
P The LB's idle timeout is longer than our server's keep-alive timeout
R Abandoned: infrastructure is replacing the load balancer this month and asked us to revisit after the move

@ C dbg re
G Fix the NullPointerException in the Kotlin report service when a customer has no region
H The Java library's getRegion() returns a platform type, and Kotlin lets us call .name on it without a null check
A Declared the return as String? at the boundary and handled null with a default region
P Customers without a region generate reports with 'Unassigned'
R Reports for the 37 customers without a region now show 'Unassigned'; the stack trace pointed exactly at .name on getRegion()
W Reading the stack trace line that crossed from Kotlin into the Java API
T Annotate platform types at the Java boundary

@ F dbg ca wa
G Find why the pre-commit hooks do not run on my machine in the web repo
H pre-commit install was never run in this clone
A Ran pre-commit install and committed a file with trailing whitespace
P The commit is blocked by the whitespace hook
N Colleagues working on the same repository have working hooks.
R The commit went through; pre-commit install had reported success
S The hook file existed in .git/hooks and still did not run
C A company setup script had set core.hooksPath globally to ~/.githooks, so git ignored .git/hooks
W Checking git config --show-origin core.hooksPath
T A global core.hooksPath silently disables repository hooks

@ F dbg se env
G Let the app container reach the database running on the host during local development on Linux
H Name resolution inside the container is broken, so host.docker.internal fails
A Checked resolv.conf and resolved other names from inside the container
P Other names also fail to resolve
R Other names resolved fine; only host.docker.internal was unknown
S A name that works for every macOS colleague does not exist on my machine
C host.docker.internal is provided by Docker Desktop; on Linux Docker Engine it must be added with extra_hosts: host.docker.internal:host-gateway
W Adding the extra_hosts entry to the compose file
T Docker Desktop conveniences do not exist on Linux Docker Engine

@ C dbg rca
G Fix the frontend production build failing with 'JavaScript heap out of memory'
H Generating full source maps for the 9 MB vendor chunk exceeds Node's default heap
A Switched vendor chunks to hidden source maps without content and raised max-old-space-size to 4096 for the build
P The build completes and peaks below 3 GB
R Build completed with a 2.6 GB peak; disabling vendor source maps alone brought it to 3.1 GB
W Measuring peak memory with /usr/bin/time -v
T Source maps for large vendor bundles are expensive

@ F dbg re mk
G Fix FileNotFoundError from subprocess.run in the deploy helper
H The PATH inside the deploy container lacks /usr/local/bin, where kubectl lives
A Printed os.environ['PATH'] and ran which kubectl in the container
P kubectl is not on PATH
R kubectl was on PATH; the error named the file 'kubectl apply -f deploy.yaml'
S The missing file was the whole command line
C subprocess.run was given a single string without shell=True, so the entire string is taken as the program name
W Passing the command as a list
T Pass argument lists to subprocess

@ C dbg ca
G Stop large file uploads to the Django app being cut off after 30 seconds
H Gunicorn's sync workers with the default 30 s timeout kill workers that are still receiving a slow upload
A Moved uploads to presigned S3 URLs and kept gunicorn's timeout for normal requests
P A 2 GB upload over a throttled connection completes
E nginx's proxy_read_timeout of 30 s cuts the upload off || Raised proxy_read_timeout to 300 s || Uploads complete
R The 2 GB upload completed in 11 minutes; gunicorn logs had shown 'WORKER TIMEOUT' for every cut-off upload
W Reading gunicorn's logs next to the client error
T Do not stream large uploads through sync workers

@ F dbg se wa
G Fix the search-indexer pod stuck in CrashLoopBackOff after the cluster upgrade
H The pod is OOM-killed because the new nodes have less memory
A Checked kubectl describe pod for the termination reason
P The reason is OOMKilled
N The upgrade also moved nodes to a newer kernel; memory per node is unchanged.
R Terminated with exit code 137 due to failed liveness probes, not OOM
S The container was killed while it was still warming up
C The liveness probe hits /health, which waits for the index to load (about 40 s), with initialDelaySeconds 10 and failureThreshold 3
W Adding a startupProbe with enough time for the warm-up
T Use startup probes for slow-starting services

@ C tst cs
G Harden the price parser with property-based tests
H Hypothesis strategies like the ones in the tax module's tests will find inputs our examples miss, particularly signs and separators
A Copied the strategy setup from the tax tests and wrote properties for round-tripping format and parse
P Hypothesis finds at least one failing input or the properties hold for 10,000 examples
R Found '-0.00' formatting as '-0.00' and parsing to 0.00, breaking the round trip; fixed and the properties hold
W Reusing strategies from a sibling test module
T Round-trip properties find edge cases quickly

@ F tst ca wa
G Fix the coverage report showing 0 % for the billing package
H pytest-cov does not measure code run in subprocesses, and billing runs in a worker process
A Enabled subprocess coverage with coverage's process startup hook
P Billing's coverage rises above zero
E The .coveragerc source setting still points at the old src/ layout || Updated source to the billing package || Coverage appears
R Still 0 %; the report listed files under site-packages/billing
S Coverage measured a different copy of the package than the source tree
C The CI job installs the package non-editable, so tests import the installed copy and the source paths never match
W Using an editable install in CI and setting [paths] in the coverage config
T Check which copy of the code your tests import

@ C tst rf
G Set up contract tests between the web frontend and the orders API
H Consumer-driven contracts with Pact catch the breaking field renames we shipped twice last quarter
A Wrote Pact consumer tests in the frontend, published to a broker, and added provider verification in the API's CI
P Renaming a field in the API makes the provider verification fail
R Renaming total to amount made provider verification fail in CI, naming the consumer interaction
W Reading Pact's docs on broker setup before starting
T Contracts catch what integration tests skip

@ F tst te ov
G Kill the surviving mutants in the discount calculator reported by mutmut
H The tests lack boundary cases at the 100 euro threshold
A Added tests for 99.99, 100.00 and 100.01
P The surviving mutants are killed
R Still 6 survivors, all in the legacy_rounding branch
S The new boundary tests killed nothing
C The surviving mutants were in a branch that can never execute since the currency table change, so no test could kill them
W Deleting the unreachable branch after confirming with coverage
T Surviving mutants in unreachable code point at dead code, not missing tests

@ A tst au
G Add end-to-end tests for the onboarding flow
H Playwright tests for the five onboarding steps would catch regressions in the signup funnel
A Asked the designer whether the flow is stable enough to test
P The flow is final
R Abandoned: the onboarding flow is being redesigned next sprint; will write the tests against the new design

@ C tst ca
G Cover the tax calculation for all five launch countries
H The current tests only cover Germany, and the French reduced rate for books is handled by the same code path, so parametrising over country and product category will expose gaps
A Parametrised the tests over country and category with expected rates from the finance sheet
P Either all 40 cases pass or failures show specific missing rules
R 38 passed; Austria's reduced rate for books was missing from the rules table, added it
W Taking expected values from finance, not from the code
T Expected values in tests must come from outside the code under test

@ C cfg rf
G Set up pre-commit hooks with ruff and mypy for the data tools repo
H Running ruff and mypy via pre-commit catches most review comments about style and types before they reach review
A Read ruff's pre-commit docs, added hooks and fixed existing violations in one commit
P New commits need no style comments in review
R Review comments about style dropped to zero in the next 12 pull requests
W Fixing all existing violations in one commit
T Automate style so reviews can focus on behaviour

@ F cfg ca wa
G Get Renovate to group all eslint-related updates into one pull request
H A packageRules entry with matchPackagePatterns: ['eslint'] groups them
A Added the rule to .github/renovate.json5 and waited for the next run
P One grouped PR for eslint packages
R Renovate still opened separate PRs; its log said it used renovate.json
S Renovate never read the file I edited
C The repository has both renovate.json at the root and .github/renovate.json5, and Renovate uses the first it finds
W Merging the configs into one file
T Check which config file a tool actually reads

@ C cfg se
G Stop the worker's log file filling the disk
H logrotate is not configured for /var/log/worker.log, and the worker keeps the file open, so rotation needs copytruncate
A Added a logrotate config with daily rotation, 7 files, compression and copytruncate
P The log rotates daily and disk usage stays flat
R Rotated the next night; usage stable over a week
W Choosing copytruncate because the worker does not reopen its log
T Rotation needs either a reopen signal or copytruncate

@ F cfg te mk
G Find why the integration test job did not run on my pull request
H The job's if condition excludes pull requests from forks
A Opened the PR from a branch in the main repository instead
P The job runs
R It still did not run; the workflow was not triggered at all
S No workflow run existed for that commit
C The workflow has a paths filter covering src/** only, and my change touched only config/
W Adding config/** to the paths filter
T Path filters skip whole workflows silently

@ A cfg au
G Move CI from Jenkins to GitHub Actions
H The three Jenkins pipelines map to Actions workflows with self-hosted runners for the GPU jobs
A Asked the platform team about self-hosted runner support
P Platform team can provide runners
R Abandoned: the platform team is standardising on GitLab CI next year, so the migration is on hold

@ C cfg ca
G Reduce the transfer size of the API's large JSON responses
H nginx's gzip directive is on, but gzip_types does not include application/json, so JSON goes uncompressed
A Added application/json to gzip_types and checked responses with curl --compressed
P The JSON responses come back with Content-Encoding: gzip and a fraction of the size
R Content-Encoding: gzip present; the 1.2 MB catalogue response dropped to 140 KB
W Checking response headers for Content-Encoding
T gzip_types defaults to text/html only

@ F cfg rca ov
G Find why terraform plan wants to replace the production RDS instance
H The AWS provider upgrade changed a default attribute
A Reviewed the plan output and the provider changelog
P The replacement is caused by a provider default
N The plan ran on main, which already included the teammate's module change.
R The plan showed 'snapshot_identifier forces replacement'
S A change in our own code forced replacement
C A teammate added snapshot_identifier to the shared module for a staging restore, and any change to it forces replacement
W Moving the restore to a separate module and adding a prevent_destroy lifecycle rule
T Read which attribute forces replacement in the plan

@ C int rf
G Send deployment alerts to Slack with buttons for rollback
H Slack's Block Kit with an interactive button and a signed request endpoint can trigger our rollback API
A Read the Block Kit and interactivity docs, built the message and the endpoint with signature verification
P Clicking Rollback in Slack triggers the rollback and updates the message
R Clicking triggered a rollback in staging and the message showed who clicked
W Following Slack's request signing guide
T Verify Slack's signature on every interactive request

@ F int re wa
G Make SMS appointment reminders sent through Twilio reach customers' phones
H The numbers stored from the signup form lack the E.164 + prefix, so Twilio cannot route them
A Logged the exact To values passed to messages.create for the last 30 failed sends
P The logged numbers have no leading + and country code
R All 30 were valid E.164 numbers like +4915112345678; Twilio answered each with error 21608
S The error had nothing to do with number formatting; it was about our account
C The production Twilio credentials still belong to a trial account, which may only send to verified caller ids
W Looking up the error code in Twilio's reference before changing any formatting code, then upgrading the account
T Look up a provider's error code before theorising about your input

@ C int ca
G Keep the calendar sync working after users' Google access tokens expire after one hour
H Our OAuth consent URL omits access_type=offline, so Google never returns a refresh token and the sync stops when the access token expires
A Added access_type=offline and prompt=consent to the authorisation URL and reconnected a test account
P The token response contains a refresh_token, and the sync keeps running two hours after connecting
R The response included refresh_token; the test account synced normally for three hours, refreshing twice
W Inspecting the raw token response instead of our stored credentials
T Google issues refresh tokens only for offline access, and often only on first consent

@ F int dc ms
G Fix GitHub webhook deliveries to the deploy bot failing for some pushes
H The bot's Flask handler rejects payloads above its configured MAX_CONTENT_LENGTH
A Posted a recorded 3 MB push payload straight to the bot's port, bypassing the proxy
P The bot answers 413 for the large payload
N Every failing delivery in GitHub's log had a payload over 1 MB.
R The bot accepted it with 200; through nginx the same payload got 413 Request Entity Too Large
S The rejection came from the proxy in front of the bot, not from the bot
C nginx's client_max_body_size defaults to 1 MB, and pushes with many commits or large diffs produce bigger payloads
W Testing each hop separately, then raising client_max_body_size in the webhook location
T When a request fails, test every hop on its path on its own

@ A int au
G Create sales orders in the customer's SAP system from our order platform
H BAPI_SALESORDER_CREATEFROMDAT2 called through the SAP RFC connector for Python covers their order creation, including partner functions
A Asked the customer's SAP team for RFC credentials and access to their QA system
P We get a QA system and can create a test order
R Abandoned: the customer's SAP team is moving to the S/4HANA REST APIs next year and asked us to wait rather than build on RFC

@ C int rf
G Stop the checkout's gRPC calls to the inventory service hanging for minutes when inventory is slow
H The Go client sets no deadline on its context, so calls wait until the TCP connection dies
A Read the gRPC deadline guidance and wrapped each call in context.WithTimeout of 800 ms with a fallback to cached availability
P During an injected 5 s inventory delay, checkout calls fail over after 800 ms with DEADLINE_EXCEEDED
R With the delay injected, calls returned DEADLINE_EXCEEDED after 801-812 ms and checkout used cached availability
W Injecting latency with a fault proxy to test the fallback
T Every RPC needs a deadline; the default is none

@ F int ca wa
G Import the delivery zones from the logistics partner's GeoJSON into PostGIS
H The geometries land in the wrong place because the SRID is set to something other than 4326
A Checked ST_SRID on the imported geometries
P The SRID differs from 4326
N Zones for Munich and Hamburg also showed up at sea.
R SRID was 4326, but Berlin's zone appeared in the Indian Ocean near 13 N, 52 E
S The coordinates were mirrored: latitude and longitude had swapped places
C GeoJSON orders positions as longitude, latitude, while our importer built points with ST_MakePoint(lat, lon)
W Using ST_GeomFromGeoJSON on the geometry objects instead of building points by hand
T GeoJSON is longitude first

@ F dbg rf mk
G Fix the "Can't perform a React state update on an unmounted component" warning on the live metrics dashboard
H The websocket subscription opened in MetricsPanel is never closed when the panel unmounts
A Added an unsubscribe call to the effect's cleanup and navigated away from the dashboard ten times
P The warning no longer appears after navigating away
R The warning still appeared about five seconds after each navigation, raised from refreshStats
S The late update came from a timer firing every five seconds, not from the socket
C A second useEffect starts setInterval(refreshStats, 5000) and returns no cleanup, so the interval keeps calling setState after unmount
W Returning () => clearInterval(id) from the effect and auditing the other effects for the same pattern
T Every effect that schedules work must return a cleanup that cancels it

@ C ref rf
G Move invoice PDF rendering out of the Django web process into a background worker
H Rendering with headless Chrome inside request handlers occupies a gunicorn worker for 2-3 s per invoice, which is what drives the web p99 up at month end
A Read the RQ docs and moved rendering into a worker fed by a queue, with the web view returning 202 and a polling URL
P Web p99 latency at month end drops below 300 ms while invoices still render within a minute
R p99 fell from 2.3 s to 180 ms during the month-end run; all 4,200 invoices rendered, the slowest after 41 s
W Measuring p99 during the real month-end peak before and after
T Keep seconds-long rendering off the request path

@ F fea ca wa
G Add PDF export of order summaries to the customer portal
H WeasyPrint renders our existing HTML summary template the way it looks in the browser
A Rendered three order summaries with HTML(string=html).write_pdf()
P The PDFs match the browser rendering, logos and product images included
R Text and layout matched, but every image and the logo were missing
S WeasyPrint logged nothing louder than a warning, while every image had vanished
C The template uses relative image URLs, and HTML(string=...) has no base URL to resolve them against
W Passing base_url=request.build_absolute_uri('/') and promoting WeasyPrint's URL warnings to errors in tests
T A renderer given a string needs to be told its base URL

@ C sec ca
G Add TOTP two-factor authentication to the admin panel
H pyotp's verify with valid_window=1 accepts codes from phones whose clocks are off by up to 30 s, which covers the drift we see on staff phones
A Implemented enrolment with a QR code and verification with valid_window=1, and tested with a phone whose clock was set 20 s and 2 minutes off
P The 20 s-off phone's codes are accepted and the 2 minute-off phone's codes are rejected
R 20 s skew accepted, 2 min skew rejected with 'invalid code'; enrolment and recovery codes work
W Testing with a deliberately skewed phone clock
T Allow one TOTP step of drift and no more

@ F tst se ws
G Explain the 5 % error rate in the Locust load test of the search API at 800 users
H The search API returns 5xx errors when its thread pool saturates
A Compared the API's access logs with the failures Locust reported during the run
P The API logs show 5xx responses matching Locust's failures
N Errors appear only above 700 users, and all are ConnectionError on the Locust side.
R The API logged no 5xx at all, and fewer requests than Locust claimed to send
S The failed requests never reached the API
C The single Locust worker machine hit its open-file limit of 1024, so new connections failed with 'Too many open files' on the generator
W Raising ulimit -n on the load generator and spreading users over four workers
T Check the load generator's own limits before blaming the system under test
"""


# -- parsing ----------------------------------------------------------------------

_FIELDS = {"G": "goal", "H": "hypothesis", "A": "action", "P": "prediction", "R": "result",
           "S": "surprise", "C": "cause", "W": "what_worked", "T": "takeaway"}


def parse_blocks(text: str, theme: str) -> list[dict]:
    """The entries written in `text` (the block format of the module docstring), each tagged with `theme`."""
    entries: list[dict] = []
    for line in text.strip().splitlines():
        line = line.rstrip()
        if not line:
            continue
        if line.startswith("@ "):
            codes = line[2:].split()
            entry = {"theme": theme, "status": STATUSES[codes[0]], "domain": DOMAINS[codes[1]],
                     "strategy": STRATEGIES[codes[2]],
                     "category": CATEGORIES[codes[3]] if len(codes) > 3 else None,
                     "history": [], "notes": []}
            entries.append(entry)
            continue
        key, _, value = line.partition(" ")
        entry = entries[-1]
        if key == "E":
            hypothesis, action, prediction = (part.strip() for part in value.split("||"))
            entry["history"].append({"hypothesis": hypothesis, "action": action, "prediction": prediction})
        elif key == "N":
            entry["notes"].append(value.strip())
        else:
            name = _FIELDS[key]
            if name in entry:
                raise ValueError(f"{theme}: {name} given twice in {entry.get('goal')!r}")
            entry[name] = value.strip()
    for entry in entries:
        where = f"{theme}: {entry.get('goal')!r}"
        for name in ("goal", "hypothesis", "action", "prediction", "result"):
            if not entry.get(name):
                raise ValueError(f"{where}: missing {name}")
        falsified = entry["status"] == "falsified"
        if falsified != bool(entry.get("surprise")) or falsified != bool(entry.get("cause")):
            raise ValueError(f"{where}: surprise and cause belong to falsified entries only")
        if falsified != (entry["category"] is not None):
            raise ValueError(f"{where}: a root-cause category belongs to falsified entries only")
        if entry.get("takeaway") and not entry.get("what_worked"):
            raise ValueError(f"{where}: takeaway without what_worked")
    return entries


# -- sessions and times -------------------------------------------------------------

FIRST_DAY = datetime(2025, 9, 1)  # a Monday
WEEKS = 12
SESSIONS = 60
WEEKEND_SESSIONS = 6


def session_days(rng: random.Random) -> list[datetime]:
    """60 distinct days in the 12 weeks from FIRST_DAY, mostly weekdays."""
    days = [FIRST_DAY + timedelta(days=offset) for offset in range(WEEKS * 7)]
    weekdays = [day for day in days if day.weekday() < 5]
    weekends = [day for day in days if day.weekday() >= 5]
    chosen = rng.sample(weekdays, SESSIONS - WEEKEND_SESSIONS) + rng.sample(weekends, WEEKEND_SESSIONS)
    return sorted(chosen)


def session_sizes(rng: random.Random, total: int) -> list[int]:
    """How many entries each session holds: 2 to 10, summing to `total`."""
    sizes = [total // SESSIONS] * SESSIONS
    for index in range(total - sum(sizes)):
        sizes[index] += 1
    for _ in range(400):
        give, take = rng.randrange(SESSIONS), rng.randrange(SESSIONS)
        if give != take and sizes[give] > 2 and sizes[take] < 10:
            sizes[give] -= 1
            sizes[take] += 1
    return sizes


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def hex6(rng: random.Random) -> str:
    return f"{rng.getrandbits(24):06x}"


# -- assembly ---------------------------------------------------------------------


def build(rng: random.Random) -> tuple[list[dict], dict[str, str]]:
    """The corpus as entry-format dicts, oldest first, and the theme of each id."""
    written = [entry for theme, text in THEMES.items() for entry in parse_blocks(text, theme)]
    written += parse_blocks(NOISE, "noise")
    rng.shuffle(written)

    entries: list[dict] = []
    themes: dict[str, str] = {}
    used_ids: set[str] = set()
    position = 0
    for day, size in zip(session_days(rng), session_sizes(rng, len(written))):
        start = day + timedelta(hours=rng.randint(7, 14), minutes=rng.randrange(60), seconds=rng.randrange(60))
        session_id = f"session_{start:%Y%m%d_%H%M%S}_{hex6(rng)}"
        clock = start + timedelta(minutes=rng.randint(1, 12), seconds=rng.randrange(60))
        for written_entry in written[position:position + size]:
            created = clock
            steps = []  # when each triple (earlier ones, then the current one) was set
            moment = created
            for _ in range(len(written_entry["history"]) + 1):
                steps.append(moment)
                moment += timedelta(minutes=rng.randint(4, 35), seconds=rng.randrange(60))
            captured = moment
            entry_id = f"ghap_{created:%Y%m%d_%H%M%S}_{hex6(rng)}"
            while entry_id in used_ids:
                entry_id = f"ghap_{created:%Y%m%d_%H%M%S}_{hex6(rng)}"
            used_ids.add(entry_id)
            entries.append(entry_json(written_entry, entry_id, session_id, steps, captured, rng))
            themes[entry_id] = written_entry["theme"]
            clock = captured + timedelta(minutes=rng.randint(1, 25), seconds=rng.randrange(60))
        position += size
    assert position == len(written)
    return entries, themes


def entry_json(written: dict, entry_id: str, session_id: str, steps: list[datetime], captured: datetime,
               rng: random.Random) -> dict:
    """One entry in the export/import format of GHAP.md (no confidence_tier: the importer computes it)."""
    status = written["status"]
    falsified = status == "falsified"
    history = [{"timestamp": stamp(moment), **triple} for moment, triple in zip(steps, written["history"])]
    lesson = None
    if written.get("what_worked"):
        # Not every agent writes a takeaway: keep about 70 % of them.
        takeaway = written.get("takeaway") if rng.random() < 0.7 else None
        lesson = {"what_worked": written["what_worked"], "takeaway": takeaway}
    return {
        "id": entry_id,
        "session_id": session_id,
        "created_at": stamp(steps[0]),
        "domain": written["domain"],
        "strategy": written["strategy"],
        "goal": written["goal"],
        "hypothesis": written["hypothesis"],
        "action": written["action"],
        "prediction": written["prediction"],
        "history": history,
        "iteration_count": len(history) + 1,
        "notes": written["notes"],
        "outcome": {
            "status": status,
            "result": written["result"],
            "captured_at": stamp(captured),
            # Gold entries: outcomes taken from a test or build run; abandoned ones never are.
            "auto_captured": status != "abandoned" and rng.random() < 0.35,
        },
        "surprise": written.get("surprise") if falsified else None,
        "root_cause": {"category": written["category"], "description": written["cause"]} if falsified else None,
        "lesson": lesson,
    }


def main() -> None:
    rng = random.Random(SEED)
    entries, themes = build(rng)
    used_domains = {entry["domain"] for entry in entries}
    used_strategies = {entry["strategy"] for entry in entries}
    assert used_domains == set(DOMAINS.values()), set(DOMAINS.values()) - used_domains
    assert used_strategies == set(STRATEGIES.values()), set(STRATEGIES.values()) - used_strategies
    with open(HERE / "experiences.jsonl", "w", encoding="utf-8", newline="\n") as out:
        out.writelines(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries)
    with open(HERE / "experiences_themes.json", "w", encoding="utf-8", newline="\n") as out:
        out.write(json.dumps(themes, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(entries)} entries in {len({e['session_id'] for e in entries})} sessions to {HERE}")


if __name__ == "__main__":
    main()
