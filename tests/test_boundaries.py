"""The architectural boundaries of DESIGN.md, checked on the source's syntax trees.

- `mcp_adapter` never imports `duckdb` (it calls the library, which owns the file);
- `learnmem` never imports `mcp` (the library works without any adapter);
- only `learnmem/store.py` calls `duckdb.connect` (one place opens connections);
- no Python file in either package holds SQL text (it lives in `sql/`).
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("learnmem", "mcp_adapter")
SQL_KEYWORDS = ("SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "WITH")


def _python_files(package: str) -> list[Path]:
    """Every .py file of a package, sub-packages included."""
    return sorted((ROOT / package).rglob("*.py"))


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _imported_modules(tree: ast.Module) -> set[str]:
    """Top-level names of every module imported anywhere in the file (lazy imports included)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _all_files() -> list[Path]:
    return [path for package in PACKAGES for path in _python_files(package)]


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_the_packages_have_files() -> None:
    # Guards the other tests against passing vacuously on a wrong ROOT.
    assert _python_files("learnmem"), "no .py files found under learnmem/"
    assert _python_files("mcp_adapter"), "no .py files found under mcp_adapter/"


@pytest.mark.parametrize("path", _python_files("mcp_adapter"), ids=_rel)
def test_mcp_adapter_never_imports_duckdb(path: Path) -> None:
    assert "duckdb" not in _imported_modules(_tree(path))


@pytest.mark.parametrize("path", _python_files("mcp_adapter"), ids=_rel)
def test_mcp_adapter_never_reads_sql_dir(path: Path) -> None:
    # The adapter must not load queries itself: no string literal naming the sql/ tree or a .sql file.
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.strip()
            assert not text.endswith(".sql") and not text.startswith("sql/"), f"{_rel(path)}:{node.lineno}"


@pytest.mark.parametrize("path", _python_files("learnmem"), ids=_rel)
def test_learnmem_never_imports_mcp(path: Path) -> None:
    imported = _imported_modules(_tree(path))
    assert "mcp" not in imported and "mcp_adapter" not in imported


def test_only_store_calls_duckdb_connect() -> None:
    callers = []
    for path in _all_files():
        for node in ast.walk(_tree(path)):
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "connect"
                and isinstance(node.value, ast.Name)
                and node.value.id == "duckdb"
            ):
                callers.append(f"{_rel(path)}:{node.lineno}")
    assert all(caller.startswith("learnmem/store.py:") for caller in callers), callers


def test_no_duckdb_connect_imported_by_name() -> None:
    # `from duckdb import connect` would slip past the attribute check above.
    offenders = []
    for path in _all_files():
        if _rel(path) == "learnmem/store.py":
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom) and node.module == "duckdb":
                offenders += [f"{_rel(path)}:{node.lineno}" for alias in node.names if alias.name == "connect"]
    assert not offenders


def _string_literals(tree: ast.Module) -> list[ast.Constant]:
    """String constants that are not docstrings; an f-string counts by its leading text.

    Docstrings are prose ("Delete one memory by id."), and the middle pieces of an
    f-string ("{n} with tags") start mid-sentence, so neither can open a statement.
    """
    docstrings: set[int] = set()
    pieces: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            docstrings.add(id(first.value))
        if isinstance(node, ast.JoinedStr):
            pieces.update(id(value) for value in node.values[1:])
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and id(node) not in pieces
    ]


# A statement's shape, in any case: prose rarely has these keyword pairs.
_SQL_SHAPE = re.compile(
    r"^(select\b.*\bfrom\b|insert\s+(or\s+\w+\s+)?into\b|update\s+\w+\s+set\b|delete\s+from\b"
    r"|create\s+(or\s+replace\s+)?(temp\w*\s+)?(table|view|index|unique|sequence|schema|macro|type)\b"
    r"|with\s+(recursive\s+)?\w+\s+as\s*\()",
    re.IGNORECASE | re.DOTALL,
)


def _looks_like_sql(text: str) -> bool:
    """A statement: an upper-case leading keyword (SELECT 1), or any case with a statement's shape."""
    stripped = text.strip()
    words = stripped.split(maxsplit=1)
    if not words:
        return False
    first = words[0].rstrip("(;")
    return (first.isupper() and first in SQL_KEYWORDS) or bool(_SQL_SHAPE.match(stripped))


def test_sql_detector() -> None:
    # The detector itself: statements in any case are caught, prose is not.
    for sql in ("SELECT 1", "  select id from memories", "Insert into t values (1)", "DELETE FROM memories",
                "create table t (x int)", "WITH x AS (SELECT 1) SELECT * FROM x", "UPDATE meta SET v = 1"):
        assert _looks_like_sql(sql), sql
    for prose in ("Delete one memory by its id.", "Select a category", "with tags", "Created 3 rows", ""):
        assert not _looks_like_sql(prose), prose


@pytest.mark.parametrize("path", _all_files(), ids=_rel)
def test_no_sql_string_literals(path: Path) -> None:
    offenders = [
        f"line {node.lineno}: {node.value.strip()[:60]!r}"
        for node in _string_literals(_tree(path))
        if _looks_like_sql(node.value)
    ]
    assert not offenders, f"SQL text belongs in sql/, found in {_rel(path)}: {offenders}"
