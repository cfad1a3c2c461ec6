"""The architectural boundaries of DESIGN.md, checked on the source's syntax trees.

- `mcp_adapter` never imports `duckdb` (it calls the library, which owns the file), never reads `sql/`
  (no path to it, no import of the library's query loader or store) and goes through the facade only
  (no `.store`, `.sql`, `.snapshot`: those hand out the file or run SQL);
- `learnmem` never imports `mcp` (the library works without any adapter);
- only `learnmem/storage/store.py` calls `duckdb.connect` (one place opens connections);
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


# Library modules that hold the SQL loader and the connections: the adapter must not reach past the facade.
_ADAPTER_FORBIDDEN_MODULES = {"learnmem.storage.sql", "learnmem.storage.store", "duckdb"}
_ADAPTER_FORBIDDEN_ATTRIBUTES = {"store", "sql", "snapshot", "run_query", "copy_to_memory"}
# Calls that open or join paths: a literal naming sql/ (or a .sql file) in them reads the query files.
_PATH_CALLS = {"Path", "PurePath", "open", "joinpath", "files", "read_text", "glob", "rglob", "iterdir", "join"}
_SQL_PATH = re.compile(r"(^|[/\\])(sql|queries|migrations)([/\\]|$)|\.sql$", re.IGNORECASE)


def _full_imports(tree: ast.Module) -> set[str]:
    """Dotted names of every module imported, and `package.name` for each `from package import name`."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("path", _python_files("mcp_adapter"), ids=_rel)
def test_mcp_adapter_never_imports_the_sql_loader_nor_the_store(path: Path) -> None:
    imported = _full_imports(_tree(path))
    offenders = {name for name in imported for banned in _ADAPTER_FORBIDDEN_MODULES
                 if name == banned or name.startswith(banned + ".")}
    assert not offenders, f"{_rel(path)} imports {sorted(offenders)}: call the learnmem facade instead"


@pytest.mark.parametrize("path", _python_files("mcp_adapter"), ids=_rel)
def test_mcp_adapter_goes_through_the_facade_only(path: Path) -> None:
    offenders = [f"line {node.lineno}: .{node.attr}" for node in ast.walk(_tree(path))
                 if isinstance(node, ast.Attribute) and node.attr in _ADAPTER_FORBIDDEN_ATTRIBUTES]
    assert not offenders, f"{_rel(path)} reaches past the facade: {offenders}"


def _path_literals(tree: ast.Module) -> list[ast.Constant]:
    """String literals used as path parts: operands of `/`, arguments of path-opening or joining calls."""
    found: list[ast.Constant] = []
    for node in ast.walk(tree):
        parts: list[ast.AST] = []
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            parts = [node.left, node.right]
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in _PATH_CALLS:
                parts = [*node.args, *(keyword.value for keyword in node.keywords)]
        found += [part for part in parts if isinstance(part, ast.Constant) and isinstance(part.value, str)]
    return found


def test_sql_path_detector() -> None:
    tree = ast.parse('ROOT / "sql" / "queries"\nPath("sql/queries/memories.sql")\nfiles("learnmem").joinpath("sql")\n'
                     'open("x/views.sql")\nPath("data") / "notes.txt"\nNOT = {"sql": "a reason"}\n')
    flagged = [node.value for node in _path_literals(tree) if _SQL_PATH.search(node.value)]
    # Caught wherever a path is built; a plain mention ("sql" as a dict key, prose) is not a path.
    assert sorted(flagged) == sorted(["sql", "queries", "sql/queries/memories.sql", "sql", "x/views.sql"])


@pytest.mark.parametrize("path", _python_files("mcp_adapter"), ids=_rel)
def test_mcp_adapter_never_builds_a_path_into_sql_dir(path: Path) -> None:
    offenders = [f"line {node.lineno}: {node.value!r}" for node in _path_literals(_tree(path))
                 if _SQL_PATH.search(node.value)]
    assert not offenders, f"{_rel(path)} reads sql/: {offenders}"


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
    assert all(caller.startswith("learnmem/storage/store.py:") for caller in callers), callers


def test_no_duckdb_connect_imported_by_name() -> None:
    # `from duckdb import connect` would slip past the attribute check above.
    offenders = []
    for path in _all_files():
        if _rel(path) == "learnmem/storage/store.py":
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
