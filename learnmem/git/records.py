"""The frozen dataclasses the git layer returns. Times are ISO 8601 strings in UTC ending in `Z`."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CommitIndexResult:
    """What `index_commits` did."""

    project: str
    root: str
    head: str | None
    commits_total: int
    commits_added: int
    commits_removed: int
    commits_embedded: int
    shallow: bool
    seconds: float
    warnings: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class CommitHit:
    """A commit found by `search_commits`, with its fused relevance score (higher is better)."""

    score: float
    project: str
    sha: str
    subject: str
    message: str
    author: str
    author_email: str
    authored_at: str
    committed_at: str
    insertions: int
    deletions: int
    files_changed: int
    is_merge: bool
    paths: tuple[str, ...]


@dataclass(frozen=True)
class FileHistoryEntry:
    """One commit that changed a file: the path it had then, and how it changed."""

    sha: str
    path: str
    old_path: str | None
    change_type: str
    insertions: int
    deletions: int
    is_binary: bool
    author: str
    author_email: str
    authored_at: str
    committed_at: str
    subject: str


@dataclass(frozen=True)
class Hotspot:
    """A file that changed often (and much) in a window of time."""

    path: str
    commits: int
    insertions: int
    deletions: int
    authors: int
    last_change: str


@dataclass(frozen=True)
class CodeAuthor:
    """One author's part in a file: commits, lines changed, and the share of today's lines they wrote."""

    author: str
    author_email: str
    commits: int
    insertions: int
    deletions: int
    first_change: str | None
    last_change: str | None
    lines_owned: int
    share: float


@dataclass(frozen=True)
class BlameEntry:
    """Consecutive lines last changed by one commit."""

    start_line: int
    end_line: int
    sha: str
    author: str
    author_email: str
    authored_at: str
    summary: str
    original_path: str
    original_start_line: int
    boundary: bool


@dataclass(frozen=True)
class UnitChange:
    """A commit that changed a code unit's lines: where the unit was then, and why (the message)."""

    sha: str
    path: str
    start_line: int
    end_line: int
    author: str
    author_email: str
    authored_at: str
    subject: str
