"""Spot text that looks like a credential before it is stored.

`find_secret(text)` returns the first SecretMatch (pattern name, description,
the matched secret shown redacted, and where it is) or None. Patterns are
tried in order, the specific ones (a token with a known prefix) before the
generic ones, so the name says what kind of secret it is.

Two kinds of pattern:
- a known shape (an AWS key id, a GitHub token, a PEM private key...): the
  shape is the evidence;
- a value assigned to a credential-like name (`DB_PASSWORD=...`,
  `"api_key": "..."`, `token: ...`), a URL with a password, an
  Authorization header: the value must also look random. Placeholders
  (`<your-token>`, `changeme`, `${TOKEN}`, `os.environ["TOKEN"]`, `****`),
  references (`settings.api_key`, `get_token()`), identifiers and words
  (`TokenProvider`, `see-the-vault`) do not count, and the value's Shannon
  entropy must reach `min(ENTROPY_CAP, log2(len) - ENTROPY_SLACK)` bits per
  character (2.5 bits for 8 characters, 3.0 from 12 on).

Standard library only. No regex backtracks badly: 10,000 characters of adversarial text (the longest
memory) scan in under 40 ms, a thousand ordinary memories in about 30 ms.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

# A value assigned to a credential-like name is judged only from this length on.
MIN_VALUE_CHARS = 8
# Entropy threshold (bits per character) of such a value: min(CAP, log2(len) - SLACK), i.e. 2.5 bits at
# 8 characters, 3.0 from 12 on. Measured on 57,000 random strings (hex, alphanumeric, base64url,
# printable passwords; 8-64 characters) against 5,000 identifiers from this repository and its
# dependencies, 8,000 joined words, 3,000 camelCase names and 6,000 repetitive strings: with the word and
# placeholder checks in front, it catches 86-94 % of random alphanumeric values of 8-15 characters,
# 98-100 % from 16 on (hex: 92 % at 16-23, 100 % from 24), and flags no joined words, camelCase names or
# repetitive strings (`aaaa1111`, `abab1212`) and 0.2 % of the identifiers (git SHAs, ids). A lower cap
# (2.5-2.8) only helps short hex; a higher one (3.2) loses short values.
ENTROPY_CAP = 3.0
ENTROPY_SLACK = 0.5
# How much of a secret the redacted form shows: at most 4 characters, at most a quarter of it.
SHOWN_CHARS = 4


@dataclass(frozen=True)
class SecretMatch:
    """Where `text` looks like a credential: the pattern that matched, what it means, and the
    secret shown redacted (its first characters and its length, never the whole of it)."""

    pattern: str
    description: str
    redacted: str
    start: int
    end: int


class _Pattern(NamedTuple):
    name: str
    description: str
    regex: re.Pattern[str]
    # The group holding the secret itself (what is redacted and judged).
    group: str | int = 0
    # An extra test of the match; None: the shape alone is enough.
    accept: Callable[[re.Match[str]], bool] | None = None


def shannon_entropy(value: str) -> float:
    """Bits per character of `value` under its own character frequencies (0 for '')."""
    if not value:
        return 0.0
    n = len(value)
    return -sum(count / n * math.log2(count / n) for count in Counter(value).values())


def entropy_threshold(length: int) -> float:
    """The entropy a credential value of `length` characters must reach."""
    return min(ENTROPY_CAP, math.log2(max(length, 1)) - ENTROPY_SLACK)


def redact(secret: str) -> str:
    """The first few characters and the length: 'ghp_…(40 chars)'."""
    shown = min(SHOWN_CHARS, len(secret) // 4)
    return f"{secret[:shown]}…({len(secret)} chars)"


# --- is a value a placeholder, a reference, or words? -------------------------------------------

_PLACEHOLDER_WORDS = re.compile(
    r"change_?-?me|example|sample|dummy|placeholder|your|redacted|replace|fake", re.IGNORECASE
)
_PLACEHOLDER_MARKS = re.compile(
    r"""
      ^(.)\1*$                        # one character repeated: xxxxxxxx, ********, ........
    | \*\*\* | xxx | \.\.\. | …         # masked or elided: sk-****, XXXX-1234, abc...
    | ^[<\[{(] | [>\]})]$              # <your-token>, [redacted], {token}
    | ^\$ | \{\{ | \$\{ | %\( | \#\{    # $TOKEN, ${TOKEN}, {{ token }}, %(token)s, #{token}
    | ^[|:=]                           # not a value but more syntax: (?:password:)|(?:...)
    | ^\*                              # markdown emphasis, or a mask: *(optional)*, *****abcd
    """,
    re.IGNORECASE | re.VERBOSE,
)
# Code that computes the value: a dotted path (settings.api_key, process.env.TOKEN), or a name or path
# called or indexed (get_token(), os.environ["TOKEN"], ENV['TOKEN']).
_NAME = r"[A-Za-z_$][\w$]*"
_REFERENCE = re.compile(rf"{_NAME}(?:\.{_NAME})+|{_NAME}(?:\.{_NAME})*[(\[].*", re.DOTALL)
_URL_PLACEHOLDER = re.compile(r"(?i:pass|pwd|secret|token)|^(?i:pw)$|^[A-Z][A-Z0-9_]*$")
_SEGMENT_SEPARATORS = re.compile(r"[._/\\:=-]+")
_SHORT_WORDS = frozenset({"An", "As", "At", "Be", "By", "Db", "Do", "Ed", "Go", "Id", "If", "In", "Io", "Is", "It",
                          "Js", "My", "No", "Of", "Ok", "On", "Or", "Os", "Py", "Re", "To", "Ui", "Up"})
# Words in an identifier: ACRONYM, Capitalized, lower, and runs of digits.
_WORD_TOKENS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def is_placeholder(value: str) -> bool:
    """`<your-token>`, `changeme`, `xxxxxxxx`, `${TOKEN}`, `****`, `os.environ["TOKEN"]`..."""
    return bool(_PLACEHOLDER_WORDS.search(value) or _PLACEHOLDER_MARKS.search(value) or _REFERENCE.fullmatch(value))


def _word_like_segment(segment: str) -> bool:
    if not (segment.isascii() and segment.isalnum()):
        return False
    tokens = _WORD_TOKENS.findall(segment)
    if sum(token.isdigit() for token in tokens) > 2:  # Ed25519Key, utf8, oauth2 — not k3j9x0p2
        return False
    words = [token for token in tokens if not token.isdigit()]
    letters = "".join(words)
    if letters.islower() or letters.isupper() or not letters:
        return True
    # Mixed case: camelCase, PascalCase, HTTPBasicAuth — acronyms of at most 5 letters and words of 3+
    # (or a common 2-letter one). Random mixed case breaks into short pieces: 'BpQRpXzk' -> Bp, Q, Rp, Xzk.
    return all(_is_word(word) for word in words)


def _is_word(word: str) -> bool:
    if word.isupper():
        return len(word) <= 5
    return len(word) >= 3 or word.capitalize() in _SHORT_WORDS


def is_word_like(value: str) -> bool:
    """Identifiers, words and paths: `TokenProvider`, `DB_PASSWORD`, `see-the-vault`, `oauth2-client`,
    `~/.ssh/id_ed25519`, `urn:ietf:params`."""
    segments = [s for s in _SEGMENT_SEPARATORS.split(value.removeprefix("~")) if s]
    return bool(segments) and all(_word_like_segment(s) for s in segments)


def looks_random(value: str) -> bool:
    """Whether a value assigned to a credential-like name is plausibly the credential itself."""
    return (
        len(value) >= MIN_VALUE_CHARS
        and any(c.isalpha() for c in value)
        and not is_placeholder(value)
        and not is_word_like(value)
        and shannon_entropy(value) >= entropy_threshold(len(value))
    )


def _secret_looks_random(match: re.Match[str]) -> bool:
    return looks_random(match.group("secret"))


def _url_password(match: re.Match[str]) -> bool:
    password = match.group("secret")
    # user:password@, user:mypassword@, user:TOKEN@, postgres:postgres@: how examples and local
    # defaults are written.
    if _URL_PLACEHOLDER.search(password) or password == match.group("user"):
        return False
    return not is_placeholder(password)


# --- the patterns, most specific first ----------------------------------------------------------

_END = r"(?![A-Za-z0-9_-])"  # the token does not go on
_START = r"(?<![A-Za-z0-9_-])"  # nor did it start earlier
# = := => or : (YAML, JSON), but not the :// of a URL scheme (otpauth://).
_ASSIGN = r"(?::=|=>|=|:(?!//))"
_CREDENTIAL_NAME = (
    r"(?i:passw(?:or)?d|passphrase|pwd|secret|token|api[_.-]?key|access[_.-]?key|private[_.-]?key"
    r"|secret[_.-]?key|client[_.-]?secret|(?<![Oo])auth)"  # oauth: names a protocol, not a credential
)

PATTERNS: tuple[_Pattern, ...] = (
    # PEM armour (OpenSSH, RSA, EC, DSA, PKCS#8, encrypted, PGP) followed by key material: newlines may be
    # real or written \n (JSON), header lines (Proc-Type:, Version:) may come first. A header alone, quoted
    # in code or docs, is not a key.
    _Pattern(
        "private-key",
        "a PEM private key block",
        re.compile(
            r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?:\s|\\[nr])*"
            r"(?:[A-Za-z-]+:[^\n\\]*(?:\n|\\n)(?:\s|\\[nr])*)*[A-Za-z0-9+/=]{20,}"
        ),
    ),
    # Long-term (AKIA) and temporary (ASIA) access key ids: 4 letters + 16 base32 characters.
    _Pattern(
        "aws-access-key-id",
        "an AWS access key id",
        re.compile(_START + r"(?:AKIA|ASIA)[A-Z2-7]{16}" + _END),
    ),
    # The 40-character secret that goes with a key id, recognisable only by the name it is given.
    _Pattern(
        "aws-secret-access-key",
        "an AWS secret access key",
        re.compile(
            r"(?i:aws[\w.-]{0,20}?(?:secret|sk)[\w.-]{0,20}?)[\"']?\s*" + _ASSIGN + r"\s*[\"']?"
            r"(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
        "secret",
        _secret_looks_random,
    ),
    # Classic (ghp_ personal, gho_ OAuth, ghu_ user-to-server, ghs_ server-to-server, ghr_ refresh)
    # and fine-grained (github_pat_) tokens.
    _Pattern(
        "github-token",
        "a GitHub token",
        re.compile(_START + r"(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{50,})" + _END),
    ),
    _Pattern(
        "gitlab-token",
        "a GitLab personal access token",
        re.compile(_START + r"glpat-[A-Za-z0-9_-]{20,}" + _END),
    ),
    # Bot (xoxb), user (xoxp), app (xoxa), refresh (xoxr) and legacy (xoxs) tokens.
    _Pattern(
        "slack-token",
        "a Slack token",
        re.compile(_START + r"xox[abprs]-[A-Za-z0-9-]{10,}" + _END),
    ),
    # Anyone holding the URL can post to the channel.
    _Pattern(
        "slack-webhook",
        "a Slack incoming-webhook URL",
        re.compile(r"https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{20,}"),
    ),
    # Secret (sk_) and restricted (rk_) keys, live or test; publishable pk_ keys are public by design.
    _Pattern(
        "stripe-key",
        "a Stripe secret key",
        re.compile(_START + r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}" + _END),
    ),
    _Pattern(
        "google-api-key",
        "a Google API key",
        re.compile(_START + r"AIza[A-Za-z0-9_-]{35}" + _END),
    ),
    # sk-ant-api03-..., sk-ant-admin01-...
    _Pattern(
        "anthropic-api-key",
        "an Anthropic API key",
        re.compile(_START + r"sk-ant-[A-Za-z0-9_-]{32,}" + _END),
    ),
    # Legacy sk-<48 alphanumerics> and project / service-account / admin keys.
    _Pattern(
        "openai-api-key",
        "an OpenAI-style API key",
        re.compile(_START + r"sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{32,}|[A-Za-z0-9]{32,})" + _END),
    ),
    _Pattern(
        "npm-token",
        "an npm access token",
        re.compile(_START + r"npm_[A-Za-z0-9]{36}" + _END),
    ),
    # A macaroon: base64 of its header, which names pypi.org (AgEIcHlwaS5vcmc) or test.pypi.org.
    _Pattern(
        "pypi-token",
        "a PyPI API token",
        re.compile(_START + r"pypi-AgE[A-Za-z0-9_-]{50,}" + _END),
    ),
    # header.payload.signature, both JSON parts base64url-encoded: '{"' encodes as 'eyJ'.
    _Pattern(
        "jwt",
        "a JSON Web Token",
        re.compile(_START + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*" + _END),
    ),
    # scheme://user:password@host (postgres://, redis://, https://, amqp://...).
    _Pattern(
        "url-password",
        "a URL with an embedded password",
        re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://(?P<user>[\w.%+~-]*):(?P<secret>[^\s:/@\[\]]+)@[^\s/?#@]+"),
        "secret",
        _url_password,
    ),
    # Authorization: Bearer <token> (the word "bearer" in prose is followed by words, not a token).
    _Pattern(
        "bearer-token",
        "a bearer token",
        re.compile(r"(?i:\bbearer)\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)" + _END),
        "secret",
        _secret_looks_random,
    ),
    # DB_PASSWORD=..., "api_key": "...", token: ..., clientSecret = '...': a credential-like name
    # (the name ends with the keyword, so token_count and author do not count), then a value that
    # looks random.
    _Pattern(
        "credential-assignment",
        "a high-entropy value assigned to a credential-like name",
        re.compile(
            r"(?<![\w.-])[\w.-]*?" + _CREDENTIAL_NAME + r"[\"']?\s*" + _ASSIGN + r"\s*[\"'`]?"
            r"(?P<secret>[^\s\"'`,;&)\]}]{" + str(MIN_VALUE_CHARS) + r",})"  # & ends a query parameter
        ),
        "secret",
        _secret_looks_random,
    ),
)


# What each pattern cannot match without, lower-cased: a text holding none of these cannot match, and looking
# for them (plain substring searches of the lower-cased text) spares most texts the seventeen scans (75 -> ~5
# us for a typical memory; the bulk store runs it on every item). Each is implied by its pattern: the patterns'
# own tests go through it, and a test compares find_secret with the plain scan.
_NEEDS = {
    "private-key": ("-----begin",),
    "aws-access-key-id": ("akia", "asia"),
    "aws-secret-access-key": ("aws",),
    "github-token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "gitlab-token": ("glpat-",),
    "slack-token": ("xox",),
    "slack-webhook": ("://",),
    "stripe-key": ("k_live_", "k_test_"),
    "google-api-key": ("aiza",),
    "anthropic-api-key": ("sk-",),
    "openai-api-key": ("sk-",),
    "npm-token": ("npm_",),
    "pypi-token": ("pypi-age",),
    "jwt": ("eyj",),
    "url-password": ("://",),
    "bearer-token": ("bearer",),
    "credential-assignment": ("passw", "passphrase", "pwd", "secret", "token", "key", "auth"),
}
_NEEDLES = tuple(dict.fromkeys(needle for pattern in PATTERNS for needle in _NEEDS[pattern.name]))


def find_secret(text: str) -> SecretMatch | None:
    """The first credential-looking span of `text` (by pattern order, then position), or None."""
    lower = text.lower()
    if not any(needle in lower for needle in _NEEDLES):
        return None
    return scan(text)


def scan(text: str) -> SecretMatch | None:
    """find_secret without its first, quick look: every pattern over the whole text."""
    for pattern in PATTERNS:
        for match in pattern.regex.finditer(text):
            if pattern.accept is None or pattern.accept(match):
                start, end = match.span(pattern.group)
                return SecretMatch(pattern.name, pattern.description, redact(text[start:end]), start, end)
    return None
