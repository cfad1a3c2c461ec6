"""The frozen dataclasses learnmem returns.

They are plain values: adapters serialise them with `dataclasses.asdict`.
Times are ISO 8601 strings in UTC ending in `Z`.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Memory:
    """A stored memory: one fact, decision, preference, correction... `superseded_by` names the memory
    that replaced it (such memories are hidden from retrieval unless asked for); `commit_sha` is the HEAD
    of the project's repository when it was stored (None outside one); `sources` the documents it was
    drawn from; `spec` the spec or project slug it belongs to and `phase` the phase of that work it was made
    in (planning, implementation, review, close-out), both None when not given. A turn of a conversation
    (category conversation, from a transcript) has the `session` it was said in, its `speaker` and `said_at`,
    the time it was said; None for other memories."""

    id: str
    content: str
    category: str
    importance: float
    tags: tuple[str, ...]
    created_at: str
    superseded_by: str | None = field(default=None, kw_only=True)
    commit_sha: str | None = field(default=None, kw_only=True)
    sources: tuple[str, ...] = field(default=(), kw_only=True)
    spec: str | None = field(default=None, kw_only=True)
    phase: str | None = field(default=None, kw_only=True)
    session: str | None = field(default=None, kw_only=True)
    speaker: str | None = field(default=None, kw_only=True)
    said_at: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class MemoryHit(Memory):
    """A memory returned by retrieval, with its fused relevance score (higher is better)."""

    score: float


@dataclass(frozen=True)
class CommitFile:
    """A file as it was at a memory's commit (retrieve_memories(detail="files")): `content` cut to a size
    cap (`truncated` says so), None for a binary file; `size` is the whole file's, in bytes."""

    path: str
    size: int
    content: str | None
    truncated: bool


@dataclass(frozen=True)
class MemoryWithFiles(MemoryHit):
    """A retrieved memory with the files of its commit at that commit (learnmem.memory.files)."""

    files: tuple[CommitFile, ...]


@dataclass(frozen=True)
class MemorySummary:
    """A retrieved memory at detail="index": its id, category, score and a one-line summary (the first line
    of its content, cut to SUMMARY_CHARS); get_memory gives the whole of it."""

    id: str
    category: str
    summary: str
    score: float


@dataclass(frozen=True)
class DocGap:
    """A document that current corrections and discoveries (learning, research memories) name as a source
    (docs_gaps): how many of each, the anchors named (`README.md#install`), the memories, the newest time."""

    document: str
    corrections: int
    discoveries: int
    anchors: tuple[str, ...]
    memory_ids: tuple[str, ...]
    latest: str


@dataclass(frozen=True)
class StaleMemory(Memory):
    """A memory nobody used for a while (list_stale_memories): how often it was ever used, and when last
    (None: never since it was stored)."""

    accesses: int
    last_accessed_at: str | None


@dataclass(frozen=True)
class SimilarMemory:
    """A current memory of the same category close in meaning to one just stored: a likely duplicate, or
    one the new memory updates (the model cannot tell which; bench/dedupe)."""

    id: str
    content: str
    similarity: float


@dataclass(frozen=True)
class StoreResult:
    """What `store_memory` did: the id, whether the content was already stored (`duplicate`: the same text,
    or with `near_duplicate` a restatement of the memory `id`), the memory
    it superseded (store_memory(supersedes=...), supersede_memory), and the similar memories to look at
    (`similar`: candidates for superseding or forgetting; nothing is decided for the caller)."""

    id: str
    duplicate: bool
    created_at: str
    message: str
    superseded: str | None = None
    similar: tuple[SimilarMemory, ...] = ()
    near_duplicate: bool = False  # not stored: it restates the memory `id` (learnmem.memory.dedupe)


@dataclass(frozen=True)
class DeleteResult:
    """What `delete_memory` did."""

    id: str
    deleted: bool


@dataclass(frozen=True)
class Info:
    """Where the file is and what is in it (`learnmem info`)."""

    path: str
    file_bytes: int
    wal_bytes: int
    schema_version: int
    library_version: str
    embedding_model: str
    embedding_dim: int
    counts: dict[str, int]
    # Experiences in cold storage per cold tier (kept, left out of clustering and default search); {} if none is.
    cold_experiences: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class ForgetResult:
    """forget: the memories it applied to, oldest first; `hard` when they were deleted and the file
    rewritten without them, else they are hidden until restore_memory."""

    ids: tuple[str, ...]
    count: int
    hard: bool



@dataclass(frozen=True)
class QueuedMemory:
    """A memory captured from tool output (learnmem.agents.capture.tool_output), waiting in the queue until the Stop or SessionEnd
    hook flushes it: the tool it came from, its category (learning or blocker) and text."""

    id: str
    session_id: str | None
    captured_at: str
    tool: str
    category: str
    content: str


@dataclass(frozen=True)
class FlushResult:
    """flush_queued_memories: how many queued candidates there were, the ids of the memories stored from them,
    how many repeated what was known (a current memory, or another candidate), and how many were dropped
    because they looked like credentials."""

    queued: int
    stored: tuple[str, ...]
    known: int
    dropped: int
    message: str
