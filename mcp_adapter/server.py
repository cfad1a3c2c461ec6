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
`_Server.run_stdio_async`.

`sql` is a tool only when the server is started with `--allow-sql`, and then
read-only (Learnmem.sql enforces it).
"""

import argparse
import dataclasses
import functools
import json
import logging
import math
import re
import sys
import threading
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Annotated, Any, Literal, NotRequired

import anyio
import anyio.to_thread
import pydantic
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import (
    PARSE_ERROR,
    CallToolResult,
    ErrorData,
    JSONRPCError,
    JSONRPCResponse,
    TextContent,
    ToolAnnotations,
    jsonrpc_message_adapter,
)
from pydantic import Field
from typing_extensions import TypedDict

import learnmem
from learnmem import context, ghap, learning, memories
from learnmem.errors import LearnmemError, ValidationError

SERVER_NAME = "learnmem"

INSTRUCTIONS = (
    "Long-term memory for this project, kept in one local DuckDB file. "
    "At the start of a task call get_context (depth light) for what matters now; after a failure, or before a "
    "risky change, call get_context with depth rich and your situation, and get_premortem before trying a "
    "strategy on a kind of work. "
    "Store facts, decisions, preferences and corrections worth remembering with "
    "store_memory; look them up by meaning with retrieve_memories before you act. "
    "Ask the code index (search_code, find_callers) and the git history (search_commits, get_file_history, "
    "get_blame, get_unit_history: why is this code like this?) before changing code. "
    "Track each non-trivial attempt as a GHAP entry (start_ghap: goal, hypothesis, action, prediction; "
    "update_ghap as your belief changes; resolve_ghap when the outcome is known, abandon_ghap when you give up) "
    "and look up what earlier attempts taught with search_experiences. If get_orphaned_entry shows an entry an "
    "earlier session left active, adopt_orphan or abandon_orphan it. "
    "Every tool returns a JSON object; on failure it is "
    '{"error": {"type": ..., "message": ...}} and the message says how to fix the call.'
)

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

# Hints describe what each tool does to the memory file; none reaches outside it (export_ghap writes a local
# file, see _EXPORT). Reading memories counts their use (learnmem.memory_usage: appended in batches, bookkeeping
# that changes nothing a tool returns), which the read-only hint leaves aside.
_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
# Storing the same content again reports `duplicate: true` and adds nothing.
_ADDITIVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
# Deleting an id twice removes nothing more the second time (it answers not_found).
_DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)
# GHAP moves that add each time they are called (a repeated start supersedes, a repeated note appends,
# a re-clustering records a new run); nothing is deleted.
_TRANSITION = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
# Closing or adopting an entry: it records an outcome (or a session) and removes nothing; called again with
# the same arguments there is nothing left to close (not_found) and nothing changes.
_CLOSE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
# Export leaves the memory file alone but writes a JSONL file, replacing one already at that path.
_EXPORT = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)

# Enums of the input schemas, built from the library's own constants: the client sees the valid options,
# and a value outside them is answered with a validation_error naming the field and the options.
MemoryCategory = Literal[tuple(learnmem.MEMORY_CATEGORIES)]
Phase = Literal[memories.PHASES]
SpecParam = Annotated[str | None, Field(description="The spec or project slug, e.g. 'checkout-v2'.")]
PhaseParam = Annotated[Phase | None, Field(description="The phase: planning, implementation, review, close-out.")]
SinceParam = Annotated[str | None, Field(
    description="Only memories stored since then: an ISO date/datetime, or an age such as '12h', '7d', '2w'.")]
Domain = Literal[ghap.DOMAINS]
Strategy = Literal[ghap.STRATEGIES]
RootCauseCategory = Literal[ghap.ROOT_CAUSE_CATEGORIES]
Status = Literal[ghap.STATUSES]
EntryState = Literal[(*ghap.STATUSES, "active")]
Axis = Literal[learning.AXES]
Depth = Literal[context.DEPTHS]


# Typed dicts (typing_extensions': pydantic needs it before Python 3.12) give the nested objects a schema.
class RootCause(TypedDict):
    """Why the hypothesis was wrong."""

    category: RootCauseCategory
    description: str


class Lesson(TypedDict):
    """What was learned."""

    what_worked: str
    takeaway: NotRequired[str | None]


class MemoryItem(TypedDict):
    """One memory of a batch."""

    content: str
    category: MemoryCategory
    importance: NotRequired[float]
    tags: NotRequired[list[str] | None]
    sources: NotRequired[list[str] | None]
    spec: NotRequired[str | None]
    phase: NotRequired[Phase | None]


def _to_jsonable(result: Any, key: str | None = None) -> dict[str, Any]:
    """Serialise a library result: a dataclass, a list of them as {"results", "count"}, or a plain value
    as {key: value}."""
    if key is not None:
        return {key: result}
    if isinstance(result, dict):
        return result
    if isinstance(result, list):
        items = [dataclasses.asdict(item) for item in result]
        return {"results": items, "count": len(items)}
    return dataclasses.asdict(result)


def _tool_result(payload: dict[str, Any], *, is_error: bool = False) -> CallToolResult:
    """Wrap a JSON object both as text (what most clients show the model) and as structured content."""
    text = json.dumps(payload, ensure_ascii=False)
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=payload,
        is_error=is_error,
    )


def _error_result(kind: str, message: str) -> CallToolResult:
    """The error object every tool returns instead of raising."""
    return _tool_result({"error": {"type": kind, "message": message}}, is_error=True)


async def _call(method: Callable[..., Any], *args: Any, _key: str | None = None, **kwargs: Any) -> CallToolResult:
    """Run one library call in a worker thread and serialise its outcome (`_key` names a plain result).

    Running in a thread keeps the event loop answering (pings, cancellations)
    while DuckDB or the embedder works.
    """
    try:
        result = await anyio.to_thread.run_sync(functools.partial(method, *args, **kwargs))
    except LearnmemError as exc:
        return _error_result(exc.kind, str(exc))
    except Exception as exc:  # noqa: BLE001 - the agent must get an answer, not a dropped call
        return _error_result("internal_error", f"{type(exc).__name__}: {exc}")
    return _tool_result(_to_jsonable(result, _key))


def _describe_arguments_error(error: pydantic.ValidationError) -> str:
    """The schema's verdict on a call's arguments, one clause per field: its name, the bad value and what
    is allowed (pydantic lists an enum's options), as the library's own validation messages do."""
    clauses = []
    for problem in error.errors(include_url=False):
        field = ".".join(str(part) for part in problem["loc"])
        if problem["type"] == "missing":
            clauses.append(f"{field}: required")
        else:
            value = _show(problem.get("input"))
            clauses.append(f"{field} {value}: {problem['msg']}")
    return "; ".join(clauses)


def _show(value: Any) -> str:
    """A bad value as the error message shows it: its repr, cut to 80 characters."""
    try:
        text = repr(value)
    except RecursionError:  # a list nested hundreds of levels deep
        return f"<{type(value).__name__} nested too deeply to show>"
    return text if len(text) <= 80 else text[:77] + "..."


# -- the stdio transport: every request is answered --------------------------------------

_log = logging.getLogger(__name__)
_SURROGATE = re.compile("[\ud800-\udfff]")
# The tokens of a JSON text, enough to find the top level's scalar members without parsing what is nested.
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')


def _top_level_members(text: str) -> dict[str, Any]:
    """The scalar members (`id`, `method`) of a JSON object's top level, read token by token: this works on a
    message nested too deeply for any parser, or broken further down."""
    members: dict[str, Any] = {}
    depth, key, after_colon = 0, None, False
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        if token in ("{", "["):
            depth, after_colon = depth + 1, False
        elif token in ("}", "]"):
            depth -= 1
        elif depth != 1:
            continue
        elif token == ":":
            after_colon = True
        elif token == ",":
            key, after_colon = None, False
        elif after_colon:
            if key is not None:
                try:
                    members[key] = json.loads(token)
                except ValueError:
                    pass
            after_colon = False
        elif token.startswith('"'):
            try:
                key = json.loads(token)
            except ValueError:
                key = None
    return members


def _reread(error: Exception) -> tuple[bool, SessionMessage] | None:
    """What to do with a line the SDK's stdio transport could not read (it hands on the exception, and the SDK
    would drop the request unanswered, leaving the client waiting): (False, the message read again) to pass on,
    or (True, an answer) to send back; None when there is nobody to answer (not a request, or no line).

    The transport parses with pydantic's JSON parser, which refuses a lone surrogate escape ("\\ud800") and
    stops at about 200 levels of nesting. Python's json reads both: a lone surrogate becomes U+FFFD (what the
    library makes of one), and the message goes on to the tool, whose input schema answers a value nested too
    deeply. A line beyond that (over ~1,000 levels, or not JSON) gets a validation_error for a tool call and a
    JSON-RPC parse error for any other request."""
    problems = error.errors(include_url=False) if isinstance(error, pydantic.ValidationError) else []
    line = problems[0].get("input") if problems else None
    if not isinstance(line, str):
        return None
    try:
        data = json.loads(_SURROGATE.sub("\ufffd", json.dumps(json.loads(line), ensure_ascii=False)))
        return False, SessionMessage(jsonrpc_message_adapter.validate_python(data, by_name=False))
    except (ValueError, RecursionError, pydantic.ValidationError):
        pass
    members = _top_level_members(line)
    request_id = members.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
        return None
    reason = f"the request could not be read ({problems[0]['msg']}): send valid JSON, nested under 1,000 levels"
    if members.get("method") == "tools/call":
        result = _error_result("validation_error", f"arguments: {reason}")
        return True, SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=request_id, result=result.model_dump(
            by_alias=True, mode="json", exclude_none=True)))
    return True, SessionMessage(JSONRPCError(jsonrpc="2.0", id=request_id,
                                             error=ErrorData(code=PARSE_ERROR, message=reason)))


class _Server(MCPServer):
    """MCPServer whose refusals of a call (arguments outside the input schema, an unknown tool) are answered
    in the same error object as the library's, instead of the SDK's plain text."""

    async def call_tool(self, name: str, arguments: dict[str, Any], request_context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, request_context)
        except ToolError as exc:
            if isinstance(exc, UnexpectedToolError):
                raise
            if isinstance(exc.__cause__, pydantic.ValidationError):
                return _error_result("validation_error", _describe_arguments_error(exc.__cause__))
            if self._tool_manager.get_tool(name) is None:
                return _error_result("not_found", f"unknown tool {name!r}: list_tools gives the valid names")
            raise

    async def run_stdio_async(self) -> None:
        """Serve over stdio (as the SDK does), answering the lines its transport cannot read (`_reread`)."""
        async with stdio_server() as (read_stream, write_stream):
            send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

            async def relay() -> None:
                async with send:
                    async for item in read_stream:
                        if isinstance(item, Exception):
                            reread = _reread(item)
                            if reread is None:
                                _log.warning("unreadable message: %s", item)
                                continue
                            answer, item = reread
                            if answer:
                                await write_stream.send(item)
                                continue
                        await send.send(item)

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(relay)
                await self._lowlevel_server.run(receive, write_stream,
                                                self._lowlevel_server.create_initialization_options())
                tasks.cancel_scope.cancel()  # the client left: stop reading for it


def build_server(lm: Any, *, allow_sql: bool = False) -> MCPServer:
    """Build an MCP server whose tools call the given opened learnmem library (`learnmem.open(...)`); with
    `allow_sql`, also the read-only `sql` tool."""
    server = _Server(name=SERVER_NAME, instructions=INSTRUCTIONS, version=_library_version())
    categories = ", ".join(learnmem.MEMORY_CATEGORIES)

    @server.tool(
        annotations=_ADDITIVE,
        description=(
            "Store one memory (a fact, decision, preference, correction...) so that later "
            f"sessions can retrieve it. category is one of: {categories}. supersedes: the id of a memory "
            "this one updates or corrects. Returns {id, duplicate, near_duplicate, created_at, message, superseded, "
            "similar}; duplicate is true when the same content was already stored, near_duplicate when it "
            "restates the memory `id` (same meaning, numbers and names; nothing is written: supersede it, or "
            "force=true); similar lists close memories to supersede or forget. A content that looks "
            "like a credential (API key, token, private key, password) is refused unless allow_secrets is true."
        ),
    )
    async def store_memory(
        content: Annotated[str, Field(description="The memory itself, one self-contained statement.")],
        category: Annotated[MemoryCategory, Field(description=f"One of: {categories}.")],
        importance: Annotated[float, Field(description="0.0 (trivia) to 1.0 (critical).")] = 0.5,
        tags: Annotated[list[str] | None, Field(description="Optional short labels to filter by.")] = None,
        supersedes: Annotated[str | None, Field(
            description="The id of a memory this one replaces (kept, hidden from retrieval).")] = None,
        allow_secrets: Annotated[bool, Field(
            description="Store it even if it looks like a credential; only when that is intended.")] = False,
        sources: Annotated[list[str] | None, Field(
            description="The documents it came from, e.g. ['README.md#install', 'lib/auth.py'].")] = None,
        force: Annotated[bool, Field(
            description="Store it even if it restates a current memory (near_duplicate).")] = False,
        spec: SpecParam = None,
        phase: PhaseParam = None,
    ) -> CallToolResult:
        return await _call(lm.store_memory, content, category, importance=importance, tags=tags, supersedes=supersedes,
                           allow_secrets=allow_secrets, sources=sources, force=force, spec=spec, phase=phase)

    @server.tool(
        annotations=_ADDITIVE,
        description=(
            "Store many memories in one call (embedded in one batch): items are {content, category, importance?, "
            f"tags?, sources?, spec?, phase?}} with category one of: {categories}. Returns {{results: [{{id, duplicate, created_at, "
            "message}], count}, one per item in order; a content already stored comes back with duplicate true. "
            "If any content looks like a credential, nothing is stored unless allow_secrets is true."
        ),
    )
    async def store_memories(
        items: Annotated[list[MemoryItem], Field(
            description="The memories: {content, category, importance?, tags?, sources?, spec?, phase?}.")],
        allow_secrets: Annotated[bool, Field(
            description="Store them even if some look like credentials; only when that is intended.")] = False,
        force: Annotated[bool, Field(
            description="Store them even if some restate current memories.")] = False,
    ) -> CallToolResult:
        return await _call(lm.store_memories, items, allow_secrets=allow_secrets, force=force)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "Find memories relevant to a query, by meaning and by keywords, best first. "
            "Forgotten memories are never found; superseded ones only with include_superseded. "
            "Returns {results: [{id, content, category, importance, tags, created_at, superseded_by, spec, phase, "
            "score}], count}."
        ),
    )
    async def retrieve_memories(
        query: Annotated[str, Field(description="What you want to know, in plain words.")],
        limit: Annotated[int, Field(description="Maximum number of memories to return.")] = 10,
        category: Annotated[MemoryCategory | None, Field(description=f"Only this category: {categories}.")] = None,
        tags: Annotated[list[str] | None, Field(description="Only memories carrying these tags.")] = None,
        include_superseded: Annotated[bool, Field(
            description="Also memories that newer ones replaced (each names its replacement).")] = False,
        recency_half_life_days: Annotated[float | None, Field(
            description="Favour recent memories: one this many days old counts half.")] = None,
        importance_weight: Annotated[float, Field(
            description="0-1: favour important memories (score x (1 + weight x (importance - 0.5))).")] = 0.0,
        detail: Annotated[Literal["index", "full", "files"], Field(
            description="index: {id, category, summary, score} only (cheap; get_memory gives one whole); full: "
                        "whole memories; files: also the files of the commit each was made at, as they were "
                        "there (size-capped).")] = "full",
        spec: SpecParam = None,
        phase: PhaseParam = None,
        since: SinceParam = None,
    ) -> CallToolResult:
        return await _call(lm.retrieve_memories, query, limit=limit, category=category, tags=tags,
                           include_superseded=include_superseded, recency_half_life_days=recency_half_life_days,
                           importance_weight=importance_weight, detail=detail, spec=spec, phase=phase, since=since)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "List stored memories, newest first, optionally filtered by category, tags, spec, phase or since; "
            "page with limit and offset. Returns {results: [...], count}."
        ),
    )
    async def list_memories(
        category: Annotated[MemoryCategory | None, Field(description=f"Only this category: {categories}.")] = None,
        tags: Annotated[list[str] | None, Field(description="Only memories carrying these tags.")] = None,
        limit: Annotated[int, Field(description="Page size.")] = 50,
        offset: Annotated[int, Field(description="Number of memories to skip.")] = 0,
        include_superseded: Annotated[bool, Field(description="Also memories that newer ones replaced.")] = False,
        spec: SpecParam = None,
        phase: PhaseParam = None,
        since: SinceParam = None,
    ) -> CallToolResult:
        return await _call(lm.list_memories, category=category, tags=tags, limit=limit, offset=offset,
                           include_superseded=include_superseded, spec=spec, phase=phase, since=since)

    @server.tool(
        annotations=_READ_ONLY,
        description="Get one memory by its id. Returns {id, content, category, importance, tags, created_at, "
                    "superseded_by}; an unknown or forgotten id gives a not_found error.",
    )
    async def get_memory(
        id: Annotated[str, Field(description="The memory id, as returned by store or retrieve.")],  # noqa: A002
    ) -> CallToolResult:
        return await _call(lm.get_memory, id)

    @server.tool(
        annotations=_DESTRUCTIVE,
        description="Delete one memory by its id. Returns {id, deleted}; an unknown id gives a not_found error.",
    )
    async def delete_memory(
        id: Annotated[str, Field(description="The memory id to delete.")],  # noqa: A002
    ) -> CallToolResult:
        return await _call(lm.delete_memory, id)

    @server.tool(
        annotations=_TRANSITION,
        description=(
            "Replace a memory with a new text of the same category, importance and tags (a correction or an "
            "update); the old one is kept, hidden from retrieval, with superseded_by set. Returns {id, duplicate, "
            "created_at, message, superseded}."
        ),
    )
    async def supersede_memory(
        old_id: Annotated[str, Field(description="The memory to replace.")],
        new_content: Annotated[str, Field(description="What is true now, one self-contained statement.")],
        allow_secrets: Annotated[bool, Field(
            description="Store it even if it looks like a credential; only when that is intended.")] = False,
    ) -> CallToolResult:
        return await _call(lm.supersede_memory, old_id, new_content, allow_secrets=allow_secrets)

    @server.tool(
        annotations=_DESTRUCTIVE,
        description=(
            "Forget one memory (id), those of a category and/or tags, or everything. Soft by default: hidden, "
            "and restore_memory brings one back. hard: deleted with their vectors and scrubbed from the file "
            "(it is rewritten); cannot be undone. Returns {ids, count, hard}."
        ),
    )
    async def forget(
        id: Annotated[str | None, Field(description="One memory id.")] = None,  # noqa: A002
        category: Annotated[MemoryCategory | None, Field(description=f"Every memory of: {categories}.")] = None,
        tags: Annotated[list[str] | None, Field(description="Every memory carrying all these tags.")] = None,
        everything: Annotated[bool, Field(description="Every memory.")] = False,
        hard: Annotated[bool, Field(description="Delete and scrub from the file, instead of hiding.")] = False,
    ) -> CallToolResult:
        return await _call(lm.forget, id, category=category, tags=tags, everything=everything, hard=hard)

    @server.tool(
        annotations=_CLOSE,
        description=(
            "Group near-duplicate current memories (cosine >= 0.75, within a category; corrections are never "
            "compacted). With dry_run (the default) only report; otherwise back the file up and supersede each "
            "group's older members by its newest (nothing deleted). Returns {dry_run, groups: [{keep, merged}], "
            "memories_before, memories_after, backup}."
        ),
    )
    async def compact_memories(
        category: Annotated[MemoryCategory | None, Field(description=f"Only this category: {categories}.")] = None,
        dry_run: Annotated[bool, Field(description="Only report the groups.")] = True,
    ) -> CallToolResult:
        return await _call(lm.compact_memories, category=category, dry_run=dry_run)

    @server.tool(
        annotations=_ADDITIVE,
        description="Record that you used a memory (so it does not show up as stale). Returns the memory.",
    )
    async def touch_memory(
        id: Annotated[str, Field(description="The memory id.")],  # noqa: A002
    ) -> CallToolResult:
        return await _call(lm.touch_memory, id)

    @server.tool(
        annotations=_ADDITIVE,
        description=(
            "Memories neither used (retrieved, read, touched) nor stored in the last `days` days, the longest "
            "unused first: candidates to review, supersede or forget. Returns {results: [{id, content, category, "
            "importance, tags, created_at, superseded_by, accesses, last_accessed_at}], count}."
        ),
    )
    async def list_stale_memories(
        days: Annotated[float, Field(description="Unused for at least this many days.")] = 30,
        limit: Annotated[int, Field(description="Maximum number of memories (1-1000).")] = 50,
    ) -> CallToolResult:
        return await _call(lm.list_stale_memories, days=days, limit=limit)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "The documents that current corrections and discoveries (learning, research memories stored with "
            "sources) name most often: where the documentation misled or left something out, to fix first. "
            "Returns {results: [{document, corrections, discoveries, anchors, memory_ids, latest}], count}."
        ),
    )
    async def docs_gaps(
        limit: Annotated[int, Field(description="Maximum number of documents (1-100).")] = 20,
    ) -> CallToolResult:
        return await _call(lm.docs_gaps, limit=limit)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "The learnings and blockers the hooks captured from tool output (an error then fixed, 'turns out', "
            "'workaround', a deprecation naming its replacement), waiting for the Stop hook to store the new "
            "ones. Returns {results: [{id, session_id, captured_at, tool, category, content}], count}."
        ),
    )
    async def list_queued_memories(
        limit: Annotated[int, Field(description="Maximum number of queued captures (1-500).")] = 100,
    ) -> CallToolResult:
        return await _call(lm.list_queued_memories, limit=limit)

    @server.tool(
        annotations=_ADDITIVE,
        description=(
            "Store the queued captures now (the Stop hook does it when you finish a turn): those repeating a "
            "current memory are dropped, the rest stored tagged auto-captured, and the queue emptied. Returns "
            "{queued, stored: [ids], known, dropped, message}."
        ),
    )
    async def flush_queued_memories() -> CallToolResult:
        return await _call(lm.flush_queued_memories)

    @server.tool(
        annotations=_CLOSE,
        description="Bring back a memory that forget hid (not one forgotten with hard). Returns the memory.",
    )
    async def restore_memory(
        id: Annotated[str, Field(description="The forgotten memory's id.")],  # noqa: A002
    ) -> CallToolResult:
        return await _call(lm.restore_memory, id)

    @server.tool(
        annotations=_ADDITIVE,
        description=(
            "Index (incrementally) the source files under a folder: code units, their embeddings, imports and "
            "the call graph. Returns counts: files seen/indexed/unchanged/skipped/failed/deleted, units, calls, seconds."
        ),
    )
    async def index_codebase(
        directory: Annotated[str, Field(description="The folder to index.")] = ".",
        project: Annotated[str | None, Field(description="Project name (default: the folder's name).")] = None,
        recursive: Annotated[bool, Field(description="Descend into sub-folders.")] = True,
    ) -> CallToolResult:
        return await _call(lm.index_codebase, directory, project=project, recursive=recursive, progress=False)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "Search indexed code by meaning and by identifiers (hybrid), best first. Returns {results: [{score, "
            "file_path, start_line, end_line, qualified_name, module, unit_type, language, signature, snippet}], count}."
        ),
    )
    async def search_code(
        query: Annotated[str, Field(description="What the code does, or names in it.")],
        project: Annotated[str | None, Field(description="Only this project.")] = None,
        language: Annotated[str | None, Field(description="Only this language: python, typescript, go...")] = None,
        unit_type: Annotated[str | None, Field(description="module, class, function, method or key.")] = None,
        limit: Annotated[int, Field(description="Maximum number of units to return.")] = 10,
    ) -> CallToolResult:
        return await _call(lm.search_code, query, project=project, language=language, unit_type=unit_type, limit=limit)

    @server.tool(annotations=_READ_ONLY, description="Code units that look like a snippet, best first. Returns {results, count}.")
    async def find_similar_code(
        snippet: Annotated[str, Field(description="A piece of code.")],
        project: Annotated[str | None, Field(description="Only this project.")] = None,
        limit: Annotated[int, Field(description="Maximum number of units to return.")] = 10,
    ) -> CallToolResult:
        return await _call(lm.find_similar_code, snippet, project=project, limit=limit)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "Call sites that call a function: name it bare (load), qualified (Config.load) or module-qualified "
            "(app.config.Config.load); a bare name returns every match. Returns {results: [edges], count}."
        ),
    )
    async def find_callers(
        function_name: Annotated[str, Field(description="The called function.")],
        project: Annotated[str | None, Field(description="Only this project.")] = None,
    ) -> CallToolResult:
        return await _call(lm.find_callers, function_name, project=project)

    @server.tool(
        annotations=_READ_ONLY,
        description="Calls made inside a function (bare, qualified or module-qualified name). Returns {results, count}.",
    )
    async def find_callees(
        function_name: Annotated[str, Field(description="The calling function.")],
        project: Annotated[str | None, Field(description="Only this project.")] = None,
    ) -> CallToolResult:
        return await _call(lm.find_callees, function_name, project=project)

    @server.tool(annotations=_READ_ONLY, description=(
        "What the code index holds, for one project or all added up. Returns {projects, roots, files, "
        "files_by_language, units, units_by_language (language -> unit type -> count), calls, calls_resolved, "
        "calls_unresolved, last_indexed_at (per project), embedding_model, pending_embeddings, ...}."))
    async def get_indexing_stats(project: Annotated[str | None, Field(description="Only this project.")] = None,
                                 ) -> CallToolResult:
        return await _call(lm.get_indexing_stats, project=project)

    @server.tool(annotations=_DESTRUCTIVE, description=(
        "Take one file out of the code index (units, vectors, call sites); calls into it are resolved again. A "
        "file still on disk comes back on the next index_codebase. Returns {project, file, units_removed, "
        "calls_removed, calls_unresolved, calls_reresolved, still_on_disk}; a path not indexed gives not_found."))
    async def remove_file(
        path: Annotated[str, Field(description="The file, relative to the project root or absolute inside it.")],
        project: Annotated[str | None, Field(description="Its project (only if several index that path).")] = None,
    ) -> CallToolResult:
        return await _call(lm.remove_file, path, project=project)

    @server.tool(
        annotations=_ADDITIVE,
        description=(
            "Index (incrementally) a git repository's commits: messages embedded for search, files changed with "
            "line counts and renames. Only new commits are read; commits gone after a rebase/force-push are removed. "
            "Returns {project, root, head, commits_total, commits_added, commits_removed, commits_embedded, shallow, "
            "seconds, warnings}."
        ),
    )
    async def index_commits(
        repo_path: Annotated[str, Field(description="A path inside the repository.")] = ".",
        since: Annotated[str | None, Field(description="Skip commits older than this ISO date.")] = None,
        project: Annotated[str | None, Field(description="Project name (default: the repository folder's name).")] = None,
        all_branches: Annotated[bool, Field(description="Every local branch, not only HEAD.")] = False,
        embed: Annotated[bool, Field(description="Embed the messages (false: faster, search_commits then matches "
                                                  "keywords only).")] = True,
    ) -> CallToolResult:
        return await _call(lm.index_commits, repo_path, since=since, project=project, all_branches=all_branches,
                           embed=embed, progress=False)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "Search indexed commits by meaning and keywords of their messages and touched paths, best first; "
            "author, since, until and path filter exactly. Returns {results: [{score, sha, subject, message, author, "
            "author_email, authored_at, committed_at, insertions, deletions, files_changed, is_merge, paths}], count}."
        ),
    )
    async def search_commits(
        query: Annotated[str, Field(description="What the change was about, in plain words.")],
        author: Annotated[str | None, Field(description="Only this author (name or email).")] = None,
        since: Annotated[str | None, Field(description="Only commits on or after this ISO date.")] = None,
        until: Annotated[str | None, Field(description="Only commits on or before this ISO date.")] = None,
        path: Annotated[str | None, Field(description="Only commits touching this file or folder.")] = None,
        limit: Annotated[int, Field(description="Maximum number of commits.")] = 10,
        project: Annotated[str | None, Field(description="Only this repository.")] = None,
    ) -> CallToolResult:
        return await _call(lm.search_commits, query, author=author, since=since, until=until, path=path,
                           limit=limit, project=project)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "The commits that changed a file, newest first, following renames. Returns {results: [{sha, path, "
            "old_path, change_type, insertions, deletions, is_binary, author, author_email, authored_at, "
            "committed_at, subject}], count}."
        ),
    )
    async def get_file_history(
        path: Annotated[str, Field(description="File path relative to the repository root.")],
        limit: Annotated[int, Field(description="Maximum number of commits.")] = 20,
        project: Annotated[str | None, Field(description="Which indexed repository.")] = None,
    ) -> CallToolResult:
        return await _call(lm.get_file_history, path, limit=limit, project=project)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "Files that changed most often (then most lines) in the last N days: the risky, unstable parts. "
            "Returns {results: [{path, commits, insertions, deletions, authors, last_change}], count}."
        ),
    )
    async def get_churn_hotspots(
        days: Annotated[int, Field(description="Window length in days.")] = 90,
        limit: Annotated[int, Field(description="Maximum number of files.")] = 10,
        as_of: Annotated[str | None, Field(description="End of the window, ISO date (default: now).")] = None,
        project: Annotated[str | None, Field(description="Which indexed repository.")] = None,
    ) -> CallToolResult:
        return await _call(lm.get_churn_hotspots, days=days, limit=limit, as_of=as_of, project=project)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "Who wrote a file: per author commits, lines added/removed, first and last change, and the lines of "
            "today's file they own (blame) with their share. Returns {results: [...], count}."
        ),
    )
    async def get_code_authors(
        path: Annotated[str, Field(description="File path relative to the repository root.")],
        project: Annotated[str | None, Field(description="Which indexed repository.")] = None,
    ) -> CallToolResult:
        return await _call(lm.get_code_authors, path, project=project)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "Blame: line ranges of a file with the commit that last changed them, its author, time and summary. "
            "Returns {results: [{start_line, end_line, sha, author, author_email, authored_at, summary, "
            "original_path, original_start_line, boundary}], count}."
        ),
    )
    async def get_blame(
        path: Annotated[str, Field(description="File path relative to the repository root.")],
        start_line: Annotated[int | None, Field(description="First line (1-based).")] = None,
        end_line: Annotated[int | None, Field(description="Last line (inclusive).")] = None,
        rev: Annotated[str, Field(description="Commit, branch or tag.")] = "HEAD",
        project: Annotated[str | None, Field(description="Which indexed repository.")] = None,
    ) -> CallToolResult:
        return await _call(lm.get_blame, path, start_line=start_line, end_line=end_line, rev=rev, project=project)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "Why is this function like this? The commits that changed a code unit's lines (like git log -L), "
            "newest first. name: load, Config.load, or path/to/file.py:Config.load (the code must be indexed). "
            "Returns {results: [{sha, path, start_line, end_line, author, author_email, authored_at, subject}], count}."
        ),
    )
    async def get_unit_history(
        name: Annotated[str, Field(description="The function, method or class.")],
        project: Annotated[str | None, Field(description="Which project.")] = None,
        limit: Annotated[int, Field(description="Maximum number of commits.")] = 20,
    ) -> CallToolResult:
        return await _call(lm.get_unit_history, name, project=project, limit=limit)

    domains = ", ".join(ghap.DOMAINS)
    strategies = ", ".join(ghap.STRATEGIES)
    causes = ", ".join(ghap.ROOT_CAUSE_CATEGORIES)
    statuses = ", ".join(ghap.STATUSES)

    @server.tool(
        annotations=_TRANSITION,
        description=(
            "Start tracking a Goal-Hypothesis-Action-Prediction entry before a non-trivial attempt. goal: the "
            "meaningful change (not the immediate action); hypothesis: what you believe that informs the approach; "
            "action: what you do because of it; prediction: what you will observe if the hypothesis holds (so the "
            "outcome can falsify it). All six are required, texts at most 1,000 characters. An entry still active "
            "is abandoned as superseded and the answer carries a warning. Returns {id, domain, strategy, goal, "
            "hypothesis, action, prediction, created_at, warning}."
        ),
    )
    async def start_ghap(
        domain: Annotated[Domain, Field(description=f"One of: {domains}.")],
        strategy: Annotated[Strategy, Field(description=f"One of: {strategies}.")],
        goal: Annotated[str, Field(description="The meaningful change you are after, e.g. 'Fix the auth timeout bug'.")],
        hypothesis: Annotated[str, Field(description="What you believe, e.g. 'Slow responses exceed the 30 s timeout'.")],
        action: Annotated[str, Field(description="What you do because of it, e.g. 'Raise the timeout to 60 s'.")],
        prediction: Annotated[str, Field(description="What you will see if the hypothesis holds, e.g. 'Auth failures stop'.")],
    ) -> CallToolResult:
        return await _call(lm.start_ghap, domain, strategy, goal, hypothesis, action, prediction)

    @server.tool(
        annotations=_TRANSITION,
        description=(
            "Revise the active GHAP entry. A new hypothesis, action or prediction is a new iteration (the old triple "
            "goes to history); a strategy alone is replaced; a note is appended. Give at least one. "
            "Returns {success, iteration_count}; no active entry gives a not_found error."
        ),
    )
    async def update_ghap(
        hypothesis: Annotated[str | None, Field(description="The revised hypothesis.")] = None,
        action: Annotated[str | None, Field(description="The revised action.")] = None,
        prediction: Annotated[str | None, Field(description="The revised prediction.")] = None,
        strategy: Annotated[Strategy | None, Field(description=f"A new strategy: {strategies}.")] = None,
        note: Annotated[str | None, Field(description="A note to append.")] = None,
    ) -> CallToolResult:
        return await _call(lm.update_ghap, hypothesis=hypothesis, action=action, prediction=prediction,
                           strategy=strategy, note=note)

    @server.tool(
        annotations=_CLOSE,
        description=(
            f"Resolve the active GHAP entry when the outcome is known. status: {statuses}. falsified needs surprise "
            "and root_cause {category, description}; lesson {what_worked, takeaway} is optional; texts at most "
            "2,000 characters. Gold tier when the hooks observed a test or build run since the current prediction "
            "and its outcome agrees with status (passed: confirmed, failed: falsified), or auto_captured says the "
            "outcome came from such a run; else silver, or bronze when the hypothesis or result says too little. "
            "The entry becomes a searchable experience. "
            "Returns {id, status, confidence_tier, resolved_at}."
        ),
    )
    async def resolve_ghap(
        status: Annotated[Status, Field(description=f"One of: {statuses}.")],
        result: Annotated[str, Field(description="What actually happened.")],
        surprise: Annotated[str | None, Field(description="What was unexpected (required when falsified).")] = None,
        root_cause: Annotated[RootCause | None, Field(
            description=f"Why the hypothesis was wrong (required when falsified): {{category, description}}; "
                        f"category one of: {causes}.",
        )] = None,
        lesson: Annotated[Lesson | None, Field(description="What you learned: {what_worked, takeaway?}.")] = None,
        auto_captured: Annotated[bool, Field(description="The outcome was captured from a test/build run.")] = False,
    ) -> CallToolResult:
        return await _call(lm.resolve_ghap, status, result, surprise=surprise, root_cause=root_cause, lesson=lesson,
                           auto_captured=auto_captured)

    @server.tool(
        annotations=_CLOSE,
        description=(
            "Give up on the active GHAP entry: it is resolved as abandoned with your reason as its result (abandoned "
            "tier). Returns {id, status, confidence_tier, resolved_at}; no active entry gives a not_found error."
        ),
    )
    async def abandon_ghap(
        reason: Annotated[str, Field(description="Why you stop, e.g. 'the user changed the requirement'.")],
    ) -> CallToolResult:
        return await _call(lm.abandon_ghap, reason)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "The active GHAP entry. Returns {has_active, id, domain, strategy, goal, hypothesis, action, prediction, "
            "iteration_count, created_at, session_id}; has_active false and nulls when there is none."
        ),
    )
    async def get_active_ghap() -> CallToolResult:
        return await _call(lm.get_active_ghap)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "GHAP entries, newest first, filtered by domain, outcome and creation time. Returns {results: [{id, "
            "domain, strategy, goal, outcome_status, confidence_tier, created_at, resolved_at}], count}."
        ),
    )
    async def list_ghap_entries(
        limit: Annotated[int, Field(description="Maximum number of entries (1-100).")] = 20,
        domain: Annotated[Domain | None, Field(description=f"Only this domain: {domains}.")] = None,
        outcome: Annotated[EntryState | None, Field(description=f"Only this outcome: {statuses} or active.")] = None,
        since: Annotated[str | None, Field(description="Only entries created on or after this ISO date.")] = None,
    ) -> CallToolResult:
        return await _call(lm.list_ghap_entries, limit=limit, domain=domain, outcome=outcome, since=since)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "The entry an earlier session left active (an orphan), if any: adopt it with adopt_orphan to go on, or "
            "close it with abandon_orphan. Returns {has_active, id, domain, strategy, goal, hypothesis, action, "
            "prediction, iteration_count, created_at, session_id}; has_active false and nulls when there is none."
        ),
    )
    async def get_orphaned_entry() -> CallToolResult:
        return await _call(lm.get_orphaned_entry)

    @server.tool(
        annotations=_CLOSE,
        description=(
            "Take the orphaned entry into the current session and keep working on it (everything else is kept). "
            "Returns the now active entry {has_active, id, ..., session_id}; no orphan gives a not_found error."
        ),
    )
    async def adopt_orphan() -> CallToolResult:
        return await _call(lm.adopt_orphan)

    @server.tool(
        annotations=_CLOSE,
        description=(
            "Close the orphaned entry as abandoned, with your reason as its result. Returns {id, status, "
            "confidence_tier, resolved_at}; no orphan gives a not_found error."
        ),
    )
    async def abandon_orphan(
        reason: Annotated[str, Field(description="Why it is not continued.")],
    ) -> CallToolResult:
        return await _call(lm.abandon_orphan, reason)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "What did earlier attempts teach? Resolved GHAP entries whose text on one axis matches a query (by "
            "meaning and keywords), best first. axis: full (the whole story), strategy, surprise or root_cause (the "
            "last two: falsified entries only). Cold ones (bronze and abandoned tiers unless "
            "LEARNMEM_COLD_TIER says otherwise) only with include_cold. Returns {results: [{id, ghap_id, axis, domain, "
            "strategy, goal, "
            "hypothesis, action, prediction, outcome_status, outcome_result, surprise, root_cause, lesson, "
            "confidence_tier, created_at, score}], count}."
        ),
    )
    async def search_experiences(
        query: Annotated[str, Field(description="The situation or question, in plain words.")],
        axis: Annotated[Axis, Field(description="full, strategy, surprise or root_cause.")] = "full",
        domain: Annotated[Domain | None, Field(description=f"Only this domain: {domains}.")] = None,
        outcome: Annotated[Status | None, Field(description=f"Only this outcome: {statuses}.")] = None,
        limit: Annotated[int, Field(description="Maximum number of experiences (1-50).")] = 10,
        include_cold: Annotated[bool, Field(description="Also cold experiences (kept, but left out by default).")] = False,
    ) -> CallToolResult:
        return await _call(lm.search_experiences, query, axis=axis, domain=domain, outcome=outcome, limit=limit,
                           include_cold=include_cold)

    # -- learning: clusters and values --------------------------------------------------

    axes = ", ".join(learning.AXES)

    @server.tool(
        annotations=_TRANSITION,
        description=(
            "Cluster the experiences (resolved GHAP entries) of one axis now and store the run: the recurring "
            f"themes of past work. axis: {axes}. Returns {{axis, run_id, clusters: [{{cluster_id, label, size, "
            "avg_weight}], count, noise_count, experience_count, created_at, dissolved_values, cold_count}, largest "
            "first; cold experiences (bronze, abandoned) are left out and counted in cold_count. "
            "Cluster ids (e.g. surprise-3) carry over to the next run when most members do. Fewer than 20 "
            "experiences on the axis, or none forming a cluster: insufficient_data."
        ),
    )
    async def get_clusters(
        axis: Annotated[Axis, Field(description=f"The axis: {axes}.")],
    ) -> CallToolResult:
        return await _call(lm.get_clusters, axis)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "The experiences of one cluster, most central first (score = similarity to the centroid): read them "
            "before writing a value. Returns {results: [{id, ghap_id, axis, goal, hypothesis, action, prediction, "
            "outcome_status, outcome_result, surprise, root_cause, lesson, confidence_tier, created_at, score}], count}."
        ),
    )
    async def get_cluster_members(
        cluster_id: Annotated[str, Field(description="A cluster id from get_clusters, e.g. surprise-3.")],
        limit: Annotated[int, Field(description="Maximum number of experiences (1-100).")] = 50,
    ) -> CallToolResult:
        return await _call(lm.get_cluster_members, cluster_id, limit=limit)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "Check a candidate value (one sentence stating what a cluster's experiences teach) against the "
            "cluster without storing it. Valid when the cluster is the nearest of its axis to the text and the "
            "text's distance to its centroid is within the threshold. When refused, read the reason and the "
            "cluster's members (get_cluster_members) and write a second draft about what they share. Returns "
            "{valid, similarity, centroid_distance, threshold_distance, reason, cluster_id, nearest_cluster_id}."
        ),
    )
    async def validate_value(
        text: Annotated[str, Field(description="The candidate value, at most 500 characters.")],
        cluster_id: Annotated[str, Field(description="The cluster it summarises, e.g. surprise-3.")],
    ) -> CallToolResult:
        return await _call(lm.validate_value, text, cluster_id)

    @server.tool(
        annotations=_TRANSITION,
        description=(
            "Store a value for a cluster: it is validated again and refused (validation_error, nothing stored) "
            "when it is not grounded in the cluster. Returns {id, text, axis, cluster_id, cluster_size, "
            "similarity_to_centroid, created_at, dissolved_at: null, score: null}."
        ),
    )
    async def store_value(
        text: Annotated[str, Field(description="The value, at most 500 characters.")],
        cluster_id: Annotated[str, Field(description="The cluster it summarises, e.g. surprise-3.")],
        axis: Annotated[Axis, Field(description=f"The cluster's axis: {axes}.")],
    ) -> CallToolResult:
        return await _call(lm.store_value, text, cluster_id, axis)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "Stored values, by the size of their cluster then newest first. Returns {results: [{id, text, axis, "
            "cluster_id, cluster_size, similarity_to_centroid, created_at, dissolved_at}], count}; dissolved_at "
            "is set when a re-clustering left the value's cluster without a successor."
        ),
    )
    async def list_values(
        axis: Annotated[Axis | None, Field(description=f"Only values of this axis: {axes}.")] = None,
        limit: Annotated[int, Field(description="Maximum number of values (1-100).")] = 20,
    ) -> CallToolResult:
        return await _call(lm.list_values, axis=axis, limit=limit)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "Values matching a situation, by meaning and keywords, best first: what past work taught about it. "
            "Returns {results: [{id, text, axis, cluster_id, cluster_size, similarity_to_centroid, created_at, "
            "dissolved_at, score}], count}."
        ),
    )
    async def search_values(
        query: Annotated[str, Field(description="The situation or question, in plain words.")],
        axis: Annotated[Axis | None, Field(description=f"Only values of this axis: {axes}.")] = None,
        limit: Annotated[int, Field(description="Maximum number of values (1-50).")] = 5,
    ) -> CallToolResult:
        return await _call(lm.search_values, query, axis=axis, limit=limit)

    # -- context and premortem ----------------------------------------------------------

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "What you should know now, as compact markdown within max_tokens. depth light (session start; "
            "situation optional): the spec's blockers, decisions and learnings (without a spec: recent patterns), "
            "top values, recent experiences, important and recent memories, recent commits "
            "and hotspots. depth rich (after a failure or before a risky change; give the situation): similar "
            "experiences with their lessons, values, surprise and root-cause patterns, relevant memories and "
            "code. Returns {depth, situation, markdown, tokens, max_tokens, items: [{kind, id, text, score, "
            "tokens}], omitted}; items carry ids to drill down with the other tools, omitted counts what the "
            "budget left out."
        ),
    )
    async def get_context(
        situation: Annotated[str | None, Field(description="What you are doing or what just went wrong.")] = None,
        depth: Annotated[Depth, Field(description="light or rich (rich needs a situation).")] = "light",
        max_tokens: Annotated[int, Field(description="Token budget of the markdown.")] = 2000,
        include_code: Annotated[bool, Field(description="Include relevant code units (rich).")] = True,
        project: Annotated[str | None, Field(description="Only this indexed project's code and commits.")] = None,
        spec: SpecParam = None,
    ) -> CallToolResult:
        return await _call(lm.get_context, situation, depth=depth, max_tokens=max_tokens, include_code=include_code,
                           project=project, spec=spec)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "Before trying a strategy on a kind of work: how it went before. Returns {domain, strategy, situation, "
            "total, confirmed, falsified, abandoned, failures: [experiences, most relevant to the situation "
            "first], surprises: [{text, count, example_ghap_id}], root_causes: [{text, count, example_ghap_id}], "
            "values: [...], markdown}."
        ),
    )
    async def get_premortem(
        domain: Annotated[Domain, Field(description=f"The kind of work: {domains}.")],
        strategy: Annotated[Strategy, Field(description=f"The strategy you are about to use: {strategies}.")],
        situation: Annotated[str | None, Field(description="What you are about to do, to rank past failures.")] = None,
    ) -> CallToolResult:
        return await _call(lm.get_premortem, domain, strategy, situation=situation)

    # -- moving entries, and the file ---------------------------------------------------

    @server.tool(
        annotations=_EXPORT,
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
        return await _call(lm.export_ghap, path_or_stream, include_active=include_active, _key="exported")

    @server.tool(
        annotations=_ADDITIVE,
        description=(
            "Import GHAP entries from a JSONL file or a journal directory (current_ghap.json, session_entries.jsonl, "
            "archive/*.jsonl); resolved ones become searchable experiences. Known ids are skipped, so importing "
            "again adds nothing. Returns {imported, skipped_duplicates, errors: ['file:line: reason'], warnings}."
        ),
    )
    async def import_ghap(
        path: Annotated[str, Field(description="A .jsonl file or a journal directory on this machine.")],
    ) -> CallToolResult:
        return await _call(lm.import_ghap, path)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "The memory file: where it is, how big, which embedding model, how many rows in each table. Returns "
            "{path, file_bytes, wal_bytes, schema_version, library_version, embedding_model, embedding_dim, counts, "
            "cold_experiences (per cold tier: kept, left out of clustering and default search)}."
        ),
    )
    async def info() -> CallToolResult:
        return await _call(lm.info)

    if allow_sql:

        @server.tool(
            annotations=_READ_ONLY,
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
            return await _call(_run_sql, lm, query, params)

    return server


# -- the read-only SQL tool (--allow-sql) -------------------------------------------------

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


def _library_version() -> str:
    """The learnmem version, advertised as the server version."""
    return getattr(learnmem, "__version__", "")


def _warm_up(lm: Any) -> None:
    """Best effort: a failure here (say, a model mismatch) is reported by the first tool call instead."""
    try:
        lm.warm_up()
    except Exception:  # noqa: BLE001
        pass


def main(argv: list[str] | None = None) -> None:
    """Entry point of `learnmem-mcp` / `python -m mcp_adapter`: serve the tools over stdio."""
    parser = argparse.ArgumentParser(
        prog="learnmem-mcp",
        description="Serve learnmem's memory tools to an MCP client over stdio.",
    )
    parser.add_argument(
        "--db",
        metavar="PATH",
        default=None,
        help="database file (default: $LEARNMEM_DB, else <git root or cwd>/.learnmem/learnmem.duckdb)",
    )
    parser.add_argument(
        "--allow-sql",
        action="store_true",
        help="also serve the `sql` tool: one read-only query on the memory file (off by default)",
    )
    args = parser.parse_args(argv)
    try:
        lm = learnmem.open(args.db)
    except Exception as exc:  # noqa: BLE001 - one readable line beats a traceback in a client's log
        # stdout belongs to the protocol: report on stderr, where MCP clients log it.
        print(f"learnmem-mcp: error: {exc}", file=sys.stderr)
        raise SystemExit(2 if isinstance(exc, LearnmemError) else 1) from None
    # Load the model while the client is still handshaking: the first tool call then answers at full speed.
    threading.Thread(target=_warm_up, args=(lm,), name="learnmem-warm-up", daemon=True).start()
    try:
        build_server(lm, allow_sql=args.allow_sql).run("stdio")
    finally:
        lm.close()  # writes the memory use counted since the last batch


if __name__ == "__main__":
    main()
