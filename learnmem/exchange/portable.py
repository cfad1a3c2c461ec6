"""Portability: the data a user owns as JSON lines or markdown, exported and imported.

**Backup**: learnmem.storage.backup.

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
of learnmem.exchange.import_batch.EMBED_BATCH, outside the writer lock, with a progress bar on a terminal),
then every row goes in ONE transaction, so an import lands whole or not at
all. DuckDB keeps a large transaction's appends in its own storage blocks,
so its size is bounded by disk rather than memory; the vectors of the new
rows are held in memory once (1.5 KB per memory).

**Markdown**: learnmem.exchange.markdown. The row checks and the write that
every import format shares (git notes too): learnmem.exchange.import_batch.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, TextIO

from learnmem.exchange import ghap_io, transcripts
from learnmem.exchange.rows import iso_z, rows_of
from learnmem.storage import sql
from learnmem import validate
from learnmem.errors import LearnmemError, NotFoundError, ValidationError
from learnmem.exchange.import_batch import (
    MAX_REPORTED,
    Batch,
    Columns,
    DataImportResult,
    ImportedMemory,
    RejectedImport,
    apply_batch,
    entry_row,
    memory_row,
    value_row,
)
from learnmem.storage.store import Store, utc_now
from learnmem.version import VERSION

FORMAT = "learnmem-export"
FORMAT_VERSION = 1
EXPORT_FORMATS = ("jsonl", "markdown")
FORMATS = (*EXPORT_FORMATS, *transcripts.FORMATS)  # what import_data reads
KINDS = ("memory", "ghap_entry", "value")
_FIELD = re.compile(r"^[A-Za-z_][\w.\[\]]*( \([^)]*\))?: ")
# Characters JSON leaves raw that str.splitlines() (and other line readers) treat as line breaks.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


@dataclass(frozen=True)
class ExportResult:
    """What export_data wrote: where (`-` for a stream), in which format, how many of each kind."""

    path: str
    format: str
    memories: int
    ghap_entries: int
    values: int


# -- export ------------------------------------------------------------------------------


def export_data(store: Store, out: str | os.PathLike | TextIO, format: str = "jsonl") -> ExportResult:
    """Write what the user owns as JSON lines (lossless) or markdown (the agent-learning layout) to a path
    (written whole, then renamed into place) or a text stream; see the module docstring."""
    chosen = validate.choice("format", format, EXPORT_FORMATS)
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


def _json_value(name: str, value: Any) -> Any:
    """A column value as JSON data: times as ISO strings, lists and structs recursively."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise LearnmemError(f"{name}: {value!r} cannot be written as JSON")
        return value
    if isinstance(value, datetime):
        return iso_z(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_json_value(name, item) for item in value]
    if isinstance(value, dict):
        return {key: _json_value(f"{name}.{key}", item) for key, item in value.items()}
    raise LearnmemError(f"{name}: a {type(value).__name__} value cannot be exported as JSON yet")


def _line(record: Mapping[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False).translate(_LINE_BREAKS) + "\n"


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
            for row in rows_of(con.execute(sql.query("portable_values")))]


def _jsonl_text(con, meta: Mapping[str, str]) -> tuple[str, dict[str, int]]:
    lines: dict[str, list[str]] = {kind: [] for kind in KINDS}
    lines["memory"] = [_line({"kind": "memory"} | record) for record in memory_records(con)]
    for row in rows_of(con.execute(sql.query("export_ghap_entries"), {"include_active": True})):
        record = {"kind": "ghap_entry"} | ghap_io.entry_json(row) | {
            "revised_at": iso_z(row["revised_at"]), "updated_at": iso_z(row["updated_at"])}
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
        return ("jsonl" if '"header"' in first else transcripts.detect(text)) or "jsonl"
    if _markdown().markdown_layout(text):
        return "markdown"
    raise ValidationError(
        f"path: {source} is neither a learnmem JSONL export (its first line is a JSON header with "
        f"\"kind\": \"header\"), nor a transcript (JSON lines of turns, or Claude Code's), nor markdown in the "
        f"agent-learning layout (`## Consolidated Learnings`, `## Session ...`, `### User Corrections`, ...)")


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
        elif isinstance(raw, Mapping) and raw.get("kind") is None:
            hint = (" (nor a transcript: a turn names its speaker and text, `speaker`/`role` and `text`/`content`; "
                    "the format turns (format='turns', --format turns) names each line that does not)")
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
    merging by id; see the module docstring; or a transcript (learnmem.exchange.transcripts: JSON lines of
    turns, or Claude Code's), one memory per turn. `format` (FORMATS) is read from the content when None.
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
    elif chosen in transcripts.FORMATS:
        reading = transcripts.read(text, source, chosen)
        if reading.problems:
            raise _refuse(source, reading.problems)
        batch = transcripts.batch_of(reading, now)
    else:
        batch = _markdown().parse_markdown(text, source, now)
    batch.allow_secrets = validate.flag("allow_secrets", allow_secrets)
    return apply_batch(store, embedder_factory, batch, now, progress, str(source), chosen)


def _markdown():
    """The markdown half (imported late: it imports this module's records)."""
    from learnmem.exchange import markdown as portable_markdown

    return portable_markdown

