"""Incremental code indexing: a re-index after any edits equals a clean index of the same tree
(property-tested over random add / edit / rename / delete sequences), bad input gives clear
errors or counted skips, and an index run that fails half-way leaves the file consistent.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import tracemalloc
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import learnmem
from learnmem.code import indexer, walk
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import NotFoundError

PROJECT = "proj"

# --- comparing two files ---------------------------------------------------------------------------

# Every column but ids, sequence numbers, timestamps and the project (compared per project).
_TABLES = {
    "code_files": "path, language, module, content_hash, size_bytes, syntax_errors",
    "code_units": "file_path, module, name, qualified_name, unit_type, signature, docstring, content, "
                  "start_line, end_line, language, complexity, content_hash, bases, terms, embedding",
    "code_imports": "* EXCLUDE (project)",
    "call_sites": "* EXCLUDE (project)",
    "call_edges": "* EXCLUDE (project)",
}


def snapshot(lm, project: str = PROJECT) -> dict[str, list]:
    """Every indexed row of `project`, table by table, as sorted lists."""
    out = {}
    for table, columns in _TABLES.items():
        rows = lm.sql(f"SELECT {columns} FROM {table} WHERE project = '{project}'").fetchall()
        out[table] = sorted(rows, key=repr)
    return out


def assert_same_index(actual: dict, expected: dict) -> None:
    for table in _TABLES:
        assert actual[table] == expected[table], f"{table} differs from a clean index"


def clean_snapshot(tree: Path, db: Path) -> dict:
    if db.exists():
        db.unlink()
    clean = learnmem.open(db, embedder=HashingEmbedder())
    clean.index_codebase(tree, project=PROJECT, progress=False)
    return snapshot(clean)


@contextmanager
def patched(obj, name, value):
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


# --- generated trees -------------------------------------------------------------------------------

PY_PATHS = ("pkg/__init__.py", "pkg/a.py", "pkg/b.py", "pkg/sub/__init__.py", "pkg/sub/c.py", "lib/d.py", "e.py")
TS_PATHS = ("web/util.ts", "web/app.ts")
YAML_PATHS = ("conf/settings.yaml", "conf/other.yml")
ALL_PATHS = PY_PATHS + TS_PATHS + YAML_PATHS
PY_MODULES = ("pkg", "pkg.a", "pkg.b", "pkg.sub", "pkg.sub.c", "lib.d", "e")
FUNCS = ("alpha", "beta", "gamma", "load")
CLASSES = ("Config", "Loader")


def _family(path: str) -> tuple[str, ...]:
    return PY_PATHS if path.endswith(".py") else TS_PATHS if path.endswith(".ts") else YAML_PATHS


@st.composite
def python_source(draw) -> str:
    lines: list[str] = []
    if draw(st.booleans()):
        lines += ['"""A generated module."""', ""]
    imported: list[str] = []
    for module, name in draw(st.lists(st.tuples(st.sampled_from(PY_MODULES), st.sampled_from(FUNCS + CLASSES)),
                                      max_size=3, unique=True)):
        lines.append(f"from {module} import {name}")
        imported.append(name)
    aliases: list[str] = []
    for module in draw(st.lists(st.sampled_from(PY_MODULES), max_size=2, unique=True)):
        alias = module.replace(".", "_") + "_mod"
        lines.append(f"import {module} as {alias}")
        aliases.append(alias)
    if draw(st.booleans()):
        lines.append("from . import a as rel")
        aliases.append("rel")
    lines += [""] * draw(st.integers(0, 2))
    functions = draw(st.lists(st.sampled_from(FUNCS), max_size=3, unique=True))
    callees = st.sampled_from(list(functions) + imported + [f"{a}.{f}" for a in aliases for f in FUNCS] + ["print"])
    for name in functions:
        lines += ["", f"def {name}(x):"]
        if draw(st.booleans()):
            lines.append(f'    """{name.title()} the input."""')
        for callee in draw(st.lists(callees, max_size=3)):
            lines.append(f"    x = {callee}(x)")
        lines.append(f"    return x + {draw(st.integers(0, 3))}")
    for cls in draw(st.lists(st.sampled_from(CLASSES), max_size=2, unique=True)):
        base = draw(st.sampled_from(["", "(Config)", "(object)"] + [f"({n})" for n in imported if n in CLASSES]))
        lines += ["", f"class {cls}{base if base != f'({cls})' else ''}:"]
        methods = draw(st.lists(st.sampled_from(("run", "save", "__init__")), min_size=1, max_size=2, unique=True))
        for method in methods:
            lines.append(f"    def {method}(self):")
            other = draw(st.sampled_from([m for m in methods if m != method] + ["helper"]))
            lines.append(f"        return self.{other}()")
            if functions:
                lines.append(f"        {draw(st.sampled_from(functions))}(1)")
    if draw(st.booleans()):
        lines += ["", f"{draw(callees)}(0)"]  # a module-level call
    if draw(st.integers(0, 9)) == 0:
        lines += ["", "def broken(:", "    pass"]  # a syntax error
    return "\n".join(lines) + "\n"


@st.composite
def ts_source(draw) -> str:
    lines = []
    if draw(st.booleans()):
        lines.append("import { helper } from './util';")
    for name in draw(st.lists(st.sampled_from(FUNCS), min_size=1, max_size=3, unique=True)):
        callee = draw(st.sampled_from(FUNCS + ("helper",)))
        lines += [f"export function {name}(s: string): string {{", f"  return {callee}(s);", "}", ""]
    if draw(st.booleans()):
        lines += ["export class Service {", "  run() { return this.go(); }", "  go() { return alpha('x'); }", "}"]
    return "\n".join(lines) + "\n"


@st.composite
def yaml_source(draw) -> str:
    keys = draw(st.lists(st.sampled_from(("server", "logging", "database", "cache")), min_size=1, max_size=3, unique=True))
    return "".join(f"{key}:\n  value: {draw(st.integers(0, 9))}\n" for key in keys)


def source_for(path: str):
    return python_source() if path.endswith(".py") else ts_source() if path.endswith(".ts") else yaml_source()


def write(root: Path, relative: str, text: str | bytes) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)


# --- 1. re-index after edits == clean index ----------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_reindex_after_random_edits_equals_a_clean_index(data):
    with tempfile.TemporaryDirectory() as tmp, patched(indexer, "WRITE_BATCH", 2):
        tmp = Path(tmp)
        tree = tmp / "tree"
        tree.mkdir()
        lm = learnmem.open(tmp / "a.duckdb", embedder=HashingEmbedder())
        files: dict[str, str] = {}  # what the tree holds now
        indexed: dict[str, str] = {}  # what the last index run saw
        for path in data.draw(st.lists(st.sampled_from(ALL_PATHS), min_size=1, max_size=5, unique=True), label="initial"):
            files[path] = data.draw(source_for(path), label=f"initial {path}")
        for path, text in files.items():
            write(tree, path, text)

        for step in range(data.draw(st.integers(1, 5), label="steps")):
            only_shifts = step > 0  # the first run indexes everything
            for _ in range(data.draw(st.integers(1, 3), label="ops")):
                free = [p for p in ALL_PATHS if p not in files]
                ops = ["add"] * bool(free) + ["edit", "shift", "touch", "delete"] * bool(files)
                ops += ["rename"] * bool(files and free)
                op = data.draw(st.sampled_from(ops), label="op")
                only_shifts &= op in ("shift", "touch")
                if op == "add":
                    path = data.draw(st.sampled_from(free), label="add")
                    files[path] = data.draw(source_for(path), label=f"source {path}")
                    write(tree, path, files[path])
                    continue
                path = data.draw(st.sampled_from(sorted(files)), label=op)
                if op == "edit":  # a new body: functions added, removed, changed
                    files[path] = data.draw(source_for(path), label=f"source {path}")
                elif op == "shift":  # same units, other lines: vectors are reused, lines move
                    files[path] = ("# moved\n\n" if path.endswith(".py") else "// moved\n\n" if path.endswith(".ts")
                                   else "# moved\n\n") + files[path]
                elif op == "delete":
                    (tree / path).unlink()
                    del files[path]
                    continue
                elif op == "rename":
                    targets = [p for p in free if p in _family(path)] or free
                    target = data.draw(st.sampled_from(targets), label="to")
                    (tree / path).unlink()
                    files[target] = files.pop(path)
                    path = target
                write(tree, path, files[path])

            result = lm.index_codebase(tree, project=PROJECT, progress=False)
            changed = {p for p in files if indexed.get(p) != files[p]}
            deleted = set(indexed) - set(files)
            assert (result.files_indexed, result.files_deleted) == (len(changed), len(deleted))
            assert result.files_unchanged == len(files) - len(changed)
            assert (result.files_failed, result.failures) == (0, ())
            if only_shifts:  # only the shifted files' module units (their whole text) are new
                assert result.units_embedded <= len(changed)
            indexed = dict(files)
            actual = snapshot(lm)
            assert result.units == len(actual["code_units"])
            assert result.calls == len(actual["call_edges"])
            assert_same_index(actual, clean_snapshot(tree, tmp / f"clean{step}.duckdb"))

        again = lm.index_codebase(tree, project=PROJECT, progress=False)
        assert (again.files_indexed, again.files_deleted, again.units_embedded) == (0, 0, 0)
        assert again.files_unchanged == len(files)
        assert snapshot(lm) == actual


def test_renamed_module_moves_its_callers_edges(tmp_path):
    """A rename changes how *other* files' calls resolve: the graph must follow, not just the renamed file."""
    tree = tmp_path / "tree"
    write(tree, "pkg/__init__.py", "")
    write(tree, "pkg/a.py", "from pkg.b import beta\n\ndef alpha():\n    return beta()\n")
    write(tree, "pkg/b.py", "def beta():\n    return 1\n")
    lm = learnmem.open(tmp_path / "a.duckdb", embedder=HashingEmbedder())
    lm.index_codebase(tree, project=PROJECT, progress=False)
    assert [(e.callee_module, e.callee_qualified_name) for e in lm.find_callees("pkg.a.alpha")] == [("pkg.b", "beta")]

    (tree / "pkg/b.py").rename(tree / "pkg/c.py")  # a.py did not change, but its call no longer resolves
    result = lm.index_codebase(tree, project=PROJECT, progress=False)
    assert (result.files_indexed, result.files_deleted, result.files_unchanged) == (1, 1, 2)
    assert [(e.callee_module, e.callee_qualified_name) for e in lm.find_callees("pkg.a.alpha")] == [(None, None)]
    assert_same_index(snapshot(lm), clean_snapshot(tree, tmp_path / "clean.duckdb"))


def test_a_project_indexed_by_an_older_version_is_parsed_again_once(tmp_path, monkeypatch):
    """An upgrade that changes what files yield must not leave old units beside new ones; texts that did not
    change keep their vectors (nothing is embedded again), and the next run finds everything unchanged."""
    tree = tmp_path / "tree"
    write(tree, "pkg/__init__.py", "")
    write(tree, "pkg/a.py", "def alpha():\n    return 1\n")
    lm = learnmem.open(tmp_path / "a.duckdb", embedder=HashingEmbedder())
    first = lm.index_codebase(tree, project=PROJECT, progress=False)
    assert first.files_indexed == 2 and first.units_embedded == first.units

    monkeypatch.setattr(indexer, "UNITS_VERSION", "next")
    again = lm.index_codebase(tree, project=PROJECT, progress=False)
    assert (again.files_indexed, again.files_unchanged, again.units_embedded) == (2, 0, 0)
    settled = lm.index_codebase(tree, project=PROJECT, progress=False)
    assert (settled.files_indexed, settled.files_unchanged) == (0, 2)
    assert_same_index(snapshot(lm), clean_snapshot(tree, tmp_path / "clean.duckdb"))


def test_a_first_index_that_dies_half_way_resumes_where_it_stopped(tmp_path, monkeypatch):
    """Marking a new project current must not cost a killed first run its written batches."""
    tree = tmp_path / "tree"
    for i in range(4):
        write(tree, f"m{i}.py", f"def f{i}():\n    return {i}\n")
    lm = learnmem.open(tmp_path / "a.duckdb", embedder=HashingEmbedder())
    monkeypatch.setattr(indexer, "WRITE_BATCH", 2)
    real_write, writes = indexer._write_batch, []

    def dies_after_one_batch(*args, **kwargs):
        if writes:
            raise RuntimeError("killed")
        writes.append(1)
        return real_write(*args, **kwargs)

    monkeypatch.setattr(indexer, "_write_batch", dies_after_one_batch)
    with pytest.raises(RuntimeError):
        lm.index_codebase(tree, project=PROJECT, progress=False)
    monkeypatch.setattr(indexer, "_write_batch", real_write)
    resumed = lm.index_codebase(tree, project=PROJECT, progress=False)
    assert (resumed.files_unchanged, resumed.files_indexed) == (2, 2)


# --- 2. bad input: clear errors or counted skips, the file left consistent ------------------------------


@pytest.fixture
def lm(tmp_path):
    return learnmem.open(tmp_path / "a.duckdb", embedder=HashingEmbedder())


def indexed_paths(lm) -> set[str]:
    return {row[0] for row in lm.sql("SELECT path FROM code_files").fetchall()}


def test_symlink_loop_and_symlinked_file(lm, tmp_path):
    tree = tmp_path / "tree"
    write(tree, "pkg/a.py", "def alpha():\n    return 1\n")
    (tree / "pkg" / "loop").symlink_to("..", target_is_directory=True)  # pkg/loop -> tree
    (tree / "pkg" / "self").symlink_to(".", target_is_directory=True)  # pkg/self -> pkg
    write(tmp_path, "outside/b.py", "def beta():\n    return 2\n")
    (tree / "b.py").symlink_to(tmp_path / "outside" / "b.py")  # a link out of the root is not followed
    (tree / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    (tree / "x.py").symlink_to(tree / "y.py")  # a file symlink loop
    (tree / "y.py").symlink_to(tree / "x.py")
    started = time.monotonic()
    result = lm.index_codebase(tree, project=PROJECT, progress=False)
    assert time.monotonic() - started < 30
    assert indexed_paths(lm) == {"pkg/a.py"}  # each file once, through no loop, no link followed (issue 9)
    assert (result.files_indexed, result.files_failed) == (1, 0)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_is_counted_as_failed(lm, tmp_path):
    tree = tmp_path / "tree"
    write(tree, "a.py", "def alpha():\n    return 1\n")
    write(tree, "secret.py", "def hidden():\n    return 2\n")
    (tree / "secret.py").chmod(0)
    try:
        result = lm.index_codebase(tree, project=PROJECT, progress=False)
    finally:
        (tree / "secret.py").chmod(0o644)
    assert result.files_failed == 1 and "secret.py" in result.failures[0]
    assert indexed_paths(lm) == {"a.py"}


def test_file_that_cannot_be_read_is_counted_as_failed(lm, tmp_path, monkeypatch):
    """A file deleted between the walk and the read (works as root, unlike chmod 000)."""
    tree = tmp_path / "tree"
    write(tree, "a.py", "def alpha():\n    return 1\n")
    write(tree, "gone.py", "def gone():\n    return 2\n")
    real = walk.candidate_files

    def racing(root, recursive=True):
        for relative in real(root, recursive):
            if relative == "gone.py":
                (root / relative).unlink()
            yield relative

    monkeypatch.setattr(walk, "candidate_files", racing)
    result = lm.index_codebase(tree, project=PROJECT, progress=False)
    assert (result.files_failed, result.files_indexed) == (1, 1)
    assert result.failures[0].startswith("gone.py: ")
    assert indexed_paths(lm) == {"a.py"}


def test_huge_minified_file_is_skipped_quickly_without_reading_it(lm, tmp_path):
    tree = tmp_path / "tree"
    write(tree, "a.py", "def alpha():\n    return 1\n")
    with open(tree / "bundle.min.js", "wb") as out:
        chunk = b"var a=1;" * (1 << 17)  # 1 MiB, no newline
        out.writelines(chunk for _ in range(50))
    tracemalloc.start()
    started = time.monotonic()
    try:
        result = lm.index_codebase(tree, project=PROJECT, progress=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.monotonic() - started < 20
    assert peak < 20 * 1024 * 1024, f"indexing a tree with a 50 MB file peaked at {peak / 2**20:.0f} MiB"
    assert (result.files_skipped, result.files_indexed) == (1, 1)
    assert indexed_paths(lm) == {"a.py"}


def test_non_utf8_content_and_syntax_errors_are_indexed(lm, tmp_path):
    tree = tmp_path / "tree"
    write(tree, "latin.py", b"# caf\xe9\ndef caf\xe9():\n    return '\xff\xfe'\n\ndef ok():\n    return 1\n")
    write(tree, "broken.py", "def broken(:\n    pass\n\ndef fine():\n    return 2\n")
    result = lm.index_codebase(tree, project=PROJECT, progress=False)
    assert (result.files_indexed, result.files_failed) == (2, 0)
    errors = dict(lm.sql("SELECT path, syntax_errors FROM code_files").fetchall())
    assert errors["broken.py"] > 0
    units = {row[0] for row in lm.sql("SELECT qualified_name FROM code_units WHERE file_path = 'latin.py'").fetchall()}
    assert "ok" in units
    content = lm.sql("SELECT content FROM code_units WHERE file_path = 'latin.py' AND unit_type = 'module'").fetchone()[0]
    assert "\ufffd" in content


def test_non_utf8_file_name_is_counted_as_failed_not_fatal(lm, tmp_path):
    tree = tmp_path / "tree"
    write(tree, "a.py", "def alpha():\n    return 1\n")
    with open(os.path.join(os.fsencode(tree), b"bad\xff.py"), "wb") as out:
        out.write(b"def beta():\n    return 2\n")
    result = lm.index_codebase(tree, project=PROJECT, progress=False)
    assert (result.files_indexed, result.files_failed) == (1, 1)
    assert "UTF-8" in result.failures[0]
    assert indexed_paths(lm) == {"a.py"}


def test_gitignore_in_subfolder_and_vendored_folders(lm, tmp_path):
    tree = tmp_path / "tree"
    write(tree, ".gitignore", "*.gen.py\n")
    write(tree, "a.py", "def alpha():\n    return 1\n")
    write(tree, "top.gen.py", "x = 1\n")
    write(tree, "sub/.gitignore", "/local.py\nbuildout/\n!keep.gen.py\n")
    write(tree, "sub/local.py", "x = 1\n")
    write(tree, "sub/deeper/local.py", "x = 1\n")  # "/local.py" is anchored to sub/
    write(tree, "sub/buildout/x.py", "x = 1\n")
    write(tree, "sub/keep.gen.py", "x = 1\n")  # re-included by the deeper .gitignore, as git does
    write(tree, "sub/drop.gen.py", "x = 1\n")
    write(tree, "other/local.py", "x = 1\n")  # sub/.gitignore says nothing about other/
    write(tree, "node_modules/dep/index.js", "function vendored() {}\n")
    write(tree, ".venv/lib/site.py", "x = 1\n")
    write(tree, ".venv/pyvenv.cfg", "home = /usr/bin\n")  # a virtualenv is known by its marker...
    write(tree, "tools/py311/lib/helper.py", "x = 1\n")
    write(tree, "tools/py311/pyvenv.cfg", "home = /usr/bin\n")  # ...whatever its name
    write(tree, "conda/conda-meta/history", "")
    write(tree, "conda/lib/mod.py", "x = 1\n")
    write(tree, "lib/env/data.js", "export function isNode() {}\n")  # a package called env is code (axios)
    write(tree, "web/node_modules/dep/index.js", "function vendored() {}\n")
    # The agents' files that `learnmem init` writes, and the memory's folder.
    write(tree, ".claude/hooks/check.py", "x = 1\n")
    write(tree, ".opencode/plugin/tool.ts", "export const x = 1\n")
    write(tree, ".learnmem/scratch.py", "x = 1\n")
    lm.index_codebase(tree, project=PROJECT, progress=False)
    assert indexed_paths(lm) == {"a.py", "sub/deeper/local.py", "sub/keep.gen.py", "other/local.py", "lib/env/data.js"}


def test_failed_index_call_leaves_previous_rows_intact(lm, tmp_path):
    tree = tmp_path / "tree"
    write(tree, "pkg/a.py", "from pkg.b import beta\n\ndef alpha():\n    return beta()\n")
    write(tree, "pkg/b.py", "def beta():\n    return 1\n")
    lm.index_codebase(tree, project=PROJECT, progress=False)
    before = snapshot(lm)
    shutil.rmtree(tree)
    with pytest.raises(NotFoundError, match="does not exist"):
        lm.index_codebase(tree, project=PROJECT, progress=False)
    assert snapshot(lm) == before
    tree.write_text("now a file")
    with pytest.raises(learnmem.errors.ValidationError, match="is a file"):
        lm.index_codebase(tree, project=PROJECT, progress=False)
    assert snapshot(lm) == before


# --- 3. an index run that fails half-way ------------------------------------------------------------


class FailingEmbedder(HashingEmbedder):
    """Raises on its `fail_on`-th call to embed."""

    def __init__(self, fail_on: int):
        super().__init__()
        self.calls = 0
        self.fail_on = fail_on

    def embed(self, texts, batch_size=32):
        self.calls += 1
        if self.calls == self.fail_on:
            raise RuntimeError("embedder died")
        return super().embed(texts, batch_size)


def edited_tree(root: Path) -> None:
    """Six files calling each other, indexed once, then edited: two changed, one deleted, one added."""
    write(root, "pkg/__init__.py", "")
    for i in range(5):
        write(root, f"pkg/m{i}.py", f"from pkg.m{(i + 1) % 5} import f{(i + 1) % 5}\n\ndef f{i}():\n    return f{(i + 1) % 5}()\n")


def edit(root: Path) -> None:
    write(root, "pkg/m1.py", "from pkg.m3 import f3\n\ndef f1():\n    return f3() + 1\n")
    write(root, "pkg/m2.py", "def f2():\n    return 2\n\ndef g2():\n    return f2()\n")
    (root / "pkg/m4.py").unlink()  # m3's call to f4 no longer resolves
    write(root, "pkg/m5.py", "from pkg.m0 import f0\n\ndef f5():\n    return f0()\n")


@pytest.mark.parametrize("fail_on", [1, 2])
def test_reindex_after_an_embedder_failure_equals_a_clean_index(tmp_path, fail_on):
    tree = tmp_path / "tree"
    edited_tree(tree)
    db = tmp_path / "a.duckdb"
    learnmem.open(db, embedder=HashingEmbedder()).index_codebase(tree, project=PROJECT, progress=False)
    edit(tree)
    with patched(indexer, "WRITE_BATCH", 1), pytest.raises(RuntimeError, match="embedder died"):
        learnmem.open(db, embedder=FailingEmbedder(fail_on)).index_codebase(tree, project=PROJECT, progress=False)
    lm = learnmem.open(db, embedder=HashingEmbedder())
    half = snapshot(lm)
    assert len({row[0] for row in half["code_files"]}) == len(half["code_files"])  # no path twice
    result = lm.index_codebase(tree, project=PROJECT, progress=False)
    assert result.files_indexed >= 1
    assert_same_index(snapshot(lm), clean_snapshot(tree, tmp_path / "clean.duckdb"))


@pytest.mark.parametrize("failing", ["resolve", "deletes"])
def test_reindex_after_a_failure_past_the_file_writes_equals_a_clean_index(tmp_path, monkeypatch, failing):
    """Files written, then the run dies (killed, or the file stayed locked) before the call graph was rebuilt:
    the next run finds no file changed, yet must not keep the stale graph."""
    from learnmem.code import resolve

    tree = tmp_path / "tree"
    edited_tree(tree)
    lm = learnmem.open(tmp_path / "a.duckdb", embedder=HashingEmbedder())
    lm.index_codebase(tree, project=PROJECT, progress=False)
    edit(tree)
    if failing == "resolve":
        def died(files):
            raise RuntimeError("killed")
        monkeypatch.setattr(resolve, "resolve_calls", died)
    else:
        real = indexer._delete_files

        def died(con, project, paths):
            real(con, project, paths)
            if paths == ["pkg/m4.py"]:  # the deletion of vanished files commits, then the run dies
                con.commit()
                con.begin()
                raise RuntimeError("killed")
        monkeypatch.setattr(indexer, "_delete_files", died)
    with pytest.raises(RuntimeError, match="killed"):
        lm.index_codebase(tree, project=PROJECT, progress=False)
    monkeypatch.undo()
    lm.index_codebase(tree, project=PROJECT, progress=False)
    assert_same_index(snapshot(lm), clean_snapshot(tree, tmp_path / "clean.duckdb"))
