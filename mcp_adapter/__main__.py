"""`python -m mcp_adapter`: run the learnmem MCP server over stdio."""

from mcp_adapter.process import main

if __name__ == "__main__":
    main()
