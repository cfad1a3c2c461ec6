"""`Learnmem`: the facade every door (Python, CLI, MCP, notebooks) goes through.

Each method validates nothing and decides nothing itself: it hands its arguments to the area module that owns
them (memories, ...), with the store and the embedder. Read an area module to learn how a call works.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

import duckdb

from learnmem import validate
from learnmem.agents.capture import queue as capture_queue
from learnmem.code import bookkeeping, graph, indexer, search as code_search
from learnmem.code.bookkeeping import IndexStats, RemoveFileResult
from learnmem.code.graph import CallEdge
from learnmem.code.search import CodeHit
from learnmem.context import assembly as context
from learnmem.context.records import Context, Premortem
from learnmem.embedding import embed
from learnmem.embedding.embed import DEFAULT_MODEL, Embedder, load_embedder
from learnmem.exchange import portable
from learnmem.exchange.portable import DataImportResult, ExportResult
from learnmem.exchange.records import NotesExportResult, NotesImportResult, SyncResult
from learnmem.git import commit_search, reports, repository
from learnmem.git.records import (BlameEntry, CodeAuthor, CommitHit, CommitIndexResult, FileHistoryEntry, Hotspot,
                                  UnitChange)
from learnmem.api.ghap import GhapMethods
from learnmem.learning import clusters, experiences, terms, values
from learnmem.learning.ghap_records import Experience
from learnmem.learning.records import ClusterRun, Value, ValueCheck
from learnmem.memory import compaction, files as memory_files, memories, pending, usage as memory_usage
from learnmem.memory.index import MemoryIndex
from learnmem.memory.records import (DeleteResult, DocGap, FlushResult, ForgetResult, Info, Memory, MemoryHit,
                                     MemorySummary, MemoryWithFiles, QueuedMemory, StaleMemory, StoreResult)
from learnmem.progress import ProgressCallback
from learnmem.storage import backup
from learnmem.storage.lake_store import open_store
from learnmem.storage.paths import database_path, ignore_learnmem_folder, project_root


class Learnmem(GhapMethods):
    """One learnmem file, or one project of a lake. Create it with `learnmem.open()`. Its GHAP methods are
    written in learnmem.api.ghap."""

    def __init__(self, path: str | os.PathLike | None = None, *, read_only: bool = False,
                 embedder: Embedder | None = None, cold_tier: str | None = None,
                 data_path: str | os.PathLike | None = None, project: str | None = None, agent: str | None = None):
        self.cold_tier = terms.cold_tier_setting(cold_tier)  # None: $LEARNMEM_COLD_TIER at each use, else bronze
        self._embedder = embedder
        self._model_checked = False
        self._embedder_lock = threading.Lock()
        model_name = embedder.name if embedder is not None else DEFAULT_MODEL
        dim = embedder.dim if embedder is not None else memories.EMBEDDING_DIM
        self.store = open_store(path, read_only, model_name, dim, data_path, project, agent)
        self._memory_index = MemoryIndex(self.store, dim)
        # A file's single stores wait in its journal until this folds them (learnmem.memory.pending).
        self._folder = pending.Folder(self.store) if self.store.pending is not None and not read_only else None
        if self.store.pending is not None:
            self.store.on_folded(self._memories_folded)
        self._accesses = memory_usage.AccessLog(self.store)
        self._code_index = code_search.CodeIndex(self.store, dim)
        self._commit_index = commit_search.CommitIndex(self.store, dim)
        self._experience_index = experiences.ExperienceIndex(self.store, dim)
        self._value_forms = values.ValueFormCache()
        self._value_index = values.ValueIndex(self.store)

    def __repr__(self) -> str:
        mode = "read-only" if self.store.read_only else "read-write"
        return f"<Learnmem {self.store.name()} ({mode})>"

    def __enter__(self) -> Learnmem:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def path(self) -> Path:
        """The DuckDB file (a lake: `<git top level>/.learnmem/lake-<project>`, where no file is)."""
        return self.store.path

    @property
    def embedder(self) -> Embedder:
        """The embedding model, loaded on first use (it costs ~0.5 s); it must be the file's model."""
        with self._embedder_lock:  # the MCP server calls from worker threads
            return self._checked_embedder()

    def _checked_embedder(self) -> Embedder:
        if not self._model_checked:
            embedder = self._embedder if self._embedder is not None else load_embedder()
            self.store.check_model(embedder.name, embedder.dim)
            self._embedder, self._model_checked = embedder, True
        return self._embedder

    def warm_up(self) -> None:
        """Load the model and the memory and experience snapshots now: the first query or served hook is fast."""
        self.embedder.embed(["warm up"])
        self._memory_index.snapshot()
        self._experience_index.snapshot()

    def close(self) -> None:
        """Fold the memories waiting in the file's journal into it, write the memory accesses counted so far and
        drop cached state. No connection is held between calls, so this is optional: the process's exit folds
        the journal too, and a killed process's journal waits for the next open (unwritten counts are lost with
        the process; see learnmem.memory.usage)."""
        self.store.settle(patient=False)  # a file another process holds: the rows wait in the journal
        self._accesses.flush()
        self._memory_index = MemoryIndex(self.store, self._memory_index.dim)
        self._code_index = code_search.CodeIndex(self.store, self._memory_index.dim)

    def _memories_folded(self, seqs: dict[str, int], stats: tuple, signature: tuple) -> None:
        self._memory_index.folded(seqs, stats, signature)

    # -- memories ----------------------------------------------------------

    def store_memory(
        self, content: str, category: str, importance: float = 0.5, tags: Sequence[str] | None = None,
        supersedes: str | None = None, allow_secrets: bool = False, sources: Sequence[str] | None = None,
        force: bool = False, spec: str | None = None, phase: str | None = None,
    ) -> StoreResult:
        """Store one memory (category: one of MEMORY_CATEGORIES; importance in [0, 1]).

        It records the commit it is made at (HEAD of the project's repository, if any) and `sources`, the
        documents it came from ("README.md#install", "lib/auth.py"; `docs_gaps` counts them); `spec`, the
        slug of the spec or project it belongs to, and `phase`, one of items.PHASES (planning,
        implementation, review, close-out).

        An exact duplicate of a stored text is not stored again: its id comes back with duplicate=True. Nor is
        a restatement of a current memory of the category (similar in meaning, with the same numbers, names
        and identifiers and no word of change: learnmem.memory.dedupe): that memory's id comes back with
        duplicate=True and near_duplicate=True; `force` stores it anyway.
        `supersedes`: the id of a memory this one replaces; it is kept with `superseded_by` set and hidden
        from retrieval (include_superseded=True shows it).
        A content that looks like a credential (API key, token, private key, password assignment) is refused
        with a ValidationError naming the pattern, unless `allow_secrets`.
        A new memory close in meaning to current ones of its category comes back with them in `similar`
        (likely duplicates, or memories it updates: supersede or forget one; nothing is decided here).
        """
        item = {"content": content, "category": category, "importance": importance, "tags": tags,
                "sources": sources, "spec": spec, "phase": phase}
        return pending.store_memory(self.store, self.embedder, self._memory_index, item, supersedes,
                                    allow_secrets, repository.project_head(self.store.path), force, self._folder)

    def supersede_memory(self, old_id: str, new_content: str, allow_secrets: bool = False) -> StoreResult:
        """Replace a memory with a new text of the same category, importance, tags, sources, spec and phase;
        the old one is kept, superseded (see store_memory)."""
        old = memories.get_memory(self.store, old_id)
        return self.store_memory(new_content, old.category, old.importance, old.tags, supersedes=old.id,
                                 allow_secrets=allow_secrets, sources=old.sources, spec=old.spec, phase=old.phase)

    def store_memories(self, items: Iterable[Mapping[str, Any]], allow_secrets: bool = False,
                       force: bool = False) -> list[StoreResult]:
        """Store many memories at once (dicts with content, category, importance?, tags?, sources?, spec?,
        phase?; a turn of a conversation also session, speaker and said_at, the time it was said:
        learnmem.exchange.transcripts.turns_of reads a transcript file into such items): batched embedding,
        chunked commits; each records HEAD's commit as store_memory does. A turn's duplicate key is its text,
        session, speaker and time, and no restatement check applies to it (a conversation repeats itself).

        If any content looks like a credential, nothing is stored (unless `allow_secrets`), and restatements of
        current memories are not (unless `force`), as for store_memory.
        """
        return memories.store_memories(self.store, self.embedder, items, allow_secrets=allow_secrets,
                                       commit_sha=repository.project_head(self.store.path), index=self._memory_index, force=force)

    def retrieve_memories(
        self, query: str, limit: int = 10, category: str | None = None, tags: Sequence[str] | None = None,
        include_superseded: bool = False, recency_half_life_days: float | None = None,
        importance_weight: float = 0.0, detail: str = "full", spec: str | None = None, phase: str | None = None,
        since: str | datetime | None = None, until: str | datetime | None = None, session: str | None = None,
    ) -> list[MemoryHit] | list[MemorySummary] | list[MemoryWithFiles]:
        """The memories most relevant to `query` (hybrid semantic + keyword search), best first; superseded
        ones only with `include_superseded`, forgotten ones never. `category`, `tags`, `spec`, `phase`,
        `session` (the turns of one conversation) and the window `since`..`until` (each an ISO date/datetime
        or an age: "12h", "7d", "2w"; a turn's time is when it was said) filter exactly. `recency_half_life_days`
        (a memory that old counts half) and `importance_weight` (0-1) reorder the relevant ones; both off.

        `detail`: "index" gives each as id, category, score and a one-line summary (MemorySummary: cheap to
        read; get_memory gives one whole); "full" the whole memory (MemoryHit); "files" also the files of
        the commit it was made at, as they were there, size-capped (MemoryWithFiles; learnmem.memory.files).
        """
        detail = validate.choice("detail", detail, memories.DETAILS)
        hits = memories.retrieve_memories(self._memory_index, self.embedder, query, limit, category, tags,
                                          include_superseded, recency_half_life_days, importance_weight, spec,
                                          phase, since, until, session)
        self._accesses.record(hit.id for hit in hits)
        if detail == "index":
            return [memories.summary_of(hit) for hit in hits]
        if detail == "files":
            return memory_files.with_files(hits, self.store.path)
        return hits

    def list_memories(
        self, category: str | None = None, tags: Sequence[str] | None = None, limit: int = 50, offset: int = 0,
        include_superseded: bool = False, spec: str | None = None, phase: str | None = None,
        since: str | datetime | None = None, until: str | datetime | None = None, session: str | None = None,
    ) -> list[Memory]:
        """Memories newest first (a turn by when it was said), filtered by category, tags (all must match),
        spec, phase, session and the window since..until (as retrieve_memories); superseded ones only with
        `include_superseded`, forgotten ones never."""
        return memories.list_memories(self.store, category, tags, limit, offset, include_superseded, spec, phase,
                                      since, until, session)

    def get_memory(self, id: str) -> Memory:  # noqa: A002 - the MCP tool's parameter name
        """One memory by id."""
        memory = memories.get_memory(self.store, id)
        self._accesses.record([memory.id])
        return memory

    def touch_memory(self, id: str) -> Memory:  # noqa: A002
        """Record that a memory was used (written at once), so that list_stale_memories leaves it out."""
        memory = memories.get_memory(self.store, id)
        self._accesses.record([memory.id])
        self._accesses.flush()
        return memory

    def list_stale_memories(self, days: float = 30, limit: int = 50) -> list[StaleMemory]:
        """Current memories neither used (retrieved, read, touched) nor stored in the last `days` days, the
        longest unused first: candidates to review, supersede or forget. Counts this handle has not
        written yet are written first."""
        self._accesses.flush()
        return memory_usage.stale_memories(self.store, days, limit)

    def docs_gaps(self, limit: int = 20) -> list[DocGap]:
        """The documents that current corrections and discoveries (learning, research memories stored with
        `sources`) name most often: where to fix the documentation first."""
        return memories.docs_gaps(self.store, limit)

    def delete_memory(self, id: str) -> DeleteResult:  # noqa: A002
        """Delete one memory by id."""
        return memories.delete_memory(self.store, id)

    def forget(self, id: str | None = None, category: str | None = None,  # noqa: A002 - the MCP tool's name
               tags: Sequence[str] | None = None, everything: bool = False, hard: bool = False) -> ForgetResult:
        """Forget one memory, those of a category and/or tags, or everything: hidden and recoverable with
        restore_memory, or with `hard` deleted and scrubbed from the file (which is rewritten)."""
        return memories.forget(self.store, id, category, tags, everything, hard)

    def compact_memories(self, category: str | None = None, dry_run: bool = True) -> compaction.CompactResult:
        """Group near-duplicate current memories (cosine >= 0.75, one category, corrections never) and, unless
        `dry_run`, back the file up and supersede each group's older members by its newest."""
        return compaction.compact_memories(self.store, self._memory_index, category, dry_run)

    def restore_memory(self, id: str) -> Memory:  # noqa: A002
        """Bring back a memory that forget hid."""
        return memories.restore_memory(self.store, id)

    def list_queued_memories(self, limit: int = 100) -> list[QueuedMemory]:
        """The memories captured from tool output that wait for the Stop or SessionEnd hook (learnmem.agents.capture.tool_output),
        oldest first."""
        return capture_queue.queued(self.store, limit)

    def flush_queued_memories(self) -> FlushResult:
        """Store the queued captures that are new as memories tagged auto-captured (those repeating a current
        memory are dropped) and empty the queue; the result's message says how many were kept."""
        return capture_queue.flush(self.store, self._embedder_factory, self._memory_index,
                                   repository.project_head(self.store.path))

    def discard_queued_memories(self) -> int:
        """Drop every queued capture without storing it; returns how many."""
        return capture_queue.discard(self.store)

    def reembed(self) -> int:
        """Embed every memory and experience axis again with this handle's model (pending axes included) and
        make it the file's model; returns the number of memories.

        The way out of a model mismatch: `learnmem.open(path, embedder=new).reembed()`.
        """
        with self._embedder_lock:
            embedder = self._embedder if self._embedder is not None else load_embedder()
            count = memories.reembed_memories(self.store, embedder)
            experiences.reembed_experiences(self.store, embedder)
            self._embedder, self._model_checked = embedder, True
        return count

    # -- code ----------------------------------------------------------------

    def index_codebase(
        self, directory: str | os.PathLike = ".", project: str | None = None, recursive: bool = True,
        progress: bool | ProgressCallback = True,
    ) -> indexer.IndexResult:
        """Index (incrementally) the source files under `directory`: units, embeddings, imports, call graph; in
        batches, so an interrupted run keeps its work. `progress`: a bar, False or a callback (learnmem.progress)."""
        return indexer.index_codebase(self.store, self.embedder, directory, project, recursive, progress)

    def search_code(
        self, query: str, project: str | None = None, language: str | None = None, unit_type: str | None = None,
        limit: int = 10,
    ) -> list[CodeHit]:
        """Code units matching `query` by meaning, by identifiers and by their names' words (hybrid), best first;
        a function's overloads are one hit."""
        return code_search.search_code(self._code_index, self.embedder, query, project, language, unit_type, limit)

    def find_similar_code(self, snippet: str, project: str | None = None, limit: int = 10) -> list[CodeHit]:
        """Code units that look like `snippet`, best first; a function's overloads are one hit."""
        return code_search.find_similar_code(self._code_index, self.embedder, snippet, project, limit)

    def find_callers(self, function_name: str, project: str | None = None) -> list[CallEdge]:
        """Call sites that call `function_name` (bare `load`, `Config.load` or `app.config.Config.load`)."""
        return graph.find_callers(self.store, function_name, project)

    def find_callees(self, function_name: str, project: str | None = None) -> list[CallEdge]:
        """Calls made inside `function_name` (bare, qualified or module-qualified)."""
        return graph.find_callees(self.store, function_name, project)

    def get_indexing_stats(self, project: str | None = None) -> IndexStats:
        """What the code index holds (files, units by language and type, calls resolved, last indexed, model),
        for `project` or, when None, every project added up (`last_indexed_at` and `roots` per project)."""
        return bookkeeping.get_indexing_stats(self.store, project)

    def remove_file(self, path: str, project: str | None = None) -> RemoveFileResult:
        """Take one file (relative to the project root, or absolute inside it) out of the code index, the call
        graph resolved again, in one transaction. A file still on disk comes back on the next index_codebase."""
        return bookkeeping.remove_file(self.store, path, project)

    # -- git history ---------------------------------------------------------

    def index_commits(
        self, repo_path: str | os.PathLike = ".", since: str | datetime | None = None, project: str | None = None,
        all_branches: bool = False, embed: bool = True, progress: bool | ProgressCallback = True,
    ) -> CommitIndexResult:
        """Index (incrementally) the commits reachable from HEAD (every branch if `all_branches`), in batches: messages
        embedded, files changed with line counts and renames. `since` skips older commits (commit time)."""
        from learnmem.git import history  # dulwich costs ~90 ms to import: only for git work

        return history.index_commits(self.store, self.embedder if embed else None, repo_path, since, project,
                                     all_branches, embed, progress)

    def search_commits(
        self, query: str, author: str | None = None, since: str | datetime | None = None,
        until: str | datetime | None = None, path: str | None = None, limit: int = 10, project: str | None = None,
    ) -> list[CommitHit]:
        """Commits whose message or touched paths match `query` (hybrid), best first; the other arguments filter exactly."""
        return commit_search.search_commits(self._commit_index, self.embedder, query, author, since, until, path,
                                            limit, project)

    def get_file_history(self, path: str, limit: int = 20, project: str | None = None) -> list[FileHistoryEntry]:
        """The commits that changed `path` (relative to the repository root), newest first, following renames."""
        with self.store.reads_held():
            return reports.file_history(self.store, path, limit, project)

    def get_churn_hotspots(
        self, days: int = 90, limit: int = 10, as_of: str | datetime | None = None, project: str | None = None
    ) -> list[Hotspot]:
        """Files that changed most often (then most lines) in the `days` before `as_of` (default now)."""
        with self.store.reads_held():
            return reports.churn_hotspots(self.store, days, limit, as_of, project)

    def get_code_authors(self, path: str, project: str | None = None) -> list[CodeAuthor]:
        """Who wrote `path`: per author commits, lines added/removed, first/last change, share of today's lines."""
        from learnmem.git import lines

        with self.store.reads_held():
            return lines.get_code_authors(self.store, path, project)

    def get_blame(
        self, path: str, start_line: int | None = None, end_line: int | None = None, rev: str = "HEAD",
        project: str | None = None,
    ) -> list[BlameEntry]:
        """Line ranges of `path` at `rev` with the commit that last changed them, its author, time and summary."""
        from learnmem.git import lines

        return lines.get_blame(self.store, path, start_line, end_line, rev, project)

    def get_unit_history(self, name: str, project: str | None = None, limit: int = 20) -> list[UnitChange]:
        """The commits that changed a function/class/method's lines (as `git log -L`), newest first."""
        from learnmem.git import lines

        return lines.get_unit_history(self.store, name, project, limit)

    # -- learning --------------------------------------------------------------

    def get_clusters(self, axis: str) -> ClusterRun:
        """Cluster the experiences of `axis` (full, strategy, surprise, root_cause) now and store the run;
        clusters largest first. Fewer than 20 experiences on the axis: InsufficientDataError."""
        return clusters.get_clusters(self.store, None if self.store.read_only else self._embedder_factory, axis,
                                     self.cold_tier)

    def get_cluster_members(self, cluster_id: str, limit: int = 50) -> list[Experience]:
        """The experiences of a cluster (e.g. 'surprise-3') of its axis's latest run, most central first."""
        return clusters.get_cluster_members(self._experience_index, self.store, cluster_id, limit)

    def validate_value(self, text: str, cluster_id: str) -> ValueCheck:
        """Whether `text` is grounded in the cluster (its nearest cluster, and within the threshold of what the
        members learned), with the numbers."""
        return values.validate_value(self.store, self.embedder, text, cluster_id, self._value_forms)

    def store_value(self, text: str, cluster_id: str, axis: str) -> Value:
        """Validate `text` again and store it as a value of the cluster; an invalid value is refused."""
        return values.store_value(self.store, self.embedder, text, cluster_id, axis, self._value_forms)

    def list_values(self, axis: str | None = None, limit: int = 20) -> list[Value]:
        """Stored values by cluster size, then newest first; dissolved ones carry `dissolved_at`."""
        return values.list_values(self._value_index, axis, limit)

    def search_values(self, query: str, axis: str | None = None, limit: int = 5) -> list[Value]:
        """Values matching `query` (hybrid), best first; empty query -> []."""
        return values.search_values(self._value_index, self.embedder, query, axis, limit)

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Token counts of `texts` by the embedding model's tokenizer (loads the tokenizer, not the model,
        when the model is not loaded yet)."""
        return embed.count_tokens(texts, self._embedder)

    def get_context(self, situation: str | None = None, depth: str = "light", max_tokens: int = 2000,
                    include_code: bool = True, project: str | None = None, spec: str | None = None) -> Context:
        """What the agent should know now, as compact markdown within `max_tokens` (the embedder's tokens).

        depth "light" (session start; `situation` optional): the `spec`'s blockers, decisions and learnings
        (without a spec: recent patterns), top values, recent experiences, important and recent memories,
        recent commits and hotspots. depth "rich" (after a failure, or on request; needs `situation`):
        similar experiences with their lessons, values, surprise and root-cause patterns, relevant memories
        and code units. Items carry ids to drill down with the other tools.
        """
        with self.store.reads_held():
            return context.get_context(self, situation, depth, max_tokens, include_code, project, spec)

    def get_premortem(self, domain: str, strategy: str, situation: str | None = None) -> Premortem:
        """Before trying `strategy` on `domain` work: how that went before (counts, the failures most
        relevant to `situation`, common surprises, frequent root causes, relevant values)."""
        with self.store.reads_held():
            return context.get_premortem(self, domain, strategy, situation)

    # -- the file ----------------------------------------------------------

    def info(self) -> Info:
        """Where the file is, how big, which model, how many rows in each table, how many experiences are
        cold (by tier)."""
        with self.store.reads_held():
            return Info(**self.store.describe(), cold_experiences=experiences.cold_counts(self.store, self.cold_tier))

    def backup(self, directory: str | os.PathLike | None = None) -> Path:
        """Copy the whole file, consistently, to `<name>.backup-YYYYMMDD-HHMMSS.duckdb` (UTC) in `directory`
        (default: beside the file), even while other processes use it; returns the copy's path. The copy is
        checked: it opens with learnmem and holds as many rows in each table."""
        return backup.backup(self.store, directory)

    def export_data(self, path: str | os.PathLike | TextIO, format: str = "jsonl") -> ExportResult:  # noqa: A002
        """Write the memories (with their state), GHAP entries and values to a path or text stream: `jsonl`
        (lossless, one object per line after a header; `import_data` reads it back) or `markdown` (the
        agent-learning layout of `.context/project-memory.md`). Embeddings and other derived data are left out."""
        return portable.export_data(self.store, path, format)

    def import_data(self, path: str | os.PathLike, format: str | None = None, progress: bool = True,  # noqa: A002
                    allow_secrets: bool = False) -> DataImportResult:
        """Import a JSONL export (every line checked first; any bad line and nothing is imported), a markdown
        memory file (bad sections skipped and reported), merging by id: stored ids are skipped and counted; or a
        conversation transcript, one memory per turn with its session, speaker and time (format `turns`: JSON
        lines of turns; `claude-code`: Claude Code's session transcript; learnmem.exchange.transcripts).
        Memories and values are embedded with this file's model (a progress bar on a terminal when
        `progress`), then everything is written in one transaction. `format` is read from the content when None.
        Memories or values that look like credentials refuse the whole import unless `allow_secrets`."""
        return portable.import_data(self.store, self._embedder_factory, path, format, progress, allow_secrets)

    # -- sharing through git notes -------------------------------------------
    # learnmem.exchange.notes is imported by these methods alone: its dulwich client and PyYAML cost every
    # process that opens the facade ~100 ms (measured), and few of them share notes.

    def export_notes(self, repo: str | os.PathLike | None = None) -> NotesExportResult:
        """Write the memories (not forgotten ones) and values as git notes under refs/notes/learnmem/<category>
        (and .../values), each memory attached to the commit it was made at; one notes commit per ref that
        changed. Notes the refs hold that this file does not are kept. See learnmem.exchange.notes."""
        from learnmem.exchange import notes

        with repository.project_repository(self.store.path, repo) as project:
            return notes.export_notes(self.store, project)

    def import_notes(self, repo: str | os.PathLike | None = None, progress: bool = True,
                     allow_secrets: bool = False) -> NotesImportResult:
        """Store the memories and values of the local learnmem notes refs that this file lacks (merging by id;
        embedded here), and take the supersedes they record; one transaction, refused whole (RejectedImport)
        if a note does not parse or, unless `allow_secrets`, holds something that looks like a credential."""
        from learnmem.exchange import notes

        with repository.project_repository(self.store.path, repo) as project:
            return notes.import_notes(self.store, self._embedder_factory, project, progress=progress,
                                      allow_secrets=allow_secrets)

    def pull_notes(self, remote: str = "origin", repo: str | os.PathLike | None = None,
                   progress: bool = True, allow_secrets: bool = False) -> SyncResult:
        """Fetch a remote's learnmem notes (dulwich, no git binary), import them (as import_notes), and merge
        them into the local notes refs. `remote`: a configured remote's name, or a URL or path."""
        from learnmem.exchange import notes

        with repository.project_repository(self.store.path, repo) as project:
            return notes.pull(self.store, self._embedder_factory, project, remote, progress, allow_secrets)

    def push_notes(self, remote: str = "origin", repo: str | os.PathLike | None = None,
                   progress: bool = True, allow_secrets: bool = False) -> SyncResult:
        """pull_notes, then push the local learnmem notes refs to the remote; RemoteError if it refuses or
        another clone pushed in between (nothing is then changed there: push again)."""
        from learnmem.exchange import notes

        with repository.project_repository(self.store.path, repo) as project:
            return notes.push(self.store, self._embedder_factory, project, remote, progress, allow_secrets)

    def snapshot(self) -> duckdb.DuckDBPyConnection:
        """An in-memory copy of the whole file (every table and view) as a DuckDB connection; the file itself
        is released at once, so a long notebook session never keeps an agent from writing."""
        return self.store.copy_to_memory()

    def sql(self, query: str, params: Mapping[str, Any] | Sequence[Any] | None = None) -> duckdb.DuckDBPyRelation:
        """Run a read-only query; the result is a DuckDB relation (`.df()`, `.arrow()`, `.fetchall()`).

        The rows are fetched before the file is released, so the relation stays usable afterwards.
        """
        return duckdb.from_arrow(self.store.run_query(query, params))


def open(  # noqa: A001 - learnmem.open() reads like the builtin it mirrors
    path: str | os.PathLike | None = None, *, read_only: bool = False, embedder: Embedder | None = None,
    cold_tier: str | None = None, data_path: str | os.PathLike | None = None, project: str | None = None,
    agent: str | None = None,
) -> Learnmem:
    """Open (creating and migrating if needed) a learnmem file, or a project in a lake.

    path: the DuckDB file, or a lake: `ducklake:postgres:<libpq string>` (learnmem.storage.lake); default
      `$LEARNMEM_DB`, else `<git root>/.learnmem/learnmem.duckdb`.
    read_only: open without the right to write (other processes may read too).
    embedder: the embedding model; default all-MiniLM-L6-v2, loaded on first use.
    cold_tier: highest cold tier: silver, bronze, abandoned, none (default $LEARNMEM_COLD_TIER, else bronze).
    data_path: a lake only: where its data files go (a shared folder, or s3://...); default
      `$LEARNMEM_LAKE_DATA_PATH`, else the path the lake was made with. A new lake needs one.
    project, agent: a lake only: the project (a schema; projects never see each other's rows; default
      `$LEARNMEM_PROJECT`, else the name of the git top level) and the agent, whose sessions and active GHAP
      entry are its own (default `$LEARNMEM_AGENT`, else host and checkout). See learnmem.storage.lake_store.
    """
    return Learnmem(path, read_only=read_only, embedder=embedder, cold_tier=cold_tier, data_path=data_path,
                    project=project, agent=agent)


def init_project(directory: str | os.PathLike = ".") -> Path:
    """Create `<repo root>/.learnmem/learnmem.duckdb` and ignore `.learnmem/` in `.gitignore`. Returns the file."""
    path = database_path(directory)
    Learnmem(path).close()
    ignore_learnmem_folder(project_root(Path(directory)))
    return path
