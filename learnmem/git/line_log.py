"""`git log -L <start>,<end>:<path> <rev>` in pure Python: the commits that changed a range of lines.

Why a port: "why is this function like this?" is answered by the commits that
touched its lines, and those must be the commits git's line-level log lists.
This follows git 2.39's line-log.c and the walk `git log -L` does:

- Commits are visited in `git log`'s topological order ("graph order": a commit
  only after all its children; after a merge its last parent's line of history
  first), over every ancestor of `rev`.
- Each commit carries, per path, a set of line ranges in its version of the
  file.  Against its parent, the diff is collected (git's xdiff with *no*
  indent heuristic: log -L calls xdiff with flags 0, unlike `git diff` and
  blame) and the ranges are mapped across it (range_set_map_across_diff): the
  hunks that overlap a range are "touched"; their parent side replaces them,
  the rest of the range shifts.  A commit is shown when some hunk touched its
  ranges.  A file the commit creates is followed to a deleted file that git's
  rename detection pairs it with (50 % similarity), as log -L does.
- A merge: if the ranges come through unchanged from some parent (the first
  such in parent order), that parent takes them all and the merge is not
  shown; otherwise every parent gets its mapped ranges and the merge is shown.
- Root commits (and shallow boundaries) show the ranges they create.

Each result is one shown commit with the range git prints a hunk for (its
`+start,count`): the tracked lines in that commit's version, after the change.
Normally one per commit; a commit whose tracked lines had become several
separate ranges (after merges) gives one per range git prints.  git prints no
hunk for a merge it lists (it drops the merge's ranges once they are handed to
the parents); a merge here gets the ranges its last parent's diff touched, by
the same rule git uses for other commits.
"""

from __future__ import annotations

from dataclasses import dataclass

from dulwich.repo import BaseRepo

from learnmem.errors import ValidationError
from learnmem.git import linediff
from learnmem.git.blame import RepoReader, check_line_range
from learnmem.git.repository import decode_path
from learnmem.git.linediff import Hunk

__all__ = ["LineChange", "line_history"]

Range = tuple[int, int]  # [start, end), 0-based


@dataclass(frozen=True)
class LineChange:
    """A commit that changed the tracked lines, and where those lines were in it."""

    sha: str
    path: str  # the file's path in that commit
    start_line: int  # 1-based, the tracked range in that commit's version of the file (after the change)
    end_line: int  # inclusive


def line_history(
    repo: BaseRepo, path: bytes, start_line: int, end_line: int, rev: bytes, limit: int | None = None
) -> list[LineChange]:
    """The commits `git log -L start_line,end_line:path rev` lists, newest first (git's order).

    `limit` caps the number of commits (None: all).  Lines are 1-based and
    inclusive; an end past the file's last line stops there, as with git.
    NotFoundError if `rev` is not a commit or `path` not a file there;
    ValidationError for a range outside the file.
    """
    if not isinstance(path, bytes):
        raise ValidationError(f"path: expected bytes, got {type(path).__name__}")
    for name, value in (("start_line", start_line), ("end_line", end_line)):
        if value is None:
            raise ValidationError(f"{name}: required (a 1-based line number)")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise ValidationError(f"limit: expected a positive integer or None, got {limit!r}")
    reader = RepoReader(repo)
    tip = reader.resolve(rev)
    _, blob = reader.file_blob(tip, path, rev)
    first, last = check_line_range(path, len(reader.lines(blob)), start_line, end_line)

    walk = _LineLog(reader)
    walk.add(tip, {path: [(first - 1, last)]})
    changes: list[LineChange] = []
    shown = 0
    for commit in _graph_order(reader, tip):
        ranges = walk.pending.pop(commit, None)
        if ranges is None:
            continue
        touched = walk.process(commit, ranges)
        if touched is not None:
            changes.extend(_shown_ranges(commit, ranges, touched))
            shown += 1
            if limit is not None and shown >= limit:
                break
        if not walk.pending:
            break  # no commit further back carries any of the lines
    return changes


def _graph_order(reader: RepoReader, tip: bytes) -> list[bytes]:
    """`git log --topo-order` of the ancestors of `tip` (sort_in_topological_order, graph order).

    A commit is ready once all its children are out; ready commits form a stack, and
    a commit's parents are pushed in order, so after a merge its last parent comes first.
    """
    parents_of: dict[bytes, tuple[bytes, ...]] = {}
    stack = [tip]
    while stack:
        commit = stack.pop()
        if commit in parents_of:
            continue
        parents = parents_of[commit] = reader.parents(commit)
        stack.extend(p for p in parents if p not in parents_of)
    indegree = dict.fromkeys(parents_of, 1)
    for parents in parents_of.values():
        for parent in parents:
            indegree[parent] += 1
    order = []
    ready = [tip]
    while ready:
        commit = ready.pop()
        for parent in parents_of[commit]:
            indegree[parent] -= 1
            if indegree[parent] == 1:
                ready.append(parent)
        order.append(commit)
    return order


class _LineLog:
    """The ranges each commit still has to explain (git's line_log_data decorations)."""

    def __init__(self, reader: RepoReader):
        self.reader = reader
        self.pending: dict[bytes, dict[bytes, list[Range]]] = {}

    def add(self, commit: bytes, ranges: dict[bytes, list[Range]]) -> None:
        """add_line_range: union with what the commit already carries, path by path; empty sets dropped."""
        ranges = {path: r for path, r in ranges.items() if r}
        if not ranges:
            return
        mine = self.pending.get(commit)
        if mine is None:
            self.pending[commit] = ranges
            return
        for path, r in ranges.items():
            mine[path] = _union(mine[path], r) if path in mine else r

    def process(self, commit: bytes, ranges: dict[bytes, list[Range]]) -> dict[bytes, list[Range]] | None:
        """Map the commit's ranges to its parents; the touched hunks' new sides per path if it is shown, else None."""
        parents = self.reader.parents(commit)
        if len(parents) <= 1:
            parent = parents[0] if parents else None
            mapped, touched = self._map(commit, parent, ranges)
            if parent is not None:
                self.add(parent, mapped)
            return touched or None
        candidates = []
        shown: dict[bytes, list[Range]] = {}
        for parent in parents:
            mapped, touched = self._map(commit, parent, ranges)
            if not touched:
                # This parent can take all the blame: git follows no other line of history.
                self.add(parent, mapped)
                return None
            candidates.append(mapped)
            shown.update(touched)  # git keeps the last parent's diff for display
        for parent, mapped in zip(parents, candidates):
            self.add(parent, mapped)
        return shown

    def _map(
        self, commit: bytes, parent: bytes | None, ranges: dict[bytes, list[Range]]
    ) -> tuple[dict[bytes, list[Range]], dict[bytes, list[Range]]]:
        """process_all_files: (ranges in the parent by its paths, touched new-side hunks by the commit's paths)."""
        mapped: list[list] = [[path, list(r)] for path, r in sorted(ranges.items())]
        touched_by_path: dict[bytes, list[Range]] = {}
        for old_path, old, new_path, new in self._pairs(commit, parent, sorted(ranges)):
            entry = next((e for e in mapped if e[0] == new_path), None)
            if entry is None or not entry[1]:
                continue
            old_lines = self.reader.lines(old[1], old[0]) if old is not None else []
            hunks = _plain_hunks(old_lines, self.reader.lines(new[1], new[0]))
            entry[0] = old_path
            entry[1], touched_parent, touched_target = _map_across_diff(entry[1], hunks)
            if touched_parent:
                touched_by_path[new_path] = touched_target
        result: dict[bytes, list[Range]] = {}
        for path, r in mapped:
            result[path] = _union(result[path], r) if path in result else r
        return result, touched_by_path

    def _pairs(
        self, commit: bytes, parent: bytes | None, paths: list[bytes]
    ) -> list[tuple[bytes, tuple[int, bytes] | None, bytes, tuple[int, bytes]]]:
        """queue_diffs: (old path, old (mode, blob) or None, new path, new (mode, blob)) per followed path that changed."""
        reader = self.reader
        tree = reader.tree(commit)
        parent_tree = reader.tree(parent) if parent is not None else None
        pairs = []
        created = []
        for path in paths:
            new = reader.tree_entry(tree, path)
            if new is None or _is_dir(new[0]):
                continue  # not in this commit: git drops deletions
            old = reader.tree_entry(parent_tree, path) if parent_tree is not None else None
            if old is None or _is_dir(old[0]):
                created.append(path)
            elif old != new:
                pairs.append((path, old, path, new))
        if created:
            # A created file may be a rename: git diffs the whole tree to find it.
            sources = reader.renamed_from(parent, commit, created) if parent is not None else {}
            for path in created:
                new = reader.tree_entry(tree, path)
                source = sources.get(path)
                if source is None:
                    pairs.append((path, None, path, new))
                else:
                    pairs.append((source.path, (source.mode, source.sha), path, new))
        pairs.sort(key=lambda pair: pair[2])
        return pairs


def _is_dir(mode: int) -> bool:
    return mode & 0o170000 == 0o040000


def _shown_ranges(commit: bytes, ranges: dict[bytes, list[Range]], touched: dict[bytes, list[Range]]) -> list[LineChange]:
    """The ranges git prints a hunk for (dump_diff_hacky_one's test, which is looser than "touched")."""
    sha = commit.decode("ascii")
    out = []
    for path in sorted(ranges):
        targets = touched.get(path)
        if targets is None:
            continue
        j = 0
        for start, end in ranges[path]:
            while j < len(targets) and targets[j][1] < start:
                j += 1
            if j == len(targets) or targets[j][0] > end:
                continue
            out.append(LineChange(sha=sha, path=decode_path(path), start_line=start + 1, end_line=end))
            while j < len(targets) and targets[j][0] < end:
                j += 1
    return out


# -- range sets (line-log.c), half-open [start, end) ------------------------------------------


def _union(a: list[Range], b: list[Range]) -> list[Range]:
    """range_set_union: merge two sorted sets; overlapping or adjacent ranges join, empty ones vanish."""
    out: list[list[int]] = []
    i = j = 0
    while i < len(a) or j < len(b):
        if i < len(a) and j < len(b):
            if a[i][0] < b[j][0] or (a[i][0] == b[j][0] and a[i][1] < b[j][1]):
                new = a[i]
                i += 1
            else:
                new = b[j]
                j += 1
        elif i < len(a):
            new = a[i]
            i += 1
        else:
            new = b[j]
            j += 1
        if new[0] == new[1]:
            continue
        if not out or out[-1][1] < new[0]:
            out.append([new[0], new[1]])
        elif out[-1][1] < new[1]:
            out[-1][1] = new[1]
    return [(s, e) for s, e in out]


def _difference(a: list[Range], b: list[Range]) -> list[Range]:
    """range_set_difference: a minus b."""
    out: list[Range] = []
    j = 0
    for start, end in a:
        while start < end:
            while j < len(b) and start >= b[j][1]:
                j += 1
            if j >= len(b) or end < b[j][0]:
                out.append((start, end))
                break
            if start >= b[j][0]:
                start = b[j][1]
            elif end > b[j][0]:
                if start < b[j][0]:
                    out.append((start, b[j][0]))
                start = b[j][1]
    return out


def _map_across_diff(ranges: list[Range], hunks: list[Hunk]) -> tuple[list[Range], list[Range], list[Range]]:
    """range_set_map_across_diff: (ranges in the parent, touched hunks' parent sides, their target sides)."""
    parent_sides = [(h.old_start, h.old_start + h.old_count) for h in hunks]
    target_sides = [(h.new_start, h.new_start + h.new_count) for h in hunks]
    # diff_ranges_filter_touched: hunks overlapping the range they are compared with (git checks one
    # range per hunk, advancing only while the hunk starts after the range's end).
    touched_parent: list[Range] = []
    touched_target: list[Range] = []
    j = 0
    for (p_start, p_end), (t_start, t_end) in zip(parent_sides, target_sides):
        stop = False
        while t_start > ranges[j][1]:
            j += 1
            if j == len(ranges):
                stop = True
                break
        if stop:
            break
        r_start, r_end = ranges[j]
        if not (t_end <= r_start or r_end <= t_start):
            touched_parent.append((p_start, p_end))
            touched_target.append((t_start, t_end))
    # The untouched rest of each range shifts by the lines the diff added/removed before it.
    rest = _difference(ranges, touched_target)
    shifted: list[Range] = []
    k = 0
    offset = 0
    for start, end in rest:
        while k < len(target_sides) and start >= target_sides[k][0]:
            offset += (parent_sides[k][1] - parent_sides[k][0]) - (target_sides[k][1] - target_sides[k][0])
            k += 1
        shifted.append((start + offset, end + offset))
    return _union(shifted, touched_parent), touched_parent, touched_target


# -- git's diff without the indent heuristic -------------------------------------------------
#
# log -L's collect_diff zeroes xpparam_t, so unlike `git diff` and blame it runs
# xdiff without XDF_INDENT_HEURISTIC: a group of changed lines that can slide
# stays at the lowest position (unless it lines up with a change in the other
# file).  Checked against git: after inserting b"a\n    c\n}\n" below line 3 of
# b"\n    c\n\na\n}\n}\n", blame (heuristic) blames new line 4 on the change
# while log -L 4,4 follows it to the root.


def _plain_hunks(a: list[bytes], b: list[bytes]) -> list[Hunk]:
    """`git diff -U0 --no-indent-heuristic` hunks (with git's zero-context tail trimming)."""
    return linediff.diff_hunks(a, b, indent_heuristic=False)
