"""learnmem: memory for AI coding agents in one DuckDB file.

    import learnmem
    lm = learnmem.open()
    lm.store_memory("Use ruff, not black", category="preference", importance=0.8, tags=["style"])
    lm.retrieve_memories("which formatter?")
"""

from learnmem.api import Learnmem, init_project, open
from learnmem.errors import InsufficientDataError, LearnmemError, NotFoundError, ValidationError
from learnmem.memories import MEMORY_CATEGORIES
from learnmem.records import DeleteResult, Info, Memory, MemoryHit, StoreResult
from learnmem.version import VERSION as __version__

__all__ = [
    "MEMORY_CATEGORIES",
    "DeleteResult",
    "Info",
    "InsufficientDataError",
    "Learnmem",
    "LearnmemError",
    "Memory",
    "MemoryHit",
    "NotFoundError",
    "StoreResult",
    "ValidationError",
    "__version__",
    "init_project",
    "open",
]
