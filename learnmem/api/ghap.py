"""The facade's GHAP methods: tracking an entry through its iterations, the agent's sessions and tool counter,
searching the experiences resolved entries become, and their JSON lines. `Learnmem` is made of this class and
learnmem.api's own methods; each hands its arguments to learnmem.learning.ghap, .experiences or
learnmem.exchange.ghap_io."""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, TextIO

from learnmem.exchange import ghap_io
from learnmem.exchange.ghap_io import ImportResult
from learnmem.learning import experiences, ghap
from learnmem.learning.ghap_records import (ActiveGhap, Experience, GhapSummary, ResolveResult, SessionEnd,
                                            StartResult, UpdateResult)

if TYPE_CHECKING:
    from learnmem.embedding.embed import Embedder
    from learnmem.storage.store import Store


class GhapMethods:
    """What `Learnmem` does with GHAP entries; the attributes below are the facade's."""

    store: Store
    embedder: Embedder
    cold_tier: str | None
    _experience_index: experiences.ExperienceIndex

    def _embedder_factory(self) -> Embedder:
        return self.embedder

    def start_ghap(self, domain: str, strategy: str, goal: str, hypothesis: str, action: str,
                   prediction: str) -> StartResult:
        """Start a Goal-Hypothesis-Action-Prediction entry (an active one is superseded, with a warning)."""
        return ghap.start_ghap(self.store, domain, strategy, goal, hypothesis, action, prediction)

    def update_ghap(self, hypothesis: str | None = None, action: str | None = None, prediction: str | None = None,
                    strategy: str | None = None, note: str | None = None) -> UpdateResult:
        """Revise the active entry: a new hypothesis/action/prediction is a new iteration; notes append."""
        return ghap.update_ghap(self.store, hypothesis, action, prediction, strategy, note)

    def resolve_ghap(self, status: str, result: str, surprise: str | None = None,
                     root_cause: Mapping[str, str] | None = None, lesson: Mapping[str, str] | None = None,
                     auto_captured: bool = False) -> ResolveResult:
        """Resolve the active entry (confirmed, falsified, abandoned); it becomes an experience, embedded on its axes.

        Gold tier when `auto_captured`, or when the Claude Code hooks observed a test/build run since the entry's
        current prediction was set and its outcome agrees with `status` (passed -> confirmed, failed ->
        falsified); otherwise silver (or bronze for a poor hypothesis)."""
        return ghap.resolve_ghap(self.store, self._embedder_factory, status, result, surprise, root_cause, lesson,
                                 auto_captured)

    def abandon_ghap(self, reason: str) -> ResolveResult:
        """Resolve the active entry as abandoned, with `reason`."""
        return ghap.abandon_ghap(self.store, self._embedder_factory, reason)

    def get_active_ghap(self) -> ActiveGhap:
        """The active entry, or has_active false."""
        return ghap.get_active_ghap(self.store)

    def list_ghap_entries(self, limit: int = 20, domain: str | None = None, outcome: str | None = None,
                          since: str | datetime | None = None) -> list[GhapSummary]:
        """Entries newest first, filtered by domain, outcome (confirmed/falsified/abandoned/active), since."""
        return ghap.list_ghap_entries(self.store, limit, domain, outcome, since)

    def start_session(self) -> str:
        """Start a new agent session (it becomes current); returns its id."""
        return ghap.start_session(self.store)

    def end_session(self) -> SessionEnd:
        """End the current session, abandoning its active entry (`session ended`)."""
        return ghap.end_session(self.store)

    def get_session_id(self) -> str:
        """The current session's id (one is started if there is none)."""
        return ghap.get_session_id(self.store)

    def get_orphaned_entry(self) -> ActiveGhap:
        """The active entry if an earlier session left it (has_active false otherwise)."""
        return ghap.get_orphaned_entry(self.store)

    def adopt_orphan(self) -> ActiveGhap:
        """Take the orphaned entry into the current session."""
        return ghap.adopt_orphan(self.store)

    def abandon_orphan(self, reason: str) -> ResolveResult:
        """Abandon the orphaned entry with `reason`."""
        return ghap.abandon_orphan(self.store, self._embedder_factory, reason)

    def increment_tool_count(self) -> int:
        """Count a tool call in the current session; returns the count since the last check-in."""
        return ghap.increment_tool_count(self.store)

    def should_check_in(self, frequency: int = 10) -> bool:
        """True when `frequency` tool calls have passed since the last check-in and an entry is active."""
        return ghap.should_check_in(self.store, frequency)

    def reset_tool_count(self) -> int:
        """Zero the tool counter after a check-in."""
        return ghap.reset_tool_count(self.store)

    def search_experiences(self, query: str, axis: str = "full", domain: str | None = None,
                           outcome: str | None = None, limit: int = 10, include_cold: bool = False) -> list[Experience]:
        """Resolved entries whose `axis` text matches `query` (hybrid), best first; empty query -> []. Cold ones
        (bronze and abandoned unless `cold_tier` says otherwise) only with `include_cold`."""
        return experiences.search_experiences(self._experience_index, self.store, self.embedder, query, axis,
                                              domain, outcome, limit, include_cold, self.cold_tier)

    # -- GHAP entries as JSON lines ------------------------------------------

    def export_ghap(self, path_or_stream: str | os.PathLike | TextIO, include_active: bool = False) -> int:
        """Write the entries as JSON lines (GHAP.md's entry format), oldest first, to a path or text stream;
        the active entry too when `include_active`. Returns the number written."""
        return ghap_io.export_entries(self.store, path_or_stream, include_active)

    def import_ghap(self, path: str | os.PathLike) -> ImportResult:
        """Import entries from a JSONL file or a journal directory (current_ghap.json, session_entries.jsonl,
        archive/*.jsonl): bad lines are reported as file:line, known ids skipped, the rest stored at once."""
        return ghap_io.import_entries(self.store, path, self._embedder_factory)
