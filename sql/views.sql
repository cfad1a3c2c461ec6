-- Stable public views for notebooks and the DuckDB CLI. Recreated on every
-- schema change; their names and columns are a contract (README "SQL").

-- Every memory (migration 014): the bulk of them and the newest few, stored apart. First: the views below
-- read it.
CREATE OR REPLACE VIEW memories AS
SELECT * FROM memories_stored
UNION ALL
SELECT * FROM memories_recent;

CREATE OR REPLACE VIEW memory_list AS
-- Forgotten memories are left out; superseded ones say what replaced them. A conversation turn (migration 015)
-- has its session, speaker and the time it was said.
SELECT m.id, m.content, m.category, m.importance, m.tags, m.created_at, s.superseded_by, m.spec, m.phase,
       m.session, m.speaker, m.said_at
FROM memories m LEFT JOIN memory_states s ON s.memory_id = m.id
WHERE s.forgotten_at IS NULL;

CREATE OR REPLACE VIEW memory_categories AS
SELECT category, count(*) AS memories, avg(importance) AS avg_importance,
       max(created_at) AS last_stored
FROM memories
GROUP BY category;

CREATE OR REPLACE VIEW call_edges AS
SELECT project, caller_module, caller_qualified_name, callee_module, callee_qualified_name,
       callee_name, file_path, line
FROM calls;

-- Per file, over all indexed history: how often, how much and by how many people it changed.
-- Non-merge commits only (a merge's first-parent diff repeats its branch's changes).
CREATE OR REPLACE VIEW churn AS
SELECT f.project, f.path, count(DISTINCT f.sha) AS commits, sum(f.insertions) AS insertions,
       sum(f.deletions) AS deletions, count(DISTINCT c.author_email) AS authors,
       min(c.committed_at) AS first_change, max(c.committed_at) AS last_change
FROM commit_files f JOIN commits c ON c.project = f.project AND c.sha = f.sha
WHERE NOT c.is_merge
GROUP BY f.project, f.path;

-- Every GHAP entry, active (at most one) and resolved, in the columns of GHAP.md's entry format.
CREATE OR REPLACE VIEW ghap_entries AS
SELECT id, session_id, created_at, updated_at, revised_at, true AS active, domain, strategy, goal, hypothesis,
       action, prediction, history, iteration_count, notes, NULL::VARCHAR AS outcome_status,
       NULL::VARCHAR AS outcome_result, NULL::TIMESTAMP AS captured_at, NULL::BOOLEAN AS auto_captured,
       NULL::VARCHAR AS surprise, NULL::VARCHAR AS root_cause_category, NULL::VARCHAR AS root_cause_description,
       NULL::VARCHAR AS lesson_what_worked, NULL::VARCHAR AS lesson_takeaway, NULL::VARCHAR AS confidence_tier
FROM ghap_active
UNION ALL
SELECT id, session_id, created_at, updated_at, revised_at, false AS active, domain, strategy, goal, hypothesis,
       action, prediction, history, iteration_count, notes, outcome_status, outcome_result, captured_at,
       auto_captured, surprise, root_cause_category, root_cause_description, lesson_what_worked, lesson_takeaway,
       confidence_tier
FROM ghap_resolved;

-- One row per resolved entry per axis (full, strategy, surprise, root_cause): the text embedded, its BM25
-- terms, and its vector (NULL while pending).
CREATE OR REPLACE VIEW experience_axes AS
SELECT ghap_id, axis, text, terms, embedding, created_at FROM experience_axes_recent
UNION ALL
SELECT ghap_id, axis, text, terms, embedding, created_at FROM experience_axes_embedded;

-- One row per resolved GHAP entry (an experience), with how many of its axes still wait for an embedding.
CREATE OR REPLACE VIEW experiences AS
SELECT e.id, e.session_id, e.domain, e.strategy, e.goal, e.hypothesis, e.action, e.prediction, e.iteration_count,
       e.outcome_status, e.outcome_result, e.surprise, e.root_cause_category, e.root_cause_description,
       e.lesson_what_worked, e.lesson_takeaway, e.confidence_tier, e.created_at, e.captured_at AS resolved_at,
       coalesce(p.pending, 0) AS pending_axes
FROM ghap_resolved e
LEFT JOIN (SELECT ghap_id, count(*) AS pending FROM experience_axes_recent WHERE embedding IS NULL GROUP BY ghap_id) p
       ON p.ghap_id = e.id;

-- The newest clustering run of each axis.
CREATE OR REPLACE VIEW latest_cluster_runs AS
SELECT axis, arg_max(id, created_at) AS run_id, max(created_at) AS created_at FROM cluster_runs GROUP BY axis;

-- The clusters of each axis's newest run, largest first (the centroid left out: see the clusters table).
CREATE OR REPLACE VIEW current_clusters AS
SELECT c.axis, c.cluster_id, c.label, c.size, c.avg_weight, c.mean_distance, c.sd_distance, c.threshold_distance,
       c.run_id, r.created_at AS clustered_at
FROM clusters c JOIN latest_cluster_runs r ON r.run_id = c.run_id
ORDER BY c.axis, c.size DESC, c.cluster_id;

-- Every experience of each axis's newest run with its cluster (NULL = noise) and the entry it comes from.
CREATE OR REPLACE VIEW current_cluster_members AS
SELECT m.axis, m.cluster_id, m.ghap_id, m.weight, m.distance, e.domain, e.strategy, e.goal, e.outcome_status,
       e.surprise, e.root_cause_category, e.root_cause_description, e.lesson_what_worked, e.confidence_tier,
       e.created_at
FROM cluster_members m
JOIN latest_cluster_runs r ON r.run_id = m.run_id
JOIN ghap_resolved e ON e.id = m.ghap_id;

-- How often each memory was used (retrieved, read by id, touched) and when last; memories never used are absent.
CREATE OR REPLACE VIEW memory_usage AS
SELECT memory_id, sum(accesses)::BIGINT AS accesses, max(last_accessed_at) AS last_accessed_at
FROM memory_accesses
GROUP BY memory_id;

