"""Tool results: a library call's outcome serialised as one JSON object, a raised error as an error object.

Every tool answers `{...}` (the returned dataclass, `{results, count}` for a list, `{key: value}` for a plain
value) or, instead of raising, `{"error": {"type": ..., "message": ...}}`, both as text and as structured
content. Calls run in a worker thread: the library is synchronous (DuckDB and the embedder block).
"""

import dataclasses
import functools
import json
from collections.abc import Callable
from typing import Any

import anyio
import anyio.to_thread
import pydantic
from mcp_types import CallToolResult, TextContent

from learnmem.errors import LearnmemError


def to_jsonable(result: Any, key: str | None = None) -> dict[str, Any]:
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


def tool_result(payload: dict[str, Any], *, is_error: bool = False) -> CallToolResult:
    """Wrap a JSON object both as text (what most clients show the model) and as structured content."""
    text = json.dumps(payload, ensure_ascii=False)
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=payload,
        is_error=is_error,
    )


def error_result(kind: str, message: str) -> CallToolResult:
    """The error object every tool returns instead of raising."""
    return tool_result({"error": {"type": kind, "message": message}}, is_error=True)


async def call(method: Callable[..., Any], *args: Any, _key: str | None = None, **kwargs: Any) -> CallToolResult:
    """Run one library call in a worker thread and serialise its outcome (`_key` names a plain result).

    Running in a thread keeps the event loop answering (pings, cancellations)
    while DuckDB or the embedder works.
    """
    try:
        result = await anyio.to_thread.run_sync(functools.partial(method, *args, **kwargs))
    except LearnmemError as exc:
        return error_result(exc.kind, str(exc))
    except Exception as exc:  # noqa: BLE001 - the agent must get an answer, not a dropped call
        return error_result("internal_error", f"{type(exc).__name__}: {exc}")
    return tool_result(to_jsonable(result, _key))


def describe_arguments_error(error: pydantic.ValidationError, field_prefix: str = "") -> str:
    """The schema's verdict on a call's arguments, one clause per field: its name (after `field_prefix`, "args."
    for a broader tool's action), the bad value and what is allowed (pydantic lists an enum's options), as the
    library's own validation messages do."""
    clauses = []
    for problem in error.errors(include_url=False):
        field = field_prefix + ".".join(str(part) for part in problem["loc"])
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
