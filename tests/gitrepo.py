"""Real git repositories for tests, built with the git CLI in a clean, fixed environment.

git is used here only to *build* repositories and as an oracle (what does
`git blame` / `git log -L` say?); learnmem itself never runs git.  Every
command runs with no system or global config (HOME points into the test's
temporary folder), a fixed identity and explicit dates, so hashes and the
order of commits are the same on every machine.

- `GitRepo`: init, write files, commit (each commit one minute after the last,
  unless a time is given), branch, merge, clone; `fast_import` builds many
  commits in one git process (for random or long histories).
- `git_blame` / `git_line_log`: the oracles, parsed.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

BASE_TIME = 1_700_000_000  # 2023-11-14, an arbitrary fixed start
NAME, EMAIL = "Test Author", "author@example.com"


def clean_env(home: Path) -> dict[str, str]:
    """An environment in which git reads no user or system configuration."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        "GIT_AUTHOR_NAME": NAME,
        "GIT_AUTHOR_EMAIL": EMAIL,
        "GIT_COMMITTER_NAME": NAME,
        "GIT_COMMITTER_EMAIL": EMAIL,
        "LANG": "C",
        "LC_ALL": "C",
        "TZ": "UTC",
    }
    return env


def run_git(cwd: Path, home: Path, *args: str, input: bytes | None = None,
            env: dict[str, str] | None = None, check: bool = True) -> subprocess.CompletedProcess:
    full_env = clean_env(home)
    if env:
        full_env.update(env)
    result = subprocess.run(["git", *args], cwd=cwd, env=full_env, input=input, capture_output=True, check=False)
    if check and result.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed ({result.returncode}): {result.stderr.decode(errors='replace')}")
    return result


@dataclass
class GitRepo:
    """A work tree under `path`; `home` is the fake HOME all its git commands run with."""

    path: Path
    home: Path
    clock: int = BASE_TIME

    @classmethod
    def init(cls, path: Path, branch: str = "main") -> GitRepo:
        path.mkdir(parents=True, exist_ok=True)
        home = path.parent / (path.name + "-home")
        home.mkdir(parents=True, exist_ok=True)
        repo = cls(path, home)
        repo.git("init", "-q", "-b", branch)
        repo.git("config", "user.name", NAME)
        repo.git("config", "user.email", EMAIL)
        repo.git("config", "core.autocrlf", "false")
        repo.git("config", "commit.gpgsign", "false")
        return repo

    def git(self, *args: str, input: bytes | None = None, check: bool = True,
            env: dict[str, str] | None = None) -> str:
        return run_git(self.path, self.home, *args, input=input, env=env, check=check).stdout.decode(
            "utf-8", "replace")

    def write(self, relpath: str, content: str | bytes) -> None:
        target = self.path / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)

    def lines(self, relpath: str, lines: list[str], newline_at_end: bool = True) -> None:
        """Write a file from lines (without their newlines)."""
        text = "\n".join(lines) + ("\n" if newline_at_end and lines else "")
        self.write(relpath, text)

    def read(self, relpath: str) -> str:
        return (self.path / relpath).read_text()

    def _dates(self, when: int | None) -> dict[str, str]:
        if when is None:
            self.clock += 60
            when = self.clock
        stamp = f"@{when} +0000"
        return {"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}

    def commit(self, message: str = "change", when: int | None = None) -> str:
        """Stage everything and commit; returns the new commit's sha."""
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message, env=self._dates(when))
        return self.head()

    def merge(self, branch: str, message: str = "merge", when: int | None = None) -> bool:
        """Merge `branch` into the current branch; False if it stopped on conflicts (resolve, then `commit`)."""
        result = run_git(self.path, self.home, "merge", "--no-ff", "-q", "-m", message, branch,
                         env=self._dates(when), check=False)
        return result.returncode == 0

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").strip()

    def rev(self, name: str) -> str:
        return self.git("rev-parse", name).strip()

    def clone(self, target: Path, *args: str) -> GitRepo:
        run_git(target.parent, self.home, "clone", "-q", *args, f"file://{self.path}", str(target))
        return GitRepo(target, self.home, self.clock)


@dataclass
class FastCommit:
    """One commit for `fast_import`: the full tree (path -> content), parents as indexes of earlier commits."""

    files: dict[str, bytes]
    parents: list[int] = field(default_factory=list)
    when: int = BASE_TIME
    message: str = "change"
    modes: dict[str, str] = field(default_factory=dict)  # path -> "100755" / "120000"


def fast_import(path: Path, commits: list[FastCommit], branch: str = "main") -> list[str]:
    """Create a repository at `path` holding `commits` (in one `git fast-import`); returns their shas.

    The last commit is the tip of `branch`, checked out (HEAD).
    """
    repo = GitRepo.init(path, branch)
    chunks: list[bytes] = []
    for index, commit in enumerate(commits):
        message = commit.message.encode()
        chunks.append(f"reset refs/heads/tmp{index}\n".encode())
        chunks.append(f"commit refs/heads/tmp{index}\nmark :{index + 1}\n".encode())
        chunks.append(f"author {NAME} <{EMAIL}> {commit.when} +0000\n".encode())
        chunks.append(f"committer {NAME} <{EMAIL}> {commit.when} +0000\n".encode())
        chunks.append(b"data %d\n%s\n" % (len(message), message))
        for position, parent in enumerate(commit.parents):
            keyword = "from" if position == 0 else "merge"
            chunks.append(f"{keyword} :{parent + 1}\n".encode())
        chunks.append(b"deleteall\n")
        for name, content in sorted(commit.files.items()):
            mode = commit.modes.get(name, "100644")
            chunks.append(f"M {mode} inline {name}\n".encode())
            chunks.append(b"data %d\n%s\n" % (len(content), content))
        chunks.append(b"\n")
    marks = path.parent / (path.name + "-marks")
    run_git(path, repo.home, "fast-import", "--quiet", f"--export-marks={marks}", input=b"".join(chunks))
    by_mark = {}
    for line in marks.read_text().splitlines():
        mark, sha = line.split()
        by_mark[int(mark[1:])] = sha
    shas = [by_mark[i + 1] for i in range(len(commits))]
    repo.git("update-ref", f"refs/heads/{branch}", shas[-1])
    for index in range(len(commits)):
        repo.git("update-ref", "-d", f"refs/heads/tmp{index}")
    repo.git("checkout", "-q", "-f", branch, check=False)  # HEAD is the branch even if a file cannot be written
    return shas


# -- oracles ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BlameLine:
    sha: str
    original_line: int
    original_path: str
    boundary: bool


_HEADER = re.compile(r"^([0-9a-f]{40}) (\d+) (\d+)(?: (\d+))?$")


def git_blame(repo_path: Path, home: Path, rev: str, path: str, start: int | None = None,
              end: int | None = None) -> tuple[list[BlameLine], list[tuple[int, int]]]:
    """`git blame --line-porcelain`: per final line (sha, original line, original path, boundary),
    and the groups git prints (first final line, number of lines)."""
    args = ["blame", "--line-porcelain"]
    if start is not None:
        args += ["-L", f"{start},{end}"]
    out = run_git(repo_path, home, *args, rev, "--", path).stdout
    lines: list[BlameLine] = []
    groups: list[tuple[int, int]] = []
    current: dict = {}
    for raw in out.split(b"\n"):
        if raw.startswith(b"\t"):
            lines.append(BlameLine(current["sha"], current["orig"], current["filename"], current.get("boundary", False)))
            current = {}
            continue
        text = raw.decode("utf-8", "backslashreplace")
        match = _HEADER.match(text)
        if match and "sha" not in current:
            current = {"sha": match.group(1), "orig": int(match.group(2))}
            if match.group(4):
                groups.append((int(match.group(3)), int(match.group(4))))
        elif text.startswith("filename "):
            current["filename"] = text[len("filename "):]
        elif text == "boundary":
            current["boundary"] = True
    return lines, groups


def git_line_log(repo_path: Path, home: Path, rev: str, path: str, start: int, end: int
                 ) -> list[tuple[str, list[tuple[str, int, int]]]]:
    """`git log -L start,end:path rev`: per commit, newest first, the (path, first, last line) of each hunk git prints."""
    out = run_git(repo_path, home, "log", "--format=COMMIT %H", f"-L{start},{end}:{path}", rev).stdout
    commits: list[tuple[str, list[tuple[str, int, int]]]] = []
    current_path = None
    for raw in out.decode("utf-8", "backslashreplace").split("\n"):
        if raw.startswith("COMMIT "):
            commits.append((raw.split()[1], []))
        elif raw.startswith("+++ b/"):
            current_path = raw[len("+++ b/"):]
        elif raw.startswith("@@ "):
            match = re.match(r"^@@ -\d+,\d+ \+(\d+),(\d+) @@", raw)
            first, count = int(match.group(1)), int(match.group(2))
            commits[-1][1].append((current_path, first, first + count - 1))
    return commits


def blame_per_line(ranges) -> list[BlameLine]:
    """learnmem's BlameRange list expanded to one BlameLine per final line."""
    out = []
    for r in ranges:
        for k in range(r.end_line - r.start_line + 1):
            out.append(BlameLine(r.sha, r.original_start_line + k, r.original_path, r.boundary))
    return out


# -- a shared history with the cases blame and log -L must get right ------------------------------


def _functions(names_bodies: list[tuple[str, list[str]]]) -> list[str]:
    """Python functions separated by blank lines."""
    out: list[str] = []
    for name, body in names_bodies:
        if out:
            out.append("")
        out.append(f"def {name}():")
        out.extend("    " + line for line in body)
    return out


def build_scenario(path: Path) -> GitRepo:
    """A repository whose history holds the cases blame and line history must agree with git on.

    Files at the end (branch main, HEAD): `src/core.py` (renamed from `src/app.py`, above 50 %
    similar, through edits in the middle, an inserted function, deletions, a clean merge and a
    merge with a conflict resolved by hand), `lib/new_name.py` (renamed from `lib/old_name.py`
    with most lines rewritten: below 50 %, so not followed), `data.bin` (binary), `noeol.txt`
    (no trailing newline), `crlf.txt` (CRLF lines), `empty.txt`, `README.md`.
    """
    repo = GitRepo.init(path)
    funcs = [
        ("alpha", ["x = 1", "y = 2", "return x + y"]),
        ("beta", ["items = []", "for i in range(3):", "    items.append(i)", "return items"]),
        ("gamma", ["return 'gamma'"]),
    ]
    repo.lines("src/app.py", _functions(funcs))
    repo.lines("README.md", ["# Project", "", "Some text.", "More text."])
    repo.lines("lib/old_name.py", [f"OLD_{i} = {i}" for i in range(10)])
    repo.write("data.bin", b"\x00\x01header\n\x02body line\n\x00tail\n")
    repo.write("noeol.txt", "first\nsecond")
    repo.write("crlf.txt", b"one\r\ntwo\r\nthree\r\n")
    repo.write("empty.txt", b"")
    repo.commit("initial")

    funcs[0] = ("alpha", ["x = 1", "y = 20", "return x + y"])  # an edit in the middle of a function
    repo.lines("src/app.py", _functions(funcs))
    repo.write("noeol.txt", "first\nsecond\nthird")  # the old last line gains a newline
    repo.write("crlf.txt", b"one\r\nTWO\r\nthree\r\n")
    repo.commit("edit alpha")

    funcs.insert(1, ("delta", ["value = 'inserted between functions'", "return value"]))
    repo.lines("src/app.py", _functions(funcs))
    repo.write("data.bin", b"\x00\x01header\n\x02body line changed\n\x00tail\n\x00more\n")
    repo.commit("insert delta")

    funcs[2] = ("beta", ["items = []", "return items"])  # lines deleted
    repo.lines("src/app.py", _functions(funcs))
    repo.lines("README.md", ["# Project", "", "More text.", "Added at the end."])
    repo.commit("shrink beta")

    # Two branches editing different lines, merged cleanly.
    repo.git("checkout", "-q", "-b", "feature")
    funcs[0] = ("alpha", ["x = 1", "y = 20", "z = 'feature'", "return x + y"])
    repo.lines("src/app.py", _functions(funcs))
    repo.commit("feature: alpha")
    repo.git("checkout", "-q", "main")
    funcs_main = list(funcs)
    funcs_main[0] = ("alpha", ["x = 1", "y = 20", "return x + y"])
    funcs_main[3] = ("gamma", ["return 'GAMMA'"])
    repo.lines("src/app.py", _functions(funcs_main))
    repo.commit("main: gamma")
    assert repo.merge("feature", "merge feature")
    funcs[3] = ("gamma", ["return 'GAMMA'"])

    # Both branches change the same line: a conflict, resolved by hand.
    repo.git("checkout", "-q", "-b", "other")
    theirs = list(funcs)
    theirs[1] = ("delta", ["value = 'other side'", "return value"])
    repo.lines("src/app.py", _functions(theirs))
    repo.commit("other: delta")
    repo.git("checkout", "-q", "main")
    ours = list(funcs)
    ours[1] = ("delta", ["value = 'main side'", "return value"])
    repo.lines("src/app.py", _functions(ours))
    repo.commit("main: delta")
    assert not repo.merge("other", "merge other")
    funcs[1] = ("delta", ["value = 'main side'", "extra = 'other side'", "return value + extra"])
    repo.lines("src/app.py", _functions(funcs))
    repo.commit("merge other (conflict resolved by hand)")

    # A whole-file rename with a small edit (followed) ...
    repo.git("mv", "src/app.py", "src/core.py")
    funcs[2] = ("beta", ["items = ['renamed']", "return items"])
    repo.lines("src/core.py", _functions(funcs))
    # ... and one that rewrites most lines (below 50 %: a new file for git).
    repo.git("mv", "lib/old_name.py", "lib/new_name.py")
    repo.lines("lib/new_name.py", [f"OLD_{i} = {i}" for i in range(3)] + [f"NEW_{i} = {i * i}" for i in range(12)])
    repo.commit("rename app -> core, old_name -> new_name")

    funcs.append(("epsilon", ["return 'appended'"]))
    repo.lines("src/core.py", _functions(funcs))
    repo.commit("append epsilon")
    return repo


SCENARIO_FILES = ["src/core.py", "lib/new_name.py", "data.bin", "noeol.txt", "crlf.txt", "README.md"]


# -- random histories (for property tests) ---------------------------------------------------------

ALPHABET = [b"a\n", b"b\n", b"c\n", b"\n", b"    x\n", b"    y\n", b"}\n", b"{\n", b"def f():\n", b"\tz\n"]


def _mutate(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    lines = list(lines)
    for _ in range(rng.randint(1, 4)):
        pos = rng.randint(0, len(lines))
        op = rng.random()
        if op < 0.4:
            lines[pos:pos] = [rng.choice(ALPHABET) for _ in range(rng.randint(1, 4))]
        elif op < 0.7 and lines:
            del lines[pos : pos + rng.randint(1, 3)]
        elif lines:
            lines[min(pos, len(lines) - 1)] = rng.choice(ALPHABET)
    return lines


def random_history(seed: int, size: int) -> tuple[list[FastCommit], str]:
    """A small random history of one file: edits, branches, merges (clean or rewritten), renames, skewed clocks."""
    rng = random.Random(seed)
    commits: list[FastCommit] = []
    contents: list[list[bytes]] = []
    paths: list[str] = []
    when = BASE_TIME
    for i in range(size):
        if i == 0:
            parents: list[int] = []
            lines = [rng.choice(ALPHABET) for _ in range(rng.randint(0, 25))]
            path = "f.txt"
        elif i >= 2 and rng.random() < 0.3:
            parents = rng.sample(range(i), 2)
            one, two = contents[parents[0]], contents[parents[1]]
            lines = [one, two, one[: len(one) // 2] + two[len(two) // 2 :]][rng.randint(0, 2)]
            if rng.random() < 0.6:
                lines = _mutate(rng, lines)
            path = paths[rng.choice(parents)]
        else:
            parents = [rng.randrange(i) if rng.random() < 0.3 else i - 1]
            lines = _mutate(rng, contents[parents[0]])
            path = paths[parents[0]]
            if rng.random() < 0.15:
                path = rng.choice(["g.txt", "d/f.txt", "h.txt"])
        if lines and rng.random() < 0.1:
            lines = lines[:-1] + [lines[-1].rstrip(b"\n") or b"x"]  # no newline at the end
        lines = [line if line.endswith(b"\n") or j == len(lines) - 1 else line + b"\n" for j, line in enumerate(lines)]
        contents.append(lines)
        paths.append(path)
        when += rng.choice([60, 60, 60, 0, -30])
        files = {path: b"".join(lines)}
        if rng.random() < 0.3:
            files["other.txt"] = b"x\n" * rng.randint(1, 3)
        commits.append(FastCommit(files, parents, when, f"c{i}"))
    return commits, paths[-1]
