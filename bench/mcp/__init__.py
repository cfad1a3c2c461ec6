"""The MCP server as a client meets it: how fast it answers and stops, and what its tool list costs."""
