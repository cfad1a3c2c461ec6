"""The tool profiles (mcp_adapter.profiles): the lean default within its byte budget, every capability still
reachable, the broader tools answering as the full tools do, and `--tools` choosing the list.

The lean list is checked through a real server process and the SDK's client; the reachability and schema rules
on the built server, without a process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from mcp_adapter import profiles
from mcp_adapter.server import build_server

SERVER = Path(sys.executable).parent / "learnmem-mcp"
# The budget for the default tool list: the bytes of the `tools/list` result, compact JSON.
LEAN_BUDGET_BYTES = 12_000


def _listed(tools: str) -> dict[str, Any]:
    return {tool.name: tool for tool in anyio.run(build_server(object(), tools=tools).list_tools)}


def _result_bytes(tools: list[Any]) -> int:
    return len(json.dumps({"tools": [tool.model_dump(by_alias=True, mode="json", exclude_none=True)
                                     for tool in tools]}, separators=(",", ":")).encode())


def test_every_tool_of_the_full_set_is_reachable_from_the_lean_list() -> None:
    full = _listed("all")
    lean = _listed("lean")
    assert set(lean) == set(profiles.DIRECT) | set(profiles.ROUTERS)
    reachable = set(profiles.DIRECT) | set(profiles.ROUTED)
    assert reachable == set(full), (set(full) - reachable, reachable - set(full))


def test_a_direct_tool_takes_the_same_parameters_as_its_full_tool() -> None:
    full, lean = _listed("all"), _listed("lean")
    for name in profiles.DIRECT:
        assert set(lean[name].input_schema["properties"]) == set(full[name].input_schema["properties"]), name
        assert lean[name].input_schema.get("required") == full[name].input_schema.get("required"), name
        assert lean[name].annotations == full[name].annotations, name
        assert len(lean[name].description) <= 200, name  # one or two sentences


def test_a_broader_tool_lists_each_action_with_its_args_and_honest_hints() -> None:
    full, lean = _listed("all"), _listed("lean")
    for name, (_, actions) in profiles.ROUTERS.items():
        tool = lean[name]
        assert tool.input_schema["properties"]["action"]["enum"] == list(actions)
        for action, target in actions.items():
            required = full[target].input_schema.get("required", [])
            shown = {own: arg for (tool_name, arg), own in profiles.ARG_NAMES.items() if tool_name == target}
            assert f"{action}(" in tool.description
            assert all(shown.get(param, param) in tool.description for param in required)
        hints = [full[target].annotations for target in actions.values()]
        assert tool.annotations.read_only_hint == all(hint.read_only_hint for hint in hints), name
        assert tool.annotations.destructive_hint == any(hint.destructive_hint for hint in hints), name
    assert lean["memories"].annotations.read_only_hint is True
    assert lean["memory_lifecycle"].annotations.destructive_hint is True  # it deletes
    assert lean["git"].annotations.read_only_hint is False  # it indexes
    assert "export(path, include_active?)" in lean["ghap"].description  # a path over MCP, not a stream


def test_groups_list_only_their_tools() -> None:
    assert set(_listed("memories,git")) == {name for name, tool in _listed("all").items()
                                           if name in build_server(object()).group_of
                                           and build_server(object()).group_of[name] in ("memories", "git")}
    with pytest.raises(ValueError, match="lean .*all.*memories, code, git, ghap, learning, context, file"):
        build_server(object(), tools="memories,nope")


def test_the_cli_refuses_an_unknown_profile_in_one_line() -> None:
    done = subprocess.run([str(SERVER), "--tools", "everything"], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "--tools 'everything': give lean (the default), all, or groups" in done.stderr


async def _call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    return json.loads(result.content[0].text)


def test_the_default_server_serves_the_lean_list_and_routes_its_actions(tmp_path: Path, embedder) -> None:
    import learnmem

    db = tmp_path / "memory.duckdb"
    stored = learnmem.open(db, embedder=embedder).store_memory("Releases are tagged from main", "fact").id
    env = {key: value for key, value in os.environ.items() if key != "LEARNMEM_DB"}
    params = StdioServerParameters(command=str(SERVER), args=["--db", str(db)], env=env, cwd=str(tmp_path))

    async def scenario() -> None:
        with (tmp_path / "server.stderr").open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                init = await session.initialize()
                assert "store_memory" in init.instructions and "{action, args}" in init.instructions
                tools = (await session.list_tools()).tools
                assert [tool.name for tool in tools] == [*profiles.DIRECT, *profiles.ROUTERS]
                assert _result_bytes(tools) <= LEAN_BUDGET_BYTES
                got = await _call(session, "memories", {"action": "get", "args": {"id": stored}})
                assert got["content"] == "Releases are tagged from main"
                assert (await _call(session, "memories", {"action": "info"}))["counts"]["memories"] == 1
                refused = await _call(session, "git", {"action": "rebase"})
                assert refused["error"]["type"] == "validation_error" and "one of index, job, search" in \
                    refused["error"]["message"]
                bad = await _call(session, "memory_lifecycle", {"action": "forget", "args": {"hard": "yes please"}})
                assert bad["error"]["type"] == "validation_error" and "args.hard" in bad["error"]["message"]
                stray = await _call(session, "memories", {"action": "get", "id": stored})
                assert stray["error"]["type"] == "validation_error" and "put the action's arguments in args" in \
                    stray["error"]["message"]
                missing = await _call(session, "memories", {"action": "get", "args": {"id": "mem_nope"}})
                assert missing["error"]["type"] == "not_found"
                exported = await _call(session, "ghap", {"action": "export", "args": {"path": str(tmp_path / "g.jsonl")}})
                assert exported == {"exported": 0} and (tmp_path / "g.jsonl").exists()
                # A full tool's name still answers, unlisted: clients written for it keep working.
                assert (await _call(session, "get_memory", {"id": stored}))["id"] == stored

    anyio.run(scenario)
