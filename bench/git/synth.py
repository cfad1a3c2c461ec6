"""Deterministic synthetic git histories for bench.git, written with dulwich objects (no git subprocess).

Two repositories, each built once per set of parameters and cached under
bench/out/git/repos/<kind>-<key>/ (key: a hash of the parameters, the
generator's version and the seed commit):

* "history" (bare): ~1,200 commits reachable from HEAD over a tree seeded from
  this project's own files (learnmem/**/*.py, tests/*.py, README.md at a pinned
  commit of this repository). Each ordinary commit edits 1-6 files with
  line-level edits (blocks copied from other files inserted, lines deleted,
  identifiers/numbers/comments changed); some commits add, delete or rename
  files (with and without edits), touch a binary file, change a mode; a side
  branch is merged every ~25 commits (sometimes with an edit in the merge);
  nine identities of seven people, two of them folded by a .mailmap; messages
  drawn from this repository's own `git log` subjects and bodies, mixed with
  templated ones. `extra` further commits are written as loose objects behind
  `refs/bench/next` (HEAD does not see them): moving refs/heads/main there
  makes them "new commits" for the incremental measurement.
* "blame" (with a checked-out worktree): a Python file of ~2,000 lines whose
  history has 500 commits, each editing a few scattered lines (sometimes a
  small block inserted or deleted; every version parses), renamed once, edited
  on side branches merged back now and then, beside a few small files that
  other commits touch.

Everything is drawn from one `random.Random(seed)`, so the same parameters give
byte-identical objects (same shas) on every machine with the same seed commit.
"""

from __future__ import annotations

import ast
import hashlib
import json
import keyword
import random
import re
import shutil
import sys
import textwrap
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from dulwich.objects import Blob, Commit, Tree
from dulwich.pack import UnpackedObject, create_delta, pack_objects_to_data
from dulwich.repo import Repo

from bench.vectors import OUT_DIR

GENERATOR_VERSION = 1
PROJECT_ROOT = Path(__file__).resolve().parents[2]
# The commit of this repository whose files and messages seed the histories (pinned so the built
# repositories do not change as the project moves on; HEAD is used if it is ever missing).
SEED_COMMIT = "38942fbc06eca2451a5e19eaf49e34ae5c722381"
REPOS_DIR = OUT_DIR / "git" / "repos"
START_TIME = 1_614_589_200  # 2021-03-01 09:00 UTC

REG, EXE = 0o100644, 0o100755


def log(message: str) -> None:
    print(f"[bench.git {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# -- seed material ---------------------------------------------------------------------------------


@dataclass
class Seed:
    commit: str
    files: dict[str, bytes]  # path -> content
    subjects: list[str]
    sentences: list[str]  # from message bodies


def _is_seed_path(path: str) -> bool:
    if path == "README.md":
        return True
    if path.startswith("learnmem/") and path.endswith(".py"):
        return True
    return path.startswith("tests/") and path.count("/") == 1 and path.endswith(".py")


def load_seed(seed_commit: str = SEED_COMMIT) -> Seed:
    """This repository's files and messages at `seed_commit`, read with dulwich."""
    repo = Repo(str(PROJECT_ROOT))
    try:
        commit = repo[seed_commit.encode()]
    except KeyError:
        commit = repo[repo.head()]
    files: dict[str, bytes] = {}

    def walk(tree_sha: bytes, prefix: str) -> None:
        for entry in repo[tree_sha].iteritems():
            path = prefix + entry.path.decode("utf-8", "replace")
            if entry.mode == 0o040000:
                walk(entry.sha, path + "/")
            elif _is_seed_path(path) and entry.mode in (REG, EXE):
                files[path] = repo[entry.sha].as_raw_string()

    walk(commit.tree, "")
    subjects, sentences = [], []
    for walk_entry in repo.get_walker(include=[commit.id]):
        message = walk_entry.commit.message.decode("utf-8", "replace").strip()
        head, _, body = message.partition("\n\n")
        subjects.append(" ".join(head.split()))
        for paragraph in body.split("\n\n"):
            text = " ".join(line.strip().lstrip("-* ") for line in paragraph.splitlines())
            sentences.extend(s.strip() for s in re.split(r"(?<=[.;])\s+", text) if len(s.strip()) > 20)
    return Seed(commit=commit.id.decode(), files=files, subjects=subjects, sentences=sentences)


# -- people ----------------------------------------------------------------------------------------

# (name, email, timezone "+HHMM", weight); the two aliases are folded into their owners by .mailmap.
PEOPLE = [
    ("Ana Costa", "ana@learnmem.example", "+0100", 30),
    ("Bram de Vries", "bram@learnmem.example", "+0200", 18),
    ("Chen Wei", "chen.wei@learnmem.example", "+0800", 14),
    ("Dana Okafor", "dana@learnmem.example", "-0500", 12),
    ("Zoë Müller", "zoe@learnmem.example", "+0100", 9),
    ("Eitan Levi", "eitan@learnmem.example", "+0300", 6),
    ("Priya Nair", "priya@learnmem.example", "+0530", 5),
    ("ana", "ana.costa@oldcorp.example", "+0000", 6),  # Ana on her old laptop
    ("Dana O", "12345+dana@users.noreply.github.example", "-0500", 4),  # Dana through the web UI
]
MAILMAP = (
    "# Map old identities to current ones\n"
    "Ana Costa <ana@learnmem.example> <ana.costa@oldcorp.example>\n"
    "Dana Okafor <dana@learnmem.example> Dana O <12345+dana@users.noreply.github.example>\n"
)
MERGER = ("GitHub", "noreply@github.example", "+0000")


def _tz_seconds(tz: str) -> int:
    sign = -1 if tz[0] == "-" else 1
    return sign * (int(tz[1:3]) * 3600 + int(tz[3:5]) * 60)


# -- object writing --------------------------------------------------------------------------------


@dataclass
class Entry:
    mode: int
    sha: bytes
    lines: list[bytes] | None  # text files: lines with their b"\n" (the last one may lack it)
    data: bytes | None = None  # binary files


class ObjectSink:
    """Collects every object made (deduplicated by sha), in creation order."""

    def __init__(self) -> None:
        self.objects: dict[bytes, object] = {}
        self.paths: dict[bytes, bytes] = {}  # sha -> the path it was first made for (a hint for delta packing)

    def add(self, obj, path: str = "") -> bytes:
        sha = obj.id
        if sha not in self.objects:
            self.objects[sha] = obj
            self.paths[sha] = path.encode()
        return sha

    def blob(self, data: bytes) -> bytes:
        return self.add(Blob.from_string(data))

    def text(self, lines: list[bytes], mode: int = REG) -> Entry:
        return Entry(mode, self.blob(b"".join(lines)), list(lines))

    def binary(self, data: bytes) -> Entry:
        return Entry(REG, self.blob(data), None, data)

    def hinted(self, shas=None) -> list[tuple]:
        """(object, path) pairs, for packing: `_deltified` chains the versions of one path."""
        return [(self.objects[sha], self.paths[sha]) for sha in (shas if shas is not None else self.objects)]

    def tree(self, state: dict[str, Entry]) -> bytes:
        """The root tree of a flat path -> Entry state."""
        dirs: dict[str, dict[bytes, tuple[int, bytes]]] = {"": {}}
        for path, entry in state.items():
            if not self.paths.get(entry.sha):
                self.paths[entry.sha] = path.encode()
            parent, _, name = path.rpartition("/")
            dirs.setdefault(parent, {})[name.encode()] = (entry.mode, entry.sha)
            while parent:
                parent = parent.rpartition("/")[0]
                dirs.setdefault(parent, {})
        # deepest first: a directory's tree is made before its parent's
        shas: dict[str, bytes] = {}
        for directory in sorted(dirs, key=lambda d: (-(d.count("/") + 1) if d else 0, d)):
            tree = Tree()
            for name, (mode, sha) in dirs[directory].items():
                tree.add(name, mode, sha)
            for child, child_sha in list(shas.items()):
                if child.rpartition("/")[0] == directory and child:
                    tree.add(child.rpartition("/")[2].encode(), 0o040000, child_sha)
            shas[directory] = self.add(tree, directory)
        return shas[""]

    def commit(self, state, parents, author, committer, author_time, commit_time, message: str) -> bytes:
        commit = Commit()
        commit.tree = self.tree(state)
        commit.parents = list(parents)
        commit.author = f"{author[0]} <{author[1]}>".encode()
        commit.committer = f"{committer[0]} <{committer[1]}>".encode()
        commit.author_time, commit.author_timezone = author_time, _tz_seconds(author[2])
        commit.commit_time, commit.commit_timezone = commit_time, _tz_seconds(committer[2])
        commit.message = message.encode("utf-8")
        return self.add(commit)


def _write_pack(repo: Repo, objects: list[tuple], deltify: bool) -> None:
    """One pack of (object, path) pairs, delta-compressed as a clone's pack is when `deltify`."""
    if deltify:
        repo.object_store.add_pack_data(len(objects), _deltified(objects))
    else:
        count, data = pack_objects_to_data(objects, deltify=False)
        repo.object_store.add_pack_data(count, data)


def _deltified(pairs: list[tuple], depth: int = 50):
    """Pack entries with git-like deltas: the versions of one path (blobs) or one directory (trees) newest
    first, each older version a delta on the next newer one while that is less than half its size, chains
    at most `depth` long (git's default). Commits stay whole. (dulwich's own deltify compares each object
    with a window of 10 others and takes minutes here; this needs one delta per object.)"""
    groups: dict[tuple[int, bytes], list] = {}
    for obj, path in pairs:
        groups.setdefault((obj.type_num, path), []).append(obj)
    for (type_num, _), objects in groups.items():
        base_raw = base_sha = None
        chain = 0
        for obj in reversed(objects):
            raw = obj.as_raw_string()
            sha = obj.sha().digest()
            delta = None
            if base_raw is not None and type_num != Commit.type_num and chain < depth:
                delta = b"".join(create_delta(base_raw, raw))
                if len(delta) * 2 >= len(raw):
                    delta = None
            if delta is None:
                yield UnpackedObject(type_num, sha=sha, decomp_chunks=[raw], decomp_len=len(raw))
                chain = 0
            else:
                yield UnpackedObject(type_num, sha=sha, delta_base=base_sha, decomp_chunks=[delta],
                                     decomp_len=len(delta))
                chain += 1
            base_raw, base_sha = raw, sha


# -- text edits ------------------------------------------------------------------------------------

_IDENT = re.compile(rb"\b[A-Za-z_][A-Za-z0-9_]{3,}\b")
_NUMBER = re.compile(rb"\b\d+\b")
_STRING = re.compile(rb"\"([^\"\\\n]{3,})\"|'([^'\\\n]{3,})'")
NOTE_WORDS = ("keep", "order", "matters", "see", "issue", "cheap", "path", "cache", "git", "here", "once", "for",
              "rows", "bytes", "retry", "later", "the", "fast", "slow", "edge", "case", "empty", "TODO", "NOTE",
              "why", "batch", "lock", "commit", "tree", "blob", "rename", "merge")


def _vocab(lines: list[bytes]) -> list[bytes]:
    words = sorted({w for line in lines for w in _IDENT.findall(line) if w.decode() not in keyword.kwlist})
    return words or [b"value"]


def _note(rng: random.Random) -> str:
    return " ".join(rng.choice(NOTE_WORDS) for _ in range(rng.randint(2, 6)))


def modify_line(line: bytes, rng: random.Random, vocab: list[bytes]) -> bytes:
    """A realistic one-line change; never returns the line unchanged."""
    body = line.rstrip(b"\n")
    newline = line[len(body):]
    indent = body[: len(body) - len(body.lstrip())]
    choices = []
    if _IDENT.search(body):
        choices += ["ident"] * 4
    if _NUMBER.search(body):
        choices += ["number"]
    if _STRING.search(body):
        choices += ["string"]
    if body.strip() and not body.rstrip().endswith(b"\\"):
        choices += ["comment"]
    kind = rng.choice(choices) if choices else "blank"
    if kind == "ident":
        matches = list(_IDENT.finditer(body))
        m = rng.choice(matches)
        new = rng.choice(vocab)
        if new == m.group(0):
            new = new + b"_" + rng.choice(vocab)[:8]
        body = body[: m.start()] + new + body[m.end():]
    elif kind == "number":
        m = rng.choice(list(_NUMBER.finditer(body)))
        body = body[: m.start()] + str(int(m.group(0)) + rng.randint(1, 64)).encode() + body[m.end():]
    elif kind == "string":
        m = rng.choice(list(_STRING.finditer(body)))
        quote = body[m.start():m.start() + 1]
        body = body[: m.start()] + quote + _note(rng).encode() + quote + body[m.end():]
    elif kind == "comment":
        code = body.split(b"  # ", 1)[0]
        body = code + b"  # " + _note(rng).encode()
    else:
        body = indent + b"# " + _note(rng).encode()
    if body == line.rstrip(b"\n"):
        body += b"  # " + _note(rng).encode()
    return body + (newline or b"")


def _block_from(rng: random.Random, lines: list[bytes], low: int, high: int) -> list[bytes]:
    if not lines:
        return [b"pass\n"]
    size = min(len(lines), rng.randint(low, high))
    start = rng.randrange(0, len(lines) - size + 1)
    block = [line if line.endswith(b"\n") else line + b"\n" for line in lines[start : start + size]]
    return block


def edit_text(lines: list[bytes], rng: random.Random, donors: list[list[bytes]], hunks: int | None = None) -> list[bytes]:
    """1-3 hunks of modify / insert-a-copied-block / delete-a-block; the result differs from `lines`."""
    original = lines
    lines = list(lines)
    vocab = _vocab(lines[:400])
    for _ in range(hunks or rng.choice((1, 1, 1, 2, 2, 3))):
        op = rng.random()
        if op < 0.5 or len(lines) < 8:
            n = rng.choice((1, 1, 1, 2, 2, 3, 4, 6))
            start = rng.randrange(0, max(1, len(lines) - n + 1)) if lines else 0
            for i in range(start, min(len(lines), start + n)):
                if rng.random() < 0.8 or i == start:
                    lines[i] = modify_line(lines[i], rng, vocab)
            if not lines:
                lines = [b"# " + _note(rng).encode() + b"\n"]
        elif op < 0.8:
            donor = rng.choice(donors)
            block = _block_from(rng, donor, 1, rng.choice((4, 8, 12, 25)))
            position = rng.randrange(0, len(lines) + 1)
            if position == len(lines) and lines and not lines[-1].endswith(b"\n"):
                lines[-1] += b"\n"
            lines[position:position] = block
        else:
            n = min(len(lines) - 4, rng.choice((1, 1, 2, 3, 5, 8, 12)))
            if n > 0:
                start = rng.randrange(0, len(lines) - n + 1)
                del lines[start : start + n]
    if lines == original:
        lines.append(b"# " + _note(rng).encode() + b"\n")
    return lines


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


# -- messages --------------------------------------------------------------------------------------

VERBS = ("fix", "handle", "simplify", "speed up", "document", "test", "refactor", "rename", "drop", "validate",
         "cache", "log", "guard", "clarify", "split", "inline", "tidy")
NOUNS = ("empty input", "unicode paths", "the batch size", "error messages", "the progress bar", "a race on close",
         "large files", "the default limit", "timeouts", "stale snapshots", "the read-only mode", "CRLF files",
         "renamed files", "the lock file", "deleted rows", "bad UTF-8", "the schema migration")
SHORT = ("fix typo", "wip", "address review comments", "fix tests", "lint", "bump version", "revert debug print",
         "docs", "formatting", "update README")


def _area(path: str) -> str:
    if path.startswith("tests/"):
        return "tests"
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return {"README": "README", "__init__": path.rsplit("/", 2)[-2] if "/" in path else "init"}.get(stem, stem)


def make_message(rng: random.Random, seed: Seed, paths: list[str], words: list[bytes]) -> str:
    r = rng.random()
    area = _area(rng.choice(paths)) if paths else "misc"
    if r < 0.35:
        subject = rng.choice(seed.subjects)
    elif r < 0.72:
        thing = rng.choice(words).decode() if words and rng.random() < 0.5 else rng.choice(NOUNS)
        verb = rng.choice(VERBS)
        subject = f"{area}: {verb} {thing}"
        if rng.random() < 0.3:
            subject += f" in {rng.choice(NOUNS)}"
    elif r < 0.88:
        base = rng.choice(seed.subjects)
        subject = f"{area}: {base.split(': ', 1)[-1]}"
    else:
        subject = rng.choice(SHORT)
    message = subject
    if rng.random() < 0.3 and seed.sentences:
        paragraphs = []
        for _ in range(rng.choice((1, 1, 2, 3))):
            text = " ".join(rng.choice(seed.sentences) for _ in range(rng.randint(1, 3)))
            paragraphs.append(textwrap.fill(text, 72))
        message += "\n\n" + "\n\n".join(paragraphs)
    if rng.random() < 0.05:
        message += f"\n\nFixes #{rng.randint(10, 900)}"
    return message + "\n"


# -- the "history" repository ----------------------------------------------------------------------


@dataclass(frozen=True)
class HistorySpec:
    commits: int = 1200  # reachable from HEAD, merges and side-branch commits included
    extra: int = 10  # further commits behind refs/bench/next
    seed: int = 20261122
    merge_every: int = 25
    initial_share: float = 0.6  # of the seed files in the first commit; the rest arrive later
    deltify: bool = True  # pack with deltas, as a clone is (the extra commits stay loose, as new commits are)


@dataclass(frozen=True)
class BlameSpec:
    lines: int = 2000
    file_commits: int = 500  # commits that change the big file (its add included)
    other_commits: int = 60  # commits touching only the small files
    merge_every: int = 45
    seed: int = 7
    deltify: bool = True


def _key(kind: str, spec) -> str:
    text = json.dumps({"kind": kind, "spec": asdict(spec), "version": GENERATOR_VERSION, "seed": SEED_COMMIT},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


@dataclass
class Clock:
    rng: random.Random
    now: int = START_TIME

    def tick(self, mean_hours: float = 8.0) -> int:
        self.now += int(self.rng.expovariate(1 / (mean_hours * 3600))) + 60
        return self.now


@dataclass
class Line:
    """One line of development: its state and tip."""

    state: dict[str, Entry]
    tip: bytes | None
    reserved: set[str] = field(default_factory=set)  # paths another open line owns


class HistoryBuilder:
    def __init__(self, spec: HistorySpec, seed: Seed):
        self.spec = spec
        self.seed = seed
        self.rng = random.Random(spec.seed)
        self.clock = Clock(random.Random(spec.seed + 1))
        self.sink = ObjectSink()
        self.weights: dict[str, float] = {}
        self.pool = sorted(seed.files)
        self.rng.shuffle(self.pool)
        self.counter = 0
        self.stats = {"merges": 0, "evil_merges": 0, "renames": 0, "renames_with_edits": 0, "adds": 0, "deletes": 0,
                      "binary_changes": 0, "mode_changes": 0}
        self.people = [p[:3] for p in PEOPLE]
        self.people_weights = [p[3] for p in PEOPLE]
        self.mode_change_done = False

    # helpers
    def person(self):
        return self.rng.choices(self.people, self.people_weights)[0]

    def donors(self, state) -> list[list[bytes]]:
        texts = [e.lines for p, e in state.items() if e.lines is not None and p.endswith(".py")]
        return [self.rng.choice(texts) for _ in range(3)] if texts else [[b"pass\n"]]

    def _hot(self, path: str) -> None:
        self.weights.setdefault(path, self.rng.paretovariate(1.2))

    def pick_files(self, state: dict[str, Entry], avoid: set[str], count: int) -> list[str]:
        candidates = [p for p, e in state.items() if e.lines is not None and p not in avoid and p != ".mailmap"]
        for p in candidates:
            self._hot(p)
        chosen: list[str] = []
        for _ in range(count):
            pool = [p for p in candidates if p not in chosen]
            if not pool:
                break
            if chosen and self.rng.random() < 0.6:
                directory = chosen[0].rpartition("/")[0]
                same = [p for p in pool if p.rpartition("/")[0] == directory]
                pool = same or pool
            chosen.append(self.rng.choices(pool, [self.weights[p] for p in pool])[0])
        return chosen

    def new_path(self, state, taken: set[str]) -> str:
        while True:
            self.counter += 1
            words = [w.decode().lower() for w in _vocab(self.rng.choice(self.donors(state)))]
            stem = "_".join(self.rng.choice(words).strip("_")[:12] for _ in range(2)) or "module"
            directory = self.rng.choice(("learnmem", "learnmem/code", "learnmem/git", "learnmem/store", "tests", "tools"))
            name = f"test_{stem}.py" if directory == "tests" else f"{stem}.py"
            path = f"{directory}/{name}"
            if path not in state and path not in taken:
                return path

    # one ordinary commit's changes on `line`; returns touched paths and words for the message
    def change(self, line: Line, taken: set[str], allow_structure: bool = True) -> tuple[list[str], list[bytes]]:
        state, rng = line.state, self.rng
        touched: list[str] = []
        words: list[bytes] = []
        r = rng.random()
        if allow_structure and r < 0.045:  # add a file
            if self.pool:
                path = self.pool.pop()
                data = self.seed.files[path]
                if path in state or path in taken or path in line.reserved:
                    path = self.new_path(state, taken | line.reserved)
            else:
                path = self.new_path(state, taken | line.reserved)
                data = b"".join(b for d in self.donors(state) for b in _block_from(rng, d, 15, 60))
            state[path] = self.sink.text(_lines(data))
            taken.add(path)
            touched.append(path)
            self.stats["adds"] += 1
        elif allow_structure and r < 0.06:  # delete a file
            victims = [p for p, e in state.items() if e.lines is not None and p.endswith(".py")
                       and p not in line.reserved and not p.endswith("__init__.py")]
            if len(victims) > 20:
                path = rng.choice(victims)
                del state[path]
                touched.append(path)
                self.stats["deletes"] += 1
        elif allow_structure and r < 0.085:  # rename, half with edits
            victims = [p for p, e in state.items() if e.lines is not None and p.endswith(".py") and p not in line.reserved]
            if victims:
                old = rng.choice(victims)
                if rng.random() < 0.5:
                    directory = rng.choice(("learnmem/legacy", "learnmem/core", "learnmem/util", "tests/unit"))
                    new = f"{directory}/{old.rpartition('/')[2]}"
                else:
                    new = self.new_path(state, taken | line.reserved)
                if new not in state and new not in taken and new not in line.reserved:
                    entry = state.pop(old)
                    if rng.random() < 0.5:
                        entry = self.sink.text(edit_text(entry.lines, rng, self.donors(state), hunks=1), entry.mode)
                        self.stats["renames_with_edits"] += 1
                    state[new] = entry
                    self.weights[new] = self.weights.get(old, 1.0)
                    taken.add(new)
                    touched += [old, new]
                    self.stats["renames"] += 1
        elif allow_structure and r < 0.10:  # a binary file added or changed
            existing = [p for p in state if p.startswith("docs/img/") and p not in line.reserved]
            if existing and rng.random() < 0.4:
                path = rng.choice(existing)
            else:
                path = f"docs/img/figure-{self.counter:04d}.png"
                self.counter += 1
            data = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + rng.randbytes(rng.randint(2000, 20000))
            state[path] = self.sink.binary(data)
            taken.add(path)
            touched.append(path)
            self.stats["binary_changes"] += 1
        elif (allow_structure and r < 0.102 and not self.mode_change_done and "scripts/release.sh" in state
              and "scripts/release.sh" not in line.reserved):
            entry = state["scripts/release.sh"]
            lines = entry.lines if rng.random() < 0.5 else edit_text(entry.lines, rng, [[b"echo done\n"]], hunks=1)
            state["scripts/release.sh"] = self.sink.text(lines, EXE)
            touched.append("scripts/release.sh")
            self.mode_change_done = True
            self.stats["mode_changes"] += 1
        # and the ordinary edits (a structural commit sometimes edits nothing else)
        count = rng.choices((0, 1, 2, 3, 4, 5, 6), (0, 35, 25, 15, 10, 8, 7))[0]
        if touched and rng.random() < 0.5:
            count = 0
        for path in self.pick_files(state, line.reserved | set(touched), count):
            entry = state[path]
            new_lines = edit_text(entry.lines, rng, self.donors(state))
            before = set(entry.lines)
            words += _vocab([l for l in new_lines if l not in before][:20])[:5]
            state[path] = self.sink.text(new_lines, entry.mode)
            touched.append(path)
        if not touched:
            path = self.pick_files(state, line.reserved, 1)[0]
            state[path] = self.sink.text(edit_text(state[path].lines, rng, self.donors(state)), state[path].mode)
            touched.append(path)
        return touched, words

    def commit(self, line: Line, touched, words, parents=None, message=None, person=None, committer=None) -> bytes:
        person = person or self.person()
        commit_time = self.clock.tick()
        author_time = commit_time - (self.rng.randint(600, 72 * 3600) if self.rng.random() < 0.15 else 0)
        message = message or make_message(self.rng, self.seed, touched, words)
        parents = parents if parents is not None else ([line.tip] if line.tip else [])
        line.tip = self.sink.commit(line.state, parents, person, committer or person, author_time, commit_time, message)
        return line.tip

    def build(self) -> dict:
        rng, spec = self.rng, self.spec
        # the first commit: a share of the seed files, .mailmap, a few non-Python files
        initial = self.pool[: int(len(self.pool) * spec.initial_share)]
        self.pool = self.pool[len(initial):]
        if "README.md" in self.pool:
            self.pool.remove("README.md")
            initial.append("README.md")
        state = {path: self.sink.text(_lines(self.seed.files[path])) for path in initial}
        state[".mailmap"] = self.sink.text(_lines(MAILMAP.encode()))
        state["VERSION"] = self.sink.text([b"0.1.0"])  # no final newline
        state["scripts/release.sh"] = self.sink.text(_lines(b"#!/bin/sh\nset -e\npython -m build\ntwine upload dist/*\n"))
        state["scripts/setup.bat"] = self.sink.text(_lines(b"@echo off\r\npython -m venv .venv\r\n.venv\\Scripts\\pip install -e .\r\n"))
        state["learnmem/py.typed"] = self.sink.text([])  # an empty file
        main = Line(state, None)
        self.commit(main, list(state), [], message="Initial import\n", person=self.people[0])
        reachable = 1
        since_merge = 0
        gap = rng.randint(spec.merge_every - 5, spec.merge_every + 5)
        while reachable < spec.commits:
            remaining = spec.commits - reachable
            if since_merge >= gap and remaining > 12:
                reachable += self.side_branch(main, remaining)
                since_merge, gap = 0, rng.randint(spec.merge_every - 5, spec.merge_every + 5)
                continue
            touched, words = self.change(main, set())
            self.commit(main, touched, words)
            reachable += 1
            since_merge += 1
        head = main.tip
        head_state = dict(main.state)
        head_objects = self.sink.hinted()
        # the extra commits (loose objects): ordinary edits only, as a day of work would bring
        seen = set(self.sink.objects)
        for _ in range(spec.extra):
            touched, words = self.change(main, set(), allow_structure=False)
            self.commit(main, touched, words)
        extra_objects = [obj for sha, obj in self.sink.objects.items() if sha not in seen]
        text_lines = sum(len(e.lines) for e in head_state.values() if e.lines is not None)
        return {"head": head, "next": main.tip, "head_objects": head_objects, "extra_objects": extra_objects,
                "stats": {**self.stats, "commits": reachable, "files_at_head": len(head_state),
                          "text_lines_at_head": text_lines}}

    def side_branch(self, main: Line, remaining: int) -> int:
        """A branch forked from main's tip, 2-5 commits, main moving on meanwhile, then merged. Returns commits added."""
        rng = self.rng
        branch_len = rng.randint(2, 5)
        main_len = rng.randint(0, 4)
        while branch_len + main_len + 1 > remaining - 10 and main_len:
            main_len -= 1
        base_state = dict(main.state)
        branch = Line(dict(main.state), main.tip)
        branch_files = set(self.pick_files(main.state, set(), rng.randint(1, 4)))
        branch.reserved = set(main.state) - branch_files  # the branch edits only its files (and adds new ones)
        main.reserved = set(branch_files)
        owner = self.person()
        name = "-".join(rng.choice(NOUNS).replace("the ", "").split()[:2]).lower()
        taken: set[str] = set()
        order = ["b"] * branch_len + ["m"] * main_len
        rng.shuffle(order)
        order.remove("b")
        order.insert(0, "b")
        branch_subject = None
        for who in order:
            if who == "b":
                touched, words = self.change(branch, taken, allow_structure=rng.random() < 0.3)
                self.commit(branch, touched, words, person=owner)
                branch_subject = branch_subject or self.sink.objects[branch.tip].message.decode().split("\n")[0]
            else:
                touched, words = self.change(main, taken)
                self.commit(main, touched, words)
        # the merge: main's state with every path the branch changed taken from the branch
        changed = {p for p in set(base_state) | set(branch.state) if base_state.get(p) is not branch.state.get(p)}
        for path in sorted(changed):
            if path in branch.state:
                main.state[path] = branch.state[path]
            else:
                main.state.pop(path, None)
        main.reserved = set()
        touched = sorted(changed)
        if rng.random() < 0.25:  # a merge that also edits (a conflict resolved by hand)
            path = self.pick_files(main.state, set(), 1)[0]
            main.state[path] = self.sink.text(edit_text(main.state[path].lines, rng, self.donors(main.state), hunks=1),
                                              main.state[path].mode)
            self.stats["evil_merges"] += 1
        if rng.random() < 0.5:
            number = rng.randint(100, 999)
            message = (f"Merge pull request #{number} from {owner[1].split('@')[0]}/{name}\n\n{branch_subject}\n")
            committer = MERGER
        else:
            message = f"Merge branch '{name}'\n"
            committer = owner
        self.commit(main, touched, [], parents=[main.tip, branch.tip], message=message, person=owner,
                    committer=committer)
        self.stats["merges"] += 1
        return branch_len + main_len + 1


def build_history(spec: HistorySpec = HistorySpec(), force: bool = False) -> tuple[Path, dict]:
    """The cached "history" repository for `spec` (built if missing): (path, manifest)."""
    path = REPOS_DIR / f"history-{_key('history', spec)}"
    manifest_path = path / "bench-manifest.json"
    if manifest_path.exists() and not force:
        return path / "repo.git", json.loads(manifest_path.read_text())
    started = time.perf_counter()
    log(f"building the history repository ({spec.commits} commits) under {path}")
    seed = load_seed()
    built = HistoryBuilder(spec, seed).build()
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    repo = Repo.init_bare(str(path / "repo.git"), mkdir=True)
    _write_pack(repo, built["head_objects"], spec.deltify)
    for obj in built["extra_objects"]:
        repo.object_store.add_object(obj)
    repo.refs[b"refs/heads/main"] = built["head"]
    repo.refs[b"refs/bench/next"] = built["next"]
    repo.refs.set_symbolic_ref(b"HEAD", b"refs/heads/main")
    repo.close()
    manifest = {"spec": asdict(spec), "seed_commit": seed.commit, "head": built["head"].decode(),
                "next": built["next"].decode(), "stats": built["stats"], "objects": len(built["head_objects"]),
                "build_seconds": round(time.perf_counter() - started, 1)}
    manifest_path.write_text(json.dumps(manifest, indent=1))
    log(f"built in {manifest['build_seconds']} s: {manifest['stats']}")
    return path / "repo.git", manifest


# -- the "blame" repository ------------------------------------------------------------------------

BIG_OLD_PATH = "src/engine.py"
BIG_PATH = "learnmem/engine.py"


def _big_file(seed: Seed, target: int, rng: random.Random) -> list[bytes]:
    """~`target` lines of real Python: top-level functions and classes of the seed files, each name once."""
    nodes = []
    for path in sorted(seed.files):
        if not path.endswith(".py"):
            continue
        source = seed.files[path].decode("utf-8", "replace")
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        lines = source.splitlines(keepends=True)
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                nodes.append((node.name, "".join(lines[start - 1 : node.end_lineno])))
    rng.shuffle(nodes)
    out = ['"""The engine: everything in one module (a benchmark fixture for blame)."""\n', "\n",
           "from __future__ import annotations\n", "\n"]
    names = set()
    for name, text in nodes:
        if name in names or len(out) >= target:
            continue
        block = text.splitlines(keepends=True)
        if len(out) + len(block) + 2 > target + 40:
            continue
        names.add(name)
        out += ["\n", "\n"] + block
    body = "".join(out)
    ast.parse(body)
    return [line.encode() for line in body.splitlines(keepends=True)]


def _edit_big(lines: list[bytes], rng: random.Random, target: int) -> list[bytes]:
    """A few scattered one-line changes, sometimes a small block in or out; always valid Python."""
    for _ in range(50):
        new = list(lines)
        vocab = _vocab(new[:: max(1, len(new) // 300)])
        for _ in range(rng.choice((1, 1, 2, 2, 3, 4, 5))):
            i = rng.randrange(len(new))
            new[i] = modify_line(new[i], rng, vocab)
        if rng.random() < 0.25:
            size = rng.randint(1, 6)
            if len(new) > target or (len(new) == target and rng.random() < 0.5):
                start = rng.randrange(len(new) - size)
                del new[start : start + size]
            else:
                start = rng.randrange(len(new) - size)
                i = rng.randrange(len(new))
                new[i:i] = new[start : start + size]
        try:
            ast.parse(b"".join(new))
        except (SyntaxError, ValueError):
            continue
        if new != lines:
            return new
    raise RuntimeError("could not find a valid edit of the big file in 50 tries")


def build_blame(spec: BlameSpec = BlameSpec(), force: bool = False) -> tuple[Path, dict]:
    """The cached "blame" repository for `spec` (built if missing; has a worktree): (path, manifest)."""
    folder = REPOS_DIR / f"blame-{_key('blame', spec)}"
    manifest_path = folder / "bench-manifest.json"
    if manifest_path.exists() and not force:
        return folder / "repo", json.loads(manifest_path.read_text())
    started = time.perf_counter()
    log(f"building the blame repository ({spec.file_commits} commits of a {spec.lines}-line file) under {folder}")
    seed = load_seed()
    rng = random.Random(spec.seed)
    clock = Clock(random.Random(spec.seed + 1))
    sink = ObjectSink()
    people = [p[:3] for p in PEOPLE]
    weights = [p[3] for p in PEOPLE]
    big = _big_file(seed, spec.lines - 30, rng)
    small = {
        ".mailmap": _lines(MAILMAP.encode()),
        "README.md": _lines(seed.files["README.md"])[:80],
        "learnmem/__init__.py": [b'"""learnmem."""\n', b"\n", b"from learnmem.engine import *  # noqa\n"],
        "tests/test_engine.py": _lines(seed.files[min(p for p in seed.files if p.startswith("tests/"))])[:150],
    }
    state = {p: sink.text(lines) for p, lines in small.items()}
    state[BIG_OLD_PATH] = sink.text(big)
    big_path = BIG_OLD_PATH
    tip = None
    # file_commits: non-merge commits that change the big file (its add and rename included)
    counts = {"file_commits": 0, "other_commits": 0, "merges": 0, "commits": 0}

    def commit(parents, message, person=None, committer=None):
        nonlocal tip
        person = person or rng.choices(people, weights)[0]
        t = clock.tick(6.0)
        tip = sink.commit(state, parents, person, committer or person, t, t, message)
        counts["commits"] += 1
        return tip

    commit([], "Initial import of the engine\n", people[0])
    counts["file_commits"] += 1
    renamed = False
    since_merge = 0
    others = [p for p in small if p != ".mailmap"]
    while counts["file_commits"] < spec.file_commits or counts["other_commits"] < spec.other_commits:
        file_left = spec.file_commits - counts["file_commits"]
        other_left = spec.other_commits - counts["other_commits"]
        if not renamed and counts["file_commits"] >= spec.file_commits * 3 // 10:
            # a pure rename (git blame and log --follow go through it)
            state[BIG_PATH] = state.pop(big_path)
            big_path = BIG_PATH
            commit([tip], f"Move the engine into the package ({BIG_OLD_PATH} -> {BIG_PATH})\n")
            counts["file_commits"] += 1
            renamed = True
            continue
        if since_merge >= spec.merge_every and file_left > 5 and other_left > 2:
            # a side branch of 2-3 commits on the big file while main touches only small files; a --no-ff merge
            branch_state = dict(state)
            owner = rng.choices(people, weights)[0]
            branch_tip = tip
            n = rng.randint(2, 3)
            for _ in range(n):
                branch_state[big_path] = sink.text(_edit_big(branch_state[big_path].lines, rng, spec.lines))
                t = clock.tick(6.0)
                branch_tip = sink.commit(branch_state, [branch_tip], owner, owner, t, t,
                                         make_message(rng, seed, [big_path], []))
                counts["commits"] += 1
            counts["file_commits"] += n
            for _ in range(rng.randint(0, 2)):
                path = rng.choice(others)
                state[path] = sink.text(edit_text(state[path].lines, rng, [big]))
                commit([tip], make_message(rng, seed, [path], []))
                counts["other_commits"] += 1
            state[big_path] = branch_state[big_path]
            commit([tip, branch_tip], f"Merge branch 'engine-{counts['merges'] + 1}'\n", owner)
            counts["merges"] += 1
            since_merge = 0
            continue
        if rng.random() * (file_left + other_left) < file_left:
            state[big_path] = sink.text(_edit_big(state[big_path].lines, rng, spec.lines))
            touched = [big_path]
            if rng.random() < 0.2:
                path = "tests/test_engine.py"
                state[path] = sink.text(edit_text(state[path].lines, rng, [big]))
                touched.append(path)
            commit([tip], make_message(rng, seed, touched, []))
            counts["file_commits"] += 1
        else:
            path = rng.choice(others)
            state[path] = sink.text(edit_text(state[path].lines, rng, [big]))
            commit([tip], make_message(rng, seed, [path], []))
            counts["other_commits"] += 1
        since_merge += 1

    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    repo = Repo.init(str(folder / "repo"), mkdir=True)
    _write_pack(repo, sink.hinted(), spec.deltify)
    repo.refs[b"refs/heads/main"] = tip
    repo.refs.set_symbolic_ref(b"HEAD", b"refs/heads/main")
    for file_path, entry in state.items():  # the worktree at HEAD (for index_codebase)
        target = folder / "repo" / file_path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(b"".join(entry.lines) if entry.lines is not None else entry.data)
    try:
        repo.get_worktree().reset_index()  # a git index matching HEAD (a clean `git status`)
    except Exception as error:  # noqa: BLE001 - only cosmetic
        log(f"(no git index written: {error})")
    repo.close()
    big_lines = len(state[big_path].lines)
    manifest = {"spec": asdict(spec), "seed_commit": seed.commit, "head": tip.decode(), "big_path": big_path,
                "big_old_path": BIG_OLD_PATH, "big_lines": big_lines, "stats": counts,
                "objects": len(sink.objects), "build_seconds": round(time.perf_counter() - started, 1)}
    manifest_path.write_text(json.dumps(manifest, indent=1))
    log(f"built in {manifest['build_seconds']} s: {big_path} has {big_lines} lines; {counts}")
    return folder / "repo", manifest
