"""Hooks served warm by the MCP server over a Unix socket (learnmem.agents.hook_socket).

What the hooks answer is checked twice in test_hooks.py (its `project` fixture runs every test one-shot and
served); here: the socket itself (who may use it, who owns it, what happens when its server dies), and the
real `learnmem-mcp` process serving the hooks of the project it was started in.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import learnmem
from learnmem.agents import hook_server, hook_socket, hooks
from learnmem.agents.hook_paths import HookPaths

SERVER = Path(sys.executable).parent / "learnmem-mcp"
HOOK = [sys.executable, "-m", "learnmem.cli", "hook"]
WAIT_S = 60


@pytest.fixture
def short_tmp() -> Path:
    """A folder with a short path: pytest's own are too long for a socket beside the file (~100 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="lm-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def project(short_tmp: Path, embedder) -> tuple[Path, Path]:
    root = short_tmp / "project"
    (root / ".git").mkdir(parents=True)
    db = root / ".learnmem" / "learnmem.duckdb"
    learnmem.open(db, embedder=embedder).close()
    return root, db


def _hook(root: Path, event: str, env: dict | None = None, **payload) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key not in ("LEARNMEM_DB", "CLAUDE_PROJECT_DIR")}
    environment.update(env or {})
    data = json.dumps({"session_id": "s1", "cwd": str(root), **payload})
    return subprocess.run([*HOOK, event], input=data, capture_output=True, text=True, cwd=root, env=environment,
                          timeout=120, check=True)


def _check_in(done: subprocess.CompletedProcess) -> str:
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


class Recorder:
    """Serves `paths` from this process, as the MCP server does, and records what it answered."""

    def __init__(self, paths: HookPaths, lm):
        self.events: list = []
        self.server = hook_server.HookServer(paths, self._answer)
        self.lm, self.paths = lm, paths

    def _answer(self, event, raw, environ):
        self.events.append(event)
        return hooks.serve(self.lm, self.paths, event, raw, environ)


def test_the_socket_is_the_users_alone_and_goes_with_its_server(project, embedder):
    root, db = project
    paths = HookPaths(db)
    recorder = Recorder(paths, learnmem.open(db, embedder=embedder))
    recorder.server.start()
    path = Path(hook_socket.socket_path(db))
    assert path == Path(f"{db}.hooks.sock")
    info = os.stat(path)
    assert stat.S_ISSOCK(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o600 and info.st_uid == os.getuid()
    assert not list(db.parent.glob(".*.sock*"))  # the temporary name it was bound under is gone
    done = _hook(root, "pre-tool-use", {"LEARNMEM_CHECKIN_EVERY": "1"}, tool_name="Read", tool_input={})
    assert "tool calls without a GHAP entry" in _check_in(done)
    assert recorder.events == ["pre-tool-use"]
    recorder.server.close()
    assert not path.exists()


def test_a_dead_servers_socket_leaves_the_hooks_to_themselves(project, embedder):
    """Killed with -9, a server leaves its socket behind: the hooks answer themselves, then a new server
    takes the path over."""
    root, db = project
    paths = HookPaths(db)
    path = Path(hook_socket.socket_path(db))
    left = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    left.bind(str(path))
    left.close()  # bound, never listening: what a killed server leaves
    assert stat.S_ISSOCK(os.stat(path).st_mode)
    done = _hook(root, "pre-tool-use", {"LEARNMEM_CHECKIN_EVERY": "1"}, tool_name="Read", tool_input={})
    assert "tool calls without a GHAP entry" in _check_in(done)
    recorder = Recorder(paths, learnmem.open(db, embedder=embedder))
    recorder.server.start()
    try:
        _hook(root, "pre-tool-use", {"LEARNMEM_CHECKIN_EVERY": "1"}, tool_name="Read", tool_input={})
        assert recorder.events == ["pre-tool-use"]
    finally:
        recorder.server.close()


def test_something_else_at_the_sockets_path_is_not_trusted(project):
    root, db = project
    path = Path(hook_socket.socket_path(db))
    path.write_text("not a socket", encoding="utf-8")
    done = _hook(root, "pre-tool-use", {"LEARNMEM_CHECKIN_EVERY": "1"}, tool_name="Read", tool_input={})
    assert "tool calls without a GHAP entry" in _check_in(done)


def test_a_later_server_takes_over_and_each_removes_only_its_own(project, embedder):
    root, db = project
    paths = HookPaths(db)
    lm = learnmem.open(db, embedder=embedder)
    first, second = Recorder(paths, lm), Recorder(paths, lm)
    first.server.start()
    second.server.start()
    _hook(root, "pre-tool-use", tool_name="Read", tool_input={})
    assert (first.events, second.events) == ([], ["pre-tool-use"])
    first.server.close()
    assert os.path.exists(hook_socket.socket_path(db))  # the second's
    _hook(root, "pre-tool-use", tool_name="Read", tool_input={})
    assert second.events == ["pre-tool-use", "pre-tool-use"]
    second.server.close()
    assert not os.path.exists(hook_socket.socket_path(db))


def test_a_path_too_long_for_a_socket_moves_to_a_private_folder(tmp_path, short_tmp, embedder, monkeypatch):
    root = tmp_path / ("a-project-folder-with-a-name-long-enough-" * 3) / "project"
    (root / ".git").mkdir(parents=True)
    db = root / ".learnmem" / "learnmem.duckdb"
    lm = learnmem.open(db, embedder=embedder)
    runtime = short_tmp / "run"
    runtime.mkdir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    paths = HookPaths(db)
    path = Path(hook_socket.socket_path(db))
    assert path.parent == runtime / "learnmem" and len(os.fsencode(path)) < 100
    recorder = Recorder(paths, lm)
    recorder.server.start()
    try:
        assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
        _hook(root, "pre-tool-use", {"XDG_RUNTIME_DIR": str(runtime)}, tool_name="Read", tool_input={})
        assert recorder.events == ["pre-tool-use"]
        # A folder others may enter is not trusted: the hook answers itself.
        os.chmod(path.parent, 0o755)
        _hook(root, "pre-tool-use", {"XDG_RUNTIME_DIR": str(runtime)}, tool_name="Read", tool_input={})
        assert recorder.events == ["pre-tool-use"]
    finally:
        recorder.server.close()


def test_a_request_for_another_file_is_left_to_its_hook(project, short_tmp, embedder):
    """The server locates the hook's file from its payload, as a one-shot hook would: a hook of another
    project that reached it (its own project's socket linked here) is told to answer itself."""
    root, db = project
    recorder = Recorder(HookPaths(db), learnmem.open(db, embedder=embedder))
    recorder.server.start()
    try:
        other = short_tmp / "other"
        (other / ".git").mkdir(parents=True)
        learnmem.open(other / ".learnmem" / "learnmem.duckdb", embedder=embedder).close()
        os.symlink(hook_socket.socket_path(db), hook_socket.socket_path(other / ".learnmem" / "learnmem.duckdb"))
        payload = json.dumps({"cwd": str(other)}).encode()
        assert hook_socket.ask(None, "pre-tool-use", payload, {}, cwd=str(other)) is None
        # Started in this project but about another (the payload's cwd): the same.
        assert hook_socket.ask(None, "pre-tool-use", payload, {}, cwd=str(root)) is None
        assert recorder.events == []
        payload = json.dumps({"cwd": str(root)}).encode()
        assert hook_socket.ask(None, "pre-tool-use", payload, {}, cwd=str(root)) == ""
        assert recorder.events == ["pre-tool-use"]
    finally:
        recorder.server.close()


def test_the_server_answers_only_its_user():
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with left, right:
        assert hook_server._same_user(left)


def test_hooks_can_be_told_not_to_use_a_server(project, embedder):
    root, db = project
    recorder = Recorder(HookPaths(db), learnmem.open(db, embedder=embedder))
    recorder.server.start()
    try:
        _hook(root, "pre-tool-use", {"LEARNMEM_HOOK_SERVER": "off"}, tool_name="Read", tool_input={})
        assert recorder.events == []
    finally:
        recorder.server.close()


# -- the MCP server -----------------------------------------------------------------------------------


def _spawn_server(root: Path, db: Path) -> subprocess.Popen:
    env = {key: value for key, value in os.environ.items() if key != "LEARNMEM_DB"}
    server = subprocess.Popen([str(SERVER), "--db", str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, cwd=root, env=env)
    handshake = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}
    server.stdin.write(json.dumps(handshake).encode() + b"\n")
    server.stdin.flush()
    assert json.loads(server.stdout.readline())["id"] == 1
    deadline = time.monotonic() + WAIT_S
    while not _listening(Path(f"{db}.hooks.sock")):
        assert server.poll() is None and time.monotonic() < deadline, "the server never listened for hooks"
        time.sleep(0.05)
    return server


def _listening(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


def _answered_by(db: Path) -> list[int]:
    """The pids that answered hooks, from the LEARNMEM_DEBUG lines of hooks.log."""
    log = (db.parent / "hooks.log").read_text(encoding="utf-8")
    return [int(line.split(" pid=")[1].split()[0]) for line in log.splitlines() if "answered in" in line]


def test_the_mcp_server_serves_the_projects_hooks(project):
    root, db = project
    server = _spawn_server(root, db)
    try:
        debug = {"LEARNMEM_DEBUG": "1", "LEARNMEM_CHECKIN_EVERY": "2"}
        _hook(root, "session-start", debug, source="startup")
        _hook(root, "pre-tool-use", debug, tool_name="Read", tool_input={})
        done = _hook(root, "pre-tool-use", debug, tool_name="Read", tool_input={})
        assert "2 tool calls without a GHAP entry" in _check_in(done)
        assert _answered_by(db) == [server.pid] * 3
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=10) == 0
        assert not Path(f"{db}.hooks.sock").exists()
        _hook(root, "pre-tool-use", debug, tool_name="Read", tool_input={})  # no server: the hook itself
        assert _answered_by(db)[-1] not in (server.pid,)
    finally:
        if server.poll() is None:
            server.kill()
        server.wait()


def test_a_server_killed_hard_costs_the_hooks_nothing(project):
    root, db = project
    server = _spawn_server(root, db)
    server.kill()
    server.wait()
    assert Path(f"{db}.hooks.sock").exists()  # left behind
    done = _hook(root, "pre-tool-use", {"LEARNMEM_CHECKIN_EVERY": "1"}, tool_name="Read", tool_input={})
    assert "tool calls without a GHAP entry" in _check_in(done)
    again = _spawn_server(root, db)  # takes the path over
    try:
        _hook(root, "pre-tool-use", {"LEARNMEM_DEBUG": "1"}, tool_name="Read", tool_input={})
        assert _answered_by(db)[-1] == again.pid
    finally:
        again.kill()
        again.wait()
