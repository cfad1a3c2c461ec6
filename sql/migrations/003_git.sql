-- Git history: the commits reachable from the indexed refs and what each changed.
-- No PRIMARY KEY / UNIQUE constraints, for the reason given in 001.

-- One row per indexed repository: where it is and what the last run saw.
CREATE TABLE git_repos (
    project    VARCHAR NOT NULL,
    root       VARCHAR NOT NULL,    -- absolute path: the worktree top, or a bare repository's folder
    refs       VARCHAR[] NOT NULL,  -- the refs indexed: ['HEAD'] or HEAD and every refs/heads/*
    tips       VARCHAR[] NOT NULL,  -- the commits they pointed at
    shallow    BOOLEAN NOT NULL,
    indexed_at TIMESTAMP NOT NULL
);

CREATE TABLE commits (
    project         VARCHAR NOT NULL,
    sha             VARCHAR NOT NULL,
    position        BIGINT NOT NULL,     -- topological: every parent has a smaller position
    parents         VARCHAR[] NOT NULL,  -- as git sees them: [] for a root or a shallow boundary
    subject         VARCHAR NOT NULL,    -- the first paragraph of the message, on one line
    message         VARCHAR NOT NULL,
    author          VARCHAR NOT NULL,    -- after .mailmap
    author_email    VARCHAR NOT NULL,
    committer       VARCHAR NOT NULL,
    committer_email VARCHAR NOT NULL,
    authored_at     TIMESTAMP NOT NULL,  -- UTC
    committed_at    TIMESTAMP NOT NULL,  -- UTC
    -- Against the first parent (the empty tree for a root commit), binary files counted in
    -- files_changed but not in lines, as `git log --numstat --diff-merges=first-parent` does.
    insertions      INTEGER NOT NULL,
    deletions       INTEGER NOT NULL,
    files_changed   INTEGER NOT NULL,
    is_merge        BOOLEAN NOT NULL,
    terms           VARCHAR[] NOT NULL,  -- BM25 terms of subject, body and touched paths
    embedding       FLOAT[384]           -- of the same text; NULL when indexed without embedding
);

CREATE TABLE commit_files (
    project     VARCHAR NOT NULL,
    sha         VARCHAR NOT NULL,
    path        VARCHAR NOT NULL,  -- after the commit (the removed path for a delete)
    old_path    VARCHAR,           -- before, for a rename
    change_type VARCHAR NOT NULL,  -- add, modify, delete, rename
    insertions  INTEGER NOT NULL,  -- 0 for binary files
    deletions   INTEGER NOT NULL,
    is_binary   BOOLEAN NOT NULL,
    -- Merges only: the file is exactly as in a parent other than the first, i.e. the change
    -- arrived with the merged branch and its own commits already carry it.
    from_merged BOOLEAN NOT NULL
);
