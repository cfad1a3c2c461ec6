"""Refusing credentials: the scanner's patterns, its negatives, the redaction, and the refusal through
the library (real file), the MCP server (real stdio client) and the CLI (real subprocess).

Every fake credential is built at run time from pieces and a seeded random generator, so no string in
this file is a credential-shaped literal (secret scanners, GitHub push protection).
"""

from __future__ import annotations

import json
import os
import random
import string
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

import learnmem
from learnmem.exchange.portable import RejectedImport
from learnmem.memory import secret_scan
from learnmem.errors import ValidationError
from learnmem.memory.secret_scan import find_secret

ROOT = Path(__file__).resolve().parents[2]
ALNUM = string.ascii_letters + string.digits
B64URL = ALNUM + "-_"
HEX = "0123456789abcdef"


def _random(n: int, alphabet: str = ALNUM, seed: int = 0) -> str:
    rng = random.Random(f"{seed}-{n}-{alphabet}")
    return "".join(rng.choice(alphabet) for _ in range(n))


def _pem(kind: str) -> str:
    body = "\n".join(_random(64, ALNUM + "+/", seed=i) for i in range(3))
    begin, end = "-----BEGIN " + kind + "PRIVATE KEY-----", "-----END " + kind + "PRIVATE KEY-----"
    return f"{begin}\n{body}\n{end}\n"


# (text, pattern, the secret itself): one realistic fake per pattern, in the words an agent might use.
POSITIVES = [
    ("deploy key:\n" + _pem("OPENSSH "), "private-key", None),
    (_pem("RSA "), "private-key", None),
    (_pem("EC "), "private-key", None),
    (_pem(""), "private-key", None),
    # A service-account JSON: newlines written as \n.
    ('{"private_key": "' + _pem("").replace("\n", "\\n") + '"}', "private-key", None),
    ("-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n" + _random(60, ALNUM + "+/") + "\n",
     "private-key", None),
    ("The CI user's key id is " + "AKIA" + "IOSFODNN7EXAMPLE" + ".", "aws-access-key-id", "AKIA" + "IOSFODNN7EXAMPLE"),
    ("temporary creds: " + "ASIA" + _random(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), "aws-access-key-id", None),
    ("aws_secret_access_key = " + _random(40, ALNUM + "/+"), "aws-secret-access-key", _random(40, ALNUM + "/+")),
    ("export GITHUB_TOKEN=" + "ghp_" + _random(36), "github-token", "ghp_" + _random(36)),
    ("the app uses " + "gho_" + _random(36, seed=1), "github-token", None),
    ("ghs_" + _random(36, seed=2) + " expires hourly", "github-token", None),
    ("ghr_" + _random(76, seed=3), "github-token", None),
    ("use " + "github_pat_" + _random(22) + "_" + _random(59), "github-token", None),
    ("GITLAB_TOKEN: " + "glpat-" + _random(20, B64URL), "gitlab-token", "glpat-" + _random(20, B64URL)),
    ("slack bot " + "xoxb-" + _random(12, string.digits) + "-" + _random(13, string.digits) + "-" + _random(24),
     "slack-token", None),
    ("xoxp-" + _random(40, ALNUM + "-", seed=4), "slack-token", None),
    ("post to https://hooks.slack.com/services/" + "T" + _random(8, string.ascii_uppercase + string.digits)
     + "/B" + _random(8, string.ascii_uppercase + string.digits) + "/" + _random(24), "slack-webhook", None),
    ("stripe: " + "sk_" + "live_" + _random(24), "stripe-key", "sk_" + "live_" + _random(24)),
    ("rk_" + "live_" + _random(24, seed=5), "stripe-key", None),
    ("in tests we use " + "sk_" + "test_" + _random(24, seed=6), "stripe-key", None),
    ("maps key " + "AIza" + _random(35, B64URL), "google-api-key", "AIza" + _random(35, B64URL)),
    ("OPENAI_API_KEY is " + "sk-" + _random(48), "openai-api-key", "sk-" + _random(48)),
    ("sk-" + "proj-" + _random(120, B64URL), "openai-api-key", None),
    ("the Claude key " + "sk-" + "ant-api03-" + _random(93, B64URL) + "AA", "anthropic-api-key", None),
    ("//registry.npmjs.org/:_authToken=" + "npm_" + _random(36), "npm-token", "npm_" + _random(36)),
    ("twine password " + "pypi-" + "AgEIcHlwaS5vcmc" + _random(60, B64URL), "pypi-token", None),
    ("session cookie " + "eyJ" + "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + "." + "eyJ" + "zdWIiOiIxMjM0NTY3ODkwIn0" + "."
     + _random(43, B64URL), "jwt", None),
    ("DATABASE_URL=postgres://app:" + _random(16) + "@db.internal:5432/prod", "url-password", _random(16)),
    ("mysql://root:" + "Xk9#" + "pq2!" + "@10.0.0.3/app", "url-password", "Xk9#" + "pq2!"),
    ("curl -H 'Authorization: Bearer " + _random(40) + "'", "bearer-token", _random(40)),
    ("DB_PASSWORD=" + "h7#kQ9" + "xZ!2mP", "credential-assignment", "h7#kQ9" + "xZ!2mP"),
    ('config: {"api_key": "' + _random(32, seed=7) + '"}', "credential-assignment", _random(32, seed=7)),
    ("token: " + _random(40, HEX), "credential-assignment", _random(40, HEX)),
    ("clientSecret = '" + _random(24, seed=8) + "'", "credential-assignment", None),
    ("private_key: " + _random(44, ALNUM + "+/", seed=9), "credential-assignment", None),
    ("auth=" + _random(20, seed=10), "credential-assignment", None),
    ("PASSWORD=" + "Summer" + "2024!", "credential-assignment", None),
]


@pytest.mark.parametrize(("text", "pattern", "secret"), POSITIVES, ids=[f"{p[1]}-{i}" for i, p in enumerate(POSITIVES)])
def test_each_pattern_finds_its_credential(text: str, pattern: str, secret: str | None) -> None:
    found = find_secret(text)
    assert found is not None and found.pattern == pattern, (text, found)
    assert found.description
    if secret is not None:
        assert text[found.start : found.end] == secret
        assert found.redacted == f"{secret[: min(4, len(secret) // 4)]}…({len(secret)} chars)"


def test_every_pattern_has_a_positive_example() -> None:
    assert {p.name for p in secret_scan.PATTERNS} == {pattern for _, pattern, _ in POSITIVES}


PLACEHOLDERS = ["<your-token>", "changeme", "xxxxxxxx", "${TOKEN}", 'os.environ["TOKEN"]', "****", "********",
                "$GITHUB_TOKEN", "${{ secrets.GITHUB_TOKEN }}", "{{ api_key }}", "os.getenv('API_KEY')",
                "process.env.API_KEY", "YOUR_API_KEY_HERE", "replace-with-your-token", "settings.api_key",
                "get_token()", "self._secret", "TokenProvider", "HTTPBasicAuth", "Optional[str]", "SecretStr",
                "[REDACTED]", "sk-...", "see-the-vault", "oauth2-client", "example-token-1234", "dummy-pass-99",
                "~/.ssh/id_ed25519", "/run/secrets/db_password", "%(password)s", "None", "str | None"]


@pytest.mark.parametrize("value", PLACEHOLDERS)
@pytest.mark.parametrize("form", ["DB_PASSWORD={}", "token: {}", '"api_key": "{}"', "clientSecret = '{}'",
                                  "auth={}", "password = {}"])
def test_placeholders_and_references_are_not_secrets(form: str, value: str) -> None:
    assert find_secret(form.format(value)) is None


ORDINARY = [
    "the password reset flow sends an email with a one-time link",
    "token bucket rate limiter: 10 tokens per second, bursts of 50",
    "rotate the API key monthly; the secret lives in the vault",
    "fixed in commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 (see 3f2a9c1)",
    "request id 550e8400-e29b-41d4-a716-446655440000 failed with a 502",
    "the sha256 of the empty file is e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "the base64 of hello world is aGVsbG8gd29ybGQ= and that of the config is eyJkZWJ1ZyI6IHRydWV9",
    "local dev database: postgres://postgres:postgres@localhost:5432/dev",
    "docs use https://user:password@example.com and redis://:${REDIS_PASSWORD}@cache:6379",
    "clone with git@github.com:org/repo.git or ssh://git@github.com:22/org/repo.git",
    "auth: handled by the middleware; secret: none needed locally",
    "password: see the 1Password entry 'prod db'",
    "token_count = 123456789 and max_tokens: 4096 and author: Jane Doe",
    "Use Bearer authentication for the public API",
    "api_key: str | None = None in the settings model; auth: AuthProvider",
    "password_hash = $2b$12$abcdefghijklmnopqrstuv is stored, never the password",
    "PWD=/home/user/projects/app and private_key_path=/etc/ssl/private/server.key",
    "AKIA is the prefix of AWS access key ids; GitHub tokens start with ghp_",
    'the parser looks for b"-----BEGIN OPENSSH PRIVATE KEY-----" at the top of the file',
    "grant_type=urn:ietf:params:oauth:grant-type:token-exchange",
    "scikit-learn's task-runner and sk-learn style pipelines",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_memory_text_is_not_a_secret(text: str) -> None:
    assert find_secret(text) is None


WORDS = ("the", "password", "reset", "flow", "token", "bucket", "rotate", "API", "key", "monthly", "secret",
         "auth", "access", "private", "client", "config", "deploy", "Staging", "database", "migration", "cache",
         "TokenProvider", "refresh_token", "api_key", "DB_PASSWORD", "uses", "OAuth2", "is", "stored", "in",
         "vault", "environment", "variable", "never", "commit", "users", "login", "session", "expires", "HTTP")
SEPARATORS = (" ", " ", " ", ", ", ". ", ": ", " = ", "=", ":")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), min_size=1, max_size=40))
def test_prose_of_ordinary_words_never_matches(pairs: list[tuple[str, str]]) -> None:
    text = "".join(word + separator for word, separator in pairs)
    assert find_secret(text) is None, text


def test_the_quick_look_never_hides_what_the_full_scan_finds() -> None:
    # find_secret skips the patterns when the text holds none of the substrings they need (secret_scan._NEEDS):
    # every example here gets the same answer with and without that first look.
    assert set(secret_scan._NEEDS) == {pattern.name for pattern in secret_scan.PATTERNS}
    texts = [text for text, _, _ in POSITIVES] + ORDINARY + [
        form.format(value) for form in ("DB_PASSWORD={}", "token: {}", "clientSecret = '{}'") for value in PLACEHOLDERS]
    for text in texts + [text.upper() for text in texts] + [text.lower() for text in texts]:
        assert secret_scan.find_secret(text) == secret_scan.scan(text), text


FRAGMENTS = ("password", "PASSWD", "pwd", "Token", "api_key", "OAuth", "author", "aws_secret", "Bearer", "sk-",
             "sk-ant-", "sk_live_", "ghp_", "github_pat_", "glpat-", "xoxb-", "AKIA", "AIza", "npm_", "pypi-AgE",
             "eyJ", ".eyJ", "://", "user:", "@db.internal", "-----BEGIN RSA PRIVATE KEY-----\n", " = ", "=", ": ",
             '"', " ", "\n", "the deploy")
RANDOM_RUNS = st.text(alphabet=ALNUM + "+/_-", min_size=8, max_size=60)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(FRAGMENTS), RANDOM_RUNS), min_size=1, max_size=12))
def test_the_quick_look_agrees_with_the_full_scan_on_generated_text(parts: list[str]) -> None:
    text = "".join(parts)
    assert secret_scan.find_secret(text) == secret_scan.scan(text)


def test_the_entropy_check_keeps_random_values_and_drops_repetitive_ones() -> None:
    """The measured threshold, as a regression check: random values of 20-64 characters assigned to a
    credential name are nearly all caught; values that repeat a few characters never are."""
    rng = random.Random(42)
    randoms = ["".join(rng.choice(ALNUM) for _ in range(rng.randint(20, 64))) for _ in range(500)]
    caught = sum(find_secret(f"API_KEY={value}") is not None for value in randoms)
    assert caught >= 0.97 * len(randoms), caught
    repetitive = [("aB3" * 20)[:n] for n in range(8, 60)] + [("x1" * 30)[:n] for n in range(8, 60)]
    assert not [value for value in repetitive if find_secret(f"API_KEY={value}")]
    assert secret_scan.entropy_threshold(8) == 2.5 and secret_scan.entropy_threshold(64) == 3.0


def test_redaction_shows_at_most_four_characters_and_a_quarter() -> None:
    assert secret_scan.redact("ghp_" + "a" * 36) == "ghp_…(40 chars)"
    assert secret_scan.redact("h7#kQ9xZ") == "h7…(8 chars)"
    assert secret_scan.redact("abc") == "…(3 chars)"


def _leaks(secret: str, message: str) -> bool:
    """Whether 8 consecutive characters of the secret appear in the message."""
    return any(secret[i : i + 8] in message for i in range(len(secret) - 7))


# -- the library ------------------------------------------------------------------------------------

SECRET = "ghp_" + _random(36, seed=11)
SECRET_MEMORY = f"CI pushes with GITHUB_TOKEN={SECRET} (stored in the repo settings)"


def test_store_memory_refuses_a_secret_and_stores_nothing(hashed_lm: learnmem.Learnmem) -> None:
    with pytest.raises(ValidationError) as raised:
        hashed_lm.store_memory(SECRET_MEMORY, "fact")
    message = str(raised.value)
    assert message.startswith("content: ") and "github-token" in message and "ghp_…(40 chars)" in message
    assert "allow_secrets=True" in message
    assert not _leaks(SECRET, message)
    assert hashed_lm.info().counts["memories"] == 0


def test_allow_secrets_stores_it(hashed_lm: learnmem.Learnmem) -> None:
    result = hashed_lm.store_memory(SECRET_MEMORY, "fact", allow_secrets=True)
    assert not result.duplicate and hashed_lm.get_memory(result.id).content == SECRET_MEMORY


def test_a_batch_with_one_secret_stores_nothing(hashed_lm: learnmem.Learnmem) -> None:
    items = [{"content": "Releases are cut on Tuesdays.", "category": "fact"},
             {"content": "The staging database is reset nightly.", "category": "fact"},
             {"content": "aws_secret_access_key = " + _random(40, ALNUM + "/+", seed=12), "category": "fact"}]
    with pytest.raises(ValidationError) as raised:
        hashed_lm.store_memories(items)
    message = str(raised.value)
    assert message.startswith("memories[2].content: ") and "aws-secret-access-key" in message
    assert not _leaks(items[2]["content"].split("= ")[1], message)
    assert hashed_lm.info().counts["memories"] == 0
    assert len(hashed_lm.store_memories(items, allow_secrets=True)) == 3
    assert hashed_lm.info().counts["memories"] == 3


def test_allow_secrets_must_be_a_bool(hashed_lm: learnmem.Learnmem) -> None:
    with pytest.raises(ValidationError, match="allow_secrets: expected True or False, got 'yes'"):
        hashed_lm.store_memory("Releases are cut on Tuesdays.", "fact", allow_secrets="yes")


def test_imports_refuse_secrets_unless_allowed(hashed_lm: learnmem.Learnmem, tmp_path: Path) -> None:
    hashed_lm.store_memory(SECRET_MEMORY, "fact", allow_secrets=True)
    hashed_lm.store_memory("The staging database is reset nightly.", "fact")
    export = tmp_path / "export.jsonl"
    hashed_lm.export_data(export)
    other = learnmem.open(tmp_path / "other.duckdb", embedder=hashed_lm.embedder)
    with pytest.raises(RejectedImport) as raised:
        other.import_data(export)
    message = str(raised.value)
    assert "line 2: memory.content: looks like it contains" in message and "github-token" in message
    assert "allow_secrets=True" in message and not _leaks(SECRET, message)
    assert other.info().counts["memories"] == 0  # the other memory was not imported either
    assert other.import_data(export, allow_secrets=True).imported["memories"] == 2


# -- the CLI ----------------------------------------------------------------------------------------

def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LEARNMEM_DB", "LEARNMEM_DEBUG")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "learnmem.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120, check=False)


def test_cli_remember_refuses_a_secret_unless_allowed(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.duckdb")
    refused = _cli("remember", SECRET_MEMORY, "--category", "fact", "--db", db)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("learnmem: error: content: ")
    assert "github-token" in lines[0] and "--allow-secrets" in lines[0] and not _leaks(SECRET, refused.stderr)
    stored = _cli("remember", SECRET_MEMORY, "--category", "fact", "--allow-secrets", "--json", "--db", db)
    assert stored.returncode == 0, stored.stderr
    assert json.loads(stored.stdout)["duplicate"] is False


# -- the MCP server ---------------------------------------------------------------------------------

async def _call(session: ClientSession, tool: str, **arguments: Any) -> tuple[dict[str, Any], bool]:
    result = await session.call_tool(tool, arguments)
    return json.loads(result.content[0].text), bool(result.is_error)


def test_mcp_store_tools_refuse_secrets_unless_allowed(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "LEARNMEM_DB"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    server = StdioServerParameters(command=sys.executable, args=["-m", "mcp_adapter", "--db", str(tmp_path / "m.duckdb")],
                                   env=env, cwd=str(ROOT))
    items = [{"content": "Releases are cut on Tuesdays.", "category": "fact"}, {"content": SECRET_MEMORY, "category": "fact"}]

    async def scenario() -> None:
        with anyio.fail_after(120), (tmp_path / "server.stderr").open("w") as errlog:
            async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                payload, is_error = await _call(session, "store_memory", content=SECRET_MEMORY, category="fact")
                assert is_error and payload["error"]["type"] == "validation_error", payload
                message = payload["error"]["message"]
                assert message.startswith("content: ") and "github-token" in message and not _leaks(SECRET, message)
                payload, is_error = await _call(session, "store_memories", items=items)
                assert is_error and payload["error"]["message"].startswith("memories[1].content: "), payload
                assert (await _call(session, "list_memories"))[0]["count"] == 0

                stored, is_error = await _call(session, "store_memory", content=SECRET_MEMORY, category="fact",
                                               allow_secrets=True)
                assert not is_error and stored["duplicate"] is False, stored
                batch, is_error = await _call(session, "store_memories", items=items, allow_secrets=True)
                assert not is_error and [r["duplicate"] for r in batch["results"]] == [False, True], batch

    anyio.run(scenario)
