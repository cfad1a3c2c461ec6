"""The architectural boundaries of DESIGN.md, checked on the source's syntax trees.

- the layering (LAYERS below, a table of who may import whom, with the few named reads between areas) holds
  for every import in `learnmem` and `mcp_adapter`, lazy and TYPE_CHECKING imports included, and no module
  imports itself back through others (no import cycle);
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


# -- the layering ---------------------------------------------------------------------------------------------
#
# Every module belongs to the longest unit below that prefixes its dotted name. A unit may import itself and
# what its row names; anything else must be a named read in READS, with its reason. From the bottom up:
HELPERS = ("learnmem.errors", "learnmem.validate", "learnmem.progress", "learnmem.text", "learnmem.version",
           "learnmem.without_pandas")
BASE = ("learnmem.storage", "learnmem.embedding", "learnmem.search")  # import no other learnmem package
AREAS = ("learnmem.memory", "learnmem.code", "learnmem.git", "learnmem.learning")  # import only the base
RECORDS = ("learnmem.memory.records", "learnmem.learning.records", "learnmem.learning.ghap_records",
           "learnmem.git.records", "learnmem.context.records")
# The doors (the CLI, the MCP adapter) go through the facade, the errors, the records and the vocabulary.
DOOR = ("learnmem", "learnmem.api", "learnmem.errors", "learnmem.vocabulary", "learnmem.without_pandas", *RECORDS)
LAYERS: dict[str, tuple[str, ...]] = {
    "learnmem.errors": (),
    "learnmem.version": (),
    "learnmem.progress": (),
    "learnmem.text": (),
    "learnmem.without_pandas": (),
    "learnmem.validate": ("learnmem.errors",),
    **{unit: HELPERS for unit in BASE},
    **{unit: HELPERS + BASE for unit in AREAS},
    "learnmem.context": HELPERS + BASE + AREAS,  # reads every area
    "learnmem.agents": HELPERS + BASE + AREAS + ("learnmem.context",),
    "learnmem.exchange": HELPERS + BASE + AREAS,
    "learnmem.vocabulary": AREAS + ("learnmem.context",),
    "learnmem.api": HELPERS + BASE + AREAS + ("learnmem.context", "learnmem.agents", "learnmem.exchange"),
    "learnmem": ("learnmem.api", "learnmem.errors", "learnmem.version", "learnmem.memory"),  # the package's face
    "learnmem.cli": DOOR,
    "mcp_adapter": DOOR,
}
# (importer, imported): why this read crosses the table. Each is a module prefix on both sides.
READS: dict[tuple[str, str], str] = {
    ("learnmem.memory.files", "learnmem.git.repository"):
        "a memory's files are read as they were at the commit it was made at",
    ("learnmem.git.lines", "learnmem.code.parse"):
        "a unit's history finds the unit in each version of its file with the code parser",
    ("learnmem.agents.hook_views", "learnmem"):
        "the hooks are Claude Code's door: they answer from a one-shot view and open the facade only to fall back "
        "(context the view cannot give) and to flush the capture queue at Stop",
    ("learnmem.cli.hooks", "learnmem.agents.hooks"):
        "`learnmem hook <event>` is how Claude Code reaches the hooks' door",
    ("learnmem.cli.hooks", "learnmem.agents.hook_socket"):
        "`learnmem hook <event>` asks the MCP server first, importing only the standard library",
    ("mcp_adapter.process", "learnmem.agents.hook_server"):
        "the MCP server answers the hooks of its project warm, with its open facade, over a socket",
    ("learnmem.cli.app", "learnmem.agents.setup"):
        "`learnmem init --claude/--opencode` writes the agent's project files, which need no learnmem file",
    ("learnmem.cli.app", "learnmem.agents.doctor"):
        "`learnmem doctor` runs the agents' files as the agents do; it needs no facade",
    ("learnmem.cli.app", "learnmem.embedding.embed"):
        "`learnmem reembed --model` loads the model it is asked for before opening the file with it",
    ("learnmem.cli.ghap", "learnmem.learning.ghap"):
        "`learnmem ghap start|update|status|list` run on every agent step: without the facade they skip ~450 ms "
        "of numpy and pyarrow imports",
    ("learnmem.cli.ghap", "learnmem.storage.store"): "the same fast path: the store alone",
    ("learnmem.cli.ghap", "learnmem.embedding.embed"): "the same fast path: the model's name for the store's check",
    ("learnmem.cli.lake", "learnmem.exchange.lake_sync"):
        "`learnmem lake push|pull` copy between a file and a lake project, two stores the facade holds one of",
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


_MODULES = {_module_name(path): path for path in _all_files()}


def _imports(name: str) -> list[tuple[str, int]]:
    """(imported module, line) for every import of a learnmem or mcp_adapter module in module `name`;
    `from package import module` names the module, `from module import name` the module."""
    path = _MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.append((full if full in _MODULES else base, node.lineno))
    return [(module, line) for module, line in found if module.split(".")[0] in PACKAGES]


def _unit(name: str) -> str:
    """The row of LAYERS a module belongs to: the longest unit that prefixes its name."""
    units = [unit for unit in LAYERS if _within(name, unit)]
    assert units, f"{name} belongs to no unit of LAYERS: add it to the table"
    return max(units, key=len)


def _within(name: str, prefix: str) -> bool:
    """`name` is `prefix` or inside it; `learnmem` alone means the package's face (its __init__), not all of it."""
    return name == prefix or (prefix != "learnmem" and name.startswith(prefix + "."))


def _allowed(importer: str, imported: str) -> bool:
    home = _unit(importer)
    return (_unit(imported) == home or any(_within(imported, unit) for unit in LAYERS[home])
            or any(_within(importer, a) and _within(imported, b) for a, b in READS))


def _layering_offences() -> list[str]:
    offences = []
    for name in sorted(_MODULES):
        for imported, line in _imports(name):
            if not _allowed(name, imported):
                home = _unit(name)
                offences.append(f"{_rel(_MODULES[name])}:{line} imports {imported}, but {home} may import only "
                                f"{', '.join(LAYERS[home]) or 'the standard library'} (LAYERS) and READS names no "
                                "such read")
    return offences


def _cycles() -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan), each as a sorted list."""
    graph = {name: sorted({module for module, _ in _imports(name) if module in _MODULES and module != name})
             for name in _MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for child in graph[node]:
            if child not in index:
                visit(child)
                low[node] = min(low[node], low[child])
            elif child in on_stack:
                low[node] = min(low[node], index[child])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in graph:
        if name not in index:
            visit(name)
    return found


def test_every_module_has_a_unit() -> None:
    assert {_unit(name) for name in _MODULES} >= {"learnmem.storage", "learnmem.memory", "learnmem.cli",
                                                  "mcp_adapter", "learnmem.api"}


def test_the_layering_holds() -> None:
    offences = _layering_offences()
    assert not offences, "imports across the layering:\n" + "\n".join(offences)


def test_no_import_cycle() -> None:
    cycles = _cycles()
    detail = []
    for cycle in cycles:
        members = set(cycle)
        edges = [f"  {_rel(_MODULES[name])}:{line} imports {module}"
                 for name in cycle for module, line in _imports(name) if module in members and module != name]
        detail.append(" <-> ".join(cycle) + "\n" + "\n".join(edges))
    assert not cycles, "import cycles:\n" + "\n".join(detail)


def test_each_named_read_is_used() -> None:
    # A read the code no longer makes must leave the table, or the table stops saying what the code does.
    used = {(a, b) for a, b in READS for name in _MODULES if _within(name, a)
            for imported, _ in _imports(name) if _within(imported, b)}
    assert set(READS) <= used, f"named reads no module makes: {sorted(set(READS) - used)}"


def test_the_checks_catch_what_they_should() -> None:
    # The checks themselves: a base package reading an area, and a door reaching past the facade, are caught.
    assert not _allowed("learnmem.storage.store", "learnmem.memory.memories")
    assert not _allowed("mcp_adapter.server", "learnmem.storage.store")
    assert not _allowed("learnmem.memory.compaction", "learnmem.exchange.portable")
    assert _allowed("learnmem.memory.files", "learnmem.git.repository")
    assert _allowed("learnmem.cli.app", "learnmem.api")
    assert _allowed("learnmem.memory.index", "learnmem.memory.records")
