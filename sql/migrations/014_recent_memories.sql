-- New memories go to a small table (issue 22, item 4). Never edit this file once released.
-- DuckDB rewrites a table's trailing segment when it checkpoints, at every close: one new row in `memories`
-- rewrote the last segment of its 384-float vectors, up to ~2M floats (a store at 10,000 memories spent
-- ~113 ms of its ~190 ms detaching; into a small table, 15 ms). As migration 005 did for experience axes,
-- `memories_recent` takes each store, and its rows move to `memories_stored` in bulk once FOLD_ROWS have
-- gathered (learnmem/memory/memories.py). The view `memories` (views.sql) shows both, as the table of that
-- name did; `seq` still numbers every row in the order stored.

ALTER TABLE memories RENAME TO memories_stored;

CREATE TABLE memories_recent (
    id           VARCHAR NOT NULL,
    seq          BIGINT NOT NULL DEFAULT nextval('memory_seq'),
    content      VARCHAR NOT NULL,
    content_hash VARCHAR NOT NULL,
    category     VARCHAR NOT NULL,
    importance   DOUBLE NOT NULL CHECK (importance >= 0 AND importance <= 1),
    tags         VARCHAR[] NOT NULL,
    terms        VARCHAR[] NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    embedding    FLOAT[384] NOT NULL,
    passages     FLOAT[384][] NOT NULL,
    commit_sha   VARCHAR,
    sources      VARCHAR[],
    spec         VARCHAR,
    phase        VARCHAR
);
