"""Git history: real repositories built with dulwich, every stored number checked against git itself.

`git` is the oracle only: it reads what dulwich wrote and what learnmem stored must agree
with `git log --numstat --diff-merges=first-parent` (per commit and per file), `%aN/%aE`
(mailmap), `git log --follow`, `git blame --porcelain` and counts computed from
`git log --no-merges --numstat --since/--until`. Then incremental and rewritten history,
search with the real model, and bad input (not a repository, empty, bare, detached,
shallow, corrupt objects, bad arguments).
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import NamedTuple

import pytest
from dulwich.index import commit_tree
from dulwich.objects import Blob, Commit
from dulwich.repo import Repo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import learnmem
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import LearnmemError, NotFoundError, ValidationError

HERE = Path(__file__).resolve().parents[2]  # this project's own repository

# --- git, the oracle ---------------------------------------------------------------------------------

_GIT_HOME = tempfile.mkdtemp(prefix="learnmem-git-home-")
GIT_ENV = {
    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    "HOME": _GIT_HOME,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "LC_ALL": "C",
    "TZ": "UTC",
}


def git(cwd: Path, *args: str | bytes) -> bytes:
    result = subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, capture_output=True, check=False)
    assert result.returncode == 0, f"git {args}: {result.stderr.decode(errors='replace')}"
    return result.stdout


def utc(seconds: int | str) -> datetime:
    return datetime(1970, 1, 1) + timedelta(seconds=int(seconds))


def raw_path(path: str) -> bytes:
    """The inverse of text_path for the escapes used here."""
    return re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m[1], 16)]), path.encode())


def text_path(raw: bytes) -> str:
    """A git path as learnmem stores it: UTF-8, undecodable bytes as \\xNN escapes."""
    return raw.decode("utf-8", "backslashreplace")


CHANGE_TYPES = {"A": "add", "M": "modify", "T": "modify", "D": "delete", "R": "rename"}
_RAW = re.compile(rb"^:(\d{6}) (\d{6}) ([0-9a-f]{40}) ([0-9a-f]{40}) ([A-Z])(\d*)$")
_NUMSTAT = re.compile(rb"^(\d+|-)\t(\d+|-)\t(.*)$", re.DOTALL)
_HEADER = "%H%x1f%P%x1f%aN%x1f%aE%x1f%cN%x1f%cE%x1f%at%x1f%ct%x1f%s"


@dataclass
class GitFile:
    path: str
    old_path: str | None
    change_type: str
    insertions: int
    deletions: int
    binary: bool


@dataclass
class GitCommit:
    sha: str
    parents: list[str]
    author: str
    author_email: str
    committer: str
    committer_email: str
    authored_at: datetime
    committed_at: datetime
    subject: str
    files: dict[str, GitFile] = field(default_factory=dict)


def git_log(cwd: Path, *args: str | bytes) -> dict[str, GitCommit]:
    """`git log -z --raw --numstat --diff-merges=first-parent` parsed: sha -> commit with its files."""
    out = git(cwd, "-c", "core.quotepath=false", "log", "-z", "--raw", "--numstat", "--no-abbrev",
              "--diff-merges=first-parent", f"--format=%x1e{_HEADER}", *args)
    commits: dict[str, GitCommit] = {}
    for record in out.split(b"\x1e")[1:]:
        header, _, rest = record.partition(b"\0")
        sha, parents, an, ae, cn, ce, at, ct, subject = header.decode("utf-8", "replace").split("\x1f")
        commit = GitCommit(sha, parents.split(), an, ae, cn, ce, utc(at), utc(ct), subject)
        tokens = rest.lstrip(b"\n").split(b"\0")
        statuses: dict[str, tuple[str, str | None]] = {}
        i = 0
        while i < len(tokens):
            token = tokens[i]
            raw = _RAW.match(token)
            numstat = None if raw else _NUMSTAT.match(token)
            if raw:
                status = raw[5].decode()
                if status in "RC":
                    statuses[text_path(tokens[i + 2])] = (status, text_path(tokens[i + 1]))
                    i += 3
                else:
                    statuses[text_path(tokens[i + 1])] = (status, None)
                    i += 2
            elif numstat:
                if numstat[3] == b"":
                    path = text_path(tokens[i + 2])
                    i += 3
                else:
                    path = text_path(numstat[3])
                    i += 1
                status, old_path = statuses[path]
                binary = numstat[1] == b"-"
                commit.files[path] = GitFile(
                    path, old_path, CHANGE_TYPES[status],
                    0 if binary else int(numstat[1]), 0 if binary else int(numstat[2]), binary,
                )
            else:
                assert token.strip() == b"", f"unparsed git output {token!r}"
                i += 1
        assert set(statuses) == set(commit.files), sha
        commits[sha] = commit
    return commits


def git_messages(cwd: Path, *revs: str) -> dict[str, str]:
    out = git(cwd, "log", "-z", "--format=%H%x1f%B", *revs)
    messages = {}
    for record in out.split(b"\0"):
        if record.strip():
            sha, _, body = record.partition(b"\x1f")
            messages[sha.decode().strip()] = body.decode("utf-8", "replace").strip("\n")
    return messages


def git_tree(cwd: Path, sha: str) -> dict[str, tuple[str, str]]:
    out = git(cwd, "ls-tree", "-r", "-z", "--full-tree", sha)
    entries = {}
    for line in out.split(b"\0"):
        if line:
            meta, _, path = line.partition(b"\t")
            mode, _, blob = meta.decode().split(" ")
            entries[text_path(path)] = (mode, blob)
    return entries


class CommitRow(NamedTuple):
    parents: list[str]
    subject: str
    message: str
    author: str
    author_email: str
    committer: str
    committer_email: str
    authored_at: datetime
    committed_at: datetime
    insertions: int
    deletions: int
    files_changed: int
    is_merge: bool


class FileRow(NamedTuple):
    old_path: str | None
    change_type: str
    insertions: int
    deletions: int
    is_binary: bool
    from_merged: bool


def expected_rows(cwd: Path, *revs: str) -> tuple[dict, dict]:
    """What the `commits` and `commit_files` tables must hold, straight from git."""
    log = git_log(cwd, *revs)
    messages = git_messages(cwd, *revs)
    commits, files = {}, {}
    for sha, c in log.items():
        commits[sha] = CommitRow(
            c.parents, c.subject, messages[sha], c.author, c.author_email, c.committer, c.committer_email,
            c.authored_at, c.committed_at, sum(f.insertions for f in c.files.values()),
            sum(f.deletions for f in c.files.values()), len(c.files), len(c.parents) > 1,
        )
        others = [git_tree(cwd, parent) for parent in c.parents[1:]]
        tree = git_tree(cwd, sha) if others else {}
        for path, f in c.files.items():
            merged = any(tree.get(path) == other.get(path) for other in others)
            files[(sha, path)] = FileRow(f.old_path, f.change_type, f.insertions, f.deletions, f.binary, merged)
    return commits, files


def stored_rows(lm, project: str) -> tuple[dict, dict]:
    commits = {
        row[0]: CommitRow(list(row[1]), *row[2:])
        for row in lm.sql(
            "SELECT sha, parents, subject, message, author, author_email, committer, committer_email, "
            "authored_at, committed_at, insertions, deletions, files_changed, is_merge "
            "FROM commits WHERE project = ?", [project],
        ).fetchall()
    }
    files = {}
    for sha, path, *rest in lm.sql(
        "SELECT sha, path, old_path, change_type, insertions, deletions, is_binary, from_merged "
        "FROM commit_files WHERE project = ?", [project],
    ).fetchall():
        assert (sha, path) not in files, f"duplicate commit_files row {sha} {path}"
        files[(sha, path)] = FileRow(*rest)
    return commits, files


def assert_matches_git(lm, project: str, cwd: Path, *revs: str) -> tuple[dict, dict]:
    """Every stored commit and file row equals git's, and nothing more or less is stored."""
    want_commits, want_files = expected_rows(cwd, *(revs or ("HEAD",)))
    got_commits, got_files = stored_rows(lm, project)
    assert set(got_commits) == set(want_commits), "stored commits differ from git's"
    for sha in want_commits:
        assert got_commits[sha] == want_commits[sha], f"commit {sha}"
    assert got_files == want_files
    return want_commits, want_files


def git_follow(cwd: Path, path: str | bytes) -> list[str]:
    return git(cwd, "log", "--follow", "--format=%H", "--", path).decode().split()


def expected_file_history(cwd: Path, path: str | bytes) -> list[str]:
    """`git log --follow -- path`, plus the merges that changed the file themselves.

    `--follow` never lists a merge (log shows no diff for merges, and follow filters on the
    diff); plain `git log -- path` lists a merge whose file differs from every parent (both sides
    changed it) and, by history simplification, not one that took the file from a parent."""
    followed = set(git_follow(cwd, path))
    merges = set(git(cwd, "log", "--merges", "--format=%H", "--", path).decode().split())
    order = git(cwd, "log", "--format=%H", "HEAD").decode().split()
    return [sha for sha in order if sha in followed | merges]


def blame_lines(cwd: Path, path: str | bytes, *args: str, rev: str = "HEAD") -> list[dict]:
    """`git blame --line-porcelain <rev>` -> one dict per line (sha, author-mail, filename, boundary...)."""
    out = git(cwd, "-c", "core.quotepath=false", "blame", "--line-porcelain", *args, rev, "--", path)
    lines, current = [], None
    for line in out.split(b"\n"):
        if current is None:
            if not line:
                continue
            sha, orig, final, *_ = line.decode().split(" ")
            current = {"sha": sha, "orig": int(orig), "final": int(final), "boundary": False}
        elif line.startswith(b"\t"):
            lines.append(current)
            current = None
        else:
            key, _, value = line.partition(b" ")
            if key == b"boundary":
                current["boundary"] = True
            else:
                current[key.decode()] = value
    return lines


# --- building repositories with dulwich --------------------------------------------------------------

T0 = 1709283600  # 2024-03-01 09:00:00 UTC
HOUR, DAY = 3600, 86400

ALICE = b"Alice Smith <alice@example.com>"
BOB_OLD = b"Bob <bob@old.example>"
BOB_WORK = b"bob <BOB@Work.Example>"
CAROL = b"ckng <carol@example.com>"
DAVE_LATIN1 = "José Núñez <jose@example.com>".encode("latin-1")
DAVE = "José Núñez <jose@example.com>".encode()

MAILMAP = (
    b"# two identities of Bob, one person\n"
    b"Bob Jones <bob@example.com> <bob@old.example>\n"
    b"Bob Jones <bob@example.com> bob <bob@work.example>\n"
    b"Carol King <carol@example.com>\n"
)


def text(name: str, count: int, changed: tuple[int, ...] = (), extra: str = "") -> bytes:
    """`count` distinct lines for a file; the lines in `changed` differ (an edit)."""
    out = []
    for i in range(count):
        word = hashlib.sha256(f"{name}{i}{'x' if i in changed else ''}{extra if i in changed else ''}".encode())
        out.append(f"{name} {i:02d} {word.hexdigest()[:40]}\n")
    return "".join(out).encode()


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))


class Builder:
    """A repository written object by object: explicit trees, parents, identities, times, timezones."""

    def __init__(self, path: Path, *, bare: bool = False):
        path.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.bare = bare
        self.repo = Repo.init_bare(str(path)) if bare else Repo.init(str(path))
        self.repo.refs.set_symbolic_ref(b"HEAD", b"refs/heads/main")
        self.trees: dict[str, dict[bytes, tuple[bytes, int]]] = {}
        self.clock = T0

    @property
    def gitdir(self) -> Path:
        return self.path if self.bare else self.path / ".git"

    def tip(self, branch: str = "main") -> str | None:
        try:
            return self.repo.refs[b"refs/heads/" + branch.encode()].decode()
        except KeyError:
            return None

    def content(self, sha: str, path: str | bytes) -> bytes:
        path = path.encode() if isinstance(path, str) else path
        return self.repo.object_store[self.trees[sha][path][0]].as_raw_string()

    def commit(self, message: bytes | str, files: dict | None = None, *, author: bytes = ALICE, tz: int = 0,
               when: int | None = None, committer: bytes | None = None, commit_when: int | None = None,
               commit_tz: int | None = None, parents: list[str] | None = None, branch: str = "main",
               encoding: bytes | None = None) -> str:
        """Commit `files` (path -> bytes, (bytes, mode) or None to delete) on top of the first parent."""
        if parents is None:
            parents = [self.tip(branch)] if self.tip(branch) else []
        tree = dict(self.trees[parents[0]]) if parents else {}
        for path, value in (files or {}).items():
            path = path.encode() if isinstance(path, str) else path
            if value is None:
                del tree[path]
                continue
            data, mode = value if isinstance(value, tuple) else (value, 0o100644)
            blob = Blob.from_string(data)
            self.repo.object_store.add_object(blob)
            tree[path] = (blob.id, mode)
            if path == b".mailmap" and not self.bare:
                (self.path / ".mailmap").write_bytes(data)
        if when is None:
            self.clock += DAY
            when = self.clock
        commit = Commit()
        commit.tree = commit_tree(self.repo.object_store, [(p, sha, mode) for p, (sha, mode) in tree.items()])
        commit.parents = [parent.encode() for parent in parents]
        commit.author = author
        commit.committer = committer or author
        commit.author_time, commit.author_timezone = when, tz
        commit.commit_time = commit_when if commit_when is not None else when
        commit.commit_timezone = commit_tz if commit_tz is not None else tz
        commit.message = message.encode() if isinstance(message, str) else message
        if encoding is not None:
            commit.encoding = encoding
        self.repo.object_store.add_object(commit)
        self.repo.refs[b"refs/heads/" + branch.encode()] = commit.id
        self.trees[commit.id.decode()] = tree
        return commit.id.decode()

    def loose_object(self, sha: str) -> Path:
        return self.gitdir / "objects" / sha[:2] / sha[2:]


def build_history(path: Path, *, bare: bool = False) -> tuple[Builder, dict[str, str]]:
    """Every case in one history: see the comment of each commit."""
    b = Builder(path, bare=bare)
    c = {}
    c["c1"] = b.commit("Initial import\n", {
        "README.md": b"# Demo\n\nA demo project.\n",
        "src/app.py": text("app", 20),
        "src/util.py": text("util", 20),
        "docs/guide.txt": text("guide", 20),
        "logo.png": PNG,
        "notes.txt": b"first note\nsecond note",  # no trailing newline
        "win.txt": b"one\r\ntwo\r\nthree\r\n",  # CRLF
        "shared.txt": text("shared", 12),
        "docs/faq.txt": text("faq", 20),
        "old/x.txt": text("x", 20),
        "k/a.cfg": b"same = true\n",
        "k/b.cfg": b"same = true\n",
        ".mailmap": MAILMAP,
    }, author=ALICE, tz=3600)
    # A multi-line first paragraph: git's %s joins it into one line.
    c["c2"] = b.commit("Tune app\nstartup sequence\n\nExplain the change in the body.\n", {
        "src/app.py": text("app", 20, changed=(3, 4)) + b"extra 1\nextra 2\nextra 3\n",
    }, author=BOB_OLD, tz=-8 * HOUR)
    # Appending to a file without a final newline; one CRLF line changed; a binary change.
    c["c3"] = b.commit("Touch notes, windows file and logo\n", {
        "notes.txt": b"first note\nsecond note\nthird note\n",
        "win.txt": b"one\r\nTWO\r\nthree\r\n",
        "logo.png": PNG + b"\x00more",
    }, author=BOB_WORK, tz=5 * HOUR + 30 * 60)
    c["c4"] = b.commit("Rename the guide to manual\n", {  # an exact rename
        "docs/guide.txt": None, "docs/manual.txt": text("guide", 20),
    }, author=ALICE, tz=3600)
    # A rename with edits (3 of 20 lines: ~85 % similar); committed by someone else, later.
    c["c5"] = b.commit("Move util helpers\n", {
        "src/util.py": None, "src/helpers.py": text("util", 20, changed=(1, 7, 15)),
    }, author=CAROL, tz=0, committer=ALICE, commit_when=T0 + 5 * DAY + 2 * HOUR, commit_tz=3600,
        when=T0 + 5 * DAY)
    b.clock = T0 + 5 * DAY
    # Too many edits (~47 % of the bytes kept): git sees a delete and an add, not a rename.
    app = b.content(c["c2"], "src/app.py").splitlines(keepends=True)
    c["c6"] = b.commit("Rewrite the app entry point\n", {
        "src/app.py": None,
        "src/main.py": b"".join(app[:11]) + text("main", 12),
    }, author=ALICE, tz=3600)
    c["c7"] = b.commit("Empty commit to trigger CI\n", {}, author=CAROL)  # same tree as its parent
    # A message and author in ISO-8859-1, declared by the encoding header.
    c["c8"] = b.commit("Café: résumé des changements\n".encode("latin-1"), {
        "README.md": b"# Demo\n\nA demo project, now with a caf\xc3\xa9.\n",
    }, author=DAVE_LATIN1, tz=-(3 * HOUR + 30 * 60), encoding=b"ISO-8859-1")
    # Raw latin-1 bytes with no encoding header; a file name that is not UTF-8.
    c["c9"] = b.commit(b"Fix na\xefve parsing of caf\xe9 data\n", {
        b"data/caf\xe9.csv": b"a,b\n1,2\n",
        "docs/manual.txt": text("guide", 20, changed=(0,)),
    }, author=DAVE, tz=2 * HOUR)
    # A mode change alone (0 0 in numstat), CRLF -> LF on every line, a rename just above 50 %.
    c["c10"] = b.commit("Make helpers executable, normalise line endings\n", {
        "src/helpers.py": (b.content(c["c5"], "src/helpers.py"), 0o100755),
        "win.txt": b"one\nTWO\nthree\n",
        "docs/faq.txt": None, "docs/questions.txt": text("faq", 20, changed=tuple(range(9))),
    }, author=ALICE, tz=3600)
    # A side branch: a new file, and the top of shared.txt.
    shared = b.content(c["c1"], "shared.txt").splitlines(keepends=True)
    c["f1"] = b.commit("Start the feature\n", {
        "lib/feature.py": text("feature", 8),
        "shared.txt": b"".join([b"top changed on the branch\n", *shared[1:]]),
    }, author=BOB_OLD, tz=-8 * HOUR, branch="feature", parents=[c["c10"]])
    c["f2"] = b.commit("Finish the feature\n", {
        "lib/feature.py": text("feature", 10, changed=(2,)),
    }, author=BOB_OLD, tz=-7 * HOUR, branch="feature")
    # Meanwhile on main: README, and the bottom of shared.txt.
    c["c11"] = b.commit("Polish README\n", {
        "README.md": b"# Demo\n\nA polished demo project.\n",
        "shared.txt": b"".join([*shared[:-1], b"bottom changed on main\n"]),
    }, author=ALICE, tz=3600)
    # The merge: lib/feature.py comes unchanged from the branch, shared.txt combines both sides.
    c["merge"] = b.commit("Merge branch 'feature'\n", {
        "lib/feature.py": b.content(c["f2"], "lib/feature.py"),
        "shared.txt": b"".join([b"top changed on the branch\n", *shared[1:-1], b"bottom changed on main\n"]),
    }, author=ALICE, tz=3600, parents=[c["c11"], c["f2"]])
    c["c12"] = b.commit("Clean up after the merge\n", {
        "win.txt": None,
        "lib/feature.py": text("feature", 10, changed=(2, 5)),
        "src/main.py": b.content(c["c6"], "src/main.py") + b"print('done')\n",
    }, author=CAROL, tz=0)
    # git's tie-breaks: an exact rename prefers the source with the same basename; a unique basename
    # pair at >= 75 % wins over a better-scoring pair (new/y.txt is 95 % like old/x.txt, new/x.txt 80 %).
    c["c13"] = b.commit("Reorganise folders\n", {
        "k/a.cfg": None, "k/b.cfg": None, "m/b.cfg": b"same = true\n",
        "old/x.txt": None, "new/x.txt": text("x", 20, changed=(0, 5, 10, 15)),
        "new/y.txt": text("x", 20, changed=(19,)),
    }, author=ALICE, tz=3600)
    return b, c


# --- calling the library ----------------------------------------------------------------------------

PROJECT = "demo"


def index(lm, repo_path, **kwargs):
    kwargs.setdefault("progress", False)
    kwargs.setdefault("project", PROJECT)
    return lm.index_commits(repo_path, **kwargs)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The full history, indexed once for the tests that only read it."""
    tmp = tmp_path_factory.mktemp("demo")
    b, c = build_history(tmp / "repo")
    lm = learnmem.open(tmp / "learnmem.duckdb", embedder=HashingEmbedder())
    result = index(lm, b.path)
    return lm, b, c, result


# --- every number against git ------------------------------------------------------------------------


def test_commits_and_files_equal_git(demo):
    lm, b, c, result = demo
    commits, files = assert_matches_git(lm, PROJECT, b.path)
    assert result.commits_total == result.commits_added == len(commits) == len(c)
    assert result.commits_removed == 0
    assert result.head == c["c13"]
    assert result.root == str(b.path.resolve())
    assert result.shallow is False
    assert result.commits_embedded == len(c)
    # The oracle covers what the history was built for (so this test can fail for each of them).
    assert files[(c["c4"], "docs/manual.txt")][:2] == ("docs/guide.txt", "rename")
    assert files[(c["c5"], "src/helpers.py")][:2] == ("src/util.py", "rename")
    assert files[(c["c6"], "src/main.py")].change_type == "add"
    assert files[(c["c6"], "src/app.py")].change_type == "delete"
    assert files[(c["c10"], "docs/questions.txt")][:2] == ("docs/faq.txt", "rename")
    assert files[(c["c13"], "m/b.cfg")][:2] == ("k/b.cfg", "rename")
    assert files[(c["c13"], "k/a.cfg")].change_type == "delete"
    assert files[(c["c13"], "new/x.txt")][:2] == ("old/x.txt", "rename")
    assert files[(c["c13"], "new/y.txt")].change_type == "add"
    assert files[(c["c3"], "logo.png")][2:5] == (0, 0, True)
    assert files[(c["c3"], "notes.txt")][2:4] == (2, 1)
    assert files[(c["c10"], "win.txt")][2:4] == (3, 3)
    assert files[(c["c10"], "src/helpers.py")][1:4] == ("modify", 0, 0)
    assert (c["c9"], "data/caf\\xe9.csv") in files
    assert commits[c["c7"]][-4:-1] == (0, 0, 0)
    assert commits[c["c8"]].subject == "Café: résumé des changements"
    assert commits[c["c8"]].author == "José Núñez"
    assert commits[c["c9"]].subject == "Fix na\ufffdve parsing of caf\ufffd data"
    assert commits[c["c2"]].subject == "Tune app startup sequence"
    bob = ("Bob Jones", "bob@example.com")
    assert commits[c["c3"]][3:5] == commits[c["c2"]][3:5] == bob
    assert commits[c["c7"]].author == "Carol King"
    assert commits[c["c5"]].committer == "Alice Smith"
    assert commits[c["c5"]].committed_at == utc(T0 + 5 * DAY + 2 * HOUR)
    assert commits[c["c5"]].authored_at == utc(T0 + 5 * DAY)
    assert commits[c["merge"]].parents == [c["c11"], c["f2"]]
    assert files[(c["merge"], "lib/feature.py")].from_merged is True
    assert files[(c["merge"], "shared.txt")].from_merged is False


def test_bare_repository_equals_git(tmp_path, hashed_lm):
    b, c = build_history(tmp_path / "bare.git", bare=True)
    result = index(hashed_lm, b.path)
    commits, _ = assert_matches_git(hashed_lm, PROJECT, b.path)
    assert result.commits_total == len(commits) == len(c)
    assert commits[c["c3"]].author_email == "bob@example.com"  # HEAD:.mailmap in a bare repository


def test_own_history_equals_git(hashed_lm):
    """This project's own repository, indexed without embedding."""
    result = index(hashed_lm, HERE, embed=False, project="self")
    commits, files = assert_matches_git(hashed_lm, "self", HERE)
    assert result.commits_total == len(commits) > 10
    assert result.commits_embedded == 0
    assert len(files) > len(commits)
    assert hashed_lm.sql("SELECT count(*) FROM commits WHERE embedding IS NOT NULL").fetchone()[0] == 0


@pytest.mark.parametrize("depth", [2, 3])
def test_shallow_clone_equals_git_in_the_clone(tmp_path, hashed_lm, depth):
    b, _c = build_history(tmp_path / "repo")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", str(depth), f"file://{b.path}", str(clone))
    result = index(hashed_lm, clone)
    assert result.shallow is True
    assert any("shallow" in warning for warning in result.warnings)
    commits, files = assert_matches_git(hashed_lm, PROJECT, clone)
    boundary = set((clone / ".git" / "shallow").read_text().split())
    assert boundary and all(commits[sha].parents == [] for sha in boundary)
    # A boundary's diff is against the empty tree: every file it has is an add.
    for sha in boundary:
        assert {path for (s, path) in files if s == sha} == set(git_tree(clone, sha))
    repos = hashed_lm.sql("SELECT shallow FROM git_repos WHERE project = ?", [PROJECT]).fetchall()
    assert repos == [(True,)]


# --- incremental and rewritten history -------------------------------------------------------------


def test_incremental_reads_only_new_commits(tmp_path, hashed_lm, monkeypatch):
    b, c = build_history(tmp_path / "repo")
    first = index(hashed_lm, b.path)
    assert first.commits_added == len(c)
    new = [
        b.commit("More notes\n", {"notes.txt": b"only note\n"}, author=BOB_WORK),
        b.commit("Another helper\n", {"src/more.py": text("more", 5)}, author=ALICE),
        b.commit("Rename it\n", {"src/more.py": None, "src/most.py": text("more", 5)}, author=CAROL),
    ]
    read: list[str] = []
    original = Repo.__getitem__

    def spy(self, name):
        obj = original(self, name)
        if isinstance(obj, Commit):
            read.append(obj.id.decode())
        return obj

    monkeypatch.setattr(Repo, "__getitem__", spy)
    second = index(hashed_lm, b.path)
    monkeypatch.undo()
    assert (second.commits_added, second.commits_removed, second.commits_total) == (3, 0, len(c) + 3)
    assert set(new) <= set(read)
    # The new commits, and the old tip whose tree the first new one is diffed against: nothing older.
    assert set(read) <= set(new) | {c["c13"]}
    assert_matches_git(hashed_lm, PROJECT, b.path)

    third = index(hashed_lm, b.path)
    assert (third.commits_added, third.commits_removed, third.commits_total) == (0, 0, len(c) + 3)
    assert_matches_git(hashed_lm, PROJECT, b.path)


def test_rewritten_history_removes_gone_commits(tmp_path, hashed_lm):
    b, c = build_history(tmp_path / "repo")
    index(hashed_lm, b.path)
    # Reset main to c10 and commit something else: the branch, the merge and what followed are gone.
    b.repo.refs[b"refs/heads/main"] = c["c10"].encode()
    rewritten = b.commit("A different future\n", {"README.md": b"# Rewritten\n"}, author=CAROL)
    result = index(hashed_lm, b.path)
    gone = {c[name] for name in ("f1", "f2", "c11", "merge", "c12", "c13")}
    assert result.commits_added == 1
    assert result.commits_removed == len(gone)
    assert result.commits_total == len(c) - len(gone) + 1
    commits, _ = assert_matches_git(hashed_lm, PROJECT, b.path)
    assert rewritten in commits and not gone & set(commits)
    left = hashed_lm.sql(
        "SELECT count(*) FROM commit_files WHERE sha IN (SELECT unnest(?::VARCHAR[]))", [sorted(gone)]
    ).fetchone()[0]
    assert left == 0
    again = index(hashed_lm, b.path)
    assert (again.commits_added, again.commits_removed) == (0, 0)


def test_all_branches_indexes_side_branches(tmp_path, hashed_lm):
    b, c = build_history(tmp_path / "repo")
    side = [
        b.commit("Experiment\n", {"exp.txt": b"try\n"}, author=BOB_OLD, branch="experiment",
                 parents=[c["c7"]]),
    ]
    side.append(b.commit("Experiment, part two\n", {"exp.txt": b"try again\n"}, author=BOB_OLD,
                         branch="experiment"))
    head_only = index(hashed_lm, b.path)
    assert head_only.commits_total == len(c)
    everything = index(hashed_lm, b.path, all_branches=True)
    assert everything.commits_added == 2
    commits, _ = assert_matches_git(hashed_lm, PROJECT, b.path, "HEAD", "--branches")
    assert set(side) <= set(commits)
    refs = hashed_lm.sql("SELECT refs, tips FROM git_repos WHERE project = ?", [PROJECT]).fetchone()
    assert "refs/heads/experiment" in refs[0] and side[-1] in refs[1]


def test_since_limits_indexing(tmp_path, hashed_lm):
    b, c = build_history(tmp_path / "repo")
    since = utc(T0 + 9 * DAY)  # c9's time exactly: git's --since includes it
    result = index(hashed_lm, b.path, since=since.isoformat() + "+00:00")
    want = set(git(b.path, "rev-list", f"--since={since.isoformat()}Z", "HEAD").decode().split())
    assert c["c9"] in want and c["c8"] not in want
    got = {sha for (sha,) in hashed_lm.sql("SELECT sha FROM commits").fetchall()}
    assert got == want and result.commits_total == len(want)
    # Stored rows are still exact (diffs against parents that were not indexed).
    want_commits, want_files = expected_rows(b.path, "HEAD")
    got_commits, got_files = stored_rows(hashed_lm, PROJECT)
    assert got_commits == {sha: want_commits[sha] for sha in want}
    assert got_files == {key: value for key, value in want_files.items() if key[0] in want}
    # Without `since`, the next run adds the older commits.
    rest = index(hashed_lm, b.path)
    assert (rest.commits_added, rest.commits_total) == (len(c) - len(want), len(c))
    assert_matches_git(hashed_lm, PROJECT, b.path)


# --- queries against git ---------------------------------------------------------------------------

FOLLOWED = [
    "README.md", "docs/manual.txt", "src/helpers.py", "src/main.py", "lib/feature.py", "shared.txt",
    "notes.txt", "logo.png", "data/caf\\xe9.csv", ".mailmap", "docs/questions.txt", "new/x.txt",
    "m/b.cfg", "win.txt",
]


@pytest.mark.parametrize("path", FOLLOWED)
def test_file_history_equals_git_follow(demo, path):
    lm, b, _c, _ = demo
    want = expected_file_history(b.path, raw_path(path))
    entries = lm.get_file_history(path, limit=100, project=PROJECT)
    assert [entry.sha for entry in entries] == want
    log = git_log(b.path, "HEAD")
    for entry in entries:
        f = log[entry.sha].files[entry.path]
        assert (entry.old_path, entry.change_type, entry.insertions, entry.deletions, entry.is_binary) == (
            f.old_path, f.change_type, f.insertions, f.deletions, f.binary)
        assert (entry.author, entry.author_email) == (log[entry.sha].author, log[entry.sha].author_email)
        assert entry.subject == log[entry.sha].subject


def test_file_history_follows_renames_and_limits(demo):
    lm, _b, c, _ = demo
    entries = lm.get_file_history("docs/manual.txt", project=PROJECT)
    assert [e.sha for e in entries] == [c["c9"], c["c4"], c["c1"]]
    assert [e.path for e in entries] == ["docs/manual.txt", "docs/manual.txt", "docs/guide.txt"]
    assert entries[0].committed_at.endswith("Z")
    assert [e.sha for e in lm.get_file_history("docs/manual.txt", limit=2, project=PROJECT)] == [c["c9"], c["c4"]]
    # Below 50 % similarity the history starts at the add.
    assert [e.sha for e in lm.get_file_history("src/main.py", project=PROJECT)] == [c["c12"], c["c6"]]
    # The merge shows for the file it combined, not for the one it took unchanged from the branch.
    assert c["merge"] in [e.sha for e in lm.get_file_history("shared.txt", project=PROJECT)]
    assert c["merge"] not in [e.sha for e in lm.get_file_history("lib/feature.py", project=PROJECT)]


def test_file_history_follows_git_renames_not_follow_copies(demo):
    """new/y.txt is an add for `git log -M` (old/x.txt went to new/x.txt by basename); `git log --follow`
    alone would claim old/x.txt's history for it too, since --follow looks for copies without the
    basename rule. The history follows the renames the index stores, as numstat shows them."""
    lm, b, c, _ = demo
    assert git_follow(b.path, "new/y.txt") == [c["c13"], c["c1"]]  # the quirk this test is about
    assert [(e.sha, e.change_type) for e in lm.get_file_history("new/y.txt", project=PROJECT)] == [(c["c13"], "add")]
    assert [e.sha for e in lm.get_file_history("new/x.txt", project=PROJECT)] == [c["c13"], c["c1"]]


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.mark.parametrize("days", [3, 7, 30])
def test_hotspots_equal_counts_from_git(demo, days):
    lm, b, _c, _ = demo
    as_of = utc(T0 + 15 * DAY + 3 * HOUR)  # c12 + 3 h
    start = as_of - timedelta(days=days)
    log = git_log(b.path, "--no-merges", f"--since={iso(start)}", f"--until={iso(as_of)}", "HEAD")
    counts = defaultdict(lambda: {"commits": 0, "insertions": 0, "deletions": 0, "authors": set(), "last": None})
    for commit in log.values():
        assert start < commit.committed_at <= as_of
        for f in commit.files.values():
            if f.change_type == "delete":  # a removed file is no hotspot
                continue
            entry = counts[f.path]
            entry["commits"] += 1
            entry["insertions"] += f.insertions
            entry["deletions"] += f.deletions
            entry["authors"].add(commit.author_email)
            entry["last"] = max(entry["last"] or commit.committed_at, commit.committed_at)
    want = {
        path: (e["commits"], e["insertions"], e["deletions"], len(e["authors"]), iso(e["last"]))
        for path, e in counts.items()
    }
    hotspots = lm.get_churn_hotspots(days=days, limit=100, as_of=iso(as_of), project=PROJECT)
    got = {h.path: (h.commits, h.insertions, h.deletions, h.authors, h.last_change) for h in hotspots}
    assert got == want
    assert len(want) > 0
    order = [(-h.commits, -(h.insertions + h.deletions)) for h in hotspots]
    assert order == sorted(order)
    top = lm.get_churn_hotspots(days=days, limit=2, as_of=iso(as_of), project=PROJECT)
    assert [h.path for h in top] == [h.path for h in hotspots[:2]]
    assert lm.get_churn_hotspots(days=days, project=PROJECT) == []  # as_of defaults to now: 2024 is long gone


CODE_AUTHOR_PATHS = ["docs/manual.txt", "src/helpers.py", "src/main.py", "lib/feature.py", "shared.txt",
                     "README.md", "logo.png", "docs/questions.txt", "new/x.txt"]


@pytest.mark.parametrize("path", CODE_AUTHOR_PATHS)
def test_code_authors_equal_git_log_and_blame(demo, path):
    lm, b, _c, _ = demo
    log = git_log(b.path, "--no-merges", "--follow", "HEAD", "--", path)
    want = defaultdict(lambda: {"commits": 0, "insertions": 0, "deletions": 0, "times": []})
    for commit in log.values():
        (f,) = commit.files.values()
        entry = want[commit.author_email]
        entry["commits"] += 1
        entry["insertions"] += f.insertions
        entry["deletions"] += f.deletions
        entry["times"].append(commit.authored_at)
    emails = git(b.path, "log", "--no-merges", "--follow", "--format=%aE", "--", path).decode().split()
    assert Counter(emails) == Counter({email: e["commits"] for email, e in want.items()})
    owned = Counter(line["author-mail"].decode().strip("<>") for line in blame_lines(b.path, path))
    total = sum(owned.values())
    authors = lm.get_code_authors(path, project=PROJECT)
    got = {a.author_email: a for a in authors}
    assert set(got) == set(want) | set(owned)
    for email, a in got.items():
        e = want.get(email)
        assert a.commits == (e["commits"] if e else 0), email
        assert (a.insertions, a.deletions) == ((e["insertions"], e["deletions"]) if e else (0, 0)), email
        if e:
            assert (a.first_change, a.last_change) == (iso(min(e["times"])), iso(max(e["times"]))), email
        assert a.lines_owned == owned.get(email, 0), email
        assert a.share == pytest.approx(owned.get(email, 0) / total if total else 0.0, abs=5e-5), email


@pytest.mark.parametrize("path, rev", [
    ("docs/manual.txt", None), ("src/helpers.py", None), ("src/main.py", None), ("shared.txt", None),
    ("lib/feature.py", None), ("README.md", None), ("notes.txt", "c10"), ("win.txt", "c10"),
    ("lib/feature.py", "f2"), ("shared.txt", "c11"), ("docs/guide.txt", "c3"), ("new/x.txt", None),
    ("docs/questions.txt", None), ("data/caf\\xe9.csv", None),
])
def test_blame_equals_git_blame(demo, path, rev):
    lm, b, c, _ = demo
    rev = c[rev] if rev else "HEAD"
    want = blame_lines(b.path, raw_path(path), rev=rev)
    entries = lm.get_blame(path, rev=rev, project=PROJECT)
    got = []
    for e in entries:
        assert e.start_line <= e.end_line
        for offset in range(e.end_line - e.start_line + 1):
            got.append({"final": e.start_line + offset, "sha": e.sha, "author-mail": e.author_email,
                        "orig": e.original_start_line + offset, "filename": e.original_path,
                        "boundary": e.boundary})
    assert [line["final"] for line in got] == list(range(1, len(want) + 1))
    for mine, theirs in zip(got, want):
        assert mine == {
            "final": theirs["final"], "sha": theirs["sha"], "author-mail": theirs["author-mail"].decode().strip("<>"),
            "orig": theirs["orig"], "filename": text_path(theirs["filename"]), "boundary": theirs["boundary"],
        }
    # A range: the same lines as git's `-L 2,3`.
    part = lm.get_blame(path, start_line=2, end_line=3, rev=rev, project=PROJECT)
    per_line = [(e.sha, e.start_line + k) for e in part for k in range(e.end_line - e.start_line + 1)]
    assert per_line == [(line["sha"], line["final"])
                        for line in blame_lines(b.path, raw_path(path), "-L", "2,3", rev=rev)]


CONFIG_V1 = b"""import os


class Config:
    def __init__(self, path):
        self.path = path

    def load(self):
        with open(self.path) as handle:
            return handle.read()


def helper():
    return 1
"""


def test_unit_history_equals_git_log_L(tmp_path, hashed_lm):
    b = Builder(tmp_path / "repo")
    c = {"add": b.commit("Add config\n", {"app/config.py": CONFIG_V1, ".mailmap": MAILMAP}, author=ALICE)}
    v2 = CONFIG_V1.replace(b"return 1", b"return 2")
    c["helper"] = b.commit("Change the helper only\n", {"app/config.py": v2}, author=BOB_OLD)
    v3 = v2.replace(b"import os\n", b"import os\nimport sys\n\nDEBUG = False\n").replace(
        b"            return handle.read()\n", b"            text = handle.read()\n        return text.strip()\n")
    c["body"] = b.commit("Strip what load reads\n", {"app/config.py": v3}, author=CAROL)
    c["rename"] = b.commit("Rename config to settings\n", {"app/config.py": None, "app/settings.py": v3},
                           author=ALICE)
    v5 = v3.replace(b"return text.strip()", b"return text.strip() + os.linesep")
    c["again"] = b.commit("Keep a final newline\n", {"app/settings.py": v5}, author=BOB_WORK)
    c["after"] = b.commit("Document the helper\n", {"app/settings.py": v5 + b"\n\nHELP = 'helper'\n"},
                          author=CAROL)
    (b.path / "app").mkdir()
    (b.path / "app" / "settings.py").write_bytes(v5 + b"\n\nHELP = 'helper'\n")
    hashed_lm.index_codebase(b.path, project=PROJECT, progress=False)
    index(hashed_lm, b.path)
    unit = hashed_lm.sql(
        "SELECT start_line, end_line FROM code_units WHERE project = ? AND qualified_name = 'Config.load'", [PROJECT]
    ).fetchone()
    out = git(b.path, "log", f"-L{unit[0]},{unit[1]}:app/settings.py", "--format=%x1e%H", "HEAD").decode()
    want = []
    for record in out.split("\x1e")[1:]:
        sha, _, patch = record.partition("\n")
        ranges = re.findall(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", patch, re.MULTILINE)
        (start, count), = ranges
        want.append((sha.strip(), int(start), int(start) + int(count or 1) - 1))
    changes = hashed_lm.get_unit_history("Config.load", project=PROJECT)
    assert [(u.sha, u.start_line, u.end_line) for u in changes] == want
    assert [u.sha for u in changes] == [c["again"], c["body"], c["add"]]
    assert [u.path for u in changes] == ["app/settings.py", "app/config.py", "app/config.py"]
    log = git_log(b.path, "HEAD")
    for u in changes:
        assert (u.author, u.author_email, u.subject) == (log[u.sha].author, log[u.sha].author_email, log[u.sha].subject)
        assert u.authored_at == iso(log[u.sha].authored_at)
    assert [u.sha for u in hashed_lm.get_unit_history("Config.load", project=PROJECT, limit=1)] == [c["again"]]
    with pytest.raises(NotFoundError, match="name.*no_such_function"):
        hashed_lm.get_unit_history("no_such_function", project=PROJECT)


# Random histories: few distinct lines (many equal lines make diffs ambiguous), lines without a final
# newline, CRLF, NUL bytes, renames with and without edits, several candidates for one rename.
LINE = st.sampled_from([b"a\n", b"b\n", b"}\n", b"\n", b"    return x\n", b"c\r\n", b"long line " * 9 + b"\n"])
CONTENT = st.tuples(st.lists(LINE, max_size=14), st.booleans(), st.booleans()).map(
    lambda t: (b"".join(t[0])[:-1] if t[1] else b"".join(t[0])) + (b"\0" if t[2] and not t[1] else b""))
EDITS = st.lists(st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.integers(0, 20), LINE), max_size=4)
PATHS = ["a.txt", "b.txt", "d/a.txt", "d/c.txt", "e/f/g.txt"]


def edited(data: bytes, edits) -> bytes:
    lines = data.splitlines(keepends=True)
    for op, at, line in edits:
        at = at % (len(lines) + 1)
        if op == "insert":
            lines.insert(at, line)
        elif lines and at < len(lines):
            if op == "delete":
                del lines[at]
            else:
                lines[at] = line
    return b"".join(lines)


@pytest.fixture(scope="module")
def shared_file(tmp_path_factory):
    """One file for many generated histories, each its own project (opening a file costs more than indexing)."""
    return learnmem.open(tmp_path_factory.mktemp("shared") / "learnmem.duckdb", embedder=HashingEmbedder())


def random_changes(data, files: dict[str, bytes]) -> dict[str, bytes | None]:
    """Draw adds, edits, deletes and renames; apply them to `files`; return them as a commit's changes."""
    changes: dict[str, bytes | None] = {}
    for op in data.draw(st.lists(st.sampled_from(["add", "modify", "delete", "rename"]), max_size=4), label="ops"):
        free = [p for p in PATHS if p not in files and p not in changes]
        taken = [p for p in files if p not in changes]
        if op == "add" and free:
            path = data.draw(st.sampled_from(free))
            changes[path] = files[path] = data.draw(CONTENT)
        elif op == "modify" and taken:
            path = data.draw(st.sampled_from(taken))
            changes[path] = files[path] = edited(files[path], data.draw(EDITS))
        elif op == "delete" and taken:
            path = data.draw(st.sampled_from(taken))
            changes[path] = None
            del files[path]
        elif op == "rename" and taken and free:
            old, new = data.draw(st.sampled_from(taken)), data.draw(st.sampled_from(free))
            changes[old] = None
            changes[new] = files[new] = edited(files.pop(old), data.draw(EDITS))
    return changes


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_histories_equal_git(tmp_path_factory, shared_file, data):
    """Random commits, and merges of random side branches (each file taken from main, the side, or new)."""
    tmp = tmp_path_factory.mktemp("random")
    b = Builder(tmp / "repo")
    files: dict[str, bytes] = {}
    snapshots: dict[str, dict[str, bytes]] = {}
    for step in range(data.draw(st.integers(1, 5), label="commits")):
        if snapshots and data.draw(st.booleans(), label="merge"):
            base = data.draw(st.sampled_from(sorted(snapshots)), label="fork point")
            side_files = dict(snapshots[base])
            side = b.commit(f"side {step}\n", random_changes(data, side_files), parents=[base], branch=f"side{step}")
            merged: dict[str, bytes] = {}
            for path in sorted(set(files) | set(side_files)):
                take = data.draw(st.sampled_from(["main", "side", "new"]), label=path)
                if take == "new":
                    value = edited(files.get(path) or side_files.get(path) or b"", data.draw(EDITS))
                else:
                    value = (files if take == "main" else side_files).get(path)
                if value is not None:
                    merged[path] = value
            changes = {path: merged.get(path) for path in set(files) | set(merged)}
            files = merged
            sha = b.commit(f"merge {step}\n", changes, parents=[b.tip(), side])
        else:
            sha = b.commit(f"step {step}\n", random_changes(data, files))
        snapshots[sha] = dict(files)
    project = tmp.name
    index(shared_file, b.path, embed=False, project=project)
    assert_matches_git(shared_file, project, b.path)


# --- search with the real model --------------------------------------------------------------------


@pytest.fixture
def searchable(tmp_path, lm):
    b = Builder(tmp_path / "repo")
    c = {
        "login": b.commit("Fix the session timeout on login\n\nUsers were logged out after 30 seconds.\n",
                          {"auth/session.py": b"TIMEOUT = 3600\n", ".mailmap": MAILMAP}, author=ALICE),
        "csv": b.commit("Add CSV export to the monthly report\n", {"reports/export.py": b"import csv\n"},
                        author=BOB_OLD),
        "pool": b.commit("Refactor the database connection pool\n", {"db/pool.py": b"POOL = 10\n"},
                         author=CAROL),
        "readme": b.commit("Update installation steps in the README\n", {"README.md": b"pip install\n"},
                           author=ALICE),
        "thumbs": b.commit("Speed up thumbnail generation for large images\n",
                           {"media/thumbs.py": b"SIZE = 128\n"}, author=CAROL),
        "login2": b.commit("Login page: a new layout for admin users\n",
                           {"web/login.html": b"<form></form>\n"}, author=CAROL),
    }
    result = index(lm, b.path)
    assert result.commits_embedded == len(c)
    return lm, b, c


def test_search_ranks_the_right_commit_first(searchable):
    lm, b, c = searchable
    hits = lm.search_commits("fix the login timeout", project=PROJECT)
    assert hits[0].sha == c["login"]
    assert hits[0].subject == "Fix the session timeout on login"
    g = git_log(b.path, "HEAD")[c["login"]]
    assert hits[0].paths == tuple(sorted(g.files)) == (".mailmap", "auth/session.py")
    assert (hits[0].insertions, hits[0].deletions, hits[0].files_changed, hits[0].is_merge) == (
        sum(f.insertions for f in g.files.values()), sum(f.deletions for f in g.files.values()), 2, False)
    assert (hits[0].author, hits[0].author_email, hits[0].committed_at) == (
        g.author, g.author_email, iso(g.committed_at))
    assert lm.search_commits("export report as csv", project=PROJECT)[0].sha == c["csv"]
    assert lm.search_commits("database connections", project=PROJECT)[0].sha == c["pool"]
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert len(lm.search_commits("fix the login timeout", limit=2, project=PROJECT)) <= 2


def test_search_filters_are_exact(searchable):
    lm, b, c = searchable
    # The best match for the query is by Alice: filtered to Carol it must not appear.
    hits = lm.search_commits("fix the login timeout", author="Carol King", project=PROJECT)
    assert c["login"] not in [h.sha for h in hits]
    assert hits and hits[0].sha == c["login2"]
    assert all(h.author == "Carol King" for h in hits)
    by_email = lm.search_commits("fix the login timeout", author="carol@example.com", project=PROJECT)
    assert {h.sha for h in by_email} == {h.sha for h in hits}
    # Time window on commit time: the login fix (day 1) is before it.
    since, until = iso(utc(T0 + 2 * DAY)), iso(utc(T0 + 5 * DAY))
    hits = lm.search_commits("fix the login timeout", since=since, until=until, project=PROJECT)
    want = set(git(b.path, "rev-list", f"--since={since}", f"--until={until}", "HEAD").decode().split())
    assert hits and {h.sha for h in hits} <= want and c["login"] not in want
    # Path: only commits touching it.
    hits = lm.search_commits("fix the login timeout", path="web/login.html", project=PROJECT)
    assert [h.sha for h in hits] == [c["login2"]]
    hits = lm.search_commits("fix the login timeout", path="reports", project=PROJECT)
    assert [h.sha for h in hits] == [c["csv"]]
    assert lm.search_commits("fix the login timeout", path="nowhere/at/all.py", project=PROJECT) == []
    # project is a filter too (as in search_code): another project's commits never show.
    assert lm.search_commits("fix the login timeout", project="another") == []


# --- bad input -------------------------------------------------------------------------------------


def test_not_a_repository(tmp_path, hashed_lm):
    (tmp_path / "plain").mkdir()
    with pytest.raises(ValidationError, match="repo_path"):
        index(hashed_lm, tmp_path / "plain")
    with pytest.raises(NotFoundError, match="repo_path.*does-not-exist"):
        index(hashed_lm, tmp_path / "does-not-exist")
    assert hashed_lm.sql("SELECT count(*) FROM commits").fetchone() == (0,)


def test_empty_repository_gives_a_warning(tmp_path, hashed_lm):
    b = Builder(tmp_path / "empty")
    result = index(hashed_lm, b.path)
    assert (result.commits_total, result.commits_added, result.head) == (0, 0, None)
    assert result.warnings and any("no commit" in w for w in result.warnings)
    assert hashed_lm.sql("SELECT count(*) FROM commits").fetchone() == (0,)
    b.commit("First\n", {"a.txt": b"a\n"})
    assert index(hashed_lm, b.path).commits_added == 1


def test_subfolder_and_detached_head(tmp_path, hashed_lm):
    b, c = build_history(tmp_path / "repo")
    (b.path / "src").mkdir()
    (b.gitdir / "HEAD").write_bytes(c["c10"].encode() + b"\n")  # detached at c10
    result = index(hashed_lm, b.path / "src")
    assert result.head == c["c10"]
    assert result.root == str(b.path.resolve())
    commits, _ = assert_matches_git(hashed_lm, PROJECT, b.path)
    assert c["c10"] in commits and c["c11"] not in commits


def test_default_project_is_the_folder_name(tmp_path, hashed_lm):
    b, _ = build_history(tmp_path / "my-repo")
    result = index(hashed_lm, b.path, project=None)
    assert result.project == "my-repo"
    assert hashed_lm.sql("SELECT DISTINCT project FROM commits").fetchall() == [("my-repo",)]


def test_a_folder_indexed_under_a_name_keeps_it_when_none_is_given(tmp_path, hashed_lm):
    """`learnmem init --claude` indexes in the background without a project name: a folder the user indexed as
    `app` stays `app` (code and history), not a second project under the folder's name."""
    b, _ = build_history(tmp_path / "my-repo")
    index(hashed_lm, b.path, project="app")
    again = index(hashed_lm, b.path, project=None)
    assert again.project == "app" and again.commits_added == 0
    assert hashed_lm.sql("SELECT DISTINCT project FROM commits").fetchall() == [("app",)]
    (b.path / "tool.py").write_text("def run():\n    return 1\n", encoding="utf-8")
    assert hashed_lm.index_codebase(b.path, progress=False).project == "app"
    # And the other way round: code first, then the history.
    other, _ = build_history(tmp_path / "other-repo")
    (other.path / "lib.py").write_text("def f():\n    return 2\n", encoding="utf-8")
    assert hashed_lm.index_codebase(other.path, project="lib", progress=False).project == "lib"
    assert index(hashed_lm, other.path, project=None).project == "lib"


@pytest.mark.parametrize("damage", ["delete", "overwrite"])
def test_corrupt_blob_names_the_object_and_leaves_the_file_usable(tmp_path, db_path, damage):
    b, c = build_history(tmp_path / "repo")
    lm = learnmem.open(db_path, embedder=HashingEmbedder())
    index(lm, b.path)
    late = b.commit("Add a config file\n", {"config.ini": b"[main]\nkey = value\n"})
    blob = b.trees[late][b"config.ini"][0].decode()
    path = b.loose_object(blob)
    saved = path.read_bytes()
    path.chmod(0o644)
    if damage == "delete":
        path.unlink()
    else:
        path.write_bytes(b"this is not a zlib stream")
    with pytest.raises(LearnmemError) as caught:
        index(lm, b.path)
    assert blob in str(caught.value)
    reopened = learnmem.open(db_path, embedder=HashingEmbedder())
    assert reopened.sql("SELECT count(*) FROM commits").fetchone() == (len(c),)
    history = reopened.get_file_history("docs/manual.txt", project=PROJECT)
    assert [e.sha for e in history] == git_follow(b.path, "docs/manual.txt")
    path.unlink(missing_ok=True)
    path.write_bytes(saved)  # repaired: the next run finishes the job
    result = index(reopened, b.path)
    assert (result.commits_added, result.commits_total) == (1, len(c) + 1)
    assert_matches_git(reopened, PROJECT, b.path)


@pytest.mark.parametrize("damage", ["delete", "overwrite"])
def test_corrupt_commit_gives_an_error_or_a_partial_result_with_a_warning(tmp_path, db_path, damage):
    b, c = build_history(tmp_path / "repo")
    want_commits, want_files = expected_rows(b.path, "HEAD")
    path = b.loose_object(c["c3"])
    path.chmod(0o644)
    if damage == "delete":
        path.unlink()
    else:
        path.write_bytes(b"garbage")
    lm = learnmem.open(db_path, embedder=HashingEmbedder())
    try:
        result = index(lm, b.path)
    except LearnmemError as error:
        assert c["c3"] in str(error)
    else:
        assert any(c["c3"][:12] in w for w in result.warnings)
    reopened = learnmem.open(db_path, embedder=HashingEmbedder())
    got_commits, got_files = stored_rows(reopened, PROJECT)
    assert c["c3"] not in got_commits
    assert got_commits == {sha: want_commits[sha] for sha in got_commits}  # whatever is stored is right
    assert got_files == {key: value for key, value in want_files.items() if key[0] in got_commits}


def test_file_history_of_an_unknown_path(demo):
    lm, _b, _c, _ = demo
    from learnmem.git import reports

    doc = (lm.get_file_history.__doc__ or "") + (reports.file_history.__doc__ or "")
    if "NotFoundError" in doc:
        with pytest.raises(NotFoundError, match="no/such/file.py"):
            lm.get_file_history("no/such/file.py", project=PROJECT)
    else:
        assert lm.get_file_history("no/such/file.py", project=PROJECT) == []


@pytest.mark.parametrize("call", [
    lambda lm, path: index(lm, path, since="yesterday-ish"),
    lambda lm, path: lm.search_commits("x", since="yesterday-ish", project=PROJECT),
])
def test_bad_since_names_the_field(tmp_path, hashed_lm, call):
    b, _ = build_history(tmp_path / "repo")
    with pytest.raises(ValidationError, match="since.*yesterday-ish"):
        call(hashed_lm, b.path)


BAD_ARGUMENTS = [
    (lambda lm, b: index(lm, b.path, all_branches="yes"), ValidationError, "all_branches"),
    (lambda lm, b: index(lm, 42), ValidationError, "repo_path"),
    (lambda lm, b: lm.search_commits("", project=PROJECT), ValidationError, "query"),
    (lambda lm, b: lm.search_commits("x", limit=0, project=PROJECT), ValidationError, "limit"),
    (lambda lm, b: lm.search_commits("x", until="soon", project=PROJECT), ValidationError, "until.*soon"),
    (lambda lm, b: lm.get_file_history("README.md", limit=0, project=PROJECT), ValidationError, "limit"),
    (lambda lm, b: lm.get_file_history("README.md", project="nope"), NotFoundError, "project.*nope"),
    (lambda lm, b: lm.get_churn_hotspots(days=0, project=PROJECT), ValidationError, "days"),
    (lambda lm, b: lm.get_churn_hotspots(as_of="whenever", project=PROJECT), ValidationError, "as_of.*whenever"),
    (lambda lm, b: lm.get_code_authors("no/such/file.py", project=PROJECT), NotFoundError, "no/such/file.py"),
    (lambda lm, b: lm.get_blame("no/such/file.py", project=PROJECT), NotFoundError, "no/such/file.py"),
    (lambda lm, b: lm.get_blame("README.md", rev="no-such-branch", project=PROJECT), LearnmemError,
     "no-such-branch"),
    (lambda lm, b: lm.get_blame("README.md", start_line=3, end_line=2, project=PROJECT), ValidationError,
     "start_line|end_line"),
    (lambda lm, b: lm.get_blame("README.md", start_line=0, project=PROJECT), ValidationError, "start_line"),
    (lambda lm, b: lm.get_blame("README.md", start_line=99, end_line=100, project=PROJECT), ValidationError,
     "start_line|end_line"),
    (lambda lm, b: lm.get_unit_history("load", limit=0, project=PROJECT), ValidationError, "limit"),
]


@pytest.mark.parametrize("call, error, match", BAD_ARGUMENTS)
def test_bad_arguments_name_the_field(demo, call, error, match):
    lm, b, _c, _ = demo
    with pytest.raises(error, match=match) as caught:
        call(lm, b)
    assert isinstance(caught.value, LearnmemError)
    assert lm.get_file_history("README.md", project=PROJECT)  # still answers
