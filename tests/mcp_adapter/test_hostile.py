"""Hostile input over MCP (issue 9, item 3), and the read-only `sql` tool of `--allow-sql` (item 4).

One `learnmem-mcp --allow-sql` process serves the module, spawned as a client spawns it (the SDK's stdio
client, `tests.mcp_adapter.test_session.Agent`), with its working directory and HOME inside a temporary sandbox and a
file seeded with memories, an indexed git repository, resolved experiences, clusters, a value and an active
GHAP entry. For every tool a Hypothesis strategy is derived from the tool's input schema (types, enums,
required fields, the typed dicts under `$defs`) and mixed with hostile values: 1 MB strings, NUL bytes,
SQL-looking and path-traversal text in every text field, ids that exist and ids that do not, negative, zero
and huge integers (2**63, 10**100), NaN and infinities, values of the wrong type, lists nested 150 deep,
missing required fields, unknown fields; beside the random examples a deterministic sweep puts each hostile
value in each field of each tool once. Every answer must be a result or one of the documented error types
(never `internal_error`, never a dropped call or a dead server), in strict JSON; afterwards the file is
consistent and nothing was written outside the sandbox except where a tool's contract says so (export_ghap
writes to the path it is given, traversal included: `test_export_ghap_writes_where_it_is_told_...`).

What cannot travel through the SDK client is sent on a raw pipe: a lone surrogate escape, bytes that are not
UTF-8, NaN and Infinity literals, JSON nested 5,000 deep. (The SDK client itself refuses to encode a lone
surrogate, which ends its session, and refuses to encode values nested deeper than ~250 levels.)

Library defects found here were fixed in learnmem/; each keeps its regression test below ("library defects
found by this harness").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.from_thread import start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import JSONRPCRequest
from pydantic_core import PydanticSerializationError

import learnmem
from learnmem.embedding.embed import models_cache_dir
from mcp_adapter.server import MAX_SQL_ROWS, build_server
from tests.gitrepo import GitRepo
from tests.mcp_adapter.lines import LineReader
from tests.mcp_adapter.test_session import CALL_TIMEOUT_S, CORPUS, SERVER, Agent

DOCUMENTED_ERRORS = {"validation_error", "not_found", "insufficient_data"}
HUGE = "x" * 1_100_000  # over 1 MB
HUGE_WITH_NULS = "ab\x00" * 400_000


def _tool_schemas() -> dict[str, dict[str, Any]]:
    """Every tool of `build_server(..., allow_sql=True)` with its input schema, read without a server process
    (the tools only touch the library when called): the names parametrize the tests."""
    server = build_server(object(), allow_sql=True, tools="all")
    return {tool.name: tool.input_schema for tool in anyio.run(server.list_tools)}


SCHEMAS = _tool_schemas()
# Tools that destroy or rewrite what other tools' examples use go last.
LAST = ("compact_memories", "delete_memory", "forget")
TOOLS = sorted(set(SCHEMAS) - set(LAST)) + list(LAST)
# Examples per tool (default DEFAULT_EXAMPLES): slower tools fewer, the sql tool's refusals more.
DEFAULT_EXAMPLES = 12
EXAMPLES = {"get_clusters": 5, "index_codebase": 8, "index_commits": 8, "compact_memories": 6, "forget": 10,
            "sql": 40, "store_memory": 16, "store_memories": 12, "resolve_ghap": 14, "export_ghap": 14,
            "get_context": 10}

VALID_START = {"domain": "debugging", "strategy": "read-the-error", "goal": "Fix the cart total rounding",
               "hypothesis": "Summing float euros loses cents", "action": "Sum integer cents instead",
               "prediction": "The rounding test passes"}

CART = '''"""A shopping cart."""


def total(items):
    """The sum of the item prices, in cents."""
    return sum(items)


class Cart:
    def __init__(self):
        self.items = []

    def checkout(self):
        return total(self.items)
'''


# -- the world: a sandbox, a seeded file, one server -------------------------------------------------


@dataclass
class World:
    agent: Agent
    root: Path  # the test's folder: the sandbox and the "outside" next to it
    sandbox: Path  # the server's cwd (work/), HOME (home/), the file and the repository live here
    work: Path
    home: Path
    outside: Path
    canary: Path
    db: Path
    ids: list[str]
    cluster_id: str
    outside_before: set[Path]
    export_targets: set[Path] = field(default_factory=set)  # export_ghap paths outside the sandbox
    calls: dict[str, int] = field(default_factory=dict)


def _files_under(folder: Path, skip: Path | None = None) -> set[Path]:
    return {path for path in folder.rglob("*") if skip is None or not path.is_relative_to(skip)}


def _seed(db: Path, sandbox: Path, embedder) -> tuple[list[str], str]:
    """Memories (current, superseded, forgotten), an indexed repository, 60 resolved experiences clustered on
    two axes, a value, and an active entry. Returns ids worth aiming at, and a cluster id."""
    lm = learnmem.open(db, embedder=embedder)
    kept = lm.store_memory("The project formats Python with ruff format, never black.", "convention",
                           tags=["style"]).id
    old = lm.store_memory("Deploys happen on Tuesdays.", "decision", tags=["release"]).id
    new = lm.supersede_memory(old, "Deploys happen every weekday after the standup.").id
    gone = lm.store_memory("The staging database is reset nightly at 02:00 UTC.", "fact").id
    lm.forget(gone)

    repo = GitRepo.init(sandbox / "repo")
    repo.write("shop/__init__.py", '"""Shop."""\n')
    repo.write("shop/cart.py", CART)
    first = repo.commit("Add the cart")
    repo.write("shop/cart.py", CART.replace("return sum(items)", "return round(sum(items))"))
    second = repo.commit("Round cart totals to whole cents")
    lm.index_codebase(repo.path, project="shop", progress=False)
    lm.index_commits(repo.path, project="shop", progress=False)

    corpus = sandbox / "corpus.jsonl"
    corpus.write_text("\n".join(CORPUS.read_text(encoding="utf-8").splitlines()[:60]) + "\n", encoding="utf-8")
    assert lm.import_ghap(corpus).imported == 60
    cluster_ids = [c.cluster_id for axis in ("surprise", "strategy") for c in lm.get_clusters(axis).clusters]
    assert cluster_ids
    value_ids = []
    central = lm.get_cluster_members(cluster_ids[0], limit=1)[0].surprise
    if lm.validate_value(central, cluster_ids[0]).valid:
        value_ids.append(lm.store_value(central, cluster_ids[0], "surprise").id)
    ghap_ids = [entry.id for entry in lm.list_ghap_entries(limit=3)]
    ghap_ids.append(lm.start_ghap(**VALID_START).id)
    lm.close()
    ids = [kept, old, new, gone, *ghap_ids, *cluster_ids[:4], *value_ids, first, second, first[:7],
           "shop", "shop/cart.py", "cart.py", "total", "Cart.checkout", "shop.cart.total", "shop/cart.py:Cart.checkout"]
    return ids, cluster_ids[0]


def _server_params(db: Path, work: Path, home: Path) -> StdioServerParameters:
    """`learnmem-mcp --db <db> --allow-sql` in the sandbox: cwd work/, HOME home/ (so `~` stays inside), the
    model found where this process finds it."""
    env = dict(os.environ)
    env.pop("LEARNMEM_DB", None)
    env["HOME"] = str(home)
    env["LEARNMEM_CACHE_DIR"] = str(models_cache_dir().parent)
    return StdioServerParameters(command=str(SERVER), args=["--db", str(db), "--allow-sql", "--tools", "all"], env=env,
                                 cwd=str(work))


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[World]:
    root = tmp_path_factory.mktemp("hostile")
    sandbox, outside = root / "sandbox", root / "outside"
    work, home = sandbox / "work", sandbox / "home"
    for folder in (work, home, outside):
        folder.mkdir(parents=True)
    canary = outside / "canary.txt"
    canary.write_text("canary: no tool may change me\n")
    db = sandbox / "memory.duckdb"
    ids, cluster_id = _seed(db, sandbox, embedder)
    errlog = sandbox / "server.stderr"

    @asynccontextmanager
    async def connect():
        with errlog.open("w") as log:
            async with stdio_client(_server_params(db, work, home), errlog=log) as (read, write), \
                    ClientSession(read, write) as session:
                with anyio.fail_after(CALL_TIMEOUT_S):
                    await session.initialize()
                yield session

    with start_blocking_portal() as portal, portal.wrap_async_context_manager(connect()) as session:
        yield World(Agent(portal, session, errlog, sandbox), root, sandbox, work, home, outside, canary, db, ids,
                    cluster_id, _files_under(root, skip=sandbox))


# -- one call, and what its answer must be ------------------------------------------------------------


def _brief(arguments: Any) -> str:
    """Arguments as a failure message shows them: long strings cut."""
    def cut(value: Any) -> Any:
        if isinstance(value, str) and len(value) > 60:
            return value[:40] + f"...<{len(value)} chars>"
        if isinstance(value, list):
            return [cut(v) for v in value[:5]] + (["..."] if len(value) > 5 else [])
        if isinstance(value, dict):
            return {k: cut(v) for k, v in value.items()}
        return value
    try:
        return repr(cut(arguments))[:600]
    except RecursionError:
        return "<nested too deeply to show>"


def _strict_json(text: str) -> Any:
    """JSON as RFC 8259 has it: NaN and Infinity are not numbers there."""
    def refuse(constant: str) -> Any:
        raise AssertionError(f"the answer is not strict JSON: it holds {constant}")
    return json.loads(text, parse_constant=refuse)


def answer(world: World, tool: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Call a tool through the stdio client; the call must be answered, in one strict-JSON object that is the
    structured content too, either a result or an error of a documented type."""
    world.calls[tool] = world.calls.get(tool, 0) + 1

    async def call() -> Any:
        with anyio.fail_after(CALL_TIMEOUT_S):
            return await world.agent.session.call_tool(tool, arguments)

    try:
        result = world.agent.portal.call(call)
    except BaseException as exc:
        raise AssertionError(f"{tool}({_brief(arguments)}) was not answered: {exc!r}\n"
                             f"--- server stderr ---\n{world.agent.errlog.read_text()[-4000:]}") from exc
    texts = [block.text for block in result.content if getattr(block, "type", None) == "text"]
    assert len(texts) == 1, (tool, _brief(arguments), result)
    payload = _strict_json(texts[0])
    assert result.structured_content == payload, (tool, _brief(arguments))
    assert isinstance(payload, dict), (tool, _brief(arguments), payload)
    if result.is_error:
        assert set(payload) == {"error"} and set(payload["error"]) == {"type", "message"}, payload
        kind, message = payload["error"]["type"], payload["error"]["message"]
        assert kind in DOCUMENTED_ERRORS, f"{tool}({_brief(arguments)}) -> {kind}: {message}"
        assert isinstance(message, str) and message.strip(), payload
    else:
        assert "error" not in payload, (tool, _brief(arguments), payload)
    return payload, bool(result.is_error)


# -- strategies from the input schemas ---------------------------------------------------------------


def _nest(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


NASTY_TEXT = (
    "", " ", "\t\n ", "\x00", "a\x00b", "\x00" * 64, "'; DROP TABLE memories; --", "\" OR 1=1 --",
    "Robert'); DELETE FROM memories; --", "1; ATTACH '/tmp/x.duckdb' AS x", "$1", "?", "%", "_", "\\", "\\x00",
    "*", "NULL", "null", "None", "true", "-1", "1e400", "NaN", "../../etc/passwd", "..\\..\\windows\\win.ini",
    "/etc/passwd", "/dev/zero", "/proc/self/environ", "~", "$(rm -rf ~)", "`id`", "{{7*7}}", "%s%s%n",
    "\u202e\u2066evil", "\ufeff", "\ufffd", "\U0001f600" * 10, "a" * 501, "a" * 1001, "a" * 2001, "a" * 10_001,
    "line\nbreak\r\n", "-n", "--all", "--output=/tmp/x", "HEAD", "HEAD~1", "HEAD~99999", "@{-1}", "refs/heads/nope",
    "2026-01-31", "2026-13-45", "9999-12-31T23:59:59Z", "0001-01-01", "-0001-01-01", "2026-01-31T25:61:61",
    "1970-01-01T00:00:00+14:00", "mem_20000101_000000_0000000000", "ghap_20000101_000000_000000",
    "surprise-999999", "full--1", "cluster_full_x", "value_full_000000", "0" * 40,
)
INTS = (0, -1, 1, 2, 99, 100, 101, 1000, 1001, 2**31 - 1, 2**31, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 10**100,
        -(10**100))
EXTRA_KEYS = ("unexpected", "__proto__", "../x", "id; DROP TABLE memories", "")

WRONG = st.one_of(
    st.none(), st.booleans(), st.integers(), st.sampled_from(INTS), st.floats(), st.text(max_size=8),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
    st.builds(_nest, st.integers(1, 150)), st.just(list(range(20_000))), st.just({"a": {"b": {"c": [None]}}}),
)


def _rarely(common: st.SearchStrategy, rare: st.SearchStrategy, one_in: int = 12) -> st.SearchStrategy:
    return st.integers(0, one_in - 1).flatmap(lambda i: rare if i == 0 else common)


def _resolve(world: World, text: str) -> Path | None:
    """Where the server would take a path: relative to its cwd, `~` as its HOME; None when it cannot be one."""
    if "\x00" in text or len(text) > 4000 or not text:
        return None
    if text == "~" or text.startswith("~/"):
        text = str(world.home) + text[1:]
    elif text.startswith("~"):
        return Path("/")  # ~user: another user's home, treat as outside
    return Path(os.path.normpath(world.work / text))


def _export_paths(world: World) -> st.SearchStrategy[str]:
    """Where export_ghap may be told to write: inside the sandbox, outside it by traversal (into the test's
    folder only), and paths that cannot be written. Never a real system path: it would be overwritten."""
    fixed = ["out.jsonl", "./out.jsonl", "sub/missing/out.jsonl", ".", "..", "../work", "~/exported.jsonl", "~",
             "../../outside/escaped.jsonl", "../../outside/../outside/escaped-again.jsonl",
             str(world.outside / "absolute.jsonl"), str(world.outside), "/dev/null", "/proc/self/status",
             "a\x00b.jsonl", "\x00", "x" * 300 + ".jsonl", HUGE, "'; DROP TABLE memories; --.jsonl",
             "a" * 255 + "/b.jsonl", "\u202e.jsonl", " "]
    text = st.text(min_size=1, max_size=30).filter(lambda t: _export_allowed(world, t))
    return st.one_of(st.sampled_from(fixed), text)


def _export_allowed(world: World, text: str) -> bool:
    target = _resolve(world, text)
    return target is None or target.is_relative_to(world.root) or str(target) in ("/dev/null", "/proc/self/status")


def _read_paths(world: World) -> st.SearchStrategy[str]:
    """Paths for the tools that read or index a folder or file: the repository, the sandbox, outside it, files
    that are not folders, devices, nothing there. Never a large folder (`/` would index the machine)."""
    fixed = [".", "..", "../repo", str(world.sandbox / "repo"), "../repo/shop/cart.py", "../corpus.jsonl",
             "../../outside", str(world.canary), "../../outside/canary.txt", "~", "nope", "../nope/deeper",
             "/dev/null", "/dev/zero", "/etc/passwd", "/etc/hostname", "/proc/self/status", "../repo/.git",
             "a\x00b", "\x00", "x" * 300, HUGE, "'; DROP TABLE memories; --", " ", ""]
    text = st.text(min_size=1, max_size=30).filter(lambda t: _read_allowed(world, t))
    return st.one_of(st.sampled_from(fixed), text)


def _read_allowed(world: World, text: str) -> bool:
    target = _resolve(world, text)
    return target is None or target.is_relative_to(world.root) or not target.is_dir()


PATH_FIELDS = {("import_ghap", "path"), ("index_codebase", "directory"), ("index_commits", "repo_path")}

SQL_READS = (
    "SELECT count(*) AS n FROM memories", "SELECT * FROM memory_list", "FROM memory_categories",
    "SELECT id, content FROM memories WHERE id = $1", "SELECT $name AS name", "DESCRIBE memories", "SHOW TABLES",
    "SUMMARIZE memories", "VALUES (1, 'a')", "TABLE meta", "WITH x AS (SELECT 1 AS a) SELECT * FROM x",
    "(SELECT 1)", "/* hello */ SELECT 1;", "SELECT * FROM range(5000)", "SELECT [1, 2] AS l, {'a': 1} AS s",
    "SELECT 'nan'::DOUBLE AS f, INTERVAL 3 DAY AS i, DATE '294247-01-10' AS d, '\\xAA'::BLOB AS b",
    "SELECT * FROM ghap_entries", "SELECT * FROM current_clusters", "SELECT * FROM call_edges",
    "SELECT * FROM nope", "SELECT * FROM memories WHERE content = 'a;b'",
)
SQL_WRITES = (
    "SELEC 1", "", ";", " ; ; ", "INSERT INTO memories (id) VALUES ('x')", "DELETE FROM memories", "UPDATE memories SET content = 'pwned'",
    "DROP TABLE memories", "CREATE TABLE t (a INT)", "CREATE TABLE memory.t AS SELECT 1",
    "CREATE TEMP TABLE t AS SELECT 1", "SET threads = 1", "PRAGMA enable_profiling", "INSTALL httpfs",
    "CHECKPOINT", "USE memory", "DETACH learnmem_0", "BEGIN TRANSACTION", "VACUUM", "CALL enable_logging()",
    "SELECT 1; DELETE FROM memories", "SELECT 1; SELECT 2", "EXPLAIN ANALYZE DELETE FROM memories",
    "WITH x AS (SELECT 1) INSERT INTO memories (id) SELECT 'z' FROM x", "/* c */ DELETE FROM memories",
    "-- c\nDELETE FROM memories", "(DELETE FROM memories)", "ALTER TABLE memories ADD COLUMN x INT",
)
SQL_QUERIES = SQL_READS + SQL_WRITES
# What the attacks below would leave in outside/.
SQL_ARTIFACTS = ("attached.duckdb", "copied.csv", "copied2.csv", "exported_db", "profile.json", "logs", "logs2",
                 "q.csv", "after-comment.csv")


def _sql_attacks(world: World) -> tuple[str, ...]:
    """Statements that would write outside the file (into the test's outside/ folder, which must stay as it
    was) or rewrite the file itself."""
    out = world.outside
    return (
        f"ATTACH '{out}/attached.duckdb' AS o",
        f"COPY (SELECT * FROM memories) TO '{out}/copied.csv'",
        f"COPY memories TO '{out}/copied2.csv'",
        f"EXPORT DATABASE '{out}/exported_db'",
        f"PRAGMA profiling_output = '{out}/profile.json'",
        f"USE memory; DETACH learnmem_0; ATTACH '{world.db}' AS w; DELETE FROM w.memories",
        f"ATTACH '{world.db}' AS w2; DELETE FROM w2.memories",
        f"SELECT * FROM enable_logging(storage='file', storage_path='{out}/logs')",
        f"SELECT * FROM \"enable_logging\"(storage='file', storage_path='{out}/logs')",
        f"SELECT * FROM query('COPY (SELECT 1) TO ''{out}/q.csv''')",
        f"SELECT * FROM query('SELECT * FROM enable_' || 'logging(storage=''file'', storage_path=''{out}/logs2'')')",
        "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))",
        f"SELECT 1 -- \n; COPY (SELECT 1) TO '{out}/after-comment.csv'",
    )


def _value(world: World, tool: str, name: str, node: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy:
    """Values for one schema node: valid ones and hostile ones of the same JSON type."""
    if "$ref" in node:
        return _value(world, tool, name, defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    if "anyOf" in node:
        return st.one_of([_value(world, tool, name, option, defs) for option in node["anyOf"]])
    if "enum" in node:
        return st.one_of(st.sampled_from(node["enum"]),
                         _rarely(st.sampled_from(node["enum"]), st.sampled_from(
                             [node["enum"][0].upper(), f" {node['enum'][0]} ", "", "\x00", "'; --"]), 4))
    kind = node.get("type")
    if kind == "string":
        if (tool, name) == ("export_ghap", "path_or_stream"):
            return _export_paths(world)
        if (tool, name) in PATH_FIELDS:
            return _read_paths(world)
        if (tool, name) == ("sql", "query"):
            return st.one_of(st.sampled_from(SQL_QUERIES), st.sampled_from(_sql_attacks(world)),
                             st.sampled_from(NASTY_TEXT), st.text(max_size=30))
        common = st.one_of(st.sampled_from(world.ids), st.sampled_from(NASTY_TEXT), st.text(max_size=40),
                           st.sampled_from(["deploys and formatting", "why does the cart round", "total"]))
        return _rarely(common, st.sampled_from([HUGE, HUGE_WITH_NULS]), 16)
    if kind == "integer":
        return st.one_of(st.integers(-5, 120), st.sampled_from(INTS))
    if kind == "number":
        return st.one_of(st.floats(), st.integers(-10, 10), st.sampled_from([0.5, 1.0, 10**100, 5e-324, -0.0]))
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        items = _value(world, tool, name, node.get("items", {}), defs) if node.get("items") else WRONG
        return st.lists(items, max_size=4)
    if kind == "object" and "properties" in node:
        required = set(node.get("required", []))
        props = {key: _value(world, tool, key, sub, defs) for key, sub in node["properties"].items()}
        return st.fixed_dictionaries({k: v for k, v in props.items() if k in required},
                                     optional={k: v for k, v in props.items() if k not in required})
    return WRONG


@st.composite
def hostile_arguments(draw, world: World, tool: str) -> dict[str, Any]:
    """A tool's arguments: each field from its schema (optional ones sometimes), then at most one hostile
    change: a value of the wrong type, a required field left out, an unknown field, every field null."""
    schema = SCHEMAS[tool]
    props, defs = schema.get("properties", {}), schema.get("$defs", {})
    required = set(schema.get("required", []))
    arguments = {name: draw(_value(world, tool, name, node, defs)) for name, node in props.items()
                 if name in required or draw(st.booleans())}
    change = draw(st.sampled_from(["none", "none", "none", "wrong type", "missing", "unknown field", "all null"]))
    if change == "wrong type" and props:
        arguments[draw(st.sampled_from(sorted(props)))] = draw(WRONG)
    elif change == "missing" and required:
        arguments.pop(draw(st.sampled_from(sorted(required))), None)
    elif change == "unknown field":
        arguments[draw(st.sampled_from(EXTRA_KEYS))] = draw(WRONG)
    elif change == "all null":
        arguments = {name: None for name in props}
    return arguments


def _prepare(world: World, tool: str) -> None:
    """State some tools need to do more than answer not_found: an active entry, an orphaned one."""
    if tool in ("update_ghap", "resolve_ghap", "abandon_ghap", "adopt_orphan", "abandon_orphan"):
        world.agent.ok("start_ghap", **VALID_START)
    if tool in ("adopt_orphan", "abandon_orphan"):
        learnmem.open(world.db).start_session()  # a hook's new session: the active entry is now an orphan


def _remember_export_target(world: World, tool: str, arguments: dict[str, Any]) -> None:
    path = arguments.get("path_or_stream") if tool == "export_ghap" else None
    target = _resolve(world, path) if isinstance(path, str) else None
    if target is not None and target.is_relative_to(world.root) and not target.is_relative_to(world.sandbox):
        world.export_targets.add(target)


# -- the property: every tool, hostile arguments -----------------------------------------------------


@pytest.mark.parametrize("tool", TOOLS)
def test_every_tool_answers_hostile_arguments_with_a_result_or_a_documented_error(world: World, tool: str) -> None:
    @settings(max_examples=EXAMPLES.get(tool, DEFAULT_EXAMPLES), deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(arguments=hostile_arguments(world, tool))
    def run(arguments: dict[str, Any]) -> None:
        _prepare(world, tool)
        _remember_export_target(world, tool, arguments)
        answer(world, tool, arguments)

    run()
    # Still serving, and the file still opens.
    assert answer(world, "info", {})[0]["schema_version"] >= 1


# The sweep: every field of every tool, one hostile value at a time, the others valid.
SWEEP_TEXT = ("", "\x00", HUGE_WITH_NULS, "'; DROP TABLE memories; --", "../../etc/passwd",
              "mem_20000101_000000_0000000000", "\u202e\ufeff\ufffd", "a" * 10_001, "%_\\*?$1")
SWEEP_ENUM = ("", "\x00", "'; --", HUGE)
SWEEP_NUMBERS = (0, -1, 2**63, -(2**63) - 1, 10**100, 0.5, float("nan"))
SWEEP_EXPORT = ("../../outside/escaped.jsonl", str(Path("..") / ".." / "outside" / "x" / ".." / "escaped-again.jsonl"),
                "~/exported.jsonl", "", ".", "sub/missing/out.jsonl", "x" * 300, HUGE, "'; DROP TABLE memories; --")
SWEEP_READ = ("", ".", "../../outside", "/etc/passwd", "/dev/zero", "../nope", "x" * 300, HUGE, "'; --")


def _benign(tool: str, name: str, node: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A valid value for a schema node (what the sweep leaves in the other fields)."""
    if "$ref" in node:
        return _benign(tool, name, defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    if "anyOf" in node:
        return _benign(tool, name, next(o for o in node["anyOf"] if o.get("type") != "null"), defs)
    if "enum" in node:
        return node["enum"][0]
    kind = node.get("type")
    if kind == "string":
        return {("export_ghap", "path_or_stream"): "out.jsonl", ("sql", "query"): "SELECT 1"}.get(
            (tool, name), "../repo" if (tool, name) in PATH_FIELDS else "hello")
    if kind in ("integer", "number"):
        return 5 if kind == "integer" else 0.5
    if kind == "boolean":
        return False
    if kind == "array":
        return [_benign(tool, name, node["items"], defs)] if "$ref" in node.get("items", {}) else []
    if kind == "object" and "properties" in node:
        return {key: _benign(tool, key, sub, defs) for key, sub in node["properties"].items()
                if key in node.get("required", [])}
    return None


def _leaves(tool: str) -> list[tuple[tuple, str, dict[str, Any]]]:
    """(path in the arguments, field name, node) of every scalar field, typed dicts' fields included."""
    schema = SCHEMAS[tool]
    defs = schema.get("$defs", {})
    found = []

    def walk(path: tuple, name: str, node: dict[str, Any]) -> None:
        options = [defs[o["$ref"].rsplit("/", 1)[-1]] if "$ref" in o else o for o in node.get("anyOf", [node])]
        options = [defs[o["$ref"].rsplit("/", 1)[-1]] if "$ref" in o else o for o in options]
        for option in options:
            if option.get("type") == "object" and "properties" in option:
                for key, sub in option["properties"].items():
                    walk((*path, key), key, sub)
                return
            if option.get("type") == "array" and "$ref" in option.get("items", {}):
                walk((*path, 0), name, option["items"])
                return
        if any(o.get("type") in ("string", "integer", "number") for o in options):
            found.append((path, name, node))

    for name, node in schema.get("properties", {}).items():
        walk((name,), name, node)
    return found


def _sweep_values(tool: str, name: str, node: dict[str, Any]) -> tuple:
    types = {o.get("type") for o in node.get("anyOf", [node])}
    if any("enum" in o for o in node.get("anyOf", [node])):
        return SWEEP_ENUM
    if (tool, name) == ("export_ghap", "path_or_stream"):
        return SWEEP_EXPORT
    if (tool, name) in PATH_FIELDS:
        return SWEEP_READ
    if (tool, name) == ("sql", "query"):
        return ()  # test_sql_tool_reads_and_refuses_every_write
    return SWEEP_TEXT if "string" in types else SWEEP_NUMBERS


def _with(arguments: Any, path: tuple, value: Any) -> Any:
    """A copy of the arguments with the value at `path` replaced."""
    if not path:
        return value
    if isinstance(arguments, list):
        copy: Any = list(arguments)
        copy[path[0]] = _with(copy[path[0]], path[1:], value)
    else:
        copy = dict(arguments)
        copy[path[0]] = _with(copy.get(path[0]), path[1:], value)  # an optional field of a typed dict: added
    return copy


SWEPT = [tool for tool in TOOLS if any(_sweep_values(tool, name, node) for _, name, node in _leaves(tool))]


@pytest.mark.parametrize("tool", SWEPT)
def test_every_field_takes_each_hostile_value(world: World, tool: str) -> None:
    """Deterministic, beside the random examples above: each hostile value in each field at least once."""
    schema = SCHEMAS[tool]
    defs = schema.get("$defs", {})
    valid = {name: _benign(tool, name, node, defs) for name, node in schema.get("properties", {}).items()
             if name in schema.get("required", [])}
    for path, name, node in _leaves(tool):
        base = valid if path[0] in valid else {**valid, path[0]: _benign(tool, path[0], schema["properties"][path[0]],
                                                                           defs)}
        for value in _sweep_values(tool, name, node):
            arguments = _with(base, path, value)
            _prepare(world, tool)
            _remember_export_target(world, tool, arguments)
            answer(world, tool, arguments)


def test_export_ghap_writes_where_it_is_told_traversal_included(world: World) -> None:
    """Its contract is a file on this machine: a relative path is taken from the server's working directory,
    `~` is the server's HOME, and `..` is followed (so is an absolute path). Nothing else writes a given path."""
    target = world.outside / "traversed.jsonl"
    world.export_targets.add(target)
    payload, is_error = answer(world, "export_ghap", {"path_or_stream": "../../outside/traversed.jsonl"})
    assert not is_error and payload["exported"] >= 60 and target.is_file()
    payload, is_error = answer(world, "export_ghap", {"path_or_stream": "~/in-home.jsonl"})
    assert not is_error and (world.home / "in-home.jsonl").is_file()
    payload, is_error = answer(world, "export_ghap", {"path_or_stream": str(world.outside)})
    assert is_error and payload["error"]["type"] == "validation_error"  # a folder
    # Regression: an early probe of this harness, run as root, replaced /etc/passwd with GHAP lines. A file
    # that is not a GHAP export is never replaced now; a GHAP export is (exporting again).
    payload, is_error = answer(world, "export_ghap", {"path_or_stream": str(world.canary)})
    assert is_error and payload["error"]["type"] == "validation_error" and "not a GHAP export" in payload["error"][
        "message"]
    assert world.canary.read_text() == "canary: no tool may change me\n"
    payload, is_error = answer(world, "export_ghap", {"path_or_stream": "../../outside/traversed.jsonl"})
    assert not is_error and payload["exported"] >= 60


def test_the_live_server_lists_the_tools_the_strategies_were_built_from(world: World) -> None:
    async def listed() -> Any:
        return await world.agent.session.list_tools()

    tools = {tool.name: tool.input_schema for tool in world.agent.portal.call(listed).tools}
    assert tools == SCHEMAS


# -- the read-only sql tool --------------------------------------------------------------------------


def _fingerprint(db: Path) -> tuple:
    """What the file holds, read through a read-only handle in this process: row counts and the memories."""
    lm = learnmem.open(db, read_only=True)
    counts = lm.info().counts
    memories = lm.sql("SELECT id, content, category, tags FROM memories ORDER BY id").fetchall()
    states = lm.sql("SELECT * FROM memory_states ORDER BY memory_id").fetchall()
    return counts, memories, states


def test_sql_tool_reads_and_refuses_every_write(world: World) -> None:
    payload, _ = answer(world, "sql", {"query": "SELECT category, count(*) AS n FROM memory_list GROUP BY ALL "
                                                "ORDER BY category"})
    assert payload["columns"] == ["category", "n"] and payload["count"] == len(payload["rows"]) >= 1
    payload, is_error = answer(world, "sql", {"query": "SELECT $1::INT + 1 AS x", "params": None})
    assert is_error and "prepared statement parameters" in payload["error"]["message"]  # DuckDB's complaint
    payload, _ = answer(world, "sql", {"query": "SELECT $1::INT + 1 AS x, $2 AS y", "params": [41, "a"]})
    assert payload["rows"] == [[42, "a"]]
    payload, _ = answer(world, "sql", {"query": "SELECT $who AS who", "params": {"who": "me"}})
    assert payload["rows"] == [["me"]]
    payload, _ = answer(world, "sql", {"query": "SELECT * FROM range(5000)"})
    assert (payload["count"], payload["truncated"]) == (MAX_SQL_ROWS, True)

    def instance_state() -> list[dict[str, Any]]:
        """The server's DuckDB: attached databases, tables outside the file, two settings."""
        return [answer(world, "sql", {"query": query})[0] for query in (
            "SELECT database_name FROM duckdb_databases() ORDER BY 1",
            "SELECT database_name, schema_name, table_name FROM duckdb_tables() WHERE database_name <> 'learnmem_0'",
            "SELECT name, value FROM duckdb_settings() WHERE name IN ('threads', 'memory_limit') ORDER BY name")]

    before, state_before = _fingerprint(world.db), instance_state()
    assert ["learnmem_0"] in state_before[0]["rows"] and state_before[1]["rows"] == []
    ran = []
    for query in (*SQL_WRITES, *_sql_attacks(world)):
        payload, is_error = answer(world, "sql", {"query": query})
        if not is_error:
            ran.append(query)
        else:
            assert payload["error"]["type"] == "validation_error", (query, payload)
    # A query that changes only the DuckDB instance it gets to itself (turning logging on there) may run; the
    # checks below show it changed nothing else. Every statement that is not a query is refused.
    assert all("logging" in query or "json_execute_serialized_sql" in query for query in ran), ran

    assert _fingerprint(world.db) == before
    assert [name for name in SQL_ARTIFACTS if (world.outside / name).exists()] == []
    # The server's DuckDB was left as it was: nothing attached or created, no setting changed.
    assert instance_state() == state_before


def test_sql_tool_is_listed_only_with_the_flag_and_read_only(world: World) -> None:
    schemas = {tool.name: tool for tool in anyio.run(build_server(object(), tools="all").list_tools)}
    assert "sql" not in schemas
    (tool,) = [tool for tool in anyio.run(build_server(object(), allow_sql=True).list_tools) if tool.name == "sql"]
    assert tool.annotations.read_only_hint is True and tool.annotations.destructive_hint is False
    assert set(tool.input_schema["properties"]) == {"query", "params"}
    assert tool.input_schema["required"] == ["query"]


# -- what the SDK client cannot send, on a raw pipe --------------------------------------------------


def test_deeply_nested_arguments_are_answered(world: World) -> None:
    # 150 levels: the input schema refuses it.
    payload, is_error = answer(world, "list_memories", {"tags": _nest(150)})
    assert is_error and payload["error"]["type"] == "validation_error" and "tags" in payload["error"]["message"]
    # 220 levels: past the SDK transport's JSON parser (~200), which dropped the request unanswered and left the
    # client waiting; the server now reads it again and answers (regression).
    payload, is_error = answer(world, "list_memories", {"tags": _nest(220)})
    assert is_error and payload["error"]["type"] == "validation_error" and "tags" in payload["error"]["message"]
    payload, is_error = answer(world, "store_memories", {"items": [{"content": "x", "category": "fact",
                                                                    "tags": _nest(230)}]})
    assert is_error and payload["error"]["type"] == "validation_error"

    # 1,000 levels: the SDK client refuses to encode it; nothing is sent and the session goes on.
    async def too_deep() -> Any:
        return await world.agent.session.call_tool("list_memories", {"tags": _nest(1000)})

    with pytest.raises(ValueError, match="depth"):
        world.agent.portal.call(too_deep)
    assert answer(world, "info", {})[0]["counts"]["memories"] >= 0


class RawClient:
    """JSON-RPC lines written straight to a server's stdin: what no well-behaved client sends."""

    def __init__(self, db: Path, cwd: Path, home: Path):
        env = dict(os.environ)
        env.pop("LEARNMEM_DB", None)
        env["HOME"] = str(home)
        env["LEARNMEM_CACHE_DIR"] = str(models_cache_dir().parent)
        self.stderr = (cwd / "raw.stderr").open("w")
        self.process = subprocess.Popen([str(SERVER), "--db", str(db)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.stderr, cwd=cwd, env=env)
        self.lines = LineReader(self.process.stdout)
        init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}
        assert "result" in self.request(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                                                    "params": init}).encode())
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')

    def send(self, line: bytes) -> None:
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def request(self, line: bytes) -> dict[str, Any]:
        self.send(line)
        answer_line = self.lines.readline(CALL_TIMEOUT_S)
        assert answer_line is not None, f"no answer in {CALL_TIMEOUT_S} s to {line[:100]!r}"
        assert answer_line, f"no answer, server exited with {self.process.poll()}"
        return _strict_json(answer_line.decode("utf-8"))

    def call(self, request_id: int, tool: str, arguments: bytes) -> dict[str, Any]:
        """A tools/call whose arguments are given as raw JSON bytes; the error object or result it answers."""
        line = (b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}'
                % (request_id, tool.encode(), arguments))
        reply = self.request(line)
        assert reply["id"] == request_id, reply
        result = reply["result"]
        payload = _strict_json(result["content"][0]["text"])
        assert result.get("structuredContent") == payload
        if result.get("isError"):
            assert payload["error"]["type"] in DOCUMENTED_ERRORS, payload
        return payload

    def close(self) -> int:
        self.process.stdin.close()
        code = self.process.wait(timeout=60)
        self.stderr.close()
        return code


def test_raw_lines_no_client_library_would_send_are_answered(tmp_path: Path, embedder) -> None:
    learnmem.open(tmp_path / "raw.duckdb", embedder=embedder).close()
    raw = RawClient(tmp_path / "raw.duckdb", tmp_path, tmp_path)
    try:
        # A lone surrogate escape: pydantic's parser refuses it; it is read again with U+FFFD in its place.
        stored = raw.call(1, "store_memory", b'{"content":"a lone \\ud800 surrogate","category":"fact"}')
        got = raw.call(2, "get_memory", b'{"id":"%s"}' % stored["id"].encode())
        assert got["content"] == "a lone \ufffd surrogate"
        assert raw.call(3, "get_memory", b'{"id":"\\udfff"}')["error"]["type"] == "not_found"
        # Bytes that are not UTF-8: the transport decodes them as U+FFFD.
        missing = raw.call(4, "get_memory", b'{"id":"x\xff\xfe"}')
        assert missing["error"]["type"] == "not_found" and "x\ufffd\ufffd" in missing["error"]["message"]
        # NaN and infinities, which JSON does not have: refused by the library's range check.
        for request_id, literal in ((5, b"NaN"), (6, b"Infinity"), (7, b"-Infinity"), (8, b"1e400")):
            refused = raw.call(request_id, "store_memory", b'{"content":"x","category":"fact","importance":%s}'
                               % literal)
            assert refused["error"]["type"] == "validation_error", refused
        # 5,000 levels deep: no parser reads it; the tool call still gets its error object...
        deep = raw.call(9, "list_memories", b'{"tags":' + b"[" * 5000 + b"]" * 5000 + b"}")
        assert deep["error"]["type"] == "validation_error" and "could not be read" in deep["error"]["message"]
        # ...and another request a JSON-RPC parse error with its id.
        reply = raw.request(b'{"jsonrpc":"2.0","params":{"x":' + b"[" * 5000 + b"]" * 5000
                            + b'},"id":"deep","method":"tools/list"}')
        assert reply["id"] == "deep" and reply["error"]["code"] == -32700
        # Broken JSON in the arguments.
        broken = raw.call(10, "info", b"{,,,}")
        assert broken["error"]["type"] == "validation_error"
        # A line that is not JSON at all has no id to answer; the server logs it and goes on.
        raw.send(b"hello there")
        assert raw.call(11, "info", b"{}")["counts"]["memories"] == 1
    finally:
        assert raw.close() == 0


# -- library defects found by this harness, fixed in learnmem/ --------------------------------------------


def test_list_memories_refuses_an_offset_past_bigint(world: World) -> None:
    answer(world, "list_memories", {"offset": 2**63})


@pytest.mark.parametrize("tool, path_field", sorted(PATH_FIELDS))
def test_a_path_too_long_for_the_system_is_a_validation_error(world: World, tool: str, path_field: str) -> None:
    answer(world, tool, {path_field: "x" * 300})


def test_export_to_a_path_with_a_nul_byte_is_a_validation_error(world: World) -> None:
    answer(world, "export_ghap", {"path_or_stream": "out\x00.jsonl"})


def test_churn_hotspots_of_a_window_before_year_one_is_a_validation_error(world: World) -> None:
    answer(world, "get_churn_hotspots", {"as_of": "0001-01-01"})


LIBRARY_SQL_PROBE = """
import json, sys
import learnmem
from learnmem.embedding.embed import HashingEmbedder

folder = sys.argv[1]
lm = learnmem.open(folder + "/lib.duckdb", embedder=HashingEmbedder())
lm.store_memory("Keep me: the library's sql() must not delete me.", "fact")
alias = lm.sql("SELECT current_database()").fetchone()[0]
writes = [
    f"USE memory; DETACH {alias}; ATTACH '{folder}/lib.duckdb' AS w; DELETE FROM w.memories",
    f"COPY (SELECT 1) TO '{folder}/copied.csv'",
    f"ATTACH '{folder}/other.duckdb' AS o",
    f"SELECT * FROM enable_logging(storage='file', storage_path='{folder}/logs')",
]
outcomes = {}
for query in writes:
    try:
        lm.sql(query)
        outcomes[query] = "ran"
    except learnmem.errors.ValidationError:
        outcomes[query] = "refused"
print(json.dumps(outcomes))
"""


def test_library_sql_is_read_only(tmp_path: Path) -> None:
    # In a child process: the writes that get through change that process's DuckDB (logging to a file...).
    done = subprocess.run([sys.executable, "-c", LIBRARY_SQL_PROBE, str(tmp_path)], capture_output=True, text=True,
                          check=False, timeout=120, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    outcomes = json.loads(done.stdout.strip().splitlines()[-1])
    memories = learnmem.open(tmp_path / "lib.duckdb", read_only=True).info().counts["memories"]
    written = sorted(name for name in ("copied.csv", "other.duckdb", "logs") if (tmp_path / name).exists())
    # enable_logging may run: it changes only the DuckDB instance the query gets to itself, which is closed
    # afterwards (and may not write files); what matters is that nothing changed and nothing was written.
    refused = {query for query, outcome in outcomes.items() if outcome == "refused"}
    assert (memories, written) == (1, []), (memories, written, outcomes)
    assert {query for query in outcomes if "enable_logging" not in query} <= refused, outcomes


# -- afterwards -----------------------------------------------------------------------------------------

CONSISTENCY = {
    "a memory id stored twice": "SELECT count(*) - count(DISTINCT id) FROM memories",
    "a memory without its embedding": "SELECT count(*) FROM memories WHERE embedding IS NULL",
    "a NUL byte in stored text": "SELECT count(*) FROM memories WHERE strpos(content, chr(0)) > 0 "
                                 "OR list_contains(list_transform(tags, t -> strpos(t, chr(0)) > 0), true)",
    "a memory_states row without its memory": "SELECT count(*) FROM memory_states s "
                                              "WHERE s.memory_id NOT IN (SELECT id FROM memories)",
    "a superseded_by naming no memory": "SELECT count(*) FROM memory_states WHERE superseded_by IS NOT NULL "
                                        "AND superseded_by NOT IN (SELECT id FROM memories)",
    "two memory_states rows for one memory": "SELECT count(*) - count(DISTINCT memory_id) FROM memory_states",
    "more than one active entry": "SELECT greatest(count(*) - 1, 0) FROM ghap_active",
    "an entry both active and resolved": "SELECT count(*) FROM ghap_active WHERE id IN (SELECT id FROM ghap_resolved)",
    "an entry id stored twice": "SELECT count(*) - count(DISTINCT id) FROM ghap_entries",
    "an experience axis without its entry": "SELECT count(*) FROM experience_axes "
                                            "WHERE ghap_id NOT IN (SELECT id FROM ghap_entries)",
    "a code unit without its file": "SELECT count(*) FROM code_units u WHERE NOT EXISTS (SELECT 1 FROM code_files f "
                                    "WHERE f.project = u.project AND f.path = u.file_path)",
    "a changed file without its commit": "SELECT count(*) FROM commit_files cf WHERE NOT EXISTS (SELECT 1 FROM "
                                         "commits c WHERE c.project = cf.project AND c.sha = cf.sha)",
    "a cluster without its run": "SELECT count(*) FROM clusters WHERE run_id NOT IN (SELECT id FROM cluster_runs)",
    "a cluster member without its run": "SELECT count(*) FROM cluster_members "
                                        "WHERE run_id NOT IN (SELECT id FROM cluster_runs)",
}


def test_zz_afterwards_the_file_is_consistent_and_nothing_was_written_outside(world: World) -> None:
    """Runs last in this module (file order): after every hostile call above."""
    lm = learnmem.open(world.db, read_only=True)
    info = lm.info()
    assert info.schema_version >= 1 and info.embedding_dim == 384
    lm.list_memories(limit=5, include_superseded=True)
    lm.list_ghap_entries(limit=5)
    broken = {name: count for name, query in CONSISTENCY.items() if (count := lm.sql(query).fetchone()[0])}
    assert broken == {}

    assert world.canary.read_text() == "canary: no tool may change me\n"
    written = _files_under(world.root, skip=world.sandbox) - world.outside_before
    # Only export_ghap writes where it is told, traversal included (its contract: "a file on this machine").
    assert written <= world.export_targets, sorted(written - world.export_targets)
    for path in written:
        assert all(json.loads(line)["id"].startswith("ghap_") for line in path.read_text().splitlines())
    print(f"\ncalls per tool: {dict(sorted(world.calls.items()))}\nexport_ghap wrote outside the sandbox: "
          f"{sorted(str(p.relative_to(world.root)) for p in written)}")


def test_the_sdk_client_cannot_encode_a_lone_surrogate() -> None:
    """Why the raw pipe: the SDK client serialises each message with pydantic, which refuses a lone surrogate
    (in a live session the writer task fails and the session ends). So none reaches the server that way."""
    request = JSONRPCRequest(jsonrpc="2.0", id=1, method="tools/call",
                             params={"name": "get_memory", "arguments": {"id": "x\ud800"}})
    with pytest.raises(PydanticSerializationError, match="surrogates not allowed"):
        request.model_dump_json(by_alias=True, exclude_unset=True)


def test_the_strict_json_check_refuses_nan() -> None:
    # The check every answer goes through (the SDK client sends NaN as null; the raw test sends the literal).
    with pytest.raises(AssertionError, match="NaN"):
        _strict_json('{"a": NaN}')
