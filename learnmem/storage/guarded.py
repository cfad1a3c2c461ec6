"""A caller's SQL (Learnmem.sql, the MCP `query` tool, `learnmem sql`), run so that it can only read."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import duckdb

from learnmem.errors import ValidationError
from learnmem.storage import sql

if TYPE_CHECKING:
    import pyarrow as pa


def guarded_query(con: duckdb.DuckDBPyConnection, query: str, params: Any = None) -> pa.Table:
    """A caller's query on `con`, a connection of an instance of its own: external access is turned off and the
    configuration locked first, and it must be one statement that reads (Store.run_query); DuckDB's complaints
    become ValidationError."""
    try:
        con.execute(sql.query("disable_external_access"))
        con.execute(sql.query("lock_configuration"))
        statements = con.extract_statements(query)
        if len(statements) != 1:
            raise ValidationError(f"query: one statement at a time; got {len(statements)}")
        kind = statements[0].type
        if kind != duckdb.StatementType.SELECT:  # not EXPLAIN: EXPLAIN ANALYZE runs its statement
            raise ValidationError(f"query: only queries that read run here (SELECT, WITH, FROM, SHOW, DESCRIBE, "
                                  f"...); got a {kind.name} statement")
        return con.execute(query, params).to_arrow_table()
    except duckdb.Error as error:
        raise ValidationError(f"query: {str(error).strip()}") from error
