"""Context tools: what to know now (get_context), and how a strategy went before (get_premortem)."""

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from learnmem import vocabulary
from mcp_adapter.results import call
from mcp_adapter.schema import READ_ONLY, Depth, Domain, SpecParam, Strategy


def register(server: MCPServer, lm: Any) -> None:
    """Register the context tools of `lm` (an opened `learnmem.Learnmem`) on `server`."""
    domains = ", ".join(vocabulary.DOMAINS)
    strategies = ", ".join(vocabulary.STRATEGIES)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "What you should know now, as compact markdown within max_tokens. depth light (session start; "
            "situation optional): the spec's blockers, decisions and learnings (without a spec: recent patterns), "
            "top values, recent experiences, important and recent memories, recent commits "
            "and hotspots. depth rich (after a failure or before a risky change; give the situation): similar "
            "experiences with their lessons, values, surprise and root-cause patterns, relevant memories and "
            "code. Returns {depth, situation, markdown, tokens, max_tokens, items: [{kind, id, text, score, "
            "tokens}], omitted}; items carry ids to drill down with the other tools, omitted counts what the "
            "budget left out."
        ),
    )
    async def get_context(
        situation: Annotated[str | None, Field(description="What you are doing or what just went wrong.")] = None,
        depth: Annotated[Depth, Field(description="light or rich (rich needs a situation).")] = "light",
        max_tokens: Annotated[int, Field(description="Token budget of the markdown.")] = 2000,
        include_code: Annotated[bool, Field(description="Include relevant code units (rich).")] = True,
        project: Annotated[str | None, Field(description="Only this indexed project's code and commits.")] = None,
        spec: SpecParam = None,
    ) -> CallToolResult:
        return await call(lm.get_context, situation, depth=depth, max_tokens=max_tokens, include_code=include_code,
                          project=project, spec=spec)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Before trying a strategy on a kind of work: how it went before. Returns {domain, strategy, situation, "
            "total, confirmed, falsified, abandoned, failures: [experiences, most relevant to the situation "
            "first], surprises: [{text, count, example_ghap_id}], root_causes: [{text, count, example_ghap_id}], "
            "values: [...], markdown}."
        ),
    )
    async def get_premortem(
        domain: Annotated[Domain, Field(description=f"The kind of work: {domains}.")],
        strategy: Annotated[Strategy, Field(description=f"The strategy you are about to use: {strategies}.")],
        situation: Annotated[str | None, Field(description="What you are about to do, to rank past failures.")] = None,
    ) -> CallToolResult:
        return await call(lm.get_premortem, domain, strategy, situation=situation)
