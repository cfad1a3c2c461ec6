"""The learnmem MCP server: each tool is exactly one library call.

The adapter owns no logic. A tool runs its library method in a worker thread
(the library is synchronous: DuckDB and the embedder block), serialises the
frozen dataclasses it returns with `dataclasses.asdict`, and turns a raised
error into an error object the agent can read and act on:

    {"error": {"type": "validation_error", "message": "category 'x' is not one of ..."}}

It never opens the database itself (no `duckdb` import here) and never reads
`sql/`: the library owns the file and opens it only for the length of a call,
so the DuckDB CLI or a notebook can read the file while this server runs.

Every public method of `learnmem.Learnmem` is a tool of the same name and
parameters, except those in `NOT_TOOLS` (each with its reason; a test keeps the
two lists complete). A call whose arguments do not fit the input schema (an
enum value outside the library's constants, a missing field) is answered in the
same error object, as a validation_error naming the field, the value and the
options. A request the transport cannot read (JSON nested deeper than its parser
allows, a lone surrogate escape) is answered too, never dropped: see
`transport.Server._serve`.

`sql` is a tool only when the server is started with `--allow-sql`, and then
read-only (Learnmem.sql enforces it).

This module builds the server; the rest of the package, one module per idea:

- `process`: the `learnmem-mcp` process: the handshake answered at once, the server booted in the background,
  a clean stop on SIGINT, SIGTERM or stdin closed;
- `handshake`: the `initialize` answer, the server's name and instructions, with nothing heavy imported;
- `results`: a library call run in a worker thread, its outcome serialised, a raised error as an error object;
- `schema`: the tools' annotations (hints) and the types of their input schemas, from the library's constants;
- `transport`: the server class, answering calls the SDK refuses and requests its transport cannot read;
- `tools_memories`, `tools_code`, `tools_git`, `tools_ghap`, `tools_learning`, `tools_context`, `tools_file`,
  `tools_jobs`, `tools_sql`: the tools, one `register(server, lm)` per group, registered in that order;
- `jobs`: indexing run as a job of the server, answered within seconds, followed with `job_status`;
- `profiles`: which tools are listed (the lean default, all, or groups).
"""

from typing import Any

from mcp.server.mcpserver import MCPServer

import learnmem
from mcp_adapter import (
    profiles,
    tools_code,
    tools_context,
    tools_file,
    tools_ghap,
    tools_git,
    tools_jobs,
    tools_learning,
    tools_memories,
    tools_sql,
)
from mcp_adapter.handshake import INSTRUCTIONS, SERVER_NAME, instructions
from mcp_adapter.tools_sql import MAX_SQL_ROWS
from mcp_adapter.transport import Server

__all__ = ["ADAPTER_TOOLS", "INSTRUCTIONS", "MAX_SQL_ROWS", "NOT_TOOLS", "SERVER_NAME", "build_server"]

# Tools that are no library method, and why.
ADAPTER_TOOLS = {
    "job_status": "indexing over MCP runs as a job of the server process (mcp_adapter.jobs), so that a client's "
                  "request timeout loses nothing: this reads the job a call answered before it ended",
}

# Library methods that are deliberately not tools, and why.
NOT_TOOLS = {
    "start_session": "driven by the SessionStart hook (`learnmem hook session-start`): a session is the client's "
                     "conversation, whose start the agent does not see",
    "end_session": "driven by the SessionEnd hook; it abandons the active entry, which an agent does itself "
                   "with abandon_ghap",
    "get_session_id": "hook bookkeeping: it may start a session (a write) and gives the agent nothing to act on",
    "increment_tool_count": "the check-in counter counts the agent's tool calls from the PostToolUse hook; an "
                            "agent driving it would count itself and defeat the reminder",
    "should_check_in": "asked by the hooks, which show the check-in reminder",
    "reset_tool_count": "reset by the hooks after they showed the check-in reminder",
    "discard_queued_memories": "the user's review of what the hooks captured from tool output "
                               "(`learnmem memories --discard-queued`); an agent does not drop its own captures",
    "reembed": "maintenance after a model change (`learnmem reembed`): rewrites every embedding",
    "warm_up": "process lifecycle: the server calls it while the client handshakes",
    "close": "process lifecycle: no connection is held between calls",
    "snapshot": "returns a DuckDB connection for notebooks: nothing to serialise",
    "sql": "a tool only with `learnmem-mcp --allow-sql`, and then read-only (one SELECT-like statement): raw "
           "SQL reaches past every tool's checks, so by default SQL readers use the DuckDB CLI or a notebook",
    "count_tokens": "get_context's budget measure, applied for the agent by get_context",
    "backup": "file maintenance for the user (`learnmem backup`), not a step of an agent's work",
    "export_data": "CLI-only by design (`learnmem export`): it writes a whole copy of what the user owns",
    "import_data": "CLI-only by design (`learnmem import`): it merges a whole file into the memory",
    "export_notes": "CLI-only (`learnmem notes export`): it writes git refs of the user's repository",
    "import_notes": "CLI-only (`learnmem notes import`): it merges what a whole team shared",
    "pull_notes": "CLI-only (`learnmem sync pull`): it talks to a git remote with the user's credentials",
    "push_notes": "CLI-only (`learnmem sync push`): it publishes memories to a git remote, the user's decision",
}


# The tool groups, in the order their tools are listed (named as in profiles.GROUPS).
_TOOL_GROUPS = (tools_memories, tools_code, tools_git, tools_ghap, tools_learning, tools_context, tools_file,
                tools_jobs)


def build_server(lm: Any, *, allow_sql: bool = False, tools: str = "lean") -> MCPServer:
    """Build an MCP server whose tools call the given opened learnmem library (`learnmem.open(...)`); with
    `allow_sql`, also the read-only `sql` tool. `tools` is the profile listed (`mcp_adapter.profiles`): "lean"
    (the default), "all", or groups ("memories,git"); every tool is callable in each."""
    profile = profiles.parse(tools)
    server = Server(name=SERVER_NAME, instructions=instructions(profile), version=learnmem.__version__)
    server.profile = profile
    for name, group in zip(profiles.GROUPS, _TOOL_GROUPS, strict=True):
        before = _tool_names(server)
        group.register(server, lm)
        server.group_of = {**server.group_of, **dict.fromkeys(_tool_names(server) - before, name)}
    if allow_sql:
        tools_sql.register(server, lm)
    return server



def _tool_names(server: Server) -> set[str]:
    return {tool.name for tool in server._tool_manager.list_tools()}
