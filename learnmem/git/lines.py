"""Questions about lines, answered from the repository itself: blame, who owns a file, a unit's history.

These read git objects (dulwich) rather than the indexed tables, because they
need file contents at many revisions; commit metadata is shown the way the
index stores it (authors after .mailmap, times in UTC).
"""

from __future__ import annotations

from collections import Counter

from dulwich.objects import Commit
from dulwich.objectspec import parse_commit
from dulwich.repo import Repo

from learnmem.storage import sql
from learnmem import validate
from learnmem.errors import NotFoundError, ValidationError
from learnmem.git import projects, repository
from learnmem.git.blame import blame_file
from learnmem.git.line_log import line_history
from learnmem.git.records import BlameEntry, CodeAuthor, UnitChange
from learnmem.git.reports import file_history
from learnmem.storage.store import Store, iso

MAX_UNIT_HISTORY = 200


class _Commits:
    """Commit metadata by sha, read once, authors through .mailmap."""

    def __init__(self, repo: Repo):
        self.repo = repo
        self.mailmap = repository.read_mailmap(repo)
        self._cache: dict[str, tuple] = {}

    def describe(self, sha: str) -> tuple[str, str, str, str]:
        """(author, author_email, authored_at, subject)."""
        found = self._cache.get(sha)
        if found is None:
            commit = self.repo[sha.encode("ascii")]
            author = repository.author_of(commit, self.mailmap)
            found = (author.name, author.email, iso(repository.utc(commit.author_time)),
                     repository.message_of(commit)[0])
            self._cache[sha] = found
        return found


def _open(store: Store, project: str | None) -> tuple[str, Repo]:
    project, root = projects.resolve(store, project)
    if not root.exists():
        raise NotFoundError(f"project: the repository of {project!r} is no longer at {root}; index it again")
    return project, repository.open_repository(root)


def _revision(repo: Repo, rev: str) -> bytes:
    validate.text("rev", rev, max_chars=256)
    try:
        commit = parse_commit(repo, rev.encode("utf-8"))
    except (KeyError, ValueError):
        raise NotFoundError(f"rev: {rev!r} is not a commit, branch or tag of {repo.path}") from None
    if not isinstance(commit, Commit):
        raise NotFoundError(f"rev: {rev!r} does not name a commit")
    return commit.id


def get_blame(store: Store, path: str, start_line: int | None = None, end_line: int | None = None,
              rev: str = "HEAD", project: str | None = None) -> list[BlameEntry]:
    """Who last changed each line of `path` at `rev`: ranges of lines with the commit, author, time, summary."""
    if start_line is not None:
        validate.integer("start_line", start_line, low=1)
    if end_line is not None:
        validate.integer("end_line", end_line, low=1)
    _, repo = _open(store, project)
    relative = projects.relative_path(path, repository.repository_root(repo))
    commit = _revision(repo, rev)
    commits = _Commits(repo)
    entries = []
    for part in blame_file(repo, repository.encode_path(relative), commit, start_line, end_line):
        author, email, authored_at, summary = commits.describe(part.sha)
        entries.append(BlameEntry(
            start_line=part.start_line, end_line=part.end_line, sha=part.sha, author=author, author_email=email,
            authored_at=authored_at, summary=summary, original_path=part.original_path,
            original_start_line=part.original_start_line, boundary=part.boundary,
        ))
    return entries


def get_code_authors(store: Store, path: str, project: str | None = None) -> list[CodeAuthor]:
    """Per author of `path` (followed through renames): non-merge commits, lines added and removed, first
    and last change, and the lines of the file at HEAD they own by blame (with their share of all lines)."""
    project, repo = _open(store, project)
    history = file_history(store, path, limit=None, project=project)
    owned: Counter = Counter()
    emails: dict[str, str] = {}
    head = repository.head_commit(repo)
    current = history[0]
    if head is not None and current.change_type != "delete":
        commits = _Commits(repo)
        for part in blame_file(repo, repository.encode_path(current.path), head):
            author, email, _, _ = commits.describe(part.sha)
            owned[email.lower()] += part.end_line - part.start_line + 1
            emails.setdefault(email.lower(), author)
    total_lines = sum(owned.values())

    merges = _merge_shas(store, project, [entry.sha for entry in history])
    stats: dict[str, dict] = {}
    for entry in history:
        if entry.sha in merges:
            continue
        key = entry.author_email.lower()
        row = stats.setdefault(key, {"author": entry.author, "author_email": entry.author_email, "commits": set(),
                                     "insertions": 0, "deletions": 0, "times": []})
        row["commits"].add(entry.sha)
        row["insertions"] += entry.insertions
        row["deletions"] += entry.deletions
        row["times"].append(entry.authored_at)
    for key, name in emails.items():
        stats.setdefault(key, {"author": name, "author_email": key, "commits": set(), "insertions": 0,
                               "deletions": 0, "times": []})
    authors = [
        CodeAuthor(
            author=row["author"], author_email=row["author_email"], commits=len(row["commits"]),
            insertions=row["insertions"], deletions=row["deletions"],
            first_change=min(row["times"]) if row["times"] else None,
            last_change=max(row["times"]) if row["times"] else None,
            lines_owned=owned.get(key, 0), share=round(owned.get(key, 0) / total_lines, 4) if total_lines else 0.0,
        )
        for key, row in stats.items()
    ]
    authors.sort(key=lambda author: (-author.lines_owned, -author.commits, author.author_email))
    return authors


def _merge_shas(store: Store, project: str, shas: list[str]) -> set[str]:
    with store.read() as con:
        return {sha for (sha,) in con.execute(sql.query("merge_commits"), {"project": project, "shas": shas}).fetchall()}


def get_unit_history(store: Store, name: str, project: str | None = None, limit: int = 20) -> list[UnitChange]:
    """The commits that changed a code unit's lines, newest first ("why is this function like this?").

    `name` is a unit of the indexed code (`index_codebase`): "load", "Config.load", "app.config.Config.load"
    or "app/config.py:Config.load". Its lines at HEAD are followed back through every diff that touched
    them (and renames), as `git log -L` does."""
    validate.text("name", name, max_chars=500)
    validate.integer("limit", limit, low=1, high=MAX_UNIT_HISTORY)
    project, repo = _open(store, project)
    file_path, qualified_name, language = _unit(store, project, name.strip())
    head = repository.head_commit(repo)
    if head is None:
        raise NotFoundError("the repository has no commits yet")
    start_line, end_line = _lines_at(repo, head, file_path, qualified_name, language)
    commits = _Commits(repo)
    changes = []
    for change in line_history(repo, repository.encode_path(file_path), start_line, end_line, head, limit=limit):
        author, email, authored_at, subject = commits.describe(change.sha)
        changes.append(UnitChange(sha=change.sha, path=change.path, start_line=change.start_line,
                                  end_line=change.end_line, author=author, author_email=email,
                                  authored_at=authored_at, subject=subject))
    return changes


def _unit(store: Store, project: str, name: str) -> tuple[str, str, str]:
    with store.read() as con:
        rows = con.execute(sql.query("units_named"), {"project": project, "name": name}).fetchall()
    if not rows:
        raise NotFoundError(
            f"name: {name!r} is not a function, method or class in the indexed code of project {project!r} "
            "(index it with index_codebase; give 'Class.method' or 'path/to/file.py:name' to be precise)"
        )
    distinct = sorted({(path, qualified) for path, qualified, _ in rows})
    if len(distinct) > 1:
        choices = ", ".join(f"{path}:{qualified}" for path, qualified in distinct[:10])
        raise ValidationError(f"name: {name!r} matches {len(distinct)} units; give one of: {choices}")
    return rows[0]


def _lines_at(repo: Repo, commit: bytes, file_path: str, qualified_name: str, language: str) -> tuple[int, int]:
    """Where the unit is in the committed file (the working tree may have moved it)."""
    from learnmem.code.parse import parse_source  # tree-sitter loads only when a unit is asked for

    try:
        _, sha = repo[repo[commit].tree].lookup_path(repo.object_store.__getitem__,
                                                     repository.encode_path(file_path))
    except KeyError:
        raise NotFoundError(f"name: {file_path!r} is not committed yet, so it has no history") from None
    parsed = parse_source(file_path, repo[sha].as_raw_string(), language)
    for unit in parsed.units:
        if unit.qualified_name == qualified_name:
            return unit.start_line, unit.end_line
    raise NotFoundError(f"name: {qualified_name!r} exists only in the working tree of {file_path!r}, not in HEAD")
