"""File tools: move GHAP entries in and out as JSON lines, and describe the memory file."""

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from mcp_adapter.results import call
from mcp_adapter.schema import ADDITIVE, EXPORT, READ_ONLY


def register(server: MCPServer, lm: Any) -> None:
    """Register the file tools of `lm` (an opened `learnmem.Learnmem`) on `server`."""

    @server.tool(
        annotations=EXPORT,
        description=(
            "Write the GHAP entries as JSON lines (the GHAP entry format), oldest first, to a file on this machine; "
            "a file already there is replaced. The active entry too when include_active. Returns {exported}: the "
            "number of entries written."
        ),
    )
    async def export_ghap(
        path_or_stream: Annotated[str, Field(description="The file to write (a path; created or overwritten).")],
        include_active: Annotated[bool, Field(description="Also write the active entry.")] = False,
    ) -> CallToolResult:
        return await call(lm.export_ghap, path_or_stream, include_active=include_active, _key="exported")

    @server.tool(
        annotations=ADDITIVE,
        description=(
            "Import GHAP entries from a JSONL file or a journal directory (current_ghap.json, session_entries.jsonl, "
            "archive/*.jsonl); resolved ones become searchable experiences. Known ids are skipped, so importing "
            "again adds nothing. Returns {imported, skipped_duplicates, errors: ['file:line: reason'], warnings}."
        ),
    )
    async def import_ghap(
        path: Annotated[str, Field(description="A .jsonl file or a journal directory on this machine.")],
    ) -> CallToolResult:
        return await call(lm.import_ghap, path)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "The memory file: where it is, how big, which embedding model, how many rows in each table. Returns "
            "{path, file_bytes, wal_bytes, schema_version, library_version, embedding_model, embedding_dim, counts, "
            "cold_experiences (per cold tier: kept, left out of clustering and default search)}."
        ),
    )
    async def info() -> CallToolResult:
        return await call(lm.info)
