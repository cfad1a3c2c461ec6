"""What DuckLake with a PostgreSQL catalog does and refuses, on a real server: the facts the lake backend
(issue 11) is designed around. If an upgrade of DuckDB, DuckLake or PostgreSQL changes one of these, the
design's reason changes with it, and this file says which.

- The local schema's PRIMARY KEY / UNIQUE constraints, fixed-size FLOAT[384] vectors and sequences are
  refused: the lake's tables need ids made by the writer, vectors as FLOAT[], and no upserts by key.
- Vectors stored as FLOAT[] rank exactly with list_cosine_similarity, and cast back to FLOAT[384] for the
  array functions the local queries use.
- Several processes commit to one table at once, each through its own catalog transaction: nothing lost
  (tests/storage/test_lake_connect.py: 8 writers through lake.retrying).
- Every commit makes a new snapshot: the id a process can compare to know its cached vectors are current.
- The local schema, derived (lake.schema_statements), makes a lake on which the views and every named query
  bind as written. Six did not at first: three upserts on meta (ON CONFLICT needs a key; now a delete and an
  insert, or an UPDATE of a row migration 013 makes) and three hook queries (array_cosine_similarity over
  FLOAT[]; the stored vectors are now cast to FLOAT[384], a no-op on a file).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from learnmem.storage import lake
from tests.postgres import PostgresServer


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> PostgresServer:
    running = PostgresServer.start(Path(tmp_path_factory.mktemp("postgres")) / "server")
    yield running
    running.stop()


def _lake(catalog: str, data: Path) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(config={"autoinstall_known_extensions": False})
    lake.attach(con, lake.LakeLocation.parse(f"ducklake:postgres:{catalog}", data))
    con.execute("USE lake")
    return con


def test_the_local_schema_s_keys_arrays_and_sequences_are_refused(server, tmp_path):
    con = _lake(server.create_database("refusals"), tmp_path)
    refused = {
        "CREATE TABLE keyed (id VARCHAR PRIMARY KEY)": "PRIMARY KEY/UNIQUE constraints are not supported",
        "CREATE TABLE unique_ids (id VARCHAR UNIQUE)": "PRIMARY KEY/UNIQUE constraints are not supported",
        "CREATE TABLE vectors (v FLOAT[384])": r"unsupported type FLOAT\[384\]",
        "CREATE SEQUENCE memory_seq": "does not support sequences",
    }
    for statement, message in refused.items():
        with pytest.raises(duckdb.Error, match=message):
            con.execute(statement)
    con.execute("CREATE TABLE allowed (id VARCHAR NOT NULL, v FLOAT[], tags VARCHAR[], created_at TIMESTAMP, n BIGINT "
                "DEFAULT 0)")
    con.execute("CREATE VIEW allowed_ids AS SELECT id FROM allowed")
    assert con.execute("SELECT count(*) FROM allowed_ids").fetchone() == (0,)


def test_vectors_as_float_lists_rank_exactly(server, tmp_path):
    con = _lake(server.create_database("vectors"), tmp_path)
    con.execute("CREATE TABLE items (id VARCHAR NOT NULL, embedding FLOAT[])")
    con.execute("INSERT INTO items VALUES ('east', [1, 0, 0]), ('north', [0, 1, 0]), ('north-east', [0.7, 0.7, 0])")
    ranked = con.execute("SELECT id, list_cosine_similarity(embedding, [1, 0.1, 0]::FLOAT[]) AS score FROM items "
                         "ORDER BY score DESC").fetchall()
    assert [row[0] for row in ranked] == ["east", "north-east", "north"]
    cast = con.execute("SELECT array_cosine_similarity(embedding::FLOAT[3], [1, 0.1, 0]::FLOAT[3]) FROM items "
                       "WHERE id = 'east'").fetchone()[0]
    assert cast == pytest.approx(ranked[0][1])


def test_every_commit_makes_a_new_snapshot(server, tmp_path):
    con = _lake(server.create_database("snapshots"), tmp_path)
    con.execute("CREATE TABLE memories (id VARCHAR NOT NULL)")

    def snapshot() -> int:
        return con.execute("SELECT max(snapshot_id) FROM lake.snapshots()").fetchone()[0]

    before = snapshot()
    con.execute("INSERT INTO memories VALUES ('m1')")
    after_insert = snapshot()
    con.execute("SELECT count(*) FROM memories").fetchall()  # a read commits nothing
    assert snapshot() == after_insert > before
    con.execute("DELETE FROM memories WHERE id = 'm1'")
    assert snapshot() > after_insert


def test_the_local_schema_made_a_lake_s_runs_every_named_query_but_the_known_few(server, tmp_path, hashed_lm):
    """lake.schema_statements derives the lake's tables from a migrated local file; the views and every
    named query then bind on the lake as they are. Queries that read an Arrow
    table the caller registers (new_*) are left out here: binding them needs the table."""
    from learnmem.storage import sql

    with hashed_lm.store.read() as local:
        statements = lake.schema_statements(local)
    assert len(statements) >= 20 and not any("FLOAT[384]" in s or "PRIMARY KEY" in s for _, s in statements)
    con = _lake(server.create_database("derived"), tmp_path)
    for _, statement in statements:
        con.execute(statement)
    for view in con.extract_statements((sql.sql_dir() / "views.sql").read_text(encoding="utf-8")):
        con.execute(view.query)
    failures, checked = {}, 0
    for name, text in sql.queries().items():
        statement = con.extract_statements(text)[0] if "{" not in text else None
        if statement is None or statement.type.name not in ("SELECT", "INSERT", "UPDATE", "DELETE") or \
                " new_" in text or "FROM new" in text:
            continue
        checked += 1
        try:
            con.execute(f"PREPARE lake_check AS {text.rstrip().rstrip(';')}")
            con.execute("DEALLOCATE lake_check")
        except duckdb.Error as error:
            failures[name] = str(error).split("\n")[0]
    assert checked > 120 and failures == {}, (checked, failures)
