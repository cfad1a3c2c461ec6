"""Indexing over MCP as a job (mcp_adapter.jobs): answered within seconds, followed to its end, with MCP
progress notifications; a killed server keeps what was indexed, and the next call goes on from there.

Real server processes (`learnmem-mcp`), the SDK's client, the real model. LEARNMEM_MCP_ANSWER_WITHIN=0 makes a
starting call answer at once, as a long job on a slow machine would after its 8 s.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

import learnmem
from tests.gitrepo import GitRepo

SERVER = Path(sys.executable).parent / "learnmem-mcp"


def _params(db: Path, cwd: Path, **env: str) -> StdioServerParameters:
    environment = {key: value for key, value in os.environ.items() if key != "LEARNMEM_DB"}
    return StdioServerParameters(command=str(SERVER), args=["--db", str(db), "--tools", "all"],
                                 env={**environment, **env}, cwd=str(cwd))


def _run(params: StdioServerParameters, errlog: Path, scenario: Callable[[ClientSession], Awaitable[None]]) -> None:
    async def main() -> None:
        with errlog.open("w") as log:
            async with stdio_client(params, errlog=log) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                await scenario(session)

    anyio.run(main)


async def _call(session: ClientSession, tool: str, arguments: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments, **kwargs)
    return json.loads(result.content[0].text)


def _source_tree(root: Path, files: int) -> Path:
    folder = root / "src"
    folder.mkdir()
    for number in range(files):
        (folder / f"module_{number:04d}.py").write_text(
            f"def handler_{number}(request):\n    \"\"\"Answer request {number}.\"\"\"\n    return request.get({number})\n")
    return folder


def test_a_call_answers_at_once_and_job_status_follows_it_with_progress(tmp_path: Path) -> None:
    folder = _source_tree(tmp_path, 30)
    db = tmp_path / "memory.duckdb"
    notes: list[tuple[float, float | None, str | None]] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        notes.append((done, total, message))

    async def scenario(session: ClientSession) -> None:
        started = await _call(session, "index_codebase", {"directory": str(folder), "project": "app"})
        assert started["status"] in ("running", "done") and started["job_id"].startswith("job_")
        if started["status"] == "running":
            assert "job_status" in started["message"] and set(started["progress"]) >= {"done", "total"}
            again = await _call(session, "index_codebase", {"directory": str(folder), "project": "app"})
            assert again["job_id"] == started["job_id"]  # the same work is not started twice
        done = await _call(session, "job_status", {"job_id": started["job_id"], "wait_seconds": 60},
                           progress_callback=progress)
        assert done["status"] == "done" and done["files_indexed"] == 30 and done["units"] == 60  # a module and a function each
        missing = await _call(session, "job_status", {"job_id": "job_999"})
        assert missing["error"]["type"] == "not_found" and started["job_id"] in missing["error"]["message"]
        commits = await _call(session, "index_commits", {"repo_path": str(tmp_path / "repo")})
        if commits["status"] == "running":
            commits = await _call(session, "job_status", {"job_id": commits["job_id"], "wait_seconds": 60})
        assert commits["status"] == "done" and commits["commits_added"] == 2 and commits["job_id"] != \
            started["job_id"]

    repo = GitRepo.init(tmp_path / "repo")
    repo.write("a.py", "x = 1\n")
    repo.commit("first")
    repo.write("a.py", "x = 2\n")
    repo.commit("second")
    _run(_params(db, tmp_path, LEARNMEM_MCP_ANSWER_WITHIN="0"), tmp_path / "server.stderr", scenario)
    assert notes, "no progress notification reached the client"
    assert all(total is None or done <= total for done, total, _ in notes)


def test_a_killed_server_keeps_what_was_indexed_and_the_next_call_goes_on(tmp_path: Path) -> None:
    folder = _source_tree(tmp_path, 1000)  # five batches of 200 files
    db = tmp_path / "memory.duckdb"
    state: dict[str, Any] = {}

    async def scenario(session: ClientSession) -> None:
        started = await _call(session, "index_codebase", {"directory": str(folder), "project": "app"})
        while True:  # until a batch is written, then kill the server mid-job
            status = await _call(session, "job_status", {"job_id": started["job_id"]})
            if status["status"] != "running" or status["progress"]["done"] >= 200:
                break
            await anyio.sleep(0.05)
        state["status"] = status

    # The server is the client's child: found by its command line, and killed as a crash would.
    async def kill_scenario(session: ClientSession) -> None:
        await scenario(session)
        if state["status"]["status"] == "running":
            for proc in Path("/proc").iterdir():
                if proc.name.isdigit():
                    try:
                        cmdline = (proc / "cmdline").read_bytes().split(b"\0")
                    except OSError:
                        continue
                    if str(db).encode() in cmdline and any(part.endswith(b"learnmem-mcp") for part in cmdline):
                        os.kill(int(proc.name), signal.SIGKILL)
                        state["killed"] = True

    try:
        _run(_params(db, tmp_path, LEARNMEM_MCP_ANSWER_WITHIN="0"), tmp_path / "server.stderr", kill_scenario)
    except Exception:  # noqa: BLE001 - the client sees its server die; that is the point
        pass
    if not state.get("killed"):
        # The machine indexed all 1,000 files before a batch could be seen: nothing to resume.
        assert state["status"]["status"] == "done"
        return
    time.sleep(0.5)
    kept = learnmem.open(db, read_only=True).get_indexing_stats(project="app")
    assert 200 <= kept.files < 1000, kept

    async def resume(session: ClientSession) -> None:
        done = await _call(session, "index_codebase", {"directory": str(folder), "project": "app"})
        if done["status"] == "running":
            done = await _call(session, "job_status", {"job_id": done["job_id"], "wait_seconds": 60})
        assert done["status"] == "done", done
        assert done["files_unchanged"] == kept.files and done["files_indexed"] == 1000 - kept.files
        assert done["units"] == 2000  # a module and a function each

    _run(_params(db, tmp_path), tmp_path / "server2.stderr", resume)
