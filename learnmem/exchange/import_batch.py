"""Applying an import: the checks every import format shares, and writing what an import carries.

learnmem.exchange.portable (JSON lines, markdown) and learnmem.exchange.notes (git notes) turn their input into a `Batch`
of rows checked here (`memory_row`, `value_row`, `entry_row`: ValidationError names the field), then
`apply_batch` skips what is stored already, refuses credentials, embeds the new memories and values
outside the writer lock and writes everything in one transaction. See learnmem.exchange.portable's docstring for
the rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from learnmem.learning import clusters, ghap, values as learned_values
from learnmem.exchange import ghap_io
from learnmem.search import keywords
from learnmem.embedding import passages
from learnmem.memory import secret_scan
from learnmem.storage import sql
from learnmem import validate
from learnmem.errors import LearnmemError, ValidationError
from learnmem.memory.items import (
    MAX_CONTENT_CHARS,
    MEMORY_CATEGORIES,
    turn_hash,
    validate_phase,
    validate_said_at,
    validate_session,
    validate_sources,
    validate_speaker,
    validate_spec,
)
from learnmem.memory.memories import new_id, passage_lists
from learnmem.progress import Progress
from learnmem.storage.store import Store

EMBED_BATCH = 256  # memories embedded per step of the progress bar
MAX_REPORTED = 20  # problems spelled out in a refused import's message (all are in RejectedImport.problems)


class RejectedImport(ValidationError):
    """An import that found bad lines and wrote nothing; `problems` lists them all (`line N: field: why`)."""

    def __init__(self, message: str, problems: Sequence[str]):
        super().__init__(message)
        self.problems = tuple(problems)


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



_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def commit_sha(name: str, value: Any) -> str:
    """A git object id: 40 (SHA-1) or 64 (SHA-256) lowercase hex digits."""
    if not isinstance(value, str) or not _SHA.fullmatch(value):
        raise ValidationError(f"{name}: {value!r:.80} is not a commit id (40 or 64 lowercase hex digits)")
    return value


def check_time(name: str, value: Any) -> datetime:
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
        return check_time(name, value)
    if pa.types.is_date(kind):
        moment = check_time(name, value)
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
        "id": validate.identifier("id", _required(raw, "id")),
        "content": validate.text("content", _required(raw, "content"), max_chars=MAX_CONTENT_CHARS),
        "category": validate.choice("category", raw.get("category"), MEMORY_CATEGORIES),
        "importance": validate.number("importance", raw.get("importance", 0.5), low=0.0, high=1.0),
        "tags": list(validate.tags("tags", raw.get("tags"))),
        "created_at": check_time("created_at", raw.get("created_at")),
        "commit_sha": None if raw.get("commit_sha") is None else commit_sha("commit_sha", raw["commit_sha"]),
        "sources": list(validate_sources("sources", raw.get("sources"))) or None,
        "spec": validate_spec("spec", raw.get("spec")),
        "phase": validate_phase("phase", raw.get("phase")),
        "session": validate_session("session", raw.get("session")),
        "speaker": validate_speaker("speaker", raw.get("speaker")),
        "said_at": validate_said_at("said_at", raw.get("said_at")),
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
        validate.identifier("state.superseded_by", typed["superseded_by"])
    return row, typed


_VALUE_NUMBERS = {"similarity_to_centroid": (-1.0, 1.0), "centroid_distance": (0.0, 3.0),
                  "threshold_distance": (0.0, 3.0)}


def value_row(raw: Mapping[str, Any], columns: Columns) -> dict[str, Any]:
    """A value line as a row of learned_values (terms and embedding to add); ValidationError names the field."""
    allowed = list(columns.value.names)
    unknown = sorted(set(raw) - set(allowed) - {"kind"})
    if unknown:
        raise ValidationError(f"{unknown[0]}: unknown field; a value has: {', '.join(allowed)}")
    axis = validate.choice("axis", raw.get("axis"), clusters.AXES)
    cluster_id = _required(raw, "cluster_id")
    if clusters.cluster_axis(cluster_id) != axis:
        raise ValidationError(f"cluster_id: {cluster_id!r} is not a cluster of axis {axis!r}")
    row: dict[str, Any] = {
        "id": validate.identifier("id", _required(raw, "id")),
        "text": validate.text("text", _required(raw, "text"), max_chars=learned_values.MAX_VALUE_CHARS),
        "axis": axis,
        "cluster_id": cluster_id,
        "cluster_size": validate.integer("cluster_size", _required(raw, "cluster_size"), low=0, high=2**31 - 1),
        "created_at": check_time("created_at", raw.get("created_at")),
        "dissolved_at": None if raw.get("dissolved_at") is None else check_time("dissolved_at", raw["dissolved_at"]),
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
        row["updated_at"] = check_time("updated_at", raw["updated_at"])
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


# -- writing an import ------------------------------------------------------------------


def apply_batch(store: Store, embedder_factory: Callable[[], Any], batch: Batch, now: datetime, progress: bool,
           where: str, chosen: str) -> DataImportResult:
    if not batch.allow_secrets:
        _refuse_secrets(batch, where)
    for memory in batch.memories:
        row = memory.row
        row["content_hash"] = turn_hash(row["content"], row.get("session"), row.get("speaker"), row.get("said_at"))
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
        fresh_entries, entry_skips = ghap_io.insert_entries(con, batch.entries, now, warnings)
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
                             f"nothing was imported: {shown}. Remove them, or, if storing them is intended, "
                             'allow them: allow_secrets=True (Python), "allow_secrets": true (MCP), --allow-secrets '
                             "(CLI)", found)


def _merge_supersedes(con, memories: list[ImportedMemory]) -> int:
    """Give stored, current memories the replacement the import names for them (when that memory is stored
    too); returns how many changed. A memory superseded or forgotten here keeps its state."""
    chosen = [memory for memory in memories if memory.state and memory.state.get("superseded_by")]
    if not chosen:
        return 0
    params = {"ids": [memory.row["id"] for memory in chosen],
              "bys": [memory.state["superseded_by"] for memory in chosen],
              "times": [memory.state.get("changed_at") or memory.row["created_at"] for memory in chosen]}
    changed = con.execute(sql.query("known_supersedes_to_merge"), params).fetchall()
    con.execute(sql.query("merge_known_supersedes"), params)
    changed += con.execute(sql.query("new_supersedes_to_merge"), params).fetchall()
    con.execute(sql.query("merge_new_supersedes"), params)
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

    from learnmem.storage.vectors import to_column

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

    from learnmem.storage.vectors import to_column

    table = _arrow_columns(values, columns.value, ())
    table |= {"terms": pa.array(terms, pa.list_(pa.string())),
              "embedding": to_column(vectors, dim)}
    return pa.table(table)


