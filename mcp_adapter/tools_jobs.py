"""The jobs tool: the progress and result of a long call (indexing) that answered before it ended."""

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from mcp_adapter import jobs
from mcp_adapter.results import error_result
from mcp_adapter.schema import READ_ONLY


def register(server: MCPServer, lm: Any) -> None:  # noqa: ARG001 - every group registers the same way
    """Register `job_status`, which reads the server's jobs (`mcp_adapter.jobs`)."""

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "The progress and result of a job that index_codebase or index_commits started and answered before "
            "it ended. wait_seconds (at most 60) waits for it to end first. Returns the call's result with "
            "{job_id, status: done}, its error object if it failed, or {job_id, status: running, progress}."
        ),
    )
    async def job_status(
        ctx: Context,
        job_id: Annotated[str, Field(description="The job_id the index call answered.")],
        wait_seconds: Annotated[float, Field(description="Wait up to this long for the job to end (0-60).")] = 0.0,
    ) -> CallToolResult:
        job = server.jobs.get(job_id)
        if job is None:
            known = ", ".join(server.jobs.ids()) or "none: this server has run no job (a restarted server "
            "forgets its jobs; index again, it goes on from what was kept)"
            return error_result("not_found", f"job_id {job_id!r}: no such job; this server's jobs: {known}")
        if not 0 <= wait_seconds <= jobs.MAX_WAIT_S:
            return error_result("validation_error", f"wait_seconds {wait_seconds!r}: between 0 and {jobs.MAX_WAIT_S:g}")
        return await jobs.answer(job, wait_seconds, ctx)
