"""The read-only `sql` tool, registered only by `learnmem-mcp --allow-sql`.

One query statement through the library (`Learnmem.sql` enforces read-only), its rows returned as JSON.
"""

import math
import threading
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from learnmem.errors import ValidationError
from mcp_adapter.results import call
from mcp_adapter.schema import READ_ONLY

MAX_SQL_ROWS = 1000
_SqlValue = str | int | float | bool | None
# Learnmem.sql hands back a relation on DuckDB's module-level connection, which is not thread-safe: tool calls
# run in worker threads, so sql calls take turns.
_SQL_TURN = threading.Lock()


def _sql_value(value: Any) -> Any:
    """One cell as JSON: numbers, text and null as they are; times as ISO 8601; NaN and infinities as null."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Decimal):
        return float(value) if value.is_finite() else None
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if isinstance(value, (list, tuple)):
        return [_sql_value(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _sql_value(item) for key, item in value.items()}
    return str(value)


def _run_sql(lm: Any, query: str, params: list[Any] | dict[str, Any] | None) -> dict[str, Any]:
    """The `sql` tool: run it through the library (`Learnmem.sql`: one query statement, on a DuckDB of its
    own with the file attached read-only and no access to other files; anything else is a validation_error),
    return at most MAX_SQL_ROWS rows."""
    # Looked up by name: the adapter reaches Learnmem.sql nowhere else (tests/test_boundaries.py refuses the
    # attribute), and only this tool, which --allow-sql registers, gets here.
    with _SQL_TURN:
        relation = getattr(lm, "sql")(query, params)  # noqa: B009
        try:
            columns = list(relation.columns)
            rows = relation.limit(MAX_SQL_ROWS + 1).fetchall()
            cells = [[_sql_value(value) for value in row] for row in rows[:MAX_SQL_ROWS]]
        except Exception as exc:  # noqa: BLE001 - a value Python cannot hold, a list nested too deeply...
            raise ValidationError(f"query: its result cannot be returned: {type(exc).__name__}: {exc}") from None
    return {"columns": columns, "rows": cells, "count": len(cells), "truncated": len(rows) > MAX_SQL_ROWS}


def register(server: MCPServer, lm: Any) -> None:
    """Register the read-only `sql` tool of `lm` (an opened `learnmem.Learnmem`) on `server`."""

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Run one read-only SQL query on the memory file (DuckDB; the tables and views of the README's SQL "
            "section) and get its rows. One statement that reads (SELECT, WITH, FROM, VALUES, TABLE, DESCRIBE, "
            "SHOW, SUMMARIZE); anything else (INSERT, CREATE, ATTACH, COPY, SET...) or a second "
            "statement is refused with a validation_error, and no other file can be read or written. params: "
            "values for $1, $2... (a list) "
            f"or $name (an object). Returns {{columns, rows, count, truncated}}: at most {MAX_SQL_ROWS} rows, "
            "truncated when there were more."
        ),
    )
    async def sql(
        query: Annotated[str, Field(description="One read-only statement over the tables and views of the "
                                                "README's SQL section (memory_list, ghap_resolved...).")],
        params: Annotated[list[_SqlValue] | dict[str, _SqlValue] | None, Field(
            description="Values of the query's parameters: [..] for $1, $2..., {name: value} for $name.")] = None,
    ) -> CallToolResult:
        return await call(_run_sql, lm, query, params)
