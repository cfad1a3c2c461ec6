"""DuckDB extensions loaded from their PyPI wheels, never the network, and the literal quoting that the
statements without parameters (ATTACH, LOAD) need."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import duckdb

from learnmem.errors import LearnmemError
from learnmem.storage import sql


def extension_path(name: str) -> Path:
    """The binary of a DuckDB extension shipped in its PyPI wheel (`duckdb-extension-<name>`)."""
    package = f"duckdb_extension_{name}"
    spec = importlib.util.find_spec(package)
    binary = None
    if spec and spec.origin:
        binary = Path(spec.origin).parent / "extensions" / f"v{duckdb.__version__}" / f"{name}.duckdb_extension"
    if binary is None or not binary.is_file():
        raise LearnmemError(
            f"DuckDB extension {name!r} is not installed for duckdb {duckdb.__version__}: "
            f"pip install duckdb-extension-{name}=={duckdb.__version__}"
        )
    return binary


def load_extension(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """LOAD an extension from its wheel's binary (signed; no network)."""
    con.execute(sql.query("load_extension").format(path=quote_literal(str(extension_path(name)))))


def quote_literal(text: str) -> str:
    """A SQL string literal, for the statements that take no parameters (ATTACH, LOAD)."""
    return "'" + text.replace("'", "''") + "'"
