"""The files `learnmem init` writes work wherever the agent starts (learnmem.agents.setup.launcher).

Run as the agents run them: the hook commands of `.claude/settings.json` through `sh -c` with Claude Code's
$CLAUDE_PROJECT_DIR, the server of `.mcp.json` (its ${VAR:-default} expanded as Claude Code does) and of
`opencode.json`, each from the project, with a PATH that does not hold learnmem's virtual environment and a
HOME of its own. A teammate's clone (the committed files, no `.learnmem/`, no learnmem anywhere) gets one
clear message at the session's start, and nothing else fails loudly.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from learnmem.agents import hook_socket
from learnmem.embedding.embed import models_cache_dir

VENV_BIN = Path(sys.executable).parent
BARE_PATH = "/usr/bin:/bin"  # no venv, no ~/.local/bin
EVENT = {"session_id": "s-1", "transcript_path": "/dev/null", "hook_event_name": "SessionStart", "source": "startup"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}
TIMEOUT_S = 120


def _bare_env(home: Path, **extra: str) -> dict[str, str]:
    """What an agent started from a new terminal or an IDE has: no venv on PATH, nothing of learnmem's."""
    assert shutil.which("learnmem", path=BARE_PATH) is None
    return {"PATH": BARE_PATH, "HOME": str(home), "LEARNMEM_CACHE_DIR": str(models_cache_dir().parent), **extra}


def _project(tmp_path: Path, name: str = "project") -> Path:
    project = tmp_path / name
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    return project


def _learnmem(project: Path, *args: str) -> None:
    """The venv's `learnmem`, as a user runs it with the venv active."""
    env = {key: value for key, value in os.environ.items() if key != "LEARNMEM_DB"}
    done = subprocess.run([str(VENV_BIN / "learnmem"), *args], cwd=project, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT_S)
    assert done.returncode == 0, done.stderr


def _init(project: Path, *flags: str) -> None:
    _learnmem(project, "init", "--no-index", *flags)  # the background index is tested in test_setup.py


def _hook_commands(project: Path) -> dict[str, str]:
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    return {event: group["hooks"][0]["command"] for event, groups in settings["hooks"].items() for group in groups}


def _run_hook(project: Path, command: str, event: dict, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A hook as Claude Code runs it: the command line through a shell, the event's JSON on stdin."""
    return subprocess.run(["sh", "-c", command], input=json.dumps({**event, "cwd": str(project)}), cwd=project,
                          env={**env, "CLAUDE_PROJECT_DIR": str(project)}, capture_output=True, text=True,
                          timeout=TIMEOUT_S)


def _expand(text: str, env: dict[str, str]) -> str:
    """Claude Code's expansion in `.mcp.json`: ${VAR} and ${VAR:-default}."""
    return re.sub(r"\$\{(\w+)(?::-([^}]*))?\}", lambda m: env.get(m.group(1)) or (m.group(2) or ""), text)


def _claude_server_argv(project: Path, env: dict[str, str]) -> list[str]:
    entry = json.loads((project / ".mcp.json").read_text())["mcpServers"]["learnmem"]
    return [_expand(word, env) for word in [entry["command"], *entry["args"]]]


def _opencode_server_argv(project: Path) -> list[str]:
    return json.loads((project / "opencode.json").read_text())["mcp"]["learnmem"]["command"]


def _serve(project: Path, argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    """Start the server as the client does (in the project), hand it the handshake and a tool list request,
    close stdin; what it answered."""
    lines = [INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    stdin = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
    return subprocess.run(argv, input=stdin, cwd=project, env=env, capture_output=True, timeout=TIMEOUT_S)


def _answers(done: subprocess.CompletedProcess[bytes]) -> dict[int, dict]:
    return {answer["id"]: answer for answer in map(json.loads, done.stdout.splitlines())}


def test_init_in_a_venv_then_hooks_and_servers_run_without_it_on_path(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _init(project, "--claude")
    _init(project, "--opencode")
    _learnmem(project, "remember", "The deploy script lives in tools/deploy.sh", "--category", "fact")
    committed = [".claude/settings.json", ".mcp.json", "opencode.json", ".claude/learnmem", ".opencode/learnmem"]
    for rel in committed:  # no path of this machine in a file meant to be committed
        assert str(VENV_BIN) not in (project / rel).read_text() and str(tmp_path) not in (project / rel).read_text()
    env = _bare_env(tmp_path / "home")

    hooks = _hook_commands(project)
    started = _run_hook(project, hooks["SessionStart"], EVENT, env)
    assert started.returncode == 0, started.stderr
    context = json.loads(started.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "The deploy script lives in tools/deploy.sh" in context
    counted = _run_hook(project, hooks["PreToolUse"], {**EVENT, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                                                       "tool_input": {"command": "ls"}}, env)
    assert counted.returncode == 0, counted.stderr

    for argv in (_claude_server_argv(project, env), _opencode_server_argv(project)):
        served = _serve(project, argv, env)
        assert served.returncode == 0, served.stderr
        answers = _answers(served)
        assert answers[1]["result"]["serverInfo"]["name"] == "learnmem"
        assert "store_memory" in {tool["name"] for tool in answers[2]["result"]["tools"]}


def test_a_teammates_clone_without_learnmem_gets_one_clear_message(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _init(project, "--claude")
    clone = _project(tmp_path, "clone")  # what git carries: the committed files, not .learnmem/
    for rel in (".claude", ".mcp.json", "CLAUDE.md"):
        source = project / rel
        (shutil.copytree if source.is_dir() else shutil.copy)(source, clone / rel)
    env = _bare_env(tmp_path / "home")

    hooks = _hook_commands(clone)
    started = _run_hook(clone, hooks["SessionStart"], EVENT, env)
    assert started.returncode == 0, started.stderr
    message = json.loads(started.stdout)["systemMessage"]
    assert "learnmem is not installed" in message and "pipx install" in message and "learnmem init" in message
    for event in ("UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"):
        quiet = _run_hook(clone, hooks[event], {**EVENT, "hook_event_name": event}, env)
        assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", ""), event
    refused = _serve(clone, _claude_server_argv(clone, env), env)
    assert refused.returncode == 1 and refused.stdout == b""
    assert refused.stderr.decode().startswith("learnmem-mcp: error: learnmem is not installed")
    assert not (clone / ".learnmem").exists()  # nothing was created on their behalf


@pytest.mark.parametrize("where", ["LEARNMEM_BIN", "~/.local/bin"])
def test_the_launcher_finds_learnmem_where_users_install_it(tmp_path: Path, where: str) -> None:
    project = _project(tmp_path)
    _init(project, "--claude")
    (project / ".learnmem" / "scripts-path").unlink()  # not the folder init recorded
    home = tmp_path / "home"
    if where == "LEARNMEM_BIN":
        env = _bare_env(home, LEARNMEM_BIN=str(VENV_BIN))
    else:  # where `pipx install` and `uv tool install` link the scripts
        (home / ".local" / "bin").mkdir(parents=True)
        for name in ("learnmem", "learnmem-mcp"):
            (home / ".local" / "bin" / name).symlink_to(VENV_BIN / name)
        env = _bare_env(home)
    started = _run_hook(project, _hook_commands(project)["SessionStart"], EVENT, env)
    assert started.returncode == 0 and "not installed" not in started.stdout, started.stderr
    served = _serve(project, _claude_server_argv(project, env), env)
    assert served.returncode == 0 and 2 in _answers(served), served.stderr


def test_hooks_run_by_the_launcher_are_served_by_the_server_it_starts(tmp_path: Path) -> None:
    """The launcher runs a hook with the script's Python and nothing of the project on sys.path (`-P`): a
    project's own `socket.py` or `learnmem/` cannot stand in for the real ones. With the MCP server the
    launcher started running, the hook is answered by it."""
    project = _project(tmp_path)
    _init(project, "--claude")
    _learnmem(project, "remember", "The deploy script lives in tools/deploy.sh", "--category", "fact")
    for shadow in ("socket.py", "json.py", "learnmem/__init__.py"):
        (project / shadow).parent.mkdir(exist_ok=True)
        (project / shadow).write_text("raise SystemExit('the project shadowed a module')\n")
    env = _bare_env(tmp_path / "home", LEARNMEM_DEBUG="1")
    server = subprocess.Popen(_claude_server_argv(project, env), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, cwd=project, env=env)
    try:
        server.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
        server.stdin.flush()
        assert json.loads(server.stdout.readline())["id"] == 1
        socket_file = hook_socket.socket_path(project / ".learnmem" / "learnmem.duckdb")
        deadline = time.monotonic() + TIMEOUT_S
        while not os.path.exists(socket_file):
            assert server.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        started = _run_hook(project, _hook_commands(project)["SessionStart"], EVENT, env)
        assert started.returncode == 0 and started.stderr == "", started.stderr
        assert "The deploy script lives in tools/deploy.sh" in started.stdout
        log = (project / ".learnmem" / "hooks.log").read_text()
        answered = [line for line in log.splitlines() if "SessionStart" in line and "answered in" in line]
        assert answered and f"pid={server.pid}" in answered[-1]  # the launcher exec'd the server: one pid
    finally:
        server.stdin.close()
        server.wait(timeout=TIMEOUT_S)

