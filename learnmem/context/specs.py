"""Active specs: the specs a project is working on now, read from a folder of the repository.

A project that plans its work in specs keeps the active ones in one folder (default `docs/spec/active/`,
relative to the project root; `LEARNMEM_ACTIVE_SPECS_DIR` names another, relative or absolute). Each
folder in it, or each document (.md, .markdown, .rst, .txt, .adoc), is one active spec; its slug is the
name (a document's without the suffix) lowercased, other characters than letters, digits, `.`, `_` and `-`
made `-`. READMEs and index files describe the folder, not a spec; hidden entries and symbolic links are
skipped (learnmem never follows links out of the tree).

SessionStart injects the newest active spec's decisions, blockers and learnings (memories stored with
that `spec`); with none active, recent patterns. Standard library only: it runs inside a hook process.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path

from learnmem.validate import MAX_SLUG_CHARS

DEFAULT_ACTIVE_DIR = "docs/spec/active"
ACTIVE_DIR_VARIABLE = "LEARNMEM_ACTIVE_SPECS_DIR"
SPEC_DOCUMENTS = (".md", ".markdown", ".rst", ".txt", ".adoc")
_NOT_SPECS = {"readme", "index", "template", "_template"}
_OUTSIDE_SLUG = re.compile(r"[^a-z0-9._-]+")


def active_specs_dir(root: Path, environ: Mapping[str, str] | None = None) -> Path:
    """The folder of active specs: $LEARNMEM_ACTIVE_SPECS_DIR (relative to `root` unless absolute), else
    `root`/docs/spec/active."""
    environ = os.environ if environ is None else environ
    return root / (environ.get(ACTIVE_DIR_VARIABLE) or DEFAULT_ACTIVE_DIR)


def slug_of(name: str) -> str | None:
    """A spec's slug from a folder or file name ("Checkout V2" -> "checkout-v2"); None when nothing is left."""
    slug = _OUTSIDE_SLUG.sub("-", name.lower()).strip("-._")
    return slug[:MAX_SLUG_CHARS] or None


def active_specs(root: Path, environ: Mapping[str, str] | None = None) -> list[str]:
    """The slugs of the active specs under `root`, the most recently changed first; [] when the folder is
    missing or holds none."""
    folder = active_specs_dir(root, environ)
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    found: dict[str, float] = {}
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode):
            name = entry.name
        elif stat.S_ISREG(info.st_mode) and Path(entry.name).suffix.lower() in SPEC_DOCUMENTS:
            name = Path(entry.name).stem
        else:
            continue  # links, other files
        slug = slug_of(name)
        if slug is not None and slug not in _NOT_SPECS:
            found[slug] = max(found.get(slug, 0.0), info.st_mtime)
    return sorted(found, key=lambda slug: (-found[slug], slug))
