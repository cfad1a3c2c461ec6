-- Test and build outcomes observed by the Claude Code hooks (learnmem/hooks.py),
-- against the GHAP entry that was active when the run finished.
--
-- A PostToolUse hook sees every Bash command the agent runs; when it is a test
-- or build command (pytest, npm test, cargo test, go test, make build, tox, ...)
-- and an entry is active, the run's outcome is appended here. Resolving the entry
-- consults the latest observation made since its current hypothesis/action/prediction
-- were set (ghap_active.revised_at): a resolution that agrees with it (confirmed
-- after a passing run, falsified after a failing one) is auto-captured, hence gold
-- (learnmem/ghap.py, resolve_ghap). Rows stay after the entry is resolved: they are
-- the evidence behind its tier. Appended only, never changed.

CREATE TABLE ghap_observations (
    ghap_id     VARCHAR NOT NULL,   -- the entry active when the run finished
    session_id  VARCHAR NOT NULL,   -- that entry's session
    observed_at TIMESTAMP NOT NULL,
    tool        VARCHAR NOT NULL,   -- the agent's tool, e.g. Bash
    command     VARCHAR NOT NULL,   -- the command line as the agent ran it (cut to 2,000 characters)
    kind        VARCHAR NOT NULL,   -- test or build
    outcome     VARCHAR NOT NULL,   -- passed or failed
    exit_code   INTEGER,            -- when the tool reported one
    summary     VARCHAR NOT NULL    -- the run's summary line (e.g. `3 failed, 40 passed in 2.10s`), or its last line
);
