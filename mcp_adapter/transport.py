"""The server class: the SDK's MCPServer, whose refusals and unreadable requests are answered, never dropped.

A call the SDK refuses (arguments outside the input schema, an unknown tool) gets the same error object as a
library error. A request the stdio transport cannot read (JSON nested deeper than its parser allows, a lone
surrogate escape) is read again or answered: see `Server._serve`.
"""

import json
import logging
import re
from collections.abc import AsyncIterator
from io import TextIOWrapper
from typing import Any, BinaryIO

import anyio
import pydantic
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import (
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCResponse,
    Tool,
    ToolAnnotations,
    jsonrpc_message_adapter,
)

from mcp_adapter import jobs, profiles
from mcp_adapter.results import describe_arguments_error, error_result

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


def _lean_tools(tools: list[Tool]) -> list[Tool]:
    """The lean profile's list, built from the full tools: the direct ones compacted, the routers added."""
    by_name = {tool.name: tool for tool in tools}
    lean = [by_name[name].model_copy(update={"description": description,
                                             "input_schema": profiles.compact_schema(by_name[name].input_schema)})
            for name, description in profiles.DIRECT.items()]
    for name, (description, actions) in profiles.ROUTERS.items():
        schemas = {full: by_name[full].input_schema for full in actions.values()}
        hints = [by_name[full].annotations.model_dump(by_alias=True, exclude_none=True) for full in actions.values()]
        lean.append(Tool(name=name, description=profiles.router_description(description, actions, schemas),
                         input_schema=profiles.router_schema(actions),
                         annotations=ToolAnnotations.model_validate(profiles.router_annotations(hints))))
    return lean + [tool for name, tool in by_name.items() if name == "sql"]


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
        result = error_result("validation_error", f"arguments: {reason}")
        return True, SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=request_id, result=result.model_dump(
            by_alias=True, mode="json", exclude_none=True)))
    return True, SessionMessage(JSONRPCError(jsonrpc="2.0", id=request_id,
                                             error=ErrorData(code=PARSE_ERROR, message=reason)))


class Server(MCPServer):
    """MCPServer whose refusals of a call (arguments outside the input schema, an unknown tool) are answered
    in the same error object as the library's, instead of the SDK's plain text, and which lists the tools of
    its profile (`mcp_adapter.profiles`): every registered tool stays callable by its name."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.profile: tuple[str, ...] = ("all",)  # what list_tools lists (set by server.build_server)
        self.group_of: dict[str, str] = {}  # each registered tool's group (profiles.GROUPS)
        self._lean: list[Tool] | None = None  # the lean list, built once
        self.jobs = jobs.Jobs()  # the long calls this server runs (mcp_adapter.jobs)

    async def list_tools(self) -> list[Tool]:
        tools = await super().list_tools()
        if self.profile == ("all",):
            return tools
        if self.profile != ("lean",):
            return [tool for tool in tools if self.group_of.get(tool.name, "sql") in (*self.profile, "sql")]
        if self._lean is None:
            self._lean = _lean_tools(tools)
        return self._lean

    async def call_tool(self, name: str, arguments: dict[str, Any], request_context: Any = None) -> Any:
        if name in profiles.ROUTERS:
            return await self._route(name, arguments, request_context)
        return await self._call(name, arguments, request_context)

    async def _route(self, name: str, arguments: dict[str, Any], request_context: Any) -> Any:
        """A broader tool's call: its `action` names the full tool, called with `args`."""
        actions = profiles.ROUTERS[name][1]
        action, args = arguments.get("action"), arguments.get("args", {})
        unknown = sorted(set(arguments) - {"action", "args"})
        if action not in actions:
            return error_result("validation_error", f"action {action!r}: one of {', '.join(actions)}")
        if unknown:
            return error_result("validation_error", f"{unknown[0]}: not a parameter of {name}; put the action's "
                                                     "arguments in args")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            return error_result("validation_error", f"args {args!r}: an object of {action}'s arguments")
        full = actions[action]
        return await self._call(full, profiles.action_arguments(full, args), request_context, field_prefix="args.")

    async def _call(self, name: str, arguments: dict[str, Any], request_context: Any,
                    field_prefix: str = "") -> Any:
        try:
            return await super().call_tool(name, arguments, request_context)
        except ToolError as exc:
            if isinstance(exc, UnexpectedToolError):
                raise
            if isinstance(exc.__cause__, pydantic.ValidationError):
                return error_result("validation_error", describe_arguments_error(exc.__cause__, field_prefix))
            if self._tool_manager.get_tool(name) is None:
                return error_result("not_found", f"unknown tool {name!r}: list_tools gives the valid names")
            raise

    async def run_stdio_async(self) -> None:
        """Serve over the process's stdio, as the SDK does (`serve_wire` is what `learnmem-mcp` runs)."""
        async with stdio_server() as (read_stream, write_stream):
            await self._serve(read_stream, write_stream, None)

    async def serve_wire(self, reader: BinaryIO, writer: BinaryIO, first_line: bytes,
                         answered_id: int | str | None) -> None:
        """Serve the protocol's wire (`process.Wire`) until the client closes it: `first_line` is what the
        process read before the server was built, and `answered_id` the id of the `initialize` it answered
        itself (`handshake`), whose answer from the SDK is dropped."""

        async def lines() -> AsyncIterator[str]:
            if first_line:
                yield first_line.decode("utf-8", errors="replace")
            async for line in anyio.wrap_file(TextIOWrapper(reader, encoding="utf-8", errors="replace")):
                yield line

        stdout = anyio.wrap_file(TextIOWrapper(writer, encoding="utf-8"))
        async with stdio_server(stdin=lines(), stdout=stdout) as (read_stream, write_stream):
            await self._serve(read_stream, write_stream, answered_id)

    async def _serve(self, read_stream: Any, write_stream: Any, answered_id: int | str | None) -> None:
        """Run the SDK's server between the transport's streams, answering the lines the transport cannot
        read (`_reread`) and dropping the SDK's answer to an `initialize` already answered."""
        send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        answers, outgoing = anyio.create_memory_object_stream[SessionMessage](0)

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

        forwarded = anyio.Event()

        async def forward() -> None:
            pending = answered_id
            async with outgoing:
                async for item in outgoing:
                    message = item.message
                    if pending is not None and isinstance(message, (JSONRPCResponse, JSONRPCError)) \
                            and message.id == pending:
                        pending = None
                        if isinstance(message, JSONRPCError):
                            _log.warning("the SDK refused the initialize already answered: %s",
                                         message.error.message)
                        continue
                    await write_stream.send(item)
            forwarded.set()

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(relay)
            tasks.start_soon(forward)
            async with answers:
                await self._lowlevel_server.run(receive, answers,
                                                self._lowlevel_server.create_initialization_options())
            await forwarded.wait()  # every answer is on its way out
            tasks.cancel_scope.cancel()  # the client left: stop reading for it
        await write_stream.aclose()  # the transport's writer then ends, and with it the transport
