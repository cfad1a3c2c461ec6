"""Memory tools: store, retrieve, list, supersede, forget, compact and review memories."""

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

import learnmem
from mcp_adapter.results import call
from mcp_adapter.schema import (
    ADDITIVE,
    CLOSE,
    DESTRUCTIVE,
    READ_ONLY,
    TRANSITION,
    MemoryCategory,
    MemoryItem,
    PhaseParam,
    SessionParam,
    SinceParam,
    SpecParam,
    UntilParam,
)


def register(server: MCPServer, lm: Any) -> None:
    """Register the memory tools of `lm` (an opened `learnmem.Learnmem`) on `server`."""
    categories = ", ".join(learnmem.MEMORY_CATEGORIES)

    @server.tool(
        annotations=ADDITIVE,
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
        return await call(lm.store_memory, content, category, importance=importance, tags=tags, supersedes=supersedes,
                          allow_secrets=allow_secrets, sources=sources, force=force, spec=spec, phase=phase)

    @server.tool(
        annotations=ADDITIVE,
        description=(
            "Store many memories in one call (embedded in one batch): items are {content, category, importance?, "
            f"tags?, sources?, spec?, phase?}} with category one of: {categories}. Returns {{results: [{{id, duplicate, created_at, "
            "message}], count}, one per item in order; a content already stored comes back with duplicate true. "
            "If any content looks like a credential, nothing is stored unless allow_secrets is true."
        ),
    )
    async def store_memories(
        items: Annotated[list[MemoryItem], Field(
            description="The memories: {content, category, importance?, tags?, sources?, spec?, phase?}; a turn "
                        "of a conversation also {session, speaker, said_at (ISO datetime)}.")],
        allow_secrets: Annotated[bool, Field(
            description="Store them even if some look like credentials; only when that is intended.")] = False,
        force: Annotated[bool, Field(
            description="Store them even if some restate current memories.")] = False,
    ) -> CallToolResult:
        return await call(lm.store_memories, items, allow_secrets=allow_secrets, force=force)

    @server.tool(
        annotations=READ_ONLY,
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
        until: UntilParam = None,
        session: SessionParam = None,
    ) -> CallToolResult:
        return await call(lm.retrieve_memories, query, limit=limit, category=category, tags=tags,
                          include_superseded=include_superseded, recency_half_life_days=recency_half_life_days,
                          importance_weight=importance_weight, detail=detail, spec=spec, phase=phase, since=since,
                          until=until, session=session)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "List stored memories, newest first, optionally filtered by category, tags, spec, phase, session, "
            "since or until; "
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
        until: UntilParam = None,
        session: SessionParam = None,
    ) -> CallToolResult:
        return await call(lm.list_memories, category=category, tags=tags, limit=limit, offset=offset,
                          include_superseded=include_superseded, spec=spec, phase=phase, since=since, until=until,
                          session=session)

    @server.tool(
        annotations=READ_ONLY,
        description="Get one memory by its id. Returns {id, content, category, importance, tags, created_at, "
                    "superseded_by}; an unknown or forgotten id gives a not_found error.",
    )
    async def get_memory(
        id: Annotated[str, Field(description="The memory id, as returned by store or retrieve.")],  # noqa: A002
    ) -> CallToolResult:
        return await call(lm.get_memory, id)

    @server.tool(
        annotations=DESTRUCTIVE,
        description="Delete one memory by its id. Returns {id, deleted}; an unknown id gives a not_found error.",
    )
    async def delete_memory(
        id: Annotated[str, Field(description="The memory id to delete.")],  # noqa: A002
    ) -> CallToolResult:
        return await call(lm.delete_memory, id)

    @server.tool(
        annotations=TRANSITION,
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
        return await call(lm.supersede_memory, old_id, new_content, allow_secrets=allow_secrets)

    @server.tool(
        annotations=DESTRUCTIVE,
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
        return await call(lm.forget, id, category=category, tags=tags, everything=everything, hard=hard)

    @server.tool(
        annotations=CLOSE,
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
        return await call(lm.compact_memories, category=category, dry_run=dry_run)

    @server.tool(
        annotations=ADDITIVE,
        description="Record that you used a memory (so it does not show up as stale). Returns the memory.",
    )
    async def touch_memory(
        id: Annotated[str, Field(description="The memory id.")],  # noqa: A002
    ) -> CallToolResult:
        return await call(lm.touch_memory, id)

    @server.tool(
        annotations=ADDITIVE,
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
        return await call(lm.list_stale_memories, days=days, limit=limit)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "The documents that current corrections and discoveries (learning, research memories stored with "
            "sources) name most often: where the documentation misled or left something out, to fix first. "
            "Returns {results: [{document, corrections, discoveries, anchors, memory_ids, latest}], count}."
        ),
    )
    async def docs_gaps(
        limit: Annotated[int, Field(description="Maximum number of documents (1-100).")] = 20,
    ) -> CallToolResult:
        return await call(lm.docs_gaps, limit=limit)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "The learnings and blockers the hooks captured from tool output (an error then fixed, 'turns out', "
            "'workaround', a deprecation naming its replacement), waiting for the Stop hook to store the new "
            "ones. Returns {results: [{id, session_id, captured_at, tool, category, content}], count}."
        ),
    )
    async def list_queued_memories(
        limit: Annotated[int, Field(description="Maximum number of queued captures (1-500).")] = 100,
    ) -> CallToolResult:
        return await call(lm.list_queued_memories, limit=limit)

    @server.tool(
        annotations=ADDITIVE,
        description=(
            "Store the queued captures now (the Stop hook does it when you finish a turn): those repeating a "
            "current memory are dropped, the rest stored tagged auto-captured, and the queue emptied. Returns "
            "{queued, stored: [ids], known, dropped, message}."
        ),
    )
    async def flush_queued_memories() -> CallToolResult:
        return await call(lm.flush_queued_memories)

    @server.tool(
        annotations=CLOSE,
        description="Bring back a memory that forget hid (not one forgotten with hard). Returns the memory.",
    )
    async def restore_memory(
        id: Annotated[str, Field(description="The forgotten memory's id.")],  # noqa: A002
    ) -> CallToolResult:
        return await call(lm.restore_memory, id)
