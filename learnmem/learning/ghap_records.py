"""The frozen dataclasses GHAP tracking returns (shapes from ../shared/GHAP.md "Tool outputs").

Times are ISO 8601 strings in UTC ending in `Z`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StartResult:
    """start_ghap: the new entry; `warning` says when it superseded an active one."""

    id: str
    domain: str
    strategy: str
    goal: str
    hypothesis: str
    action: str
    prediction: str
    created_at: str
    warning: str | None = None


@dataclass(frozen=True)
class UpdateResult:
    success: bool
    iteration_count: int


@dataclass(frozen=True)
class ResolveResult:
    id: str
    status: str
    confidence_tier: str
    resolved_at: str


@dataclass(frozen=True)
class ActiveGhap:
    """get_active_ghap (and the orphan calls): every field None when there is no active entry."""

    has_active: bool
    id: str | None = None
    domain: str | None = None
    strategy: str | None = None
    goal: str | None = None
    hypothesis: str | None = None
    action: str | None = None
    prediction: str | None = None
    iteration_count: int | None = None
    created_at: str | None = None
    session_id: str | None = None


@dataclass(frozen=True)
class GhapSummary:
    """One row of list_ghap_entries, newest first."""

    id: str
    domain: str
    strategy: str
    goal: str
    outcome_status: str | None
    confidence_tier: str | None
    created_at: str
    resolved_at: str | None


@dataclass(frozen=True)
class SessionEnd:
    """end_session: which session ended and the entry it abandoned, if one was active."""

    session_id: str
    abandoned_ghap_id: str | None


@dataclass(frozen=True)
class Experience:
    """A resolved entry seen through one axis (search_experiences, get_cluster_members)."""

    id: str  # "<ghap id>:<axis>"
    ghap_id: str
    axis: str
    domain: str
    strategy: str
    goal: str
    hypothesis: str
    action: str
    prediction: str
    outcome_status: str
    outcome_result: str
    surprise: str | None
    root_cause: dict | None  # {category, description}
    lesson: dict | None  # {what_worked, takeaway}
    confidence_tier: str
    created_at: str
    score: float | None = None
