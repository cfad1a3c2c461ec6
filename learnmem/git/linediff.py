"""git's default line diff (xdiff: Myers + indent heuristic), ported to pure Python.

Why this exists: learnmem reports insertions/deletions per file, blame and line
history, and those numbers must agree *exactly* with what `git log --numstat`,
`git blame` and `git log -L` print.  dulwich uses :mod:`difflib`, whose matching
differs from git's in many ordinary cases (repeated lines, blank lines, moved
blocks).  Which lines git calls "changed" is decided by a pipeline of exact
rules and heuristics in git's xdiff library, so this module reproduces each step
of that pipeline as git 2.39 runs it with its defaults (Myers, no
``--minimal``, ``diff.indentHeuristic=true``, no whitespace options):

1. ``xdi_diff``/``trim_common_tail`` (xdiff-interface.c): for zero-context diffs
   (``git diff -U0``, blame, ``log -L``) git first drops a byte-identical common
   tail, in 1 KiB blocks, re-aligned to a line end.  This *changes results*
   (fewer lines exist for the later heuristics), so :func:`diff_hunks` does it
   by default; :func:`count_changes` does not, because ``--numstat`` runs with
   the default 3 lines of context.
2. ``xdl_trim_ends`` (xprepare.c): common leading/trailing lines are unchanged.
3. ``xdl_cleanup_records``/``xdl_clean_mmatch`` (myers.py): lines with no equal line in
   the other file are marked changed up front; lines with very many equal lines
   ("multimatch") are also discarded when they sit inside runs of such lines.
4. ``xdl_recs_cmp``/``xdl_split`` (xdiffi.c; myers.py): divide-and-conquer Myers over the
   remaining lines, with git's cost cut-offs (``XDL_HEUR_MIN_COST``,
   ``XDL_SNAKE_CNT``, ``mxcost``) that make the result non-minimal on large,
   very different inputs.
5. ``xdl_change_compact`` (compaction.py): slide each group of changed lines to line up with
   changes in the other file, else to the place the indent heuristic scores
   best (``measure_split``/``score_add_split``).
6. ``xdl_build_script``: maximal runs of changed lines become hunks.

Records are compared by content (git compares a hash, then the bytes, so the
equality relation is the same).  The inner loops work on small ints in lists
and on ``bytearray`` flags searched with ``find`` so that the common case (a
few edits in a file of a few thousand lines) stays around a millisecond.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from learnmem.git.compaction import change_compact
from learnmem.git.myers import equal_run, equal_run_back, myers

__all__ = ["Hunk", "count_changes", "diff_hunks", "split_lines"]

# --- constants, with git's names (xdiffi.c, xprepare.c) ----------------------

_TAIL_BLOCK = 1024  # trim_common_tail's block size

# --- public API ---------------------------------------------------------------


def split_lines(data: bytes) -> list[bytes]:
    """Lines of `data`, each keeping its b"\\n"; a last line without newline is kept as is; b"" -> [].

    Only b"\\n" ends a line (as in git): b"\\r" is an ordinary byte, so
    b"a\\r\\n" is one line and differs from b"a\\n".
    """
    if not data:
        return []
    if b"\r" not in data:
        # bytes.splitlines only breaks at \n, \r\n and \r; without \r it is exact (and fast).
        return data.splitlines(keepends=True)
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


@dataclass(frozen=True, slots=True)
class Hunk:
    """One changed region, as a line of `git diff -U0` reports it, in 0-based indices.

    - ``old_start``: if ``old_count > 0``, the index in `old` of the first removed
      line; if ``old_count == 0`` (pure insertion), the number of `old` lines
      before the insertion point, i.e. the new lines go before ``old[old_start]``
      (``old_start == len(old)`` means "appended at the end").
    - ``new_start``: if ``new_count > 0``, the index in `new` of the first added
      line; if ``new_count == 0`` (pure removal), the number of `new` lines
      before the place where the removed lines were, i.e. they sat before
      ``new[new_start]``.

    git's ``@@ -a,b +c,d @@`` header is 1-based and, for an empty side, names
    the line *after which* the change happens; so ``a = old_start + 1`` when
    ``b > 0`` and ``a = old_start`` when ``b == 0`` (same for ``c``/``new_start``),
    and a count of 1 is omitted.  :meth:`header` renders it.
    """

    old_start: int
    old_count: int
    new_start: int
    new_count: int

    def header(self) -> str:
        """The hunk header git prints for this change with ``-U0``, e.g. ``@@ -3,0 +4,2 @@``."""

        def side(start: int, count: int) -> str:
            first = start + 1 if count else start
            return str(first) if count == 1 else f"{first},{count}"

        return f"@@ -{side(self.old_start, self.old_count)} +{side(self.new_start, self.new_count)} @@"


def diff_hunks(
    old: Sequence[bytes],
    new: Sequence[bytes],
    *,
    trim_common_tail: bool = True,
    indent_heuristic: bool = True,
) -> list[Hunk]:
    """The changed regions git's default diff reports (as with `git diff -U0`), in order.

    Each hunk is a maximal run of changed lines after git's compaction; with
    zero context, changes separated by one or more unchanged lines are separate
    hunks.  See :class:`Hunk` for the index conventions.

    `trim_common_tail` (default True) reproduces what git does for every
    zero-context diff (``git diff -U0``, ``git blame``, ``git log -L``): it cuts
    a byte-identical common tail (whole 1 KiB blocks, re-aligned to a line end)
    before diffing, which can move or split hunks near the end of a file.  Pass
    False for the diff git computes with context lines (``git diff``,
    ``--stat``/``--numstat``), whose hunks are then these changes merged by
    context.

    `indent_heuristic` (default True, git's ``diff.indentHeuristic``) decides
    where a group of added or removed lines that could sit at several places
    goes; False gives ``--no-indent-heuristic``, which is also what
    ``git log -L`` uses (it calls xdiff without the flag): such a group then
    stays at the lowest place it can slide to.
    """
    old_l = old if isinstance(old, list) else list(old)
    new_l = new if isinstance(new, list) else list(new)
    result = _diff(old_l, new_l, trim_common_tail, indent_heuristic)
    if result is None:
        return []
    ch1, n1, ch2, n2 = result
    return _build_hunks(ch1, n1, ch2, n2)


def count_changes(old: Sequence[bytes], new: Sequence[bytes]) -> tuple[int, int]:
    """(insertions, deletions) as `git diff --numstat` counts them.

    ``--numstat`` diffs with the default 3 lines of context, where git does not
    trim the common tail, so this is not always the sum of :func:`diff_hunks`'
    counts (it is ``diff_hunks(..., trim_common_tail=False)``'s).  Binary
    detection (git prints ``-``) is the caller's business.
    """
    old_l = old if isinstance(old, list) else list(old)
    new_l = new if isinstance(new, list) else list(new)
    result = _diff(old_l, new_l, False, True)
    if result is None:
        return (0, 0)
    ch1, _n1, ch2, _n2 = result
    return (ch2.count(1), ch1.count(1))


# --- the pipeline -------------------------------------------------------------
#
# "changed" flags live in a bytearray `ch` of length n + 2 where line i is at
# ch[i + 1]; ch[0] and ch[n + 1] stay 0.  These are git's sentinels at -1 and n
# (its rchg array is allocated the same way), and they let `find`/`rfind` run
# over runs of lines in C instead of Python loops.


def _diff(
    a: list[bytes], b: list[bytes], trim_tail: bool, indent_heuristic: bool
) -> tuple[bytearray, int, bytearray, int] | None:
    """Changed-line flags of `a` and `b` as git computes them; None if there are no changes."""
    n1, n2 = len(a), len(b)
    lim = min(n1, n2)
    pre = equal_run(a, 0, b, 0, lim)
    if pre == n1 == n2:
        return None
    # Identical trailing lines, not bounded by the prefix (tail trimming needs all of them).
    tail = equal_run_back(a, n1, b, n2, lim)

    if trim_tail and tail:
        drop = _tail_lines_trimmed(a, b, tail)
        if drop:
            n1 -= drop
            n2 -= drop
            a = a[:n1]
            b = b[:n2]
            tail -= drop
            lim = min(n1, n2)
            pre = min(pre, lim)

    # xdl_trim_ends: the leading `pre` and trailing `suf` lines are matched as is.
    suf = min(tail, lim - pre)
    ch1 = bytearray(n1 + 2)
    ch2 = bytearray(n2 + 2)
    end1 = n1 - suf
    end2 = n2 - suf
    if pre == end1:
        ch2[pre + 1 : end2 + 1] = b"\x01" * (end2 - pre)
    elif pre == end2:
        ch1[pre + 1 : end1 + 1] = b"\x01" * (end1 - pre)
    else:
        myers(a, b, pre, end1, end2, ch1, ch2)

    # Compact the first file against the second, then the second against the first (xdl_diff).
    change_compact(a, ch1, ch2, n2, indent_heuristic)
    change_compact(b, ch2, ch1, n1, indent_heuristic)
    return ch1, n1, ch2, n2


def _tail_lines_trimmed(a: list[bytes], b: list[bytes], tail: int) -> int:
    """How many trailing lines git's trim_common_tail (xdiff-interface.c) removes from both files.

    git compares the two buffers backwards in 1024-byte blocks and cuts every
    whole block that is identical, then gives back bytes up to and including
    the first newline after the cut so both files still end on a line end.
    `tail` is the number of identical trailing lines.  The identical byte tail
    may reach into the first differing pair of lines (b"x = 1\\n" and
    b"y = 1\\n" share b" = 1\\n"); that extra can complete a block, and the
    re-alignment then lands at the end of that differing line.
    """
    n1, n2 = len(a), len(b)
    common = sum(map(len, a[n1 - tail :]))
    if tail < n1 and tail < n2:
        x = a[n1 - tail - 1]
        y = b[n2 - tail - 1]
        shorter = min(len(x), len(y))
        if (common + shorter) // _TAIL_BLOCK > common // _TAIL_BLOCK:  # else it cannot matter
            # Longest common byte suffix of x and y, by bisection (suffix equality is monotone).
            lo, hi = 0, shorter
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if x[len(x) - mid :] == y[len(y) - mid :]:
                    lo = mid
                else:
                    hi = mid - 1
            common += lo
        # No further: the byte before x's common part is x's own or the previous line's
        # b"\n", while y's is inside y (a line holds b"\n" only at its end).
    trimmed = common - common % _TAIL_BLOCK
    if not trimmed:
        return 0
    # The cut falls inside line a[n1 - m] for the least m whose last m lines hold
    # `trimmed` bytes; git keeps that line through its newline and drops the m - 1 after it.
    lengths = list(accumulate(map(len, reversed(a[max(0, n1 - tail - 1) :]))))
    m = bisect_left(lengths, trimmed) + 1
    if not a[n1 - m].endswith(b"\n"):
        return 0  # the cut is in a last line without newline: git finds no newline and keeps all
    return m - 1


def _build_hunks(ch1: bytearray, n1: int, ch2: bytearray, n2: int) -> list[Hunk]:
    """xdl_build_script: pair the unchanged lines of both files in order; the runs between are hunks."""
    hunks: list[Hunk] = []
    i1 = i2 = 0
    find1 = ch1.find
    find2 = ch2.find
    while True:
        c1 = find1(1, i1 + 1)
        c1 = n1 if c1 < 0 else c1 - 1
        c2 = find2(1, i2 + 1)
        c2 = n2 if c2 < 0 else c2 - 1
        skip = min(c1 - i1, c2 - i2)
        i1 += skip
        i2 += skip
        if i1 == n1 and i2 == n2:
            return hunks
        e1 = find1(0, i1 + 1) - 1
        e2 = find2(0, i2 + 1) - 1
        hunks.append(Hunk(i1, e1 - i1, i2, e2 - i2))
        i1 = e1
        i2 = e2
