"""Which indexed repository a call is about, and paths relative to its root."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from learnmem.storage import sql
from learnmem import validate
from learnmem.errors import NotFoundError, ValidationError
from learnmem.storage.store import Store


def resolve(store: Store, project: str | None) -> tuple[str, Path]:
    """(project, repository root) of `project`, or of the only indexed repository when None."""
    with store.read() as con:
        indexed = con.execute(sql.query("git_repo_list")).fetchall()
    if project is not None:
        validate.text("project", project, max_chars=200)
        for name, root in indexed:
            if name == project:
                return name, Path(root)
        known = ", ".join(name for name, _ in indexed) or "none yet"
        raise NotFoundError(f"project: {project!r} has no indexed git history (indexed: {known}); run index_commits")
    if not indexed:
        raise NotFoundError("no git history is indexed in this file yet: run index_commits (learnmem git index) first")
    if len(indexed) > 1:
        names = ", ".join(name for name, _ in indexed)
        raise ValidationError(f"project: several repositories are indexed ({names}); name one")
    name, root = indexed[0]
    return name, Path(root)


def relative_path(path, root: Path) -> str:
    """`path` as the repository stores it: relative to the root, POSIX separators, no leading './'."""
    text = validate.text("path", path, max_chars=4096).strip()
    candidate = Path(text).expanduser()
    if candidate.is_absolute():
        try:
            text = candidate.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            raise ValidationError(f"path: {str(path)!r} is outside the repository at {root}") from None
    if os.sep == "\\":  # a Windows path; elsewhere a backslash is an ordinary character of a git path
        text = text.replace("\\", "/")
    parts = [part for part in PurePosixPath(text).parts if part not in (".", "")]
    if not parts or ".." in parts:
        raise ValidationError(f"path: {str(path)!r} is not a file path inside the repository (relative to {root})")
    return "/".join(parts)
