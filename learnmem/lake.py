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

DuckLake differs from a DuckDB file in what the schema may use (tests/test_lake_facts.py pins it): no
PRIMARY KEY or UNIQUE, no fixed-size FLOAT[384] (vectors are FLOAT[]), no sequences; and several processes
may write at once, each commit a catalog transaction.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from learnmem import sql
from learnmem.errors import LakeError, ModelMismatchError, NotFoundError, ValidationError
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
_OTHER_DATA_PATH = re.compile(r'does not match existing data path in the catalog "([^"]*)"', re.IGNORECASE)


def is_lake(target: object) -> bool:
    """Whether `target` (a path, or a string from learnmem.open / LEARNMEM_DB) names a lake."""
    return isinstance(target, str) and target.startswith(SCHEME)


@dataclass(frozen=True)
class LakeLocation:
    """A checked lake name: its libpq fields, and where its data files go (None: where the lake has them)."""

    fields: dict[str, str]
    data_path: str | None = field(default=None)

    @classmethod
    def parse(cls, target: str, data_path: str | os.PathLike | None = None) -> LakeLocation:
        """Check `ducklake:postgres:<key=value ...>` and the data path; ValidationError names what is wrong."""
        if not is_lake(target):
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

    from learnmem.store import load_extension, quote_literal

    for name in ("postgres_scanner", "ducklake"):
        load_extension(con, name)
    options = [f"DATA_PATH {quote_literal(location.data_path)}"] if location.data_path else []
    options += ["READ_ONLY"] if read_only else []
    statement = sql.query("attach_lake").format(target=quote_literal(SCHEME + location.catalog), alias=alias,
                                                options=f"({', '.join(options)})" if options else "")
    try:
        con.execute(statement)
    except duckdb.Error as error:
        raise _explained(error, location) from None


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


def schema_statements(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The lake's tables, as CREATE TABLE statements derived from the migrated local file attached as `con`'s
    current database: the same tables, columns, types and NOT NULLs, so that one set of migrations and
    named queries serves both. FLOAT[384] becomes FLOAT[] (DuckLake has no fixed-size arrays); keys,
    CHECKs, defaults and sequences are left out (DuckLake has none: the library supplies ids and `seq`)."""
    columns: dict[str, list[str]] = {}
    for table, column, data_type, nullable in con.execute(sql.query("local_table_columns")).fetchall():
        declared = f'"{column}" {_FIXED_VECTOR.sub("FLOAT[]", data_type)}' + ("" if nullable else " NOT NULL")
        columns.setdefault(table, []).append(declared)
    return [sql.query("create_lake_table").format(table=f'"{table}"', columns=", ".join(declared))
            for table, declared in columns.items()]


LAKE_FORMAT = "1"  # how learnmem lays out a lake; meta key lake_format


def prepare(con: duckdb.DuckDBPyConnection, embedding_model: str, embedding_dim: int, alias: str = "lake"
            ) -> dict[str, str]:
    """Make the attached lake `alias` a learnmem lake, or check that it is one this learnmem can use, and make
    it `con`'s default database; returns its meta.

    An empty lake gets the tables schema_statements derives from the migrations, the views and its meta
    (schema and library version, the embedding model, lake_format), in one transaction. A lake with
    learnmem's meta must have this learnmem's schema version (LakeError names both: an older lake needs a
    migration, which learnmem does not perform on lakes yet; a newer one, a newer learnmem) and the model
    (ModelMismatchError). A lake holding other tables but no meta is refused as not learnmem's.
    """
    from learnmem.store import migrated_template

    con.execute(sql.query("use_database").format(alias=alias))
    present = {name for (name,) in con.execute(sql.query("database_tables"), {"database": alias}).fetchall()}
    ours = str(max(version for version, _, _ in sql.migrations()))
    if "meta" not in present:
        if present:
            raise LakeError(f"lake: holds tables ({', '.join(sorted(present)[:5])}...) but no learnmem meta: not a "
                            "learnmem lake; give an empty catalog database")
        template = migrated_template()
        try:
            statements = schema_statements(template)
        finally:
            template.close()
        meta = {"schema_version": ours, "library_version": VERSION, "embedding_model": embedding_model,
                "embedding_dim": str(embedding_dim), "lake_format": LAKE_FORMAT}
        con.begin()
        for statement in statements:
            con.execute(statement)
        con.execute((sql.sql_dir() / "views.sql").read_text(encoding="utf-8"))
        for key, value in meta.items():
            con.execute(sql.query("insert_meta"), {"key": key, "value": value})
        con.commit()
        return meta
    meta = dict(con.execute(sql.query("get_meta")).fetchall())
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
    return meta


MAX_ATTEMPTS = 12
_BACKOFF_S = (0.005, 0.02)  # a retry waits a random time in this range, times the attempt (at most 8)


def retrying(con: duckdb.DuckDBPyConnection, work: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
    """Run `work(con)` in a transaction and commit it. A commit that conflicts with another writer's (the
    catalog serialises them: DuckDB raises TransactionException) is rolled back and `work` run again after a
    jittered backoff: retrying at once lets one writer lose the race for seconds (measured: 8 writers, one
    at p95 6.6 s; with the backoff 0.44 s). Any other error rolls back and propagates; after MAX_ATTEMPTS
    conflicts, LakeError. `work` must only touch the database: it may run more than once."""
    import duckdb

    for attempt in range(1, MAX_ATTEMPTS + 1):
        con.begin()
        try:
            result = work(con)
            con.commit()
            return result
        except duckdb.TransactionException as error:
            _rollback(con)
            if attempt == MAX_ATTEMPTS:
                raise LakeError(f"lake: the commit conflicted with other writers {MAX_ATTEMPTS} times in a row; "
                                f"nothing was written: {error}") from None
            time.sleep(random.uniform(*_BACKOFF_S) * min(attempt, 8))
        except BaseException:
            _rollback(con)
            raise
    raise AssertionError("unreachable")


def _rollback(con: duckdb.DuckDBPyConnection) -> None:
    import duckdb

    try:
        con.rollback()
    except duckdb.Error:
        pass  # the failed commit already ended the transaction


def _last_line(text: str) -> str:
    """The catalog's own words: the part of DuckDB's message after the last `failed:`."""
    tail = text.rsplit("failed:", 1)[-1]
    return " ".join(tail.split())[:300]
