"""A project's learnmem in a lake: the same store interface as `learnmem.storage.store.Store`, on DuckLake.

`Learnmem` works on either: it reads through `read()` and writes through `write()`, and finds nothing
different. What differs underneath:

- No file lock between agents. Many processes on many machines write at once; the lake's catalog (PostgreSQL)
  orders their commits. (One agent's own processes on one machine take turns, as on a file: _agent_lock.)
  DuckLake itself retries a commit that lost the race when the two changed different things (two inserts).
  When they changed the same table's rows (two agents' resolves, say), the later commit is refused: `write()` then runs the transaction's statements again on the newer snapshot, after a jittered
  backoff (lake.retrying), up to lake.MAX_ATTEMPTS times. The statements run again are the ones the
  transaction ran, with the same parameters: what Python decided between them is not decided again, just as
  DuckLake's own retry does not recompute its rows.
- One DuckDB instance per process and lake, with the lake attached for the process's life: loading the
  extensions and connecting to the catalog costs ~0.5 s, so it is not paid per operation as a file's ATTACH is.
- `signature()` is the lake's snapshot id, which every commit anywhere changes: the cached vectors of
  memory_index and snapshot_cache reload when it moves.
- Each project is a schema of the lake, and each agent of a project (a machine's checkout, or $LEARNMEM_AGENT)
  a schema beside it for its working state (lake.Layout): `read()` and `write()` resolve names in those two,
  so every unqualified table name is the agent's or its project's own.
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from learnmem.storage import lake, sql
from learnmem.storage import store as file_store  # LOCK_DEADLINE_S, which a hook process lowers
from learnmem.errors import LearnmemError, ModelMismatchError, ValidationError
from learnmem.storage.paths import default_path, project_root
from learnmem.storage.guarded import guarded_query
from learnmem.storage.extensions import quote_literal
from learnmem.storage.store import Store, migrated_template, new_instance
from learnmem.version import VERSION

if TYPE_CHECKING:
    import pyarrow as pa

ALIAS = "lake"


def default_project() -> str:
    """`$LEARNMEM_PROJECT`, else the name of the working directory's project root (its git top level) made a
    project name (lowercased, other characters '-')."""
    return os.environ.get("LEARNMEM_PROJECT") or _as_name(project_root(Path.cwd()).name)


def default_agent() -> str:
    """`$LEARNMEM_AGENT`, else this machine and checkout: `<host>-<8 hex of the project root's path>`. A file
    holds the working state of the agents of one checkout; a lake gives each checkout the same."""
    if os.environ.get("LEARNMEM_AGENT"):
        return os.environ["LEARNMEM_AGENT"]
    root = str(project_root(Path.cwd()))
    return f"{_as_name(socket.gethostname())[:40]}-{hashlib.sha256(root.encode()).hexdigest()[:8]}"


def _as_name(text: str) -> str:
    cleaned = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return cleaned[:63].rstrip("-") or "main"


def open_store(path: str | os.PathLike | None, read_only: bool, model_name: str, dim: int,
               data_path: str | os.PathLike | None = None, project: str | None = None, agent: str | None = None
               ) -> Store | LakeStore:
    """The store `path` (or `$LEARNMEM_DB`) names: a LakeStore for a lake, else a Store for a file."""
    target = path if path is not None else os.environ.get("LEARNMEM_DB")
    if lake.is_lake(target):
        return LakeStore(target, data_path=data_path or os.environ.get("LEARNMEM_LAKE_DATA_PATH") or None,
                         project=project, agent=agent, read_only=read_only, embedding_model=model_name,
                         embedding_dim=dim)
    for name, value in (("data_path", data_path), ("project", project), ("agent", agent)):
        if value is not None:
            raise ValidationError(f"{name}: only a lake takes one; {str(path or default_path())!r} is a file")
    return Store(path, read_only=read_only, embedding_model=model_name, embedding_dim=dim)


_instances: dict[tuple, tuple[int, duckdb.DuckDBPyConnection]] = {}
_instances_guard = threading.Lock()


def _instance_for(location: lake.LakeLocation, read_only: bool) -> duckdb.DuckDBPyConnection:
    """This process's DuckDB instance with the lake attached (read-only or not), made on first use and shared by
    its stores: loading the extensions and connecting to the catalog costs ~0.5 s, paid once per process rather
    than per store. Each operation takes a cursor of its own, with its own search path and transaction."""
    key = (location.catalog, location.data_path, read_only)
    with _instances_guard:
        held = _instances.get(key)
        if held is None or held[0] != os.getpid():  # a forked child makes its own
            instance = new_instance()
            try:
                lake.attach(instance, location, ALIAS, read_only=read_only)
            except BaseException:
                instance.close()
                raise
            held = _instances[key] = (os.getpid(), instance)
        return held[1]


def release_instances() -> None:
    """Close this process's lake instances; the next store attaches again (~0.5 s). An instance caches the
    catalog of every project it has seen (~10 MB each, measured), so a long-lived process (or a test suite)
    that is done with its lakes gives them back."""
    with _instances_guard:
        held = list(_instances.values())
        _instances.clear()
    for pid, instance in held:
        if pid == os.getpid():
            instance.close()


class LakeStore:
    """One project of a lake: connections per operation on an instance that keeps the lake attached."""

    kind = "lake"
    pending = None  # a file's journal of acknowledged memories (learnmem.storage.journal): a lake writes at once

    def __init__(self, target: str, *, data_path: str | os.PathLike | None = None, project: str | None = None,
                 agent: str | None = None, read_only: bool = False, embedding_model: str, embedding_dim: int):
        self.location = lake.LakeLocation.parse(target, data_path)
        self.project = lake.checked_name("project", default_project() if project is None else project)
        self.agent = lake.checked_name("agent", default_agent() if agent is None else agent)
        self.layout = lake.Layout(ALIAS, self.project, self.agent)
        self.read_only = read_only
        # Where the project's repository is looked for (memories record the commit they are made at): the
        # working directory's project, as for a file kept outside it.
        self.path = project_root(Path.cwd()) / ".learnmem" / f"lake-{self.project}"
        self._write_lock = threading.Lock()  # this store's writes take turns
        self._lock = None  # this agent's, across processes (_agent_lock)
        preparing = _instance_for(self.location, read_only=False).cursor()  # a new project needs its tables made
        try:
            self.meta = lake.prepare(preparing, embedding_model, embedding_dim, self.layout)
        finally:
            preparing.close()
        self._instance = _instance_for(self.location, read_only)

    def name(self) -> str:
        """The lake, project and agent, for messages (no password)."""
        return f"{self.location.name()} project={self.project} agent={self.agent}"

    def __repr__(self) -> str:
        return f"<LakeStore {self.name()}>"

    # -- connections -------------------------------------------------------

    def _cursor(self) -> duckdb.DuckDBPyConnection:
        con = self._instance.cursor()
        lake.enter(con, self.layout)
        return con

    @contextmanager
    def read(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection for one operation, the project's schema its default; it sees the lake's latest snapshot."""
        con = self._cursor()
        try:
            yield con
        finally:
            con.close()

    def settle(self, patient: bool = True) -> bool:
        """Store.settle's counterpart: a lake has no journal to fold."""
        return True

    @contextmanager
    def reads_held(self) -> Iterator[None]:
        """Store.reads_held's counterpart, with nothing to hold: a lake stays attached to its process's instance,
        so its reads cost no attach."""
        yield

    @contextmanager
    def write(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection inside one transaction: committed on success (run again on a newer snapshot if another
        writer's commit conflicts: the module docstring), rolled back on error."""
        if self.read_only:
            raise LearnmemError(f"{self.name()} was opened read-only: open it with read_only=False to change it")
        with self._write_lock, self._agent_lock():
            con = self._cursor()
            journal = Journal(con)
            try:
                con.begin()
                try:
                    yield journal  # type: ignore[misc]  # a connection to its users: execute, register, unregister
                except BaseException:
                    lake.rollback(con)
                    raise
                try:
                    con.commit()
                except duckdb.TransactionException:
                    lake.rollback(con)
                    lake.retrying(con, journal.replay, first_attempt=2)
            finally:
                con.close()

    @contextmanager
    def _agent_lock(self) -> Iterator[None]:
        """This agent's processes on this machine write one at a time (a file lock in the temp folder), as they
        would on a file: an agent's transactions read, decide and write its working state (one active GHAP
        entry), which running a refused commit's statements again would not decide anew. Other agents and
        machines do not wait."""
        from filelock import FileLock

        if self._lock is None:
            key = hashlib.sha256(f"{self.location.name()}\0{self.project}\0{self.agent}".encode()).hexdigest()[:24]
            folder = Path(tempfile.gettempdir()) / "learnmem-lake-locks"
            folder.mkdir(exist_ok=True)
            self._lock = FileLock(str(folder / f"{key}.lock"), timeout=file_store.LOCK_DEADLINE_S)
        with file_store.holding(self._lock, f"other processes of agent {self.agent!r}"):
            yield

    def check_model(self, embedding_model: str, embedding_dim: int) -> None:
        """Refuse to mix vectors of two models in one project."""
        stored = (self.meta.get("embedding_model"), self.meta.get("embedding_dim"))
        if stored != (embedding_model, str(embedding_dim)):
            raise ModelMismatchError(
                f"embedding model: {self.name()} was embedded with {stored[0]!r} ({stored[1]}-d), but "
                f"{embedding_model!r} ({embedding_dim}-d) is configured; open it with the model {stored[0]!r}")

    def signature(self) -> tuple:
        """The lake's snapshot id: it changes with every commit, by any process."""
        with self.read() as con:
            return tuple(con.execute(sql.query("lake_snapshot"), {"catalog": ALIAS}).fetchone())

    def describe(self) -> dict[str, Any]:
        """The project's facts for Learnmem.info: the lake's name (as path), schema and library versions, model,
        and the row count of each table; file and WAL sizes are 0 (the data files are the lake's)."""
        with self.read() as con:
            meta = dict(con.execute(sql.query("get_meta")).fetchall())
            counts = dict(con.execute(sql.query("table_counts")).fetchall())
        return {"path": self.name(), "file_bytes": 0, "wal_bytes": 0,
                "schema_version": int(meta.get("schema_version", 0)),
                "library_version": meta.get("library_version", VERSION),
                "embedding_model": meta.get("embedding_model", ""), "embedding_dim": int(meta.get("embedding_dim", 0)),
                "counts": counts}

    # -- whole-project operations -------------------------------------------

    def copy_to_memory(self) -> duckdb.DuckDBPyConnection:
        """A new in-memory DuckDB holding the project's tables (vectors as FLOAT[384] again) and views."""
        copy = migrated_template()
        try:
            tables = [table for (table,) in copy.execute(sql.query("template_tables")).fetchall()]
            lake.attach(copy, self.location, ALIAS, read_only=True)
            copy.execute(sql.query("clear_meta"))  # the template's own: the project's replace it
            for table in tables:
                source = self.layout.agent_schema if table in lake.AGENT_TABLES else self.layout.project_schema
                copy.execute(sql.query("copy_table_by_name").format(target=f'main."{table}"',
                                                                    source=f'{source}."{table}"'))
            copy.execute(sql.query("detach_file").format(alias=ALIAS))
        except BaseException:
            copy.close()
            raise
        return copy

    def run_query(self, query: str, params: Any = None) -> pa.Table:
        """Run a caller's SQL, which may only read (Store.run_query's rules), on an instance of its own with the
        lake attached read-only and external access limited to the lake's data path."""
        if not isinstance(query, str):
            raise ValidationError(f"query: expected SQL text, got {type(query).__name__}")
        instance = new_instance()
        try:
            lake.attach(instance, self.location, ALIAS, read_only=True)
            con = instance.cursor()
            lake.enter(con, self.layout)
            if self.location.data_path and "://" not in self.location.data_path:
                con.execute(sql.query("allow_directory").format(path=quote_literal(self.location.data_path)))
            return guarded_query(con, query, params)
        finally:
            instance.close()

    def rewrite(self) -> None:
        """What Store.rewrite does for a file: no byte of deleted rows left. On a lake, the snapshots before now
        are expired and the data files only they used are deleted (forget(hard=True)); other projects' too,
        as snapshots are the lake's."""
        if self.read_only:
            raise LearnmemError(f"{self.name()} was opened read-only: open it with read_only=False to rewrite it")
        with self._write_lock:
            con = self._cursor()
            try:
                con.execute(sql.query("expire_lake_snapshots"), {"catalog": ALIAS})
                con.execute(sql.query("delete_lake_files"), {"catalog": ALIAS})
            finally:
                con.close()

    @contextmanager
    def attached_file(self, path: Path, alias: str, read_only: bool = True) -> Iterator[None]:
        """The DuckDB file `path` attached to this store's instance as `alias` while the block runs: a transaction
        may then copy between it and the lake (lake_sync)."""
        self._instance.execute(sql.query("attach_file").format(path=quote_literal(str(path)), alias=alias,
                                                               mode="(READ_ONLY)" if read_only else ""))
        try:
            yield
        finally:
            self._instance.execute(sql.query("detach_file").format(alias=alias))


class Journal:
    """A write transaction's connection that keeps what ran on it, so that a commit refused for a conflict can
    run the same statements again, with the same parameters and registered tables, in a new transaction."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self._con = con
        self._steps: list[tuple[str, tuple]] = []

    def execute(self, query: str, parameters: Any = None) -> duckdb.DuckDBPyConnection:
        self._steps.append(("execute", (query, _frozen(parameters))))
        return self._con.execute(query, parameters)

    def register(self, name: str, table: Any) -> duckdb.DuckDBPyConnection:
        self._steps.append(("register", (name, table)))
        return self._con.register(name, table)

    def unregister(self, name: str) -> duckdb.DuckDBPyConnection:
        self._steps.append(("unregister", (name,)))
        return self._con.unregister(name)

    def replay(self, con: duckdb.DuckDBPyConnection) -> None:
        """Run every step again on `con` (inside the caller's transaction)."""
        for method, arguments in self._steps:
            getattr(con, method)(*arguments)


def _frozen(parameters: Any) -> Any:
    """The parameters as they are now: a caller may change its dict or list after the statement ran."""
    if isinstance(parameters, dict):
        return dict(parameters)
    if isinstance(parameters, list):
        return list(parameters)
    return parameters
