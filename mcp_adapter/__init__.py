"""MCP adapter for learnmem: one MCP tool per library call, served over stdio.

Run it with `learnmem-mcp --db PATH` or `python -m mcp_adapter --db PATH`. `build_server` (the MCP SDK's
server, ~1 s to import) and `main` load on first use: the process answers the handshake before either.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_adapter.process import main
    from mcp_adapter.server import build_server

_LAZY = {"build_server": "mcp_adapter.server", "main": "mcp_adapter.process"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mcp_adapter' has no attribute {name!r}")


__all__ = ["build_server", "main"]
