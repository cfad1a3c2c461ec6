-- Stable public views for notebooks and the DuckDB CLI. Recreated on every
-- schema change; their names and columns are a contract (README "SQL").

CREATE OR REPLACE VIEW memory_list AS
SELECT id, content, category, importance, tags, created_at
FROM memories;

CREATE OR REPLACE VIEW memory_categories AS
SELECT category, count(*) AS memories, avg(importance) AS avg_importance,
       max(created_at) AS last_stored
FROM memories
GROUP BY category;

CREATE OR REPLACE VIEW call_edges AS
SELECT project, caller_module, caller_qualified_name, callee_module, callee_qualified_name,
       callee_name, file_path, line
FROM calls;
