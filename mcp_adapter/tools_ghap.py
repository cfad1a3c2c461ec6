"""GHAP tools: track an attempt (goal, hypothesis, action, prediction), resolve it, search what attempts taught."""

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from learnmem import vocabulary
from mcp_adapter.results import call
from mcp_adapter.schema import (
    CLOSE,
    READ_ONLY,
    TRANSITION,
    Axis,
    Domain,
    EntryState,
    Lesson,
    RootCause,
    Status,
    Strategy,
)


def register(server: MCPServer, lm: Any) -> None:
    """Register the GHAP tools of `lm` (an opened `learnmem.Learnmem`) on `server`."""
    domains = ", ".join(vocabulary.DOMAINS)
    strategies = ", ".join(vocabulary.STRATEGIES)
    causes = ", ".join(vocabulary.ROOT_CAUSE_CATEGORIES)
    statuses = ", ".join(vocabulary.STATUSES)

    @server.tool(
        annotations=TRANSITION,
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
        return await call(lm.start_ghap, domain, strategy, goal, hypothesis, action, prediction)

    @server.tool(
        annotations=TRANSITION,
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
        return await call(lm.update_ghap, hypothesis=hypothesis, action=action, prediction=prediction,
                          strategy=strategy, note=note)

    @server.tool(
        annotations=CLOSE,
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
        return await call(lm.resolve_ghap, status, result, surprise=surprise, root_cause=root_cause, lesson=lesson,
                          auto_captured=auto_captured)

    @server.tool(
        annotations=CLOSE,
        description=(
            "Give up on the active GHAP entry: it is resolved as abandoned with your reason as its result (abandoned "
            "tier). Returns {id, status, confidence_tier, resolved_at}; no active entry gives a not_found error."
        ),
    )
    async def abandon_ghap(
        reason: Annotated[str, Field(description="Why you stop, e.g. 'the user changed the requirement'.")],
    ) -> CallToolResult:
        return await call(lm.abandon_ghap, reason)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "The active GHAP entry. Returns {has_active, id, domain, strategy, goal, hypothesis, action, prediction, "
            "iteration_count, created_at, session_id}; has_active false and nulls when there is none."
        ),
    )
    async def get_active_ghap() -> CallToolResult:
        return await call(lm.get_active_ghap)

    @server.tool(
        annotations=READ_ONLY,
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
        return await call(lm.list_ghap_entries, limit=limit, domain=domain, outcome=outcome, since=since)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "The entry an earlier session left active (an orphan), if any: adopt it with adopt_orphan to go on, or "
            "close it with abandon_orphan. Returns {has_active, id, domain, strategy, goal, hypothesis, action, "
            "prediction, iteration_count, created_at, session_id}; has_active false and nulls when there is none."
        ),
    )
    async def get_orphaned_entry() -> CallToolResult:
        return await call(lm.get_orphaned_entry)

    @server.tool(
        annotations=CLOSE,
        description=(
            "Take the orphaned entry into the current session and keep working on it (everything else is kept). "
            "Returns the now active entry {has_active, id, ..., session_id}; no orphan gives a not_found error."
        ),
    )
    async def adopt_orphan() -> CallToolResult:
        return await call(lm.adopt_orphan)

    @server.tool(
        annotations=CLOSE,
        description=(
            "Close the orphaned entry as abandoned, with your reason as its result. Returns {id, status, "
            "confidence_tier, resolved_at}; no orphan gives a not_found error."
        ),
    )
    async def abandon_orphan(
        reason: Annotated[str, Field(description="Why it is not continued.")],
    ) -> CallToolResult:
        return await call(lm.abandon_orphan, reason)

    @server.tool(
        annotations=READ_ONLY,
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
        return await call(lm.search_experiences, query, axis=axis, domain=domain, outcome=outcome, limit=limit,
                          include_cold=include_cold)
