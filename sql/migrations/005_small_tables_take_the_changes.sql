-- Rows that change move out of the big tables into small ones.
-- DuckDB rewrites a table's changed row group when it checkpoints (at every
-- close), so each start/update of the one active GHAP row rewrote every entry
-- (20+ ms per call at 10,000 entries); and each small append rewrites the
-- table's trailing row group, which for the 384-float vectors of experience
-- axes costs up to ~70 ms (it grows to ~2,000 rows before a new one starts).
-- Now `ghap_active` (at most one row) takes the updates and `ghap_resolved`
-- only receives appends; new axes go to the small `experience_axes_recent`
-- (pending until embedded there) and move to `experience_axes_embedded` in
-- bulk (experiences.py). The views `ghap_entries` and `experience_axes`
-- (views.sql) show both halves, as the tables of those names did.

CREATE TABLE ghap_active (
    id              VARCHAR NOT NULL,  -- ghap_YYYYMMDD_HHMMSS_xxxxxx
    session_id      VARCHAR NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL,
    revised_at      TIMESTAMP NOT NULL,  -- when the current hypothesis/action/prediction were set
    domain          VARCHAR NOT NULL,
    strategy        VARCHAR NOT NULL,
    goal            VARCHAR NOT NULL,
    hypothesis      VARCHAR NOT NULL,
    action          VARCHAR NOT NULL,
    prediction      VARCHAR NOT NULL,
    -- Earlier (hypothesis, action, prediction) triples, oldest first: length = iteration_count - 1.
    history         STRUCT("timestamp" TIMESTAMP, hypothesis VARCHAR, action VARCHAR, prediction VARCHAR)[] NOT NULL,
    iteration_count INTEGER NOT NULL,
    notes           VARCHAR[] NOT NULL
);

-- Resolved entries: appended once, never changed again.
CREATE TABLE ghap_resolved (
    id                     VARCHAR NOT NULL,
    session_id             VARCHAR NOT NULL,
    created_at             TIMESTAMP NOT NULL,
    updated_at             TIMESTAMP NOT NULL,
    revised_at             TIMESTAMP NOT NULL,
    domain                 VARCHAR NOT NULL,
    strategy               VARCHAR NOT NULL,
    goal                   VARCHAR NOT NULL,
    hypothesis             VARCHAR NOT NULL,
    action                 VARCHAR NOT NULL,
    prediction             VARCHAR NOT NULL,
    history                STRUCT("timestamp" TIMESTAMP, hypothesis VARCHAR, action VARCHAR, prediction VARCHAR)[] NOT NULL,
    iteration_count        INTEGER NOT NULL,
    notes                  VARCHAR[] NOT NULL,
    outcome_status         VARCHAR NOT NULL,  -- confirmed, falsified, abandoned
    outcome_result         VARCHAR NOT NULL,
    captured_at            TIMESTAMP NOT NULL,  -- = resolved time
    auto_captured          BOOLEAN NOT NULL,
    surprise               VARCHAR,
    root_cause_category    VARCHAR,
    root_cause_description VARCHAR,
    lesson_what_worked     VARCHAR,
    lesson_takeaway        VARCHAR,
    confidence_tier        VARCHAR NOT NULL   -- gold, silver, bronze, abandoned
);

INSERT INTO ghap_active BY NAME SELECT * EXCLUDE (active, outcome_status, outcome_result, captured_at, auto_captured,
    surprise, root_cause_category, root_cause_description, lesson_what_worked, lesson_takeaway, confidence_tier)
FROM ghap_entries WHERE active;

INSERT INTO ghap_resolved BY NAME SELECT * EXCLUDE (active) FROM ghap_entries WHERE NOT active ORDER BY captured_at, id;

-- New experience axes: pending (NULL embedding) until embedded here; moved to
-- experience_axes_embedded when enough have gathered (experiences.FOLD_ROWS).
CREATE TABLE experience_axes_recent (
    ghap_id    VARCHAR NOT NULL,
    axis       VARCHAR NOT NULL,
    text       VARCHAR NOT NULL,
    terms      VARCHAR[] NOT NULL,
    embedding  FLOAT[384],
    created_at TIMESTAMP NOT NULL
);

-- Embedded experience axes, appended in bulk (a re-embedding rewrites them all).
CREATE TABLE experience_axes_embedded (
    ghap_id    VARCHAR NOT NULL,
    axis       VARCHAR NOT NULL,
    text       VARCHAR NOT NULL,
    terms      VARCHAR[] NOT NULL,
    embedding  FLOAT[384] NOT NULL,
    created_at TIMESTAMP NOT NULL
);

INSERT INTO experience_axes_recent BY NAME SELECT * FROM experience_axes WHERE embedding IS NULL;

INSERT INTO experience_axes_embedded BY NAME SELECT * FROM experience_axes WHERE embedding IS NOT NULL
ORDER BY created_at, ghap_id, axis;

DROP VIEW IF EXISTS experiences;
DROP TABLE ghap_entries;
DROP TABLE experience_axes;
