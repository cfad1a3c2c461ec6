"""Git history: commits, file changes, churn, authors, blame, line history (read with dulwich)."""
