"""How `learnmem-mcp` starts and stops, as a process a client spawns (`mcp_adapter.process`).

- The handshake is answered before anything heavy is loaded, and the answer is the SDK's own, for every
  protocol version the SDK negotiates; a pipelined handshake gets exactly one answer per request.
- SIGINT, SIGTERM and stdin closed at any moment end the process with exit 0, no abort, the counted memory
  use written.

How fast it answers is measured, not asserted: `python -m bench.mcp_start` (bench/RESULTS.md).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import learnmem
from mcp_adapter import handshake
from tests.mcp_adapter.lines import LineReader

SERVER = Path(sys.executable).parent / "learnmem-mcp"
# Generous: an answer that never comes fails the test instead of hanging it.
ANSWER_TIMEOUT_S = 60
# How long a process told to stop may take before the test calls it stuck (the target is a second).
STOP_TIMEOUT_S = 10
HEAVY = ("mcp", "mcp_types", "pydantic", "anyio", "duckdb", "numpy", "pyarrow", "onnxruntime", "learnmem.api")


def _initialize(request_id: int | str = 1, version: str = "2025-06-18") -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}


class Process:
    """A server process spoken to in raw JSON-RPC lines."""

    def __init__(self, argv: list[str], cwd: Path, **environment: str):
        env = dict(os.environ, **environment)
        env.pop("LEARNMEM_DB", None)
        self.stderr_path = cwd / f"server-{len(list(cwd.glob('server-*')))}.stderr"
        with self.stderr_path.open("wb") as stderr:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                            cwd=cwd, env=env)
        self.lines = LineReader(self.process.stdout)

    def send(self, *messages: dict[str, Any]) -> None:
        self.process.stdin.write(b"".join(json.dumps(message).encode() + b"\n" for message in messages))
        self.process.stdin.flush()

    def receive(self) -> dict[str, Any]:
        line = self.lines.readline(ANSWER_TIMEOUT_S)
        assert line is not None, f"no answer in {ANSWER_TIMEOUT_S} s: {self.stderr()}"
        assert line, f"no answer: the server exited with {self.process.poll()}: {self.stderr()}"
        return json.loads(line)

    def stop(self, how: str) -> int:
        if how == "close stdin":
            self.process.stdin.close()
        else:
            self.process.send_signal(getattr(signal, how))
        try:
            return self.process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            pytest.fail(f"the server did not stop within {STOP_TIMEOUT_S} s of {how}")

    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")


def _learnmem_mcp(tmp_path: Path, db: Path) -> Process:
    return Process([str(SERVER), "--db", str(db)], tmp_path)


def _sdk_alone(tmp_path: Path) -> Process:
    """The SDK's own stdio server with learnmem's tools: the reference for what the handshake must answer."""
    code = "from mcp_adapter.server import build_server; build_server(object()).run('stdio')"
    return Process([sys.executable, "-c", code], tmp_path)


@pytest.fixture
def db(tmp_path: Path, embedder) -> Path:
    path = tmp_path / "memory.duckdb"
    learnmem.open(path, embedder=embedder).close()
    return path


def test_the_process_answers_the_handshake_with_nothing_heavy_imported() -> None:
    code = ("import sys, mcp_adapter.process, mcp_adapter.handshake; "
            f"print(sorted(m for m in sys.modules if m in {HEAVY!r} or m.startswith({tuple(h + '.' for h in HEAVY)!r})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_handshake_negotiates_the_versions_the_sdk_does() -> None:
    from mcp.server.runner import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

    assert handshake.PROTOCOL_VERSIONS == tuple(HANDSHAKE_PROTOCOL_VERSIONS)
    assert handshake.LATEST_PROTOCOL_VERSION == LATEST_HANDSHAKE_VERSION


def test_the_handshake_answers_what_the_sdk_answers(tmp_path: Path, db: Path) -> None:
    versions = (*handshake.PROTOCOL_VERSIONS, "1999-01-01")
    answers: dict[str, list[dict[str, Any]]] = {}
    for name, spawn in (("sdk", lambda: _sdk_alone(tmp_path)), ("learnmem-mcp", lambda: _learnmem_mcp(tmp_path, db))):
        for version in versions:
            server = spawn()
            server.send(_initialize(7, version))
            answers.setdefault(name, []).append(server.receive())
            assert server.stop("close stdin") == 0, server.stderr()
    assert answers["learnmem-mcp"] == answers["sdk"]
    assert [answer["result"]["protocolVersion"] for answer in answers["sdk"]] == [
        *handshake.PROTOCOL_VERSIONS, handshake.LATEST_PROTOCOL_VERSION]


def test_a_pipelined_handshake_gets_one_answer_per_request(tmp_path: Path, db: Path) -> None:
    server = _learnmem_mcp(tmp_path, db)
    server.send(_initialize("init"), {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, {"jsonrpc": "2.0", "id": 3, "method": "ping"})
    answers = [server.receive() for _ in range(3)]
    assert [answer["id"] for answer in answers] == ["init", 2, 3]
    assert "store_memory" in {tool["name"] for tool in answers[1]["result"]["tools"]}
    server.send({"jsonrpc": "2.0", "id": 4, "method": "ping"})
    assert server.receive() == {"jsonrpc": "2.0", "id": 4, "result": {}}  # nothing else was queued before it
    assert server.stop("close stdin") == 0, server.stderr()


def test_a_handshake_the_process_does_not_recognise_is_left_to_the_sdk(tmp_path: Path, db: Path) -> None:
    server = _learnmem_mcp(tmp_path, db)
    broken = _initialize(5)
    del broken["params"]["clientInfo"]
    server.send(broken)
    answer = server.receive()
    assert answer["id"] == 5 and "error" in answer, answer
    server.send({"jsonrpc": "2.0", "id": 6, "method": "ping"})
    assert server.receive()["id"] == 6
    assert server.stop("close stdin") == 0, server.stderr()


@pytest.mark.parametrize("moment", ["at once", "after the handshake", "after a call"])
def test_stdin_closed_at_any_moment_ends_the_process_cleanly(tmp_path: Path, db: Path, moment: str) -> None:
    server = _learnmem_mcp(tmp_path, db)
    if moment != "at once":
        server.send(_initialize())
        server.receive()
    if moment == "after a call":
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "info", "arguments": {}}})
        assert "counts" in json.loads(server.receive()["result"]["content"][0]["text"])
    assert server.stop("close stdin") == 0, server.stderr()
    assert "terminate called" not in server.stderr()


def test_the_server_never_imports_pandas(tmp_path: Path, db: Path) -> None:
    # DuckDB's client imports pandas (when installed) at a process's first bound parameter: ~0.5 s of the boot
    # before the first tool call can run, for DataFrames the server never uses (learnmem.without_pandas).
    pytest.importorskip("pandas")
    server = Process([str(SERVER), "--db", str(db)], tmp_path, PYTHONPROFILEIMPORTTIME="1")
    server.send(_initialize(), {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                 "params": {"name": "store_memory", "arguments": {"content": "Deploys wait for the nightly job",
                                                                  "category": "fact"}}})
    server.receive()
    assert json.loads(server.receive()["result"]["content"][0]["text"])["duplicate"] is False
    assert server.stop("SIGTERM") == 0, server.stderr()
    imported = {line.rsplit("|", 1)[1].strip() for line in server.stderr().splitlines() if line.startswith("import time:")}
    assert "duckdb" in imported and "onnxruntime" in imported  # the log is read right
    # A blocked `import pandas` is logged too (a line of ~0.1 ms); pandas itself loads pandas.core and the rest.
    assert not {name for name in imported if name.startswith("pandas.")}


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_a_signal_ends_the_process_and_the_counted_use_is_written(tmp_path: Path, db: Path, how: str) -> None:
    stored = learnmem.open(db).store_memory("The staging database is rebuilt every Sunday night", "fact").id
    server = _learnmem_mcp(tmp_path, db)
    server.send(_initialize(), {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                 "params": {"name": "retrieve_memories", "arguments": {"query": "when is staging rebuilt"}}})
    server.receive()
    found = json.loads(server.receive()["result"]["content"][0]["text"])
    assert found["results"][0]["id"] == stored
    assert server.stop(how) == 0, server.stderr()
    used = learnmem.open(db, read_only=True).sql("SELECT memory_id, accesses FROM memory_usage").fetchall()
    assert used == [(stored, 1)]


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_a_signal_during_the_boot_ends_the_process(tmp_path: Path, db: Path, how: str) -> None:
    server = _learnmem_mcp(tmp_path, db)
    server.send(_initialize())
    server.receive()  # answered by the process; the server may still be booting
    assert server.stop(how) == 0, server.stderr()


def test_a_file_that_cannot_be_opened_is_reported_after_the_handshake(tmp_path: Path) -> None:
    not_a_file = tmp_path / "folder.duckdb"
    not_a_file.mkdir()
    server = _learnmem_mcp(tmp_path, not_a_file)
    server.send(_initialize())
    assert server.receive()["id"] == 1
    code = server.process.wait(timeout=ANSWER_TIMEOUT_S)
    assert code in (1, 2) and "learnmem-mcp: error:" in server.stderr(), (code, server.stderr())
