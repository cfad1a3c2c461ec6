"""An agent's working session over MCP, end to end, against one `learnmem-mcp` process.

The console script is spawned the way an MCP client spawns it (stdio, `--db` pointing into a temporary
folder) and driven through the MCP Python SDK's stdio client, with the real model, a real DuckDB file
and a real git repository. The tests of this module are the steps of one session, in order, sharing
the server: every step that needs an earlier one's state asks for it through a module-scoped fixture,
so a single test can also run alone.

1. index a small repository (code and commits) and ask it questions;
2. store a decision, a preference and a fact, and retrieve them;
3. run three GHAP cycles (start -> update -> resolve), one falsified with surprise, root cause and lesson;
4. import the planted-theme corpus, cluster it, read a cluster, validate and store its value;
5. ask for light context, rich context for a situation, and a premortem: what was stored comes back.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.gitrepo import GitRepo

DATA = Path(__file__).resolve().parents[1] / "data"
CORPUS = DATA / "experiences.jsonl"
THEMES = json.loads((DATA / "experiences_themes.json").read_text(encoding="utf-8"))
WRITTEN = json.loads((DATA / "experiences_values.json").read_text(encoding="utf-8"))
SERVER = Path(sys.executable).parent / "learnmem-mcp"
# Generous: the first embedding loads the model, the import embeds the whole corpus.
CALL_TIMEOUT_S = 180

# -- the repository the agent works on ---------------------------------------------------

CLOCK_V1 = '''"""Time helpers for billing."""

from datetime import datetime


def now_utc():
    """The current time."""
    return datetime.now()


def parse_timestamp(text):
    """Parse an ISO 8601 timestamp from the payment provider."""
    return datetime.fromisoformat(text)
'''

CLOCK_V2 = '''"""Time helpers for billing: every datetime is timezone-aware and in UTC."""

from datetime import datetime, timezone


def now_utc():
    """The current time, timezone-aware, in UTC."""
    return datetime.now(timezone.utc)


def parse_timestamp(text):
    """Parse an ISO 8601 timestamp from the payment provider and convert it to UTC."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)
'''

MONEY = '''"""Amounts are integer cents; formatting happens at the edge."""


def round_cents(amount):
    """Round a decimal amount of euros to whole cents."""
    return int(round(amount * 100))


def format_amount(cents):
    """Format cents as a euro amount, e.g. 1234 -> 'EUR 12.34'."""
    return f"EUR {cents // 100}.{cents % 100:02d}"
'''

INVOICES = '''"""Invoices: due dates and rendering."""

from datetime import timedelta

from billing.clock import now_utc
from billing.money import format_amount

PAYMENT_TERMS_DAYS = 30


class Invoice:
    def __init__(self, number, cents, issued_at=None):
        self.number = number
        self.cents = cents
        self.issued_at = issued_at or now_utc()

    def due_date(self):
        """The day payment is due: the issue time plus the payment terms."""
        return self.issued_at + timedelta(days=PAYMENT_TERMS_DAYS)


def render_invoice(invoice):
    """One line of text for an invoice."""
    return f"Invoice {invoice.number}: {format_amount(invoice.cents)} due {invoice.due_date():%Y-%m-%d}"
'''

# -- what the agent stores -----------------------------------------------------------------

DECISION = ("Billing stores every timestamp as a timezone-aware UTC datetime; convert to local time only "
            "when rendering an invoice.")
PREFERENCE = "Write table-driven tests with pytest.mark.parametrize instead of loops inside one test."
FACT = "Invoices are due 30 days after they are issued, counted in UTC."

FALSIFIED_LESSON = {
    "what_worked": "Building the due-date fixtures with datetime(..., tzinfo=timezone.utc) instead of naive datetimes",
    "takeaway": "Never mix naive local datetimes with UTC ones in due-date code; keep them aware and in UTC",
}
FALSIFIED_ROOT_CAUSE = {
    "category": "wrong-assumption",
    "description": "Assumed the CI machine's timezone setting broke the test; the fixture's naive local datetime "
                   "shifted by an hour across the DST change",
}
FALSIFIED_SURPRISE = "The failure came from the test fixture's naive datetime, not from the CI timezone setting"
SITUATION = "test_due_date fails on CI around the daylight saving change; due dates are off by one hour"


def _server_params(db: Path, cwd: Path) -> StdioServerParameters:
    """`learnmem-mcp --db <db>` as a client would start it (the editable install runs this checkout)."""
    env = dict(os.environ)
    env.pop("LEARNMEM_DB", None)
    return StdioServerParameters(command=str(SERVER), args=["--db", str(db)], env=env, cwd=str(cwd))


@dataclass
class Agent:
    """A connected client: synchronous calls into the session, which lives in the portal's event loop."""

    portal: BlockingPortal
    session: ClientSession
    errlog: Path
    tmp: Path

    def call(self, tool: str, **arguments: Any) -> tuple[dict[str, Any], bool]:
        """Call a tool; the JSON object it answered with, and whether it was flagged as an error."""

        async def call() -> Any:
            with anyio.fail_after(CALL_TIMEOUT_S):
                return await self.session.call_tool(tool, arguments)

        try:
            result = self.portal.call(call)
        except BaseException as exc:
            raise AssertionError(f"{tool} failed: {exc!r}\n--- server stderr ---\n{self.errlog.read_text()}") from exc
        texts = [block.text for block in result.content if getattr(block, "type", None) == "text"]
        assert len(texts) == 1, result
        payload = json.loads(texts[0])
        assert result.structured_content == payload
        if payload.get("status") == "running" and tool != "job_status":  # an index job outlived its window
            return self.call("job_status", job_id=payload["job_id"], wait_seconds=60)
        return payload, bool(result.is_error)

    def ok(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """Call a tool that must succeed."""
        payload, is_error = self.call(tool, **arguments)
        assert not is_error and "error" not in payload, (tool, payload)
        return payload


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agent]:
    """One server process for the whole session."""
    tmp = tmp_path_factory.mktemp("agent_session")
    db, errlog = tmp / "memory.duckdb", tmp / "server.stderr"

    @asynccontextmanager
    async def connect():
        with errlog.open("w") as log:
            async with stdio_client(_server_params(db, tmp), errlog=log) as (read, write), \
                    ClientSession(read, write) as session:
                with anyio.fail_after(CALL_TIMEOUT_S):
                    await session.initialize()
                yield session

    with start_blocking_portal() as portal, portal.wrap_async_context_manager(connect()) as session:
        yield Agent(portal, session, errlog, tmp)


# -- the session, step by step (fixtures carry each step's results to the next) -------------


@pytest.fixture(scope="module")
def repo(agent: Agent) -> GitRepo:
    """A small billing package with three commits; the last fixes a DST bug."""
    repo = GitRepo.init(agent.tmp / "billing-repo")
    repo.write("billing/__init__.py", '"""Billing."""\n')
    repo.write("billing/money.py", MONEY)
    repo.write("billing/invoices.py", INVOICES)
    repo.commit("Add invoices with due dates and euro formatting")
    repo.write("billing/clock.py", CLOCK_V1)
    repo.commit("Add clock helpers for due dates and provider timestamps")
    repo.write("billing/clock.py", CLOCK_V2)
    repo.commit("Fix due dates shifting by an hour around daylight saving time: keep datetimes aware in UTC")
    return repo


@pytest.fixture(scope="module")
def indexed(agent: Agent, repo: GitRepo) -> dict[str, Any]:
    code = agent.ok("index_codebase", directory=str(repo.path), project="billing")
    commits = agent.ok("index_commits", repo_path=str(repo.path), project="billing")
    return {"code": code, "commits": commits}


@pytest.fixture(scope="module")
def memories(agent: Agent, indexed: dict[str, Any]) -> dict[str, str]:
    """category -> id of the memory the agent stored: the decision alone, the other two in one batch."""
    decision = agent.ok("store_memory", content=DECISION, category="decision", importance=0.9, tags=["billing"])
    batch = agent.ok("store_memories", items=[
        {"content": PREFERENCE, "category": "preference", "importance": 0.6, "tags": ["tests"]},
        {"content": FACT, "category": "fact", "importance": 0.7},
    ])
    assert batch["count"] == 2
    assert [answer["duplicate"] for answer in (decision, *batch["results"])] == [False, False, False]
    return {"decision": decision["id"], "preference": batch["results"][0]["id"], "fact": batch["results"][1]["id"]}


CYCLES = (
    {
        "start": {
            "domain": "debugging", "strategy": "read-the-error",
            "goal": "Fix render_invoice crashing for invoices issued before the clock refactoring",
            "hypothesis": "Old invoices carry a naive issued_at, so formatting the due date compares naive and "
                          "aware datetimes",
            "action": "Read the traceback of the failing render call",
            "prediction": "The traceback ends in due_date with a naive/aware comparison error",
        },
        "update": {"note": "the traceback points at due_date, as predicted"},
        "resolve": {
            "status": "confirmed", "auto_captured": False,
            "result": "The traceback ended in due_date; converting legacy issued_at values to UTC on load fixed "
                      "the crash",
        },
        "iterations": 1,
    },
    {
        "start": {
            "domain": "testing", "strategy": "systematic-elimination",
            "goal": "Make test_due_date pass on CI around the March daylight saving change",
            "hypothesis": "The CI machine runs in another timezone, so datetime.now() there differs from the "
                          "expected local time",
            "action": "Set TZ=UTC in the CI job and re-run the test suite",
            "prediction": "test_due_date passes on CI with TZ=UTC",
        },
        "update": {
            "hypothesis": "The test fixture builds a naive local datetime, and adding 30 days across the DST "
                          "change shifts it by an hour",
            "action": "Build the fixture with datetime(..., tzinfo=timezone.utc) and compare in UTC",
            "prediction": "test_due_date passes on CI in every timezone",
        },
        "resolve": {
            "status": "falsified",
            "result": "TZ=UTC on CI changed nothing; the due date was still one hour off until the fixture used "
                      "an aware UTC datetime",
            "surprise": FALSIFIED_SURPRISE, "root_cause": FALSIFIED_ROOT_CAUSE, "lesson": FALSIFIED_LESSON,
        },
        "iterations": 2,
    },
    {
        "start": {
            "domain": "refactoring", "strategy": "divide-and-conquer",
            "goal": "Move amount formatting out of invoices into billing.money",
            "hypothesis": "Only render_invoice formats amounts, so format_amount can move without touching "
                          "other callers",
            "action": "Move format_amount to billing.money and import it in invoices",
            "prediction": "find_callers shows render_invoice as the only caller and the tests pass",
        },
        "update": {"strategy": "copy-from-similar", "note": "followed the layout of billing.clock"},
        "resolve": {
            "status": "confirmed", "auto_captured": True,
            "result": "The test suite passed, 14 of 14; render_invoice is the only caller",
        },
        "iterations": 1,
    },
)


@pytest.fixture(scope="module")
def cycles(agent: Agent, memories: dict[str, str]) -> list[dict[str, Any]]:
    """The three GHAP cycles: what each start, update and resolve answered."""
    done = []
    for cycle in CYCLES:
        started = agent.ok("start_ghap", **cycle["start"])
        updated = agent.ok("update_ghap", **cycle["update"])
        active = agent.ok("get_active_ghap")
        resolved = agent.ok("resolve_ghap", **cycle["resolve"])
        done.append({"started": started, "updated": updated, "active": active, "resolved": resolved})
    return done


@pytest.fixture(scope="module")
def learned(agent: Agent, cycles: list[dict[str, Any]]) -> dict[str, Any]:
    """Import the corpus, cluster the full axis, pick the timezone-dst cluster, store its value."""
    imported = agent.ok("import_ghap", path=str(CORPUS))
    run = agent.ok("get_clusters", axis="full")
    members = {cluster["cluster_id"]: agent.ok("get_cluster_members", cluster_id=cluster["cluster_id"], limit=100)
               for cluster in run["clusters"]}
    # As tests/learning/test_corpus.py picks it: the cluster holding most of the theme's experiences.
    counts = Counter(cluster_id for cluster_id, answer in members.items() for member in answer["results"]
                     if THEMES.get(member["ghap_id"]) == "timezone-dst")
    cluster_id = counts.most_common(1)[0][0]
    # The ritual: the theme's summary first; if refused, the second draft written from the members.
    drafts = [WRITTEN["values"]["timezone-dst"]]
    if "timezone-dst" in WRITTEN["second_drafts"]["full"]:
        drafts.append(WRITTEN["second_drafts"]["full"]["timezone-dst"])
    checks = []
    for text in drafts:
        checks.append(agent.ok("validate_value", text=text, cluster_id=cluster_id))
        if checks[-1]["valid"]:
            break
    value = agent.ok("store_value", text=drafts[len(checks) - 1], cluster_id=cluster_id, axis="full")
    return {"imported": imported, "run": run, "members": members, "cluster_id": cluster_id,
            "theme_count": counts[cluster_id], "checks": checks, "value": value}


# -- 1. the repository ------------------------------------------------------------------------


def test_index_the_repository_and_ask_it_questions(agent: Agent, indexed: dict[str, Any]) -> None:
    code, commits = indexed["code"], indexed["commits"]
    assert (code["project"], code["files_indexed"], code["files_failed"]) == ("billing", 4, 0)
    assert code["calls_resolved"] >= 2  # invoices -> now_utc, format_amount
    assert (commits["project"], commits["commits_added"], commits["commits_total"]) == ("billing", 3, 3)

    hits = agent.ok("search_code", query="parse a payment provider timestamp and convert it to UTC", project="billing")
    assert hits["results"][0]["qualified_name"] == "parse_timestamp"
    callers = agent.ok("find_callers", function_name="format_amount", project="billing")
    assert {edge["caller_qualified_name"] for edge in callers["results"]} == {"render_invoice"}
    found = agent.ok("search_commits", query="daylight saving bug in due dates", project="billing")
    assert found["results"][0]["subject"].startswith("Fix due dates shifting by an hour")
    history = agent.ok("get_file_history", path="billing/clock.py", project="billing")
    assert [entry["subject"][:24] for entry in history["results"]] == ["Fix due dates shifting b", "Add clock helpers for du"]


# -- 2. memories -------------------------------------------------------------------------------


def test_store_and_retrieve_memories(agent: Agent, memories: dict[str, str]) -> None:
    assert len(set(memories.values())) == 3
    again = agent.ok("store_memory", content=DECISION, category="decision")
    assert (again["duplicate"], again["id"]) == (True, memories["decision"])
    found = agent.ok("retrieve_memories", query="how should I handle time zones in billing?", limit=3)
    assert found["results"][0]["id"] == memories["decision"]
    index = agent.ok("retrieve_memories", query="how should I handle time zones in billing?", limit=3,
                     detail="index")
    assert [hit["id"] for hit in index["results"]] == [hit["id"] for hit in found["results"]]
    assert set(index["results"][0]) == {"id", "category", "summary", "score"}
    assert agent.ok("docs_gaps") == {"results": [], "count": 0}  # no memory names a source document
    prefs = agent.ok("list_memories", category="preference")
    assert [memory["id"] for memory in prefs["results"]] == [memories["preference"]]


# -- 3. GHAP cycles -----------------------------------------------------------------------------


def test_three_ghap_cycles(agent: Agent, cycles: list[dict[str, Any]]) -> None:
    for cycle, answers in zip(CYCLES, cycles):
        started, resolved = answers["started"], answers["resolved"]
        assert started["id"].startswith("ghap_") and started.get("warning") is None
        assert answers["updated"] == {"success": True, "iteration_count": cycle["iterations"]}
        assert (answers["active"]["has_active"], answers["active"]["id"]) == (True, started["id"])
        assert (resolved["id"], resolved["status"]) == (started["id"], cycle["resolve"]["status"])
    assert [answers["resolved"]["confidence_tier"] for answers in cycles] == ["silver", "silver", "gold"]
    assert agent.ok("get_active_ghap")["has_active"] is False

    falsified_id = cycles[1]["started"]["id"]
    listed = agent.ok("list_ghap_entries", outcome="falsified")
    assert falsified_id in {entry["id"] for entry in listed["results"]}
    hits = agent.ok("search_experiences", query="naive datetime fixture shifted across DST", axis="root_cause")
    assert hits["results"][0]["ghap_id"] == falsified_id
    assert hits["results"][0]["lesson"] == FALSIFIED_LESSON and hits["results"][0]["root_cause"] == FALSIFIED_ROOT_CAUSE


# -- 4. learning: import, cluster, value --------------------------------------------------------


def test_import_cluster_and_store_a_value(agent: Agent, learned: dict[str, Any]) -> None:
    imported = learned["imported"]
    assert (imported["imported"], imported["skipped_duplicates"], imported["errors"]) == (len(THEMES), 0, [])
    run = learned["run"]
    assert run["axis"] == "full" and run["count"] == len(run["clusters"]) >= 5
    # Cold storage: the corpus's 34 abandoned entries are left out of the clustering, and counted.
    assert (run["experience_count"], run["cold_count"]) == (len(THEMES) + len(CYCLES) - 34, 34)
    assert learned["theme_count"] >= 10  # the theme came out as a cluster
    members = learned["members"][learned["cluster_id"]]["results"]
    assert members and all(m["score"] >= n["score"] for m, n in itertools.pairwise(members))  # most central first
    assert learned["checks"][-1]["valid"] is True
    value = learned["value"]
    assert value["id"].startswith("value_") and value["cluster_id"] == learned["cluster_id"]
    assert value["cluster_size"] == len(members)

    # An unrelated statement is refused, and nothing is stored for it.
    unrelated = WRITTEN["unrelated"][0]
    assert agent.ok("validate_value", text=unrelated, cluster_id=learned["cluster_id"])["valid"] is False
    refused, is_error = agent.call("store_value", text=unrelated, cluster_id=learned["cluster_id"], axis="full")
    assert is_error and refused["error"]["type"] == "validation_error"
    assert [v["id"] for v in agent.ok("list_values")["results"]] == [value["id"]]
    assert agent.ok("search_values", query="datetimes break around daylight saving", limit=1)["results"][0]["id"] \
        == value["id"]


# -- 5. context and premortem --------------------------------------------------------------------


def test_light_context_holds_the_decision(agent: Agent, memories: dict[str, str], learned: dict[str, Any]) -> None:
    light = agent.ok("get_context")
    assert light["depth"] == "light" and light["situation"] is None
    assert 0 < light["tokens"] <= light["max_tokens"] == 2000
    ids = {item["id"] for item in light["items"]}
    assert memories["decision"] in ids
    assert memories["decision"] in light["markdown"] and "timezone-aware UTC datetime" in light["markdown"]
    assert learned["value"]["id"] in ids  # the largest clusters' values come at session start
    # A tighter budget keeps to it, and says how much it left out.
    small = agent.ok("get_context", max_tokens=300)
    assert small["tokens"] <= 300 and small["omitted"] > 0


def test_rich_context_brings_back_the_lesson_and_the_value(agent: Agent, cycles: list[dict[str, Any]],
                                                           learned: dict[str, Any]) -> None:
    rich = agent.ok("get_context", situation=SITUATION, depth="rich", project="billing")
    assert rich["depth"] == "rich" and rich["situation"] == SITUATION and rich["tokens"] <= rich["max_tokens"]
    ids = {item["id"] for item in rich["items"]}
    markdown = rich["markdown"]
    falsified_id = cycles[1]["started"]["id"]
    assert learned["value"]["id"] in ids and learned["value"]["text"][:60] in markdown
    assert any(falsified_id in item_id for item_id in ids), sorted(ids)
    assert FALSIFIED_LESSON["what_worked"][:40] in markdown or FALSIFIED_LESSON["takeaway"][:40] in markdown
    kinds = {item["kind"] for item in rich["items"]}
    assert {"experience", "value"} <= kinds

    missing, is_error = agent.call("get_context", depth="rich")
    assert is_error and missing["error"]["type"] == "validation_error" and "situation" in missing["error"]["message"]


def test_premortem_counts_and_failures(agent: Agent, cycles: list[dict[str, Any]], learned: dict[str, Any]) -> None:
    # What the file holds for testing + systematic-elimination: the corpus's resolved entries, and one of ours.
    expected = Counter()
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if (entry["domain"], entry["strategy"]) == ("testing", "systematic-elimination") and entry.get("outcome"):
            expected[entry["outcome"]["status"]] += 1
    expected["falsified"] += 1  # the second cycle

    premortem = agent.ok("get_premortem", domain="testing", strategy="systematic-elimination", situation=SITUATION)
    assert (premortem["domain"], premortem["strategy"], premortem["situation"]) == (
        "testing", "systematic-elimination", SITUATION)
    assert (premortem["confirmed"], premortem["falsified"], premortem["abandoned"]) == (
        expected["confirmed"], expected["falsified"], expected["abandoned"])
    assert premortem["total"] == sum(expected.values())
    falsified_id = cycles[1]["started"]["id"]
    assert premortem["failures"][0]["ghap_id"] == falsified_id  # the failure most like the situation
    assert premortem["failures"][0]["lesson"] == FALSIFIED_LESSON
    assert any(cause["text"].startswith("wrong-assumption") for cause in premortem["root_causes"])
    assert learned["value"]["id"] in {value["id"] for value in premortem["values"]}
    assert f"{premortem['total']} earlier attempts" in premortem["markdown"] and falsified_id in premortem["markdown"]

    bad, is_error = agent.call("get_premortem", domain="gardening", strategy="systematic-elimination")
    assert is_error and bad["error"]["type"] == "validation_error" and "gardening" in bad["error"]["message"]
