"""The learnmem file: where it lives, opening it, migrations and locking.

This is the only module that opens DuckDB connections. No process holds the
file between operations (DuckDB allows one read-write process or many
read-only ones, never both), so every operation attaches it, works, commits
and detaches it. Writers serialise on `<file>.lock`; everyone retries DuckDB's
own lock error with capped backoff, because the DuckDB CLI and notebooks do not
take our lock.

The file is ATTACHed to one in-memory DuckDB per process rather than opened
with `duckdb.connect`: starting a DuckDB instance costs ~20 ms (DuckDB 1.5: its
built-in extensions and catalog), ATTACH + DETACH of the file 6-9 ms (about
0.3 ms per table it holds), and an agent's calls each pay it. DETACH
checkpoints and releases the file like a close.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from learnmem.storage import sql
from learnmem.storage.extensions import quote_literal
from learnmem.storage.guarded import guarded_query
from learnmem.storage import journal
from learnmem.storage.journal import Journal
from learnmem.errors import LearnmemError, ModelMismatchError, NotFoundError, StoreBusyError, ValidationError
from learnmem.storage.paths import default_path, project_root  # noqa: F401 - project_root: re-exported
from learnmem.version import VERSION

if TYPE_CHECKING:  # pyarrow costs ~170 ms to import: the hook and `ghap status` paths must not pay it
    import pyarrow as pa
    from filelock import FileLock  # ~15 ms (it imports asyncio): only writers load it

LOCK_DEADLINE_S = 10.0
# How long a fold of the journal before a read (or in the background) waits for a file another process holds.
SETTLE_PATIENCE_S = 0.5
# How often a writer waiting for `<file>.lock` tries it again. filelock's default, 50 ms, let a waiter starve:
# the holder let go and took the lock again between two of its tries. Four processes taking turns (4 ms held,
# 1 ms apart), the worst wait of each: 0.50-0.91 s at 50 ms, 0.05-0.09 s at 5 ms (python -m bench.lock_wait; a
# StoreBusyError once went through a loaded test run that way).
LOCK_POLL_S = 0.005
_BACKOFF_START_S = 0.005
_BACKOFF_CAP_S = 0.2
_DUCKDB_LOCK_ERROR = "Could not set lock"
# The rows of a table's row group, for what a writer appends. DuckDB's checkpoint (at every detach) rewrites the
# last row group of a table that grew, vectors and all: with the default 122,880 rows, a store into a file of
# 60,000 memories rewrote ~90 MB and its detach took 560-590 ms; with 2,048 (DuckDB's smallest) 85 ms, flat with
# the file's size (issue 25, measured on a busy 2-core machine). Reading the file back was no slower.
ROW_GROUP_ROWS = 2048
# Never reach for the network at run time; extensions come from their wheels.
_CONFIG = {"autoinstall_known_extensions": False}

# DuckDB refuses a second connection to the same file with another
# configuration (read-only vs read-write) inside one process, so all of a
# process's connections to one file take turns.
_process_locks: dict[Path, threading.RLock] = {}
_aliases: dict[Path, str] = {}  # the name each file is attached under in this process
_process_locks_guard = threading.Lock()


def iso(moment: datetime) -> str:
    """A stored (naive UTC) timestamp as ISO 8601 with `Z`."""
    return moment.isoformat(timespec="seconds") + "Z"


def utc_now() -> datetime:
    """Now in UTC as a naive datetime, the form every TIMESTAMP column holds."""
    return datetime.now(timezone.utc).replace(tzinfo=None)


_host_instance: tuple[int, duckdb.DuckDBPyConnection] | None = None
_host_guard = threading.Lock()


def _host() -> duckdb.DuckDBPyConnection:
    """This process's in-memory DuckDB, which files are attached to (a forked child makes its own)."""
    global _host_instance
    with _host_guard:
        if _host_instance is None or _host_instance[0] != os.getpid():
            instance = duckdb.connect(":memory:", config=_CONFIG)
            instance.execute(sql.query("first_binding"), {"warm_up": 0})  # its imports, before any file is held
            _host_instance = (os.getpid(), instance)
        return _host_instance[1]


@contextmanager
def holding(lock: FileLock, holders: str) -> Iterator[None]:
    """`lock` (a FileLock made with LOCK_DEADLINE_S) held while the block runs, tried every LOCK_POLL_S;
    StoreBusyError naming `holders` when the deadline passes first."""
    from filelock import Timeout

    try:
        lock.acquire(poll_interval=LOCK_POLL_S)
    except Timeout as error:
        raise StoreBusyError(f"waited {LOCK_DEADLINE_S:.0f} s for {lock.lock_file}: {holders} kept it") from error
    try:
        yield
    finally:
        lock.release()


def _drop_host() -> None:
    """Close this process's instance and every file still attached to it."""
    global _host_instance
    with _host_guard:
        if _host_instance is not None and _host_instance[0] == os.getpid():
            _host_instance[1].close()
        _host_instance = None


class Store:
    """One learnmem file: opens connections per operation, migrates, records meta."""

    kind = "file"  # a LakeStore's is "lake"

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        *,
        read_only: bool = False,
        embedding_model: str,
        embedding_dim: int,
    ):
        self.path = Path(path).expanduser().absolute() if path is not None else default_path()
        self.read_only = read_only
        with _process_locks_guard:
            self._process_lock = _process_locks.setdefault(self.path, threading.RLock())
            self._alias = _aliases.setdefault(self.path, f"learnmem_{len(_aliases)}")
        self._lock_file: FileLock | None = None
        self.pending = Journal(self.path)  # memories acknowledged before they reach the file
        self._folded: Callable[[dict[str, int], tuple, tuple], None] | None = None
        self._settling = threading.local()
        if read_only and not self.path.is_file():
            raise NotFoundError(f"path: no learnmem file at {self.path} (create it with `learnmem init`, or open it read-write once)")
        self._meta: dict[str, str] | None = None
        self._held: list | None = None  # [thread id, connection or None] inside reads_held
        if read_only:
            # Checked on the first read, on that read's own connection: a one-shot
            # reader (a hook, `learnmem ghap status`) then opens the file once, not twice.
            return
        # Most opens find the file up to date: a read-only look then suffices, and
        # does not wait for a notebook that holds the file read-only.
        meta = self._up_to_date_meta() if self.path.is_file() else None
        if meta is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            meta = self._prepare(embedding_model, embedding_dim)
        self._meta = meta

    def name(self) -> str:
        """The file, for messages."""
        return str(self.path)

    @property
    def meta(self) -> dict[str, str]:
        """The file's meta table (schema and library version, embedding model and dimension)."""
        if self._meta is None:
            with self.read():
                pass
        return self._meta

    @meta.setter
    def meta(self, value: dict[str, str]) -> None:
        self._meta = value

    # -- connections -------------------------------------------------------

    def _connect(self, read_only: bool, instance: duckdb.DuckDBPyConnection | None = None
                 ) -> duckdb.DuckDBPyConnection:
        """A connection (to `instance`, else this process's shared one) with the file attached as its
        default database, retrying DuckDB's lock error with capped, jittered backoff. Release it with
        `_disconnect`."""
        waits = getattr(self._settling, "deadline", None) or LOCK_DEADLINE_S  # a fold's may be shorter
        deadline = time.monotonic() + waits
        delay = _BACKOFF_START_S
        mode = "(READ_ONLY)" if read_only else f"(ROW_GROUP_SIZE {ROW_GROUP_ROWS})"
        attach = sql.query("attach_file").format(path=quote_literal(str(self.path)), alias=self._alias, mode=mode)
        while True:
            con = (instance if instance is not None else _host()).cursor()
            try:
                con.execute(attach)
                con.execute(sql.query("use_database").format(alias=self._alias))
                return con
            except duckdb.Error as error:
                con.close()
                if _DUCKDB_LOCK_ERROR not in str(error):
                    raise LearnmemError(f"path: cannot open {self.path} as a DuckDB database: {error}") from error
                if time.monotonic() >= deadline:
                    raise StoreBusyError(
                        f"{self.path} stayed locked by another process for {waits:g} s "
                        f"(a notebook or DuckDB CLI holding it open?): {error}"
                    ) from error
                time.sleep(delay * random.uniform(0.5, 1.0))
                delay = min(delay * 2, _BACKOFF_CAP_S)

    def _disconnect(self, con: duckdb.DuckDBPyConnection) -> None:
        """Detach the file (checkpointing what was written) and close the connection."""
        try:
            con.execute(sql.query("detach_file").format(alias=self._alias))
        except duckdb.Error:
            # Still attached, so still locked (an aborted transaction?): closing the
            # whole instance releases the file; what was committed is in its WAL.
            _drop_host()
        finally:
            con.close()

    @property
    def process_lock(self) -> threading.RLock:
        """This process's lock of the file: its threads' operations on it take turns (the memory index shares it)."""
        return self._process_lock

    def on_folded(self, callback: Callable[[dict[str, int], tuple, tuple], None]) -> None:
        """`callback(seqs, stats, signature)` after each fold of the journal: the ids written and their numbers,
        memory_stats and the file's signature after (the process's memory snapshot keeps up with it)."""
        self._folded = callback

    def settle(self, patient: bool = True) -> bool:
        """Fold the journal (learnmem.storage.journal) into the file if it holds rows; whether nothing waits in
        it now. Every operation that touches the file settles first, so no read misses an acknowledged row.

        Patient (before a write, which needs the file anyway): waits for the file as a write does, and raises
        StoreBusyError as it does. Impatient (before a read, in the background, at close): gives another process
        that holds the file (the DuckDB CLI) SETTLE_PATIENCE_S, then leaves the rows in the journal and returns
        False: the read goes on with what the file holds, and no thread of this process waits LOCK_DEADLINE_S.
        A read-only handle folds too (the rows were acknowledged; it writes nothing of its own), impatiently,
        and reads the file as it is when it cannot (a file it may not write, say)."""
        if getattr(self._settling, "deadline", None) is not None:  # this fold's own connection
            return False
        if not self.pending.holds_rows():
            return True
        patient = patient and not self.read_only
        self._settling.deadline = LOCK_DEADLINE_S if patient else SETTLE_PATIENCE_S
        outcome = None

        def committed() -> None:
            self.pending.release()
            if outcome is not None and self._folded is not None:
                self._folded(*outcome, self.signature())

        try:
            with self._transaction(committed) as con:
                outcome = journal.fold_into(con, self.pending)
        except StoreBusyError:
            if patient:
                raise
            return False
        except (LearnmemError, OSError):
            if not self.read_only:
                raise
            return False
        finally:
            self._settling.deadline = None
        return True

    def append_pending(self, rows: pa.Table, still_current: Callable[[], bool]) -> tuple | None:
        """Append `rows` to the journal under the writer lock, if `still_current()` holds there (the caller's
        view of the file and the journal is unchanged); the journal's new state, or None when it did not hold."""
        self._refuse_read_only("change it")
        with self._process_lock, self._writer_lock():
            if not still_current():
                return None
            return self.pending.append(rows)

    @contextmanager
    def reads_held(self) -> Iterator[None]:
        """Within it, this thread's reads share one connection to the file: each ATTACH/DETACH costs 5-10 ms
        and empties DuckDB's cache of the file's blocks, and a long-lived process answering a hook reads ~10
        times, and the facade's calls that read in many places (context: ~8 reads) hold it too: a light context
        took ~63 ms with 6 attaches, ~25 ms with one (measured, 2-core machine). A write inside lets the file go
        for its own connection (the next read takes it again). Other threads of the process wait; other
        processes may read meanwhile, but not write."""
        with self._process_lock:
            if self._held is not None:  # nested: the outer one holds
                yield
                return
            self._held = [threading.get_ident(), None]
            try:
                yield
            finally:
                held, self._held = self._held, None
                if held[1] is not None:
                    self._disconnect(held[1])

    @contextmanager
    def read(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A read-only connection for one operation; other readers may hold the file too."""
        self.settle(patient=False)
        with self._process_lock:
            held = self._held
            if held is not None and held[0] == threading.get_ident():
                if held[1] is None:
                    held[1] = self._connect(read_only=True)
                    if self._meta is None and self.read_only:
                        self._meta = self._checked_meta(held[1])
                yield held[1]
                return
            con = self._connect(read_only=True)
            try:
                if self._meta is None and self.read_only:
                    self._meta = self._checked_meta(con)
                yield con
            finally:
                self._disconnect(con)

    def copy_to_memory(self) -> duckdb.DuckDBPyConnection:
        """A new in-memory DuckDB holding a copy of every table and view of the file, which is released
        before this returns: a notebook can take its time without keeping writers out."""
        self.settle(patient=False)
        copy = duckdb.connect(":memory:", config=_CONFIG)
        with self._process_lock:
            con = self._connect(read_only=True, instance=copy)  # waits out a writer like any read
            try:
                con.execute(sql.query("copy_database").format(alias=self._alias))
            finally:
                con.execute(sql.query("detach_file").format(alias=self._alias))
                con.close()
        return copy

    def rewrite(self) -> None:
        """Put a fresh copy of the file in its place, under the writer lock. DuckDB reuses the blocks that
        deleted rows leave free but never clears them: only a rewritten file no longer holds their bytes
        (forget(hard=True)). A reader that attaches meanwhile sees the old file or the new one, whole."""
        self._refuse_read_only("rewrite it")
        self.settle()
        fresh = Path(f"{self.path}.rewrite")
        with self._process_lock, self._writer_lock():
            instance = duckdb.connect(":memory:", config=_CONFIG)
            try:
                con = self._connect(read_only=False, instance=instance)
                fresh.unlink(missing_ok=True)
                con.execute(sql.query("attach_file").format(path=quote_literal(str(fresh)), alias="learnmem_rewrite",
                                                            mode=""))
                con.execute(sql.query("copy_database_between").format(source=self._alias, target="learnmem_rewrite"))
                con.execute(sql.query("detach_file").format(alias="learnmem_rewrite"))
                con.execute(sql.query("detach_file").format(alias=self._alias))
            finally:
                instance.close()
            with open(fresh, "rb+") as handle:
                os.fsync(handle.fileno())
            os.replace(fresh, self.path)
            Path(f"{self.path}.wal").unlink(missing_ok=True)  # detached above: checkpointed, nothing left in it
            directory = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)

    def run_query(self, query: str, params: Any = None) -> pa.Table:
        """Run a caller's SQL, which may only read, and fetch the rows; DuckDB's complaints become
        ValidationError.

        It runs on a DuckDB instance of its own (not this process's shared one) with the file attached
        read-only, external access off and the configuration locked (sql/queries/store.sql
        disable_external_access, lock_configuration), and it must be one query statement (SELECT, WITH, FROM, VALUES, TABLE,
        SHOW, DESCRIBE, SUMMARIZE): no statement can write the file, re-attach it writable,
        reach another file or change the shared instance.
        """
        if not isinstance(query, str):
            raise ValidationError(f"query: expected SQL text, got {type(query).__name__}")
        self.settle(patient=False)
        instance = duckdb.connect(":memory:", config=_CONFIG)
        try:
            with self._process_lock:
                con = self._connect(read_only=True, instance=instance)
                try:
                    return guarded_query(con, query, params)
                finally:
                    con.close()
        finally:
            instance.close()

    @contextmanager
    def write(self, committed: Callable[[], None] | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
        """A read-write connection inside one transaction: committed on success, rolled back on error.
        `committed` is called once the transaction has committed and the file is detached, before the writer
        lock is released: what it reads of the file (its signature) is this write's doing alone."""
        self._refuse_read_only("change it")
        with self._transaction(committed) as con:
            yield con

    def _refuse_read_only(self, action: str) -> None:
        if self.read_only:
            raise LearnmemError(f"{self.path} was opened read-only: open it with read_only=False to {action}")

    @contextmanager
    def _transaction(self, committed: Callable[[], None] | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
        """write's transaction, which a fold of the journal (settle) runs on a read-only handle too."""
        with self._writer(committed) as con:
            con.begin()
            try:
                yield con
                con.commit()
            except BaseException:
                con.rollback()
                raise

    @contextmanager
    def _writer(self, done: Callable[[], None] | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
        """A read-write connection under both locks. A WAL left by a crashed writer is replayed when the file
        is attached and folded into it when it is detached, with this operation's changes."""
        with self._process_lock, self._writer_lock():
            self.settle()  # under the lock: no append can slip in between the fold and this write
            held = self._held
            if held is not None and held[1] is not None:  # inside reads_held: DuckDB takes one mode at a time
                self._disconnect(held[1])
                held[1] = None
            con = self._connect(read_only=False)
            finished = False
            try:
                yield con
                finished = True
            finally:
                self._disconnect(con)
            if finished and done is not None:
                done()

    @property
    def _file_lock(self) -> FileLock:
        """`<file>.lock`, which writers serialise on."""
        if self._lock_file is None:
            from filelock import FileLock

            self._lock_file = FileLock(str(self.path) + ".lock", timeout=LOCK_DEADLINE_S)
        return self._lock_file

    def _writer_lock(self) -> AbstractContextManager[None]:
        return holding(self._file_lock, "other learnmem writers")

    @contextmanager
    def frozen(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The file checkpointed (its WAL folded in) and held read-write under the writer lock: while this
        lasts no process can change it, so its bytes alone are a consistent copy (learnmem.storage.backup).

        A writer killed while writing a commit leaves a torn tail in the WAL: replay drops it (nothing
        acknowledged is lost) but CHECKPOINT, having nothing to fold, leaves the file in place. One small
        write (meta `wal_reset_at`) makes DuckDB rewrite the WAL; the second CHECKPOINT then empties it."""
        with self._writer() as con:
            con.execute(sql.query("checkpoint_file"))
            wal = Path(f"{self.path}.wal")
            if wal.exists() and wal.stat().st_size:
                set_meta(con, "wal_reset_at", iso(utc_now()))
                con.execute(sql.query("checkpoint_file"))
            if wal.exists() and wal.stat().st_size:
                raise LearnmemError(f"{self.path}: CHECKPOINT left {wal} non-empty; try again")
            yield con

    def describe(self) -> dict[str, Any]:
        """The file's facts for Learnmem.info: path, sizes (file, WAL), schema and library versions, model, and
        the row count of each table."""
        with self.read() as con:
            meta = dict(con.execute(sql.query("get_meta")).fetchall())
            counts = dict(con.execute(sql.query("table_counts")).fetchall())
        wal = Path(f"{self.path}.wal")
        return {"path": str(self.path), "file_bytes": self.path.stat().st_size,
                "wal_bytes": wal.stat().st_size if wal.exists() else 0,
                "schema_version": int(meta.get("schema_version", 0)),
                "library_version": meta.get("library_version", VERSION),
                "embedding_model": meta.get("embedding_model", ""), "embedding_dim": int(meta.get("embedding_dim", 0)),
                "counts": counts}

    def signature(self) -> tuple:
        """Size, mtime and inode of the file and its WAL: changes whenever a commit lands."""
        parts = []
        for candidate in (self.path, Path(str(self.path) + ".wal")):
            try:
                stat = candidate.stat()
                parts.append((stat.st_size, stat.st_mtime_ns, stat.st_ino))
            except FileNotFoundError:
                parts.append(None)
        return tuple(parts)

    # -- schema ------------------------------------------------------------

    def _prepare(self, embedding_model: str, embedding_dim: int) -> dict[str, str]:
        """Apply pending migrations, refresh views, record meta; returns the meta. A new file is made in one
        transaction (every migration, the views and the meta: all or nothing): a new file's open took ~96 ms
        instead of ~153 ms with a commit for each of 16 migrations (measured, 2-core machine). An existing
        file's pending migrations land one transaction each, every one with its ledger row."""
        with self._writer() as con:
            con.begin()
            try:
                con.execute(sql.query("create_ledger"))
                applied = {version for (version,) in con.execute(sql.query("applied_migrations")).fetchall()}
                new_file = not applied
                if not new_file:
                    con.commit()
                pending = [m for m in sql.migrations() if m[0] not in applied]
                for version, name, text in pending:
                    _apply_migration(con, version, name, text, own_transaction=not new_file)
                meta = dict(con.execute(sql.query("get_meta")).fetchall())
                if not (pending or meta.get("library_version") != VERSION):
                    return meta
                if not new_file:
                    con.begin()
                con.execute((sql.sql_dir() / "views.sql").read_text(encoding="utf-8"))
                settings = {
                    "schema_version": str(max(version for version, _, _ in sql.migrations())),
                    "library_version": VERSION,
                }
                if "embedding_model" not in meta:
                    settings |= {"embedding_model": embedding_model, "embedding_dim": str(embedding_dim)}
                for key, value in settings.items():
                    set_meta(con, key, value)
                con.commit()
                return meta | settings
            except BaseException:
                with suppress(duckdb.TransactionException):  # none open: a migration rolled its own back
                    con.rollback()
                raise

    def _up_to_date_meta(self) -> dict[str, str] | None:
        """The meta table, or None when a migration is pending or another library version wrote the views."""
        with self.read() as con:
            return _meta_if_current(con)

    def _checked_meta(self, con: duckdb.DuckDBPyConnection) -> dict[str, str]:
        """The meta table of a file opened read-only, which cannot upgrade it."""
        meta = _meta_if_current(con)
        if meta is None:
            raise LearnmemError(f"{self.path} was written by an older learnmem: open it read-write once to upgrade it")
        return meta

    def check_model(self, embedding_model: str, embedding_dim: int) -> None:
        """Refuse to mix vectors of two models in one file."""
        stored = self.meta.get("embedding_model")
        if stored is not None and (stored, self.meta.get("embedding_dim")) != (embedding_model, str(embedding_dim)):
            raise ModelMismatchError(
                f"embedding model: {self.path} was embedded with {stored!r} "
                f"({self.meta.get('embedding_dim')}-d), but {embedding_model!r} ({embedding_dim}-d) is configured; "
                f"open it with the model {stored!r}, or run `learnmem reembed` to re-embed it"
            )


def set_meta(con: duckdb.DuckDBPyConnection, key: str, value: str) -> None:
    """Set one meta key, inside the caller's transaction (a delete and an insert: a lake's meta has no key)."""
    con.execute(sql.query("delete_meta"), {"key": key})
    con.execute(sql.query("insert_meta"), {"key": key, "value": value})


def project_at(store: Any, root: Path) -> str:
    """The project `root` was indexed as before, code (meta `code_root:*`) or git history (`git_repos`), else
    the folder's name: what index_codebase and index_commits take when no project is named."""
    with store.read() as con:
        known = con.execute(sql.query("project_at_root"), {"root": str(root)}).fetchone()
    return known[0] if known else root.name


def new_instance() -> duckdb.DuckDBPyConnection:
    """A new in-memory DuckDB configured as every instance here is (no extension installs from the network):
    what a lake is attached to (learnmem.storage.lake_store)."""
    return duckdb.connect(":memory:", config=_CONFIG)


def _meta_if_current(con: duckdb.DuckDBPyConnection) -> dict[str, str] | None:
    """The meta table, or None when a migration is pending or another library version wrote the views."""
    try:
        applied = [version for (version,) in con.execute(sql.query("applied_migrations")).fetchall()]
        meta = dict(con.execute(sql.query("get_meta")).fetchall())
    except duckdb.CatalogException:  # a new, empty file
        return None
    if applied != [version for version, _, _ in sql.migrations()] or meta.get("library_version") != VERSION:
        return None
    return meta


def migrated_template() -> duckdb.DuckDBPyConnection:
    """A new in-memory DuckDB holding the schema every migration and the views make, and no rows: what a
    lake's tables are derived from (learnmem.storage.lake)."""
    template = duckdb.connect(":memory:", config=_CONFIG)
    template.execute(sql.query("create_ledger"))
    for version, name, text in sql.migrations():
        _apply_migration(template, version, name, text)
    template.execute((sql.sql_dir() / "views.sql").read_text(encoding="utf-8"))
    return template


def _apply_migration(con: duckdb.DuckDBPyConnection, version: int, name: str, text: str,
                     own_transaction: bool = True) -> None:
    """One migration and its ledger row, landing together or not at all: in a transaction of their own, or in
    the caller's (which the caller rolls back when this raises)."""
    if own_transaction:
        con.begin()
    try:
        con.execute(text)
        con.execute(sql.query("record_migration"), {"version": version, "name": name, "applied_at": utc_now()})
        if own_transaction:
            con.commit()
    except Exception as error:
        if own_transaction:
            con.rollback()
        raise LearnmemError(f"migration {version:03d}_{name} failed and was rolled back: {error}") from error
