"""The PreToolUse hook's tool counter: a few bytes in a file beside the database, under an exclusive lock.

PreToolUse runs before every tool call, and `import duckdb` alone costs 80-140 ms, so the calls are
counted in `<file>.tool-calls` (one integer) and handed to `sessions.tool_count` only when a check-in is
due (see learnmem.hooks). The check-in the next PreToolUse prints waits in `<file>.check-in`. `paths` is a
learnmem.hooks.HookPaths (its `counter` and `prepared` files). Standard library only.
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


def update_counter(path: Path, change: Callable[[int], int]) -> int:
    """Apply `change` to the pending count under the lock; returns the count before the change."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        with _exclusive(fd):
            os.lseek(fd, 0, os.SEEK_SET)
            raw = os.read(fd, 64)
            try:
                count = max(int(raw.split()[0]), 0)
            except (ValueError, IndexError):  # empty (new) or damaged: count from zero
                count = 0
            data = f"{change(count)}\n".encode()
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, data)
            os.ftruncate(fd, len(data))
        return count
    finally:
        os.close(fd)


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
