"""The learnmem MCP server: each tool is exactly one library call.

The adapter owns no logic. A tool runs its library method in a worker thread
(the library is synchronous: DuckDB and the embedder block), serialises the
frozen dataclasses it returns with `dataclasses.asdict`, and turns a raised
error into an error object the agent can read and act on:

    {"error": {"type": "validation_error", "message": "category 'x' is not one of ..."}}

It never opens the database itself (no `duckdb` import here) and never reads
`sql/`: the library owns the file and opens it only for the length of a call,
so the DuckDB CLI or a notebook can read the file while this server runs.
"""

import argparse
import dataclasses
import functools
import json
import sys
import threading
from collections.abc import Callable
from typing import Annotated, Any

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

import learnmem
from learnmem import ghap
from learnmem.errors import LearnmemError

SERVER_NAME = "learnmem"

INSTRUCTIONS = (
    "Long-term memory for this project, kept in one local DuckDB file. "
    "Store facts, decisions, preferences and corrections worth remembering with "
    "store_memory; look them up by meaning with retrieve_memories before you act. "
    "Ask the code index (search_code, find_callers) and the git history (search_commits, get_file_history, "
    "get_blame, get_unit_history: why is this code like this?) before changing code. "
    "Track each non-trivial attempt as a GHAP entry (start_ghap: goal, hypothesis, action, prediction; "
    "update_ghap as your belief changes; resolve_ghap when the outcome is known) and look up what "
    "earlier attempts taught with search_experiences. "
    "Every tool returns a JSON object; on failure it is "
    '{"error": {"type": ..., "message": ...}} and the message says how to fix the call.'
)

# Hints describe what each tool does to the memory file; none reaches outside it.
_READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
# Storing the same content again reports `duplicate: true` and adds nothing.
_ADDITIVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
# Deleting an id twice removes nothing more the second time (it answers not_found).
_DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)
# GHAP transitions: each call moves the entry on (a repeated start or note adds again); nothing is deleted.
_TRANSITION = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)


def _to_jsonable(result: Any) -> dict[str, Any]:
    """Serialise a library result: a dataclass, or a list of them as {"results", "count"}."""
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


async def _call(method: Callable[..., Any], *args: Any, **kwargs: Any) -> CallToolResult:
    """Run one library call in a worker thread and serialise its outcome.

    Running in a thread keeps the event loop answering (pings, cancellations)
    while DuckDB or the embedder works.
    """
    try:
        result = await anyio.to_thread.run_sync(functools.partial(method, *args, **kwargs))
    except LearnmemError as exc:
        return _error_result(exc.kind, str(exc))
    except Exception as exc:  # noqa: BLE001 - the agent must get an answer, not a dropped call
        return _error_result("internal_error", f"{type(exc).__name__}: {exc}")
    return _tool_result(_to_jsonable(result))


def build_server(lm: Any) -> MCPServer:
    """Build an MCP server whose tools call the given opened learnmem library (`learnmem.open(...)`)."""
    server = MCPServer(name=SERVER_NAME, instructions=INSTRUCTIONS, version=_library_version())
    categories = ", ".join(learnmem.MEMORY_CATEGORIES)

    @server.tool(
        annotations=_ADDITIVE,
        description=(
            "Store one memory (a fact, decision, preference, correction...) so that later "
            f"sessions can retrieve it. category is one of: {categories}. "
            "Returns {id, duplicate, created_at, message}; duplicate is true when the same "
            "content was already stored (nothing new is written)."
        ),
    )
    async def store_memory(
        content: Annotated[str, Field(description="The memory itself, one self-contained statement.")],
        category: Annotated[str, Field(description=f"One of: {categories}.")],
        importance: Annotated[float, Field(description="0.0 (trivia) to 1.0 (critical).")] = 0.5,
        tags: Annotated[list[str] | None, Field(description="Optional short labels to filter by.")] = None,
    ) -> CallToolResult:
        return await _call(lm.store_memory, content, category, importance=importance, tags=tags)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "Find memories relevant to a query, by meaning and by keywords, best first. "
            "Returns {results: [{id, content, category, importance, tags, created_at, score}], count}."
        ),
    )
    async def retrieve_memories(
        query: Annotated[str, Field(description="What you want to know, in plain words.")],
        limit: Annotated[int, Field(description="Maximum number of memories to return.")] = 10,
        category: Annotated[str | None, Field(description=f"Only this category: {categories}.")] = None,
        tags: Annotated[list[str] | None, Field(description="Only memories carrying these tags.")] = None,
    ) -> CallToolResult:
        return await _call(lm.retrieve_memories, query, limit=limit, category=category, tags=tags)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "List stored memories, newest first, optionally filtered by category or tags; "
            "page with limit and offset. Returns {results: [...], count}."
        ),
    )
    async def list_memories(
        category: Annotated[str | None, Field(description=f"Only this category: {categories}.")] = None,
        tags: Annotated[list[str] | None, Field(description="Only memories carrying these tags.")] = None,
        limit: Annotated[int, Field(description="Page size.")] = 50,
        offset: Annotated[int, Field(description="Number of memories to skip.")] = 0,
    ) -> CallToolResult:
        return await _call(lm.list_memories, category=category, tags=tags, limit=limit, offset=offset)

    @server.tool(annotations=_READ_ONLY, description="Get one memory by its id.")
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
    ) -> CallToolResult:
        return await _call(lm.index_commits, repo_path, since=since, project=project, all_branches=all_branches,
                           progress=False)

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
        domain: Annotated[str, Field(description=f"One of: {domains}.")],
        strategy: Annotated[str, Field(description=f"One of: {strategies}.")],
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
        strategy: Annotated[str | None, Field(description=f"A new strategy: {strategies}.")] = None,
        note: Annotated[str | None, Field(description="A note to append.")] = None,
    ) -> CallToolResult:
        return await _call(lm.update_ghap, hypothesis=hypothesis, action=action, prediction=prediction,
                           strategy=strategy, note=note)

    @server.tool(
        annotations=_TRANSITION,
        description=(
            f"Resolve the active GHAP entry when the outcome is known. status: {statuses}. falsified needs surprise "
            "and root_cause {category, description}; lesson {what_worked, takeaway} is optional; texts at most "
            "2,000 characters. auto_captured: the outcome came from a test or build run (gold tier; else silver, or "
            "bronze when the hypothesis or result says too little). The entry becomes a searchable experience. "
            "Returns {id, status, confidence_tier, resolved_at}."
        ),
    )
    async def resolve_ghap(
        status: Annotated[str, Field(description=f"One of: {statuses}.")],
        result: Annotated[str, Field(description="What actually happened.")],
        surprise: Annotated[str | None, Field(description="What was unexpected (required when falsified).")] = None,
        root_cause: Annotated[dict[str, Any] | None, Field(
            description=f"Why the hypothesis was wrong (required when falsified): {{category, description}}; "
                        f"category one of: {causes}.",
            json_schema_extra={"properties": {"category": {"type": "string"}, "description": {"type": "string"}}},
        )] = None,
        lesson: Annotated[dict[str, Any] | None, Field(
            description="What you learned: {what_worked, takeaway?}.",
            json_schema_extra={"properties": {"what_worked": {"type": "string"}, "takeaway": {"type": "string"}}},
        )] = None,
        auto_captured: Annotated[bool, Field(description="The outcome was captured from a test/build run.")] = False,
    ) -> CallToolResult:
        return await _call(lm.resolve_ghap, status, result, surprise=surprise, root_cause=root_cause, lesson=lesson,
                           auto_captured=auto_captured)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "The active GHAP entry: {has_active, id, domain, strategy, goal, hypothesis, action, prediction, "
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
        domain: Annotated[str | None, Field(description=f"Only this domain: {domains}.")] = None,
        outcome: Annotated[str | None, Field(description=f"Only this outcome: {statuses} or active.")] = None,
        since: Annotated[str | None, Field(description="Only entries created on or after this ISO date.")] = None,
    ) -> CallToolResult:
        return await _call(lm.list_ghap_entries, limit=limit, domain=domain, outcome=outcome, since=since)

    @server.tool(
        annotations=_READ_ONLY,
        description=(
            "What did earlier attempts teach? Resolved GHAP entries whose text on one axis matches a query (by "
            "meaning and keywords), best first. axis: full (the whole story), strategy, surprise or root_cause (the "
            "last two: falsified entries only). Returns {results: [{id, ghap_id, axis, domain, strategy, goal, "
            "hypothesis, action, prediction, outcome_status, outcome_result, surprise, root_cause, lesson, "
            "confidence_tier, created_at, score}], count}."
        ),
    )
    async def search_experiences(
        query: Annotated[str, Field(description="The situation or question, in plain words.")],
        axis: Annotated[str, Field(description="full, strategy, surprise or root_cause.")] = "full",
        domain: Annotated[str | None, Field(description=f"Only this domain: {domains}.")] = None,
        outcome: Annotated[str | None, Field(description=f"Only this outcome: {statuses}.")] = None,
        limit: Annotated[int, Field(description="Maximum number of experiences (1-50).")] = 10,
    ) -> CallToolResult:
        return await _call(lm.search_experiences, query, axis=axis, domain=domain, outcome=outcome, limit=limit)

    # -- learning: clusters and values --------------------------------------------------

    axes = "full, strategy, surprise or root_cause"

    @server.tool(
        annotations=_ADDITIVE,
        description=(
            "Cluster the experiences (resolved GHAP entries) of one axis now and store the run: the recurring "
            f"themes of past work. axis: {axes}. Returns {{axis, run_id, clusters: [{{cluster_id, label, size, "
            "avg_weight}], count, noise_count, experience_count, created_at, dissolved_values}, largest first. "
            "Cluster ids (e.g. surprise-3) carry over to the next run when most members do. Fewer than 20 "
            "experiences on the axis, or none forming a cluster: insufficient_data."
        ),
    )
    async def get_clusters(
        axis: Annotated[str, Field(description=f"The axis: {axes}.")],
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
        axis: Annotated[str, Field(description=f"The cluster's axis: {axes}.")],
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
        axis: Annotated[str | None, Field(description=f"Only values of this axis: {axes}.")] = None,
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
        axis: Annotated[str | None, Field(description=f"Only values of this axis: {axes}.")] = None,
        limit: Annotated[int, Field(description="Maximum number of values (1-50).")] = 5,
    ) -> CallToolResult:
        return await _call(lm.search_values, query, axis=axis, limit=limit)

    return server


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
    args = parser.parse_args(argv)
    try:
        lm = learnmem.open(args.db)
    except Exception as exc:  # noqa: BLE001 - one readable line beats a traceback in a client's log
        # stdout belongs to the protocol: report on stderr, where MCP clients log it.
        print(f"learnmem-mcp: error: {exc}", file=sys.stderr)
        raise SystemExit(2 if isinstance(exc, LearnmemError) else 1) from None
    # Load the model while the client is still handshaking: the first tool call then answers at full speed.
    threading.Thread(target=_warm_up, args=(lm,), name="learnmem-warm-up", daemon=True).start()
    build_server(lm).run("stdio")


if __name__ == "__main__":
    main()
