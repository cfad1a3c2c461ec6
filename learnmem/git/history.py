"""Index a repository's commits into the file: who, when, why (embedded), and what each commit changed.

Incremental: the walk from the tips stops at commits already stored and uses
the stored graph to learn which of them are still reachable, so a second run
reads only new commit objects, and commits that a force-push or rebase made
unreachable are removed. New commits are written oldest first (parents before
children) in batches, each its own transaction: if a run stops half-way, every
stored commit's ancestors are stored too, and the next run resumes.

Diffs are against the first parent (the empty tree for a root commit or a
shallow boundary). A merge is stored with its first-parent diff; each of its
files says whether it arrived unchanged from the merged branch (`from_merged`),
so that file history and churn count each change once, in the commit that made it.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass
from datetime import datetime

import pyarrow as pa
from dulwich.objects import Commit
from dulwich.repo import Repo

from learnmem.search import keywords
from learnmem.storage import sql
from learnmem import validate
from learnmem.errors import LearnmemError, ValidationError
from learnmem.git import repository
from learnmem.git.changes import READ_ERRORS, Blobs, FileChange, NamingObjects, UnreadableObjectError, commit_changes
from learnmem.git.records import CommitIndexResult
from learnmem.progress import Progress, ProgressCallback
from learnmem.storage.store import Store, project_at, utc_now
from learnmem.storage.vectors import to_column

# Commits per transaction: about a second of work with embedding.
WRITE_BATCH = 200
# Paths named in the embedded text of a commit (all of them go to BM25).
EMBED_PATHS = 20


def index_commits(
    store: Store,
    embedder,
    repo_path=".",
    since=None,
    project: str | None = None,
    all_branches: bool = False,
    embed: bool = True,
    progress: bool | ProgressCallback = True,
) -> CommitIndexResult:
    """Index (incrementally) the commits reachable from HEAD (and every branch if `all_branches`)."""
    started = time.monotonic()
    repo = repository.open_repository(repo_path)
    root = repository.repository_root(repo)
    project = validate.text("project", project if project is not None else project_at(store, root), max_chars=200)
    since_moment = validate.moment("since", since)
    if not isinstance(all_branches, bool):
        raise ValidationError(f"all_branches: expected true or false, got {all_branches!r}")
    warnings: list[str] = []

    head = repository.head_commit(repo)
    tips = {"HEAD": head} if head is not None else {}
    if all_branches:
        tips.update(repository.branch_tips(repo))
    if head is None:
        warnings.append("HEAD points to no commit (an empty repository or an unborn branch)")
    shallow = repository.shallow_commits(repo)
    if shallow:
        warnings.append(
            f"shallow clone: history stops at {len(shallow)} boundary commit(s); "
            "their diffs are against the empty tree"
        )

    with store.read() as con:
        known = {sha: parents for sha, parents in con.execute(sql.query("known_commits"), {"project": project}).fetchall()}
    walk = _walk(repo, [tip.decode("ascii") for tip in tips.values()], known, shallow, since_moment)
    gone = sorted(set(known) - walk.reachable_known)
    if gone:
        with store.write() as con:
            con.execute(sql.query("delete_commit_files"), {"project": project, "shas": gone})
            con.execute(sql.query("delete_commits"), {"project": project, "shas": gone})

    mailmap = repository.read_mailmap(repo)
    blobs = Blobs(repo.object_store)
    display = Progress(progress, "commits", "embedded" if embed else "", total=len(walk.new))
    with store.read() as con:
        first_position = con.execute(sql.query("last_position"), {"project": project}).fetchone()[0] + 1
    embedded = 0
    for start in range(0, len(walk.new), WRITE_BATCH):
        batch = walk.new[start : start + WRITE_BATCH]
        rows = [_commit_row(repo, blobs, mailmap, commit, walk.parents[commit.id], project, first_position + start + i)
                for i, commit in enumerate(batch)]
        embedded += _write_batch(store, embedder if embed else None, rows, display)
        display.advance_to(start + len(batch))
    display.close()

    with store.write() as con:
        con.execute(sql.query("delete_git_repo"), {"project": project})
        con.register("new_git_repos", pa.table({
            "project": [project], "root": [str(root)], "refs": [list(tips)],
            "tips": [[tip.decode("ascii") for tip in tips.values()]], "shallow": [bool(shallow)],
            "indexed_at": [utc_now()],
        }))
        con.execute(sql.query("insert_git_repo"))
    return CommitIndexResult(
        project=project, root=str(root), head=head.decode("ascii") if head else None,
        commits_total=len(walk.reachable_known) + len(walk.new), commits_added=len(walk.new),
        commits_removed=len(gone), commits_embedded=embedded, shallow=bool(shallow),
        seconds=time.monotonic() - started, warnings=tuple(warnings),
    )


# -- walking -------------------------------------------------------------------


@dataclass
class _Walk:
    new: list[Commit]  # parents before children
    parents: dict[bytes, list[bytes]]  # of each new commit, as git sees them (grafted for shallow)
    reachable_known: set[str]


def _walk(repo: Repo, tips: list[str], known: dict[str, list[str]], shallow: set[bytes],
          since: datetime | None) -> _Walk:
    """The commits reachable from `tips` that are not stored yet, and the stored ones still reachable."""
    reachable_known: set[str] = set()
    new: dict[bytes, Commit] = {}
    parents: dict[bytes, list[bytes]] = {}
    pending = list(tips)
    seen: set[str] = set()
    while pending:
        sha = pending.pop()
        if sha in seen:
            continue
        seen.add(sha)
        if sha in known:
            reachable_known.add(sha)
            pending.extend(known[sha])
            continue
        try:
            commit = repo[sha.encode("ascii")]
        except READ_ERRORS as error:
            raise LearnmemError(
                f"commit {sha} cannot be read ({type(error).__name__}: {error}); the repository is damaged "
                "(`git fsck` shows what is wrong); nothing was indexed"
            ) from None
        if not isinstance(commit, Commit):
            raise ValidationError(f"{sha}: is a {commit.type_name.decode()}, not a commit")
        if since is not None and repository.utc(commit.commit_time) < since:
            continue
        graft = [] if commit.id in shallow else list(commit.parents)
        new[commit.id] = commit
        parents[commit.id] = graft
        pending.extend(parent.decode("ascii") for parent in graft)
    return _Walk(new=_parents_first(new, parents), parents=parents, reachable_known=reachable_known)


def _parents_first(commits: dict[bytes, Commit], parents: dict[bytes, list[bytes]]) -> list[Commit]:
    """A topological order (every parent before its children), older commits first among the ready ones."""
    waiting = {sha: sum(1 for parent in parents[sha] if parent in commits) for sha in commits}
    children: dict[bytes, list[bytes]] = {}
    for sha in commits:
        for parent in parents[sha]:
            if parent in commits:
                children.setdefault(parent, []).append(sha)
    ready = [(commits[sha].commit_time, sha) for sha, count in waiting.items() if count == 0]
    heapq.heapify(ready)
    ordered = []
    while ready:
        _, sha = heapq.heappop(ready)
        ordered.append(commits[sha])
        for child in children.get(sha, ()):
            waiting[child] -= 1
            if waiting[child] == 0:
                heapq.heappush(ready, (commits[child].commit_time, child))
    return ordered


# -- one commit -> rows ----------------------------------------------------------


def _commit_row(repo: Repo, blobs: Blobs, mailmap, commit: Commit, parents: list[bytes], project: str,
                position: int) -> dict:
    parent_tree = None
    objects = NamingObjects(repo.object_store)
    try:
        if parents:
            parent_tree = objects[parents[0]].tree
        changes = commit_changes(repo.object_store, parent_tree, commit.tree, blobs)
        merged = _from_merged(repo, commit, parents[1:], changes) if len(parents) > 1 else set()
    except UnreadableObjectError as error:
        raise LearnmemError(
            f"commit {commit.id.decode()}: {error}; the repository is damaged (`git fsck` shows what is wrong); "
            "the commits before this one were indexed"
        ) from None
    author = repository.author_of(commit, mailmap)
    committer = repository.committer_of(commit, mailmap)
    subject, message = repository.message_of(commit)
    files = [
        {
            "project": project, "sha": commit.id.decode(), "path": repository.decode_path(change.path),
            "old_path": repository.decode_path(change.old_path) if change.old_path is not None else None,
            "change_type": change.change_type, "insertions": change.insertions, "deletions": change.deletions,
            "is_binary": change.binary, "from_merged": change.path in merged,
        }
        for change in changes
    ]
    paths = [row["path"] for row in files]
    body = message[len(message.split("\n\n", 1)[0]):].strip()
    return {
        "commit": {
            "project": project, "sha": commit.id.decode(), "position": position,
            "parents": [parent.decode() for parent in parents],
            "subject": subject, "message": message, "author": author.name, "author_email": author.email,
            "committer": committer.name, "committer_email": committer.email,
            "authored_at": repository.utc(commit.author_time), "committed_at": repository.utc(commit.commit_time),
            "insertions": sum(change.insertions for change in changes),
            "deletions": sum(change.deletions for change in changes),
            "files_changed": len(changes), "is_merge": len(parents) > 1,
            "terms": keywords.terms("\n".join([message, *paths])),
        },
        "files": files,
        "embed_text": "\n".join(part for part in (subject, body, " ".join(paths[:EMBED_PATHS])) if part),
    }


def _from_merged(repo: Repo, commit: Commit, other_parents: list[bytes], changes: list[FileChange]) -> set[bytes]:
    """Paths of a merge's first-parent diff that are exactly as in one of the other parents."""
    objects = NamingObjects(repo.object_store)
    trees = [objects[objects[parent].tree] for parent in other_parents]
    lookup = objects.__getitem__
    found = set()
    for change in changes:
        for tree in trees:
            try:
                mode, sha = tree.lookup_path(lookup, change.path)
            except KeyError:
                mode = sha = None
            if (sha, mode) == (change.new_sha, change.new_mode):
                found.add(change.path)
                break
    return found


def _write_batch(store: Store, embedder, rows: list[dict], display: Progress) -> int:
    commits = [row["commit"] for row in rows]
    table = pa.Table.from_pylist(commits, schema=_COMMIT_SCHEMA)
    if embedder is not None:
        vectors = embedder.embed([row["embed_text"] for row in rows])
        table = table.append_column("embedding", to_column(vectors, vectors.shape[1]))
        display.add(len(rows))
    files = [file for row in rows for file in row["files"]]
    file_table = pa.Table.from_pylist(files, schema=_FILE_SCHEMA)
    with store.write() as con:
        con.register("new_commits", table)
        con.register("new_commit_files", file_table)
        con.execute(sql.query("insert_commits"))
        con.execute(sql.query("insert_commit_files"))
    return len(rows) if embedder is not None else 0


_COMMIT_SCHEMA = pa.schema([
    ("project", pa.string()), ("sha", pa.string()), ("position", pa.int64()), ("parents", pa.list_(pa.string())),
    ("subject", pa.string()),
    ("message", pa.string()), ("author", pa.string()), ("author_email", pa.string()), ("committer", pa.string()),
    ("committer_email", pa.string()), ("authored_at", pa.timestamp("us")), ("committed_at", pa.timestamp("us")),
    ("insertions", pa.int32()), ("deletions", pa.int32()), ("files_changed", pa.int32()), ("is_merge", pa.bool_()),
    ("terms", pa.list_(pa.string())),
])
_FILE_SCHEMA = pa.schema([
    ("project", pa.string()), ("sha", pa.string()), ("path", pa.string()), ("old_path", pa.string()),
    ("change_type", pa.string()), ("insertions", pa.int32()), ("deletions", pa.int32()),
    ("is_binary", pa.bool_()), ("from_merged", pa.bool_()),
])
