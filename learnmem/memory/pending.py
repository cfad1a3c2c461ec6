"""One memory stored at interactive speed: acknowledged in the file's journal, folded into the file moments later.

An agent stores one memory per call. Attaching the file, writing and detaching it (DuckDB checkpoints at every
detach) cost 25-35 ms of a ~50 ms store at 10,000 memories, whatever the memory (bench/RESULTS.md). Here a
memory is checked as store_memories checks it (an exact duplicate, a restatement, the similar memories), against
the process's snapshot, which is current: neither the file nor its journal changed since it was made. It is then
appended to the journal (learnmem.storage.journal) and fsynced under the writer lock, and becomes the snapshot's
last row. A Folder folds the journal into the file once stores pause for FOLD_DELAY_S, or the store that finds
FOLD_ROWS waiting does (a loop of stores); so does any operation of any process that touches the file
(Store.settle), and closing the handle. A killed process's rows wait in the journal for the next process that
opens the file.

Everything else takes store_memories' path: `supersedes`, a lake, a read-only handle, an exact duplicate (it may
be a forgotten memory to restore), a snapshot that another process's write made stale.
"""

from __future__ import annotations

import atexit
import sys
import threading
import time
import weakref
from collections.abc import Mapping
from typing import Any

import pyarrow.compute as pc

from learnmem import validate
from learnmem.embedding import passages
from learnmem.embedding.embed import Embedder
from learnmem.errors import LearnmemError
from learnmem.memory import items as memory_items
from learnmem.memory import memories
from learnmem.memory.index import MemoryIndex
from learnmem.memory.records import StoreResult
from learnmem.search import keywords
from learnmem.storage.memory_rows import FOLD_ROWS
from learnmem.storage.store import Store, iso, utc_now

# How long stores must pause before the journal is written into the file: a burst of stores shares one fold.
FOLD_DELAY_S = 0.2
# A fold that found the file held by another process (the DuckDB CLI) is tried again this much later, doubling
# up to _RETRY_MAX_S: each try holds this process's other threads for up to Store's SETTLE_PATIENCE_S.
_RETRY_S = 1.0
_RETRY_MAX_S = 30.0


def store_memory(store: Store, embedder: Embedder, index: MemoryIndex, item: Mapping[str, Any],
                 supersedes: str | None, allow_secrets: bool, commit_sha: str | None, force: bool,
                 folder: Folder | None) -> StoreResult:
    """memories.store_memory's result; a new memory of a file is acknowledged once in the journal (`folder`
    folds it into the file)."""
    def ordinary() -> StoreResult:
        return memories.store_memory(store, embedder, index, item, supersedes, allow_secrets, commit_sha, force)

    if folder is None or supersedes is not None or store.pending is None or store.read_only:
        return ordinary()
    validate.flag("allow_secrets", allow_secrets)
    validate.flag("force", force)
    draft = memory_items.draft(item, "", allow_secrets)
    vectors, passage_vectors = passages.embed_texts(embedder, [draft.content])
    snapshot = index.snapshot()
    if pc.index(snapshot.table.column("content_hash"), draft.content_hash).as_py() >= 0:  # stored, maybe forgotten
        return ordinary()
    restated_by, similar = memories.checked_alone(snapshot, draft, vectors[0], force)
    if restated_by is not None:
        return memories.restated(*restated_by)
    now = utc_now()
    memory_id = memories.new_id(now)
    rows = memories.arrow_rows([(draft, vectors[0], passage_vectors[0], keywords.terms(draft.content))],
                               {draft.content_hash: (memory_id, now)}, embedder.dim, commit_sha)
    with index.lock:
        state = store.append_pending(rows, index.is_current) if index.snapshot() is snapshot else None
        if state is not None:
            index.add_pending(rows, state)
            waiting = len(index.pending)
    if state is None:  # another writer came first: store_memories' path sees what it wrote
        return ordinary()
    # A loop of stores: every FOLD_ROWS, one fold moves them on (as memories_recent's own fold). When the file is
    # held elsewhere the rows keep waiting, and the next try is FOLD_ROWS stores later, not at every store.
    if waiting % FOLD_ROWS == 0:
        store.settle(patient=False)
    else:
        folder.poke()
    return memories.with_similar(StoreResult(memory_id, False, iso(now), "stored"), similar)


class Folder:
    """Folds one store's journal in a thread of its own once stores have paused for FOLD_DELAY_S; the thread
    ends when nothing waits. A fold that cannot have the file is tried again later (_RETRY_S, doubling); what
    waits is safe in the journal meanwhile, and the process's exit tries too."""

    def __init__(self, store: Store, delay_s: float = FOLD_DELAY_S):
        self.store = store
        self.delay_s = delay_s
        self._due: float | None = None
        self._retry_s = _RETRY_S
        self._thread: threading.Thread | None = None
        self._wake = threading.Condition()
        _folders.add(self)

    def poke(self) -> None:
        """A row was appended: fold once stores pause."""
        with self._wake:
            self._due = time.monotonic() + self.delay_s
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="learnmem-fold", daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._due is not None and time.monotonic() < self._due:
                    self._wake.wait(self._due - time.monotonic())
                if self._due is None:
                    self._thread = None
                    return
                self._due = None
            try:
                folded = self.store.settle(patient=False)
            except LearnmemError as error:
                print(f"learnmem: folding {self.store.pending.path} failed: {error}", file=sys.stderr)
                folded = False
            with self._wake:
                if folded:
                    self._retry_s = _RETRY_S
                elif self._due is None:
                    self._due = time.monotonic() + self._retry_s
                    self._retry_s = min(2 * self._retry_s, _RETRY_MAX_S)


_folders: weakref.WeakSet[Folder] = weakref.WeakSet()


@atexit.register
def _fold_at_exit() -> None:
    for folder in list(_folders):
        try:
            folder.store.settle(patient=False)  # when the file is held, the rows wait for the next process's open
        except LearnmemError as error:
            print(f"learnmem: {folder.store.pending.path} not folded at exit: {error}", file=sys.stderr)
