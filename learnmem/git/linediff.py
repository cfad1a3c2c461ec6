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
3. ``xdl_cleanup_records``/``xdl_clean_mmatch``: lines with no equal line in
   the other file are marked changed up front; lines with very many equal lines
   ("multimatch") are also discarded when they sit inside runs of such lines.
4. ``xdl_recs_cmp``/``xdl_split`` (xdiffi.c): divide-and-conquer Myers over the
   remaining lines, with git's cost cut-offs (``XDL_HEUR_MIN_COST``,
   ``XDL_SNAKE_CNT``, ``mxcost``) that make the result non-minimal on large,
   very different inputs.
5. ``xdl_change_compact``: slide each group of changed lines to line up with
   changes in the other file, else to the place the indent heuristic scores
   best (``measure_split``/``score_add_split``).
6. ``xdl_build_script``: maximal runs of changed lines become hunks.

Records are compared by content (git compares a hash, then the bytes, so the
equality relation is the same).  The inner loops work on small ints in lists
and on ``bytearray`` flags searched with ``find`` so that the common case (a
few edits in a file of a few thousand lines) stays around a millisecond.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, compress, count
from sys import maxsize

__all__ = ["Hunk", "count_changes", "diff_hunks", "split_lines"]

# --- constants, with git's names (xdiffi.c, xprepare.c) ----------------------

_MAX_COST_MIN = 256  # XDL_MAX_COST_MIN: lower bound of the edit-cost cut-off
_HEUR_MIN_COST = 256  # XDL_HEUR_MIN_COST: cost after which good snakes end a split
_SNAKE_CNT = 20  # XDL_SNAKE_CNT: a run of equal lines longer than this is "a snake"
_K_HEUR = 4  # XDL_K_HEUR
_LINE_MAX = maxsize  # XDL_LINE_MAX (LONG_MAX): "unreached" marker of backward paths

_KPDIS_RUN = 4  # XDL_KPDIS_RUN
_MAX_EQLIMIT = 1024  # XDL_MAX_EQLIMIT: cap on the multimatch threshold
_SIMSCAN_WINDOW = 100  # XDL_SIMSCAN_WINDOW

_TAIL_BLOCK = 1024  # trim_common_tail's block size

# Indent heuristic (xdiffi.c); larger penalty = worse place for a hunk edge.
_MAX_INDENT = 200
_MAX_BLANKS = 20
_START_OF_FILE_PENALTY = 1
_END_OF_FILE_PENALTY = 21
_TOTAL_BLANK_WEIGHT = -30
_POST_BLANK_WEIGHT = 6
_RELATIVE_INDENT_PENALTY = -4
_RELATIVE_INDENT_WITH_BLANK_PENALTY = 10
_RELATIVE_OUTDENT_PENALTY = 24
_RELATIVE_OUTDENT_WITH_BLANK_PENALTY = 17
_RELATIVE_DEDENT_PENALTY = 23
_RELATIVE_DEDENT_WITH_BLANK_PENALTY = 17
_INDENT_WEIGHT = 60
_INDENT_HEURISTIC_MAX_SLIDING = 100


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
    pre = _equal_run(a, 0, b, 0, lim)
    if pre == n1 == n2:
        return None
    # Identical trailing lines, not bounded by the prefix (tail trimming needs all of them).
    tail = _equal_run_back(a, n1, b, n2, lim)

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
        _myers(a, b, pre, end1, end2, ch1, ch2)

    # Compact the first file against the second, then the second against the first (xdl_diff).
    _change_compact(a, ch1, ch2, n2, indent_heuristic)
    _change_compact(b, ch2, ch1, n1, indent_heuristic)
    return ch1, n1, ch2, n2


def _equal_run(x: Sequence[object], i: int, y: Sequence[object], j: int, limit: int) -> int:
    """How many x[i + k] == y[j + k] hold for k = 0, 1, ... (at most `limit`).

    Long equal runs are the normal case (the unchanged stretches between
    edits), so this compares growing slices, which runs in C, and then narrows
    down the end by halving: O(log n) slice comparisons instead of n Python steps.
    """
    if limit <= 0 or x[i] != y[j]:
        return 0
    k = 1
    step = 8
    while k + step <= limit and x[i + k : i + k + step] == y[j + k : j + k + step]:
        k += step
        if step < 4096:
            step <<= 1
    # Fewer than `step` more pairs are equal (or fit): find how many, bit by bit.
    while step > 1:
        step >>= 1
        if k + step <= limit and x[i + k : i + k + step] == y[j + k : j + k + step]:
            k += step
    return k


def _equal_run_back(x: Sequence[object], i: int, y: Sequence[object], j: int, limit: int) -> int:
    """How many x[i - 1 - k] == y[j - 1 - k] hold for k = 0, 1, ... (at most `limit`)."""
    if limit <= 0 or x[i - 1] != y[j - 1]:
        return 0
    k = 1
    step = 8
    while k + step <= limit and x[i - k - step : i - k] == y[j - k - step : j - k]:
        k += step
        if step < 4096:
            step <<= 1
    while step > 1:
        step >>= 1
        if k + step <= limit and x[i - k - step : i - k] == y[j - k - step : j - k]:
            k += step
    return k


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


# --- xdl_cleanup_records + xdl_recs_cmp ------------------------------------------


def _bogosqrt(n: int) -> int:
    """xdl_bogosqrt: 2 ** ceil(bits(n) / 2), git's rough square root."""
    i = 1
    while n > 0:
        n >>= 2
        i <<= 1
    return i


def _clean_mmatch(dis: bytes, i: int, s: int, e: int) -> bool:
    """xdl_clean_mmatch: should multimatch line `i` be discarded?

    Only when it sits in a run of no-match (0) and multimatch (2) lines that
    has no-match lines on both sides of it and holds more than three no-match
    lines per multimatch line: matching such a line (a blank line, a lone
    brace) would only cut a rewritten region into pieces.  The scan is limited
    to 100 lines each way.
    """
    if i - s > _SIMSCAN_WINDOW:
        s = i - _SIMSCAN_WINDOW
    if e - i > _SIMSCAN_WINDOW:
        e = i + _SIMSCAN_WINDOW
    r = 1
    rdis0 = 0
    rpdis0 = 1
    while i - r >= s:
        v = dis[i - r]
        if v == 0:
            rdis0 += 1
        elif v == 2:
            rpdis0 += 1
        else:
            break
        r += 1
    if rdis0 == 0:
        return False
    r = 1
    rdis1 = 0
    rpdis1 = 1
    while i + r <= e:
        v = dis[i + r]
        if v == 0:
            rdis1 += 1
        elif v == 2:
            rpdis1 += 1
        else:
            break
        r += 1
    if rdis1 == 0:
        return False
    rdis1 += rdis0
    rpdis1 += rpdis0
    return rpdis1 * _KPDIS_RUN < rpdis1 + rdis1


_KEEP = bytes([0, 1, 1]) + bytes(253)  # dis 1 and (for now) 2 are kept
_FLIP = bytes([1, 0]) + bytes(254)  # kept -> not changed, discarded -> changed
# A multimatch line can only be discarded if neither neighbour is a plain match
# (see _clean_mmatch); this finds those candidates without a Python loop.
_MMATCH_CANDIDATE = re.compile(rb"(?<=[\x00\x02])\x02(?=[\x00\x02])")


def _discard(
    mid: list[bytes], other_count: Counter[bytes], n_other: int, mlim: int, start: int, ch: bytearray
) -> tuple[list[bytes], Sequence[int]]:
    """One file's half of xdl_cleanup_records: mark lines not worth matching, return the rest.

    `other_count` gives how often each line occurs in the whole other file.
    A line that never occurs there cannot match and is marked changed now; one
    that occurs `mlim` or more times is "multimatch" and is marked changed too
    if :func:`_clean_mmatch` says so.  Returns the kept lines and their indices.
    The per-line work is done with map/translate/compress so it runs in C.
    """
    m = len(mid)
    # dis[j]: 0 = no match, 1 = match, 2 = multimatch, via a count -> status table.
    status = [0] + [1] * (mlim - 1)
    status += [2] * (n_other + 1 - len(status))  # no line occurs more than n_other times
    dis = bytes(map(status.__getitem__, map(other_count.__getitem__, mid)))
    if 0 not in dis and 2 not in dis:
        return mid, range(start, start + m)
    keep = bytearray(dis.translate(_KEEP))
    last = m - 1
    for hit in _MMATCH_CANDIDATE.finditer(dis):
        j = hit.start()
        if _clean_mmatch(dis, j, 0, last):
            keep[j] = 0
    ch[start + 1 : start + 1 + m] = keep.translate(_FLIP)
    return list(compress(mid, keep)), list(compress(range(start, start + m), keep))


def _myers(a: list[bytes], b: list[bytes], pre: int, end1: int, end2: int, ch1: bytearray, ch2: bytearray) -> None:
    """Mark changed lines in a[pre:end1] / b[pre:end2] (both non-empty): cleanup, then Myers."""
    n1, n2 = len(a), len(b)
    mid1 = a[pre:end1]
    mid2 = b[pre:end2]
    # Occurrences in the *whole* other file count: git's class table holds every record.
    kept1, rindex1 = _discard(mid1, Counter(b), n2, min(_bogosqrt(n1), _MAX_EQLIMIT), pre, ch1)
    kept2, rindex2 = _discard(mid2, Counter(a), n1, min(_bogosqrt(n2), _MAX_EQLIMIT), pre, ch2)

    # git's cost limit comes from the number of kept lines (xdl_do_diff).
    nk1, nk2 = len(kept1), len(kept2)
    mxcost = max(_bogosqrt(nk1 + nk2 + 3), _MAX_COST_MIN)

    # xdl_recs_cmp starts by shrinking the box over equal ends; doing that step
    # here on the lines themselves often leaves nothing (edits that only add or
    # remove unique lines) and otherwise a smaller box to classify.
    lo = _equal_run(kept1, 0, kept2, 0, min(nk1, nk2))
    hi = _equal_run_back(kept1, nk1, kept2, nk2, min(nk1, nk2) - lo)
    if lo == nk1 - hi or lo == nk2 - hi:
        for k in rindex1[lo : nk1 - hi]:
            ch1[k + 1] = 1
        for k in rindex2[lo : nk2 - hi]:
            ch2[k + 1] = 1
        return
    kept1 = kept1[lo : nk1 - hi]
    kept2 = kept2[lo : nk2 - hi]
    rindex1 = rindex1[lo : nk1 - hi]
    rindex2 = rindex2[lo : nk2 - hi]

    # Equivalence classes as small ints: the split loops compare ints, not bytes.
    ids = dict(zip(dict.fromkeys(chain(kept1, kept2)), count()))
    ha1 = list(map(ids.__getitem__, kept1))
    ha2 = list(map(ids.__getitem__, kept2))
    _recs_cmp(ha1, ha2, rindex1, rindex2, ch1, ch2, mxcost)


def _recs_cmp(
    ha1: list[int],
    ha2: list[int],
    rindex1: Sequence[int],
    rindex2: Sequence[int],
    ch1: bytearray,
    ch2: bytearray,
    mxcost: int,
) -> None:
    """xdl_recs_cmp: divide and conquer over the kept lines, marking the unmatched ones.

    git recurses on (low box, high box) after each split; an explicit stack
    visits the boxes in the same order without Python's recursion limit.
    `mxcost` is git's cost cut-off, max(xdl_bogosqrt(kept lines + 3), 256).
    """
    nreff1, nreff2 = len(ha1), len(ha2)
    ndiags = nreff1 + nreff2 + 3
    # K vectors indexed by diagonal d = i1 - i2 in [-(nreff2 + 1), nreff1 + 1]: with
    # length ndiags, Python's negative indexing gives every diagonal its own slot.
    kvdf = [0] * ndiags
    kvdb = [0] * ndiags

    stack: list[tuple[int, int, int, int, bool]] = [(0, nreff1, 0, nreff2, False)]
    pop = stack.pop
    push = stack.append
    while stack:
        off1, lim1, off2, lim2, need_min = pop()
        # Shrink the box by the snakes at both corners.
        k = _equal_run(ha1, off1, ha2, off2, min(lim1 - off1, lim2 - off2))
        off1 += k
        off2 += k
        k = _equal_run_back(ha1, lim1, ha2, lim2, min(lim1 - off1, lim2 - off2))
        lim1 -= k
        lim2 -= k
        if off1 == lim1:
            for k in rindex2[off2:lim2]:
                ch2[k + 1] = 1
        elif off2 == lim2:
            for k in rindex1[off1:lim1]:
                ch1[k + 1] = 1
        else:
            i1, i2, min_lo, min_hi = _split(ha1, off1, lim1, ha2, off2, lim2, kvdf, kvdb, need_min, mxcost)
            push((i1, lim1, i2, lim2, min_hi))
            push((off1, i1, off2, i2, min_lo))


def _split(
    ha1: list[int],
    off1: int,
    lim1: int,
    ha2: list[int],
    off2: int,
    lim2: int,
    kvdf: list[int],
    kvdb: list[int],
    need_min: bool,
    mxcost: int,
) -> tuple[int, int, bool, bool]:
    """xdl_split: a point (i1, i2) to split the box at, and whether each half needs a minimal diff.

    Myers' middle snake, searched forward from (off1, off2) and backward from
    (lim1, lim2) until the paths meet.  Unless `need_min`, git gives up early:
    past XDL_HEUR_MIN_COST it accepts a diagonal that is far along and ends in
    a 20-line snake, and at `mxcost` it takes the furthest-reaching point.
    Those cut-offs decide which lines are reported on large, very different
    inputs, so they are reproduced exactly (including the order diagonals are
    tried in, which picks among equally good points).
    """
    dmin = off1 - lim2
    dmax = lim1 - off2
    fmid = off1 - off2
    bmid = lim1 - lim2
    odd = (fmid - bmid) & 1
    fmin = fmax = fmid
    bmin = bmax = bmid
    kvdf[fmid] = off1
    kvdb[bmid] = lim1
    ec = 0
    while True:
        ec += 1
        got_snake = False

        # Forward: extend the explored diagonal range by one each way (or shrink it
        # at the box edge); -1 outside the range makes the max below pick the inside.
        if fmin > dmin:
            fmin -= 1
            kvdf[fmin - 1] = -1
        else:
            fmin += 1
        if fmax < dmax:
            fmax += 1
            kvdf[fmax + 1] = -1
        else:
            fmax -= 1
        for d in range(fmax, fmin - 1, -2):
            i1 = kvdf[d - 1]
            hi = kvdf[d + 1]
            if i1 >= hi:
                i1 += 1
            else:
                i1 = hi
            i2 = i1 - d
            if i1 < lim1 and i2 < lim2 and ha1[i1] == ha2[i2]:
                prev1 = i1
                i1 += 1
                i2 += 1
                while i1 < lim1 and i2 < lim2 and ha1[i1] == ha2[i2]:
                    i1 += 1
                    i2 += 1
                if i1 - prev1 > _SNAKE_CNT:
                    got_snake = True
            kvdf[d] = i1
            if odd and bmin <= d <= bmax and kvdb[d] <= i1:
                return i1, i2, True, True

        # Backward, symmetrically, with LINE_MAX as the outside marker.
        if bmin > dmin:
            bmin -= 1
            kvdb[bmin - 1] = _LINE_MAX
        else:
            bmin += 1
        if bmax < dmax:
            bmax += 1
            kvdb[bmax + 1] = _LINE_MAX
        else:
            bmax -= 1
        for d in range(bmax, bmin - 1, -2):
            i1 = kvdb[d - 1]
            hi = kvdb[d + 1]
            if i1 >= hi:
                i1 = hi - 1
            i2 = i1 - d
            if i1 > off1 and i2 > off2 and ha1[i1 - 1] == ha2[i2 - 1]:
                prev1 = i1
                i1 -= 1
                i2 -= 1
                while i1 > off1 and i2 > off2 and ha1[i1 - 1] == ha2[i2 - 1]:
                    i1 -= 1
                    i2 -= 1
                if prev1 - i1 > _SNAKE_CNT:
                    got_snake = True
            kvdb[d] = i1
            if not odd and fmin <= d <= fmax and i1 <= kvdf[d]:
                return i1, i2, True, True

        if need_min:
            continue

        # Expensive so far, and some path ran along a long snake: take the most
        # advanced diagonal (measured from the corner, penalised by its distance
        # from the middle diagonal) that ends in a snake of >= 20 equal lines.
        if got_snake and ec > _HEUR_MIN_COST:
            best = 0
            s1 = s2 = 0
            for d in range(fmax, fmin - 1, -2):
                dd = d - fmid if d > fmid else fmid - d
                i1 = kvdf[d]
                i2 = i1 - d
                v = (i1 - off1) + (i2 - off2) - dd
                if (
                    v > _K_HEUR * ec
                    and v > best
                    and off1 + _SNAKE_CNT <= i1 < lim1
                    and off2 + _SNAKE_CNT <= i2 < lim2
                ):
                    k = 1
                    while ha1[i1 - k] == ha2[i2 - k]:
                        if k == _SNAKE_CNT:
                            best = v
                            s1, s2 = i1, i2
                            break
                        k += 1
            if best > 0:
                return s1, s2, True, False

            best = 0
            for d in range(bmax, bmin - 1, -2):
                dd = d - bmid if d > bmid else bmid - d
                i1 = kvdb[d]
                i2 = i1 - d
                v = (lim1 - i1) + (lim2 - i2) - dd
                if (
                    v > _K_HEUR * ec
                    and v > best
                    and off1 < i1 <= lim1 - _SNAKE_CNT
                    and off2 < i2 <= lim2 - _SNAKE_CNT
                ):
                    k = 0
                    while ha1[i1 + k] == ha2[i2 + k]:
                        if k == _SNAKE_CNT - 1:
                            best = v
                            s1, s2 = i1, i2
                            break
                        k += 1
            if best > 0:
                return s1, s2, False, True

        # Enough: split at the furthest-reaching point (by i1 + i2) of either direction.
        if ec >= mxcost:
            fbest = fbest1 = -1
            for d in range(fmax, fmin - 1, -2):
                i1 = min(kvdf[d], lim1)
                i2 = i1 - d
                if lim2 < i2:
                    i1 = lim2 + d
                    i2 = lim2
                if fbest < i1 + i2:
                    fbest = i1 + i2
                    fbest1 = i1
            bbest = bbest1 = _LINE_MAX
            for d in range(bmax, bmin - 1, -2):
                i1 = max(kvdb[d], off1)
                i2 = i1 - d
                if i2 < off2:
                    i1 = off2 + d
                    i2 = off2
                if i1 + i2 < bbest:
                    bbest = i1 + i2
                    bbest1 = i1
            if (lim1 + lim2) - bbest < fbest - (off1 + off2):
                return fbest1, fbest - fbest1, True, False
            return bbest1, bbest - bbest1, False, True


# --- xdl_change_compact (group sliding + indent heuristic) -----------------------


def _get_indent(line: bytes) -> int:
    """get_indent: columns of leading whitespace (TAB to the next multiple of 8), -1 if blank.

    git's isspace() is only space, TAB, LF and CR (not VT/FF); CR and LF add no
    columns.  Counting stops at 200 columns, and then even an all-whitespace line
    counts as indented 200, not blank.
    """
    body = line.lstrip(b" \t\r\n")
    width = len(line) - len(body)
    lead = line[:width]
    if lead.count(32) == width:  # spaces only: one column each
        if width >= _MAX_INDENT:
            return _MAX_INDENT
        return width if body else -1
    ret = 0
    for c in lead:
        if c == 32:
            ret += 1
        elif c == 9:
            ret += 8 - ret % 8
        if ret >= _MAX_INDENT:
            return _MAX_INDENT
    return ret if body else -1


class _Indents:
    """Lazily computed get_indent() of a file's lines (the heuristic revisits the same few)."""

    __slots__ = ("cache", "lines")

    def __init__(self, lines: list[bytes]) -> None:
        self.lines = lines
        self.cache: dict[int, int] = {}

    def __call__(self, i: int) -> int:
        v = self.cache.get(i)
        if v is None:
            v = self.cache[i] = _get_indent(self.lines[i])
        return v


def _score_split(indent_of: _Indents, n: int, split: int) -> tuple[int, int]:
    """measure_split + score_add_split: (effective indent, penalty) of a hunk edge above line `split`."""
    if split >= n:
        end_of_file = True
        indent = -1
    else:
        end_of_file = False
        indent = indent_of(split)

    pre_blank = 0
    pre_indent = -1
    i = split - 1
    while i >= 0:
        pre_indent = indent_of(i)
        if pre_indent != -1:
            break
        pre_blank += 1
        if pre_blank == _MAX_BLANKS:
            pre_indent = 0
            break
        i -= 1

    post_blank = 0
    post_indent = -1
    i = split + 1
    while i < n:
        post_indent = indent_of(i)
        if post_indent != -1:
            break
        post_blank += 1
        if post_blank == _MAX_BLANKS:
            post_indent = 0
            break
        i += 1

    penalty = 0
    if pre_indent == -1 and pre_blank == 0:
        penalty += _START_OF_FILE_PENALTY
    if end_of_file:
        penalty += _END_OF_FILE_PENALTY
    # Blank lines after the split, counting the line right after it.
    post_blank = 1 + post_blank if indent == -1 else 0
    total_blank = pre_blank + post_blank
    penalty += _TOTAL_BLANK_WEIGHT * total_blank + _POST_BLANK_WEIGHT * post_blank
    if indent == -1:
        indent = post_indent
    any_blanks = total_blank != 0

    if indent == -1 or pre_indent == -1:
        pass
    elif indent > pre_indent:
        penalty += _RELATIVE_INDENT_WITH_BLANK_PENALTY if any_blanks else _RELATIVE_INDENT_PENALTY
    elif indent == pre_indent:
        pass
    elif post_indent != -1 and post_indent > indent:
        # Less indented than before, more indented after: likely the start of a block.
        penalty += _RELATIVE_OUTDENT_WITH_BLANK_PENALTY if any_blanks else _RELATIVE_OUTDENT_PENALTY
    else:
        # Probably the end of a block.
        penalty += _RELATIVE_DEDENT_WITH_BLANK_PENALTY if any_blanks else _RELATIVE_DEDENT_PENALTY
    return indent, penalty


def _group_next(ch: bytearray, n: int, g: list[int]) -> bool:
    """Move group g = [start, end) to the next (possibly empty) group; False at the end."""
    if g[1] == n:
        return False
    s = g[1] + 1
    g[0] = s
    g[1] = ch.find(0, s + 1) - 1
    return True


def _group_previous(ch: bytearray, g: list[int]) -> bool:
    """Move group g to the previous (possibly empty) group; False at the start."""
    if g[0] == 0:
        return False
    e = g[0] - 1
    g[1] = e
    g[0] = ch.rfind(0, 0, e + 1)  # one past the last unchanged line before e
    return True


def _slide_down(lines: list[bytes], ch: bytearray, n: int, g: list[int]) -> bool:
    """Shift group g one line down if its first line equals the line after it, merging what it meets."""
    s, e = g
    if e < n and lines[s] == lines[e]:
        ch[s + 1] = 0
        ch[e + 1] = 1
        g[0] = s + 1
        g[1] = ch.find(0, e + 2) - 1
        return True
    return False


def _slide_up(lines: list[bytes], ch: bytearray, g: list[int]) -> bool:
    """Shift group g one line up if its last line equals the line before it, merging what it meets."""
    s, e = g
    if s > 0 and lines[s - 1] == lines[e - 1]:
        ch[s] = 1  # line s - 1
        ch[e] = 0  # line e - 1
        g[0] = ch.rfind(0, 0, s)
        g[1] = e - 1
        return True
    return False


def _sync_error(what: str) -> AssertionError:
    return AssertionError(f"linediff: group sync broken {what}")


def _change_compact(lines: list[bytes], ch: bytearray, och: bytearray, on: int, indent_heuristic: bool = True) -> None:
    """xdl_change_compact for one file (`lines`, flags `ch`) against the other file's flags `och`.

    Groups of changed lines that can slide (first line equal to the one after,
    or last equal to the one before) are slid as far up and down as possible,
    merging with groups they touch; then placed to line up with a change in the
    other file if possible, else where the indent heuristic likes the edges
    best (without it: left at the lowest place).  The other file's group `go`
    is moved in step: the k-th group of each file is the one after k unchanged
    lines, and the two correspond.
    """
    n = len(lines)
    g = [0, ch.find(0, 1) - 1]
    go = [0, och.find(0, 1) - 1]
    indent_of: _Indents | None = None

    while True:
        if g[1] != g[0]:
            while True:
                groupsize = g[1] - g[0]
                end_matching_other = -1
                while _slide_up(lines, ch, g):
                    if not _group_previous(och, go):
                        raise _sync_error("sliding up")
                # The highest the group can go; remember its end.
                earliest_end = g[1]
                if go[1] > go[0]:
                    end_matching_other = g[1]
                while _slide_down(lines, ch, n, g):
                    if not _group_next(och, on, go):
                        raise _sync_error("sliding down")
                    if go[1] > go[0]:
                        end_matching_other = g[1]
                if groupsize == g[1] - g[0]:
                    break  # no merge happened in this pass

            # The group is now as low as it goes; everything below only moves it up.
            if g[1] == earliest_end:
                pass  # it cannot move
            elif end_matching_other != -1:
                # Line it up with the last place where the other file has changes too.
                while go[1] == go[0]:
                    if not _slide_up(lines, ch, g):
                        raise AssertionError("linediff: match disappeared")
                    if not _group_previous(och, go):
                        raise _sync_error("sliding to match")
            elif indent_heuristic:
                # Indent heuristic: score both edges of each place the group can take,
                # from the lowest up to groupsize + 1 and at most 100 lines higher (not
                # above the highest reachable), and keep the best; ties go to the lowest.
                if indent_of is None:
                    indent_of = _Indents(lines)
                end = g[1]
                first = max(earliest_end, end - groupsize - 1, end - _INDENT_HEURISTIC_MAX_SLIDING)
                best_shift = -1
                best_ei = best_pen = 0
                for shift in range(first, end + 1):
                    ei1, pen1 = _score_split(indent_of, n, shift)
                    ei2, pen2 = _score_split(indent_of, n, shift - groupsize)
                    ei = ei1 + ei2
                    pen = pen1 + pen2
                    cmp_indents = (ei > best_ei) - (ei < best_ei)
                    if best_shift == -1 or _INDENT_WEIGHT * cmp_indents + (pen - best_pen) <= 0:
                        best_ei, best_pen, best_shift = ei, pen, shift
                while g[1] > best_shift:
                    if not _slide_up(lines, ch, g):
                        raise AssertionError("linediff: best shift unreached")
                    if not _group_previous(och, go):
                        raise _sync_error("sliding to blank line")

        # Move both files to the next group that is non-empty in this file.  git
        # steps one group at a time; jumping over the unchanged lines with find()
        # is the same walk without a Python loop per line.
        q = ch.find(1, g[1] + 1)
        if q < 0:
            return  # only empty groups remain: nothing left to slide
        q -= 1  # first changed line after g
        skip = q - g[1]  # unchanged lines between: the number of group steps
        g[0] = q
        g[1] = ch.find(0, q + 1) - 1
        pos = go[1]
        while True:
            c = och.find(1, pos + 1)
            c = on if c < 0 else c - 1
            avail = c - pos  # unchanged lines from pos up to the next change
            if avail > skip:
                go[0] = go[1] = pos + skip
                break
            if avail == skip:
                go[0] = c
                go[1] = och.find(0, c + 1) - 1
                break
            if c == on:
                raise _sync_error("moving to next group")
            skip -= avail
            pos = och.find(0, c + 1) - 1


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
