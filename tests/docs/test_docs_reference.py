"""The generated reference pages (docs/cli.md, docs/mcp-tools.md) are what docs/gen_reference.py writes now."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REGENERATE = ".venv/bin/python docs/gen_reference.py"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_reference", ROOT / "docs" / "gen_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATOR = _generator()


@pytest.mark.parametrize("name", sorted(GENERATOR.PAGES))
def test_reference_page_is_current(name: str) -> None:
    committed = (ROOT / "docs" / name).read_text(encoding="utf-8")
    assert committed == GENERATOR.PAGES[name](), f"docs/{name} is out of date: run `{REGENERATE}`"
