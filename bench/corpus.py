"""A deterministic corpus of agent memories, queries and code chunks.

Memories are the kind of thing a coding agent is told or learns about the
projects it works on: facts (ports, config files, datastores), decisions
(library A over B, and why), preferences (style, tooling) and corrections of
earlier notes. They are generated from templates and vocabularies with a
seeded random generator, so every run produces the same texts.

Two layers:

* **base** memories: each fills one template's slots independently. The
  first `n_base` memories of every corpus are base memories; these are the
  only corpus texts embedded with the real model.
* **derived** memories (index >= n_base): a copy of a random base memory
  (its *parent*) with a lead-in ("Note: ", "Reminder: ") and a provenance
  clause ("(seen in ORION-4821, deploy/values.yaml, 2024-03-07)") that makes
  it distinct. Their vectors are derived from the parent's (see
  `bench.vectors`), which is why the parent index is kept.

Generation is sequential, so `memories(n)` is a prefix of `memories(m)` for
n < m: the 1k corpus is the first thousand memories of the 100k one.

Queries are paraphrase-style questions about one target memory (always a
base memory with index < `QUERY_TARGET_RANGE`, so every target exists at
every corpus size), built from per-template question patterns that reuse
the target's slot values but not its wording.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

SEED = 20240611
N_BASE = 2000
QUERY_TARGET_RANGE = 1000  # targets are drawn from the first 1000 memories (present at every size)

# ------------------------------------------------------------------ vocabularies

PROJECTS = [
    "atlas", "billing-api", "checkout", "orion", "harbor", "nimbus", "ledger", "pulse",
    "quartz", "relay", "sentinel", "tundra", "vega", "zephyr", "mosaic", "beacon",
    "cascade", "drift", "ember", "falcon", "granite", "helix", "ion", "juniper",
    "kestrel", "lumen", "meridian", "nova", "onyx", "prism",
]
SERVICES = [
    "auth service", "payment worker", "search indexer", "notification queue", "session store",
    "rate limiter", "config loader", "migration runner", "webhook dispatcher", "report generator",
    "image resizer", "feature-flag client", "audit logger", "cache layer", "API gateway",
    "job scheduler", "email sender", "CSV importer", "metrics exporter", "GraphQL resolver",
    "command-line tool", "admin dashboard", "billing cron job", "event consumer", "PDF renderer",
    "sync daemon", "upload handler", "permission checker", "data exporter", "health check endpoint",
]
DATASTORES = [
    "PostgreSQL 15", "PostgreSQL 16", "MySQL 8", "Redis 7", "SQLite", "DuckDB", "MongoDB",
    "DynamoDB", "Elasticsearch", "ClickHouse", "Kafka", "RabbitMQ", "S3", "Cassandra",
]
THINGS = [
    "user sessions", "audit events", "invoices", "feature flags", "cached search results",
    "background job state", "uploaded file metadata", "rate-limit counters", "API keys",
    "email templates", "webhook deliveries", "nightly report snapshots",
]
ENV_VARS = [
    "DATABASE_URL", "REDIS_URL", "APP_ENV", "SECRET_KEY", "SENTRY_DSN", "S3_BUCKET",
    "KAFKA_BROKERS", "LOG_LEVEL", "FEATURE_FLAGS_URL", "SMTP_HOST",
]
CONFIG_PATHS = [
    "config/settings.toml", "src/config.py", ".env.example", "deploy/values.yaml",
    "pyproject.toml", "app/core/settings.py", "infra/main.tf", "docker-compose.yml",
    "config/production.yaml", "settings/base.json",
]
TEST_RUNNERS = [
    ("pytest", "pytest -x -q"), ("pytest with xdist", "pytest -n auto"), ("tox", "tox -e py312"),
    ("nox", "nox -s tests"), ("jest", "npm test"), ("vitest", "pnpm vitest run"),
    ("cargo test", "cargo test --workspace"), ("go test", "go test ./..."), ("make", "make test"),
]
LIB_CHOICES = [  # (chosen, alternative, purpose)
    ("httpx", "requests", "HTTP calls"), ("pydantic v2", "marshmallow", "input validation"),
    ("SQLAlchemy 2", "raw psycopg", "database access"), ("structlog", "the stdlib logging module", "logging"),
    ("FastAPI", "Flask", "the HTTP API"), ("Celery", "RQ", "background jobs"),
    ("orjson", "the json module", "serialisation"), ("polars", "pandas", "dataframes"),
    ("alembic", "hand-written SQL scripts", "schema migrations"), ("dataclasses", "attrs", "value objects"),
    ("click", "argparse", "the command line"), ("tenacity", "hand-rolled retry loops", "retries"),
    ("OpenTelemetry", "statsd", "metrics"), ("GitHub Actions", "Jenkins", "continuous integration"),
    ("Argon2", "bcrypt", "password hashing"), ("short-lived JWTs", "server-side sessions", "auth tokens"),
    ("gRPC", "REST", "service-to-service calls"), ("Redis streams", "Kafka", "the event bus"),
    ("Vite", "webpack", "frontend bundling"), ("uv", "pip-tools", "dependency locking"),
]
REASONS = [
    "it was measurably faster in our benchmarks", "the old one is unmaintained", "it has proper type hints",
    "the team already knows it", "it removes a C dependency", "it supports async natively",
    "it halved our CI time", "its error messages are clearer", "its licence is compatible with ours",
    "it works offline", "it uses far less memory", "upgrades of the old one kept breaking the build",
]
PEOPLE = [
    "Alice", "Bob", "Chen", "Dana", "Eli", "Farah", "Goran", "Hana", "Ivan", "Jun",
    "the platform team", "the data team", "the mobile team", "the SRE team",
]
STYLES = [  # (style, detail)
    ("type hints on every public function", "mypy runs in strict mode in CI"),
    ("small pull requests", "anything over 400 changed lines gets split"),
    ("f-strings", "no percent formatting and no str.format"),
    ("pathlib", "never os.path for new code"),
    ("explicit imports", "wildcard imports fail review"),
    ("early returns", "avoid nesting deeper than three levels"),
    ("Google-style docstrings", "every public function documents its errors"),
    ("frozen dataclasses for results", "no dicts crossing module boundaries"),
    ("tests next to the bug fix", "every fix ships with a regression test"),
    ("descriptive variable names", "no single-letter names outside comprehensions"),
    ("logging over print", "print statements are removed before merge"),
    ("keyword-only arguments", "for any function with more than two parameters"),
]
FORMATTERS = ["ruff format", "black", "prettier", "gofmt", "rustfmt", "clang-format"]
LINTERS = ["ruff", "flake8", "pylint", "eslint", "golangci-lint", "cargo clippy", "mypy", "pyright"]
COMMIT_RULES = [
    "follow Conventional Commits (feat:, fix:, chore:)", "start with the ticket id",
    "use the imperative mood and stay under 72 characters", "explain the why in the body",
    "be squashed into one commit per pull request", "mention the affected service in brackets",
]
DEPLOY_METHODS = [
    "Helm charts", "Terraform", "docker compose", "a blue-green deploy script", "Argo CD",
    "a GitHub Actions workflow", "Ansible playbooks", "Kubernetes manifests applied by CI",
]
DAYS = ["Friday", "Monday morning", "weekend", "public holiday", "release-freeze day"]
CI_SYSTEMS = ["GitHub Actions", "GitLab CI", "Jenkins", "CircleCI", "Buildkite", "Drone"]
ERRORS = [
    "a KeyError", "a connection refused error", "an ImportError", "a timeout", "a permission denied error",
    "an SSL handshake failure", "an out-of-memory kill", "a UnicodeDecodeError",
]
LIBS_PINNED = [
    ("numpy", "1.26"), ("pydantic", "2.7"), ("SQLAlchemy", "2.0.30"), ("urllib3", "1.26"),
    ("protobuf", "4.25"), ("Django", "4.2"), ("celery", "5.3"), ("boto3", "1.34"), ("react", "18.2"),
    ("typescript", "5.4"), ("tokio", "1.37"), ("grpcio", "1.62"),
]
QUARTERS = ["the end of Q1", "the end of Q2", "the end of Q3", "the end of Q4", "next sprint", "the summer release"]
LEAD_INS = ["Note: ", "Reminder: ", "FYI ", "Team note: ", "Learned today: ", "Remember that ", ""]

# ------------------------------------------------------------------ templates


@dataclass(frozen=True)
class Template:
    """One memory shape: its category, topic tag, text pattern and question patterns."""

    category: str
    topic: str
    text: str
    questions: tuple[str, ...]


TEMPLATES: tuple[Template, ...] = (
    # facts
    Template("fact", "config", "The {service} in {project} reads its configuration from {path} at startup.",
             ("where does the {service} of {project} load its settings from?",
              "which file configures {project}'s {service}?")),
    Template("fact", "database", "{project} stores {thing} in {datastore}; the connection string is in the {env} environment variable.",
             ("what database holds {thing} for {project}?", "where are {thing} kept in {project}?")),
    Template("fact", "testing", "The {project} test suite takes about {minutes} minutes with {runner}; run it with `{cmd}`.",
             ("how long do the {project} tests take to run?", "what command runs the tests of {project}?")),
    Template("fact", "network", "In {project}, the {service} listens on port {port} and gives up after {timeout} seconds.",
             ("what port does {project}'s {service} use?", "what is the timeout of the {service} in {project}?")),
    # decisions
    Template("decision", "dependencies", "We decided to use {lib} instead of {alt} for {purpose} in {project} because {reason}.",
             ("why did {project} pick {lib} over {alt}?", "what library does {project} use for {purpose}?")),
    Template("decision", "architecture", "Decision for {project}: the {service} moves to {datastore} by {quarter}; {person} owns the migration.",
             ("who is migrating the {service} of {project}?", "what is {project}'s {service} being moved to?")),
    Template("decision", "dependencies", "{project} pins {pinned} to {version} until the upstream regression is fixed.",
             ("why is {pinned} held back in {project}?", "which {pinned} version must {project} stay on?")),
    Template("decision", "deploy", "We agreed that {project} is deployed with {deploy} and never on a {day}.",
             ("how do we ship {project} to production?", "when is deploying {project} not allowed?")),
    # preferences
    Template("preference", "style", "{person} prefers {style} in {project}: {detail}.",
             ("what coding conventions does {person} expect on {project}?", "how should code for {project} be written?")),
    Template("preference", "tooling", "For {project}, format code with {formatter} and lint with {linter}; do not add other formatters.",
             ("which formatter should I run on {project}?", "what linter does {project} use?")),
    Template("preference", "git", "{person} wants commit messages in {project} to {commit_rule}.",
             ("how should commit messages look in {project}?", "what commit message convention does {project} follow?")),
    Template("preference", "dependencies", "In {project}, prefer {lib} over {alt} for {purpose}; {person} rejects pull requests that add {alt}.",
             ("can I use {alt} in {project}?", "is {alt} allowed for {purpose} in {project}?")),
    # corrections
    Template("correction", "database", "Correction: the {service} in {project} does not use {wrong_datastore}; it has used {datastore} since last year.",
             ("which datastore does the {service} of {project} really use?", "does {project}'s {service} run on {wrong_datastore}?")),
    Template("correction", "ci", "The earlier note was wrong: {project}'s pipelines run on {ci}, not on {wrong_ci}.",
             ("what CI system builds {project}?", "is {project} built on {wrong_ci}?")),
    Template("correction", "config", "Correction: {env} must be set before starting {project}, otherwise the {service} crashes with {error}.",
             ("why does the {service} in {project} crash with {error}?", "what environment variable does {project} need at startup?")),
    Template("correction", "reliability", "Fix to an earlier memory: the {service} in {project} retries {retries} times with exponential backoff, not {wrong_retries}.",
             ("how many retries does {project}'s {service} make?", "what is the retry policy of the {service} in {project}?")),
)


def _slots(rng: random.Random) -> dict[str, str]:
    """Draw a value for every slot any template may use."""
    lib, alt, purpose = rng.choice(LIB_CHOICES)
    runner, cmd = rng.choice(TEST_RUNNERS)
    style, detail = rng.choice(STYLES)
    pinned, version = rng.choice(LIBS_PINNED)
    datastore, wrong_datastore = rng.sample(DATASTORES, 2)
    ci, wrong_ci = rng.sample(CI_SYSTEMS, 2)
    retries = rng.randint(2, 8)
    return {
        "project": rng.choice(PROJECTS), "service": rng.choice(SERVICES), "path": rng.choice(CONFIG_PATHS),
        "thing": rng.choice(THINGS), "datastore": datastore, "wrong_datastore": wrong_datastore,
        "env": rng.choice(ENV_VARS), "minutes": str(rng.randint(2, 45)), "runner": runner, "cmd": cmd,
        "port": str(rng.choice([8000, 8080, 8443, 9000, 5432, 6379, 3000, 5000]) + rng.randint(0, 9)),
        "timeout": str(rng.choice([5, 10, 15, 30, 60, 120])), "lib": lib, "alt": alt, "purpose": purpose,
        "reason": rng.choice(REASONS), "quarter": rng.choice(QUARTERS), "person": rng.choice(PEOPLE),
        "pinned": pinned, "version": version, "deploy": rng.choice(DEPLOY_METHODS), "day": rng.choice(DAYS),
        "style": style, "detail": detail, "formatter": rng.choice(FORMATTERS), "linter": rng.choice(LINTERS),
        "commit_rule": rng.choice(COMMIT_RULES), "ci": ci, "wrong_ci": wrong_ci,
        "error": rng.choice(ERRORS), "retries": str(retries), "wrong_retries": str(retries + rng.randint(1, 4)),
    }


# ------------------------------------------------------------------ memories


@dataclass
class Corpus:
    """Memories in storage order, with what is needed to derive vectors and queries."""

    records: list[dict] = field(default_factory=list)  # store_memories() input dicts
    parents: list[int] = field(default_factory=list)  # index of the base memory each one comes from
    template_ids: list[int] = field(default_factory=list)
    slots: list[dict[str, str]] = field(default_factory=list)  # base memories only
    n_base: int = N_BASE

    @property
    def texts(self) -> list[str]:
        return [r["content"] for r in self.records]


def _record(content: str, template: Template, slots: dict[str, str], rng: random.Random) -> dict:
    return {
        "content": content,
        "category": template.category,
        "importance": round(rng.uniform(0.2, 1.0), 2),
        "tags": [slots["project"], template.topic],
    }


def memories(n: int, n_base: int = N_BASE, seed: int = SEED) -> Corpus:
    """Return the first `n` memories of the corpus: base ones first, then derived ones.

    Every content is distinct. Deterministic for a given (n_base, seed), and
    prefix-stable: memories(n).records == memories(m).records[:n] for n <= m.
    """
    rng = random.Random(seed)
    corpus = Corpus(n_base=n_base)
    seen: set[str] = set()
    while len(corpus.records) < min(n, n_base):
        t = rng.randrange(len(TEMPLATES))
        slots = _slots(rng)
        content = TEMPLATES[t].text.format(**slots)
        content = content[0].upper() + content[1:]
        if content in seen:
            continue
        seen.add(content)
        corpus.records.append(_record(content, TEMPLATES[t], slots, rng))
        corpus.parents.append(len(corpus.parents))
        corpus.template_ids.append(t)
        corpus.slots.append(slots)
    derived_rng = random.Random(seed + 1)  # separate stream: the base layer does not depend on n
    while len(corpus.records) < n:
        parent = derived_rng.randrange(n_base)
        base = corpus.records[parent]["content"]
        lead = derived_rng.choice(LEAD_INS)
        if lead == "Remember that ":
            base = lead + base[0].lower() + base[1:]
        elif lead:
            base = lead + base
        project = corpus.slots[parent]["project"]
        clause = (f" (seen in {project.upper()}-{derived_rng.randint(100, 9999)}, "
                  f"{derived_rng.choice(CONFIG_PATHS)}, 2024-{derived_rng.randint(1, 12):02d}-{derived_rng.randint(1, 28):02d})")
        content = base + clause
        if content in seen:
            continue
        seen.add(content)
        template = TEMPLATES[corpus.template_ids[parent]]
        corpus.records.append(_record(content, template, corpus.slots[parent], derived_rng))
        corpus.parents.append(parent)
        corpus.template_ids.append(corpus.template_ids[parent])
    return corpus


# ------------------------------------------------------------------ queries


@dataclass(frozen=True)
class Query:
    """A question and the index of the memory it was written from."""

    text: str
    target: int


def queries(count: int, seed: int = SEED, n_base: int = N_BASE, offset: int = 0) -> list[Query]:
    """Return `count` distinct paraphrase-style questions about base memories < QUERY_TARGET_RANGE.

    `offset` skips that many queries of the same stream: warm-up queries use
    queries(k, offset=count) so they never repeat a measured one.
    """
    base = memories(min(n_base, QUERY_TARGET_RANGE), n_base=n_base, seed=seed)
    rng = random.Random(seed + 2)
    out: list[Query] = []
    seen: set[str] = set()
    attempts = 0
    while len(out) < offset + count:
        attempts += 1
        if attempts > 100 * (offset + count):
            raise RuntimeError("could not draw enough distinct queries")
        target = rng.randrange(len(base.records))
        template = TEMPLATES[base.template_ids[target]]
        text = rng.choice(template.questions).format(**base.slots[target])
        text = text[0].upper() + text[1:]
        if text in seen:
            continue
        seen.add(text)
        out.append(Query(text, target))
    return out[offset:]


# ------------------------------------------------------------------ embedding inputs

_CODE_WORDS = (
    "def load_config ( path : Path ) -> dict : with open ( path ) as handle : return toml . load ( handle ) "
    "class RetryPolicy : attempts : int = 3 backoff_ms : float = 50.0 def delay ( self , attempt ) : "
    "return min ( self . backoff_ms * 2 ** attempt , 2000 ) if response . status_code >= 500 : raise "
    "ServerError ( f\"upstream failed: {response.text}\" ) for row in rows : totals [ row . account_id ] += "
    "row . amount logger . info ( \"processed batch\" , extra = { \"size\" : len ( rows ) } ) await "
    "session . commit ( ) except KeyError as exc : raise ConfigError ( str ( exc ) ) from exc yield item"
).split()


def short_texts(count: int, seed: int = SEED + 3) -> list[str]:
    """`count` distinct memory-like sentences (15-30 tokens) that are not in any corpus."""
    rng = random.Random(seed)
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < count:
        template = rng.choice(TEMPLATES)
        text = template.text.format(**_slots(rng))
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out


def code_chunks(count: int, tokens: int, tokenizer, seed: int = SEED + 4) -> list[str]:
    """`count` code-like chunks of exactly `tokens` model tokens ([CLS] and [SEP] included).

    `tokenizer` is a `tokenizers.Tokenizer` without truncation; chunks are
    cut at a token boundary using its character offsets.
    """
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(count):
        words = [rng.choice(_CODE_WORDS) for _ in range(tokens * 2)]
        text = " ".join(words)
        enc = tokenizer.encode(text)
        content = [o for o, s in zip(enc.offsets, enc.special_tokens_mask) if not s]
        end = content[tokens - 3][1]  # tokens - 2 content tokens, plus [CLS] and [SEP]
        chunk = text[:end]
        # a cut can merge differently at the boundary: trim until the count fits exactly or just under
        while len(tokenizer.encode(chunk).ids) > tokens:
            chunk = chunk[: chunk.rfind(" ")]
        out.append(chunk)
    return out
