"""Where a team's learnmem lives: a DuckLake whose catalog is a PostgreSQL database (issue 11).

A lake is named `ducklake:postgres:<libpq connection string>`, for example
`ducklake:postgres:dbname=team host=db.internal port=5432 user=agent`; its data files (Parquet) live under
`data_path`, a folder every writer can reach (a shared mount) or object storage (`s3://...`). DuckDB's
`ducklake` and `postgres_scanner` extensions come from their PyPI wheels (the `lake` extra).

This module is the connection layer: it checks a lake's name and data path, attaches the lake to a DuckDB
connection, and turns every way that can fail into one clear error:
- a malformed name (an unknown key, a port that is no number, no dbname): ValidationError naming the key;
- the catalog unreachable (refused, no route, unknown host, no answer within `connect_timeout`, 10 s unless
  given): LakeError naming host and port;
- credentials refused (no such role, a wrong password): LakeError naming the user;
- no such database: NotFoundError naming it;
- a data path that cannot be created, is not a folder, or differs from the one the lake was made with:
  ValidationError naming the path.
The password never appears in a message.

DuckLake differs from a DuckDB file in what the schema may use (tests/storage/test_lake_facts.py pins it): no
PRIMARY KEY or UNIQUE, no fixed-size FLOAT[384] (vectors are FLOAT[]), no sequences; and several processes
may write at once, each commit a catalog transaction.
"""

from __future__ import annotations

import functools
import os
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from learnmem.storage import lake_upgrade, sql
from learnmem.errors import LakeError, ModelMismatchError, NotFoundError, ValidationError
from learnmem.storage.paths import names_lake
from learnmem.version import VERSION

if TYPE_CHECKING:
    import duckdb

T = TypeVar("T")

SCHEME = "ducklake:postgres:"
# The libpq keys a lake's name may carry (https://www.postgresql.org/docs/current/libpq-connect.html).
KEYS = ("dbname", "host", "hostaddr", "port", "user", "password", "passfile", "connect_timeout", "sslmode",
        "sslrootcert", "sslcert", "sslkey", "application_name", "options", "target_session_attrs")
DEFAULT_CONNECT_TIMEOUT_S = 10
_PAIR = re.compile(r"\s*([A-Za-z_]+)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s']*)")
_REMOTE_DATA = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)  # s3://, gs://, az://, https://
_UNREACHABLE = re.compile(r"Connection refused|could not connect|No route to host|could not translate host name|"
                          r"timeout expired|Network is unreachable|Name or service not known|Connection timed out",
                          re.IGNORECASE)
_CREDENTIALS = re.compile(r'password authentication failed|role "[^"]*" does not exist|no password supplied|'
                          r"authentication failed|not permitted to log in", re.IGNORECASE)
_NO_DATABASE = re.compile(r'database "([^"]*)" does not exist', re.IGNORECASE)
_FIRST_ATTACH_RACE = re.compile(r"Failed to initialize DuckLake.*(already exists|duplicate key)", re.DOTALL)
_OTHER_DATA_PATH = re.compile(r'does not match existing data path in the catalog "([^"]*)"', re.IGNORECASE)


def is_lake(target: object) -> bool:
    """Whether `target` (a path, or a string from learnmem.open / LEARNMEM_DB) names a lake: any `ducklake:` name,
    so that another catalog than PostgreSQL is refused by LakeLocation.parse rather than taken for a file."""
    return names_lake(target)


@dataclass(frozen=True)
class LakeLocation:
    """A checked lake name: its libpq fields, and where its data files go (None: where the lake has them)."""

    fields: dict[str, str]
    data_path: str | None = field(default=None)

    @classmethod
    def parse(cls, target: str, data_path: str | os.PathLike | None = None) -> LakeLocation:
        """Check `ducklake:postgres:<key=value ...>` and the data path; ValidationError names what is wrong."""
        if not (isinstance(target, str) and target.startswith(SCHEME)):
            raise ValidationError(f"lake: {target!r:.80} does not start with {SCHEME!r} (e.g. "
                                  f"'{SCHEME}dbname=team host=db.internal port=5432 user=agent')")
        fields = _conninfo(target[len(SCHEME):])
        if not fields.get("dbname"):
            raise ValidationError(f"lake: {cls(fields).name()!r} names no dbname; add dbname=<the catalog database>")
        if "port" in fields and not (fields["port"].isdigit() and 1 <= int(fields["port"]) <= 65535):
            raise ValidationError(f"lake: port {fields['port']!r} is not a port number (1-65535)")
        if "connect_timeout" in fields and not fields["connect_timeout"].isdigit():
            raise ValidationError(f"lake: connect_timeout {fields['connect_timeout']!r} is not a number of seconds")
        fields.setdefault("connect_timeout", str(DEFAULT_CONNECT_TIMEOUT_S))
        return cls(fields, None if data_path is None else _data_path(str(data_path)))

    @property
    def catalog(self) -> str:
        """The libpq connection string, password included (for ATTACH only)."""
        return " ".join(f"{key}={_quote_value(value)}" for key, value in self.fields.items())

    def name(self) -> str:
        """The lake's name for messages: the password left out."""
        return SCHEME + " ".join(f"{key}={_quote_value(value)}" for key, value in self.fields.items()
                                 if key != "password")

    @property
    def where(self) -> str:
        return f"{self.fields.get('host', 'localhost')}:{self.fields.get('port', '5432')}"


def _conninfo(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    position = 0
    text = text.rstrip()
    while position < len(text):
        match = _PAIR.match(text, position)
        if match is None:
            raise ValidationError(f"lake: cannot read {text[position:position + 40].strip()!r}: the connection "
                                  "string is key=value pairs separated by spaces (quote a value with spaces: "
                                  "options='-c search_path=x')")
        key, value = match.group(1), match.group(2)
        if key not in KEYS:
            raise ValidationError(f"lake: unknown key {key!r}; allowed: {', '.join(KEYS)}")
        if value.startswith("'"):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        fields[key] = value
        position = match.end()
    return fields


def _quote_value(value: str) -> str:
    if value and not re.search(r"[\s'\\]", value):
        return value
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _data_path(path: str) -> str:
    """A local data path made ready (created if missing, must be a folder we can write), or object storage
    as given. Ends with a slash, as DuckLake keeps it."""
    if _REMOTE_DATA.match(path):
        return path.rstrip("/") + "/"
    folder = Path(path).expanduser().absolute()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValidationError(f"data_path: cannot create the folder {str(folder)!r} for the lake's files: "
                              f"{error.strerror or error}") from None
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise ValidationError(f"data_path: {str(folder)!r} is not a folder this process can write the lake's "
                              "files into")
    return str(folder).rstrip("/") + "/"


def attach(con: duckdb.DuckDBPyConnection, location: LakeLocation, alias: str = "lake",
           read_only: bool = False) -> None:
    """Load the extensions and ATTACH the lake to `con` as `alias`; the catalog's answers become LakeError,
    NotFoundError or ValidationError (module docstring)."""
    import duckdb

    from learnmem.storage.extensions import load_extension, quote_literal

    for name in ("postgres_scanner", "ducklake"):
        load_extension(con, name)
    options = [f"DATA_PATH {quote_literal(location.data_path)}"] if location.data_path else []
    options += ["READ_ONLY"] if read_only else []
    statement = sql.query("attach_lake").format(target=quote_literal(SCHEME + location.catalog), alias=alias,
                                                options=f"({', '.join(options)})" if options else "")
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            con.execute(statement)
            return
        except duckdb.Error as error:
            # Several processes attaching a new catalog at once all make DuckLake's tables: the losers' CREATE
            # fails on PostgreSQL's own catalog. The winner's tables are there a moment later.
            if not (_FIRST_ATTACH_RACE.search(str(error)) and attempt < MAX_ATTEMPTS):
                raise _explained(error, location) from None
        time.sleep(random.uniform(0.05, 0.2) * attempt)


def _explained(error: Exception, location: LakeLocation) -> Exception:
    text = str(error).replace(location.fields.get("password", "\0"), "***")
    user = location.fields.get("user", os.environ.get("PGUSER", "the current user"))
    if (missing := _NO_DATABASE.search(text)) is not None:
        return NotFoundError(f"lake: no database {missing.group(1)!r} on {location.where} (create it, e.g. "
                             f"`createdb {missing.group(1)}`, or name another dbname)")
    if _CREDENTIALS.search(text):
        return LakeError(f"lake: the catalog at {location.where} refused user {user!r} (check user and "
                         f"password): {_last_line(text)}")
    if _UNREACHABLE.search(text):
        return LakeError(f"lake: cannot reach the catalog at {location.where} (is PostgreSQL running there, and "
                         f"reachable from here?): {_last_line(text)}")
    if (other := _OTHER_DATA_PATH.search(text)) is not None:
        return ValidationError(f"data_path: the lake keeps its files at {other.group(1)!r}, not "
                               f"{location.data_path!r}; give that path (or none)")
    return LakeError(f"lake: {location.name()}: {text}")


_FIXED_VECTOR = re.compile(r"FLOAT\[\d+\]")
# A lake has no sequences: a numbered column (memories.seq, code_units.seq, which order rows by insertion and
# break ties) takes the inserting transaction's start in microseconds. Rows of one insert tie, and a
# transaction that started first may commit last: readers of a lake reload on a count they did not expect
# (memory_index does).
_NUMBERED = "BIGINT NOT NULL default (epoch_us(current_timestamp))"


def schema_statements(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    """The lake's tables, as (name, CREATE TABLE statement) derived from the migrated local file attached as `con`'s
    current database: the same tables, columns, types and NOT NULLs, so that one set of migrations and
    named queries serves both. FLOAT[384] becomes FLOAT[] (DuckLake has no fixed-size arrays); keys and
    CHECKs are left out (DuckLake has none: the library supplies ids), and a column numbered by a sequence
    defaults to its transaction's time (_NUMBERED)."""
    columns: dict[str, list[str]] = {}
    for table, column, data_type, nullable, numbered in con.execute(sql.query("local_table_columns")).fetchall():
        if numbered:
            declared = f'"{column}" {_NUMBERED}'
        else:
            declared = f'"{column}" {_FIXED_VECTOR.sub("FLOAT[]", data_type)}' + ("" if nullable else " NOT NULL")
        columns.setdefault(table, []).append(declared)
    return [(table, sql.query("create_lake_table").format(table=f'"{table}"', columns=", ".join(declared)))
            for table, declared in columns.items()]


LAKE_FORMAT = "1"  # how learnmem lays out a lake; meta key lake_format
# An agent's working state (its sessions and tool counts, its active GHAP entry, the captures its hooks queued):
# a file holds one agent's; in a lake, each agent has its own, in a schema beside the project's.
AGENT_TABLES = ("capture_queue", "ghap_active", "sessions")
_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]|_(?!_)){0,62}")


def checked_name(field: str, name: object) -> str:
    """A project or agent name: lowercase letters, digits, '-' and single '_', starting with a letter or digit,
    at most 63 characters (a schema name; '__' joins a project's and an agent's)."""
    if not isinstance(name, str) or not _NAME.fullmatch(name) or name.endswith("_"):
        raise ValidationError(f"{field}: {name!r:.80} is not a {field} name; use lowercase letters, digits, '-' and "
                              "single '_', starting with a letter or digit, at most 63 characters")
    return name


@dataclass(frozen=True)
class Layout:
    """Where one agent of one project works in the lake `alias`: the project's schema holds what the team shares,
    the agent's (`<project>__<agent>`) its AGENT_TABLES and the views; queries run with the search path
    agent, project, so an unqualified name is the agent's table or else the project's, never another
    project's or agent's."""

    alias: str
    project: str
    agent: str

    @property
    def project_schema(self) -> str:
        return f'{self.alias}."{self.project}"'

    @property
    def agent_schema(self) -> str:
        return f'{self.alias}."{self.project}__{self.agent}"'

    @property
    def search_path(self) -> str:
        return f"{self.agent_schema},{self.project_schema}"


def enter(con: duckdb.DuckDBPyConnection, layout: Layout) -> None:
    """Make `layout`'s schemas the ones `con`'s unqualified names resolve in."""
    from learnmem.storage.extensions import quote_literal

    con.execute(sql.query("set_search_path").format(path=quote_literal(layout.search_path)))


def prepare(con: duckdb.DuckDBPyConnection, embedding_model: str, embedding_dim: int, layout: Layout
            ) -> dict[str, str]:
    """Make `layout`'s project and agent a learnmem project and agent in the attached lake, or check that they are
    ones this learnmem can use, and enter them (`enter`); returns the project's meta.

    A new project gets the tables schema_statements derives from the migrations (all but AGENT_TABLES) and
    its meta (schema and library version, the embedding model, lake_format, the rewrites counter); a new agent
    its AGENT_TABLES and the views; each in one transaction. Two processes preparing at once: one makes it,
    the other finds it made. A project with learnmem's meta must have this learnmem's schema version
    (LakeError names both: an older lake needs a migration, which learnmem does not perform on lakes yet; a
    newer one, a newer learnmem) and the model (ModelMismatchError). A project schema holding other tables
    but no meta is refused as not learnmem's.
    """
    import duckdb

    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            return _prepared(con, embedding_model, embedding_dim, layout)
        except (duckdb.TransactionException, duckdb.CatalogException, _Racing) as race:
            # Another process made the project or agent meanwhile (its CREATE won, or ours conflicted): look again.
            rollback(con)
            if attempt == MAX_ATTEMPTS or (isinstance(race, duckdb.CatalogException)
                                           and "already exists" not in str(race)):
                raise
            time.sleep(random.uniform(0.05, 0.2) * attempt)
    raise AssertionError("unreachable")


def _prepared(con: duckdb.DuckDBPyConnection, embedding_model: str, embedding_dim: int, layout: Layout
              ) -> dict[str, str]:
    ours = str(max(version for version, _, _ in sql.migrations()))
    meta = _project_meta(con, layout)  # the common case, an existing project, costs two small queries
    if meta is None:
        _make_project(con, embedding_model, embedding_dim, layout, ours)
        meta = _project_meta(con, layout) or {}
    version = int(meta.get("schema_version", "0"))
    if lake_upgrade.upgradable(version, int(ours)):
        statements, _ = _template_statements()
        lake_upgrade.upgrade(con, layout.project_schema, version, int(ours), dict(statements))
        meta = _project_meta(con, layout) or {}
    if meta.get("schema_version") != ours:
        newer = int(meta.get("schema_version", "0")) > int(ours)
        raise LakeError(f"lake: made by learnmem {meta.get('library_version', '?')} (schema "
                        f"{meta.get('schema_version', '?')}); this is learnmem {VERSION} (schema {ours}): "
                        + ("upgrade learnmem to use it" if newer else
                           "this learnmem cannot migrate a lake yet; use the learnmem that made it"))
    if (meta.get("embedding_model"), meta.get("embedding_dim")) != (embedding_model, str(embedding_dim)):
        raise ModelMismatchError(f"embedding model: the lake was embedded with {meta.get('embedding_model')!r} "
                                 f"({meta.get('embedding_dim')}-d), but {embedding_model!r} ({embedding_dim}-d) is "
                                 "configured; open it with the lake's model")
    if not _agent_ready(con, layout):
        _make_agent(con, layout)
    enter(con, layout)
    if not lake_upgrade.views_current(con, layout.agent_schema):  # made by an earlier learnmem, before an upgrade
        lake_upgrade.make_views(con)
    return meta


def _project_meta(con: duckdb.DuckDBPyConnection, layout: Layout) -> dict[str, str] | None:
    import duckdb

    try:
        con.execute(sql.query("use_database").format(alias=layout.project_schema))
        return dict(con.execute(sql.query("get_meta")).fetchall())
    except duckdb.CatalogException:  # no such schema, or a schema without learnmem's meta
        return None


def _agent_ready(con: duckdb.DuckDBPyConnection, layout: Layout) -> bool:
    import duckdb

    try:
        con.execute(sql.query("count_rows").format(table=f'{layout.agent_schema}."sessions"')).fetchone()
        return True
    except duckdb.CatalogException:
        return False


@functools.lru_cache(maxsize=1)
def _template_statements() -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """Once per process: the migrations are this library's own, and running them costs ~70 ms per project or
    agent made."""
    from learnmem.storage.store import migrated_template

    template = migrated_template()
    try:
        return tuple(schema_statements(template)), tuple(template.execute(sql.query("get_meta")).fetchall())
    finally:
        template.close()


def _make_project(con: duckdb.DuckDBPyConnection, embedding_model: str, embedding_dim: int, layout: Layout,
                  ours: str) -> None:
    present: set[str] = set()
    if not _created_schema(con, layout.project_schema):  # there already: made by another process meanwhile; or
        # without meta: empty (the lake's `main`, or being filled by another process: one commit will conflict), or
        # someone else's?
        if _project_meta(con, layout) is not None:
            return
        present = {name for (name,) in con.execute(sql.query("schema_tables"),
                                                   {"database": layout.alias, "schema": layout.project}).fetchall()}
    if "meta" in present:  # made by another process just now, and not yet visible to the meta query
        raise _Racing(layout.project)
    if present:
        raise LakeError(f"lake: project {layout.project!r} holds tables ({', '.join(sorted(present)[:5])}...) "
                        "but no learnmem meta: not a learnmem project; name another project")
    statements, template_meta = _template_statements()
    meta = dict(template_meta) | {"schema_version": ours, "library_version": VERSION,
                                  "embedding_model": embedding_model, "embedding_dim": str(embedding_dim),
                                  "lake_format": LAKE_FORMAT}
    con.execute(sql.query("use_database").format(alias=layout.project_schema))
    con.begin()
    for table, statement in statements:
        if table not in AGENT_TABLES:
            con.execute(statement)
    for key, value in meta.items():
        con.execute(sql.query("insert_meta"), {"key": key, "value": value})
    con.commit()


def _make_agent(con: duckdb.DuckDBPyConnection, layout: Layout) -> None:
    _created_schema(con, layout.agent_schema)  # made now, or by a process that then died: its tables are made here
    statements, _ = _template_statements()
    enter(con, layout)
    con.begin()
    for table, statement in statements:
        if table in AGENT_TABLES:
            con.execute(statement.replace(f'"{table}"', f'{layout.agent_schema}."{table}"', 1))
    con.execute((sql.sql_dir() / "views.sql").read_text(encoding="utf-8"))  # made in the agent's schema
    con.commit()


class _Racing(Exception):
    """Another process is making the project now: prepare looks again."""


def _created_schema(con: duckdb.DuckDBPyConnection, schema: str) -> bool:
    """Make a schema; False when it is there already. (Listing a lake's tables to look is slow: it reads every
    project's catalog, ~0.8 s with 30 projects.)"""
    import duckdb

    try:
        con.execute(sql.query("create_lake_schema").format(schema=schema))
        return True
    except duckdb.CatalogException as error:
        if "already exists" not in str(error):
            raise
        return False


MAX_ATTEMPTS = 12
_BACKOFF_S = (0.005, 0.02)  # a retry waits a random time in this range, times the attempt (at most 8)


def retrying(con: duckdb.DuckDBPyConnection, work: Callable[[duckdb.DuckDBPyConnection], T], first_attempt: int = 1
             ) -> T:
    """Run `work(con)` in a transaction and commit it. A commit that conflicts with another writer's (the
    catalog serialises them: DuckDB raises TransactionException) is rolled back and `work` run again after a
    jittered backoff: retrying at once lets one writer lose the race for seconds (measured: 8 writers, one
    at p95 6.6 s; with the backoff 0.44 s). Any other error rolls back and propagates; after MAX_ATTEMPTS
    conflicts, LakeError. `work` must only touch the database: it may run more than once. `first_attempt` > 1:
    the caller's own first attempt conflicted already (LakeStore.write), so the backoff comes first."""
    import duckdb

    for attempt in range(first_attempt, MAX_ATTEMPTS + 1):
        if attempt > 1:
            time.sleep(random.uniform(*_BACKOFF_S) * min(attempt - 1, 8))
        con.begin()
        try:
            result = work(con)
            con.commit()
            return result
        except duckdb.TransactionException as error:
            rollback(con)
            if attempt == MAX_ATTEMPTS:
                raise LakeError(f"lake: the commit conflicted with other writers {MAX_ATTEMPTS} times in a row; "
                                f"nothing was written: {error}") from None
        except BaseException:
            rollback(con)
            raise
    raise AssertionError("unreachable")


def rollback(con: duckdb.DuckDBPyConnection) -> None:
    import duckdb

    """Roll back, if a transaction is still open (a failed commit has ended it already)."""
    try:
        con.rollback()
    except duckdb.Error:
        pass


def _last_line(text: str) -> str:
    """The catalog's own words: the part of DuckDB's message after the last `failed:`."""
    tail = text.rsplit("failed:", 1)[-1]
    return " ".join(tail.split())[:300]
