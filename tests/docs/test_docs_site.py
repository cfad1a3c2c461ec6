"""The manual builds as a site, and README.md stays a short front door.

- `mkdocs build --strict` passes (mkdocs.yml's `validation` makes a broken link or anchor, a page missing
  from nav, or a nav entry without its page a warning, and --strict a failure);
- README.md (read on a git host, outside the site) is at most 2,000 words and its relative links name files
  that exist;
- the repository paths (`bench/RESULTS.md`, `learnmem/storage/store.py`) and the dotted names
  (`learnmem.memory.dedupe.is_restatement`) the pages name in code spans exist, so a moved module shows here.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README_MAX_WORDS = 2000
LINK = re.compile(r"\]\(([^)\s]+)\)")
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PATH_SPAN = re.compile(r"`((?:learnmem|mcp_adapter|tests|bench|sql|notebooks|examples)/[\w/.-]*)`")
DOTTED_SPAN = re.compile(r"`((?:learnmem|mcp_adapter)(?:\.\w+)+)(?:\([^`]*\))?`")
NOT_PATHS = {"tests/e2e"}  # an identifier in an example sentence (memories.md, restatements), not a path


def test_mkdocs_build_strict(tmp_path: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
         "--site-dir", str(tmp_path / "site")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    assert (tmp_path / "site" / "index.html").exists()


def test_readme_is_short() -> None:
    words = len((ROOT / "README.md").read_text(encoding="utf-8").split())  # as `wc -w` counts
    assert words <= README_MAX_WORDS, f"README.md has {words} words (at most {README_MAX_WORDS}): move detail to docs/"


def test_readme_links_resolve() -> None:
    broken = []
    for target in LINK.findall((ROOT / "README.md").read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a URL, or an anchor of the README itself
        if not (ROOT / target.split("#")[0]).exists():
            broken.append(target)
    assert not broken, f"README.md links to files that do not exist: {broken}"


def _resolves(dotted: str) -> bool:
    """Whether `dotted` names a module, or an attribute of the longest module prefix of it."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                found = getattr(found, name)
        except AttributeError:
            return False
        return True
    return False


def test_named_paths_and_modules_exist() -> None:
    missing = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        missing += [f"{page.name}: {path}" for path in PATH_SPAN.findall(text)
                    if path not in NOT_PATHS and not (ROOT / path).exists()]
        missing += [f"{page.name}: {name}" for name in DOTTED_SPAN.findall(text) if not _resolves(name)]
    assert not missing, f"the pages name paths or modules that do not exist: {missing}"
