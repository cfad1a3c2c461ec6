"""Every named query is valid SQL on a freshly migrated file, and every one is used."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from learnmem.memory.memories import MEMORY_TABLES
from learnmem.storage import sql
from learnmem.storage.extensions import extension_path

PREPARABLE = {duckdb.StatementType.SELECT, duckdb.StatementType.INSERT, duckdb.StatementType.DELETE, duckdb.StatementType.UPDATE}
REPO = Path(__file__).resolve().parents[2]


def test_parse_queries_splits_blocks_and_refuses_duplicates():
    text = "-- name: one\nSELECT 1;\n\n-- name: two\n-- a comment\nSELECT $x;\n"
    assert sql.parse_queries(text) == {"one": "SELECT 1;", "two": "-- a comment\nSELECT $x;"}
    with pytest.raises(ValueError, match="defined twice"):
        sql.parse_queries("-- name: a\nSELECT 1;\n-- name: a\nSELECT 2;")


def test_migrations_are_numbered_in_order_without_gaps():
    versions = [version for version, _, _ in sql.migrations()]
    assert versions == list(range(1, len(versions) + 1))


def test_every_named_query_prepares_on_a_migrated_file(hashed_lm):
    con = duckdb.connect(str(hashed_lm.path))
    # insert_memories and update_embeddings read Arrow tables the caller registers: give them ones of the right shape.
    empty = con.execute("SELECT * EXCLUDE (seq) FROM memories LIMIT 0").to_arrow_table()
    con.register("new_memories", pa.Table.from_batches([], empty.schema))
    con.register("new_vectors", pa.Table.from_batches([], empty.select(["id", "embedding", "passages"]).schema))
    for table in ("code_files", "code_units", "code_imports", "call_sites", "calls", "git_repos", "commits",
                  "commit_files", "experience_axes", "ghap_entries", "clusters", "cluster_members", "learned_values",
                  "memory_states"):
        shape = con.execute(f"SELECT * FROM {table} LIMIT 0").to_arrow_table().schema
        con.register(f"new_{table}", pa.Table.from_batches([], shape))
    failures = {}
    for name, text in sql.queries().items():
        if name == "load_extension":
            text = text.format(path="'" + str(extension_path("fts")) + "'")
            con.execute(text)  # LOAD cannot be prepared; running it is the check
            continue
        if name in ATTACHING or name in LAKE_ONLY:
            continue
        for table in MEMORY_TABLES if name in PER_MEMORY_TABLE else (None,):
            try:
                # {returning}: insert_memories numbers its rows on a file (RETURNING), never on a lake.
                formatted = text.format(table=table, returning="RETURNING id, seq") if table else text
                (statement,) = con.extract_statements(formatted)
                if statement.type in PREPARABLE:
                    # Binding checks names of tables, columns and functions, not only syntax.
                    con.execute(f"PREPARE check_{name} AS {formatted.rstrip().rstrip(';')}")
                    con.execute(f"DEALLOCATE check_{name}")
            except (duckdb.Error, ValueError) as error:
                failures[f"{name} ({table})" if table else name] = str(error)
    con.close()
    assert failures == {}


# Queries run on each table of a memory's two (migration 014), named by {table}.
PER_MEMORY_TABLE = ("delete_memory", "delete_memories", "update_embeddings", "insert_memories")
# Queries over DuckLake's own functions, which bind only with a lake attached (tests/storage/test_lake_facts.py binds them).
LAKE_ONLY = ("lake_snapshot",)
ATTACHING = ("attach_file", "attach_lake", "create_lake_table", "create_lake_schema", "use_database", "detach_file",
             "copy_database", "copy_database_between", "copy_table_by_name", "allow_directory",
             "count_rows", "copy_missing_rows", "copy_rows_in_order", "set_search_path", "rename_table",
             "probe_column", "both_memory_halves")


def test_attach_queries_attach_use_and_detach_a_file(hashed_lm):
    # ATTACH, USE and DETACH take no parameters and cannot be prepared: run them, as store.py does.
    host = duckdb.connect(":memory:")
    host.execute(sql.query("attach_file").format(path=f"'{hashed_lm.path}'", alias="scratch", mode="(READ_ONLY)"))
    host.execute(sql.query("use_database").format(alias="scratch"))
    assert host.execute("SELECT count(*) FROM memories").fetchone()[0] >= 0
    copy = duckdb.connect(":memory:")  # copy_database: what Store.copy_to_memory runs on the attached file
    copy.execute(sql.query("attach_file").format(path=f"'{hashed_lm.path}'", alias="scratch2", mode="(READ_ONLY)"))
    copy.execute(sql.query("copy_database").format(alias="scratch2"))
    copy.execute(sql.query("detach_file").format(alias="scratch2"))
    assert copy.execute("SELECT count(*) FROM memories").fetchone() == (0,)
    host.execute(sql.query("detach_file").format(alias="scratch"))
    assert "scratch" not in {name for (name,) in host.execute("SELECT database_name FROM duckdb_databases()").fetchall()}
    duckdb.connect(str(hashed_lm.path)).close()  # released: a read-write open succeeds


def test_no_named_query_is_unused():
    sources = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "learnmem").rglob("*.py"))
    used = set(re.findall(r"""sql\.query\(\s*["']([A-Za-z_0-9]+)["']""", sources))
    unused = sorted(set(sql.queries()) - used)
    assert unused == [], f"named queries no code calls: {unused}"
    missing = sorted(used - set(sql.queries()))
    assert missing == [], f"code calls queries that do not exist: {missing}"


def test_no_named_query_uses_returning():
    """DuckLake refuses RETURNING on INSERT, UPDATE and DELETE, and every named query runs on a lake too: as a
    lake runs it, with a `{returning}` placeholder empty (insert_memories fills it on a file only)."""
    # DuckDB's tokenizer leaves comments out: a comment may say why a query reads before it writes.
    as_on_a_lake = {name: text.replace("{returning}", "") for name, text in sql.queries().items()}
    using = sorted({name for name, text in as_on_a_lake.items() for start, kind in duckdb.tokenize(text)
                    if kind != duckdb.token_type.string_const and re.match(r"returning\b", text[start:], re.IGNORECASE)})
    assert using == [], f"named queries using RETURNING: {using}"
    assert sorted(name for name, text in sql.queries().items() if "{returning}" in text) == ["insert_memories"]
