-- Memory lifecycle: a memory that is forgotten (softly: recoverable) or superseded by
-- another stays in `memories`; its state lives here, one row per memory that has one.
--
-- Why a table apart: `memories` only ever gets appends (and hard deletes), so a
-- checkpoint never rewrites its row groups of vectors for a change of state (the
-- pattern of migration 005). Retrieval hides forgotten memories, and superseded
-- ones unless asked for them.

CREATE TABLE memory_states (
    memory_id     VARCHAR NOT NULL,
    superseded_by VARCHAR,            -- the memory that replaces this one
    forgotten_at  TIMESTAMP,          -- soft-forgotten: hidden everywhere until restored
    changed_at    TIMESTAMP NOT NULL
);
