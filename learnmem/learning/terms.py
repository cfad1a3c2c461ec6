"""The words of a GHAP entry: domains, strategies, root cause categories, outcome statuses, confidence tiers
and their weights, and which tiers are cold (kept, but left out of clustering and default retrieval).

No numpy, pyarrow or DuckDB here (the hooks' one-shot view reads the cold tiers): the state machine
(ghap.py), the experiences it resolves into and the doors' vocabulary read these without loading each other.
"""

from __future__ import annotations

import os

from learnmem import validate
from learnmem.errors import ValidationError

DOMAINS = ("debugging", "refactoring", "feature", "testing", "configuration", "documentation", "performance",
           "security", "integration")
STRATEGIES = ("systematic-elimination", "trial-and-error", "research-first", "divide-and-conquer",
              "root-cause-analysis", "copy-from-similar", "check-assumptions", "read-the-error", "ask-user")
ROOT_CAUSE_CATEGORIES = ("wrong-assumption", "missing-knowledge", "oversight", "environment-issue",
                         "misleading-symptom", "incomplete-fix", "wrong-scope", "test-isolation", "timing-issue")
STATUSES = ("confirmed", "falsified", "abandoned")
TIERS = ("gold", "silver", "bronze", "abandoned")
TIER_WEIGHTS = {"gold": 1.0, "silver": 0.8, "bronze": 0.5, "abandoned": 0.2}
# Cold storage: experiences of the cold tiers (the threshold and every tier below it; TIERS is ordered from the
# best) are kept but left out of clustering and of default retrieval (include_cold=True brings them back).
COLD_TIER_VARIABLE = "LEARNMEM_COLD_TIER"
COLD_TIER_SETTINGS = ("silver", "bronze", "abandoned", "none")  # "none": nothing is cold
DEFAULT_COLD_TIER = "bronze"


def cold_tier_setting(cold_tier: str | None) -> str | None:
    """A `cold_tier` keyword checked (None: not given, LEARNMEM_COLD_TIER or the default decides at each use)."""
    if cold_tier is None:
        return None
    return validate.choice("cold_tier", cold_tier, COLD_TIER_SETTINGS)


def cold_tiers(cold_tier: str | None = None) -> tuple[str, ...]:
    """The cold tiers: `cold_tier` and every tier below it (gold > silver > bronze > abandoned); () for "none".

    `cold_tier` None reads LEARNMEM_COLD_TIER at each call (unset or blank: DEFAULT_COLD_TIER, bronze), as
    learning.parameters() reads LEARNMEM_MIN_CLUSTER_SIZE; a bad value is a ValidationError naming it.
    """
    if cold_tier is None:
        raw = os.environ.get(COLD_TIER_VARIABLE)
        cold_tier = DEFAULT_COLD_TIER if raw is None or not raw.strip() else raw.strip().lower()
        if cold_tier not in COLD_TIER_SETTINGS:
            raise ValidationError(f"{COLD_TIER_VARIABLE}: {raw!r} is not one of: {', '.join(COLD_TIER_SETTINGS)}")
    else:
        cold_tier_setting(cold_tier)
    return () if cold_tier == "none" else TIERS[TIERS.index(cold_tier):]
