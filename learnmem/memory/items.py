"""What a caller hands over to store or find memories, checked: a memory's fields, its duplicate key, and the
filters of retrieval and listing.

Every check raises ValidationError naming the field (`memories[3].category`), the value and what is allowed.
A conversation turn (migration 015) is a memory with a `session`, a `speaker` and the time it was `said_at`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from learnmem import validate
from learnmem.errors import ValidationError
from learnmem.memory import secret_scan
from learnmem.storage.store import iso

MEMORY_CATEGORIES = (
    "fact",  # something true about the project or its world
    "preference",  # how the user likes things done
    "decision",  # a choice made, and why
    "learning",  # something found out the hard way
    "blocker",  # what stops progress now
    "pattern",  # a recurring shape in the code or the work
    "progress",  # where a piece of work stands
    "research",  # findings from reading docs, code or the web
    "correction",  # the user corrected the agent: do it this way instead
    "requirement",  # what the result must do or satisfy
    "convention",  # the project's agreed style, naming, layout
    "context",  # background that frames the rest (who, what for) — kept apart from facts to filter it out
    "inception",  # planning: why the work exists, its scope and the bets it makes
    "elicitation",  # planning: what was learned by asking the user or the stakeholders
    "conversation",  # a turn of a conversation, as said (transcripts: learnmem.exchange.transcripts)
)
# The phases of a spec's work a memory can be made in (store_memory(phase=...)).
PHASES = ("planning", "implementation", "review", "close-out")
MAX_CONTENT_CHARS = 10_000
MAX_SOURCES = 20
MAX_SOURCE_CHARS = 300
MAX_SESSION_CHARS = 200
MAX_SPEAKER_CHARS = 100
TURN_KEYS = ("session", "speaker", "said_at")  # what makes a memory a turn of a conversation
ROW_KEYS = ("content", "category", "importance", "tags", "sources", "spec", "phase", *TURN_KEYS)


@dataclass(frozen=True)
class Draft:
    """A memory to store, checked."""

    content: str
    category: str
    importance: float
    tags: tuple[str, ...]
    content_hash: str
    sources: tuple[str, ...] = ()
    spec: str | None = None
    phase: str | None = None
    session: str | None = None
    speaker: str | None = None
    said_at: datetime | None = None

    @property
    def is_turn(self) -> bool:
        """Whether it is a turn of a conversation: a record of what was said, which no dedupe rule of meaning
        applies to (people say "sounds good" twice, and restate themselves)."""
        return self.session is not None or self.speaker is not None or self.said_at is not None


def content_hash(content: str) -> str:
    """sha256 of the text with runs of whitespace collapsed: the duplicate key of a memory that is not a turn."""
    return hashlib.sha256(" ".join(content.split()).encode("utf-8")).hexdigest()


def turn_hash(content: str, session: str | None, speaker: str | None, said_at: datetime | None) -> str:
    """The duplicate key of a memory: its text's (content_hash), and for a turn also its session, speaker and
    time, so that the same words said again are a turn of their own while importing a transcript twice stores
    each turn once."""
    if session is None and speaker is None and said_at is None:
        return content_hash(content)
    key = "\x1f".join(("turn", session or "", speaker or "", iso(said_at) if said_at else "", " ".join(content.split())))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def draft(item: Mapping[str, Any], field_prefix: str, allow_secrets: bool = False) -> Draft:
    """An item of store_memories (content, category, importance?, tags?, sources?, spec?, phase?, session?,
    speaker?, said_at?) checked."""
    if not isinstance(item, Mapping):
        raise ValidationError(f"{field_prefix.rstrip('.') or 'memory'}: expected a mapping with keys {', '.join(ROW_KEYS)}")
    unknown = sorted(set(item) - set(ROW_KEYS))
    if unknown:
        raise ValidationError(f"{field_prefix}{unknown[0]}: unknown field; allowed: {', '.join(ROW_KEYS)}")
    content = validate.text(f"{field_prefix}content", item.get("content"), max_chars=MAX_CONTENT_CHARS)
    if not allow_secrets:
        refuse_secret(f"{field_prefix}content", content)
    session = validate_session(f"{field_prefix}session", item.get("session"))
    speaker = validate_speaker(f"{field_prefix}speaker", item.get("speaker"))
    said_at = validate_said_at(f"{field_prefix}said_at", item.get("said_at"))
    return Draft(
        content=content,
        category=validate.choice(f"{field_prefix}category", item.get("category"), MEMORY_CATEGORIES),
        importance=validate.number(f"{field_prefix}importance", item.get("importance", 0.5), low=0.0, high=1.0),
        tags=validate.tags(f"{field_prefix}tags", item.get("tags")),
        content_hash=turn_hash(content, session, speaker, said_at),
        sources=validate_sources(f"{field_prefix}sources", item.get("sources")),
        spec=validate_spec(f"{field_prefix}spec", item.get("spec")),
        phase=validate_phase(f"{field_prefix}phase", item.get("phase")),
        session=session,
        speaker=speaker,
        said_at=said_at,
    )


@dataclass(frozen=True)
class MemoryFilter:
    """retrieve_memories' and list_memories' filters on where and when a memory came from, checked. The window
    [since, until] reads a turn's said_at, any other memory's created_at."""

    spec: str | None
    phase: str | None
    since: datetime | None
    until: datetime | None = None
    session: str | None = None

    @classmethod
    def of(cls, spec: Any, phase: Any, since: Any, until: Any = None, session: Any = None) -> MemoryFilter:
        checked = cls(validate_spec("spec", spec), validate_phase("phase", phase), validate.moment("since", since),
                      validate.moment("until", until), validate_session("session", session))
        if checked.since is not None and checked.until is not None and checked.until < checked.since:
            raise ValidationError(f"until: {iso(checked.until)} is before since ({iso(checked.since)}); the window "
                                  "would hold nothing")
        return checked


def validate_spec(field: str, spec: Any) -> str | None:
    """A spec or project slug (validate.slug), or None."""
    return None if spec is None else validate.slug(field, spec)


def validate_phase(field: str, phase: Any) -> str | None:
    """One of PHASES, or None."""
    return None if phase is None else validate.choice(field, phase, PHASES)


def validate_session(field: str, session: Any) -> str | None:
    """The conversation a turn was said in: one line of at most MAX_SESSION_CHARS, or None."""
    return _one_line(field, session, MAX_SESSION_CHARS, "a session is a name or an id")


def validate_speaker(field: str, speaker: Any) -> str | None:
    """Who said a turn ("user", "assistant", "Caroline"): one line of at most MAX_SPEAKER_CHARS, or None."""
    return _one_line(field, speaker, MAX_SPEAKER_CHARS, "a speaker is a name")


def _one_line(field: str, value: Any, max_chars: int, why: str) -> str | None:
    if value is None:
        return None
    checked = validate.text(field, value, max_chars=max_chars)
    if "\n" in checked or "\r" in checked:
        raise ValidationError(f"{field}: {checked!r:.80} spans lines; {why}")
    return checked


def validate_said_at(field: str, said_at: Any) -> datetime | None:
    """When a turn was said: an ISO 8601 date or datetime (or a datetime), as naive UTC; not an age."""
    if isinstance(said_at, str) and not any(mark in said_at for mark in "-:"):
        raise ValidationError(f"{field}: {said_at!r:.80} is not an ISO date or datetime (e.g. '2026-01-31' or "
                              "'2026-01-31T12:00:00Z')")
    return validate.moment(field, said_at)


def validate_sources(field: str, sources: Any) -> tuple[str, ...]:
    """The documents a memory came from: a list of at most MAX_SOURCES paths or anchors
    ("README.md#install", "lib/auth.py", a URL), each one line of at most MAX_SOURCE_CHARS; duplicates dropped."""
    if sources is None:
        return ()
    if isinstance(sources, str) or not isinstance(sources, (list, tuple)):
        raise ValidationError(f"{field}: expected a list of document paths such as ['README.md#install'], "
                              f"got {type(sources).__name__} {sources!r:.80}")
    if len(sources) > MAX_SOURCES:
        raise ValidationError(f"{field}: {len(sources)} sources; at most {MAX_SOURCES}")
    checked = [validate.text(f"{field}[{i}]", source, max_chars=MAX_SOURCE_CHARS) for i, source in enumerate(sources)]
    for i, source in enumerate(checked):
        if "\n" in source or "\r" in source:
            raise ValidationError(f"{field}[{i}]: {source!r:.80} spans lines; a source is one path or anchor")
    return tuple(dict.fromkeys(checked))


def refuse_secret(field: str, content: str) -> None:
    """ValidationError if `content` looks like it holds a credential (learnmem.memory.secret_scan); the error
    names the pattern and shows the match redacted, never whole."""
    found = secret_scan.find_secret(content)
    if found is not None:
        raise ValidationError(
            f"{field}: looks like it contains {found.description} (pattern {found.pattern}: {found.redacted}); "
            "nothing was stored. Remove the secret, or, if storing it is intended, allow it: allow_secrets=True "
            '(Python), "allow_secrets": true (MCP), --allow-secrets (CLI)'
        )
