"""learnmem: memory for AI coding agents in one DuckDB file.

    import learnmem
    lm = learnmem.open()
    lm.store_memory("Use ruff, not black", category="preference", importance=0.8, tags=["style"])
    lm.retrieve_memories("which formatter?")
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # `typing` costs ~8 ms, which a hook process should not pay

from learnmem.version import VERSION as __version__

if TYPE_CHECKING:
    from learnmem.api import Learnmem, init_project, open
    from learnmem.errors import InsufficientDataError, LearnmemError, NotFoundError, ValidationError
    from learnmem.memory.items import MEMORY_CATEGORIES
    from learnmem.memory.records import DeleteResult, ForgetResult, Info, Memory, MemoryHit, StoreResult

# duckdb, numpy and pyarrow cost ~300 ms to import, and even the record types ~20 ms; a hook answered by the
# MCP server spends ~30 ms in all, and `learnmem --help` must not pay either, so every name loads on first use.
_LAZY = {
    "Learnmem": "learnmem.api", "open": "learnmem.api", "init_project": "learnmem.api",
    "MEMORY_CATEGORIES": "learnmem.memory.items",
    **dict.fromkeys(("InsufficientDataError", "LearnmemError", "NotFoundError", "ValidationError"), "learnmem.errors"),
    **dict.fromkeys(("DeleteResult", "ForgetResult", "Info", "Memory", "MemoryHit", "StoreResult"),
                    "learnmem.memory.records"),
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'learnmem' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
