"""learnmem.git.linediff against git itself.

git (the binary, only here in tests) is the oracle: file pairs are written to
a temporary directory and compared with ``git diff --no-index -U0`` (hunks) and
``git diff --no-index --numstat`` (counts), in a clean git environment so that
no user or system config (diff.algorithm, diff.indentHeuristic, ...) can change
what git prints.  The oracle's parsing is itself checked on hand-written output.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from learnmem.git import myers
from learnmem.git.linediff import Hunk, count_changes, diff_hunks, split_lines

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is the oracle for these tests")

REPO = Path(__file__).resolve().parents[2]

_HEADER = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)


# --- the oracle ---------------------------------------------------------------


def _clean_env(home: Path) -> dict[str, str]:
    """Environment in which git sees no system/user config and no surrounding repository."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        HOME=str(home),
        XDG_CONFIG_HOME=str(home),
        GIT_CEILING_DIRECTORIES=str(home.parent),
        LC_ALL="C",
    )
    return env


def parse_u0(patch: bytes) -> list[Hunk]:
    """Hunks from the ``@@ -a,b +c,d @@`` headers of a ``-U0`` patch (one file).

    git writes a side as 1-based "first line,count", the count omitted when 1;
    an empty side (count 0) names the line *after which* the change sits.
    """
    hunks = []
    for m in _HEADER.finditer(patch):
        a, b, c, d = m.groups()
        old_count = 1 if b is None else int(b)
        new_count = 1 if d is None else int(d)
        old_start = int(a) - 1 if old_count else int(a)
        new_start = int(c) - 1 if new_count else int(c)
        hunks.append(Hunk(old_start, old_count, new_start, new_count))
    return hunks


class Git:
    """Runs ``git diff --no-index`` on file pairs, one pair or many at a time."""

    def __init__(self, root: Path) -> None:
        self.root = root
        home = root / "home"
        home.mkdir()
        self.env = _clean_env(home)
        self._n = 0

    def _run(self, args: list[str], cwd: Path) -> bytes:
        proc = subprocess.run(["git", *args], cwd=cwd, env=self.env, capture_output=True, check=False)
        # --no-index exits 1 when the inputs differ, 0 when they do not.
        assert proc.returncode in (0, 1), proc.stderr.decode(errors="replace")
        return proc.stdout

    def _workdir(self) -> Path:
        self._n += 1
        d = self.root / f"w{self._n}"
        d.mkdir()
        return d

    def diff_u0(self, old: bytes, new: bytes, *extra: str) -> bytes:
        d = self._workdir()
        (d / "a").write_bytes(old)
        (d / "b").write_bytes(new)
        out = self._run(["diff", "--no-index", "-U0", "--no-color", "--no-ext-diff", *extra, "a", "b"], d)
        shutil.rmtree(d)
        return out

    def hunks(self, old: bytes, new: bytes, *extra: str) -> list[Hunk]:
        return parse_u0(self.diff_u0(old, new, *extra))

    def numstat(self, old: bytes, new: bytes, *extra: str) -> tuple[int, int]:
        d = self._workdir()
        (d / "a").write_bytes(old)
        (d / "b").write_bytes(new)
        out = self._run(["diff", "--no-index", "--numstat", "--no-ext-diff", *extra, "a", "b"], d)
        shutil.rmtree(d)
        if not out:
            return (0, 0)
        ins, dels, _ = out.split(b"\t", 2)
        return (int(ins), int(dels))

    def many(
        self, pairs: list[tuple[bytes, bytes]], *extra: str
    ) -> tuple[list[list[Hunk]], list[tuple[int, int]]]:
        """-U0 hunks and numstat for many pairs with two git runs (directories A/ and B/)."""
        d = self._workdir()
        (d / "A").mkdir()
        (d / "B").mkdir()
        for i, (old, new) in enumerate(pairs):
            (d / "A" / f"{i:05d}").write_bytes(old)
            (d / "B" / f"{i:05d}").write_bytes(new)
        patch = self._run(
            ["diff", "--no-index", "--no-renames", "-U0", "--no-color", "--no-ext-diff", *extra, "A", "B"], d
        )
        hunks: list[list[Hunk]] = [[] for _ in pairs]
        for section in re.split(rb"^diff --git ", patch, flags=re.MULTILINE)[1:]:
            m = re.match(rb"a/A/(\d{5}) b/B/\1\n", section)
            assert m, section[:200]
            hunks[int(m.group(1))] = parse_u0(section)
        stat = self._run(["diff", "--no-index", "--no-renames", "--numstat", "--no-ext-diff", *extra, "A", "B"], d)
        counts = [(0, 0)] * len(pairs)
        for line in stat.splitlines():
            ins, dels, path = line.split(b"\t", 2)
            m = re.fullmatch(rb"\{A => B\}/(\d{5})", path)
            assert m, line
            counts[int(m.group(1))] = (int(ins), int(dels))
        shutil.rmtree(d)
        return hunks, counts


@pytest.fixture(scope="module")
def git(tmp_path_factory: pytest.TempPathFactory) -> Git:
    return Git(tmp_path_factory.mktemp("linediff"))


def _lines(data: bytes) -> list[bytes]:
    return split_lines(data)


def assert_same_as_git(git: Git, old: bytes, new: bytes) -> None:
    a, b = _lines(old), _lines(new)
    assert diff_hunks(a, b) == git.hunks(old, new), (old, new)
    assert count_changes(a, b) == git.numstat(old, new), (old, new)


def assert_many_same_as_git(git: Git, pairs: list[tuple[bytes, bytes]], *, indent_heuristic: bool = True) -> None:
    extra = () if indent_heuristic else ("--no-indent-heuristic",)
    hunks, counts = git.many(pairs, *extra)
    bad = []
    for (old, new), want_hunks, want_counts in zip(pairs, hunks, counts):
        a, b = _lines(old), _lines(new)
        got = diff_hunks(a, b, indent_heuristic=indent_heuristic)
        if got != want_hunks or count_changes(a, b) != want_counts:
            bad.append((old, new))
    assert not bad, f"{len(bad)} of {len(pairs)} differ from git; first: {bad[0]!r}"


# --- the oracle and the conventions, checked by hand ------------------------------


def test_split_lines() -> None:
    assert split_lines(b"") == []
    assert split_lines(b"a") == [b"a"]
    assert split_lines(b"a\n") == [b"a\n"]
    assert split_lines(b"a\nb") == [b"a\n", b"b"]
    assert split_lines(b"\n\n") == [b"\n", b"\n"]
    # Only LF ends a line; CR, VT, FF and friends are ordinary bytes.
    assert split_lines(b"a\r\nb\rc\x0bd\x0ce\x1cf\n") == [b"a\r\n", b"b\rc\x0bd\x0ce\x1cf\n"]
    assert split_lines(b"a\rb") == [b"a\rb"]


def test_parse_u0_hand_written() -> None:
    patch = (
        b"diff --git a/a b/b\n--- a/a\n+++ b/b\n"
        b"@@ -2 +2 @@ ctx\n-x\n+y\n"
        b"@@ -4,0 +5,2 @@\n+p\n+q\n"
        b"@@ -7,3 +8,0 @@ def f():\n-r\n-s\n-t\n"
        b"@@ -0,0 +1 @@\n+first\n"
    )
    assert parse_u0(patch) == [
        Hunk(1, 1, 1, 1),  # line 2 replaced
        Hunk(4, 0, 4, 2),  # two lines inserted after old line 4, i.e. before old[4]; they are new[4:6]
        Hunk(6, 3, 8, 0),  # old lines 7..9 removed; in new they sat after line 8, i.e. before new[8]
        Hunk(0, 0, 0, 1),  # inserted at the very top
    ]


def test_hand_written_case_against_git(git: Git) -> None:
    old = b"a\nb\nc\nd\n"
    new = b"a\nB\nc\nd\ne\nf\n"
    expected = [Hunk(1, 1, 1, 1), Hunk(4, 0, 4, 2)]
    assert git.hunks(old, new) == expected
    assert diff_hunks(_lines(old), _lines(new)) == expected
    assert git.numstat(old, new) == (3, 1) == count_changes(_lines(old), _lines(new))
    # Pure deletion at the top: "@@ -1,2 +0,0 @@"
    expected = [Hunk(0, 2, 0, 0)]
    assert git.hunks(b"x\ny\nz\n", b"z\n") == expected == diff_hunks([b"x\n", b"y\n", b"z\n"], [b"z\n"])


def test_header_text_matches_git(git: Git) -> None:
    """Hunk.header() renders exactly git's header (so the 0-based conversion is right both ways)."""
    rng = random.Random(3)
    alphabet = [b"a\n", b"b\n", b"c\n", b"\n"]
    for _ in range(40):
        old = [rng.choice(alphabet) for _ in range(rng.randint(0, 8))]
        new = [rng.choice(alphabet) for _ in range(rng.randint(0, 8))]
        patch = git.diff_u0(b"".join(old), b"".join(new))
        git_headers = [m.group(0).decode() for m in _HEADER.finditer(patch)]
        assert [h.header() for h in diff_hunks(old, new)] == git_headers


def test_empty_and_identical(git: Git) -> None:
    cases = [
        (b"", b""),
        (b"", b"a\nb\n"),
        (b"a\nb\n", b""),
        (b"", b"a"),
        (b"a\nb\n", b"a\nb\n"),
        (b"a", b"a\n"),  # "a" and "a\n" are different lines
        (b"a\n", b"a"),
        (b"a\nb", b"a\nb\n"),
        (b"\n", b"\n\n"),
        (b"x\n" * 500, b"x\n" * 500),
    ]
    for old, new in cases:
        assert_same_as_git(git, old, new)
    assert diff_hunks([], []) == []
    assert diff_hunks([b"a\n"], [b"a\n"]) == []
    assert count_changes([b"a\n"], [b"a\n"]) == (0, 0)
    assert diff_hunks([b"a"], [b"a\n"]) == [Hunk(0, 1, 0, 1)]
    assert diff_hunks((b"a\n",), (b"b\n",)) == [Hunk(0, 1, 0, 1)]  # any sequence type


# --- generated inputs ----------------------------------------------------------------

# Few distinct lines, so lots of repeats: blank and whitespace-only lines, braces,
# indentation by spaces and tabs (the indent heuristic), CRLF, characters git
# does not count as whitespace (VT, FF), and over-long indentation (>= 200 columns
# counts as 200, even on an otherwise blank line).
ALPHABET = [
    b"a\n",
    b"b\n",
    b"c\n",
    b"\n",
    b"\n",
    b"}\n",
    b"{\n",
    b"  }\n",
    b"\t}\n",
    b"  x\n",
    b"    y = 1\n",
    b"\tz\n",
    b" \t w\n",
    b"def f():\n",
    b"    return 1\n",
    b"   \n",
    b"a\r\n",
    b"\r\n",
    b"\x0c\n",
    b"\x0bq\n",
    b" " * 210 + b"\n",
    b" " * 205 + b"x\n",
]

lines = st.lists(st.sampled_from(ALPHABET), max_size=30)


@st.composite
def file_pairs(draw: st.DrawFn) -> tuple[bytes, bytes]:
    old = draw(lines)
    if draw(st.booleans()):
        new = draw(lines)  # unrelated
    else:
        new = list(old)  # a few edits of old
        for _ in range(draw(st.integers(0, 5))):
            pos = draw(st.integers(0, len(new)))
            op = draw(st.sampled_from(["insert", "delete", "replace"]))
            chunk = draw(st.lists(st.sampled_from(ALPHABET), min_size=1, max_size=4))
            if op == "insert":
                new[pos:pos] = chunk
            elif op == "delete":
                del new[pos : pos + len(chunk)]
            else:
                new[pos : pos + len(chunk)] = chunk
    old_b, new_b = b"".join(old), b"".join(new)
    if old_b and draw(st.booleans()):
        old_b = old_b[:-1]  # last line without newline
    if new_b and draw(st.booleans()):
        new_b = new_b[:-1]
    return old_b, new_b


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=file_pairs())
def test_generated_pairs_match_git(git: Git, pair: tuple[bytes, bytes]) -> None:
    assert_same_as_git(git, *pair)


def _edited(rng: random.Random, old: list[bytes], alphabet: list[bytes], edits: int, size: int) -> list[bytes]:
    new = list(old)
    for _ in range(edits):
        pos = rng.randint(0, len(new))
        op = rng.random()
        chunk = [rng.choice(alphabet) for _ in range(rng.randint(1, size))]
        if op < 0.4:
            new[pos:pos] = chunk
        elif op < 0.8:
            del new[pos : pos + len(chunk)]
        else:
            new[pos : pos + len(chunk)] = chunk
    return new


def test_many_random_pairs_match_git(git: Git) -> None:
    """A large seeded corpus in two git runs: small and medium files, few and many edits."""
    rng = random.Random(20240601)
    pairs = []
    for k in range(1200):
        n = rng.randint(0, 25) if k % 3 else rng.randint(30, 300)
        old = [rng.choice(ALPHABET) for _ in range(n)]
        new = _edited(rng, old, ALPHABET, rng.randint(0, 8), 4)
        old_b, new_b = b"".join(old), b"".join(new)
        if old_b and rng.random() < 0.2:
            old_b = old_b[:-1]
        if new_b and rng.random() < 0.2:
            new_b = new_b[:-1]
        pairs.append((old_b, new_b))
    assert_many_same_as_git(git, pairs)
    # The same corpus without the heuristic (git log -L runs xdiff that way).
    assert_many_same_as_git(git, pairs, indent_heuristic=False)


# --- realistic edits -------------------------------------------------------------

PY = b"""import os


def first(x):
    if x:
        return 1
    return 2


def second(y):
    for i in range(y):
        print(i)
    return y


class Thing:
    def __init__(self):
        self.a = 1

    def method(self):
        return self.a
"""

C = b"""#include <stdio.h>

int one(void)
{
\treturn 1;
}

int two(void)
{
\tif (x) {
\t\ty();
\t}
\treturn 2;
}

int three(void)
{
\treturn 3;
}
"""


def _realistic_pairs() -> Iterator[tuple[bytes, bytes]]:
    new_fn = b"\n\ndef inserted(z):\n    if z:\n        return 1\n    return 2\n"
    at = PY.index(b"\n\n\ndef second")
    yield PY, PY[:at] + new_fn + PY[at:]  # a function between functions: the classic slider
    yield PY[:at] + new_fn + PY[at:], PY  # and its removal
    block = b"    for i in range(y):\n        print(i)\n"
    yield PY, PY.replace(block, b"")  # delete a block
    yield PY, PY.replace(block, b"").replace(b"        self.a = 1\n", b"        self.a = 1\n" + block)  # move it
    yield PY, PY.replace(b"    return 2\n", b"    else:\n        return 2\n")
    yield PY, PY.replace(b"        return 1\n    return 2\n", b"        return 1\n    if not x:\n        return 2\n")
    # Wrap a block in a new indentation level.
    yield PY, PY.replace(b"    for i in range(y):\n        print(i)\n", b"    if y:\n        for i in range(y):\n            print(i)\n")
    c_fn = b"int inserted(void)\n{\n\treturn 9;\n}\n\n"
    yield C, C.replace(b"int two(void)", c_fn + b"int two(void)")
    yield C, C.replace(b"int three(void)", c_fn + b"int three(void)")
    yield C, C.replace(b"\tif (x) {\n\t\ty();\n\t}\n", b"")
    yield C, C.replace(b"\t\ty();\n", b"\t\ty();\n\t}\n\tif (w) {\n\t\tv();\n")
    yield C, C.replace(b"\n", b"\r\n")  # every line changes
    yield C + PY, PY + C  # swap two halves
    yield PY * 3, (PY * 3).replace(b"return self.a", b"return self.b", 2)


def test_realistic_code_edits_match_git(git: Git) -> None:
    pairs = list(_realistic_pairs())
    pairs += [(new, old) for old, new in pairs]
    for old, new in pairs:
        assert diff_hunks(_lines(old), _lines(new)), "every case changes something"
    assert_many_same_as_git(git, pairs)
    assert_many_same_as_git(git, pairs, indent_heuristic=False)


CODE_LINES = [
    b"def f():\n",
    b"    x = 1\n",
    b"    if y:\n",
    b"        z()\n",
    b"        return w\n",
    b"    return x\n",
    b"class C:\n",
    b"    def m(self):\n",
    b"        pass\n",
    b"{\n",
    b"}\n",
    b"\t}\n",
    b"\tint a;\n",
    b"# comment\n",
    b"else:\n",
]


def _code(rng: random.Random, n: int) -> list[bytes]:
    """Code-like lines with runs of blank lines (sometimes longer than git's 20-blank cap)."""
    out: list[bytes] = []
    while len(out) < n:
        r = rng.random()
        if r < 0.15:
            out += [b"\n"] * rng.choice([1, 1, 2, 3, 19, 20, 21, 25])
        elif r < 0.2:
            out += [rng.choice([b"    \n", b"\t\n", b"  \r\n"])]
        else:
            out.append(rng.choice(CODE_LINES))
    return out


def test_sliding_groups_match_git(git: Git) -> None:
    """Insertions and deletions that can slide: the indent heuristic picks where they go.

    A copy of a stretch inserted next to itself (or one of two equal stretches
    deleted) can sit anywhere along the repetition; long repetitions exercise
    the 100-line sliding limit, long blank runs the 20-blank cap.
    """
    rng = random.Random(99)
    pairs = []
    for k in range(1200):
        old = _code(rng, rng.randint(5, 60))
        new = list(old)
        if k % 5 == 0:
            # Whole units added to or removed from a long repetition: the group can
            # slide along all of it.  git scores at most groupsize + 1 positions and
            # at most 100, so only groups of 100+ lines meet the 100-line limit.
            unit = [rng.choice(CODE_LINES + [b"\n"]) for _ in range(rng.randint(1, 3))]
            at = rng.randint(0, len(old))
            delta = rng.choice([-2, -1, 1, 3, 99, 100, 101, 130])
            reps = rng.randint(20, 140) + max(delta, 0)
            old[at:at] = unit * reps
            new[at:at] = unit * (reps + delta)
        else:
            pos = rng.randint(0, len(old))
            size = rng.randint(1, 6)
            if rng.random() < 0.7:
                new[pos:pos] = old[pos : pos + size] or old[max(0, pos - size) : pos]
            else:
                del new[pos : pos + size]
        if rng.random() < 0.5:
            old, new = new, old
        pairs.append((b"".join(old), b"".join(new)))
    assert_many_same_as_git(git, pairs)
    assert_many_same_as_git(git, pairs, indent_heuristic=False)
    switched = [
        (old, new)
        for old, new in pairs
        if diff_hunks(_lines(old), _lines(new)) != diff_hunks(_lines(old), _lines(new), indent_heuristic=False)
    ]
    assert len(switched) > 50, "the heuristic should move many of these groups"


def test_this_repositorys_sources_match_git(git: Git) -> None:
    """Real files of this repository, edited at random and also diffed against each other."""
    rng = random.Random(7)
    files = sorted((REPO / "learnmem").rglob("*.py")) + sorted((REPO / "tests").glob("*.py"))
    texts = [f.read_bytes() for f in files if f.stat().st_size < 200_000]
    pairs = []
    for text in texts:
        old = split_lines(text)
        vocab = old or [b"\n"]
        pairs.append((text, b"".join(_edited(rng, old, vocab, rng.randint(1, 10), 6))))
    pairs += pairwise(texts)
    assert_many_same_as_git(git, pairs)


# --- git's cut-offs and tail trimming ------------------------------------------------


def test_cost_limit_heuristics_match_git(git: Git) -> None:
    """Large, very different files: Myers gives up at mxcost and takes the furthest point.

    The first cases are checked to really be non-minimal (git --minimal finds
    fewer changes), so the test fails if it ever stops exercising the cut-off;
    the seeded mix after them includes ties between the forward and backward
    furthest points.
    """
    rng = random.Random(11)
    alphabet = ALPHABET[:12] + [b"line %d\n" % i for i in range(30)]
    pairs = []
    for _ in range(2):
        old = [rng.choice(alphabet) for _ in range(3000)]
        new = _edited(rng, old, alphabet, 700, 4)
        pairs.append((b"".join(old), b"".join(new)))
    pairs.append((b"".join(rng.choice(alphabet) for _ in range(3000)), b"".join(rng.choice(alphabet) for _ in range(3200))))
    for old_b, new_b in pairs:
        assert sum(git.numstat(old_b, new_b, "--minimal")) < sum(git.numstat(old_b, new_b))
    for seed in range(15):
        rng = random.Random(seed)
        alphabet = ALPHABET[: rng.choice([4, 8, 12])] + [b"line %d\n" % i for i in range(rng.choice([0, 10, 30]))]
        n = rng.choice([600, 1000, 2000])
        old = [rng.choice(alphabet) for _ in range(n)]
        if rng.random() < 0.5:
            new = _edited(rng, old, alphabet, n // 4, 4)
        else:
            new = [rng.choice(alphabet) for _ in range(n)]
        pairs.append((b"".join(old), b"".join(new)))
    assert_many_same_as_git(git, pairs)


def _repetitive_pair(seed: int, size: int) -> tuple[list[bytes], list[bytes]]:
    """Files made of a few recurring ~20-line blocks: long snakes, and many ways to match them.

    The new file is either built the same way or is the old one with blocks
    inserted and runs deleted every 10-40 lines.
    """
    rng = random.Random(seed)
    n_blocks = rng.choice([3, 8, 30])
    vocab = [b"line %d\n" % i for i in range(rng.choice([20, 200]))]
    blocks = [[rng.choice(vocab) for _ in range(rng.randint(18, 26))] for _ in range(n_blocks)]

    def build() -> list[bytes]:
        out: list[bytes] = []
        while len(out) < size:
            out += rng.choice(blocks)
            out += [rng.choice(vocab) for _ in range(rng.randint(0, 3))]
        return out

    old = build()
    if rng.random() < 0.5:
        return old, build()
    new: list[bytes] = []
    i = 0
    while i < len(old):
        run = rng.randint(10, 40)
        new += old[i : i + run]
        i += run
        if rng.random() < 0.5:
            new += rng.choice(blocks)
        else:
            i += rng.randint(1, 20)
    return old, new


def test_snake_heuristic_on_huge_files_matches_git(git: Git, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past XDL_HEUR_MIN_COST git splits at a far diagonal ending in a 20-line snake.

    That only happens when mxcost > 256, i.e. for files of >= ~32k lines each
    (xdl_bogosqrt(n1 + n2 + 3) >= 512), with many edits between long equal runs.
    On this input the choice among candidate diagonals matters (changing
    XDL_K_HEUR, the distance penalty or the snake length changes the port's
    output), and the port's answer must change when the heuristic is off, or
    this case would not be testing it.
    """
    old, new = _repetitive_pair(2, 34_000)
    old_b, new_b = b"".join(old), b"".join(new)
    hunks = diff_hunks(old, new)
    assert hunks == git.hunks(old_b, new_b)
    assert count_changes(old, new) == git.numstat(old_b, new_b)
    monkeypatch.setattr(myers, "_HEUR_MIN_COST", 10**9)
    assert diff_hunks(old, new) != hunks


def test_cost_limit_counts_all_kept_lines(git: Git) -> None:
    """mxcost comes from every line that survives cleanup, not just the first box.

    Here 8,000 equal lines follow a discarded first line; without them the
    kept lines would number < 65,536 (mxcost 256), with them >= 65,536 (mxcost 512).
    """
    old, new = _repetitive_pair(4, 28_000)
    shared = _repetitive_pair(104, 8_000)[0]
    old = shared + old
    new = [b"unique first line\n"] + shared + new
    assert len(old) + len(new) - 8_000 * 2 < 65_536 <= len(old) + len(new)
    old_b, new_b = b"".join(old), b"".join(new)
    assert diff_hunks(old, new) == git.hunks(old_b, new_b)
    assert count_changes(old, new) == git.numstat(old_b, new_b)


def test_zero_context_trims_common_tail_like_git(git: Git) -> None:
    """git cuts a common tail (1 KiB blocks, to a line end) for -U0 but not for --numstat.

    Here the tail holds 300 copies of "a": with it, the "a" between the
    rewritten blocks is a multimatch line and is discarded (one hunk of 21);
    without it, "a" matches (two hunks of 10).  git reports both: numstat 21/21,
    -U0 two hunks.
    """
    tail = [b"f" * 99 + b"\n"] * 10 + [b"a\n"] * 300
    old = [b"old u%d\n" % i for i in range(10)] + [b"a\n"] + [b"old v%d\n" % i for i in range(10)] + tail
    new = [b"new u%d\n" % i for i in range(10)] + [b"a\n"] + [b"new v%d\n" % i for i in range(10)] + tail
    old_b, new_b = b"".join(old), b"".join(new)
    assert git.hunks(old_b, new_b) == [Hunk(0, 10, 0, 10), Hunk(11, 10, 11, 10)] == diff_hunks(old, new)
    assert git.numstat(old_b, new_b) == (21, 21) == count_changes(old, new)
    assert diff_hunks(old, new, trim_common_tail=False) == [Hunk(0, 21, 0, 21)]


def test_tail_trimming_moves_hunks_like_git(git: Git) -> None:
    """Where the cut lands just after a slidable group, git -U0 places it differently."""
    rng = random.Random(5)
    alphabet = [b"a\n", b"\n", b"}\n", b"  x\n", b"    y\n", b"\tz\n", b"  }\n"]
    filler = [b"f" * 63 + b"\n"] * 16  # exactly 1 KiB
    pairs = []
    for _ in range(600):
        # head + slack + tail, where the tail (t, padding, filler) is a whole number of KiB,
        # so git's cut lands right after t[0]; lines are inserted into the slack.
        head = [rng.choice(alphabet) for _ in range(rng.randint(0, 10))]
        slack = [rng.choice(alphabet) for _ in range(rng.randint(0, 4))]
        t = [rng.choice(alphabet) for _ in range(rng.randint(1, 6))]
        pad = -sum(map(len, t)) % 1024
        tail = t + ([b"p" * (pad - 1) + b"\n"] if pad > 1 else []) + filler
        old = head + slack + tail
        pos = rng.randint(len(head), len(head) + len(slack))
        new = old[:pos] + [rng.choice(alphabet) for _ in range(rng.randint(1, 3))] + old[pos:]
        if rng.random() < 0.5:
            old, new = new, old
        pairs.append((b"".join(old), b"".join(new)))
    moved = [
        (old, new)
        for old, new in pairs
        if diff_hunks(_lines(old), _lines(new)) != diff_hunks(_lines(old), _lines(new), trim_common_tail=False)
    ]
    assert len(moved) >= 5, "the corpus should contain cases where trimming matters"
    assert_many_same_as_git(git, pairs)


def test_tail_trimming_at_block_edges_matches_git(git: Git) -> None:
    """The 1 KiB cut when the identical byte tail reaches into the last differing lines.

    b"A...xyz\n" and b"B...xyz\n" share a byte suffix; with the identical
    lines after them it may or may not complete a 1 KiB block, which decides
    whether the cut lands in the differing line (and then at its end) or lower.
    Also long last lines without a newline, where git finds no line end to cut at.
    """
    rng = random.Random(8)
    alphabet = [b"a\n", b"\n", b"}\n", b"  x\n", b"\tz\n"]
    pairs = []
    for _ in range(500):
        shared = b"s" * rng.randint(0, 1100)
        end = b"" if rng.random() < 0.3 else b"\n"
        x = b"A" * rng.randint(0, 3) + shared + end
        y = b"B" * rng.randint(1, 3) + shared + end
        tail: list[bytes] = []
        if end:
            target = rng.choice([1024, 2048]) - len(shared) - 1 + rng.randint(-40, 40)
            while sum(map(len, tail)) < target:
                tail.append(rng.choice(alphabet))
            r = rng.random()
            if r < 0.2:
                tail.append(b"no newline")
            elif r < 0.5:  # a last line longer than a block: the cut falls inside it
                tail.append(b"L" * rng.randint(1030, 1100))
        head = [rng.choice(alphabet) for _ in range(rng.randint(0, 8))]
        ins = [rng.choice(alphabet) for _ in range(rng.randint(0, 2))]
        at = rng.randint(0, len(head))
        old = head + [x] + tail
        new = head[:at] + ins + head[at:] + [y] + tail
        if rng.random() < 0.5:
            old, new = new, old
        pairs.append((b"".join(old), b"".join(new)))
    for _ in range(400):
        # Short files ending in one long identical line without newline: git cannot cut.
        head = [rng.choice(alphabet) for _ in range(rng.randint(0, 6))]
        edited = list(head)
        at = rng.randint(0, len(edited))
        edited[at:at] = [rng.choice(alphabet) for _ in range(rng.randint(1, 2))]
        last = b"L" * rng.randint(1024, 1100)
        old, new = head + [last], edited + [last]
        if rng.random() < 0.5:
            old, new = new, old
        pairs.append((b"".join(old), b"".join(new)))
    assert_many_same_as_git(git, pairs)


# --- this repository's history ---------------------------------------------------------


def _repo_git(git: Git, *args: str) -> bytes:
    cmd = [
        "git",
        "-C",
        str(REPO),
        "-c",
        "safe.directory=*",
        "-c",
        "core.quotepath=off",
        # The repository's own config is read; pin what would change the oracle.
        "-c",
        "diff.algorithm=default",
        "-c",
        "diff.indentHeuristic=true",
        "-c",
        "diff.context=3",
        *args,
    ]
    return subprocess.run(cmd, env=git.env, capture_output=True, check=True).stdout


def _blobs(git: Git, specs: list[str]) -> list[bytes]:
    """Contents of `rev:path` specs via one `git cat-file --batch`; b"" where missing."""
    proc = subprocess.run(
        ["git", "-C", str(REPO), "-c", "safe.directory=*", "cat-file", "--batch"],
        input="".join(s + "\n" for s in specs).encode(),
        env=git.env,
        capture_output=True,
        check=True,
    )
    out = proc.stdout
    pos = 0
    blobs = []
    for _ in specs:
        eol = out.index(b"\n", pos)
        header = out[pos:eol].split()
        if header[-1] == b"missing":
            blobs.append(b"")
            pos = eol + 1
            continue
        size = int(header[2])
        blobs.append(out[eol + 1 : eol + 1 + size])
        pos = eol + 1 + size + 1
    return blobs


def test_this_repositorys_history_matches_git(git: Git) -> None:
    """Every file change in this repository's history: numstat counts and -U0 hunks."""
    probe = subprocess.run(
        ["git", "-C", str(REPO), "-c", "safe.directory=*", "rev-parse", "HEAD"],
        env=git.env,
        capture_output=True,
        check=False,
    )
    if probe.returncode != 0:
        pytest.skip("not a git checkout")
    common = ["--no-renames", "--no-textconv", "--no-ext-diff", "--format=%x00%H %P"]
    numstat = _repo_git(git, "log", "--numstat", *common)
    patches = _repo_git(git, "log", "-p", "-U0", "--no-color", *common)

    changes: list[tuple[str, str | None, str, tuple[int, int]]] = []  # (commit, parent, path, counts)
    for chunk in numstat.split(b"\0")[1:]:
        head, _, body = chunk.partition(b"\n")
        commit, *parents = head.decode().split()
        if len(parents) > 1:
            continue  # merges show no diff by default
        for line in body.decode().splitlines():
            if not line.strip():
                continue
            ins, dels, path = line.split("\t", 2)
            if ins == "-":
                continue  # binary
            changes.append((commit, parents[0] if parents else None, path, (int(ins), int(dels))))

    expected_hunks: dict[tuple[str, str], list[Hunk]] = {}
    for chunk in patches.split(b"\0")[1:]:
        head, _, body = chunk.partition(b"\n")
        commit = head.decode().split()[0]
        for section in re.split(rb"^diff --git ", body, flags=re.MULTILINE)[1:]:
            m = re.search(rb"^\+\+\+ b/(.*)$", section, re.MULTILINE) or re.search(rb"^--- a/(.*)$", section, re.MULTILINE)
            if m is None:
                continue  # binary or mode-only change
            expected_hunks[(commit, m.group(1).rstrip(b"\t").decode())] = parse_u0(section)

    assert changes, "the history should have file changes"
    # Old side from the parent (a root commit's files are new: empty old side).
    specs = [f"{parent}:{path}" for _, parent, path, _ in changes if parent] + [f"{c}:{p}" for c, _, p, _ in changes]
    blobs = iter(_blobs(git, specs))
    olds = [next(blobs) if parent else b"" for _, parent, _, _ in changes]
    mismatches = []
    for (commit, _parent, path, counts), old_b, new_b in zip(changes, olds, blobs):
        old, new = split_lines(old_b), split_lines(new_b)
        if count_changes(old, new) != counts:
            mismatches.append(("numstat", commit, path, counts, count_changes(old, new)))
        want = expected_hunks.get((commit, path))
        if want is not None and diff_hunks(old, new) != want:
            mismatches.append(("hunks", commit, path))
    assert not mismatches, mismatches[:5]
    assert len(expected_hunks) >= len(changes) // 2, "the -U0 log should have been parsed"


# --- speed ---------------------------------------------------------------------------


def test_scattered_edits_in_a_large_file_give_one_hunk_each() -> None:
    """Five one-line edits in a 2,000-line file: five hunks (the speed of this case is in bench/git)."""
    src = b"".join(f.read_bytes() for f in sorted((REPO / "learnmem").rglob("*.py")))
    old = split_lines(src)
    old = (old * (2000 // len(old) + 1))[:2000]
    new = list(old)
    for k, pos in enumerate((150, 600, 1000, 1400, 1900)):
        new[pos : pos + 1] = [b"    edited_%d()\n" % k]
    hunks = diff_hunks(old, new)
    assert [(h.old_count, h.new_count) for h in hunks] == [(1, 1)] * 5
    assert count_changes(old, new) == (5, 5)
