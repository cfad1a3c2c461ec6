"""Questions answered from the indexed history alone: a file's history, churn hotspots, authors' commits."""

from __future__ import annotations

from datetime import timedelta

from learnmem.storage import sql
from learnmem import validate
from learnmem.errors import NotFoundError, ValidationError
from learnmem.git import projects
from learnmem.git.records import FileHistoryEntry, Hotspot
from learnmem.storage.store import Store, iso, utc_now

MAX_LIMIT = 1000


def file_history(store: Store, path: str, limit: int | None = 20, project: str | None = None) -> list[FileHistoryEntry]:
    """The commits that changed `path`, newest first, following renames back to where the file began.

    Merge commits appear only where the merge itself changed the file (not where it brought in a
    branch's change: that branch's own commits are listed). Raises NotFoundError when no indexed
    commit ever touched the path."""
    if limit is not None:
        validate.integer("limit", limit, low=1, high=MAX_LIMIT)
    project, root = projects.resolve(store, project)
    wanted = projects.relative_path(path, root)
    entries: list[FileHistoryEntry] = []
    current, before = wanted, None  # before: (committed_at, position) of the rename being followed
    seen_paths = set()
    with store.read() as con:
        while current is not None and current not in seen_paths:
            seen_paths.add(current)
            rows = con.execute(sql.query("path_changes"), {"project": project, "path": current}).fetchall()
            following = None
            for (sha, row_path, old_path, change_type, insertions, deletions, is_binary, author, author_email,
                 authored_at, committed_at, subject, _is_merge, position) in rows:
                if before is not None and (committed_at, position) >= before:
                    continue
                entries.append(FileHistoryEntry(
                    sha=sha, path=row_path, old_path=old_path, change_type=change_type, insertions=insertions,
                    deletions=deletions, is_binary=is_binary, author=author, author_email=author_email,
                    authored_at=iso(authored_at), committed_at=iso(committed_at), subject=subject,
                ))
                if change_type == "rename":
                    following, before = old_path, (committed_at, position)
                    break
            current = following
    if not entries:
        raise NotFoundError(
            f"path: no indexed commit of project {project!r} touched {wanted!r} "
            "(paths are relative to the repository root; is the history indexed?)"
        )
    return entries[:limit] if limit is not None else entries


def churn_hotspots(store: Store, days: int = 90, limit: int = 10, as_of=None, project: str | None = None) -> list[Hotspot]:
    """Files ranked by how many commits changed them in the `days` before `as_of` (default: now), then by lines.

    Merge commits are left out: their first-parent diffs repeat the merged branch's changes."""
    validate.integer("days", days, low=1, high=365_000)
    validate.integer("limit", limit, low=1, high=MAX_LIMIT)
    end = validate.moment("as_of", as_of) or utc_now()
    project, _ = projects.resolve(store, project)
    try:
        start = end - timedelta(days=days)
    except OverflowError:
        raise ValidationError(f"as_of: {days} days before {end:%Y-%m-%d} is before the year 1") from None
    params = {"project": project, "start": start, "end": end, "limit": limit}
    with store.read() as con:
        rows = con.execute(sql.query("churn_hotspots"), params).fetchall()
    return [
        Hotspot(path=path, commits=commits, insertions=int(insertions), deletions=int(deletions), authors=authors,
                last_change=iso(last_change))
        for path, commits, insertions, deletions, authors, last_change in rows
    ]
