"""A lake project made by an earlier learnmem, brought to this one's schema (a file runs sql/migrations itself).

A lake's tables derive from the migrated file (lake.schema_statements), so a migration that renames or adds a
table has a lake form here, under the schema version it brings a project to. The first process of a newer
learnmem to prepare a project upgrades it, in one transaction; another upgrading it at once conflicts, and
lake.prepare, trying again, finds it done. Each agent's views, which name the tables, are made again the
first time that agent opens the project afterwards (`views_current`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from learnmem.errors import LakeError
from learnmem.storage import sql
from learnmem.version import VERSION

if TYPE_CHECKING:
    import duckdb


def _recent_memories(con: duckdb.DuckDBPyConnection, project_schema: str, statements: dict[str, str]) -> None:
    """Migration 014: `memories` becomes `memories_stored`, and `memories_recent` takes new memories."""
    con.execute(sql.query("rename_table").format(table=f'{project_schema}."memories"', name='"memories_stored"'))
    con.execute(statements["memories_recent"])


def _conversation_turns(con: duckdb.DuckDBPyConnection, project_schema: str, statements: dict[str, str]) -> None:
    """Migration 015: a memory's session, speaker and said_at. Its own file, as is: `con`'s current schema is
    the project's, and DuckLake adds a column as DuckDB does."""
    con.execute(next(text for version, _, text in sql.migrations() if version == 15))


def _code_flow(con: duckdb.DuckDBPyConnection, project_schema: str, statements: dict[str, str]) -> None:
    """Migration 016: a Python file's flow facts (code_files.flow), its own file as is, as 015's."""
    con.execute(next(text for version, _, text in sql.migrations() if version == 16))


# schema version -> the step that brings a project from the version before it.
UPGRADES: dict[int, Callable[[duckdb.DuckDBPyConnection, str, dict[str, str]], None]] = {
    14: _recent_memories, 15: _conversation_turns, 16: _code_flow}


def upgradable(version: int, ours: int) -> bool:
    """Whether every step from `version` to `ours` has a lake form."""
    return version < ours and all(step in UPGRADES for step in range(version + 1, ours + 1))


def upgrade(con: duckdb.DuckDBPyConnection, project_schema: str, version: int, ours: int,
            statements: dict[str, str]) -> None:
    """Bring the project `project_schema` (the current schema of `con`) from schema `version` to `ours`, in one
    transaction; `statements`: the CREATE TABLE of each table, by name (lake.schema_statements)."""
    from learnmem.storage.store import set_meta

    if not upgradable(version, ours):
        raise LakeError(f"lake: schema {version} cannot be upgraded to {ours} here")
    con.begin()
    for step in range(version + 1, ours + 1):
        UPGRADES[step](con, project_schema, statements)
    set_meta(con, "schema_version", str(ours))
    set_meta(con, "library_version", VERSION)
    con.commit()


def views_current(con: duckdb.DuckDBPyConnection, agent_schema: str) -> bool:
    """Whether the views of the agent `agent_schema` are this schema's: its `memory_list` view shows said_at
    (migration 015; views.sql makes the `memories` view of migration 014 before it)."""
    import duckdb

    try:
        con.execute(sql.query("probe_column").format(relation=f'{agent_schema}."memory_list"', column="said_at"))
        return True
    except (duckdb.CatalogException, duckdb.BinderException):
        return False


def make_views(con: duckdb.DuckDBPyConnection) -> None:
    """views.sql, in the current schema (the agent's), in one transaction."""
    con.begin()
    con.execute((sql.sql_dir() / "views.sql").read_text(encoding="utf-8"))
    con.commit()
