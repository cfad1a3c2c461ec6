"""Where a hook works: the learnmem file of the agent's project, and the small files the hooks keep beside it
(the tool counter, the prepared check-in, pending failures, the last capture flush's line).

Standard library only: every hook process imports it first.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from learnmem.storage.paths import names_lake, project_root

TYPE_CHECKING = False  # typing itself costs a hook ~8 ms
if TYPE_CHECKING:
    from typing import Any


class HookPaths:
    """The learnmem file a hook works on, and the files the hooks keep beside it. On a lake (`lake`: its name),
    `db` is `<project root>/.learnmem/lake`, a file that does not exist, beside which the small files are kept.
    (A plain class, not a dataclass: `dataclasses` costs a hook process ~10 ms to import.)"""

    __slots__ = ("db", "lake")

    def __init__(self, db: Path, lake: str | None = None):
        object.__setattr__(self, "db", db)
        object.__setattr__(self, "lake", lake)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"HookPaths is immutable: cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HookPaths) and (self.db, self.lake) == (other.db, other.lake)

    def __hash__(self) -> int:
        return hash((self.db, self.lake))

    def __repr__(self) -> str:
        return f"HookPaths(db={self.db!r}, lake={self.lake!r})"

    @property
    def target(self) -> str:
        """What learnmem.open takes: the lake's name, else the file's path."""
        return self.lake if self.lake is not None else str(self.db)

    @property
    def set_up(self) -> bool:
        """Whether learnmem is set up here: a lake is named, or the file exists."""
        return self.lake is not None or self.db.is_file()

    @property
    def folder(self) -> Path:
        return self.db.parent

    @property
    def log(self) -> Path:
        return self.folder / "hooks.log"

    @property
    def counter(self) -> Path:
        return Path(f"{self.db}.tool-calls")

    @property
    def prepared(self) -> Path:
        """The check-in the next PreToolUse shows, written by the PostToolUse before it (see pre_tool_use)."""
        return Path(f"{self.db}.check-in")

    @property
    def pending_failures(self) -> Path:
        """Failed commands waiting for a fix (learnmem.agents.capture.tool_output.PendingFailures)."""
        return Path(f"{self.db}.capture")

    @property
    def queued(self) -> Path:
        """Present while captures may wait in the queue: the Stop hook opens the file only then."""
        return Path(f"{self.db}.queued")

    @property
    def flushed(self) -> Path:
        """The line a flush of the capture queue left for the agent's next prompt or session."""
        return Path(f"{self.db}.captured")


def locate(db: str | None, payload: Mapping[str, Any], environ: Mapping[str, str], cwd: str | None = None) -> HookPaths:
    """`db`, else $LEARNMEM_DB, else the first of the payload's cwd, $CLAUDE_PROJECT_DIR and the hook process's
    directory (`cwd`, default this process's) whose project root holds `.learnmem/learnmem.duckdb` (the first
    candidate when none does). A lake (`db` or $LEARNMEM_DB) keeps the hooks' small files in the project's
    `.learnmem/`."""
    cwd = cwd or os.getcwd()
    named = db or environ.get("LEARNMEM_DB")
    if names_lake(named):
        folder = next((f for f in (payload.get("cwd"), environ.get("CLAUDE_PROJECT_DIR"))
                       if isinstance(f, str) and f and Path(f).is_dir()), cwd)
        return HookPaths(project_root(Path(folder)) / ".learnmem" / "lake", lake=named)
    if db:
        return HookPaths(Path(db).expanduser().absolute())
    if environ.get("LEARNMEM_DB"):
        return HookPaths(Path(environ["LEARNMEM_DB"]).expanduser().absolute())
    first = None
    for folder in (payload.get("cwd"), environ.get("CLAUDE_PROJECT_DIR"), cwd):
        if not isinstance(folder, str) or not folder or not Path(folder).is_dir():
            continue
        candidate = project_root(Path(folder)) / ".learnmem" / "learnmem.duckdb"
        if candidate.is_file():
            return HookPaths(candidate)
        first = first or candidate
    return HookPaths(first or Path.cwd() / ".learnmem" / "learnmem.duckdb")
