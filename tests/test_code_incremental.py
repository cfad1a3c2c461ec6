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
from learnmem.embed import HashingEmbedder
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
