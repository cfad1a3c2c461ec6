"""Indexing a real tree into a real file: counts, incremental re-index, deletions, ignores, bad input, call graph."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import learnmem
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import NotFoundError, ValidationError

PROJECT = {
    "pkg/__init__.py": "from .config import Config\n",
    "pkg/config.py": '''
        """Configuration loading."""


        class Config:
            """Settings read from a file."""

            def __init__(self, path):
                self.path = path

            def load(self):
                """Read the file."""
                return parse_lines(open(self.path).read())


        def parse_lines(text):
            return [line for line in text.splitlines() if line and not line.startswith("#")]
        ''',
    "pkg/app.py": '''
        from pkg.config import Config
        from . import config as cfg


        def run(path):
            settings = Config(path)
            settings.load()
            return cfg.parse_lines("a\\nb")


        run("x")
        ''',
    "web/main.ts": "export function greet(name: string): string {\n  return format(name);\n}\nfunction format(s: string) { return s; }\n",
    "settings.yaml": "server:\n  port: 8080\nlogging: debug\n",
    "node_modules/dep/index.js": "function vendored() {}\n",
    "ignored/secret.py": "def hidden(): pass\n",
    ".gitignore": "ignored/\n",
    "notes.txt": "not code\n",
}


def write_tree(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))


@pytest.fixture
def tree(tmp_path) -> Path:
    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    (root / "pkg" / "blob.py").write_bytes(b"\x00\x01binary")
    return root


@pytest.fixture
def code_lm(tmp_path):
    return learnmem.open(tmp_path / "code.duckdb", embedder=HashingEmbedder())


def snapshot(lm) -> tuple:
    units = lm.sql(
        "SELECT file_path, qualified_name, unit_type, start_line, end_line, content_hash, embedding "
        "FROM code_units ORDER BY ALL"
    ).fetchall()
    edges = lm.sql("SELECT * EXCLUDE (project) FROM call_edges ORDER BY ALL").fetchall()
    files = lm.sql("SELECT path, content_hash FROM code_files ORDER BY ALL").fetchall()
    return units, edges, files


def test_index_counts_and_skips(code_lm, tree):
    result = code_lm.index_codebase(tree, project="proj", progress=False)
    indexed = {row[0] for row in code_lm.sql("SELECT path FROM code_files").fetchall()}
    assert indexed == {"pkg/__init__.py", "pkg/config.py", "pkg/app.py", "web/main.ts", "settings.yaml"}
    assert result.files_indexed == 5 and result.files_unchanged == 0
    assert result.files_skipped >= 3  # .gitignore, notes.txt, the binary .py
    units = {(r[0], r[1]) for r in code_lm.sql("SELECT module, qualified_name FROM code_units").fetchall()}
    assert {("pkg.config", "Config"), ("pkg.config", "Config.load"), ("pkg.config", "parse_lines"), ("pkg.app", "")} <= units
    assert result.units == len(units)


def test_call_graph_resolves_through_imports(code_lm, tree):
    code_lm.index_codebase(tree, project="proj", progress=False)
    callers = {(e.caller_module, e.caller_qualified_name) for e in code_lm.find_callers("parse_lines")}
    assert callers == {("pkg.config", "Config.load"), ("pkg.app", "run")}
    resolved = {(e.callee_module, e.callee_qualified_name) for e in code_lm.find_callees("pkg.app.run")}
    assert ("pkg.config", "parse_lines") in resolved
    assert ("pkg.config", "Config.load") in resolved
    top_level = code_lm.find_callers("run")
    assert [(e.caller_module, e.caller_qualified_name) for e in top_level] == [("pkg.app", "")]


def test_reindex_is_incremental_and_equals_a_clean_index(code_lm, tree, tmp_path):
    code_lm.index_codebase(tree, project="proj", progress=False)
    again = code_lm.index_codebase(tree, project="proj", progress=False)
    assert (again.files_indexed, again.files_unchanged, again.units_embedded) == (0, 5, 0)

    config = tree / "pkg" / "config.py"
    config.write_text(config.read_text().replace("return [line", "return [line.strip()"))
    (tree / "web" / "main.ts").unlink()
    write_tree(tree, {"pkg/extra.py": "from .config import parse_lines\n\ndef extra():\n    return parse_lines('')\n"})
    changed = code_lm.index_codebase(tree, project="proj", progress=False)
    assert (changed.files_indexed, changed.files_deleted) == (2, 1)
    assert 0 < changed.units_embedded < changed.units  # only the edited units and the new file's

    clean = learnmem.open(tmp_path / "clean.duckdb", embedder=HashingEmbedder())
    clean.index_codebase(tree, project="proj", progress=False)
    assert snapshot(code_lm) == snapshot(clean)


@pytest.mark.parametrize(("target", "error", "message"), [
    ("missing", NotFoundError, "does not exist"),
    ("file.py", ValidationError, "is a file"),
])
def test_bad_directories(code_lm, tmp_path, target, error, message):
    (tmp_path / "file.py").write_text("x = 1\n")
    with pytest.raises(error, match=message):
        code_lm.index_codebase(tmp_path / target, progress=False)
    assert code_lm.info().counts["code_files"] == 0


def test_other_languages_resolve_within_their_file_only(code_lm, tmp_path):
    root = tmp_path / "ts"
    write_tree(root, {
        "main.ts": """
            export function greet(name: string): string {
              return format(name);
            }
            function format(s: string) { return s; }
            class Shop {
              constructor() {}
              total() { return this.sum(); }
              sum() { return 1; }
            }
            const shop = new Shop();
            console.log(greet("x"));
            """,
        "other.ts": "export function format(x: string) { return x; }\n",
    })
    code_lm.index_codebase(root, project="ts", progress=False)
    edges = set(code_lm.sql(
        "SELECT caller_qualified_name, callee_module, callee_qualified_name, callee_name FROM call_edges"
    ).fetchall())
    assert ("greet", "main", "format", "format") in edges  # the same file's format, not other.ts's
    assert ("Shop.total", "main", "Shop.sum", "sum") in edges
    assert ("", "main", "Shop.constructor", "Shop") in edges
    assert ("", None, None, "log") in edges  # console.log: unresolved, still recorded
