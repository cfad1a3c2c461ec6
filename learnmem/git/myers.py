"""Steps 3 and 4 of git's line diff: which lines are changed (xprepare.c cleanup, xdiffi.c Myers).

`xdl_cleanup_records` marks lines with no equal line in the other file as
changed up front (and "multimatch" lines inside runs of such lines);
`xdl_recs_cmp`/`xdl_split` run divide-and-conquer Myers over the rest with
git's cost cut-offs, which make the result non-minimal on large, very
different inputs exactly where git's is. See linediff.py for the pipeline.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import chain, compress, count
from sys import maxsize

__all__ = ["equal_run", "equal_run_back", "myers"]

# Constants, with git's names (xdiffi.c, xprepare.c).
_MAX_COST_MIN = 256  # XDL_MAX_COST_MIN: lower bound of the edit-cost cut-off
_HEUR_MIN_COST = 256  # XDL_HEUR_MIN_COST: cost after which good snakes end a split
_SNAKE_CNT = 20  # XDL_SNAKE_CNT: a run of equal lines longer than this is "a snake"
_K_HEUR = 4  # XDL_K_HEUR
_LINE_MAX = maxsize  # XDL_LINE_MAX (LONG_MAX): "unreached" marker of backward paths

_KPDIS_RUN = 4  # XDL_KPDIS_RUN
_MAX_EQLIMIT = 1024  # XDL_MAX_EQLIMIT: cap on the multimatch threshold
_SIMSCAN_WINDOW = 100  # XDL_SIMSCAN_WINDOW


# --- xdl_cleanup_records + xdl_recs_cmp ------------------------------------------


def equal_run(x: Sequence[object], i: int, y: Sequence[object], j: int, limit: int) -> int:
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


def equal_run_back(x: Sequence[object], i: int, y: Sequence[object], j: int, limit: int) -> int:
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


def myers(a: list[bytes], b: list[bytes], pre: int, end1: int, end2: int, ch1: bytearray, ch2: bytearray) -> None:
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
    lo = equal_run(kept1, 0, kept2, 0, min(nk1, nk2))
    hi = equal_run_back(kept1, nk1, kept2, nk2, min(nk1, nk2) - lo)
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
        k = equal_run(ha1, off1, ha2, off2, min(lim1 - off1, lim2 - off2))
        off1 += k
        off2 += k
        k = equal_run_back(ha1, lim1, ha2, lim2, min(lim1 - off1, lim2 - off2))
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
