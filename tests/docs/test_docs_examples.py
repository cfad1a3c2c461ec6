"""The examples of README.md and docs/ are collected and run by conftest.py (sybil); this module checks that
none of them escapes: every fenced block is in a language that runs, or in one that is only shown."""

from __future__ import annotations

import re

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]  # as conftest.py collects them

RUN = {"python", "sh", "console"}
SHOWN = {"text", "json", "yaml", "toml", "sql", "markdown", "ini", ""}
FENCE = re.compile(r"^```(\S*)", re.MULTILINE)


def test_every_block_runs_or_is_only_shown() -> None:
    odd = {}
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        languages = FENCE.findall(text)[::2]  # opening fences
        for language in languages:
            if language not in RUN | SHOWN:
                odd.setdefault(page.name, []).append(language)
    assert not odd, f"code blocks in a language that neither runs nor is listed as shown only: {odd}"
