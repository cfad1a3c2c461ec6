"""Fixtures shared by the agent tests."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest


@pytest.fixture
def git_project(tmp_path: Path) -> Path:
    """An empty git repository, as a user's project before `learnmem init`."""
    folder = tmp_path / "project"
    folder.mkdir()
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder
