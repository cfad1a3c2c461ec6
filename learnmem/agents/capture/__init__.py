"""Capture from tool output: learnable moments found by the PostToolUse hook, queued, and stored at Stop."""
