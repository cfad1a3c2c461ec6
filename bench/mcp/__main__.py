"""`python -m bench.mcp`: time the MCP server's start and stop as a client sees them (see bench.mcp.run)."""

import sys

from bench.mcp.run import main

sys.exit(main())
