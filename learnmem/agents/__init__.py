"""Where learnmem meets a coding agent: the hooks, capture from tool output, and setting up the agent's project."""
