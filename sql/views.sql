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
