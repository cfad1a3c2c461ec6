"""Long library calls (indexing) as jobs: run in the server process, answered with their progress in seconds.

A client gives up on a call after its request timeout (60 s for the MCP Inspector and opencode), and indexing
a project can take longer. So `index_codebase` and `index_commits` start a job in a thread of the server and
wait for it a few seconds (`ANSWER_WITHIN_S`): a job done by then answers as the library call does, with
`job_id` and `status` added (a failed one, the error object); one still running answers `{job_id, status:
"running", progress, message}`, and
`job_status` reports it later (waiting up to 60 s for it to end if asked). While a call waits, the server sends
MCP progress notifications when the client gave a progress token.

The library writes as it goes (files and commits in batches), so a client that gives up, a closed session or
a killed server keeps what was indexed, and the next call goes on from there. A second call for the same work
while a job runs answers that job instead of starting another.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
from mcp_types import CallToolResult

from learnmem.errors import LearnmemError
from mcp_adapter.results import to_jsonable, tool_result

# How long a starting call waits for its job before answering with the job's progress: 8 s, or
# $LEARNMEM_MCP_ANSWER_WITHIN seconds (0 to 60), for a client whose request timeout is shorter.
ANSWER_WITHIN_S = 8.0
# The longest `job_status` waits for a job to end.
MAX_WAIT_S = 60.0
_POLL_S = 0.25


def answer_within() -> float:
    """The seconds a starting call waits for its job ($LEARNMEM_MCP_ANSWER_WITHIN, else ANSWER_WITHIN_S)."""
    text = os.environ.get("LEARNMEM_MCP_ANSWER_WITHIN")
    try:
        seconds = float(text) if text else ANSWER_WITHIN_S
    except ValueError:
        return ANSWER_WITHIN_S
    return min(max(seconds, 0.0), MAX_WAIT_S)


@dataclass
class Job:
    """One job: what it runs, where it is, and how it ended."""

    id: str
    tool: str
    key: tuple
    done: int = 0
    total: int = 0
    count: int = 0
    status: str = "running"  # then "done" or "failed"
    result: dict[str, Any] | None = None
    error: dict[str, str] | None = None
    started: float = field(default_factory=time.monotonic)
    seconds: float | None = None
    ended: threading.Event = field(default_factory=threading.Event)

    def report(self, done: int, total: int, count: int) -> None:
        """The library's progress callback (learnmem.progress)."""
        self.done, self.total, self.count = done, total, count

    def answer(self) -> dict[str, Any]:
        """What a tool answers for it: the result (done), the error object (failed), or where it is."""
        if self.status == "done":
            return {**(self.result or {}), "job_id": self.id, "status": "done"}
        if self.status == "failed":  # the error object every tool answers, nothing more
            return {"error": self.error}
        return {"job_id": self.id, "status": "running", "tool": self.tool,
                "progress": {"done": self.done, "total": self.total, "count": self.count,
                             "seconds": round(time.monotonic() - self.started, 1)},
                "message": f"{self.tool} is still running (what it indexed is kept as it goes): call job_status "
                           f"with job_id {self.id!r} for its progress and result"}


class Jobs:
    """The server's jobs, by id; at most one running job per key (the same work)."""

    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)

    def start(self, tool: str, key: tuple, work: Callable[[Callable[[int, int, int], None]], Any]) -> Job:
        """Run `work(progress_callback)` in a thread as a job, or return the job already running it."""
        with self._lock:
            for job in self._jobs.values():
                if job.key == key and job.status == "running":
                    return job
            job = Job(id=f"job_{next(self._ids)}", tool=tool, key=key)
            self._jobs[job.id] = job
        threading.Thread(target=_run, args=(job, work), name=f"learnmem-{job.id}", daemon=True).start()
        return job

    def get(self, job_id: str) -> Job | None:
        return self._jobs.get(job_id)

    def ids(self) -> list[str]:
        return list(self._jobs)


def _run(job: Job, work: Callable[[Callable[[int, int, int], None]], Any]) -> None:
    try:
        job.result = to_jsonable(work(job.report))
        job.status = "done"
    except LearnmemError as exc:
        job.error, job.status = {"type": exc.kind, "message": str(exc)}, "failed"
    except Exception as exc:  # noqa: BLE001 - the client must get an answer, not a lost job
        job.error, job.status = {"type": "internal_error", "message": f"{type(exc).__name__}: {exc}"}, "failed"
    finally:
        job.seconds = time.monotonic() - job.started
        job.ended.set()


async def wait(job: Job, seconds: float, notify: Callable[[float, float | None, str], Any] | None = None) -> Job:
    """Wait up to `seconds` for the job to end, sending progress through `notify` as it changes."""
    deadline = time.monotonic() + seconds
    last = None
    while not job.ended.is_set() and time.monotonic() < deadline:
        now = (job.done, job.total, job.count)
        if notify is not None and now != last:
            last = now
            await notify(job.done, job.total or None, f"{job.tool}: {job.done}/{job.total or '?'} ({job.count})")
        await anyio.sleep(_POLL_S)
    return job


async def answer(job: Job, seconds: float, context: Any) -> CallToolResult:
    """Wait for the job as `wait` does (progress to the client through the request's context), then answer it."""
    await wait(job, seconds, context.report_progress if context is not None else None)
    return tool_result(job.answer(), is_error=job.status == "failed")


__all__ = ["ANSWER_WITHIN_S", "MAX_WAIT_S", "Job", "Jobs", "answer", "answer_within", "wait"]
