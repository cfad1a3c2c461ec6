"""Named SQL queries loaded from `sql/queries/*.sql`.

A file holds blocks that start with a `-- name: query_name` line; the block's
text up to the next name line is the query. Parameters use DuckDB's `$name`
style and are bound by the caller. SQL lives in `.sql` files so that it can be
read, reviewed and run on its own; Python only binds parameters.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

_NAME_LINE = re.compile(r"^--\s*name:\s*([A-Za-z_][A-Za-z0-9_]*)\s*$", re.MULTILINE)


def sql_dir() -> Path:
    """The `sql/` folder: inside the installed package, or beside it in a checkout."""
    package = Path(__file__).parent.parent
    shipped = package / "sql"
    return shipped if shipped.is_dir() else package.parent / "sql"


def parse_queries(text: str, source: str = "<string>") -> dict[str, str]:
    """Split a file's text into {name: query}; duplicate names are an error."""
    queries: dict[str, str] = {}
    matches = list(_NAME_LINE.finditer(text))
    for match, following in zip(matches, matches[1:] + [None]):
        end = following.start() if following else len(text)
        name = match.group(1)
        if name in queries:
            raise ValueError(f"query {name!r} is defined twice in {source}")
        queries[name] = text[match.end() : end].strip()
    return queries


@cache
def queries() -> dict[str, str]:
    """All named queries of every `sql/queries/*.sql` file, names unique across files."""
    found: dict[str, str] = {}
    for path in sorted((sql_dir() / "queries").glob("*.sql")):
        for name, text in parse_queries(path.read_text(encoding="utf-8"), str(path)).items():
            if name in found:
                raise ValueError(f"query {name!r} is defined in more than one file ({path})")
            found[name] = text
    return found


def query(name: str) -> str:
    """The text of one named query."""
    try:
        return queries()[name]
    except KeyError:
        raise KeyError(f"no query named {name!r} in {sql_dir() / 'queries'}") from None


@cache
def migrations() -> tuple[tuple[int, str, str], ...]:
    """(version, name, text) of every `sql/migrations/NNN_name.sql`, in order; read once per process (every
    open compares the file's ledger with them: reading 16 files again cost it ~6 ms)."""
    found = []
    for path in sorted((sql_dir() / "migrations").glob("*.sql")):
        number, _, name = path.stem.partition("_")
        found.append((int(number), name, path.read_text(encoding="utf-8")))
    return tuple(found)
