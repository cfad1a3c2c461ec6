"""Code index tools: index a folder's source, search it, walk the call graph."""

import os
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from mcp_adapter import jobs
from mcp_adapter.results import call
from mcp_adapter.schema import ADDITIVE, DESTRUCTIVE, READ_ONLY


def register(server: MCPServer, lm: Any) -> None:
    """Register the code index tools of `lm` (an opened `learnmem.Learnmem`) on `server`."""

    @server.tool(
        annotations=ADDITIVE,
        description=(
            "Index (incrementally) the source files under a folder: code units, their embeddings, imports and "
            "the call graph. Runs as a job: answers within seconds, with the result when done, else with "
            "{job_id, status: running, progress} (job_status follows it; what is indexed is kept as it goes). "
            "Returns counts: files seen/indexed/unchanged/skipped/failed/deleted, units, calls, seconds, job_id."
        ),
    )
    async def index_codebase(
        ctx: Context,
        directory: Annotated[str, Field(description="The folder to index.")] = ".",
        project: Annotated[str | None, Field(description="Project name (default: as indexed before, else the folder's name).")] = None,
        recursive: Annotated[bool, Field(description="Descend into sub-folders.")] = True,
    ) -> CallToolResult:
        key = ("index_codebase", os.path.abspath(directory), project, recursive)
        job = server.jobs.start("index_codebase", key, lambda report: lm.index_codebase(
            directory, project=project, recursive=recursive, progress=report))
        return await jobs.answer(job, jobs.answer_within(), ctx)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Search indexed code by meaning and by identifiers (hybrid), best first. Returns {results: [{score, "
            "file_path, start_line, end_line, qualified_name, module, unit_type, language, signature, snippet}], count}."
        ),
    )
    async def search_code(
        query: Annotated[str, Field(description="What the code does, or names in it.")],
        project: Annotated[str | None, Field(description="Only this project.")] = None,
        language: Annotated[str | None, Field(description="Only this language: python, typescript, go...")] = None,
        unit_type: Annotated[str | None, Field(description="module, class, function, method or key.")] = None,
        limit: Annotated[int, Field(description="Maximum number of units to return.")] = 10,
    ) -> CallToolResult:
        return await call(lm.search_code, query, project=project, language=language, unit_type=unit_type, limit=limit)

    @server.tool(annotations=READ_ONLY, description="Code units that look like a snippet, best first. Returns {results, count}.")
    async def find_similar_code(
        snippet: Annotated[str, Field(description="A piece of code.")],
        project: Annotated[str | None, Field(description="Only this project.")] = None,
        limit: Annotated[int, Field(description="Maximum number of units to return.")] = 10,
    ) -> CallToolResult:
        return await call(lm.find_similar_code, snippet, project=project, limit=limit)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Call sites that call a function: name it bare (load), qualified (Config.load) or module-qualified "
            "(app.config.Config.load); a bare name returns every match. Returns {results: [edges], count}."
        ),
    )
    async def find_callers(
        function_name: Annotated[str, Field(description="The called function.")],
        project: Annotated[str | None, Field(description="Only this project.")] = None,
    ) -> CallToolResult:
        return await call(lm.find_callers, function_name, project=project)

    @server.tool(
        annotations=READ_ONLY,
        description="Calls made inside a function (bare, qualified or module-qualified name). Returns {results, count}.",
    )
    async def find_callees(
        function_name: Annotated[str, Field(description="The calling function.")],
        project: Annotated[str | None, Field(description="Only this project.")] = None,
    ) -> CallToolResult:
        return await call(lm.find_callees, function_name, project=project)

    @server.tool(annotations=READ_ONLY, description=(
        "What the code index holds, for one project or all added up. Returns {projects, roots, files, "
        "files_by_language, units, units_by_language (language -> unit type -> count), calls, calls_resolved, "
        "calls_unresolved, last_indexed_at (per project), embedding_model, pending_embeddings, ...}."))
    async def get_indexing_stats(project: Annotated[str | None, Field(description="Only this project.")] = None,
                                 ) -> CallToolResult:
        return await call(lm.get_indexing_stats, project=project)

    @server.tool(annotations=DESTRUCTIVE, description=(
        "Take one file out of the code index (units, vectors, call sites); calls into it are resolved again. A "
        "file still on disk comes back on the next index_codebase. Returns {project, file, units_removed, "
        "calls_removed, calls_unresolved, calls_reresolved, still_on_disk}; a path not indexed gives not_found."))
    async def remove_file(
        path: Annotated[str, Field(description="The file, relative to the project root or absolute inside it.")],
        project: Annotated[str | None, Field(description="Its project (only if several index that path).")] = None,
    ) -> CallToolResult:
        return await call(lm.remove_file, path, project=project)
