"""The run behind `learnmem init --claude / --opencode / --uninstall`: plan every change, then write.

Everything is planned (every file read and parsed) before anything is written, so a malformed
settings file stops the run with an error naming it and nothing changes. Writes are atomic.
`Plan` reads the project's files (its own pending writes first), collects the writes and one `Action`
per file touched, and applies them all at the end, unless a dry run; `SetupReport` is what the run
returns. Folders are removed only when the run leaves them empty and they are ours (see
`learnmem.agents.setup.manifest`).

Standard library only: `learnmem init --uninstall` must not load DuckDB.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from learnmem.agents.setup.manifest import MANIFEST, Manifest
from learnmem.errors import LearnmemError

TARGETS = ("claude", "opencode")


@dataclass(frozen=True)
class Action:
    """One thing done (or, in a dry run, to be done) to one file.

    action: created, updated, removed (the file or our part of it), unchanged, or kept (something
    that looks like ours but was changed by the user, or is in our way: left as it is).
    """

    path: str  # relative to the project root, with forward slashes
    action: str
    detail: str


@dataclass(frozen=True)
class SetupReport:
    """What `install` / `uninstall` did: the project root, the targets, and one action per file touched."""

    root: str
    targets: tuple[str, ...]
    dry_run: bool
    changed: bool
    actions: tuple[Action, ...]



class Plan:
    """Reads files, collects the writes and actions, and applies them all at the end (unless a dry run)."""

    def __init__(self, root: Path, dry_run: bool) -> None:
        self.root = root
        self.dry_run = dry_run
        self.writes: dict[str, str | None] = {}  # rel path -> new text, None = delete
        self.dirs_to_remove: list[str] = []
        self.actions: list[Action] = []
        self.manifest = Manifest.load(root / MANIFEST)

    # ---- files

    def path(self, rel: str) -> Path:
        return self.root / rel

    def exists(self, rel: str) -> bool:
        if rel in self.writes:
            return self.writes[rel] is not None
        return self.path(rel).is_file()

    def read(self, rel: str) -> str | None:
        """The file's text (pending writes first), None when it does not exist."""
        if rel in self.writes:
            return self.writes[rel]
        path = self.path(rel)
        if not path.is_file():
            if path.exists():
                raise LearnmemError(f"{rel}: exists but is not a file; move it away and run `learnmem init` again")
            return None
        try:
            return path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LearnmemError(f"{rel}: not UTF-8 text ({exc.reason} at byte {exc.start}); "
                                "nothing was written") from None

    def write(self, rel: str, text: str, action: str, detail: str) -> None:
        self.writes[rel] = text
        self.actions.append(Action(rel, action, detail))

    def delete(self, rel: str, detail: str) -> None:
        self.writes[rel] = None
        self.actions.append(Action(rel, "removed", detail))

    def note(self, rel: str, action: str, detail: str) -> None:
        self.actions.append(Action(rel, action, detail))

    def read_json(self, rel: str) -> dict[str, Any] | None:
        """A JSON object file, None when missing; an error naming the file when it is not a JSON object."""
        text = self.read(rel)
        if text is None:
            return None
        if not text.strip():
            return {}
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LearnmemError(
                f"{rel}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); fix it and run "
                "`learnmem init` again (nothing was written)"
            ) from None
        if not isinstance(value, dict):
            raise LearnmemError(f"{rel}: expected a JSON object at the top level, found {json_type(value)}; "
                                "nothing was written")
        return value

    # ---- folders

    def record_created_dirs(self) -> None:
        """Remember the folders the pending writes will create, so that uninstall may remove them; not the
        manifest's own folder, `.learnmem/`, which is the database's."""
        for rel, text in self.writes.items():
            if text is None:
                continue
            parent = Path(rel).parent
            while parent not in (Path("."), Path(MANIFEST).parent) and not self.path(parent.as_posix()).exists():
                self.manifest.dirs.add(parent.as_posix())
                parent = parent.parent

    def remove_empty_dirs(self, rels: Iterable[str]) -> None:
        """Remove these folders (give the deepest first) when the run leaves them empty and they are ours:
        created by install (the manifest says so), or, without a manifest, emptied by this run."""
        for rel in rels:
            folder = self.path(rel)
            if not folder.is_dir():
                continue
            gone = {key for key, text in self.writes.items() if text is None} | set(self.dirs_to_remove)
            if any(f"{rel}/{child.name}" not in gone for child in folder.iterdir()):
                continue
            emptied_now = any(key.startswith(f"{rel}/") for key in gone)
            if rel in self.manifest.dirs if self.manifest.present else emptied_now:
                self.dirs_to_remove.append(rel)
                self.actions.append(Action(f"{rel}/", "removed", "empty folder"))

    # ---- manifest

    def forget(self, rels: Iterable[str]) -> None:
        """Drop what the manifest says about these paths (after uninstalling them)."""
        self.manifest.forget(rels)

    def finish(self, targets: Sequence[str], *, keep_record: bool) -> SetupReport:
        """Write the manifest (install keeps it even when empty: "created nothing" is worth knowing;
        uninstall deletes it once it records nothing), then apply every write unless a dry run."""
        record = self.manifest.record(keep_empty=keep_record)
        manifest_text = None if record is None else dump_json(record)
        if manifest_text != self.read(MANIFEST):
            self.writes[MANIFEST] = manifest_text
        changed = any(a.action in ("created", "updated", "removed") for a in self.actions)
        if not self.dry_run:
            self._apply()
        return SetupReport(str(self.root), tuple(targets), self.dry_run, changed, tuple(self.actions))

    def _apply(self) -> None:
        for rel, text in self.writes.items():
            path = self.path(rel)
            if text is None:
                if path.is_file():
                    path.unlink()
            else:
                _atomic_write(path, text)
        for rel in self.dirs_to_remove:
            folder = self.path(rel)
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()


def dump_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def json_type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _atomic_write(path: Path, text: str) -> None:
    """Write via a temporary file in the same folder and rename it over: never a half-written settings file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False)
    try:
        with handle:
            handle.write(text.encode("utf-8"))
        if path.exists():
            shutil.copymode(path, handle.name)
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


__all__ = ["TARGETS", "Action", "Plan", "SetupReport", "dump_json", "json_type"]
