"""Git history tools: index commits, search them, and ask why code is like this (history, churn, blame)."""

import os
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from mcp_adapter import jobs
from mcp_adapter.results import call
from mcp_adapter.schema import ADDITIVE, READ_ONLY


def register(server: MCPServer, lm: Any) -> None:
    """Register the git history tools of `lm` (an opened `learnmem.Learnmem`) on `server`."""

    @server.tool(
        annotations=ADDITIVE,
        description=(
            "Index (incrementally) a git repository's commits: messages embedded for search, files changed with "
            "line counts and renames. Only new commits are read; commits gone after a rebase/force-push are removed. "
            "Runs as a job: answers within seconds, with the result when done, else with {job_id, status: running, "
            "progress} (job_status follows it; commits are kept as they are indexed). "
            "Returns {project, root, head, commits_total, commits_added, commits_removed, commits_embedded, shallow, "
            "seconds, warnings, job_id}."
        ),
    )
    async def index_commits(
        ctx: Context,
        repo_path: Annotated[str, Field(description="A path inside the repository.")] = ".",
        since: Annotated[str | None, Field(description="Skip commits older than this ISO date.")] = None,
        project: Annotated[str | None, Field(description="Project name (default: as indexed before, else the repository folder's name).")] = None,
        all_branches: Annotated[bool, Field(description="Every local branch, not only HEAD.")] = False,
        embed: Annotated[bool, Field(description="Embed the messages (false: faster, search_commits then matches "
                                                  "keywords only).")] = True,
    ) -> CallToolResult:
        key = ("index_commits", os.path.abspath(repo_path), since, project, all_branches, embed)
        job = server.jobs.start("index_commits", key, lambda report: lm.index_commits(
            repo_path, since=since, project=project, all_branches=all_branches, embed=embed, progress=report))
        return await jobs.answer(job, jobs.answer_within(), ctx)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Search indexed commits by meaning and keywords of their messages and touched paths, best first; "
            "author, since, until and path filter exactly. Returns {results: [{score, sha, subject, message, author, "
            "author_email, authored_at, committed_at, insertions, deletions, files_changed, is_merge, paths}], count}."
        ),
    )
    async def search_commits(
        query: Annotated[str, Field(description="What the change was about, in plain words.")],
        author: Annotated[str | None, Field(description="Only this author (name or email).")] = None,
        since: Annotated[str | None, Field(description="Only commits on or after this ISO date.")] = None,
        until: Annotated[str | None, Field(description="Only commits on or before this ISO date.")] = None,
        path: Annotated[str | None, Field(description="Only commits touching this file or folder.")] = None,
        limit: Annotated[int, Field(description="Maximum number of commits.")] = 10,
        project: Annotated[str | None, Field(description="Only this repository.")] = None,
    ) -> CallToolResult:
        return await call(lm.search_commits, query, author=author, since=since, until=until, path=path,
                          limit=limit, project=project)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "The commits that changed a file, newest first, following renames. Returns {results: [{sha, path, "
            "old_path, change_type, insertions, deletions, is_binary, author, author_email, authored_at, "
            "committed_at, subject}], count}."
        ),
    )
    async def get_file_history(
        path: Annotated[str, Field(description="File path relative to the repository root.")],
        limit: Annotated[int, Field(description="Maximum number of commits.")] = 20,
        project: Annotated[str | None, Field(description="Which indexed repository.")] = None,
    ) -> CallToolResult:
        return await call(lm.get_file_history, path, limit=limit, project=project)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Files that changed most often (then most lines) in the last N days: the risky, unstable parts. "
            "Returns {results: [{path, commits, insertions, deletions, authors, last_change}], count}."
        ),
    )
    async def get_churn_hotspots(
        days: Annotated[int, Field(description="Window length in days.")] = 90,
        limit: Annotated[int, Field(description="Maximum number of files.")] = 10,
        as_of: Annotated[str | None, Field(description="End of the window, ISO date (default: now).")] = None,
        project: Annotated[str | None, Field(description="Which indexed repository.")] = None,
    ) -> CallToolResult:
        return await call(lm.get_churn_hotspots, days=days, limit=limit, as_of=as_of, project=project)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Who wrote a file: per author commits, lines added/removed, first and last change, and the lines of "
            "today's file they own (blame) with their share. Returns {results: [...], count}."
        ),
    )
    async def get_code_authors(
        path: Annotated[str, Field(description="File path relative to the repository root.")],
        project: Annotated[str | None, Field(description="Which indexed repository.")] = None,
    ) -> CallToolResult:
        return await call(lm.get_code_authors, path, project=project)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Blame: line ranges of a file with the commit that last changed them, its author, time and summary. "
            "Returns {results: [{start_line, end_line, sha, author, author_email, authored_at, summary, "
            "original_path, original_start_line, boundary}], count}."
        ),
    )
    async def get_blame(
        path: Annotated[str, Field(description="File path relative to the repository root.")],
        start_line: Annotated[int | None, Field(description="First line (1-based).")] = None,
        end_line: Annotated[int | None, Field(description="Last line (inclusive).")] = None,
        rev: Annotated[str, Field(description="Commit, branch or tag.")] = "HEAD",
        project: Annotated[str | None, Field(description="Which indexed repository.")] = None,
    ) -> CallToolResult:
        return await call(lm.get_blame, path, start_line=start_line, end_line=end_line, rev=rev, project=project)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Why is this function like this? The commits that changed a code unit's lines (like git log -L), "
            "newest first. name: load, Config.load, or path/to/file.py:Config.load (the code must be indexed). "
            "Returns {results: [{sha, path, start_line, end_line, author, author_email, authored_at, subject}], count}."
        ),
    )
    async def get_unit_history(
        name: Annotated[str, Field(description="The function, method or class.")],
        project: Annotated[str | None, Field(description="Which project.")] = None,
        limit: Annotated[int, Field(description="Maximum number of commits.")] = 20,
    ) -> CallToolResult:
        return await call(lm.get_unit_history, name, project=project, limit=limit)
