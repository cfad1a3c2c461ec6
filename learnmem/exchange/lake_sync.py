"""Between a local file and a lake: `learnmem lake push FILE` and `learnmem lake pull FILE` (issue 11).

push copies a local learnmem file into a lake project: its memories (with their states and counted uses), its
resolved experiences (with their axes and observations) and its values (with the cluster runs they were
checked against), and with `code=True` its code index and git history. It adds only the rows the project
lacks, matched by each table's key (PUSHED), so pushing twice, or pushing two clones that share history,
stores nothing twice; it never changes nor deletes a row already in the lake. One transaction: all or
nothing. A memory's `seq` is the lake's own (when it arrived), not the file's.

pull writes a new local file holding a lake project: every table above, and the agent's own working state
(its sessions, active GHAP entry, queued captures), for offline work. The file is made by learnmem (migrated,
the lake's model recorded) and filled in one transaction; an existing file is refused.

The file and the lake must hold vectors of the same model; ModelMismatchError otherwise.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from learnmem.memory import memories
from learnmem.storage import lake, sql
from learnmem.errors import ModelMismatchError, NotFoundError, ValidationError
from learnmem.storage.lake_store import LakeStore
from learnmem.storage.store import Store

# Each pushed table and the columns that identify a row (None: the whole row; these tables hold no vectors).
MEMORY_TABLES: dict[str, tuple[str, ...] | None] = {
    "memories_stored": ("id",), "memories_recent": ("id",), "memory_states": ("memory_id",), "memory_accesses": None,
}
EXPERIENCE_TABLES: dict[str, tuple[str, ...] | None] = {
    "ghap_resolved": ("id",), "experience_axes_recent": ("ghap_id", "axis"),
    "experience_axes_embedded": ("ghap_id", "axis"), "ghap_observations": None,
}
VALUE_TABLES: dict[str, tuple[str, ...] | None] = {
    "cluster_runs": ("id",), "clusters": ("run_id", "cluster_id"), "cluster_members": ("run_id", "ghap_id"),
    "learned_values": ("id",),
}
CODE_TABLES: dict[str, tuple[str, ...] | None] = {
    "code_files": ("project", "path"), "code_units": ("id",), "code_imports": None, "call_sites": None,
    "calls": None, "git_repos": ("project",), "commits": ("project", "sha"),
    "commit_files": ("project", "sha", "path"),
}
PUSHED = MEMORY_TABLES | EXPERIENCE_TABLES | VALUE_TABLES
NUMBERED = ("memories_stored", "memories_recent", "code_units")  # their seq is numbered by the database they arrive in
# Each database moves its memories from memories_recent to memories_stored on its own schedule (migration 014):
# a pushed memory is looked for in both of the project's tables.
HALVES = memories.MEMORY_TABLES
_SOURCE = "learnmem_push_source"
_PULLED = "learnmem_pull_target"


@dataclass(frozen=True)
class SyncResult:
    """What a push or pull copied: rows added per table (tables with none are left out)."""

    source: str
    target: str
    added: dict[str, int]


def push(store: LakeStore, file: str | os.PathLike, code: bool = False) -> SyncResult:
    """Add the rows of the learnmem file `file` that the lake project lacks (module docstring)."""
    if store.kind != "lake":
        raise ValidationError(f"lake: {store.name()} is a file; push copies a file into a lake (--db ducklake:...)")
    path = Path(file).expanduser().absolute()
    if not path.is_file():
        raise NotFoundError(f"file: no learnmem file at {path}")
    local = Store(path, read_only=True, embedding_model=store.meta["embedding_model"],
                  embedding_dim=int(store.meta["embedding_dim"]))
    _same_model(local.meta, store.meta, str(path), store.name())
    tables = PUSHED | (CODE_TABLES if code else {})
    added: dict[str, int] = {}
    with store.attached_file(path, _SOURCE), store.write() as con:
        for table, key in tables.items():
            target = f'{store.layout.project_schema}."{table}"'
            existing = (sql.query("both_memory_halves").format(schema=store.layout.project_schema) if table in HALVES
                        else target)
            added[table] = _copy_missing(con, f'{_SOURCE}.main."{table}"', target, existing, table, key)
    return SyncResult(source=str(path), target=store.name(), added=_reported(added))


def pull(store: LakeStore, file: str | os.PathLike) -> SyncResult:
    """Write the lake project (and this agent's working state) to the new learnmem file `file`."""
    if store.kind != "lake":
        raise ValidationError(f"lake: {store.name()} is a file; pull copies a lake into a file (--db ducklake:...)")
    path = Path(file).expanduser().absolute()
    if path.exists():
        raise ValidationError(f"file: {path} exists; pull writes a new file (remove it, or name another)")
    Store(path, embedding_model=store.meta["embedding_model"], embedding_dim=int(store.meta["embedding_dim"]))
    added: dict[str, int] = {}
    try:
        with store.attached_file(path, _PULLED, read_only=False), store.read() as con:
            con.begin()
            tables = PUSHED | CODE_TABLES | {table: None for table in lake.AGENT_TABLES}
            for table in tables:
                schema = store.layout.agent_schema if table in lake.AGENT_TABLES else store.layout.project_schema
                added[table] = _copied(con, f'{schema}."{table}"', f'{_PULLED}.main."{table}"', table)
            con.commit()
    except BaseException:
        for leftover in (path, Path(f"{path}.wal"), Path(f"{path}.lock")):
            leftover.unlink(missing_ok=True)
        raise
    return SyncResult(source=store.name(), target=str(path), added=_reported(added))


def _reported(added: dict[str, int]) -> dict[str, int]:
    """Rows added per table, memories counted as one table (their two halves are where each database keeps them);
    tables with none left out."""
    both = sum(added.pop(table, 0) for table in HALVES)
    return {table: n for table, n in ({"memories": both} | added).items() if n}


def _copy_missing(con, source: str, target: str, existing: str, table: str, key: tuple[str, ...] | None) -> int:
    columns = key if key is not None else _columns(con, table)  # (the file's: _SOURCE)
    match = " AND ".join(f't."{column}" IS NOT DISTINCT FROM s."{column}"' for column in columns)
    before = con.execute(sql.query("count_rows").format(table=target)).fetchone()[0]
    con.execute(sql.query("copy_missing_rows").format(
        target=target, existing=existing, source=source, match=match, columns="* EXCLUDE (seq)" if table in NUMBERED else "*"))
    return con.execute(sql.query("count_rows").format(table=target)).fetchone()[0] - before


def _copied(con, source: str, target: str, table: str) -> int:
    con.execute(sql.query("copy_rows_in_order").format(
        target=target, source=source, columns="* EXCLUDE (seq)" if table in NUMBERED else "*",
        order="seq" if table in NUMBERED else "1"))
    return con.execute(sql.query("count_rows").format(table=target)).fetchone()[0]


def _columns(con, table: str) -> tuple[str, ...]:
    query = sql.query("table_column_names")
    return tuple(name for (name,) in con.execute(query, {"database": _SOURCE, "table": table}).fetchall())


def _same_model(file_meta: dict[str, str], lake_meta: dict[str, str], file: str, lake_name: str) -> None:
    mine = (file_meta.get("embedding_model"), file_meta.get("embedding_dim"))
    theirs = (lake_meta.get("embedding_model"), lake_meta.get("embedding_dim"))
    if mine != theirs:
        raise ModelMismatchError(f"embedding model: {file} holds {mine[0]!r} ({mine[1]}-d) vectors, the lake "
                                 f"{lake_name} {theirs[0]!r} ({theirs[1]}-d); run `learnmem reembed` on a copy of "
                                 "the file with the lake's model first")
