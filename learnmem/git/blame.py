"""`git blame` in pure Python: for each line of a file at a commit, the commit that last changed it.

Why a port: learnmem reads git with dulwich (no git binary at run time), and an
agent asking "who wrote this line, and when" must get the answer `git blame`
prints, not an approximation.  This follows git 2.39's blame.c with
`git blame`'s defaults:

- The lines to explain start as one "blame entry" suspected on the final
  commit.  Suspects are processed newest first by committer date (git's
  priority queue; equal dates in the order they were queued).
- pass_blame: for each parent in order, find the file there (`find_origin`:
  same path; then `find_rename`: git's rename detection, 50 % similarity,
  with the file as the only destination).  If a parent has the identical blob
  the whole blame passes to it.  Otherwise the diff parent -> suspect (git's
  xdiff with the indent heuristic, `diff -U0` hunks) passes every unchanged
  line to that parent; what no parent takes is the suspect's own.  Merges
  therefore hand lines to their parents in parent order, and a parent whose
  blob equals an earlier parent's is skipped.
- No -M/-C (moves and copies inside or across files are not searched), no
  ignore-revs, no textconv, no mailmap (that is the caller's business).
- Root commits, and commits whose parents a shallow clone lacks, are
  boundaries: everything still suspected on them is theirs.

Binary files are blamed as git blames them: split at newlines like any text
(git does not refuse them).  The result lists consecutive lines of the final
file with the same commit, path and consecutive original lines as one range,
as git's porcelain output groups them.

`RepoReader` (commits with shallow grafts, tree lookups, blob lines, cached)
is shared with `line_log`.
"""

from __future__ import annotations

import heapq
import stat
from dataclasses import dataclass
from itertools import count

from dulwich.diff_tree import CHANGE_ADD, CHANGE_DELETE, tree_changes
from dulwich.objects import Commit, TreeEntry
from dulwich.objectspec import parse_commit
from dulwich.repo import BaseRepo

from learnmem.errors import NotFoundError, ValidationError
from learnmem.git.changes import Blobs, find_renames
from learnmem.git.repository import decode_path, shallow_commits
from learnmem.git.linediff import Hunk, diff_hunks, split_lines

__all__ = ["BlameRange", "RepoReader", "blame_file", "check_line_range"]

GITLINK = 0o160000
_LINES_CACHE = 64  # blobs whose lines are kept: each is read as a suspect, then as a parent
_HUNKS_CACHE = 64
_ENTRY_CACHE = 200_000


@dataclass(frozen=True)
class BlameRange:
    """Consecutive lines of the file at `rev` that one commit last changed."""

    start_line: int  # 1-based, in the file at `rev`, inclusive
    end_line: int  # inclusive
    sha: str  # the commit the lines are blamed on (hex)
    original_path: str  # the file's path in that commit
    original_start_line: int  # 1-based line of start_line in that commit's version
    boundary: bool  # a root commit or a shallow-clone boundary: the lines may be older


class RepoReader:
    """Read-once access to what blame and line history need: commits, tree entries, blob lines."""

    def __init__(self, repo: BaseRepo):
        self.repo = repo
        self.store = repo.object_store
        self.shallow = shallow_commits(repo)
        self.blobs = Blobs(self.store)
        self._commits: dict[bytes, tuple[tuple[bytes, ...], int, bytes]] = {}
        self._entries: dict[tuple[bytes, bytes], tuple[int, bytes] | None] = {}
        self._lines: dict[bytes, list[bytes]] = {}
        self._hunks: dict[tuple[bytes, bytes], list[Hunk]] = {}

    def resolve(self, rev: bytes | str) -> bytes:
        """The commit (hex) that `rev` names: a sha (full or abbreviated), a ref, a branch, a tag."""
        try:
            return parse_commit(self.repo, rev).id
        except (KeyError, ValueError):
            raise NotFoundError(f"rev: {_show(rev)!r} is not a commit, branch or tag of this repository") from None

    def _read(self, sha: bytes) -> tuple[tuple[bytes, ...], int, bytes]:
        found = self._commits.get(sha)
        if found is None:
            commit = self.store[sha]
            if not isinstance(commit, Commit):
                raise NotFoundError(f"{sha.decode('ascii')} is not a commit")
            if sha in self.shallow:
                parents: tuple[bytes, ...] = ()  # git grafts a shallow boundary to no parents
            else:
                # A parent missing from the object store (a broken or partial clone) ends history here too.
                parents = tuple(p for p in commit.parents if p in self.store)
            found = self._commits[sha] = (parents, commit.commit_time, commit.tree)
        return found

    def parents(self, sha: bytes) -> tuple[bytes, ...]:
        """The parents git walks to: none for a root or a shallow boundary."""
        return self._read(sha)[0]

    def commit_time(self, sha: bytes) -> int:
        return self._read(sha)[1]

    def tree(self, sha: bytes) -> bytes:
        return self._read(sha)[2]

    def entry(self, commit: bytes, path: bytes) -> tuple[int, bytes] | None:
        """(mode, sha) of `path` in `commit`'s tree, None if absent."""
        return self.tree_entry(self.tree(commit), path)

    def tree_entry(self, tree: bytes, path: bytes) -> tuple[int, bytes] | None:
        """(mode, sha) of `path` under `tree`; subtrees are shared between commits, so lookups are cached."""
        key = (tree, path)
        if key in self._entries:
            return self._entries[key]
        name, _, rest = path.partition(b"/")
        result: tuple[int, bytes] | None
        try:
            mode, sha = self.store[tree][name]
        except KeyError:
            result = None
        else:
            if not rest:
                result = (mode, sha)
            elif stat.S_ISDIR(mode):
                result = self.tree_entry(sha, rest)
            else:
                result = None
        if len(self._entries) >= _ENTRY_CACHE:
            self._entries.clear()
        self._entries[key] = result
        return result

    def lines(self, blob: bytes, mode: int | None = None) -> list[bytes]:
        """The blob's lines as git splits them (each keeps its b"\\n"); a submodule reads as git shows it."""
        if mode == GITLINK:
            return [b"Subproject commit " + blob + b"\n"]
        found = self._lines.get(blob)
        if found is None:
            found = split_lines(self.store[blob].as_raw_string())
            if len(self._lines) >= _LINES_CACHE:
                self._lines.pop(next(iter(self._lines)))
            self._lines[blob] = found
        return found

    def hunks(self, old_blob: bytes, new_blob: bytes) -> list[Hunk]:
        """git's `diff -U0` hunks from one blob to another, computed once per pair."""
        key = (old_blob, new_blob)
        found = self._hunks.get(key)
        if found is None:
            found = diff_hunks(self.lines(old_blob), self.lines(new_blob))
            if len(self._hunks) >= _HUNKS_CACHE:
                self._hunks.pop(next(iter(self._hunks)))
            self._hunks[key] = found
        return found

    def renamed_from(self, parent: bytes, commit: bytes, paths: list[bytes]) -> dict[bytes, TreeEntry]:
        """For each of `paths` created by `commit` against `parent`: the file git's rename detection pairs it with.

        As git does for blame's find_rename and log -L's queue_diffs: the sources are
        every file the commit deletes; the destinations only the paths followed.
        """
        deleted, added = [], []
        wanted = set(paths)
        for change in tree_changes(self.store, self.tree(parent), self.tree(commit), change_type_same=True):
            if change.type == CHANGE_DELETE:
                deleted.append(change.old)
            elif change.type == CHANGE_ADD and change.new.path in wanted:
                added.append(change.new)
        if not deleted or not added:
            return {}
        return find_renames(deleted, added, self.blobs)

    def file_blob(self, commit: bytes, path: bytes, rev: bytes | str) -> tuple[int, bytes]:
        """(mode, blob) of the file `path` at `commit`; NotFoundError if it is not a file there."""
        found = self.entry(commit, path)
        if found is None or stat.S_ISDIR(found[0]) or found[0] == GITLINK:
            what = "a directory" if found is not None and stat.S_ISDIR(found[0]) else (
                "a submodule" if found is not None else "absent")
            raise NotFoundError(f"path: {decode_path(path)!r} is not a file at rev {_show(rev)!r} ({what})")
        return found


def _show(rev: bytes | str) -> str:
    return rev.decode("utf-8", "backslashreplace") if isinstance(rev, bytes) else str(rev)


def check_line_range(path: bytes, line_count: int, start_line: int | None, end_line: int | None) -> tuple[int, int]:
    """The 1-based inclusive lines to look at; ValidationError for a range git would refuse.

    None means "from the first line" / "to the last line".  As git's -L does, an
    end past the last line stops at the last line; a start past it is an error.
    """
    for name, value in (("start_line", start_line), ("end_line", end_line)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValidationError(f"{name}: expected an integer or None, got {value!r}")
        if value is not None and value < 1:
            raise ValidationError(
                f"{name}: {value} is out of range; lines are numbered from 1 "
                f"({decode_path(path)!r} has {line_count} lines)")
    start = 1 if start_line is None else start_line
    end = line_count if end_line is None else end_line
    if start_line is not None and end_line is not None and end_line < start_line:
        raise ValidationError(
            f"end_line: {end_line} is before start_line {start_line} ({decode_path(path)!r} has {line_count} lines)")
    if (start_line is not None or end_line is not None) and start > line_count:
        raise ValidationError(
            f"start_line: {start} is out of range; {decode_path(path)!r} has only {line_count} lines")
    return start, min(end, line_count)


# -- the scoreboard -----------------------------------------------------------------


class _Origin:
    """A file in a commit (git's blame_origin) and the lines still suspected on it."""

    __slots__ = ("blob", "commit", "mode", "path", "suspects")

    def __init__(self, commit: bytes, path: bytes, mode: int, blob: bytes):
        self.commit = commit
        self.path = path
        self.mode = mode
        self.blob = blob
        # (line in this origin, line in the final file, number of lines), sorted by the first.
        self.suspects: list[tuple[int, int, int]] = []


class _Scoreboard:
    def __init__(self, reader: RepoReader):
        self.reader = reader
        self.origins: dict[bytes, dict[bytes, _Origin]] = {}
        self.queue: list[tuple[int, int, bytes]] = []
        self.order = count()
        self.guilty: list[tuple[int, int, int, _Origin]] = []  # (final line, lines, origin line, origin)

    def origin(self, commit: bytes, path: bytes, mode: int, blob: bytes) -> _Origin:
        by_path = self.origins.setdefault(commit, {})
        found = by_path.get(path)
        if found is None:
            found = by_path[path] = _Origin(commit, path, mode, blob)
        return found

    def queue_blames(self, origin: _Origin, entries: list[tuple[int, int, int]]) -> None:
        """Add suspects to an origin; a commit enters the queue when it gets its first suspects."""
        if not entries:
            return
        if origin.suspects:
            origin.suspects = sorted(origin.suspects + entries)
            return
        waiting = any(other.suspects for other in self.origins[origin.commit].values())
        origin.suspects = sorted(entries)
        if not waiting:
            # Newest committer date first; ties in queueing order (git's prio_queue is stable).
            heapq.heappush(self.queue, (-self.reader.commit_time(origin.commit), next(self.order), origin.commit))

    def assign(self) -> None:
        while self.queue:
            _, _, commit = heapq.heappop(self.queue)
            for origin in list(self.origins[commit].values()):
                if origin.suspects:
                    self.pass_blame(origin)

    def pass_blame(self, origin: _Origin) -> None:
        parents = self.reader.parents(origin.commit)
        scapegoats: list[_Origin | None] = [None] * len(parents)
        # First the same path in each parent (the common case), then renames.
        for find in (self.find_origin, self.find_rename):
            for i, parent in enumerate(parents):
                if scapegoats[i] is not None:
                    continue
                porigin = find(parent, origin)
                if porigin is None:
                    continue
                if porigin.blob == origin.blob:
                    self.pass_whole_blame(origin, porigin)
                    return
                # A parent with the same blob as an earlier one would only get what that one refused.
                if not any(s is not None and s.blob == porigin.blob for s in scapegoats[:i]):
                    scapegoats[i] = porigin
        for porigin in scapegoats:
            if porigin is None:
                continue
            self.pass_to_parent(origin, porigin)
            if not origin.suspects:
                return
        # What no parent took was introduced here.
        for s_lno, lno, num in origin.suspects:
            self.guilty.append((lno, num, s_lno, origin))
        origin.suspects = []

    def find_origin(self, parent: bytes, origin: _Origin) -> _Origin | None:
        """The same path in `parent` if it is a file of the same type there (git: diff status M or none)."""
        known = self.origins.get(parent, {}).get(origin.path)
        if known is not None:
            return known
        found = self.reader.entry(parent, origin.path)
        if found is None:
            return None
        mode, blob = found
        if stat.S_IFMT(mode) != stat.S_IFMT(origin.mode):
            return None  # absent as a file (a directory), or a type change: git stops here
        return self.origin(parent, origin.path, mode, blob)

    def find_rename(self, parent: bytes, origin: _Origin) -> _Origin | None:
        """The file `origin` was renamed from, if the commit created its path and git pairs it with a deleted file."""
        found = self.reader.entry(parent, origin.path)
        if found is not None and not stat.S_ISDIR(found[0]):
            return None  # the path exists in the parent: a modification or type change, never a rename
        source = self.reader.renamed_from(parent, origin.commit, [origin.path]).get(origin.path)
        if source is None:
            return None
        return self.origin(parent, source.path, source.mode, source.sha)

    def pass_whole_blame(self, origin: _Origin, porigin: _Origin) -> None:
        entries, origin.suspects = origin.suspects, []
        self.queue_blames(porigin, entries)

    def pass_to_parent(self, origin: _Origin, porigin: _Origin) -> None:
        hunks = self.reader.hunks(porigin.blob, origin.blob)
        to_parent, kept = split_by_hunks(origin.suspects, hunks)
        origin.suspects = kept
        self.queue_blames(porigin, to_parent)


def split_by_hunks(
    entries: list[tuple[int, int, int]], hunks: list[Hunk]
) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """git's blame_chunk over all hunks: lines outside the diff's new side go to the parent, renumbered.

    `entries` are (line in the suspect, final line, count); returns (entries for the
    parent, in the parent's numbering; entries the suspect keeps).
    """
    starts = [h.new_start for h in hunks]
    ends = [h.new_start + h.new_count for h in hunks]
    # offsets[k]: parent line - suspect line for unchanged lines between hunk k-1 and hunk k.
    offsets = [0]
    for h in hunks:
        offsets.append(h.old_start + h.old_count - (h.new_start + h.new_count))
    n_hunks = len(hunks)
    to_parent: list[tuple[int, int, int]] = []
    kept: list[tuple[int, int, int]] = []
    give, keep = to_parent.append, kept.append
    first = 0  # entries come sorted by start, so the first hunk that matters only moves forward
    for s_lno, lno, num in entries:
        end = s_lno + num
        while first < n_hunks and ends[first] <= s_lno:
            first += 1  # hunks ending at or before the entry (pure deletions too) are behind it
        if first == n_hunks or end <= starts[first]:
            give((s_lno + offsets[first], lno, num))  # the common case: between two hunks, moved as a whole
            continue
        pos, k = s_lno, first
        while pos < end:
            if k < n_hunks and starts[k] <= pos:
                stop = end if end < ends[k] else ends[k]
                keep((pos, lno + pos - s_lno, stop - pos))
                k += 1
            else:
                stop = end if k == n_hunks or end < starts[k] else starts[k]
                give((pos + offsets[k], lno + pos - s_lno, stop - pos))
            pos = stop
            while k < n_hunks and ends[k] <= pos:
                k += 1
    return to_parent, kept


# -- entry point ------------------------------------------------------------------------------


def blame_file(
    repo: BaseRepo, path: bytes, rev: bytes, start_line: int | None = None, end_line: int | None = None
) -> list[BlameRange]:
    """What `git blame <rev> -- <path>` (with `-L start,end` if given) says, as ranges of lines.

    `rev` is a commit sha (full or abbreviated), a branch, a tag or HEAD.  Lines
    are 1-based and inclusive; None for `start_line`/`end_line` means the first/last
    line.  An empty file has no ranges.  NotFoundError if `rev` is not a commit or
    `path` not a file there; ValidationError for a line range outside the file.
    """
    if not isinstance(path, bytes):
        raise ValidationError(f"path: expected bytes, got {type(path).__name__}")
    reader = RepoReader(repo)
    final = reader.resolve(rev)
    mode, blob = reader.file_blob(final, path, rev)
    line_count = len(reader.lines(blob))
    first, last = check_line_range(path, line_count, start_line, end_line)
    if line_count == 0:
        return []

    board = _Scoreboard(reader)
    origin = board.origin(final, path, mode, blob)
    board.queue_blames(origin, [(first - 1, first - 1, last - first + 1)])
    board.assign()
    return _ranges(board.guilty, reader)


def _ranges(guilty: list[tuple[int, int, int, _Origin]], reader: RepoReader) -> list[BlameRange]:
    """Sorted by final line, neighbours from one origin with consecutive lines merged (git's blame_coalesce)."""
    guilty.sort(key=lambda item: item[0])
    merged: list[list] = []
    for lno, num, s_lno, origin in guilty:
        if merged:
            last = merged[-1]
            if last[3] is origin and last[2] + last[1] == s_lno and last[0] + last[1] == lno:
                last[1] += num
                continue
        merged.append([lno, num, s_lno, origin])
    return [
        BlameRange(
            start_line=lno + 1, end_line=lno + num, sha=origin.commit.decode("ascii"),
            original_path=decode_path(origin.path), original_start_line=s_lno + 1,
            boundary=not reader.parents(origin.commit),
        )
        for lno, num, s_lno, origin in merged
    ]
