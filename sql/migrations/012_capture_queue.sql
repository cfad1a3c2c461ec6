-- Learnings captured from tool output, waiting to become memories (issue 10 item 1).
--
-- The PostToolUse hook (learnmem/hooks.py, learnmem/capture.py) reads what a tool returned (Bash output,
-- a subagent's report, the comments an edit adds) for learnable moments: an error that was then fixed,
-- "the issue was", "turns out", "workaround", a deprecation that names its replacement, a blocker. Each is
-- queued here in one short transaction, so the agent's tool call is not held up by the model. The Stop
-- and SessionEnd hooks flush the queue (learnmem/capture_queue.py): candidates that repeat a current
-- memory are dropped, the others stored as memories tagged `auto-captured`, and their rows deleted.
-- `learnmem memories --queued` shows what waits; `--discard-queued` drops it.

CREATE TABLE capture_queue (
    id          VARCHAR NOT NULL,   -- cap_<time>_<random>
    session_id  VARCHAR,            -- the agent's session (Claude Code's session_id), when the hook had one
    captured_at TIMESTAMP NOT NULL,
    tool        VARCHAR NOT NULL,   -- Bash, Edit, Write, Task...
    category    VARCHAR NOT NULL,   -- learning or blocker
    content     VARCHAR NOT NULL,   -- the memory to be: the moment and its context, bounded
    key         VARCHAR NOT NULL    -- what makes two candidates the same (a repeated warning is queued once)
);
