"""Backup and portability: a consistent copy of the file, and the data a user owns as JSON lines or markdown.

**Backup** (`backup`): a copy of the whole file (memories, code index, git
history, GHAP, clusters, values: everything) named
`<name>.backup-YYYYMMDD-HHMMSS.duckdb` (UTC), beside the file or in a given
folder. It is taken under the writer lock with the file attached read-write,
so that no learnmem writer, DuckDB CLI or notebook can change it meanwhile;
the file is checkpointed (its WAL folded in) and its bytes copied to
`<backup>.partial`, synced, renamed into place; the copy is then opened
read-only and must hold as many rows in each table as the file did.
Measured on 2 cores with 10,000 memories (9 MB): the byte copy holds the lock
~30 ms; DuckDB's `COPY FROM DATABASE` into a new file took 0.67 s (it
rewrites every row, and writes a smaller file), so the byte copy is used.

**JSON lines** (`export_data(path, "jsonl")`, `import_data`): lossless for
what a user owns. The first line is a header:

    {"kind": "header", "format": "learnmem-export", "format_version": 1, "learnmem_version": "...",
     "embedding_model": "all-MiniLM-L6-v2", "embedding_dim": 384,
     "counts": {"memory": 2, "ghap_entry": 1, "value": 0}}

then one object per line, each with a `kind`:

- `memory`: the columns of `memories` except the derived ones (embedding,
  passages, terms, content_hash, seq) — `SELECT *`, so columns a later
  migration adds flow through — in insertion order; a memory with a state
  (forgotten, superseded) carries it as `state` {the columns of
  `memory_states` but memory_id}.
- `ghap_entry`: the entry format of ../shared/GHAP.md (ghap_io.entry_json),
  active entry included, plus `revised_at` and `updated_at`, which that format
  lacks; oldest first.
- `value`: the columns of `learned_values` but terms and embedding (axis,
  cluster id, cluster size, similarity, distances, created_at,
  dissolved_at); oldest first.

Times are ISO 8601 UTC with `Z`, to the microsecond when stored so. Exporting
a file, importing the export into a new file and exporting that gives the
same bytes. Not exported, because an import rebuilds or recomputes them:
embeddings, passages and terms (rebuilt with the importing file's model),
experience axes (recorded and embedded as after a resolve), clusters and
cluster runs (run `get_clusters` again: a value keeps the cluster id it was
stored with), sessions and tool counters, hook observations, code and git
indexes (re-index; or take a `backup`).

An import reads and checks every line before it writes anything: a line
that is not JSON, has an unknown kind, a bad or unknown field, repeats an id,
or a header whose counts disagree with the lines (a file cut short) is
reported with its line number and nothing is imported (RejectedImport).
Memories and values whose ids are stored already are skipped and counted (a
memory whose text is stored under another id too, with a warning); GHAP
entries as `import_ghap` treats them (an imported active entry stays active
only if none is). The new memories and values are embedded first (in batches
of EMBED_BATCH, outside the writer lock, with a progress bar on a terminal),
then every row goes in ONE transaction, so an import lands whole or not at
all. DuckDB keeps a large transaction's appends in its own storage blocks,
so its size is bounded by disk rather than memory; the vectors of the new
rows are held in memory once (1.5 KB per memory).

**Markdown**: learnmem.portable_markdown.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, TextIO

from learnmem import experiences, ghap, ghap_io, keywords, learning, passages, secret_scan, sql, validate
from learnmem.errors import LearnmemError, NotFoundError, ValidationError
from learnmem.memories import (MAX_CONTENT_CHARS, MEMORY_CATEGORIES, content_hash, new_id, passage_lists,
                               validate_sources)
from learnmem.progress import Progress
from learnmem.store import Store, utc_now
from learnmem.version import VERSION

FORMAT = "learnmem-export"
FORMAT_VERSION = 1
FORMATS = ("jsonl", "markdown")
KINDS = ("memory", "ghap_entry", "value")
EMBED_BATCH = 256  # memories embedded per step of the progress bar
MAX_REPORTED = 20  # problems spelled out in a refused import's message (all are in RejectedImport.problems)
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
_FIELD = re.compile(r"^[A-Za-z_][\w.\[\]]*( \([^)]*\))?: ")
# Characters JSON leaves raw that str.splitlines() (and other line readers) treat as line breaks.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


class RejectedImport(ValidationError):
    """An import that found bad lines and wrote nothing; `problems` lists them all (`line N: field: why`)."""

    def __init__(self, message: str, problems: Sequence[str]):
        super().__init__(message)
        self.problems = tuple(problems)


@dataclass(frozen=True)
class ExportResult:
    """What export_data wrote: where (`-` for a stream), in which format, how many of each kind."""

    path: str
    format: str
    memories: int
    ghap_entries: int
    values: int


@dataclass(frozen=True)
class DataImportResult:
    """What import_data did. `imported` and `skipped` (already stored) count memories, ghap_entries and
    values; `warnings` say what was changed or skipped on the way; `problems` are the markdown lines and
    sections that were skipped (`line N (section): why`; a JSON lines import has none: it refuses instead);
    `source_model` is the embedding model the export was made with (memories are embedded again here)."""

    path: str
    format: str
    imported: dict[str, int]
    skipped: dict[str, int]
    warnings: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    source_model: str | None = None
    supersedes_merged: int = 0  # memories stored here that the import found superseded (git notes: merge_states)


# -- backup ------------------------------------------------------------------------------


def backup(store: Store, directory: str | os.PathLike | None = None) -> Path:
    """Copy the file, consistently, to `<name>.backup-YYYYMMDD-HHMMSS.duckdb` in `directory` (default: beside
    it; created if missing) while other processes may be using it; returns the copy's path."""
    if not store.path.is_file():
        raise NotFoundError(f"path: no learnmem file at {store.path} to back up")
    folder = store.path.parent if directory is None else Path(directory).expanduser().absolute()
    if folder.exists() and not folder.is_dir():
        raise ValidationError(f"directory: {folder} is a file; give a folder for the backup")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValidationError(f"directory: cannot create {folder}: {error.strerror or error}") from None
    with store.frozen() as con:
        counts = dict(con.execute(sql.query("table_counts")).fetchall())
        target = _backup_name(folder, store.path, utc_now())
        partial = target.with_name(target.name + ".partial")
        try:
            with open(store.path, "rb") as source, open(partial, "xb") as copy:
                shutil.copyfileobj(source, copy, 1 << 20)
                copy.flush()
                os.fsync(copy.fileno())
            os.replace(partial, target)  # under the lock: a concurrent backup picks another name
        except OSError as error:
            partial.unlink(missing_ok=True)
            raise ValidationError(f"directory: cannot write the backup {target}: {error.strerror or error}") from None
    _check_backup(store, target, counts)
    return target


def _backup_name(folder: Path, source: Path, moment: datetime) -> Path:
    """`<stem>.backup-YYYYMMDD-HHMMSS.duckdb`, with `-2`, `-3`... when that second is taken."""
    base = f"{source.stem}.backup-{moment:%Y%m%d-%H%M%S}"
    target, number = folder / f"{base}.duckdb", 1
    while target.exists() or target.with_name(target.name + ".partial").exists():
        number += 1
        target = folder / f"{base}-{number}.duckdb"
    return target


def _check_backup(store: Store, target: Path, counts: dict[str, int]) -> None:
    """The copy opens with learnmem and holds as many rows in each table as the file did; else it is removed."""
    meta = store.meta
    try:
        copy = Store(target, read_only=True, embedding_model=meta.get("embedding_model", ""),
                     embedding_dim=int(meta.get("embedding_dim", 0)))
        with copy.read() as con:
            copied = dict(con.execute(sql.query("table_counts")).fetchall())
    except LearnmemError as error:
        target.unlink(missing_ok=True)
        raise LearnmemError(f"backup: the copy {target} did not open ({error}); it was removed") from None
    if copied != counts:
        target.unlink(missing_ok=True)
        raise LearnmemError(f"backup: the copy {target} holds {copied}, the file {counts}; the copy was removed")


# -- export ------------------------------------------------------------------------------


def export_data(store: Store, out: str | os.PathLike | TextIO, format: str = "jsonl") -> ExportResult:
    """Write what the user owns as JSON lines (lossless) or markdown (the agent-learning layout) to a path
    (written whole, then renamed into place) or a text stream; see the module docstring."""
    chosen = validate.choice("format", format, FORMATS)
    with store.read() as con:
        meta = dict(con.execute(sql.query("get_meta")).fetchall())
        if chosen == "jsonl":
            text, counts = _jsonl_text(con, meta)
        else:
            text, counts = _markdown().markdown_text(con)
    where = _write(out, text)
    return ExportResult(path=where, format=chosen, memories=counts["memory"], ghap_entries=counts["ghap_entry"],
                        values=counts["value"])


def _write(out: str | os.PathLike | TextIO, text: str) -> str:
    if not isinstance(out, (str, os.PathLike)):
        out.write(text)
        return "-"
    path = Path(out).expanduser()
    if path.is_dir():
        raise ValidationError(f"path: {path} is a folder; give a file to export to")
    partial = path.with_name(path.name + ".partial")
    try:
        with open(partial, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(partial, path)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise ValidationError(f"path: cannot write {path}: {error.strerror or error}") from None
    return str(path)


def _iso(moment: datetime) -> str:
    """A stored (naive UTC) time as ISO 8601 with `Z`, to the microsecond when it has one."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat() + "Z"


def _json_value(name: str, value: Any) -> Any:
    """A column value as JSON data: times as ISO strings, lists and structs recursively."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise LearnmemError(f"{name}: {value!r} cannot be written as JSON")
        return value
    if isinstance(value, datetime):
        return _iso(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_json_value(name, item) for item in value]
    if isinstance(value, dict):
        return {key: _json_value(f"{name}.{key}", item) for key, item in value.items()}
    raise LearnmemError(f"{name}: a {type(value).__name__} value cannot be exported as JSON yet")


def _line(record: Mapping[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False).translate(_LINE_BREAKS) + "\n"


def _rows(cursor) -> list[dict[str, Any]]:
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, values)) for values in cursor.fetchall()]


def memory_records(con) -> list[dict[str, Any]]:
    """Every memory as export data (the user-owned columns, JSON-ready; `state` when it has one), in
    insertion order."""
    cursor = con.execute(sql.query("portable_memories"))
    names = [column[0] for column in cursor.description]
    split = names.index("state_memory_id")  # memory columns before it, state columns after
    records = []
    for values in cursor.fetchall():
        record = {name: _json_value(f"memory.{name}", value) for name, value in zip(names[:split], values[:split])}
        if values[split] is not None:
            record["state"] = {name: _json_value(f"memory.state.{name}", value)
                               for name, value in zip(names[split + 1:], values[split + 1:])}
        records.append(record)
    return records


def value_records(con) -> list[dict[str, Any]]:
    """Every value (dissolved ones too) as export data, oldest first."""
    return [{name: _json_value(f"value.{name}", value) for name, value in row.items()}
            for row in _rows(con.execute(sql.query("portable_values")))]


def _jsonl_text(con, meta: Mapping[str, str]) -> tuple[str, dict[str, int]]:
    lines: dict[str, list[str]] = {kind: [] for kind in KINDS}
    lines["memory"] = [_line({"kind": "memory"} | record) for record in memory_records(con)]
    for row in _rows(con.execute(sql.query("export_ghap_entries"), {"include_active": True})):
        record = {"kind": "ghap_entry"} | ghap_io.entry_json(row) | {
            "revised_at": _iso(row["revised_at"]), "updated_at": _iso(row["updated_at"])}
        lines["ghap_entry"].append(_line(record))
    lines["value"] = [_line({"kind": "value"} | record) for record in value_records(con)]
    counts = {kind: len(lines[kind]) for kind in KINDS}
    header = {"kind": "header", "format": FORMAT, "format_version": FORMAT_VERSION, "learnmem_version": VERSION,
              "embedding_model": meta.get("embedding_model"),
              "embedding_dim": int(meta["embedding_dim"]) if meta.get("embedding_dim") else None, "counts": counts}
    return _line(header) + "".join(line for kind in KINDS for line in lines[kind]), counts


# -- reading a file ----------------------------------------------------------------------


def _read_text(source: Path) -> str:
    if not source.exists():
        raise NotFoundError(f"path: {source} does not exist (give a learnmem JSONL export or a markdown memory file)")
    if not source.is_file():
        raise ValidationError(f"path: {source} is {'a folder' if source.is_dir() else 'not a file'}; give the file "
                              f"to import")
    try:
        data = source.read_bytes()
    except OSError as error:
        raise ValidationError(f"path: cannot read {source}: {error.strerror or error}") from None
    try:
        return data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ValidationError(f"path: {source} is not UTF-8 text (line {line}, byte {error.start}): it is neither a "
                              f"learnmem JSONL export nor a markdown memory file") from None


def _format_of(source: Path, text: str, format: str | None) -> str:
    if format is not None:
        return validate.choice("format", format, FORMATS)
    first = next((line.strip() for line in text.split("\n") if line.strip()), "")
    if first.startswith("{"):
        return "jsonl"
    if _markdown().markdown_layout(text):
        return "markdown"
    raise ValidationError(
        f"path: {source} is neither a learnmem JSONL export (its first line is a JSON header with "
        f"\"kind\": \"header\") nor markdown in the agent-learning layout (`## Consolidated Learnings`, "
        f"`## Session ...`, `### User Corrections`, ...)")


# -- checks shared by both formats -------------------------------------------------------


def _ident(name: str, value: Any) -> str:
    if not isinstance(value, str) or not _ID.match(value):
        raise ValidationError(f"{name}: {value!r} is not an id (letters, digits, '_', '.', '-'; at most 100)")
    return value


_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def commit_sha(name: str, value: Any) -> str:
    """A git object id: 40 (SHA-1) or 64 (SHA-256) lowercase hex digits."""
    if not isinstance(value, str) or not _SHA.fullmatch(value):
        raise ValidationError(f"{name}: {value!r:.80} is not a commit id (40 or 64 lowercase hex digits)")
    return value


def _time(name: str, value: Any) -> datetime:
    if value is None:
        raise ValidationError(f"{name}: required")
    if not isinstance(value, str):
        raise ValidationError(f"{name}: expected an ISO 8601 time such as '2026-01-31T12:00:00Z', got "
                              f"{type(value).__name__} {value!r}")
    return validate.moment(name, value)


def _typed(name: str, value: Any, kind) -> Any:
    """A value for a column of Arrow type `kind` (a column this module knows nothing more about)."""
    import pyarrow as pa

    if value is None:
        return None
    if pa.types.is_timestamp(kind):
        return _time(name, value)
    if pa.types.is_date(kind):
        moment = _time(name, value)
        return moment.date()
    try:
        pa.scalar(value, type=kind)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError):
        raise ValidationError(f"{name}: {value!r} does not fit the column's type {kind}") from None
    return value


def _required(raw: Mapping[str, Any], key: str) -> Any:
    if raw.get(key) is None:
        raise ValidationError(f"{key}: required")
    return raw[key]


@dataclass
class Columns:
    """Names and Arrow types of the user-owned columns of memories, memory_states and learned_values."""

    memory: Any
    state: Any
    value: Any

    @classmethod
    def read(cls, con) -> Columns:
        return cls(con.execute(sql.query("portable_memory_columns")).to_arrow_table().schema,
                   con.execute(sql.query("portable_memory_state_columns")).to_arrow_table().schema,
                   con.execute(sql.query("portable_value_columns")).to_arrow_table().schema)


_MEMORY_REQUIRED = ("id", "content", "category", "importance", "tags", "created_at")


def memory_row(raw: Mapping[str, Any], columns: Columns) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A memory line as (row of memories, row of memory_states or None); ValidationError names the field."""
    allowed = [name for name in columns.memory.names] + ["state"]
    unknown = sorted(set(raw) - set(allowed) - {"kind"})
    if unknown:
        raise ValidationError(f"{unknown[0]}: unknown field; a memory has: {', '.join(allowed)}")
    row: dict[str, Any] = {
        "id": _ident("id", _required(raw, "id")),
        "content": validate.text("content", _required(raw, "content"), max_chars=MAX_CONTENT_CHARS),
        "category": validate.choice("category", raw.get("category"), MEMORY_CATEGORIES),
        "importance": validate.number("importance", raw.get("importance", 0.5), low=0.0, high=1.0),
        "tags": list(validate.tags("tags", raw.get("tags"))),
        "created_at": _time("created_at", raw.get("created_at")),
        "commit_sha": None if raw.get("commit_sha") is None else commit_sha("commit_sha", raw["commit_sha"]),
        "sources": list(validate_sources("sources", raw.get("sources"))) or None,
    }
    for name in columns.memory.names:
        if name not in row and name in raw:
            row[name] = _typed(name, raw[name], columns.memory.field(name).type)
    state = raw.get("state")
    if state is None:
        return row, None
    if not isinstance(state, Mapping):
        raise ValidationError(f"state: expected an object with {', '.join(columns.state.names)}, "
                              f"got {type(state).__name__}")
    unknown = sorted(set(state) - set(columns.state.names))
    if unknown:
        raise ValidationError(f"state.{unknown[0]}: unknown field; a memory's state has: "
                              f"{', '.join(columns.state.names)}")
    typed = {name: _typed(f"state.{name}", state[name], columns.state.field(name).type) for name in state}
    if "superseded_by" in typed and typed["superseded_by"] is not None:
        _ident("state.superseded_by", typed["superseded_by"])
    return row, typed


_VALUE_NUMBERS = {"similarity_to_centroid": (-1.0, 1.0), "centroid_distance": (0.0, 3.0),
                  "threshold_distance": (0.0, 3.0)}


def value_row(raw: Mapping[str, Any], columns: Columns) -> dict[str, Any]:
    """A value line as a row of learned_values (terms and embedding to add); ValidationError names the field."""
    allowed = list(columns.value.names)
    unknown = sorted(set(raw) - set(allowed) - {"kind"})
    if unknown:
        raise ValidationError(f"{unknown[0]}: unknown field; a value has: {', '.join(allowed)}")
    axis = validate.choice("axis", raw.get("axis"), learning.AXES)
    cluster_id = _required(raw, "cluster_id")
    if learning.cluster_axis(cluster_id) != axis:
        raise ValidationError(f"cluster_id: {cluster_id!r} is not a cluster of axis {axis!r}")
    row: dict[str, Any] = {
        "id": _ident("id", _required(raw, "id")),
        "text": validate.text("text", _required(raw, "text"), max_chars=learning.MAX_VALUE_CHARS),
        "axis": axis,
        "cluster_id": cluster_id,
        "cluster_size": validate.integer("cluster_size", _required(raw, "cluster_size"), low=0, high=2**31 - 1),
        "created_at": _time("created_at", raw.get("created_at")),
        "dissolved_at": None if raw.get("dissolved_at") is None else _time("dissolved_at", raw["dissolved_at"]),
    }
    for name, (low, high) in _VALUE_NUMBERS.items():
        row[name] = validate.number(name, _required(raw, name), low=low, high=high)
    for name in allowed:
        if name not in row and name in raw:
            row[name] = _typed(name, raw[name], columns.value.field(name).type)
    return row


_ENTRY_KEYS = ("id", "session_id", "created_at", "domain", "strategy", "goal", "hypothesis", "action", "prediction",
               "history", "iteration_count", "notes", "outcome", "surprise", "root_cause", "lesson",
               "confidence_tier", "revised_at", "updated_at")


def entry_row(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A ghap_entry line as a ghap_entries row: ghap_io's checks, then the exported tier, revised_at and
    updated_at kept as given (an export is taken as it was, not re-tiered)."""
    unknown = sorted(set(raw) - set(_ENTRY_KEYS) - {"kind"})
    if unknown:
        raise ValidationError(f"{unknown[0]}: unknown field; a GHAP entry has: {', '.join(_ENTRY_KEYS)}")
    row = ghap_io.entry_row({key: value for key, value in raw.items() if key != "kind"})
    if raw.get("confidence_tier") is not None:
        row["confidence_tier"] = raw["confidence_tier"]  # checked by entry_row against the status
    if raw.get("updated_at") is not None:
        row["updated_at"] = _time("updated_at", raw["updated_at"])
    return row


# -- what an import carries --------------------------------------------------------------


@dataclass
class ImportedMemory:
    where: str  # `line N` (and the section, for markdown)
    row: dict[str, Any]
    state: dict[str, Any] | None = None
    terms: list[str] = field(default_factory=list)  # BM25 terms of the content, computed before the lock


@dataclass
class Batch:
    memories: list[ImportedMemory] = field(default_factory=list)
    entries: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    values: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    skipped_values: int = 0
    source_model: str | None = None
    # Memories stored already take the `superseded_by` of the import when they are current here (the
    # merge of git notes; a file import leaves stored memories as they are).
    merge_states: bool = False
    # Memories and values that look like they hold credentials refuse the import unless this is set.
    allow_secrets: bool = False


def _located(where: str, kind: str, error: Exception) -> str:
    message = str(error)
    return f"{where}: {kind}.{message}" if _FIELD.match(message) else f"{where}: {kind}: {message}"


def _refuse(source: Path, problems: Sequence[str]) -> RejectedImport:
    shown = "; ".join(problems[:MAX_REPORTED])
    more = f"; and {len(problems) - MAX_REPORTED} more" if len(problems) > MAX_REPORTED else ""
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
    return RejectedImport(f"{source}: {count}, nothing was imported: {shown}{more}", problems)


# -- JSON lines import -------------------------------------------------------------------


def _header(raw: Any) -> dict[str, Any]:
    """The header line's fields; ValidationError (naming line 1) when the file is not a learnmem export."""
    if not isinstance(raw, Mapping) or raw.get("kind") != "header":
        hint = ""
        if isinstance(raw, Mapping) and {"goal", "hypothesis"} <= set(raw):
            hint = " (this looks like a GHAP entry file: import it with `learnmem ghap import`)"
        raise ValidationError(f"line 1: not a learnmem export: the first line must be the header "
                              f"{{\"kind\": \"header\", \"format\": \"{FORMAT}\", ...}}{hint}")
    if raw.get("format") != FORMAT:
        raise ValidationError(f"line 1: header.format: {raw.get('format')!r} is not {FORMAT!r}")
    version = raw.get("format_version")
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
        raise ValidationError(f"line 1: header.format_version: {version} is newer than this learnmem "
                              f"({VERSION}) reads ({FORMAT_VERSION}): upgrade learnmem to import it")
    validate.integer("line 1: header.format_version", version, low=1, high=FORMAT_VERSION)
    counts = raw.get("counts")
    if not isinstance(counts, Mapping) or set(counts) != set(KINDS):
        raise ValidationError(f"line 1: header.counts: expected an object with {', '.join(KINDS)}, got {counts!r}")
    for kind in KINDS:
        validate.integer(f"line 1: header.counts.{kind}", counts[kind], low=0)
    return dict(raw)


def _parse_jsonl(text: str, columns: Columns, source: Path) -> Batch:
    lines = [(number, line.strip()) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
    if not lines:
        raise ValidationError(f"path: {source} is empty")
    first_number, first = lines[0]
    try:
        header = _header(json.loads(first))
    except json.JSONDecodeError as error:
        raise ValidationError(f"line {first_number}: not valid JSON ({error.msg} at column {error.colno}); a "
                              f"learnmem export starts with a JSON header line") from None
    batch = Batch(source_model=header.get("embedding_model"))
    seen: dict[tuple[str, str], int] = {}
    found = dict.fromkeys(KINDS, 0)
    for number, line in lines[1:]:
        where = f"line {number}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as error:
            batch.problems.append(f"{where}: not valid JSON ({error.msg} at column {error.colno})")
            continue
        if not isinstance(raw, Mapping):
            batch.problems.append(f"{where}: expected a JSON object with a \"kind\", got {type(raw).__name__}")
            continue
        kind = raw.get("kind")
        if kind not in KINDS:
            again = " (a second header)" if kind == "header" else ""
            batch.problems.append(f"{where}: kind: {kind!r} is not one of: {', '.join(KINDS)}{again}")
            continue
        found[kind] += 1
        try:
            if kind == "memory":
                row, state = memory_row(raw, columns)
                batch.memories.append(ImportedMemory(where, row, state))
            elif kind == "ghap_entry":
                row = entry_row(raw)
                batch.entries.append((where, row))
            else:
                row = value_row(raw, columns)
                batch.values.append((where, row))
        except ValidationError as error:
            batch.problems.append(_located(where, kind, error))
            continue
        earlier = seen.setdefault((kind, row["id"]), number)
        if earlier != number:
            batch.problems.append(f"{where}: {kind}.id: {row['id']!r} repeats line {earlier}")
    for kind in KINDS:
        if header["counts"][kind] != found[kind]:
            batch.problems.append(f"line {first_number}: header.counts.{kind}: the header announces "
                                  f"{header['counts'][kind]}, the file holds {found[kind]} (cut short or edited?)")
    return batch


# -- import ------------------------------------------------------------------------------


def import_data(store: Store, embedder_factory: Callable[[], Any], path: str | os.PathLike,
                format: str | None = None, progress: bool = True, allow_secrets: bool = False) -> DataImportResult:
    """Import a JSONL export (all or nothing) or a markdown memory file (bad sections skipped and reported),
    merging by id; see the module docstring. `format` (jsonl, markdown) is read from the content when None.
    A memory or value that looks like it holds a credential refuses the import (unless `allow_secrets`)."""
    source = Path(path).expanduser()
    text = _read_text(source)
    chosen = _format_of(source, text, format)
    now = utc_now()
    if chosen == "jsonl":
        with store.read() as con:
            columns = Columns.read(con)
        batch = _parse_jsonl(text, columns, source)
        if batch.problems:
            raise _refuse(source, batch.problems)
    else:
        batch = _markdown().parse_markdown(text, source, now)
    batch.allow_secrets = validate.flag("allow_secrets", allow_secrets)
    return apply_batch(store, embedder_factory, batch, now, progress, str(source), chosen)


def apply_batch(store: Store, embedder_factory: Callable[[], Any], batch: Batch, now: datetime, progress: bool,
           where: str, chosen: str) -> DataImportResult:
    if not batch.allow_secrets:
        _refuse_secrets(batch, where)
    for memory in batch.memories:
        memory.row["content_hash"] = content_hash(memory.row["content"])
        if memory.row["id"] is None:
            memory.row["id"] = new_id(now)
    with store.read() as con:
        columns = Columns.read(con)
        ids, hashes = _memory_keys(con)
        value_ids = {value_id for (value_id,) in con.execute(sql.query("portable_value_ids")).fetchall()}
    warnings = list(batch.warnings)
    skipped = {"memories": 0, "ghap_entries": 0, "values": batch.skipped_values}
    memories = _new_memories(batch.memories, ids, hashes, warnings, skipped)
    values = [row for _, row in batch.values if row["id"] not in value_ids]
    skipped["values"] += len(batch.values) - len(values)
    # Embedding is the slow part: it happens before the writer lock is taken.
    embedder = embedder_factory() if memories or values else None
    vectors, passage_blocks = _embed_memories(embedder, memories, progress)
    for memory in memories:
        memory.terms = keywords.terms(memory.row["content"])
    value_terms = [keywords.terms(row["text"]) for row in values]
    value_vectors = embedder.embed([row["text"] for row in values]) if values else None
    fresh_entries: list[dict[str, Any]] = []
    with store.write() as con:
        ids, hashes = _memory_keys(con)  # again: another writer may have stored some meanwhile
        keep = [i for i, memory in enumerate(memories)
                if memory.row["id"] not in ids and memory.row["content_hash"] not in hashes]
        skipped["memories"] += len(memories) - len(keep)
        memories = [memories[i] for i in keep]
        if memories:
            _insert(con, "new_memories", sql.query("insert_portable_memories"),
                    _memory_table(memories, columns, vectors[keep], [passage_blocks[i] for i in keep],
                                  embedder.dim))
            states = [memory for memory in memories if memory.state]
            if states:
                _insert(con, "new_memory_states", sql.query("insert_portable_memory_states"),
                        _state_table(states, columns))
        merged = _merge_supersedes(con, batch.memories) if batch.merge_states else 0
        fresh_entries, entry_skips = _insert_entries(con, batch.entries, now, warnings)
        skipped["ghap_entries"] += entry_skips
        known_values = {value_id for (value_id,) in con.execute(sql.query("portable_value_ids")).fetchall()}
        keep = [i for i, row in enumerate(values) if row["id"] not in known_values]
        skipped["values"] += len(values) - len(keep)
        values = [values[i] for i in keep]
        if values:
            _insert(con, "new_learned_values", sql.query("insert_portable_values"),
                    _value_table(values, [value_terms[i] for i in keep], columns, value_vectors[keep], embedder.dim))
    if any(not row["active"] for row in fresh_entries):
        ghap.embed_pending_quietly(store, embedder_factory)  # the same after-commit policy as a resolve
    return DataImportResult(path=where, format=chosen,
                            imported={"memories": len(memories), "ghap_entries": len(fresh_entries),
                                      "values": len(values)},
                            skipped=skipped, warnings=tuple(warnings), problems=tuple(batch.problems),
                            source_model=batch.source_model, supersedes_merged=merged)


def _refuse_secrets(batch: Batch, where: str) -> None:
    """RejectedImport naming every memory and value of the batch that looks like it holds a credential."""
    texts = [(memory.where, "memory.content", memory.row["content"]) for memory in batch.memories]
    texts += [(place, "value.text", row["text"]) for place, row in batch.values]
    found = [f"{place}: {name}: looks like it contains {match.description} (pattern {match.pattern}: "
             f"{match.redacted})" for place, name, text in texts if (match := secret_scan.find_secret(text))]
    if found:
        shown = "; ".join(found[:MAX_REPORTED])
        raise RejectedImport(f"{where}: {len(found)} item{'s' if len(found) != 1 else ''} look like credentials, "
                             f"nothing was imported: {shown}. Remove them, or pass allow_secrets=True (CLI: "
                             "--allow-secrets) if storing them is intended", found)


def _merge_supersedes(con, memories: list[ImportedMemory]) -> int:
    """Give stored, current memories the replacement the import names for them (when that memory is stored
    too); returns how many changed. A memory superseded or forgotten here keeps its state."""
    chosen = [memory for memory in memories if memory.state and memory.state.get("superseded_by")]
    if not chosen:
        return 0
    params = {"ids": [memory.row["id"] for memory in chosen],
              "bys": [memory.state["superseded_by"] for memory in chosen],
              "times": [memory.state.get("changed_at") or memory.row["created_at"] for memory in chosen]}
    changed = con.execute(sql.query("merge_known_supersedes"), params).fetchall()
    changed += con.execute(sql.query("merge_new_supersedes"), params).fetchall()
    if changed:
        con.execute(sql.query("count_rewrite"))
    return len(changed)


def _memory_keys(con) -> tuple[set[str], dict[str, str]]:
    rows = con.execute(sql.query("portable_memory_keys")).fetchall()
    return {memory_id for memory_id, _ in rows}, {digest: memory_id for memory_id, digest in rows}


def _new_memories(memories: list[ImportedMemory], ids: set[str], hashes: dict[str, str], warnings: list[str],
                  skipped: dict[str, int]) -> list[ImportedMemory]:
    """The memories to store: not stored under their id, and whose text is not stored (or earlier in the
    batch) under another id."""
    fresh, texts = [], dict(hashes)
    for memory in memories:
        memory_id, digest = memory.row["id"], memory.row["content_hash"]
        if memory_id in ids:
            skipped["memories"] += 1
            continue
        if digest in texts:
            skipped["memories"] += 1
            warnings.append(f"{memory.where}: memory {memory_id}: the same text is stored as {texts[digest]}; "
                            f"skipped")
            continue
        texts[digest] = memory_id
        fresh.append(memory)
    return fresh


def _embed_memories(embedder, memories: list[ImportedMemory], progress: bool):
    import numpy as np

    if not memories:
        return np.zeros((0, 0), dtype=np.float32), []
    bar = Progress(progress, "memories embedded", total=len(memories))
    vectors, blocks = [], []
    try:
        for start in range(0, len(memories), EMBED_BATCH):
            chunk = [memory.row["content"] for memory in memories[start:start + EMBED_BATCH]]
            chunk_vectors, chunk_blocks = passages.embed_texts(embedder, chunk)
            vectors.append(chunk_vectors)
            blocks += chunk_blocks
            bar.advance_to(start + len(chunk))
    finally:
        bar.close()
    return np.vstack(vectors), blocks


def _insert(con, view: str, query: str, table) -> None:
    """Run an INSERT that reads the Arrow table `table` registered as `view`."""
    con.register(view, table)
    try:
        con.execute(query)
    except Exception as error:  # a constraint of a column this module does not know, say
        raise LearnmemError(f"import: the database refused the rows, nothing was imported: {error}") from error
    finally:
        con.unregister(view)


def _arrow_columns(rows: Sequence[Mapping[str, Any]], schema, always: Sequence[str]) -> dict[str, Any]:
    """Columns of `schema` the rows hold (and `always`), typed as the table's: absent ones get their default."""
    import pyarrow as pa

    names = [name for name in schema.names if name in always or any(name in row for row in rows)]
    return {name: pa.array([row.get(name) for row in rows], type=schema.field(name).type) for name in names}


def _memory_table(memories: list[ImportedMemory], columns: Columns, vectors, blocks, dim: int):
    import pyarrow as pa

    from learnmem.vectors import to_column

    rows = [memory.row for memory in memories]
    table = _arrow_columns(rows, columns.memory, _MEMORY_REQUIRED)
    table |= {
        "content_hash": pa.array([row["content_hash"] for row in rows], pa.string()),
        "terms": pa.array([memory.terms for memory in memories], pa.list_(pa.string())),
        "embedding": to_column(vectors, dim),
        "passages": passage_lists(blocks, dim),
    }
    return pa.table(table)


def _state_table(memories: list[ImportedMemory], columns: Columns):
    import pyarrow as pa

    rows = [memory.state for memory in memories]
    return pa.table({"memory_id": pa.array([memory.row["id"] for memory in memories], pa.string())}
                    | _arrow_columns(rows, columns.state, ()))


def _value_table(values: list[dict[str, Any]], terms: list[list[str]], columns: Columns, vectors, dim: int):
    import pyarrow as pa

    from learnmem.vectors import to_column

    table = _arrow_columns(values, columns.value, ())
    table |= {"terms": pa.array(terms, pa.list_(pa.string())),
              "embedding": to_column(vectors, dim)}
    return pa.table(table)


def _insert_entries(con, entries: list[tuple[str, dict[str, Any]]], now: datetime,
                    warnings: list[str]) -> tuple[list[dict[str, Any]], int]:
    """Insert the entries not stored yet (inside the caller's transaction), as import_ghap does: an active
    entry stays active only if none is; resolved ones get their experience axes recorded (pending)."""
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
                ghap_io._abandon_on_import(row, now)
                warnings.append(f"{where}: GHAP entry {row['id']} was active; stored as abandoned "
                                f"({ghap_io.IMPORTED_WHILE_ACTIVE}: {active_id})")
        fresh.append(row)
    if fresh:
        con.register("new_ghap_entries", ghap_io._arrow_rows(fresh))
        try:
            con.execute(sql.query("insert_ghap_entries"))
            con.execute(sql.query("insert_imported_active_ghap"))
        finally:
            con.unregister("new_ghap_entries")
        for row in fresh:
            if not row["active"]:
                experiences.record_axes(con, row, now)
    return fresh, skipped


def _markdown():
    """The markdown half (imported late: it imports this module's records)."""
    from learnmem import portable_markdown

    return portable_markdown

