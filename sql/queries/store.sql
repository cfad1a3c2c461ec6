-- name: create_ledger
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       VARCHAR NOT NULL,
    applied_at TIMESTAMP NOT NULL
);

-- name: applied_migrations
SELECT version FROM schema_migrations ORDER BY version;

-- name: record_migration
INSERT INTO schema_migrations (version, name, applied_at)
VALUES ($version, $name, $applied_at);

-- name: get_meta
SELECT key, value FROM meta;

-- name: delete_meta
-- store.set_meta replaces a key by delete_meta then insert_meta, in its caller's transaction: meta has no key on
-- a lake (DuckLake has none), so INSERT OR REPLACE would not bind there.
DELETE FROM meta WHERE key = $key;

-- name: insert_meta
INSERT INTO meta (key, value) VALUES ($key, $value);

-- name: schema_tables
-- The tables and views of one schema of an attached database (a lake's project, by the lake's alias).
SELECT table_name FROM duckdb_tables() WHERE database_name = $database AND schema_name = $schema
UNION ALL
SELECT view_name FROM duckdb_views() WHERE database_name = $database AND schema_name = $schema AND NOT internal;

-- name: table_counts
SELECT 'memories' AS table_name, count(*) AS row_count FROM memories
UNION ALL SELECT 'code_files', count(*) FROM code_files
UNION ALL SELECT 'code_units', count(*) FROM code_units
UNION ALL SELECT 'calls', count(*) FROM calls
UNION ALL SELECT 'commits', count(*) FROM commits
UNION ALL SELECT 'commit_files', count(*) FROM commit_files
UNION ALL SELECT 'ghap_entries', count(*) FROM ghap_entries
UNION ALL SELECT 'learned_values', count(*) FROM learned_values;

-- name: load_extension
-- LOAD takes no parameters: the caller substitutes a quoted path for {path}.
LOAD {path};

-- name: attach_file
-- ATTACH takes no parameters: the caller substitutes a quoted path and an alias, and
-- `(READ_ONLY)` or nothing for {mode}.
ATTACH {path} AS {alias} {mode};

-- name: attach_lake
-- A DuckLake (learnmem/lake.py): the caller substitutes the quoted `ducklake:postgres:...` name, an alias, and
-- `(DATA_PATH '...', READ_ONLY)` or nothing for {options}.
ATTACH {target} AS {alias} {options};

-- name: create_lake_table
-- One table of a lake (learnmem/lake.py schema_statements): the caller substitutes the quoted name and the
-- column declarations.
CREATE TABLE {table} ({columns});

-- name: use_database
USE {alias};

-- name: detach_file
-- A database cannot detach while it is the connection's default: switch back first.
USE memory;
DETACH {alias};

-- name: copy_database
-- Every table and view of the attached file into the connection's in-memory database.
COPY FROM DATABASE {alias} TO memory;

-- name: copy_database_between
-- Every table, view and sequence of one attached file into another (a fresh file holds no freed blocks).
COPY FROM DATABASE {source} TO {target};

-- name: disable_external_access
-- Learnmem.sql runs a caller's query on a DuckDB of its own that has the file attached read-only; then
-- that instance may not reach other files or the network (no ATTACH, COPY TO, read_csv...)...
SET enable_external_access = false;

-- name: lock_configuration
-- ...and its configuration is frozen, so no statement can undo that.
SET lock_configuration = true;

-- name: first_binding
-- Run once when a process creates its DuckDB instance, before any file is attached: the Python client
-- imports pandas (when installed) and uuid on its first query that binds a parameter, 0.3-0.9 s that
-- would otherwise be spent holding the file, with every other process waiting (found by bench.soak).
SELECT $warm_up AS warm_up;

-- name: local_table_columns
-- The base tables of the attached file with their columns in order (lake.schema_statements derives the
-- lake's tables from them).
SELECT c.table_name, c.column_name, c.data_type, c.is_nullable = 'YES' AS nullable,
       c.column_default LIKE 'nextval(%' AS numbered
FROM information_schema.columns AS c
JOIN information_schema.tables AS t
  ON t.table_catalog = c.table_catalog AND t.table_schema = c.table_schema AND t.table_name = c.table_name
WHERE c.table_catalog = current_database() AND c.table_schema = 'main' AND t.table_type = 'BASE TABLE'
ORDER BY c.table_name, c.ordinal_position;

-- name: create_lake_schema
-- A project's schema in a lake: its tables live there, so no query of one project can see another's.
CREATE SCHEMA {schema};

-- name: set_search_path
-- Where a lake's unqualified names resolve: the agent's schema, then its project's (learnmem.lake.Layout).
SET search_path = {path};

-- name: lake_snapshot
-- The lake's current snapshot id: a new one with every commit by anyone (cached vectors compare it).
SELECT id FROM ducklake_current_snapshot($catalog);

-- name: copy_table_by_name
-- One table's rows into the same table of another database (a lake's project into a file, or back).
INSERT INTO {target} BY NAME SELECT * FROM {source};

-- name: template_tables
-- The base tables of the current database (a migrated template: the tables a lake's project holds).
SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'
ORDER BY table_name;

-- name: clear_meta
DELETE FROM meta;

-- name: allow_directory
-- Before disable_external_access: the one folder a query on a lake may still read (its data files).
SET allowed_directories = [{path}];

-- name: expire_lake_snapshots
-- Every snapshot but the current one: deleted rows are then in no snapshot (forget(hard=True) on a lake).
CALL ducklake_expire_snapshots($catalog, older_than => now());

-- name: delete_lake_files
-- The data files no snapshot uses any longer, deleted.
CALL ducklake_cleanup_old_files($catalog, cleanup_all => true);

-- name: count_rows
SELECT count(*) FROM {table};

-- name: table_column_names
-- A table's columns in order, in one attached file.
SELECT column_name FROM duckdb_columns()
WHERE database_name = $database AND schema_name = 'main' AND table_name = $table
ORDER BY column_index;

-- name: copy_missing_rows
-- lake push: the rows of the source that the existing rows (the target's, or a union holding them) lack,
-- matched on a key (the match compares t. and s. columns), into the target.
INSERT INTO {target} BY NAME
SELECT {columns} FROM {source} AS s
WHERE NOT EXISTS (SELECT 1 FROM {existing} AS t WHERE {match});

-- name: copy_rows_in_order
-- lake pull: every row of {source} into {target}, in {order} (so that a file's sequence numbers follow it).
INSERT INTO {target} BY NAME
SELECT {columns} FROM {source} ORDER BY {order};

-- name: rename_table
-- A lake project's table renamed by an upgrade (learnmem/storage/lake_upgrade.py): {name} is unqualified.
ALTER TABLE {table} RENAME TO {name};

-- name: probe_column
-- Binds a column of a relation and reads nothing: a CatalogException (or a BinderException) when either is missing.
SELECT {column} FROM {relation} LIMIT 0;

-- name: both_memory_halves
-- lake push: a project's memories in both of its tables (migration 014): the rows copy_missing_rows looks in.
(SELECT * FROM {schema}."memories_stored" UNION ALL SELECT * FROM {schema}."memories_recent")
