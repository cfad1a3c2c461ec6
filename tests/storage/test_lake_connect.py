"""Reaching a lake (learnmem.storage.lake): its name checked, attached on a real PostgreSQL server, and every way it
can fail answered by one clear error, the password never shown."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from learnmem.storage import lake
from learnmem.errors import LakeError, NotFoundError, ValidationError
from tests.postgres import PostgresServer


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> PostgresServer:
    running = PostgresServer.start(Path(tmp_path_factory.mktemp("postgres")) / "server")
    yield running
    running.stop()


LAYOUT = lake.Layout("lake", "main", "tester")  # the project `main`: where `CREATE TABLE lake.x` puts x


def _attach(target: str, data_path=None) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(config={"autoinstall_known_extensions": False})
    lake.attach(con, lake.LakeLocation.parse(target, data_path))
    return con


def test_a_lake_name_is_checked_before_anything_connects(tmp_path):
    location = lake.LakeLocation.parse("ducklake:postgres:dbname=team host=db.internal port=5432 user=agent "
                                       "password='s3 cr\\'et'", tmp_path / "files")
    assert location.fields["password"] == "s3 cr'et" and location.fields["connect_timeout"] == "10"
    assert "s3 cr" not in location.name() and location.where == "db.internal:5432"
    assert location.data_path == f"{tmp_path / 'files'}/" and (tmp_path / "files").is_dir()
    assert lake.LakeLocation.parse("ducklake:postgres:dbname=t", "s3://bucket/lake").data_path == "s3://bucket/lake/"
    assert lake.is_lake("ducklake:postgres:dbname=t") and not lake.is_lake("/tmp/x.duckdb") and not lake.is_lake(3)
    refusals = {
        "postgres:dbname=t": r"does not start with 'ducklake:postgres:'",
        "ducklake:postgres:host=h user=u": r"names no dbname",
        "ducklake:postgres:dbname=t colour=red": r"unknown key 'colour'; allowed: dbname, host",
        "ducklake:postgres:dbname=t port=http": r"port 'http' is not a port number",
        "ducklake:postgres:dbname=t port=70000": r"port '70000' is not a port number",
        "ducklake:postgres:dbname=t connect_timeout=soon": r"connect_timeout 'soon' is not a number",
        "ducklake:postgres:dbname=t host": r"cannot read 'host'",
    }
    for target, message in refusals.items():
        with pytest.raises(ValidationError, match=r"^lake: .*" + message):
            lake.LakeLocation.parse(target)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(ValidationError, match=r"^data_path: cannot create the folder .*a-file/lake"):
        lake.LakeLocation.parse("ducklake:postgres:dbname=t", blocker / "lake")


def test_a_lake_attaches_and_keeps_its_data_path(server, tmp_path):
    catalog = server.create_database("attached")
    con = _attach(f"ducklake:postgres:{catalog}", tmp_path / "files")
    con.execute("CREATE TABLE lake.notes (text VARCHAR)")
    con.execute("INSERT INTO lake.notes VALUES ('kept')")
    con.execute("INSERT INTO lake.notes SELECT 'bulk ' || i FROM range(5000) AS t(i)")  # past inlining: Parquet
    con.close()
    again = _attach(f"ducklake:postgres:{catalog}")  # the lake remembers where its files are
    assert again.execute("SELECT count(*) FROM lake.notes WHERE text = 'kept'").fetchone() == (1,)
    assert list((tmp_path / "files").rglob("*.parquet"))
    with pytest.raises(ValidationError, match=r"^data_path: the lake keeps its files at '.*files/', not "):
        _attach(f"ducklake:postgres:{catalog}", tmp_path / "elsewhere")


def test_each_way_of_failing_is_one_clear_error(server, tmp_path):
    server.create_database("present")
    base = f"host=127.0.0.1 port={server.port}"
    with pytest.raises(NotFoundError, match=r"^lake: no database 'absent' on 127.0.0.1:\d+ \(create it"):
        _attach(f"ducklake:postgres:dbname=absent {base} user=postgres", tmp_path)
    with pytest.raises(LakeError, match=r"^lake: the catalog at 127.0.0.1:\d+ refused user 'intruder'"):
        _attach(f"ducklake:postgres:dbname=present {base} user=intruder", tmp_path)
    closed = PostgresServer.free_port()
    with pytest.raises(LakeError, match=rf"^lake: cannot reach the catalog at 127.0.0.1:{closed} \(is PostgreSQL "
                                        r"running there.*Connection refused") as unreachable:
        _attach(f"ducklake:postgres:dbname=present host=127.0.0.1 port={closed} user=postgres "
                "password=hunter2", tmp_path)
    assert "hunter2" not in str(unreachable.value)


def test_an_empty_lake_is_made_learnmem_s_and_a_lake_is_checked_before_use(server, tmp_path):
    from learnmem.storage import sql
    from learnmem.errors import ModelMismatchError
    from learnmem.storage.store import migrated_template

    target = f"ducklake:postgres:{server.create_database('prepared')}"
    con = _attach(target, tmp_path / "files")
    meta = lake.prepare(con, "all-MiniLM-L6-v2", 384, LAYOUT)
    ours = str(max(version for version, _, _ in sql.migrations()))
    assert meta["schema_version"] == ours and meta["lake_format"] == lake.LAKE_FORMAT
    template = migrated_template()
    local = {name for (name,) in template.execute("SELECT table_name FROM duckdb_tables() WHERE database_name = "
                                                   "'memory' UNION ALL SELECT view_name FROM duckdb_views() WHERE "
                                                   "database_name = 'memory' AND NOT internal").fetchall()}
    template.close()
    present = {name for (name,) in con.execute("SELECT table_name FROM duckdb_tables() WHERE database_name = 'lake' "
                                               "UNION ALL SELECT view_name FROM duckdb_views() WHERE database_name = "
                                               "'lake' AND NOT internal").fetchall()}
    assert present == local and len(present) > 30
    assert con.execute("SELECT count(*) FROM memory_list").fetchone() == (0,)  # the views work on the lake
    con.close()
    again = _attach(target)
    assert lake.prepare(again, "all-MiniLM-L6-v2", 384, LAYOUT) == meta  # nothing made twice
    assert again.execute("SELECT count(*) FROM meta").fetchone() == (len(meta),)
    with pytest.raises(ModelMismatchError, match=r"the lake was embedded with 'all-MiniLM-L6-v2' \(384-d\)"):
        lake.prepare(again, "bge-small", 384, LAYOUT)
    again.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    with pytest.raises(LakeError, match=rf"made by learnmem .* \(schema 999\); this is learnmem .* \(schema {ours}\): "
                                        r"upgrade learnmem"):
        lake.prepare(again, "all-MiniLM-L6-v2", 384, LAYOUT)
    foreign = _attach(f"ducklake:postgres:{server.create_database('foreign')}", tmp_path / "foreign")
    foreign.execute("CREATE TABLE lake.invoices (id VARCHAR)")
    with pytest.raises(LakeError, match=r"project 'main' holds tables \(invoices\.\.\.\) but no learnmem meta: "
                                        r"not a learnmem project"):
        lake.prepare(foreign, "all-MiniLM-L6-v2", 384, LAYOUT)


def _as_schema_13(target: str, files: Path, project: str, agents: tuple[str, ...]) -> None:
    """Give a project the shape learnmem of schema 13 made (before migrations 014 and 015): one `memories` table
    holding every memory, without the turns' columns; no `memories` view in its agents' schemas."""
    con = _attach(target, files)
    p = f'lake."{project}"'
    con.begin()
    for agent in agents:
        con.execute(f'DROP VIEW lake."{project}__{agent}"."memories"')
    con.execute(f"INSERT INTO {p}.memories_recent SELECT * FROM {p}.memories_stored")
    con.execute(f"DROP TABLE {p}.memories_stored")
    con.execute(f"ALTER TABLE {p}.memories_recent RENAME TO memories")
    for column in ("session", "speaker", "said_at"):
        con.execute(f"ALTER TABLE {p}.memories DROP COLUMN {column}")
    con.execute(f"UPDATE {p}.meta SET value = '13' WHERE key = 'schema_version'")
    con.commit()
    con.close()


def test_a_project_of_schema_13_is_upgraded_by_the_first_newer_learnmem_to_open_it(server, tmp_path):
    import learnmem
    from learnmem.embedding.embed import HashingEmbedder
    from learnmem.storage import sql

    target, files = f"ducklake:postgres:{server.create_database('upgraded')}", tmp_path / "files"
    ours = str(max(version for version, _, _ in sql.migrations()))
    opened = lambda agent: learnmem.open(target, data_path=files, project="team", agent=agent,  # noqa: E731
                                         embedder=HashingEmbedder())
    with opened("first") as first:
        kept = [first.store_memory(text, "fact").id for text in ("Deploys run on Tuesdays", "The API is versioned")]
    opened("second").close()
    _as_schema_13(target, files, "team", ("first", "second"))
    with opened("first") as first:  # upgrades the project, makes first's views again
        assert first.info().schema_version == int(ours)
        assert [m.id for m in first.list_memories()] == kept[::-1]
        added = first.store_memory("Releases are tagged by CI", "fact").id
        assert first.sql("SELECT count(*) FROM memory_list").fetchone() == (3,)
        assert {hit.id for hit in first.retrieve_memories("when do deploys run?")} == {*kept, added}
    with opened("second") as second:  # its views, made before the upgrade, are made again
        assert second.sql("SELECT count(*) FROM memory_list").fetchone() == (3,)
        assert second.get_memory(added).content == "Releases are tagged by CI"
    con = _attach(target, files)
    tables = {name for (name,) in con.execute("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'team'")
              .fetchall()}
    assert {"memories_stored", "memories_recent"} <= tables and "memories" not in tables
    con.close()


RETRYING_WRITER = """
import sys
import duckdb
from learnmem.storage import lake
target, name, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
con = duckdb.connect(config={"autoinstall_known_extensions": False})
lake.attach(con, lake.LakeLocation.parse(target))
for n in range(rows):
    lake.retrying(con, lambda c: c.execute("INSERT INTO lake.events VALUES (?, ?)", [name, n]))
"""


def test_writers_committing_at_once_lose_nothing_with_retries(server, tmp_path):
    import subprocess
    import sys

    target = f"ducklake:postgres:{server.create_database('retries')}"
    con = _attach(target, tmp_path / "files")
    con.execute("CREATE TABLE lake.events (writer VARCHAR NOT NULL, n INTEGER NOT NULL)")
    writers = [subprocess.Popen([sys.executable, "-c", RETRYING_WRITER, target, f"w{k}", "25"],
                                stderr=subprocess.PIPE, text=True) for k in range(8)]
    errors = [writer.communicate(timeout=300)[1] for writer in writers]
    assert [writer.returncode for writer in writers] == [0] * 8, errors
    counts = con.execute("SELECT writer, count(DISTINCT n) FROM lake.events GROUP BY ALL ORDER BY writer").fetchall()
    assert counts == [(f"w{k}", 25) for k in range(8)]


def test_a_failing_transaction_writes_nothing(server, tmp_path):
    con = _attach(f"ducklake:postgres:{server.create_database('atomic')}", tmp_path / "files")
    con.execute("CREATE TABLE lake.events (n INTEGER NOT NULL)")

    def half_then_fail(c):
        c.execute("INSERT INTO lake.events VALUES (1)")
        c.execute("INSERT INTO lake.events VALUES (NULL)")  # NOT NULL: the whole transaction goes

    with pytest.raises(duckdb.ConstraintException):
        lake.retrying(con, half_then_fail)
    assert con.execute("SELECT count(*) FROM lake.events").fetchone() == (0,)
    assert lake.retrying(con, lambda c: c.execute("INSERT INTO lake.events VALUES (2)").fetchall()) == [(1,)]


def test_a_conflicting_commit_is_tried_again_then_given_up(server, tmp_path, monkeypatch):
    con = _attach(f"ducklake:postgres:{server.create_database('conflicts')}", tmp_path / "files")
    con.execute("CREATE TABLE lake.events (n INTEGER NOT NULL)")
    monkeypatch.setattr(lake, "_BACKOFF_S", (0.0, 0.0))
    calls = []

    def conflicting_twice(c):
        calls.append(1)
        c.execute("INSERT INTO lake.events VALUES (?)", [len(calls)])
        if len(calls) <= 2:
            raise duckdb.TransactionException("Transaction conflict: another writer committed first")
        return len(calls)

    assert lake.retrying(con, conflicting_twice) == 3
    assert con.execute("SELECT n FROM lake.events").fetchall() == [(3,)]  # the two conflicting tries left nothing
    monkeypatch.setattr(lake, "MAX_ATTEMPTS", 3)

    def always_conflicting(c):
        raise duckdb.TransactionException("Transaction conflict")

    with pytest.raises(LakeError, match=r"conflicted with other writers 3 times in a row; nothing was written"):
        lake.retrying(con, always_conflicting)
