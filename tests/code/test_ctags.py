"""Definitions against Universal Ctags on real third-party code that the set-up installs anyway: JavaScript and
TypeScript packages of the MCP clients (tests/clients/node_modules) and Python packages of the venv.

bench/code/ctags.py does the comparison (and, with `python -m bench.code.ctags`, the same on any project:
bench/code/RESULTS.md has Go, Rust, Java and Lua). A language below 0.97 recall, or a file where two units
share a qualified name, fails.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.code.ctags import compare

ROOT = Path(__file__).resolve().parents[2]
NODE = ROOT / "tests" / "clients" / "node_modules"
SITE = Path(next(p for p in sys.path if p.endswith("site-packages")))
PROJECTS = [NODE / "express", NODE / "commander", NODE / "diff", NODE / "zod", SITE / "click", SITE / "jinja2"]


def _universal_ctags() -> bool:
    if shutil.which("ctags") is None:
        return False
    version = subprocess.run(["ctags", "--version"], check=False, capture_output=True, text=True).stdout
    return "Universal Ctags" in version


pytestmark = pytest.mark.skipif(not _universal_ctags(), reason="needs Universal Ctags (make setup-test installs it)")


@pytest.mark.parametrize("project", PROJECTS, ids=lambda path: path.name)
def test_every_definition_ctags_finds_is_a_unit_with_a_name_unique_in_its_file(project):
    if not project.is_dir():
        pytest.fail(f"{project} is missing: the set-up installs it (make setup-test)")
    result = compare(project)
    assert result, f"ctags found no definition in {project}"
    for language, entry in result.items():
        assert entry["recall"] >= 0.97, (language, entry["recall"], entry["missed"][:10])
        assert not entry["duplicated"], (language, entry["duplicated"])
