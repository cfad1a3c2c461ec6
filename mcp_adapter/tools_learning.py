"""Learning tools: cluster the experiences, and write, check and find the values they teach."""

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from learnmem import vocabulary
from mcp_adapter.results import call
from mcp_adapter.schema import READ_ONLY, TRANSITION, Axis


def register(server: MCPServer, lm: Any) -> None:
    """Register the learning tools of `lm` (an opened `learnmem.Learnmem`) on `server`."""
    axes = ", ".join(vocabulary.AXES)

    @server.tool(
        annotations=TRANSITION,
        description=(
            "Cluster the experiences (resolved GHAP entries) of one axis now and store the run: the recurring "
            f"themes of past work. axis: {axes}. Returns {{axis, run_id, clusters: [{{cluster_id, label, size, "
            "avg_weight}], count, noise_count, experience_count, created_at, dissolved_values, cold_count}, largest "
            "first; cold experiences (bronze, abandoned) are left out and counted in cold_count. "
            "Cluster ids (e.g. surprise-3) carry over to the next run when most members do. Fewer than 20 "
            "experiences on the axis, or none forming a cluster: insufficient_data."
        ),
    )
    async def get_clusters(
        axis: Annotated[Axis, Field(description=f"The axis: {axes}.")],
    ) -> CallToolResult:
        return await call(lm.get_clusters, axis)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "The experiences of one cluster, most central first (score = similarity to the centroid): read them "
            "before writing a value. Returns {results: [{id, ghap_id, axis, goal, hypothesis, action, prediction, "
            "outcome_status, outcome_result, surprise, root_cause, lesson, confidence_tier, created_at, score}], count}."
        ),
    )
    async def get_cluster_members(
        cluster_id: Annotated[str, Field(description="A cluster id from get_clusters, e.g. surprise-3.")],
        limit: Annotated[int, Field(description="Maximum number of experiences (1-100).")] = 50,
    ) -> CallToolResult:
        return await call(lm.get_cluster_members, cluster_id, limit=limit)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Check a candidate value (one sentence stating what a cluster's experiences teach) against the "
            "cluster without storing it. Valid when no other cluster of its axis is nearer to the text by more "
            "than a small margin and the text's distance to what the members learned is within the threshold. "
            "When refused, read the reason and the cluster's members (get_cluster_members) and write a second "
            "draft about what they share. Returns {valid, similarity, centroid_distance, threshold_distance, "
            "reason, cluster_id, nearest_cluster_id, cluster_similarity, nearest_other_cluster_id, "
            "nearest_other_similarity, shared_terms}."
        ),
    )
    async def validate_value(
        text: Annotated[str, Field(description="The candidate value, at most 500 characters.")],
        cluster_id: Annotated[str, Field(description="The cluster it summarises, e.g. surprise-3.")],
    ) -> CallToolResult:
        return await call(lm.validate_value, text, cluster_id)

    @server.tool(
        annotations=TRANSITION,
        description=(
            "Store a value for a cluster: it is validated again and refused (validation_error, nothing stored) "
            "when it is not grounded in the cluster. Returns {id, text, axis, cluster_id, cluster_size, "
            "similarity_to_centroid, created_at, dissolved_at: null, score: null}."
        ),
    )
    async def store_value(
        text: Annotated[str, Field(description="The value, at most 500 characters.")],
        cluster_id: Annotated[str, Field(description="The cluster it summarises, e.g. surprise-3.")],
        axis: Annotated[Axis, Field(description=f"The cluster's axis: {axes}.")],
    ) -> CallToolResult:
        return await call(lm.store_value, text, cluster_id, axis)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Stored values, by the size of their cluster then newest first. Returns {results: [{id, text, axis, "
            "cluster_id, cluster_size, similarity_to_centroid, created_at, dissolved_at}], count}; dissolved_at "
            "is set when a re-clustering left the value's cluster without a successor."
        ),
    )
    async def list_values(
        axis: Annotated[Axis | None, Field(description=f"Only values of this axis: {axes}.")] = None,
        limit: Annotated[int, Field(description="Maximum number of values (1-100).")] = 20,
    ) -> CallToolResult:
        return await call(lm.list_values, axis=axis, limit=limit)

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Values matching a situation, by meaning and keywords, best first: what past work taught about it. "
            "Returns {results: [{id, text, axis, cluster_id, cluster_size, similarity_to_centroid, created_at, "
            "dissolved_at, score}], count}."
        ),
    )
    async def search_values(
        query: Annotated[str, Field(description="The situation or question, in plain words.")],
        axis: Annotated[Axis | None, Field(description=f"Only values of this axis: {axes}.")] = None,
        limit: Annotated[int, Field(description="Maximum number of values (1-50).")] = 5,
    ) -> CallToolResult:
        return await call(lm.search_values, query, axis=axis, limit=limit)
