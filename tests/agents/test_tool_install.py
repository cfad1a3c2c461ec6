"""A user's install: `uv tool install .` from a clone puts `learnmem` and `learnmem-mcp` in a tool folder on
PATH, and a project set up from there works with nothing else of learnmem's on PATH (README, Install).

The install is real: uv builds the clone and installs it and its dependencies from PyPI into a temporary tool
folder (uv's cache, kept between runs, makes a second run take seconds).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from learnmem.embedding.embed import models_cache_dir

ROOT = Path(__file__).resolve().parents[2]
UV = shutil.which("uv", path=str(Path(sys.executable).parent))
SYSTEM_PATH = "/usr/bin:/bin"
TIMEOUT_S = 900

pytestmark = pytest.mark.skipif(UV is None, reason="needs uv (`make setup-test` installs it)")


def test_uv_tool_install_from_a_clone_then_init_and_hooks(tmp_path: Path) -> None:
    clone = tmp_path / "learnmem"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=TIMEOUT_S)
    tools, bin_dir, home = tmp_path / "tools", tmp_path / "bin", tmp_path / "home"
    home.mkdir()
    # The user's environment (certificates, proxies) without the venv: no VIRTUAL_ENV, and PATH set below.
    inherited = {key: value for key, value in os.environ.items()
                 if key not in ("VIRTUAL_ENV", "PYTHONPATH", "LEARNMEM_DB", "CLAUDE_PROJECT_DIR")}
    base = {**inherited, "HOME": str(home), "UV_TOOL_DIR": str(tools), "UV_TOOL_BIN_DIR": str(bin_dir),
            "UV_CACHE_DIR": os.environ.get("UV_CACHE_DIR") or str(Path("~/.cache/uv").expanduser()),
            "UV_PYTHON_DOWNLOADS": "never", "LEARNMEM_CACHE_DIR": str(models_cache_dir().parent)}
    done = subprocess.run([UV, "tool", "install", "--python", sys.executable, str(clone)], capture_output=True,
                          text=True, env={**base, "PATH": SYSTEM_PATH}, timeout=TIMEOUT_S)
    assert done.returncode == 0, done.stderr
    assert {"learnmem", "learnmem-mcp"} <= {path.name for path in bin_dir.iterdir()}

    # The user's shell: the tool folder on PATH, no venv.
    env = {**base, "PATH": f"{bin_dir}:{SYSTEM_PATH}"}
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    for args in (["init", "--claude", "--no-index"],
                 ["remember", "Releases are tagged from the main branch only", "--category", "convention"]):
        done = subprocess.run(["learnmem", *args], cwd=project, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT_S)
        assert done.returncode == 0, done.stderr
    recorded = Path((project / ".learnmem" / "scripts-path").read_text().strip())
    assert recorded.is_relative_to(tools) and (recorded / "learnmem").is_file()  # uv's environment for the tool

    # A hook as Claude Code runs it, from an environment that has only the system's PATH: the launcher finds
    # the tool folder that init recorded.
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    event = {"session_id": "s1", "cwd": str(project), "hook_event_name": "SessionStart", "source": "startup"}
    done = subprocess.run(["sh", "-c", command], input=json.dumps(event), cwd=project, capture_output=True,
                          text=True, env={**base, "PATH": SYSTEM_PATH, "CLAUDE_PROJECT_DIR": str(project)},
                          timeout=TIMEOUT_S)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "Releases are tagged from the main branch only" in done.stdout
    where = subprocess.run(["sh", str(project / ".claude" / "learnmem"), "where"], cwd=project, capture_output=True,
                           text=True, env={**base, "PATH": SYSTEM_PATH}, timeout=TIMEOUT_S)
    assert where.stdout.strip() == str(recorded / "learnmem")
