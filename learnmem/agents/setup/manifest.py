"""`.learnmem/agent_setup.json`: the record of what `learnmem init --claude / --opencode` created.

It records what `install` created (files, folders, JSON keys such as "hooks", the blank line put
before the CLAUDE.md / AGENTS.md section) so that `uninstall` removes exactly that: a container or
file is removed only if we created it and it is empty once ours is gone. Without that record
(another clone, `.learnmem/` deleted) `uninstall` removes a container or file that became empty by
removing ours.

Standard library only: `learnmem init --uninstall` must not load DuckDB.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

MANIFEST = ".learnmem/agent_setup.json"


class Manifest:
    """`.learnmem/agent_setup.json`: what install created, so that uninstall removes exactly that."""

    def __init__(self, data: dict[str, Any] | None) -> None:
        self.present = isinstance(data, dict)
        data = data if isinstance(data, dict) else {}
        self.files: set[str] = set(data.get("created_files", []))
        self.dirs: set[str] = set(data.get("created_dirs", []))
        self.keys: dict[str, set[tuple[str, ...]]] = {
            rel: {tuple(path.split("/")) for path in paths} for rel, paths in data.get("created_keys", {}).items()
        }
        self.separators: dict[str, str] = dict(data.get("separators", {}))

    @classmethod
    def load(cls, path: Path) -> Manifest:
        try:
            return cls(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError, AttributeError):
            return cls(None)  # missing or damaged: uninstall falls back on "remove what became empty"

    def created_key(self, rel: str, key: tuple[str, ...]) -> None:
        self.keys.setdefault(rel, set()).add(key)

    def may_remove_key(self, rel: str, key: tuple[str, ...]) -> bool:
        return key in self.keys.get(rel, set()) if self.present else True

    def may_remove_file(self, rel: str) -> bool:
        return rel in self.files if self.present else True

    def forget(self, rels: Iterable[str]) -> None:
        for rel in rels:
            self.files.discard(rel)
            self.keys.pop(rel, None)
            self.separators.pop(rel, None)
            self.dirs.discard(rel)

    def record(self, *, keep_empty: bool) -> dict[str, Any] | None:
        """The file's JSON value; None (delete the file) when it records nothing, unless `keep_empty`."""
        if not keep_empty and not (self.files or self.dirs or any(self.keys.values()) or self.separators):
            return None
        data = {
            "about": "What `learnmem init --claude/--opencode` created; `learnmem init --uninstall` reads it.",
            "created_files": sorted(self.files),
            "created_dirs": sorted(self.dirs),
            # JSON keys as paths ("hooks/SessionStart"): Claude Code's event names hold no "/".
            "created_keys": {rel: sorted("/".join(key) for key in keys)
                             for rel, keys in sorted(self.keys.items()) if keys},
            "separators": dict(sorted(self.separators.items())),
        }
        return data


__all__ = ["MANIFEST", "Manifest"]
