"""The results of sharing through git notes (learnmem.exchange.notes), apart from the module that makes them:
the facade names them in its signatures, and notes' own imports (dulwich's client, PyYAML: ~100 ms, measured)
load only when notes are used."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NotesExportResult:
    """What export_notes wrote: for every learnmem notes ref, its commit now (hex); `changed` lists the refs
    that got a new commit; `memories` and `values` count the documents written, `notes` the notes."""

    repository: str
    refs: dict[str, str]
    changed: tuple[str, ...]
    memories: int
    values: int
    notes: int


@dataclass(frozen=True)
class NotesImportResult:
    """What import_notes did: the refs read (name -> commit), and the import's counts (memories and values
    stored, skipped as stored already, memories stored here that took a replacement from the notes)."""

    repository: str
    refs: dict[str, str]
    imported: dict[str, int]
    skipped: dict[str, int]
    supersedes_merged: int
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class SyncResult:
    """What pull or push did: the remote, the remote's learnmem refs before (name -> commit), the import of
    them, the local notes written, and (push) the refs sent."""

    action: str
    remote: str
    remote_refs: dict[str, str]
    imported: NotesImportResult
    exported: NotesExportResult
    pushed: tuple[str, ...] = ()
