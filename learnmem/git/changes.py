"""What a commit changed, file by file, the way `git log --numstat` reports it.

A tree diff (dulwich) gives adds, deletes and modifications; renames are then
found among the deleted and added files with git's own rules
(diffcore-rename.c, rename detection on, copies off, 50 % similarity):
exact renames first, then files whose basename is unique on both sides at
75 %, then the best-scoring pairs of the rest. Similarity is git's estimate
(diffcore-delta.c: chunks cut at newlines or 64 bytes, hashed, counted), so the
pairs agree with git's even where two candidates are close. Line counts come
from `linediff`, a port of git's own diff.
"""

from __future__ import annotations

import stat
from collections import Counter
from dataclasses import dataclass

import zlib

from dulwich.diff_tree import CHANGE_ADD, CHANGE_DELETE, tree_changes
from dulwich.errors import ChecksumMismatch, ObjectFormatException
from dulwich.object_store import BaseObjectStore

from learnmem.git.linediff import count_changes, split_lines

# git's buffer_is_binary: a NUL byte in the first 8000 bytes.
BINARY_PROBE_BYTES = 8000
MAX_SCORE = 60000  # git scores similarity out of this
RENAME_SCORE = 30000  # 50 %: git's default -M
BASENAME_SCORE = RENAME_SCORE + (MAX_SCORE - RENAME_SCORE) // 2  # 75 %: basename-guided matching
RENAME_LIMIT = 1000  # diff.renameLimit: above limit² candidate pairs, only exact renames
CANDIDATES_PER_DESTINATION = 4
GITLINK = 0o160000
EMPTY_BLOB = b"e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"


# What reading a damaged repository raises: a missing object, or one that does not parse or checksum.
READ_ERRORS = (KeyError, ObjectFormatException, ChecksumMismatch, zlib.error, OSError)


class UnreadableObjectError(Exception):
    """A git object is missing or corrupt; `sha` names it (dulwich's own errors often do not)."""

    def __init__(self, sha: bytes, cause: Exception):
        super().__init__(f"object {sha.decode('ascii', 'replace')} cannot be read ({type(cause).__name__}: {cause})")
        self.sha = sha


class NamingObjects:
    """An object store whose failed reads raise UnreadableObjectError naming the object."""

    def __init__(self, object_store: BaseObjectStore):
        self.object_store = object_store

    def __getitem__(self, sha: bytes):
        try:
            return self.object_store[sha]
        except READ_ERRORS as error:
            raise UnreadableObjectError(sha, error) from error


@dataclass(frozen=True)
class FileChange:
    """One file in one commit's diff against its first parent (the empty tree for a root commit)."""

    path: bytes  # the path after the commit (the deleted path for a delete)
    old_path: bytes | None  # the path before, for a rename
    change_type: str  # add, modify, delete, rename
    old_sha: bytes | None
    new_sha: bytes | None
    old_mode: int | None
    new_mode: int | None
    insertions: int
    deletions: int
    binary: bool


def is_binary(data: bytes) -> bool:
    return b"\0" in data[:BINARY_PROBE_BYTES]


class Blobs:
    """Reads blob contents once per sha (a bounded cache); submodule entries read as git shows them."""

    def __init__(self, object_store: BaseObjectStore, max_bytes: int = 64 * 1024 * 1024, max_counts: int = 512):
        self.object_store = NamingObjects(object_store)
        self.max_bytes = max_bytes
        self.max_counts = max_counts
        self._cache: dict[bytes, bytes] = {}
        self._cached_bytes = 0
        self._counts: dict[bytes, Counter] = {}

    def data(self, sha: bytes, mode: int | None) -> bytes:
        if mode == GITLINK:
            return b"Subproject commit " + sha + b"\n"
        cached = self._cache.get(sha)
        if cached is None:
            cached = self.object_store[sha].as_raw_string()
            while self._cache and self._cached_bytes + len(cached) > self.max_bytes:
                self._cached_bytes -= len(self._cache.pop(next(iter(self._cache))))
            self._cache[sha] = cached
            self._cached_bytes += len(cached)
        return cached

    def chunk_counts(self, sha: bytes, mode: int | None) -> Counter:
        """git's similarity fingerprint of a blob (see `_chunk_counts`)."""
        counts = self._counts.get(sha)
        if counts is None:
            counts = _chunk_counts(self.data(sha, mode))
            if len(self._counts) >= self.max_counts:
                self._counts.pop(next(iter(self._counts)))
            self._counts[sha] = counts
        return counts


def commit_changes(
    object_store: BaseObjectStore, old_tree: bytes | None, new_tree: bytes, blobs: Blobs | None = None
) -> list[FileChange]:
    """Every file the diff from `old_tree` (None: the empty tree) to `new_tree` touches, renames paired."""
    blobs = blobs or Blobs(object_store)
    modified, deleted, added = [], [], []
    for change in tree_changes(NamingObjects(object_store), old_tree, new_tree, change_type_same=True):
        if change.type == CHANGE_ADD:
            added.append(change.new)
        elif change.type == CHANGE_DELETE:
            deleted.append(change.old)
        else:
            modified.append((change.old, change.new))
    renames = find_renames(deleted, added, blobs)
    renamed_sources = {source.path for source in renames.values()}

    result = []
    for old, new in modified:
        result.append(_counted(blobs, "modify", new.path, None, old, new))
    for entry in deleted:
        if entry.path not in renamed_sources:
            result.append(_counted(blobs, "delete", entry.path, None, entry, None))
    for entry in added:
        source = renames.get(entry.path)
        if source is None:
            result.append(_counted(blobs, "add", entry.path, None, None, entry))
        else:
            result.append(_counted(blobs, "rename", entry.path, source.path, source, entry))
    result.sort(key=lambda change: change.path)
    return result


def _counted(blobs: Blobs, change_type: str, path: bytes, old_path: bytes | None, old, new) -> FileChange:
    old_data = blobs.data(old.sha, old.mode) if old is not None else b""
    new_data = blobs.data(new.sha, new.mode) if new is not None else b""
    binary = is_binary(old_data) or is_binary(new_data)
    if binary or (old is not None and new is not None and old.sha == new.sha):
        insertions = deletions = 0
    else:
        insertions, deletions = count_changes(split_lines(old_data), split_lines(new_data))
    return FileChange(
        path=path, old_path=old_path, change_type=change_type,
        old_sha=old.sha if old is not None else None, new_sha=new.sha if new is not None else None,
        old_mode=old.mode if old is not None else None, new_mode=new.mode if new is not None else None,
        insertions=insertions, deletions=deletions, binary=binary,
    )


# -- rename detection (diffcore-rename.c) --------------------------------------


def find_renames(deleted: list, added: list, blobs: Blobs) -> dict[bytes, object]:
    """Map each added path that git would call a rename to the deleted entry it came from."""
    if not deleted or not added:
        return {}
    sources = sorted(deleted, key=lambda entry: entry.path)
    destinations = sorted(added, key=lambda entry: entry.path)
    used: set[int] = set()  # indexes of sources already renamed
    paired: dict[int, int] = {}  # destination index -> source index

    _exact_renames(sources, destinations, used, paired)
    remaining_sources = [i for i in range(len(sources)) if i not in used]
    _basename_renames(sources, destinations, remaining_sources, used, paired, blobs)
    remaining_sources = [i for i in remaining_sources if i not in used]
    remaining_destinations = [i for i in range(len(destinations)) if i not in paired]
    if (remaining_sources and remaining_destinations
            and len(remaining_sources) * len(remaining_destinations) <= RENAME_LIMIT * RENAME_LIMIT):
        _inexact_renames(sources, destinations, remaining_sources, remaining_destinations, used, paired, blobs)
    return {destinations[d].path: sources[s] for d, s in paired.items()}


def _basename(path: bytes) -> bytes:
    return path.rsplit(b"/", 1)[-1]


def _basename_same(one: bytes, two: bytes) -> bool:
    return _basename(one) == _basename(two)


def _exact_renames(sources: list, destinations: list, used: set[int], paired: dict[int, int]) -> None:
    by_sha: dict[bytes, list[int]] = {}
    for index, entry in enumerate(sources):
        by_sha.setdefault(entry.sha, []).append(index)
    for d, target in enumerate(destinations):
        best, best_score = None, -1
        for s in by_sha.get(target.sha, ())[:100]:  # git gives up after 100 identical alternatives
            source = sources[s]
            if not (stat.S_ISREG(source.mode) and stat.S_ISREG(target.mode)) and source.mode != target.mode:
                continue
            if s in used:
                continue
            score = 1 + _basename_same(source.path, target.path)
            if score > best_score:
                best, best_score = s, score
                if score == 2:
                    break
        if best is not None:
            used.add(best)
            paired[d] = best


def _basename_renames(sources, destinations, remaining_sources, used, paired, blobs) -> None:
    source_names: dict[bytes, int] = {}
    for i in remaining_sources:
        name = _basename(sources[i].path)
        source_names[name] = -1 if name in source_names else i
    destination_names: dict[bytes, int] = {}
    for d in range(len(destinations)):
        if d in paired:
            continue
        name = _basename(destinations[d].path)
        destination_names[name] = -1 if name in destination_names else d
    for i in remaining_sources:
        name = _basename(sources[i].path)
        s, d = source_names[name], destination_names.get(name, -1)
        if s == -1 or d == -1 or d in paired:
            continue
        if similarity(sources[s], destinations[d], blobs, BASENAME_SCORE) >= BASENAME_SCORE:
            used.add(s)
            paired[d] = s


def _inexact_renames(sources, destinations, remaining_sources, remaining_destinations, used, paired, blobs) -> None:
    # git keeps the 4 best sources per destination, sorts all kept pairs (stable) by score,
    # then basename match, and pairs greedily, each source at most once.
    candidates = []
    for d in remaining_destinations:
        best: list[tuple[int, int, int, int]] = []
        for s in remaining_sources:
            entry = (similarity(sources[s], destinations[d], blobs, RENAME_SCORE),
                     int(_basename_same(sources[s].path, destinations[d].path)), d, s)
            _record_if_better(best, entry)
        candidates.extend(best)
    candidates.sort(key=lambda entry: (-entry[0], -entry[1]))
    for score, _, d, s in candidates:
        if score < RENAME_SCORE:
            break
        if d in paired or s in used:
            continue
        used.add(s)
        paired[d] = s


def _record_if_better(best: list[tuple[int, int, int, int]], entry: tuple[int, int, int, int]) -> None:
    """git's record_if_better: a fixed set of 4 slots; a new pair replaces the worst if it beats it."""
    if len(best) < CANDIDATES_PER_DESTINATION:
        best.append(entry)
        return
    worst = 0
    for i in range(1, CANDIDATES_PER_DESTINATION):
        if _worse(best[i], best[worst]):
            worst = i
    if _worse(best[worst], entry):
        best[worst] = entry


def _worse(a: tuple, b: tuple) -> bool:
    """score_compare(a, b) > 0: a sorts after b."""
    if a[0] == b[0]:
        return b[1] - a[1] > 0
    return b[0] - a[0] > 0


def similarity(source, destination, blobs: Blobs, minimum_score: int) -> int:
    """git's estimate_similarity: the share of the larger file copied from the source, out of MAX_SCORE."""
    if not (stat.S_ISREG(source.mode) and stat.S_ISREG(destination.mode)):
        return 0
    source_data = blobs.data(source.sha, source.mode)
    destination_data = blobs.data(destination.sha, destination.mode)
    max_size = max(len(source_data), len(destination_data))
    delta_size = max_size - min(len(source_data), len(destination_data))
    if max_size * (MAX_SCORE - minimum_score) < delta_size * MAX_SCORE:
        return 0
    if not destination_data:
        return 0
    copied = _copied_bytes(blobs.chunk_counts(source.sha, source.mode), blobs.chunk_counts(destination.sha, destination.mode))
    return copied * MAX_SCORE // max_size


_HASHBASE = 107927
_MASK = 0xFFFFFFFF


def _chunk_counts(data: bytes) -> Counter:
    """diffcore-delta.c hash_chars: bytes per hash of chunks that end at a newline or after 64 bytes.

    The CR of a CRLF is skipped in text; a last chunk shorter than 64 bytes with no newline is
    not counted (git's loop ends without flushing it)."""
    if not is_binary(data):
        data = data.replace(b"\r\n", b"\n")
    counts: Counter = Counter()
    for line in _lines(data):
        for start in range(0, len(line), 64):
            chunk = line[start : start + 64]
            if len(chunk) < 64 and not chunk.endswith(b"\n"):
                break
            counts[_chunk_hash(chunk)] += len(chunk)
    return counts


def _lines(data: bytes) -> list[bytes]:
    """Split after b"\n" only (bytes.splitlines also splits at a lone CR)."""
    lines = data.split(b"\n")
    last = lines.pop()
    result = [line + b"\n" for line in lines]
    if last:
        result.append(last)
    return result


_chunk_hashes: dict[bytes, int] = {}


def _chunk_hash(chunk: bytes) -> int:
    value = _chunk_hashes.get(chunk)
    if value is None:
        accum1 = accum2 = 0
        for c in chunk:
            old1 = accum1
            accum1 = ((accum1 << 7) ^ (accum2 >> 25)) & _MASK
            accum2 = ((accum2 << 7) ^ (old1 >> 25)) & _MASK
            accum1 = (accum1 + c) & _MASK
        value = ((accum1 + accum2 * 0x61) & _MASK) % _HASHBASE
        if len(_chunk_hashes) > 200_000:
            _chunk_hashes.clear()
        _chunk_hashes[chunk] = value
    return value


def _copied_bytes(source: Counter, destination: Counter) -> int:
    return sum(min(count, destination.get(key, 0)) for key, count in source.items())
