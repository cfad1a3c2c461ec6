"""The files behind a memory, as they were at the commit it was made at: retrieve_memories(detail="files").

Which files: the memory's `sources` that name a file of that commit (an
anchor such as `README.md#install` is dropped to find it), then the files
that commit changed (against its first parent; every file of a root
commit), at most MAX_FILES. Each is read from the commit's tree (not the
work tree, which may have moved on) and cut at MAX_FILE_CHARS characters,
and all of a memory's files together at MAX_TOTAL_CHARS; binary files are
named without their content. A memory made outside a repository, or whose
commit this clone does not have, has no files.
"""

from __future__ import annotations

from collections.abc import Sequence

from dulwich.diff_tree import tree_changes
from dulwich.objects import Blob, Commit
from dulwich.object_store import tree_lookup_path
from dulwich.repo import Repo

from learnmem.errors import ValidationError
from learnmem.git.repository import project_repository
from learnmem.memory.records import CommitFile, MemoryHit, MemoryWithFiles

MAX_FILES = 5
MAX_FILE_CHARS = 4000
MAX_TOTAL_CHARS = 12_000


def with_files(hits: Sequence[MemoryHit], file_path) -> list[MemoryWithFiles]:
    """The hits with the files of their commits, from the project's repository (none outside one)."""
    try:
        repo = project_repository(file_path)
    except ValidationError:
        return [MemoryWithFiles(**vars(hit), files=()) for hit in hits]
    with repo:
        return [MemoryWithFiles(**vars(hit), files=commit_files(repo, hit.commit_sha, hit.sources)) for hit in hits]


def commit_files(repo: Repo, commit_sha: str | None, sources: Sequence[str]) -> tuple[CommitFile, ...]:
    """The files of a memory at its commit (see the module docstring)."""
    commit = _commit(repo, commit_sha)
    if commit is None:
        return ()
    paths = [path for path in dict.fromkeys(source.split("#", 1)[0] for source in sources) if path]
    paths += _changed_paths(repo, commit)
    files: list[CommitFile] = []
    budget = MAX_TOTAL_CHARS
    for path in dict.fromkeys(paths):
        blob = _blob(repo, commit, path)
        if blob is None:
            continue
        files.append(_read(path, blob, budget))
        budget -= len(files[-1].content or "")
        if len(files) == MAX_FILES:
            break
    return tuple(files)


def _commit(repo: Repo, commit_sha: str | None) -> Commit | None:
    if not commit_sha:
        return None
    try:
        commit = repo[commit_sha.encode("ascii")]
    except (KeyError, ValueError):
        return None
    return commit if isinstance(commit, Commit) else None


def _changed_paths(repo: Repo, commit: Commit) -> list[str]:
    parent = repo[commit.parents[0]].tree if commit.parents else None
    paths = []
    for change in tree_changes(repo.object_store, parent, commit.tree):
        if change.new is not None and change.new.path is not None:
            paths.append(change.new.path.decode("utf-8", "replace"))
    return paths


def _blob(repo: Repo, commit: Commit, path: str) -> Blob | None:
    try:
        _, sha = tree_lookup_path(repo.object_store.__getitem__, commit.tree, path.encode("utf-8"))
        found = repo[sha]
    except (KeyError, NotADirectoryError):
        return None
    return found if isinstance(found, Blob) else None


def _read(path: str, blob: Blob, budget: int) -> CommitFile:
    data = blob.data
    if b"\0" in data[:8000]:
        return CommitFile(path=path, size=len(data), content=None, truncated=False)
    text = data.decode("utf-8", "replace")
    cap = max(0, min(MAX_FILE_CHARS, budget))
    return CommitFile(path=path, size=len(data), content=text[:cap], truncated=len(text) > cap)
