"""The MCP adapter, end to end: a real server subprocess, the SDK's stdio client,
the real embedding model and a real DuckDB file.

Also checks the promise that makes the adapter safe to leave running: between
calls the server holds no connection, so the DuckDB CLI and a read-only
`learnmem.open` can read the file while the server process is alive.
"""

import inspect
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

import learnmem
from learnmem.storage.journal import Journal
from tests.conftest import copy_corpus

ROOT = Path(__file__).resolve().parents[2]
DUCKDB_CLI = Path(sys.executable).parent / "duckdb"
TOOLS = ("store_memory", "retrieve_memories", "list_memories", "get_memory", "delete_memory")
# Generous: the server imports DuckDB and loads the model on its first embedding.
CALL_TIMEOUT_S = 120


def _server_params(db: Path, *flags: str) -> StdioServerParameters:
    """Spawn `python -m mcp_adapter --db <db> --tools all [flags]` with this interpreter and this checkout on the
    path: these tests list the full set (every tool is callable in the default profile too, see test_profiles)."""
    env = dict(os.environ)
    env.pop("LEARNMEM_DB", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    tools = [] if "--tools" in flags else ["--tools", "all"]
    return StdioServerParameters(
        command=sys.executable, args=["-m", "mcp_adapter", "--db", str(db), *tools, *flags], env=env, cwd=str(ROOT)
    )


@asynccontextmanager
async def _session(db: Path, errlog_path: Path, *flags: str) -> AsyncIterator[ClientSession]:
    """An initialised client session with a fresh server process; its stderr goes to errlog_path."""
    with errlog_path.open("w") as errlog:
        async with stdio_client(_server_params(db, *flags), errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                yield session


def _run(db: Path, tmp_path: Path, scenario: Callable[[ClientSession], Awaitable[None]], *flags: str) -> None:
    """Run a scenario against a server started with `flags`; on failure, show what the server wrote to stderr."""
    errlog = tmp_path / "server.stderr"

    async def main() -> None:
        with anyio.fail_after(CALL_TIMEOUT_S):
            async with _session(db, errlog, *flags) as session:
                await scenario(session)

    try:
        anyio.run(main)
    except BaseException:
        if errlog.exists():
            print("--- server stderr ---\n" + errlog.read_text(), file=sys.stderr)
        raise


async def _call(session: ClientSession, tool: str, **arguments: Any) -> tuple[dict[str, Any], bool]:
    """Call a tool; return the JSON object it answered with, and whether it was flagged as an error."""
    result = await session.call_tool(tool, arguments)
    texts = [block.text for block in result.content if getattr(block, "type", None) == "text"]
    assert len(texts) == 1, result
    payload = json.loads(texts[0])
    if result.structured_content is not None:
        assert result.structured_content == payload
    if payload.get("status") == "running" and tool != "job_status":  # an index job outlived its answer window
        return await _call(session, "job_status", job_id=payload["job_id"], wait_seconds=60)
    return payload, bool(result.is_error)


async def _ok(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must succeed."""
    payload, is_error = await _call(session, tool, **arguments)
    assert not is_error and "error" not in payload, payload
    return payload


def _cli_count(db: Path) -> int:
    """Count memories with the DuckDB CLI in read-only mode, as a person would from a shell."""
    out = subprocess.run(
        [str(DUCKDB_CLI), "-readonly", "-csv", "-noheader", str(db), "-c", "SELECT count(*) FROM memories"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return int(out.stdout.strip())


def _library_count(db: Path) -> int:
    """Count memories through a read-only library handle in this (the test) process."""
    return len(learnmem.open(db, read_only=True).list_memories(limit=100))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "memory.duckdb"


def test_tools_are_listed_with_honest_annotations(db: Path, tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert set(TOOLS) <= set(tools)
        for name in ("retrieve_memories", "list_memories", "get_memory"):
            assert tools[name].annotations.read_only_hint is True, name
        assert tools["delete_memory"].annotations.read_only_hint is False
        assert tools["delete_memory"].annotations.destructive_hint is True
        assert tools["store_memory"].annotations.read_only_hint is False
        assert tools["store_memory"].annotations.destructive_hint is False
        for tool in tools.values():
            assert tool.description, tool.name
            assert tool.annotations.open_world_hint is False, tool.name
        # Same names and parameters as the library methods, required ones included.
        for name in TOOLS:
            signature = inspect.signature(getattr(learnmem.Learnmem, name))
            params = {p.name: p for p in signature.parameters.values() if p.name != "self"}
            schema = tools[name].input_schema
            assert set(schema["properties"]) == set(params), name
            required = {n for n, p in params.items() if p.default is inspect.Parameter.empty}
            assert set(schema.get("required", [])) == required, name
            for n, p in params.items():
                if p.default is not inspect.Parameter.empty:
                    assert schema["properties"][n].get("default") == p.default, (name, n)

    _run(db, tmp_path, scenario)


def test_memory_round_trip_while_file_stays_readable(db: Path, tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        stored = await _ok(
            session,
            "store_memory",
            content="The project formats Python with ruff format, never black.",
            category=learnmem.MEMORY_CATEGORIES[0],
            importance=0.9,
            tags=["style", "tooling"],
        )
        assert stored["id"] and stored["duplicate"] is False
        await _ok(
            session,
            "store_memory",
            content="Deployments to production happen on Tuesdays after the standup.",
            category=learnmem.MEMORY_CATEGORIES[0],
        )

        # Between calls the server holds no connection: other processes can read the file. A single store reaches
        # the file once stores pause (learnmem.memory.pending: FOLD_DELAY_S); until then it is in the journal.
        deadline = time.monotonic() + 30
        while Journal(db).holds_rows() and time.monotonic() < deadline:
            await anyio.sleep(0.05)
        assert _cli_count(db) == 2
        assert _library_count(db) == 2

        again = await _ok(
            session,
            "store_memory",
            content="The project formats Python with ruff format, never black.",
            category=learnmem.MEMORY_CATEGORIES[0],
        )
        assert again["duplicate"] is True and again["id"] == stored["id"]

        found = await _ok(session, "retrieve_memories", query="which code formatter should I use?", limit=5)
        assert found["count"] == len(found["results"]) >= 1
        assert found["results"][0]["id"] == stored["id"]
        assert isinstance(found["results"][0]["score"], float)

        only_style = await _ok(session, "retrieve_memories", query="formatter", tags=["style"])
        assert [hit["id"] for hit in only_style["results"]] == [stored["id"]]

        got = await _ok(session, "get_memory", id=stored["id"])
        assert got["content"].startswith("The project formats Python")
        assert got["importance"] == pytest.approx(0.9)
        assert sorted(got["tags"]) == ["style", "tooling"]

        listed = await _ok(session, "list_memories")
        assert listed["count"] == 2
        assert stored["id"] in {memory["id"] for memory in listed["results"]}
        paged = await _ok(session, "list_memories", limit=1, offset=1)
        assert paged["count"] == 1

        deleted = await _ok(session, "delete_memory", id=stored["id"])
        assert deleted == {"id": stored["id"], "deleted": True}
        assert _cli_count(db) == 1
        assert _library_count(db) == 1

        gone, is_error = await _call(session, "get_memory", id=stored["id"])
        assert is_error
        assert gone["error"]["type"] == "not_found"
        assert stored["id"] in gone["error"]["message"]

        again_gone, is_error = await _call(session, "delete_memory", id=stored["id"])
        assert is_error and again_gone["error"]["type"] == "not_found"

    _run(db, tmp_path, scenario)


def test_validation_error_is_an_error_object_naming_the_field(db: Path, tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        payload, is_error = await _call(session, "store_memory", content="x marks the spot", category="gossip")
        assert is_error
        assert set(payload) == {"error"}
        assert payload["error"]["type"] == "validation_error"
        message = payload["error"]["message"]
        assert "category" in message and "gossip" in message
        # The message lists what is allowed, so the agent can fix its call.
        assert all(category in message for category in learnmem.MEMORY_CATEGORIES)

        payload, is_error = await _call(session, "list_memories", category="gossip")
        assert is_error and payload["error"]["type"] == "validation_error"

        # The server is still healthy after errors.
        assert (await _ok(session, "list_memories"))["count"] == 0

    _run(db, tmp_path, scenario)


def test_code_tools_index_and_answer_call_graph_questions(db: Path, tmp_path: Path) -> None:
    source = tmp_path / "src" / "shop"
    source.mkdir(parents=True)
    (source / "__init__.py").write_text("")
    (source / "prices.py").write_text("def total(items):\n    return sum(items)\n")
    (source / "cart.py").write_text("from .prices import total\n\n\nclass Cart:\n    def checkout(self):\n        return total([1, 2])\n")

    async def scenario(session: ClientSession) -> None:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert tools["find_callers"].annotations.read_only_hint is True
        assert tools["index_codebase"].annotations.destructive_hint is False
        indexed = await _ok(session, "index_codebase", directory=str(tmp_path / "src"), project="shop")
        assert (indexed["files_indexed"], indexed["calls_resolved"]) == (3, 1)
        callers = await _ok(session, "find_callers", function_name="shop.prices.total")
        assert [(c["caller_module"], c["caller_qualified_name"]) for c in callers["results"]] == [("shop.cart", "Cart.checkout")]
        callees = await _ok(session, "find_callees", function_name="Cart.checkout", project="shop")
        assert {c["callee_name"] for c in callees["results"]} == {"total"}
        missing, is_error = await _call(session, "index_codebase", directory=str(tmp_path / "nope"))
        assert is_error and missing["error"]["type"] == "not_found"

    _run(db, tmp_path, scenario)


def _dulwich_commit(repo, root: Path, files: dict[str, str], message: str, when: int) -> None:
    """Write files into the worktree and commit them with dulwich (no git binary)."""
    from dulwich import porcelain

    for name, text in files.items():
        (root / name).write_text(text)
    porcelain.add(repo, paths=[str(root / name) for name in files])
    identity = b"Ana <ana@example.com>"
    repo.get_worktree().commit(message=message.encode(), author=identity, committer=identity,
                               author_timestamp=when, commit_timestamp=when, author_timezone=0, commit_timezone=0)


def test_git_tools_index_search_history_blame_and_unit_history(db: Path, tmp_path: Path) -> None:
    from dulwich.repo import Repo

    root = tmp_path / "shop"
    root.mkdir()
    repo = Repo.init(str(root))
    _dulwich_commit(repo, root, {"cart.py": "def total(items):\n    return sum(items)\n"}, "Add cart totals", 1_700_000_000)
    _dulwich_commit(repo, root, {"cart.py": "def total(items):\n    return round(sum(items), 2)\n"},
                    "Round cart totals to cents to fix the checkout rounding bug", 1_700_000_100)

    async def scenario(session: ClientSession) -> None:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert tools["get_blame"].annotations.read_only_hint is True
        indexed = await _ok(session, "index_commits", repo_path=str(root))
        assert (indexed["commits_added"], indexed["project"]) == (2, "shop")
        hits = await _ok(session, "search_commits", query="checkout rounding bug")
        assert hits["results"][0]["subject"].startswith("Round cart totals")
        assert hits["results"][0]["paths"] == ["cart.py"]
        history = await _ok(session, "get_file_history", path="cart.py")
        assert [(e["insertions"], e["deletions"]) for e in history["results"]] == [(1, 1), (2, 0)]
        blame = await _ok(session, "get_blame", path="cart.py")
        assert [(b["start_line"], b["end_line"], b["author"]) for b in blame["results"]] == [(1, 1, "Ana"), (2, 2, "Ana")]
        await _ok(session, "index_codebase", directory=str(root), project="shop")
        changes = await _ok(session, "get_unit_history", name="total")
        assert [c["subject"] for c in changes["results"]][-1] == "Add cart totals"
        missing, is_error = await _call(session, "get_file_history", path="nope.py")
        assert is_error and missing["error"]["type"] == "not_found"

    _run(db, tmp_path, scenario)


def _assert_tools_mirror_the_library(tools: dict[str, Any], names: tuple[str, ...]) -> None:
    """Each tool: described, closed-world, and the same parameters and defaults as the library method."""
    for name in names:
        assert tools[name].description and tools[name].annotations.open_world_hint is False, name
        params = {p.name: p for p in inspect.signature(getattr(learnmem.Learnmem, name)).parameters.values()
                  if p.name != "self"}
        schema = tools[name].input_schema
        assert set(schema.get("properties", {})) == set(params), name
        assert set(schema.get("required", [])) == {n for n, p in params.items()
                                                   if p.default is inspect.Parameter.empty}, name
        for n, p in params.items():
            if p.default is not inspect.Parameter.empty:
                assert schema["properties"][n].get("default") == p.default, (name, n)


GHAP_TOOLS = ("start_ghap", "update_ghap", "resolve_ghap", "get_active_ghap", "list_ghap_entries", "search_experiences")


def test_ghap_tools_track_resolve_and_search_over_stdio(db: Path, tmp_path: Path) -> None:
    """start -> update -> get_active -> resolve (falsified, with a root cause) -> list -> search_experiences."""
    cause = {"category": "test-isolation", "description": "A module-level cache keeps results between tests"}

    async def scenario(session: ClientSession) -> None:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        for name in ("get_active_ghap", "list_ghap_entries", "search_experiences"):
            assert tools[name].annotations.read_only_hint is True, name
        for name in ("start_ghap", "update_ghap", "resolve_ghap"):
            assert tools[name].annotations.read_only_hint is False, name
            assert tools[name].annotations.destructive_hint is False, name
        _assert_tools_mirror_the_library(tools, GHAP_TOOLS)

        none = await _ok(session, "get_active_ghap")
        assert none["has_active"] is False and none["id"] is None
        started = await _ok(session, "start_ghap", domain="testing", strategy="systematic-elimination",
                            goal="Fix the flaky order tests", hypothesis="Two tests share one temp directory",
                            action="Give each test its own tmp_path", prediction="The order tests pass 20 of 20 runs")
        assert {"id", "domain", "strategy", "goal", "hypothesis", "action", "prediction", "created_at"} <= set(started)
        assert started["id"].startswith("ghap_") and started["created_at"].endswith("Z")
        updated = await _ok(session, "update_ghap", hypothesis="The tests share a Redis database and race on its keys",
                            note="the temp directories were already separate")
        assert updated == {"success": True, "iteration_count": 2}
        active = await _ok(session, "get_active_ghap")
        assert (active["has_active"], active["id"], active["iteration_count"]) == (True, started["id"], 2)
        assert active["hypothesis"].startswith("The tests share a Redis database")

        # Validation errors come back as error objects naming the field; nothing is resolved.
        missing, is_error = await _call(session, "resolve_ghap", status="falsified", result="Still failing 3 of 20",
                                        surprise="The failures follow the test order")
        assert is_error and missing["error"]["type"] == "validation_error"
        assert "root_cause" in missing["error"]["message"]
        bad, is_error = await _call(session, "resolve_ghap", status="falsified", result="Still failing 3 of 20",
                                    surprise="The failures follow the test order",
                                    root_cause={"category": "bad-luck", "description": "?"})
        assert is_error and bad["error"]["type"] == "validation_error"
        assert "root_cause.category" in bad["error"]["message"] and "bad-luck" in bad["error"]["message"]
        assert "test-isolation" in bad["error"]["message"]  # the valid options are listed
        assert (await _ok(session, "get_active_ghap"))["has_active"] is True

        resolved = await _ok(session, "resolve_ghap", status="falsified",
                             result="Still failing 3 of 20 runs with a fresh Redis database per test",
                             surprise="The failures follow the test order, not the data", root_cause=cause,
                             lesson={"what_worked": "Clearing the module cache in an autouse fixture"})
        assert (resolved["id"], resolved["status"], resolved["confidence_tier"]) == (started["id"], "falsified", "silver")
        assert resolved["resolved_at"].endswith("Z")
        assert (await _ok(session, "get_active_ghap"))["has_active"] is False

        listed = await _ok(session, "list_ghap_entries")
        assert listed["count"] == 1
        assert (listed["results"][0]["id"], listed["results"][0]["outcome_status"]) == (started["id"], "falsified")
        assert (await _ok(session, "list_ghap_entries", outcome="confirmed"))["count"] == 0

        found = await _ok(session, "search_experiences", query="module cache shared between tests", axis="root_cause")
        assert found["count"] >= 1
        hit = found["results"][0]
        assert hit["ghap_id"] == started["id"] and hit["root_cause"] == cause
        assert hit["lesson"] == {"what_worked": "Clearing the module cache in an autouse fixture", "takeaway": None}
        assert isinstance(hit["score"], float)

        gone, is_error = await _call(session, "update_ghap", note="too late")
        assert is_error and gone["error"]["type"] == "not_found" and "start_ghap" in gone["error"]["message"]
        bad_axis, is_error = await _call(session, "search_experiences", query="x", axis="mood")
        assert is_error and "axis" in bad_axis["error"]["message"]

    _run(db, tmp_path, scenario)


LEARNING_TOOLS = ("get_clusters", "get_cluster_members", "validate_value", "store_value", "list_values",
                  "search_values")


def test_learning_tools_cluster_validate_and_store_values_over_stdio(db: Path, tmp_path: Path, corpus_file) -> None:
    """The planted-theme corpus (imported: tests/conftest.py corpus_file) -> get_clusters -> members -> validate
    (both ways) -> store -> list -> search."""
    copy_corpus(corpus_file, db)

    async def scenario(session: ClientSession) -> None:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        for name in ("get_cluster_members", "validate_value", "list_values", "search_values"):
            assert tools[name].annotations.read_only_hint is True, name
        for name in ("get_clusters", "store_value"):
            assert tools[name].annotations.read_only_hint is False, name
            assert tools[name].annotations.destructive_hint is False, name
        _assert_tools_mirror_the_library(tools, LEARNING_TOOLS)

        run = await _ok(session, "get_clusters", axis="surprise")
        assert run["axis"] == "surprise" and run["count"] == len(run["clusters"]) >= 5
        assert {"cluster_id", "label", "size", "avg_weight"} == set(run["clusters"][0])
        largest = run["clusters"][0]["cluster_id"]
        members = await _ok(session, "get_cluster_members", cluster_id=largest, limit=3)
        assert members["count"] == 3 and members["results"][0]["score"] >= members["results"][2]["score"]
        central = members["results"][0]["surprise"]

        check = await _ok(session, "validate_value", text=central, cluster_id=largest)
        assert check["valid"] is True and check["centroid_distance"] <= check["threshold_distance"]
        refused = await _ok(session, "validate_value", text="Bananas ripen faster in a paper bag.", cluster_id=largest)
        assert refused["valid"] is False and refused["reason"]
        bad, is_error = await _call(session, "store_value", text="Bananas ripen faster in a paper bag.",
                                    cluster_id=largest, axis="surprise")
        assert is_error and bad["error"]["type"] == "validation_error"
        assert (await _ok(session, "list_values"))["count"] == 0  # nothing stored on failure

        stored = await _ok(session, "store_value", text=central, cluster_id=largest, axis="surprise")
        assert stored["cluster_id"] == largest and stored["id"].startswith("value_")
        listed = await _ok(session, "list_values", axis="surprise")
        assert [v["id"] for v in listed["results"]] == [stored["id"]]
        found = await _ok(session, "search_values", query=central)
        assert found["results"][0]["id"] == stored["id"]

        for tool, arguments, kind in (("get_clusters", {"axis": "mood"}, "validation_error"),
                                      ("get_cluster_members", {"cluster_id": "nope"}, "validation_error"),
                                      ("validate_value", {"text": "x", "cluster_id": "surprise-9999"}, "not_found")):
            error, is_error = await _call(session, tool, **arguments)
            assert is_error and error["error"]["type"] == kind, (tool, error)

    _run(db, tmp_path, scenario)


# -- the whole library, tool by tool ------------------------------------------------------

# Library parameters a tool leaves out: a terminal progress display (stdout is the protocol here).
OMITTED_PARAMETERS = {"progress"}
READ_ONLY_TOOLS = {
    "retrieve_memories", "list_memories", "get_memory", "search_code", "find_similar_code", "find_callers",
    "find_callees", "search_commits", "get_file_history", "get_churn_hotspots", "get_code_authors", "get_blame",
    "get_unit_history", "get_active_ghap", "list_ghap_entries", "get_orphaned_entry", "search_experiences",
    "job_status",
    "get_cluster_members", "validate_value", "list_values", "search_values", "get_context", "get_premortem", "info",
    "docs_gaps", "get_indexing_stats", "list_queued_memories",
}
DESTRUCTIVE_TOOLS = {"delete_memory", "forget", "export_ghap", "remove_file"}  # export replaces a file already at its path


def _public_methods() -> set[str]:
    return {name for name, member in inspect.getmembers(learnmem.Learnmem, inspect.isfunction)
            if not name.startswith("_")}


def _enum(schema: dict[str, Any], prop: str) -> list[str]:
    """The enum of a property, through `anyOf` (optional) and `$ref` (typed dicts)."""
    node = schema["properties"][prop]
    for option in node.get("anyOf", [node]):
        if "enum" in option:
            return option["enum"]
    raise AssertionError(f"{prop} has no enum: {node}")


def test_every_library_method_is_a_tool_or_deliberately_not(db: Path, tmp_path: Path) -> None:
    from mcp_adapter.server import ADAPTER_TOOLS, NOT_TOOLS

    async def scenario(session: ClientSession) -> None:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        methods = _public_methods()
        assert set(tools) == methods - set(NOT_TOOLS) | set(ADAPTER_TOOLS), \
            "a library method without a tool, or a tool without one"
        assert not set(ADAPTER_TOOLS) & methods and all(ADAPTER_TOOLS.values())
        assert set(NOT_TOOLS) <= methods, "NOT_TOOLS names a method the library no longer has"
        assert all(NOT_TOOLS.values())  # each with its reason
        assert "sql" in NOT_TOOLS and "sql" not in tools  # only with --allow-sql: test_sql_tool_only_with_allow_sql

        for name, tool in tools.items():
            hints = tool.annotations
            assert tool.description and "Returns" in tool.description, name  # says what comes back
            assert hints.open_world_hint is False, name
            assert hints.read_only_hint is (name in READ_ONLY_TOOLS), name
            assert hints.destructive_hint is (name in DESTRUCTIVE_TOOLS), name
            if name in READ_ONLY_TOOLS:
                assert hints.idempotent_hint is True, name
            if name in ADAPTER_TOOLS:
                continue  # no library method to match
            params = {p.name: p for p in inspect.signature(getattr(learnmem.Learnmem, name)).parameters.values()
                      if p.name != "self" and p.name not in OMITTED_PARAMETERS}
            schema = tool.input_schema
            assert set(schema.get("properties", {})) == set(params), name
            assert set(schema.get("required", [])) == {n for n, p in params.items()
                                                       if p.default is inspect.Parameter.empty}, name
            for n, p in params.items():
                if p.default is not inspect.Parameter.empty:
                    assert schema["properties"][n].get("default") == p.default, (name, n)

        # Enums come from the library's constants.
        from learnmem.context import assembly as context
        from learnmem.learning import clusters, ghap

        schemas = {name: tool.input_schema for name, tool in tools.items()}
        for tool, prop in (("start_ghap", "domain"), ("get_premortem", "domain"), ("list_ghap_entries", "domain"),
                           ("search_experiences", "domain")):
            assert _enum(schemas[tool], prop) == list(ghap.DOMAINS), (tool, prop)
        for tool, prop in (("start_ghap", "strategy"), ("update_ghap", "strategy"), ("get_premortem", "strategy")):
            assert _enum(schemas[tool], prop) == list(ghap.STRATEGIES), (tool, prop)
        for tool in ("search_experiences", "get_clusters", "store_value", "list_values", "search_values"):
            assert _enum(schemas[tool], "axis") == list(clusters.AXES), tool
        assert _enum(schemas["resolve_ghap"], "status") == list(ghap.STATUSES)
        assert _enum(schemas["search_experiences"], "outcome") == list(ghap.STATUSES)
        assert _enum(schemas["list_ghap_entries"], "outcome") == [*ghap.STATUSES, "active"]
        assert _enum(schemas["get_context"], "depth") == list(context.DEPTHS)
        assert _enum(schemas["store_memory"], "category") == list(learnmem.MEMORY_CATEGORIES)
        root_cause = schemas["resolve_ghap"]["$defs"]["RootCause"]
        assert root_cause["properties"]["category"]["enum"] == list(ghap.ROOT_CAUSE_CATEGORIES)
        assert set(root_cause["required"]) == {"category", "description"}

    _run(db, tmp_path, scenario)


def test_sql_tool_only_with_allow_sql_and_then_read_only(db: Path, tmp_path: Path) -> None:
    from mcp_adapter.server import ADAPTER_TOOLS, NOT_TOOLS

    async def scenario(session: ClientSession) -> None:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert set(tools) == (_public_methods() - set(NOT_TOOLS)) | set(ADAPTER_TOOLS) | {"sql"}
        hints = tools["sql"].annotations
        assert (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint) == (True, False, True)
        _assert_tools_mirror_the_library(tools, ("sql",))
        await _ok(session, "store_memory", content="SQL readers see this memory.", category="fact")
        rows = await _ok(session, "sql", query="SELECT category, count(*) AS n FROM memory_list GROUP BY ALL")
        assert rows == {"columns": ["category", "n"], "rows": [["fact", 1]], "count": 1, "truncated": False}
        found = await _ok(session, "sql", query="SELECT content FROM memories WHERE category = $1", params=["fact"])
        assert found["rows"] == [["SQL readers see this memory."]]
        for query in ("DELETE FROM memories", "SELECT 1; DELETE FROM memories", f"ATTACH '{tmp_path / 'x.duckdb'}'",
                      f"COPY memories TO '{tmp_path / 'x.csv'}'"):
            refused, is_error = await _call(session, "sql", query=query)
            assert is_error and refused["error"]["type"] == "validation_error", (query, refused)
        assert (await _ok(session, "info"))["counts"]["memories"] == 1
        assert not (tmp_path / "x.duckdb").exists() and not (tmp_path / "x.csv").exists()

    _run(db, tmp_path, scenario, "--allow-sql")


def test_arguments_outside_the_schema_get_the_error_object(db: Path, tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        payload, is_error = await _call(session, "start_ghap", domain="cooking", strategy="trial-and-error",
                                        goal="g", hypothesis="h", action="a")
        assert is_error and set(payload) == {"error"} and payload["error"]["type"] == "validation_error"
        message = payload["error"]["message"]
        assert "domain" in message and "cooking" in message and "debugging" in message  # field, value, options
        assert "prediction: required" in message
        payload, is_error = await _call(session, "get_context", depth="deep")
        assert is_error and payload["error"]["type"] == "validation_error" and "rich" in payload["error"]["message"]
        payload, is_error = await _call(session, "no_such_tool")
        assert is_error and payload["error"]["type"] == "not_found" and "no_such_tool" in payload["error"]["message"]
        assert (await _ok(session, "info"))["counts"]["memories"] == 0  # still healthy

    _run(db, tmp_path, scenario)


def test_orphans_abandon_export_import_and_info(db: Path, tmp_path: Path) -> None:
    """An entry left active by an earlier session is found, adopted, then abandoned; entries move out and in."""
    exported = tmp_path / "entries.jsonl"
    other_db = tmp_path / "other.duckdb"
    start = {"domain": "debugging", "strategy": "read-the-error", "goal": "Fix the crash on empty carts",
             "hypothesis": "total() divides by the item count, which is zero for an empty cart",
             "action": "Return 0 early for an empty cart", "prediction": "The empty-cart test stops crashing"}

    async def scenario(session: ClientSession) -> None:
        assert (await _ok(session, "get_orphaned_entry"))["has_active"] is False
        first = await _ok(session, "start_ghap", **start)
        # A hook starts a new session (the client's conversation restarted): the entry is now an orphan.
        learnmem.open(db).start_session()
        orphan = await _ok(session, "get_orphaned_entry")
        assert (orphan["has_active"], orphan["id"]) == (True, first["id"])
        adopted = await _ok(session, "adopt_orphan")
        assert adopted["id"] == first["id"] and adopted["session_id"] != orphan["session_id"]
        assert (await _ok(session, "get_orphaned_entry"))["has_active"] is False
        again, is_error = await _call(session, "adopt_orphan")
        assert is_error and again["error"]["type"] == "not_found"

        learnmem.open(db).start_session()
        closed = await _ok(session, "abandon_orphan", reason="the next session works on something else")
        assert (closed["id"], closed["status"], closed["confidence_tier"]) == (first["id"], "abandoned", "abandoned")

        second = await _ok(session, "start_ghap", **start)
        given_up = await _ok(session, "abandon_ghap", reason="the user dropped empty carts from the scope")
        assert (given_up["id"], given_up["status"]) == (second["id"], "abandoned")
        none, is_error = await _call(session, "abandon_ghap", reason="twice")
        assert is_error and none["error"]["type"] == "not_found"
        listed = await _ok(session, "list_ghap_entries", outcome="abandoned")
        assert {entry["id"] for entry in listed["results"]} == {first["id"], second["id"]}

        out = await _ok(session, "export_ghap", path_or_stream=str(exported))
        assert out == {"exported": 2}
        assert len(exported.read_text().splitlines()) == 2
        assert (await _ok(session, "import_ghap", path=str(exported))) == {
            "imported": 0, "skipped_duplicates": 2, "errors": [], "warnings": []}
        missing, is_error = await _call(session, "import_ghap", path=str(tmp_path / "nope.jsonl"))
        assert is_error and missing["error"]["type"] == "not_found"

        info = await _ok(session, "info")
        assert info["path"] == str(db) and info["counts"]["memories"] == 0
        assert info["embedding_dim"] == 384 and info["schema_version"] >= 1

    _run(db, tmp_path, scenario)
    # The exported file is a faithful copy: another file takes both entries in.
    assert learnmem.open(other_db).import_ghap(exported).imported == 2


def test_supersede_forget_and_restore_over_mcp(db: Path, tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        old = await _ok(session, "store_memory", content="Deploys happen on Tuesdays and Thursdays",
                        category="decision", tags=["release"])
        new = await _ok(session, "supersede_memory", old_id=old["id"], new_content="Deploys happen every weekday")
        assert new["superseded"] == old["id"]
        found = await _ok(session, "retrieve_memories", query="when do deploys happen")
        assert [hit["id"] for hit in found["results"]] == [new["id"]]
        found = await _ok(session, "retrieve_memories", query="when do deploys happen", include_superseded=True)
        assert {hit["id"]: hit["superseded_by"] for hit in found["results"]} == {new["id"]: None,
                                                                                old["id"]: new["id"]}
        forgotten = await _ok(session, "forget", tags=["release"])
        assert (forgotten["ids"], forgotten["hard"]) == ([old["id"], new["id"]], False)  # superseded ones too
        gone, is_error = await _call(session, "get_memory", id=new["id"])
        assert is_error and gone["error"]["type"] == "not_found" and "restore_memory" in gone["error"]["message"]
        assert (await _ok(session, "restore_memory", id=new["id"]))["id"] == new["id"]
        purged = await _ok(session, "forget", everything=True, hard=True)
        assert (purged["count"], purged["hard"]) == (2, True)
        assert (await _ok(session, "list_memories", include_superseded=True))["count"] == 0
        bad, is_error = await _call(session, "forget")
        assert is_error and bad["error"]["type"] == "validation_error" and "give one id" in bad["error"]["message"]

    _run(db, tmp_path, scenario)


def test_the_server_writes_the_use_it_counted_when_the_client_leaves(db: Path, tmp_path: Path) -> None:
    stored = learnmem.open(db).store_memory("The nightly backup runs at 01:30 UTC", "fact").id

    async def scenario(session: ClientSession) -> None:
        found = await _ok(session, "retrieve_memories", query="when does the nightly backup run")
        assert found["results"][0]["id"] == stored

    _run(db, tmp_path, scenario)  # the server exits when the client closes stdin
    assert learnmem.open(db, read_only=True).sql("SELECT memory_id, accesses FROM memory_usage").fetchall() == [
        (stored, 1)]
