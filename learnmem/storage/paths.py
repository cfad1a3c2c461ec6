"""Where a project's learnmem file lives. Standard library only: the hooks and `learnmem init --claude`
find the file without importing DuckDB."""

from __future__ import annotations

import os
from pathlib import Path

from learnmem.errors import ValidationError


LAKE_SCHEME = "ducklake:"  # a lake's name starts so (learnmem.storage.lake); anything else is a file's path


def names_lake(target: object) -> bool:
    """Whether `target` (a --db value, $LEARNMEM_DB) names a lake rather than a file."""
    return isinstance(target, str) and target.startswith(LAKE_SCHEME)


def project_root(start: Path) -> Path:
    """The git top level containing `start`, else `start` itself."""
    start = Path(start).resolve()
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return start


def database_path(directory: str | os.PathLike[str] = ".") -> Path:
    """`$LEARNMEM_DB`, else `<project root of directory>/.learnmem/learnmem.duckdb` (not created here). A lake in
    $LEARNMEM_DB is no file: ValidationError (learnmem.open takes it; `learnmem init` makes files only)."""
    override = os.environ.get("LEARNMEM_DB")
    if names_lake(override):
        raise ValidationError(f"LEARNMEM_DB: names a lake ({override.split(' ')[0]} ...), not a file; a lake's project "
                              "is made when it is first opened (e.g. `learnmem info`); unset LEARNMEM_DB to init a file")
    if override:
        return Path(override).expanduser().absolute()
    return project_root(Path(directory)) / ".learnmem" / "learnmem.duckdb"


def default_path() -> Path:
    """The file for the working directory: database_path(cwd)."""
    return database_path(Path.cwd())


def learnmem_folder_ignored(root: Path) -> bool | None:
    """Whether `<root>/.gitignore` ignores `.learnmem/` already: True, False, or None when there is no file."""
    gitignore = root / ".gitignore"
    if not gitignore.exists():
        return None
    text = gitignore.read_text(encoding="utf-8")
    return any(line.strip().rstrip("/") in (".learnmem", "/.learnmem") for line in text.splitlines())


def ignore_learnmem_folder(root: Path) -> None:
    """Add `.learnmem/` to `<root>/.gitignore` (made if missing) unless a line ignores it already."""
    gitignore = root / ".gitignore"
    if learnmem_folder_ignored(root):
        return
    text = gitignore.read_text(encoding="utf-8") if gitignore.exists() else ""
    prefix = "" if not text or text.endswith("\n") else "\n"  # never glue the entry onto the last line
    with gitignore.open("a", encoding="utf-8") as handle:
        handle.write(f"{prefix}.learnmem/\n")
