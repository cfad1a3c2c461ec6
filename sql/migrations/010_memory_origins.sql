-- Where a memory came from (issue 8 items 6 and 9):
--   commit_sha: HEAD of the project's git repository when the memory was stored (NULL outside a
--               repository, or before it had a commit); `learnmem notes export` attaches the memory
--               to that commit as a git note, and retrieve_memories(detail="files") reads its files there.
--   sources:    the documents it was drawn from ("README.md#install", "lib/auth.py"); NULL when none
--               were given. `learnmem docs-gaps` counts them.
-- New columns at the end: DuckDB adds them without rewriting the rows (they read as NULL).

ALTER TABLE memories ADD COLUMN commit_sha VARCHAR;
ALTER TABLE memories ADD COLUMN sources VARCHAR[];
