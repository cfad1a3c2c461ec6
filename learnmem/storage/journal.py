"""Rows acknowledged before they reach the file: an append-only journal beside it, `<file>.pending`.

A store that attaches the file, writes and detaches it (DuckDB checkpoints at every detach) costs 25-35 ms
however little it writes, and no process may hold the file between operations (docs/design.md). A single
memory is instead appended here, fsynced, and acknowledged; the process folds the journal into the file
moments later, and anyone who opens the file read-write folds what a killed process left. Every operation
of the Store that touches the file folds it first, so a read never misses an acknowledged row.

Each record is one Arrow IPC stream (the rows, schema included) behind its length and CRC-32: a record cut
short by a crash was never acknowledged (its fsync had not returned), and reading stops there. Writers hold
`<file>.lock` (Store's writer lock) around an append and around a fold, so the two never interleave.

A fold (`fold_into`, which Store.settle runs) renames the journal to `<file>.folding` before it writes the rows,
and deletes it once they are committed: rows appended meanwhile start a new journal, and a fold killed half-way
leaves `.folding` for the next, which writes only the rows whose text the file does not hold yet. Any handle
folds, a read-only one included: what it writes was acknowledged already.
"""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from learnmem.storage import sql
from learnmem.storage.memory_rows import insert_rows

if TYPE_CHECKING:  # pyarrow costs ~170 ms to import: Store imports this module, and the hook paths must not pay it
    import pyarrow as pa

_HEADER = struct.Struct("<II")  # payload length, CRC-32 of the payload


class Journal:
    """The pending rows of one learnmem file (`<file>.pending`, and `<file>.folding` during a fold)."""

    def __init__(self, database: Path):
        self.path = Path(f"{database}.pending")
        self.folding = Path(f"{database}.folding")

    def state(self) -> tuple | None:
        """(inode, size) of the journal, None when there is none: changes with every append and fold."""
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            return None
        return (stat.st_ino, stat.st_size)

    def holds_rows(self) -> bool:
        """Whether anything waits to be folded (a journal, or a fold's leftover)."""
        return self.path.exists() or self.folding.exists()

    def append(self, rows: pa.Table) -> tuple:
        """Write `rows` as one record and fsync it (the caller holds the writer lock); the new state()."""
        import pyarrow as pa

        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, rows.schema) as writer:
            writer.write_table(rows)
        payload = sink.getvalue().to_pybytes()
        created = not self.path.exists()
        descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(descriptor, _HEADER.pack(len(payload), zlib.crc32(payload)) + payload)
            os.fsync(descriptor)
            stat = os.fstat(descriptor)
        finally:
            os.close(descriptor)
        if created:
            _sync_directory(self.path.parent)
        return (stat.st_ino, stat.st_size)

    def claim(self) -> pa.Table | None:
        """The rows to fold, oldest first (the caller holds the writer lock): a fold's leftover if there is
        one, else the journal, renamed to `.folding` so that appends go to a new one. None: nothing waits."""
        for leftover in (True, False):
            if not leftover:
                if not self.path.exists():
                    return None
                os.replace(self.path, self.folding)
                _sync_directory(self.path.parent)
            elif not self.folding.exists():
                continue
            tables = list(_records(self.folding.read_bytes()))
            if tables:
                import pyarrow as pa

                return pa.concat_tables(tables, promote_options="default")
            self.release()  # nothing whole in it: a torn first record, never acknowledged
        return None

    def release(self) -> None:
        """The claimed rows are committed to the file: forget them."""
        self.folding.unlink(missing_ok=True)
        _sync_directory(self.path.parent)


def fold_into(con, journal: Journal) -> tuple[dict[str, int], tuple] | None:
    """Write the journal's claimed rows into the file on `con`, inside the caller's transaction, each text once
    (a fold killed after its commit left them claimed); ({id: seq} of the rows written, memory_stats after), or
    None when nothing waited. The caller releases the journal once the transaction is committed."""
    rows = journal.claim()
    if rows is None:
        return None
    hashes = rows.column("content_hash").to_pylist()
    known = {digest for digest, _, _ in con.execute(sql.query("memory_ids_by_hash"), {"hashes": hashes}).fetchall()}
    first: dict[str, int] = {}  # a text appended twice (by a process whose snapshot could not see the other) lands once
    for row, digest in enumerate(hashes):
        if digest not in known:
            first.setdefault(digest, row)
    if len(first) < len(hashes):
        import pyarrow as pa

        rows = rows.take(pa.array(sorted(first.values()), pa.int64()))
    seqs = dict(insert_rows(con, rows, numbered=True)) if rows.num_rows else {}
    return seqs, con.execute(sql.query("memory_stats")).fetchone()


def _records(data: bytes):
    """Each whole record's table; a torn or corrupt tail ends the journal."""
    import pyarrow as pa

    offset = 0
    while offset + _HEADER.size <= len(data):
        length, checksum = _HEADER.unpack_from(data, offset)
        payload = data[offset + _HEADER.size : offset + _HEADER.size + length]
        if len(payload) < length or zlib.crc32(payload) != checksum:
            return
        yield pa.ipc.open_stream(payload).read_all()
        offset += _HEADER.size + length


def _sync_directory(folder: Path) -> None:
    """Make a created, renamed or deleted name durable."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
