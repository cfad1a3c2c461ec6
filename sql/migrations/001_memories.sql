-- The memory tables. Never edit this file once released: add 002_... instead.

CREATE TABLE meta (
    key   VARCHAR PRIMARY KEY,
    value VARCHAR NOT NULL
);

CREATE SEQUENCE memory_seq;

-- No PRIMARY KEY / UNIQUE: DuckDB rewrites their ART indexes whole at every
-- checkpoint (0.5 s per write at 40k rows, measured). Ids are random and the
-- writer lock serialises the duplicate check, so the library keeps both unique.
CREATE TABLE memories (
    id           VARCHAR NOT NULL,
    -- Monotonic insertion order: lets a long-lived process load only new rows.
    seq          BIGINT NOT NULL DEFAULT nextval('memory_seq'),
    content      VARCHAR NOT NULL,
    -- sha256 of the whitespace-normalised content: exact duplicates are refused (by the library).
    content_hash VARCHAR NOT NULL,
    category     VARCHAR NOT NULL,
    importance   DOUBLE NOT NULL CHECK (importance >= 0 AND importance <= 1),
    tags         VARCHAR[] NOT NULL,
    -- The keyword index: stemmed tokens of the content, for BM25.
    terms        VARCHAR[] NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    -- The normalised mean of the passage vectors: one vector per memory, for SQL users.
    embedding    FLOAT[384] NOT NULL,
    -- A text longer than the model's window is embedded in overlapping passages;
    -- retrieval scores a memory by its best passage. Empty for short texts.
    passages     FLOAT[384][] NOT NULL
);
