-- Spec-aware memories (issue 10 item 2):
--   spec:  the project or spec a memory belongs to, as a slug ("checkout-v2"); NULL for memories that
--          hold across specs. SessionStart injects the active spec's decisions, blockers and learnings
--          (the active specs are the folders or files under docs/spec/active/ by default).
--   phase: the phase of that work it was made in: planning, implementation, review or close-out.
-- New columns at the end: DuckDB adds them without rewriting the rows (they read as NULL).

ALTER TABLE memories ADD COLUMN spec VARCHAR;
ALTER TABLE memories ADD COLUMN phase VARCHAR;
