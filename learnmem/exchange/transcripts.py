"""Conversation transcripts read as memories: one memory per turn, with the session it was said in, its speaker
and the time it was said (migration 015), so that a later question can reach what was said and when.

Two formats, told apart by their first lines (`import_data` reads both; `turns_of` gives store_memories' items):

- **turns**: JSON Lines, one turn per line, in the order said. Each line names the speaker (`speaker`, or `role`
  as chat APIs write it) and the text (`text`, or `content`); optionally the session (`session`, `session_id`
  or `sessionId`: a name, an id or a number; default: the file's name without its suffix) and the time
  (`said_at` or `timestamp`, an ISO 8601 datetime; or `date` with an optional `time`, "2023-05-08" and
  "13:56"). Other keys are ignored. A line without a speaker or a text, or with a time that is not one,
  refuses the whole file, every such line named.
- **claude-code**: Claude Code's session transcript (`~/.claude/projects/<project>/<session id>.jsonl`; its hooks
  name it in `transcript_path`). Anthropic calls the format internal, and it changes between releases, so it
  is read leniently: the `user` and `assistant` lines, their text blocks only (no thinking, tool calls or
  tool results), without side chains (sub-agents), meta lines, compaction summaries, slash-command markup and
  `<system-reminder>` blocks; an assistant message written as several lines (one per block) is one turn.
  Every other line is skipped and counted in the result's warnings.

A turn is stored as `"<speaker>: <text>"` (names are what questions ask about: "what did Caroline say about
the move?"), category `conversation`, cut to MAX_CONTENT_CHARS with a warning. Its duplicate key is its text,
session, speaker and time (learnmem.memory.items.turn_hash): importing a transcript again stores nothing
twice, while "sounds good" said twice is two turns.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from learnmem.errors import ValidationError
from learnmem.validate import clean_text
from learnmem.exchange.import_batch import Batch, ImportedMemory
from learnmem.memory.items import (MAX_CONTENT_CHARS, turn_hash, validate_said_at, validate_session,
                                   validate_speaker)

FORMATS = ("turns", "claude-code")
CATEGORY = "conversation"
_SPEAKER_KEYS = ("speaker", "role")
_TEXT_KEYS = ("text", "content")
_SESSION_KEYS = ("session", "session_id", "sessionId")
_TIME_KEYS = ("said_at", "timestamp")
_CLAUDE_TURNS = ("user", "assistant")
# The line types of Claude Code's transcripts that are not turns (bookkeeping, titles, snapshots).
_CLAUDE_TYPES = (*_CLAUDE_TURNS, "summary", "system", "attachment", "file-history-snapshot", "queue-operation",
                 "custom-title", "agent-name", "ai-title", "mode", "last-prompt")
# Markup Claude Code wraps around what is not said: slash commands and their output, and reminders it injects.
_MARKUP = re.compile(r"<(system-reminder|command-[a-z-]+|local-command-[a-z-]+)>.*?</\1>", re.DOTALL)


@dataclass(frozen=True)
class Turn:
    """One turn of a conversation, as read from a transcript."""

    session: str
    speaker: str
    text: str
    said_at: datetime | None
    line: int  # where it starts in the file

    def item(self) -> dict[str, Any]:
        """The turn as an item of store_memories."""
        return {"content": clean_text(f"{self.speaker}: {self.text}")[:MAX_CONTENT_CHARS].strip(), "category": CATEGORY,
                "session": self.session, "speaker": self.speaker, "said_at": self.said_at}


@dataclass
class Reading:
    """What a transcript holds: its turns, the lines that refuse it (turns format) and what was skipped."""

    format: str
    turns: list[Turn] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def detect(text: str) -> str | None:
    """The transcript format of a JSON Lines text, from its first JSON object; None if it is neither."""
    for line in text.split("\n"):
        if not line.strip():
            continue
        try:
            first = json.loads(line)
        except ValueError:
            return None
        if not isinstance(first, Mapping):
            return None
        if first.get("type") in _CLAUDE_TYPES and ("sessionId" in first or "message" in first or "uuid" in first
                                                    or first.get("type") == "summary"):
            return "claude-code"
        if "kind" not in first and _first(first, _SPEAKER_KEYS)[1] is not None \
                and _first(first, _TEXT_KEYS)[1] is not None:  # `kind`: a line of a learnmem export
            return "turns"
        return None
    return None


def read(text: str, source: Path, format: str) -> Reading:  # noqa: A002 - import_data's parameter
    """The turns of a transcript in `format` (FORMATS); `source` names the default session."""
    reading = Reading(format)
    if format == "turns":
        _read_turns(text, source.stem, reading)
    else:
        _read_claude_code(text, source.stem, reading)
    long = sum(len(f"{turn.speaker}: {turn.text}") > MAX_CONTENT_CHARS for turn in reading.turns)
    if long:
        reading.warnings.append(f"{long} turns over {MAX_CONTENT_CHARS:,} characters were cut to that length")
    return reading


def turns_of(path: str | Path, format: str | None = None) -> list[dict[str, Any]]:  # noqa: A002
    """A transcript file as items for store_memories, one per turn (session, speaker, said_at set).
    ValidationError lists the lines that refuse a turns file."""
    source = Path(path).expanduser()
    text = source.read_text(encoding="utf-8")
    chosen = format or detect(text)
    if chosen not in FORMATS:
        raise ValidationError(f"format: {source} is not a transcript ({' or '.join(FORMATS)}): its first line is "
                              "neither a turn with a speaker and a text nor a Claude Code transcript line")
    reading = read(text, source, chosen)
    if reading.problems:
        raise ValidationError(f"path: {source}: " + "; ".join(reading.problems[:20]))
    return [turn.item() for turn in reading.turns]


def batch_of(reading: Reading, now: datetime) -> Batch:
    """The turns as an import batch (learnmem.exchange.import_batch): new ids, stored `now`; a turn repeated
    within the file is imported once."""
    batch = Batch(problems=list(reading.problems), warnings=list(reading.warnings))
    seen: set[str] = set()
    for turn in reading.turns:
        item = turn.item()
        key = turn_hash(item["content"], turn.session, turn.speaker, turn.said_at)
        if key in seen:
            continue
        seen.add(key)
        row = {"id": None, "content": item["content"], "category": CATEGORY, "importance": 0.5, "tags": [],
               "created_at": now, "session": turn.session, "speaker": turn.speaker, "said_at": turn.said_at}
        batch.memories.append(ImportedMemory(f"line {turn.line}", row))
    repeated = len(reading.turns) - len(batch.memories)
    if repeated:
        batch.warnings.append(f"{repeated} turns repeat an earlier one of the file (same session, speaker, time and "
                              "text) and were imported once")
    return batch


def _lines(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            yield number, line


def _first(raw: Mapping[str, Any], keys: tuple[str, ...]) -> tuple[str, Any]:
    for key in keys:
        if raw.get(key) is not None:
            return key, raw[key]
    return keys[0], None


def _read_turns(text: str, default_session: str, reading: Reading) -> None:
    for number, line in _lines(text):
        try:
            raw = json.loads(line)
        except ValueError as error:
            reading.problems.append(f"line {number}: not JSON ({error})")
            continue
        if not isinstance(raw, Mapping):
            reading.problems.append(f"line {number}: expected a JSON object (a turn), got {type(raw).__name__}")
            continue
        try:
            reading.turns.append(_turn(raw, number, default_session))
        except ValidationError as error:
            reading.problems.append(f"line {number}: {error}")


def _turn(raw: Mapping[str, Any], number: int, default_session: str) -> Turn:
    speaker_key, speaker = _first(raw, _SPEAKER_KEYS)
    text_key, said = _first(raw, _TEXT_KEYS)
    if speaker is None:
        raise ValidationError("speaker: required (`speaker` or `role`)")
    if said is None:
        raise ValidationError("text: required (`text` or `content`)")
    session_key, session = _first(raw, _SESSION_KEYS)
    if isinstance(session, (int, float)) and not isinstance(session, bool):
        session = str(session)
    return Turn(session=validate_session(session_key, session) or default_session,
                speaker=validate_speaker(speaker_key, speaker),
                text=_text(text_key, said),
                said_at=_said_at(raw), line=number)


def _text(field_name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(f"{field_name}: expected a non-empty string, got {value!r:.80}")
    return value.strip()


def _said_at(raw: Mapping[str, Any]) -> datetime | None:
    key, moment = _first(raw, _TIME_KEYS)
    if moment is not None:
        return validate_said_at(key, moment)
    day, clock = raw.get("date"), raw.get("time")
    if day is None:
        return None if clock is None else validate_said_at("time", clock)
    if clock is None:
        return validate_said_at("date", day)
    if not isinstance(day, str) or not isinstance(clock, str):
        raise ValidationError(f"date, time: expected strings such as '2023-05-08' and '13:56', got {day!r:.40}, "
                              f"{clock!r:.40}")
    return validate_said_at("date, time", f"{day.strip()}T{clock.strip()}")


def _read_claude_code(text: str, default_session: str, reading: Reading) -> None:
    skipped = 0
    current: dict[str, Any] | None = None  # the assistant message being gathered, line by line
    for number, line in _lines(text):
        try:
            raw = json.loads(line)
        except ValueError:
            skipped += 1  # a line cut short: Claude Code appends while a session runs
            continue
        said = _claude_text(raw) if isinstance(raw, Mapping) else None
        if said is None:
            skipped += 1
            continue
        kind, message_id = raw["type"], (raw.get("message") or {}).get("id")
        if current is not None and kind == "assistant" and message_id is not None and message_id == current["id"]:
            current["texts"].append(said)
            continue
        if current is not None:
            reading.turns.append(_claude_turn(current))
        current = {"id": message_id if kind == "assistant" else None, "speaker": kind, "texts": [said],
                   "session": raw.get("sessionId") or default_session, "said_at": raw.get("timestamp"),
                   "line": number}
    if current is not None:
        reading.turns.append(_claude_turn(current))
    if skipped:
        reading.warnings.append(f"{skipped} lines are not turns (tool calls and results, thinking, sub-agents, "
                                "slash commands, bookkeeping) and were skipped")


def _claude_text(raw: Mapping[str, Any]) -> str | None:
    """The said text of a Claude Code line, or None when the line is not a turn."""
    if raw.get("type") not in _CLAUDE_TURNS or raw.get("isSidechain") or raw.get("isMeta") \
            or raw.get("isCompactSummary"):
        return None
    message = raw.get("message")
    if not isinstance(message, Mapping):
        return None
    content = message.get("content")
    if isinstance(content, str):
        parts = [content]
    elif isinstance(content, list):
        parts = [block.get("text") for block in content
                 if isinstance(block, Mapping) and block.get("type") == "text" and isinstance(block.get("text"), str)]
    else:
        return None
    said = _MARKUP.sub("", "\n\n".join(parts)).strip()
    return said or None


def _claude_turn(gathered: dict[str, Any]) -> Turn:
    try:
        said_at = validate_said_at("timestamp", gathered["said_at"])
    except ValidationError:
        said_at = None
    try:
        session = validate_session("sessionId", gathered["session"])
    except ValidationError:
        session = None
    return Turn(session=session or "claude-code", speaker=gathered["speaker"], text="\n\n".join(gathered["texts"]),
                said_at=said_at, line=gathered["line"])
