"""The PreToolUse hook's tool counter: a few bytes in a file beside the database, under an exclusive lock.

PreToolUse runs before every tool call, and `import duckdb` alone costs 80-140 ms, so the calls are
counted in `<file>.tool-calls` (one integer) and handed to `sessions.tool_count` only when a check-in is
due (see learnmem.agents.hooks). The check-in the next PreToolUse prints waits in `<file>.check-in`. `paths` is a
learnmem.agents.hooks.HookPaths (its `counter` and `prepared` files). Standard library only.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def _exclusive(fd: int):
    """Hold an exclusive lock on an open file (fcntl; msvcrt on Windows) while the block runs."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
        try:
            yield
        finally:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)


class LockedText:
    """The text of a small file held under an exclusive lock (locked_file)."""

    def __init__(self, fd: int):
        self.fd = fd

    def read(self, limit: int = 1 << 20) -> str:
        """At most `limit` bytes of it, decoded."""
        os.lseek(self.fd, 0, os.SEEK_SET)
        chunks, left = [], limit
        while left > 0 and (chunk := os.read(self.fd, min(left, 65536))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks).decode("utf-8", errors="replace")

    def write(self, text: str) -> None:
        data = text.encode("utf-8")
        os.lseek(self.fd, 0, os.SEEK_SET)
        os.write(self.fd, data)
        os.ftruncate(self.fd, len(data))


@contextmanager
def locked_file(path: Path):
    """A small file beside the database (created if missing), read and rewritten under an exclusive lock."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        with _exclusive(fd):
            yield LockedText(fd)
    finally:
        os.close(fd)


def update_counter(path: Path, change: Callable[[int], int]) -> int:
    """Apply `change` to the pending count under the lock; returns the count before the change."""
    with locked_file(path) as handle:
        try:
            count = max(int(handle.read(64).split()[0]), 0)
        except (ValueError, IndexError):  # empty (new) or damaged: count from zero
            count = 0
        handle.write(f"{change(count)}\n")
    return count


def count_tool_call(paths, every: int) -> int:
    """Count one tool call; returns the pending calls to hand to the database (the file drops to 0) once
    they reach `every`, else 0."""
    before = update_counter(paths.counter, lambda count: 0 if count + 1 >= every else count + 1)
    return before + 1 if before + 1 >= every else 0


def pending_tool_calls(paths) -> int:
    """The calls counted in the file and not yet handed to the database."""
    try:
        return max(int(paths.counter.read_text(encoding="ascii").split()[0]), 0)
    except (OSError, ValueError, IndexError):
        return 0


def reset_counter(paths) -> None:
    """Drop the pending calls and any prepared check-in (a new session, an end, or the agent's own GHAP call)."""
    paths.prepared.unlink(missing_ok=True)
    if paths.counter.exists():
        update_counter(paths.counter, lambda count: 0)


def take_prepared(paths) -> str | None:
    """The prepared check-in, removed as it is read (two hooks at once: one gets it)."""
    taken = paths.prepared.with_name(paths.prepared.name + f".{os.getpid()}.taken")
    try:
        os.replace(paths.prepared, taken)
    except FileNotFoundError:
        return None
    try:
        return taken.read_text(encoding="utf-8")
    finally:
        taken.unlink(missing_ok=True)
