-- GHAP (Goal-Hypothesis-Action-Prediction) entries, the sessions they belong to,
-- and the experience axes of resolved entries (../shared/GHAP.md is the contract).
-- No PRIMARY KEY / UNIQUE constraints, for the reason given in 001.

-- An agent session. The current session is the newest one not ended.
CREATE TABLE sessions (
    id         VARCHAR NOT NULL,   -- session_YYYYMMDD_HHMMSS_xxxxxx
    started_at TIMESTAMP NOT NULL,
    ended_at   TIMESTAMP,
    tool_count INTEGER NOT NULL    -- tool calls since the last check-in (persists across processes)
);

-- Active and resolved entries. At most one row has active = true; a resolved row is never changed again.
CREATE TABLE ghap_entries (
    id                     VARCHAR NOT NULL,  -- ghap_YYYYMMDD_HHMMSS_xxxxxx
    session_id             VARCHAR NOT NULL,
    created_at             TIMESTAMP NOT NULL,
    updated_at             TIMESTAMP NOT NULL,
    revised_at             TIMESTAMP NOT NULL,  -- when the current hypothesis/action/prediction were set
    active                 BOOLEAN NOT NULL,
    domain                 VARCHAR NOT NULL,
    strategy               VARCHAR NOT NULL,
    goal                   VARCHAR NOT NULL,
    hypothesis             VARCHAR NOT NULL,
    action                 VARCHAR NOT NULL,
    prediction             VARCHAR NOT NULL,
    -- Earlier (hypothesis, action, prediction) triples, oldest first: length = iteration_count - 1.
    history                STRUCT("timestamp" TIMESTAMP, hypothesis VARCHAR, action VARCHAR, prediction VARCHAR)[] NOT NULL,
    iteration_count        INTEGER NOT NULL,
    notes                  VARCHAR[] NOT NULL,
    outcome_status         VARCHAR,           -- confirmed, falsified, abandoned; NULL while active
    outcome_result         VARCHAR,
    captured_at            TIMESTAMP,         -- = resolved time
    auto_captured          BOOLEAN,
    surprise               VARCHAR,
    root_cause_category    VARCHAR,
    root_cause_description VARCHAR,
    lesson_what_worked     VARCHAR,
    lesson_takeaway        VARCHAR,
    confidence_tier        VARCHAR            -- gold, silver, bronze, abandoned; NULL while active
);

-- One row per resolved entry per axis (full, strategy, surprise, root_cause): the text embedded.
CREATE TABLE experience_axes (
    ghap_id    VARCHAR NOT NULL,
    axis       VARCHAR NOT NULL,
    text       VARCHAR NOT NULL,
    terms      VARCHAR[] NOT NULL,
    embedding  FLOAT[384],           -- NULL while pending (embedding failed or not yet done)
    created_at TIMESTAMP NOT NULL
);
