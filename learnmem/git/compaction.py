"""Step 5 of git's line diff (xdiffi.c `xdl_change_compact`): where each group of changed lines sits.

A run of changed lines can often slide up or down over equal lines without
changing the diff's size. git slides each group to line up with a change in the
other file, else (with `diff.indentHeuristic`, the default) to the place the
indent heuristic scores best (`measure_split` / `score_add_split`), else to
the lowest place. The choice decides which lines blame and `log -L` attribute
to a commit, so it is ported exactly; see linediff.py for the whole pipeline.
The flags arrays: `ch[i + 1]` is 1 when line i changed (index 0 and n + 1 are sentinels).
"""

from __future__ import annotations

__all__ = ["change_compact"]

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


def change_compact(lines: list[bytes], ch: bytearray, och: bytearray, on: int, indent_heuristic: bool = True) -> None:
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


