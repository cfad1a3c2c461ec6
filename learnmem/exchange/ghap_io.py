"""GHAP export and import: entries as JSON lines, in the entry format of ../shared/GHAP.md.

Export (`export_entries`) writes one entry per line, oldest first (created_at,
then id), every key of the entry format present (null where an entry has no
value: an active entry's outcome, an entry without surprise, root cause or
lesson). Times are ISO 8601 UTC with `Z` (with microseconds when the stored
time has them, so that an import restores it exactly). Active entries are
left out unless `include_active`.

Import (`import_entries`) reads such a file, or a directory in the layout of
the original journal-based tools: `archive/*.jsonl`, then the other `*.jsonl`
files at the top (`session_entries.jsonl`), then `current_ghap.json` (the
active entry; a pretty-printed object is fine). What it does:

- Each line is checked on its own. A line that is not JSON, not an object,
  misses a required field, holds a value outside an enum, or a text over
  ghap.py's limits (1,000 characters for goal, hypothesis, action, prediction,
  history and notes; 2,000 for result, surprise, root cause description and
  lesson) is skipped and reported as `file:line: reason`; it never stops the
  import. Invalid UTF-8 becomes U+FFFD; texts are stripped, as ghap.py stores them.
- An entry whose id is already stored (or came earlier in the same import) is
  skipped and counted in `skipped_duplicates`.
- Every valid new entry is inserted in ONE transaction, and the experience
  axes of each resolved one are recorded in that same transaction; they are
  embedded after the commit (a failure leaves them pending, as after a resolve).
- An active entry (no outcome) becomes the active entry only if no entry is
  active now (and only the first such entry of the import); otherwise it is
  stored as abandoned with the result `imported while another entry was
  active` (resolved at import time), and `warnings` says so.
- Tiers: a resolved entry without `confidence_tier` gets the one resolve_ghap
  would give (abandoned, else gold when auto-captured, else silver). The bronze
  rule (experiences.bronze_reason) is applied on import as it is at resolve
  time, so a gold or silver entry from the old tools, which assigned bronze
  only when persisting, is demoted when its hypothesis or result says too little.
  A given tier must agree with the status (abandoned <=> abandoned).
- A falsified entry needs a surprise and a root cause, as resolve_ghap demands.

Accepted shapes (the tolerant mapping; when both places hold a value, the
top-level one wins):

- The flat entry format: id, session_id, created_at, domain, strategy, goal,
  hypothesis, action, prediction, history [{timestamp, hypothesis, action,
  prediction}], iteration_count, notes, outcome {status, result, captured_at,
  auto_captured}, surprise, root_cause {category, description}, lesson
  {what_worked, takeaway}, confidence_tier.
- The older shape: the active triple (hypothesis, action, prediction, and
  possibly strategy and the time it was set as `timestamp`, `revised_at` or
  `set_at`) under a `current` object, and the resolution under a `resolution`
  object holding either an `outcome` object or its fields flat (status,
  result, captured_at or resolved_at, auto_captured) beside surprise,
  root_cause, lesson and confidence_tier.
- Rows of the `ghap_entries` table as JSON (e.g. `COPY ghap_entries TO
  'x.jsonl'`): outcome_status, outcome_result, captured_at, auto_captured,
  root_cause_category, root_cause_description, lesson_what_worked, lesson_takeaway.
- Small variations: `outcome` given as the status string (with `result` and
  `captured_at`/`resolved_at` beside it), `resolved_at` for `captured_at`, a
  lesson given as a string (its what_worked), notes given as one string,
  missing history/notes (empty), missing iteration_count (history length + 1),
  missing auto_captured (false), missing session_id in an archive file
  (`archive/{date}_{session id}.jsonl` names it). Times may end in `Z`, carry
  an offset (converted to UTC), carry none (taken as UTC), or be Unix seconds.
  Unknown keys are ignored.

Two times are not in the entry format and are derived on import:
`revised_at` (when the current triple was set: the value given in the older
shape, else the last history timestamp, else created_at) and `updated_at`
(captured_at for a resolved entry, else revised_at).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

import pyarrow as pa

from learnmem.learning import experiences, ghap
from learnmem.storage import sql
from learnmem import validate
from learnmem.errors import NotFoundError, ValidationError
from learnmem.storage.store import Store, utc_now

IMPORTED_WHILE_ACTIVE = "imported while another entry was active"
CURRENT_FILE = "current_ghap.json"
_ARCHIVE_NAME = re.compile(r"^\d{8}_(session_[A-Za-z0-9_.-]+)\.jsonl$")
_TRIPLE = ("hypothesis", "action", "prediction")


@dataclass(frozen=True)
class ImportResult:
    """What import_entries did: entries stored, duplicates skipped, lines rejected (`file:line: reason`),
    and warnings (active entries stored as abandoned because another entry was active)."""

    imported: int
    skipped_duplicates: int
    errors: tuple[str, ...]
    warnings: tuple[str, ...] = ()


# -- export ----------------------------------------------------------------------


def _iso(moment: datetime) -> str:
    """A stored time as ISO 8601 UTC with `Z`, to the microsecond when it has one: an import gives back the
    exact time, so entries keep their order."""
    return moment.isoformat() + "Z"


def entry_json(row: Mapping[str, Any]) -> dict[str, Any]:
    """One ghap_entries row (a mapping of its columns) in the entry format of GHAP.md."""
    resolved = row["outcome_status"] is not None
    return {
        "id": row["id"],
        "session_id": row["session_id"],
        "created_at": _iso(row["created_at"]),
        "domain": row["domain"],
        "strategy": row["strategy"],
        "goal": row["goal"],
        "hypothesis": row["hypothesis"],
        "action": row["action"],
        "prediction": row["prediction"],
        "history": [{"timestamp": _iso(item["timestamp"]), "hypothesis": item["hypothesis"],
                     "action": item["action"], "prediction": item["prediction"]} for item in row["history"]],
        "iteration_count": row["iteration_count"],
        "notes": list(row["notes"]),
        "outcome": {"status": row["outcome_status"], "result": row["outcome_result"],
                    "captured_at": _iso(row["captured_at"]), "auto_captured": bool(row["auto_captured"])}
        if resolved else None,
        "surprise": row["surprise"],
        "root_cause": {"category": row["root_cause_category"], "description": row["root_cause_description"]}
        if row["root_cause_category"] is not None else None,
        "lesson": {"what_worked": row["lesson_what_worked"], "takeaway": row["lesson_takeaway"]}
        if row["lesson_what_worked"] is not None else None,
        "confidence_tier": row["confidence_tier"],
    }


# Characters JSON leaves raw that str.splitlines() (and other line readers) treat as line breaks.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def _one_line(text: str) -> str:
    """A JSON document that every line reader sees as one line (these characters only occur inside strings)."""
    return text.translate(_LINE_BREAKS)


def export_entries(store: Store, out: TextIO | str | os.PathLike, include_active: bool = False) -> int:
    """Write every resolved entry (and the active one when `include_active`) as JSON lines, oldest first,
    to a text stream or a file path (UTF-8); returns the number of entries. A path is created, or replaced
    only when it holds a GHAP export already (or nothing): any other file is left alone (ValidationError),
    since an agent may choose the path (the MCP tool) and a wrong one must not cost the user a file."""
    if not isinstance(include_active, bool):
        raise ValidationError(f"include_active: expected true or false, got {include_active!r}")
    with store.read() as con:
        cursor = con.execute(sql.query("export_ghap_entries"), {"include_active": include_active})
        names = [column[0] for column in cursor.description]
        rows = [dict(zip(names, values)) for values in cursor.fetchall()]
    lines = [_one_line(json.dumps(entry_json(row), ensure_ascii=False)) + "\n" for row in rows]
    if isinstance(out, (str, os.PathLike)):
        path = Path(out).expanduser()
        _refuse_to_replace(path)
        try:
            with path.open("w", encoding="utf-8", newline="\n") as handle:
                handle.writelines(lines)
        except (OSError, ValueError) as error:  # ValueError: a NUL byte in the path
            raise ValidationError(f"out: cannot write {str(path)[:200]!r}: {getattr(error, 'strerror', None) or error}"
                                  ) from None
    else:
        out.writelines(lines)
    return len(rows)


# -- reading files ---------------------------------------------------------------


def _refuse_to_replace(path: Path) -> None:
    """ValidationError when `path` is a file whose first line is not a GHAP entry (a file export_entries did not
    write); a missing or empty file is fine. Unreadable paths are left to the write, which names the error."""
    try:
        if not path.is_file() or path.stat().st_size == 0:
            return
        with path.open("rb") as handle:
            first = handle.readline(1 << 20).decode("utf-8", "replace").strip()
    except (OSError, ValueError):
        return
    try:
        record = json.loads(first)
    except json.JSONDecodeError:
        record = None
    if not (isinstance(record, dict) and str(record.get("id", "")).startswith("ghap_")):
        raise ValidationError(f"out: {str(path)[:200]!r} exists and is not a GHAP export; it was left as it is "
                              "(choose a new path, or remove that file first)")


def insert_entries(con, entries: list[tuple[str, dict[str, Any]]], now: datetime,
                   warnings: list[str]) -> tuple[list[dict[str, Any]], int]:
    """Insert the entries (where, row) not stored yet, inside the caller's transaction; returns (the rows
    inserted, how many were stored already). An active entry stays active only if none is (else it is
    stored abandoned, with a warning); resolved ones get their experience axes recorded (pending)."""
    if not entries:
        return [], 0
    known = {entry_id for (entry_id,) in con.execute(sql.query("ghap_entry_ids")).fetchall()}
    active = con.execute(sql.query("active_ghap")).fetchone()
    active_id = active[0] if active else None
    fresh, skipped = [], 0
    for where, row in entries:
        if row["id"] in known:
            skipped += 1
            continue
        known.add(row["id"])
        if row["active"]:
            if active_id is None:
                active_id = row["id"]
            else:
                _abandon_on_import(row, now)
                warnings.append(f"{where}: GHAP entry {row['id']} was active; stored as abandoned "
                                f"({IMPORTED_WHILE_ACTIVE}: {active_id})")
        fresh.append(row)
    if fresh:
        con.register("new_ghap_entries", _arrow_rows(fresh))
        try:
            con.execute(sql.query("insert_ghap_entries"))
            con.execute(sql.query("insert_imported_active_ghap"))
        finally:
            con.unregister("new_ghap_entries")
        experiences.record_axes(con, [row for row in fresh if not row["active"]], now)
    return fresh, skipped


def _files(source: Path) -> list[Path]:
    """The files to read, in order: a file itself, or a journal directory's archive, JSONL files, active entry."""
    if not validate.path_exists("source", source):
        raise NotFoundError(f"source: {source} does not exist (give a .jsonl file or a journal directory)")
    if source.is_file():
        return [source]
    archive = source / "archive"
    files = sorted(path for path in archive.glob("*.jsonl") if path.is_file()) if archive.is_dir() else []
    files += sorted(path for path in source.glob("*.jsonl") if path.is_file())
    if (source / CURRENT_FILE).is_file():
        files.append(source / CURRENT_FILE)
    if not files:
        raise ValidationError(f"source: {source} holds no {CURRENT_FILE}, *.jsonl or archive/*.jsonl files")
    return files


def _records(path: Path) -> Iterator[tuple[int, Any, str | None]]:
    """(line, parsed value, error) for each entry of a file: JSON lines, or one JSON object for a .json file."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff")
    except OSError as error:
        yield 1, None, f"cannot read the file: {error.strerror or error}"
        return
    if path.suffix.lower() == ".json":
        try:
            document = json.loads(text) if text.strip() else None
        except json.JSONDecodeError as error:
            if error.msg != "Extra data":  # more than one value: read it as JSON lines below
                yield error.lineno, None, f"not valid JSON ({error.msg} at line {error.lineno} column {error.colno})"
                return
        else:
            if document is not None:  # an empty or `null` current_ghap.json means no active entry
                yield 1, document, None
            return
    # Lines end at "\n" only: JSON text may hold U+2028 and other characters str.splitlines() breaks at.
    for number, line in enumerate(text.split("\n"), 1):
        line = line.strip()
        if not line:
            continue
        try:
            yield number, json.loads(line), None
        except json.JSONDecodeError as error:
            yield number, None, f"not valid JSON ({error.msg} at column {error.colno})"


# -- the tolerant mapping --------------------------------------------------------


def _present(value: Any) -> bool:
    return value is not None


def _canonical(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The entry in the flat format, whatever accepted shape it came in (see the module docstring)."""
    data = dict(raw)
    current = raw.get("current")
    if current is not None:
        if not isinstance(current, Mapping):
            raise ValidationError(f"current: expected an object with {', '.join(_TRIPLE)}, got {type(current).__name__}")
        for key in (*_TRIPLE, "strategy"):
            if not _present(data.get(key)) and _present(current.get(key)):
                data[key] = current[key]
        if not _present(data.get("revised_at")):
            data["revised_at"] = next((current[key] for key in ("revised_at", "timestamp", "set_at")
                                       if _present(current.get(key))), None)
    resolution = raw.get("resolution")
    if resolution is not None:
        if not isinstance(resolution, Mapping):
            raise ValidationError(f"resolution: expected an object, got {type(resolution).__name__}")
        for key in ("outcome", "surprise", "root_cause", "lesson", "confidence_tier"):
            if not _present(data.get(key)) and _present(resolution.get(key)):
                data[key] = resolution[key]
        if not _present(data.get("outcome")) and _present(resolution.get("status")):
            data["outcome"] = {key: resolution.get(key) for key in ("status", "result", "captured_at", "resolved_at",
                                                                   "auto_captured")}
    outcome = data.get("outcome")
    if isinstance(outcome, str):  # the status alone, its details beside it
        data["outcome"] = {"status": outcome, **{key: data.get(key) for key in ("result", "captured_at", "resolved_at",
                                                                               "auto_captured")}}
    elif not _present(outcome) and _present(data.get("outcome_status")):  # ghap_entries columns
        data["outcome"] = {"status": data["outcome_status"], "result": data.get("outcome_result"),
                           "captured_at": data.get("captured_at"), "auto_captured": data.get("auto_captured")}
    if not _present(data.get("root_cause")) and (_present(data.get("root_cause_category"))
                                                 or _present(data.get("root_cause_description"))):
        data["root_cause"] = {"category": data.get("root_cause_category"),
                              "description": data.get("root_cause_description")}
    if not _present(data.get("lesson")) and (_present(data.get("lesson_what_worked"))
                                             or _present(data.get("lesson_takeaway"))):
        data["lesson"] = {"what_worked": data.get("lesson_what_worked"), "takeaway": data.get("lesson_takeaway")}
    return data


def _required(data: Mapping[str, Any], key: str, field: str) -> Any:
    value = data.get(key)
    if value is None:
        raise ValidationError(f"{field}: required")
    return value



def _time(field: str, value: Any) -> datetime:
    """A time as a naive UTC datetime: an ISO 8601 string (Z, an offset or none = UTC) or Unix seconds."""
    if value is None:
        raise ValidationError(f"{field}: required")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(value, UTC).replace(tzinfo=None)
        except (OverflowError, OSError, ValueError):
            raise ValidationError(f"{field}: {value!r} is not a Unix time in seconds") from None
    if not isinstance(value, str):
        raise ValidationError(f"{field}: expected an ISO 8601 time, got {type(value).__name__} {value!r}")
    return validate.moment(field, value)


def _text(field: str, value: Any, limit: int) -> str:
    return validate.text(field, value, max_chars=limit)


def _optional_text(field: str, value: Any, limit: int) -> str | None:
    return None if value is None else validate.text(field, value, max_chars=limit)


def _boolean(field: str, value: Any) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ValidationError(f"{field}: expected true or false, got {value!r}")
    return value


def _object(field: str, value: Any, keys: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValidationError(f"{field}: expected an object with {keys}, got {type(value).__name__}")
    return value


def _history(value: Any) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValidationError(f"history: expected a list, got {type(value).__name__}")
    items = []
    for position, item in enumerate(value):
        field = f"history[{position}]"
        item = _object(field, item, "timestamp, hypothesis, action, prediction")
        items.append({"timestamp": _time(f"{field}.timestamp", item.get("timestamp")),
                      **{key: _text(f"{field}.{key}", _required(item, key, f"{field}.{key}"), ghap.MAX_START_CHARS)
                         for key in _TRIPLE}})
    return items


def _notes(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise ValidationError(f"notes: expected a list of strings, got {type(value).__name__}")
    return [_text(f"notes[{position}]", note, ghap.MAX_START_CHARS) for position, note in enumerate(value)]


def _resolution(data: Mapping[str, Any]) -> dict[str, Any]:
    """The outcome columns of a resolved entry (status, result, captured_at, ..., tier before the bronze rule)."""
    outcome = _object("outcome", data["outcome"], "status, result, captured_at, auto_captured")
    status = validate.choice("outcome.status", _required(outcome, "status", "outcome.status"), ghap.STATUSES)
    captured = outcome.get("captured_at")
    columns = {
        "outcome_status": status,
        "outcome_result": _text("outcome.result", _required(outcome, "result", "outcome.result"),
                                ghap.MAX_RESOLVE_CHARS),
        "captured_at": _time("outcome.captured_at", captured if captured is not None else outcome.get("resolved_at")),
        "auto_captured": _boolean("outcome.auto_captured", outcome.get("auto_captured")),
        "surprise": _optional_text("surprise", data.get("surprise"), ghap.MAX_RESOLVE_CHARS),
        "root_cause_category": None, "root_cause_description": None,
        "lesson_what_worked": None, "lesson_takeaway": None,
    }
    if data.get("root_cause") is not None:
        cause = _object("root_cause", data["root_cause"], "category, description")
        columns["root_cause_category"] = validate.choice(
            "root_cause.category", _required(cause, "category", "root_cause.category"), ghap.ROOT_CAUSE_CATEGORIES)
        columns["root_cause_description"] = _text(
            "root_cause.description", _required(cause, "description", "root_cause.description"), ghap.MAX_RESOLVE_CHARS)
    lesson = data.get("lesson")
    if isinstance(lesson, str):
        lesson = {"what_worked": lesson}
    if lesson is not None:
        lesson = _object("lesson", lesson, "what_worked, takeaway")
        columns["lesson_what_worked"] = _text(
            "lesson.what_worked", _required(lesson, "what_worked", "lesson.what_worked"), ghap.MAX_RESOLVE_CHARS)
        columns["lesson_takeaway"] = _optional_text("lesson.takeaway", lesson.get("takeaway"), ghap.MAX_RESOLVE_CHARS)
    if status == "falsified" and (columns["surprise"] is None or columns["root_cause_category"] is None):
        missing = "surprise" if columns["surprise"] is None else "root_cause"
        raise ValidationError(f"{missing}: required when outcome.status is 'falsified'")
    tier = data.get("confidence_tier")
    if status == "abandoned":
        if tier not in (None, "abandoned"):
            raise ValidationError(f"confidence_tier: {tier!r} contradicts outcome.status 'abandoned' (must be abandoned)")
        tier = "abandoned"
    elif tier is None:
        tier = "gold" if columns["auto_captured"] else "silver"
    else:
        tier = validate.choice(f"confidence_tier (outcome {status})", tier, ("gold", "silver", "bronze"))
    columns["confidence_tier"] = tier
    return columns


def _unresolved() -> dict[str, Any]:
    return dict.fromkeys(("outcome_status", "outcome_result", "captured_at", "auto_captured", "surprise",
                          "root_cause_category", "root_cause_description", "lesson_what_worked", "lesson_takeaway",
                          "confidence_tier"))


def entry_row(raw: Any, fallback_session: str | None = None) -> dict[str, Any]:
    """One imported entry (any accepted shape) as a ghap_entries row; ValidationError names what is wrong."""
    if not isinstance(raw, Mapping):
        raise ValidationError(f"expected a JSON object (one entry), got {type(raw).__name__}")
    data = _canonical(raw)
    if data.get("session_id") is None and fallback_session is not None:
        data["session_id"] = fallback_session
    row: dict[str, Any] = {
        "id": validate.identifier("id", _required(data, "id", "id")),
        "session_id": validate.identifier("session_id", _required(data, "session_id", "session_id")),
        "created_at": _time("created_at", data.get("created_at")),
        "domain": validate.choice("domain", _required(data, "domain", "domain"), ghap.DOMAINS),
        "strategy": validate.choice("strategy", _required(data, "strategy", "strategy"), ghap.STRATEGIES),
        "goal": _text("goal", _required(data, "goal", "goal"), ghap.MAX_START_CHARS),
        **{key: _text(key, _required(data, key, key), ghap.MAX_START_CHARS) for key in _TRIPLE},
    }
    history = _history(data.get("history"))
    count = data.get("iteration_count")
    if count is None:
        count = len(history) + 1
    validate.integer("iteration_count", count, low=1, high=2**31 - 1)
    revised = data.get("revised_at")
    revised_at = (_time("revised_at", revised) if revised is not None
                  else max(row["created_at"], history[-1]["timestamp"]) if history else row["created_at"])
    row.update(history=history, iteration_count=count, notes=_notes(data.get("notes")), revised_at=revised_at)
    if data.get("outcome") is None:
        stray = [key for key in ("confidence_tier", "surprise", "root_cause", "lesson") if data.get(key) is not None]
        if stray:
            raise ValidationError(f"{stray[0]}: given without an outcome (an active entry has no resolution)")
        row.update(_unresolved(), active=True, updated_at=revised_at)
        return row
    row.update(_resolution(data), active=False)
    row["updated_at"] = row["captured_at"]
    if row["confidence_tier"] in ("gold", "silver") and experiences.bronze_reason(row) is not None:
        row["confidence_tier"] = "bronze"
    return row


# -- import ----------------------------------------------------------------------

_COLUMNS = ("id", "session_id", "created_at", "updated_at", "revised_at", "active", "domain", "strategy", "goal",
            "hypothesis", "action", "prediction", "history", "iteration_count", "notes", "outcome_status",
            "outcome_result", "captured_at", "auto_captured", "surprise", "root_cause_category",
            "root_cause_description", "lesson_what_worked", "lesson_takeaway", "confidence_tier")


def _arrow_rows(rows: list[dict[str, Any]]) -> pa.Table:
    """The rows as an Arrow table with the columns and types of ghap_entries."""
    text, moment = pa.string(), pa.timestamp("us")
    types = {"created_at": moment, "updated_at": moment, "revised_at": moment, "captured_at": moment,
             "active": pa.bool_(), "auto_captured": pa.bool_(), "iteration_count": pa.int32(),
             "notes": pa.list_(text),
             "history": pa.list_(pa.struct([("timestamp", moment), ("hypothesis", text), ("action", text),
                                            ("prediction", text)]))}
    schema = pa.schema([(name, types.get(name, text)) for name in _COLUMNS])
    return pa.Table.from_pylist([{name: row[name] for name in _COLUMNS} for row in rows], schema=schema)


def _abandon_on_import(row: dict[str, Any], now: datetime) -> None:
    row.update(_unresolved(), active=False, outcome_status="abandoned", outcome_result=IMPORTED_WHILE_ACTIVE,
               captured_at=now, auto_captured=False, confidence_tier="abandoned", updated_at=now)


def import_entries(store: Store, source: str | os.PathLike, embedder=None) -> ImportResult:
    """Import entries from a JSONL file (or one JSON entry) or a journal directory; see the module docstring.

    `embedder` (an Embedder, or a callable returning one) embeds the new experience axes after the
    commit; None leaves them pending for the next resolve, search or reembed.
    """
    errors: list[str] = []
    candidates: list[tuple[str, dict[str, Any]]] = []
    for path in _files(Path(source).expanduser()):
        archived = _ARCHIVE_NAME.match(path.name) if path.parent.name == "archive" else None
        for line, value, problem in _records(path):
            where = f"{path}:{line}"
            if problem is None:
                try:
                    candidates.append((where, entry_row(value, archived.group(1) if archived else None)))
                    continue
                except ValidationError as error:
                    problem = str(error)
            errors.append(f"{where}: {problem}")

    now = utc_now()
    warnings: list[str] = []
    skipped = 0
    fresh: list[dict[str, Any]] = []
    with store.write() as con:
        fresh, skipped = insert_entries(con, candidates, now, warnings)
    if any(not row["active"] for row in fresh):
        ghap.embed_pending_quietly(store, embedder)  # the same after-commit policy as a resolve
    return ImportResult(imported=len(fresh), skipped_duplicates=skipped, errors=tuple(errors),
                        warnings=tuple(warnings))
