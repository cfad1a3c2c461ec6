"""Memories: stored, deduplicated, retrieved, superseded, compacted and forgotten; what they return."""
