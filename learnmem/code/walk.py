"""Which files of a tree get indexed: by extension, minus .gitignore'd and vendored or generated folders."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pathspec

# Folders no one wants in a code index: dependencies, build output, caches, and the agents' own files
# (`learnmem init` writes .claude/ and .opencode/; .learnmem/ holds the memory file).
SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", "dist", "build", "__pycache__",
     ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".nox", ".hypothesis", ".learnmem",
     "site-packages", ".idea", ".vscode", "target", ".next", "coverage", ".claude", ".opencode"}
)
# A Python environment is known by what it holds, not by its name: `env/` is as often a project's own
# package (axios's lib/env/) as a virtualenv, and a virtualenv may be called anything.
ENVIRONMENT_MARKERS = ("pyvenv.cfg", "conda-meta")


def is_environment(folder: Path) -> bool:
    """Whether `folder` is a virtualenv (its pyvenv.cfg) or a conda environment (its conda-meta/)."""
    return any(os.path.lexists(folder / marker) for marker in ENVIRONMENT_MARKERS)


def read_no_follow(path: Path) -> bytes:
    """The bytes of `path`, refusing a symbolic link (OSError ELOOP), even one swapped in after the walk."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(descriptor, "rb") as handle:
        return handle.read()


def _ignore_spec(folder: Path) -> pathspec.GitIgnoreSpec | None:
    try:  # a symlinked .gitignore is not followed, as git (2.32+) does not
        lines = read_no_follow(folder / ".gitignore").decode("utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return pathspec.GitIgnoreSpec.from_lines(lines)


def candidate_files(root: Path, recursive: bool = True) -> Iterator[str]:
    """Relative POSIX paths of the regular files under `root` that are not ignored.

    Symbolic links are never followed, to folders (no loops) or to files (a link can point out of the
    indexed root: what it names is not this tree's code); `.gitignore` files are honoured at every
    level, each for the paths below its own folder.
    """
    specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        here = Path(folder)
        relative_dir = here.relative_to(root).as_posix()
        relative_dir = "" if relative_dir == "." else relative_dir
        # Drop the specs of folders we have left, then add this folder's own.
        specs = [(base, spec) for base, spec in specs if relative_dir == base or relative_dir.startswith(base + "/") or base == ""]
        spec = _ignore_spec(here)
        if spec is not None:
            specs.append((relative_dir, spec))

        def ignored(relative: str, is_dir: bool) -> bool:
            # As git does: the deepest .gitignore with a pattern for the path decides ("!keep.py" re-includes).
            for base, spec in reversed(specs):
                inside = relative[len(base) + 1 :] if base else relative
                verdict = spec.check_file(inside + ("/" if is_dir else "")).include
                if verdict is not None:
                    return verdict
            return False

        kept = []
        for name in sorted(dirs):
            relative = f"{relative_dir}/{name}" if relative_dir else name
            if recursive and name not in SKIPPED_DIRS and not ignored(relative, True) and not (here / name).is_symlink() \
                    and not is_environment(here / name):
                kept.append(name)
        dirs[:] = kept
        for name in sorted(files):
            relative = f"{relative_dir}/{name}" if relative_dir else name
            path = here / name
            if not ignored(relative, False) and path.is_file() and not path.is_symlink():
                yield relative
