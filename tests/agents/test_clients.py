"""The real clients on the files `learnmem init` writes: Claude Code, opencode and the MCP Inspector CLI.

Installed by `make setup-test` from tests/clients/ (npm, pinned). Each runs as a user's would, from the project,
with a HOME of its own and PATH=/usr/bin:/bin (no virtual environment, no learnmem on it): the launcher finds
learnmem through what init recorded. No API key is needed: these commands only start and ask the MCP server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from learnmem.embedding.embed import models_cache_dir

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "tests" / "clients" / "node_modules" / ".bin"
VENV_BIN = Path(sys.executable).parent
TIMEOUT_S = 180
# The budget for the default tool list, measured by the Inspector as a client receives it.
LEAN_BUDGET_BYTES = 12_000

if not (CLIENTS / "claude").exists():
    if os.environ.get("CI"):
        raise RuntimeError(f"the MCP clients are not installed in {CLIENTS.parent}: `make setup-test` installs them")
    pytest.skip("the MCP clients are not installed (make setup-test installs them in tests/clients/)",
                allow_module_level=True)


@pytest.fixture
def project(git_project: Path) -> Path:
    return git_project


def _env(home: Path) -> dict[str, str]:
    home.mkdir(exist_ok=True)
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "LEARNMEM_CACHE_DIR": str(models_cache_dir().parent),
            "NO_COLOR": "1", "TERM": "dumb"}


def _init(project: Path, *flags: str) -> None:
    env = {key: value for key, value in os.environ.items() if key != "LEARNMEM_DB"}
    # --no-index: these projects hold no code; the background index is tested in test_setup.py.
    done = subprocess.run([str(VENV_BIN / "learnmem"), "init", "--no-index", *flags], cwd=project, env=env,
                          capture_output=True,
                          text=True, timeout=TIMEOUT_S)
    assert done.returncode == 0, done.stderr


def _client(project: Path, home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CLIENTS / argv[0]), *argv[1:]], cwd=project, env=_env(home), capture_output=True,
                          text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)


def _inspector(project: Path, home: Path, *args: str) -> dict:
    done = _client(project, home, "mcp-inspector-cli", "--cli", "sh", ".claude/learnmem", "mcp", *args)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def test_claude_code_connects_to_the_server_init_wrote_once_it_is_approved(project: Path, tmp_path: Path) -> None:
    _init(project, "--claude")
    pending = _client(project, tmp_path / "home", "claude", "mcp", "list")
    assert "learnmem:" in pending.stdout and "Pending approval" in pending.stdout, pending.stdout + pending.stderr
    _init(project, "--claude", "--approve")  # what a user accepting the prompt records
    listed = _client(project, tmp_path / "home", "claude", "mcp", "list")
    assert listed.returncode == 0, listed.stderr
    line = next(line for line in listed.stdout.splitlines() if line.startswith("learnmem:"))
    assert "Connected" in line, listed.stdout


def test_opencode_connects_to_the_server_init_wrote(project: Path, tmp_path: Path) -> None:
    _init(project, "--opencode")
    listed = _client(project, tmp_path / "home", "opencode", "mcp", "list")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    text = listed.stdout + listed.stderr
    assert "learnmem" in text and "connected" in text.lower() and "failed" not in text.lower(), text


def test_the_inspector_lists_the_lean_tools_and_drives_a_session(project: Path, tmp_path: Path) -> None:
    _init(project, "--claude")
    home = tmp_path / "home"
    listed = _inspector(project, home, "--method", "tools/list")
    names = [tool["name"] for tool in listed["tools"]]
    assert {"store_memory", "retrieve_memories", "start_ghap", "resolve_ghap", "memories", "code"} <= set(names)
    assert len(json.dumps(listed, separators=(",", ":")).encode()) <= LEAN_BUDGET_BYTES

    def call(tool: str, **arguments: str) -> dict:
        args = [part for name, value in arguments.items() for part in ("--tool-arg", f"{name}={value}")]
        answer = _inspector(project, home, "--method", "tools/call", "--tool-name", tool, *args)
        assert answer.get("isError") is not True, answer
        return answer["structuredContent"]

    stored = call("store_memory", content="Releases are cut from main on Thursdays", category="fact")
    found = call("retrieve_memories", query="when are releases cut")
    assert found["results"][0]["id"] == stored["id"]
    # A GHAP cycle. (Each Inspector call is a new server: the entry lives in the file between them.)
    started = call("start_ghap", domain="debugging", strategy="read-the-error", goal="Fix the flaky login test",
                   hypothesis="The test shares a temp dir", action="Give it its own", prediction="It passes 20 times")
    resolved = call("resolve_ghap", status="confirmed", result="It passed 20 times in a row")
    assert resolved["id"] == started["id"] and resolved["status"] == "confirmed"
    (project / "app.py").write_text("def checkout(cart):\n    return sum(item.price for item in cart)\n")
    indexed = call("code", action="index", args=json.dumps({"directory": str(project)}))
    assert indexed["status"] == "done" and indexed["units"] >= 2, indexed  # app.py (and .mcp.json: JSON keys)
