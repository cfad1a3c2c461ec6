"""learnmem: memory for AI coding agents in one DuckDB file.

    import learnmem
    lm = learnmem.open()
    lm.store_memory("Use ruff, not black", category="preference", importance=0.8, tags=["style"])
    lm.retrieve_memories("which formatter?")
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from learnmem.errors import InsufficientDataError, LearnmemError, NotFoundError, ValidationError
from learnmem.memory.records import DeleteResult, ForgetResult, Info, Memory, MemoryHit, StoreResult
from learnmem.version import VERSION as __version__

if TYPE_CHECKING:
    from learnmem.api import Learnmem, init_project, open
    from learnmem.memory.memories import MEMORY_CATEGORIES

# duckdb, numpy and pyarrow cost ~300 ms to import; hooks and `learnmem --help`
# must not pay that, so these names load on first use.
_LAZY = {"Learnmem": "learnmem.api", "open": "learnmem.api", "init_project": "learnmem.api", "MEMORY_CATEGORIES": "learnmem.memory.memories"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'learnmem' has no attribute {name!r}")


__all__ = [
    "MEMORY_CATEGORIES",
    "DeleteResult",
    "ForgetResult",
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
