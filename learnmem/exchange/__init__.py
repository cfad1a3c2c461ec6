"""Moving what learnmem holds: backups, JSONL and markdown export and import, GHAP files, git notes, lake push and pull."""
