-- Code intelligence: indexed files, their units, imports and call sites.
-- No PRIMARY KEY / UNIQUE constraints, for the reason given in 001.

CREATE TABLE code_files (
    project       VARCHAR NOT NULL,
    path          VARCHAR NOT NULL,   -- relative to the indexed root, POSIX separators
    language      VARCHAR NOT NULL,
    module        VARCHAR NOT NULL,
    content_hash  VARCHAR NOT NULL,   -- sha256 of the bytes: unchanged files are skipped
    size_bytes    BIGINT NOT NULL,
    syntax_errors INTEGER NOT NULL,
    indexed_at    TIMESTAMP NOT NULL
);

CREATE SEQUENCE code_unit_seq;

CREATE TABLE code_units (
    id             VARCHAR NOT NULL,
    seq            BIGINT NOT NULL DEFAULT nextval('code_unit_seq'),
    project        VARCHAR NOT NULL,
    file_path      VARCHAR NOT NULL,
    module         VARCHAR NOT NULL,
    name           VARCHAR NOT NULL,
    qualified_name VARCHAR NOT NULL,  -- '' for the module unit
    unit_type      VARCHAR NOT NULL,  -- module, class, function, method, key
    signature      VARCHAR NOT NULL,
    docstring      VARCHAR NOT NULL,
    content        VARCHAR NOT NULL,
    start_line     INTEGER NOT NULL,
    end_line       INTEGER NOT NULL,
    language       VARCHAR NOT NULL,
    complexity     INTEGER NOT NULL,
    content_hash   VARCHAR NOT NULL,  -- of the text that was embedded: unchanged units keep their vector
    bases          VARCHAR[] NOT NULL,
    terms          VARCHAR[] NOT NULL,
    embedding      FLOAT[384] NOT NULL
);

CREATE TABLE code_imports (
    project   VARCHAR NOT NULL,
    file_path VARCHAR NOT NULL,
    local     VARCHAR NOT NULL,
    module    VARCHAR NOT NULL,
    name      VARCHAR NOT NULL,
    line      INTEGER NOT NULL
);

-- Call sites as written, per file: what the resolver reads on every index run.
CREATE TABLE call_sites (
    project       VARCHAR NOT NULL,
    file_path     VARCHAR NOT NULL,
    caller        VARCHAR NOT NULL,   -- qualified name of the enclosing unit, '' at module level
    callee        VARCHAR NOT NULL,   -- the called expression: "load", "self.load", "a.b.load"
    name          VARCHAR NOT NULL,   -- its last identifier
    line          INTEGER NOT NULL,
    receiver_type VARCHAR NOT NULL    -- constructor of a local receiver ("Foo" for x = Foo(); x.m()), or ''
);

-- The call graph: every call site, resolved to the unit it calls where static
-- analysis could tell (callee_module, callee_qualified_name NULL otherwise).
CREATE TABLE calls (
    project               VARCHAR NOT NULL,
    file_path             VARCHAR NOT NULL,
    caller_module         VARCHAR NOT NULL,
    caller_qualified_name VARCHAR NOT NULL,
    callee_module         VARCHAR,
    callee_qualified_name VARCHAR,
    callee_name           VARCHAR NOT NULL,
    line                  INTEGER NOT NULL
);
