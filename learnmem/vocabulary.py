"""The words every door accepts, gathered from the areas that define them.

Memory categories and phases, GHAP domains, strategies, root cause categories and statuses, experience
axes and context depths; and `cluster_axis`, which reads the axis out of a cluster id. The CLI and the MCP
adapter build their choices and input schemas from these, so a door never keeps its own copy of a list.
"""

from learnmem.context.assembly import DEPTHS
from learnmem.learning.experiences import AXES
from learnmem.learning.terms import DOMAINS, ROOT_CAUSE_CATEGORIES, STATUSES, STRATEGIES
from learnmem.learning.clusters import cluster_axis
from learnmem.memory.items import MEMORY_CATEGORIES, PHASES

__all__ = ["AXES", "DEPTHS", "DOMAINS", "MEMORY_CATEGORIES", "PHASES", "ROOT_CAUSE_CATEGORIES", "STATUSES",
           "STRATEGIES", "cluster_axis"]
