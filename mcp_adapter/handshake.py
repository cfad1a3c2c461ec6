"""The `initialize` handshake, answered before the MCP SDK and the library are loaded.

Importing the SDK and opening the library take one to two seconds; a client that times the handshake (Claude
Code sends its first turn while a server is still pending) must not wait for them. So the process
(`mcp_adapter.process`) answers a well-formed `initialize` from this module, which imports nothing but the
standard library, while the server boots in the background; the SDK is then handed the same request and its
own answer is dropped. A request this module does not recognise as a plain handshake is left to the SDK.

What is answered here must be what the SDK would answer: `tests/mcp_adapter/test_startup.py` compares the two
for every protocol version the SDK negotiates.
"""

from __future__ import annotations

import json
from typing import Any

from learnmem import __version__

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

# The same for the lean profile (mcp_adapter.profiles), whose broader tools take an action and its args.
LEAN_INSTRUCTIONS = (
    "Long-term memory for this project, kept in one local DuckDB file. "
    "At the start of a task call get_context (depth light); after a failure, or before a risky change, "
    "get_context with depth rich and your situation, and learning (action premortem) before trying a strategy. "
    "Store facts, decisions, preferences and corrections worth remembering with store_memory; look them up "
    "with retrieve_memories before you act. Before changing code ask search_code, code (callers, callees) and "
    "git (search, file_history, blame, unit_history: why is this code like this?). "
    "Track each non-trivial attempt as a GHAP entry: start_ghap (goal, hypothesis, action, prediction), "
    "update_ghap as your belief changes, resolve_ghap when the outcome is known, abandon_ghap when you give up; "
    "learning (action experiences) finds what earlier attempts taught, and ghap (action orphan) an entry an "
    "earlier session left active. memories, memory_lifecycle, code, git, ghap and learning take {action, args}: "
    "their description lists each action's args. Every tool returns a JSON object; on failure it is "
    '{"error": {"type": ..., "message": ...}} and the message says how to fix the call.'
)


def instructions(profile: tuple[str, ...]) -> str:
    """The server's instructions for the profile it lists (`mcp_adapter.profiles.parse`)."""
    return LEAN_INSTRUCTIONS if profile == ("lean",) else INSTRUCTIONS


# The handshake versions the SDK negotiates (mcp.server.runner.HANDSHAKE_PROTOCOL_VERSIONS), oldest first: a
# client asking for one of them gets it, any other the latest.
PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_PROTOCOL_VERSION = PROTOCOL_VERSIONS[-1]

# What the SDK's server advertises: MCPServer registers tools, resources and prompts (learnmem serves tools).
CAPABILITIES: dict[str, Any] = {
    "prompts": {"listChanged": False},
    "resources": {"listChanged": False, "subscribe": False},
    "tools": {"listChanged": False},
}


def initialize_result(protocol_version: str, profile: tuple[str, ...] = ("lean",)) -> dict[str, Any]:
    """The result of `initialize` for a client asking for `protocol_version`, from a server listing `profile`."""
    negotiated = protocol_version if protocol_version in PROTOCOL_VERSIONS else LATEST_PROTOCOL_VERSION
    return {
        "capabilities": CAPABILITIES,
        "instructions": instructions(profile),
        "protocolVersion": negotiated,
        "serverInfo": {"name": SERVER_NAME, "version": __version__},
    }


def answer_initialize(line: bytes, profile: tuple[str, ...] = ("lean",)) -> tuple[int | str, bytes] | None:
    """(request id, the answer line) for a line that is a plain `initialize` request to a server listing
    `profile`, or None for anything else (another method, a notification, params the SDK should judge): that
    line is left to the SDK."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or message.get("method") != "initialize":
        return None
    request_id, params = message.get("id"), message.get("params")
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)) or not _plain_params(params):
        return None
    answer = {"jsonrpc": "2.0", "id": request_id, "result": initialize_result(params["protocolVersion"], profile)}
    return request_id, json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def _plain_params(params: Any) -> bool:
    """Params every client library sends and the SDK accepts: a version string, a capabilities object, and
    the client's name and version as strings."""
    if not isinstance(params, dict):
        return False
    client = params.get("clientInfo")
    capabilities = params.get("capabilities")
    return (
        isinstance(params.get("protocolVersion"), str)
        and isinstance(capabilities, dict)
        and all(isinstance(value, dict) for value in capabilities.values())
        and isinstance(client, dict)
        and isinstance(client.get("name"), str)
        and isinstance(client.get("version"), str)
    )
