"""MCP adapter for learnmem: one MCP tool per library call, served over stdio.

Run it with `learnmem-mcp --db PATH` or `python -m mcp_adapter --db PATH`.
"""

from mcp_adapter.server import build_server, main

__all__ = ["build_server", "main"]
