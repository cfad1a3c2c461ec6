-- Context assembly and premortems (learnmem/context.py).

-- name: recent_experiences
-- The newest resolved entries that taught something (abandoned ones left out), cold tiers ($cold) left out.
SELECT id, domain, strategy, goal, outcome_status, outcome_result, surprise, root_cause_category,
       root_cause_description, lesson_what_worked, lesson_takeaway, confidence_tier, created_at
FROM ghap_resolved
WHERE outcome_status <> 'abandoned' AND NOT list_contains($cold::VARCHAR[], confidence_tier)
ORDER BY created_at DESC, id DESC
LIMIT $limit;

-- name: important_memories
-- The most important current memories (neither forgotten nor superseded), the newest first among equals.
SELECT id, content, category, importance, tags, created_at
FROM memories
WHERE id NOT IN (SELECT memory_id FROM memory_states WHERE forgotten_at IS NOT NULL OR superseded_by IS NOT NULL)
ORDER BY importance DESC, created_at DESC, seq DESC
LIMIT $limit;

-- name: recent_memories
SELECT id, content, category, importance, tags, created_at
FROM memories
WHERE id NOT IN (SELECT memory_id FROM memory_states WHERE forgotten_at IS NOT NULL OR superseded_by IS NOT NULL)
ORDER BY created_at DESC, seq DESC
LIMIT $limit;

-- name: recent_commits
-- The newest commits of a project (every project when $project is NULL), merges left out.
SELECT project, sha, subject, author, committed_at, files_changed, insertions, deletions
FROM commits
WHERE ($project::VARCHAR IS NULL OR project = $project) AND NOT is_merge
ORDER BY committed_at DESC, position DESC
LIMIT $limit;

-- name: premortem_counts
SELECT outcome_status, count(*) AS entries
FROM ghap_resolved
WHERE domain = $domain AND strategy = $strategy
GROUP BY outcome_status;

-- name: premortem_failures
-- Falsified entries of a domain and strategy, then abandoned ones, newest first; cold tiers ($cold) left out.
SELECT id, domain, strategy, goal, hypothesis, action, prediction, outcome_status, outcome_result, surprise,
       root_cause_category, root_cause_description, lesson_what_worked, lesson_takeaway, confidence_tier, created_at
FROM ghap_resolved
WHERE domain = $domain AND strategy = $strategy AND outcome_status IN ('falsified', 'abandoned')
  AND NOT list_contains($cold::VARCHAR[], confidence_tier)
ORDER BY outcome_status = 'abandoned', created_at DESC, id DESC
LIMIT $limit;

-- name: premortem_root_causes
-- Root-cause categories of the failures of a domain and strategy, the most frequent first, with the newest example.
SELECT root_cause_category AS category, count(*) AS entries,
       arg_max(root_cause_description, created_at) AS example, arg_max(id, created_at) AS example_id
FROM ghap_resolved
WHERE domain = $domain AND strategy = $strategy AND root_cause_category IS NOT NULL
GROUP BY root_cause_category
ORDER BY entries DESC, category
LIMIT $limit;

-- name: premortem_surprises
-- Surprises of the failures of a domain and strategy, grouped by their current surprise cluster (an
-- unclustered surprise is its own group), the most frequent first, with the newest example.
WITH failures AS (
    SELECT e.id, e.surprise, e.created_at, coalesce(m.cluster_id, e.id) AS grouping
    FROM ghap_resolved e
    LEFT JOIN current_cluster_members m ON m.ghap_id = e.id AND m.axis = 'surprise'
    WHERE e.domain = $domain AND e.strategy = $strategy AND e.surprise IS NOT NULL
)
SELECT grouping, count(*) AS entries, arg_max(surprise, created_at) AS example, arg_max(id, created_at) AS example_id
FROM failures
GROUP BY grouping
ORDER BY entries DESC, max(created_at) DESC
LIMIT $limit;

-- name: premortem_values
-- Values whose current cluster holds experiences of a domain and strategy, by how many.
SELECT v.id, v.text, v.axis, v.cluster_id, c.size AS cluster_size, v.similarity_to_centroid, v.created_at,
       v.dissolved_at, count(*) AS entries
FROM learned_values v
JOIN current_clusters c ON c.cluster_id = v.cluster_id
JOIN current_cluster_members m ON m.cluster_id = v.cluster_id
WHERE v.dissolved_at IS NULL AND m.domain = $domain AND m.strategy = $strategy
GROUP BY ALL
ORDER BY entries DESC, cluster_size DESC, v.created_at DESC, v.id
LIMIT $limit;

-- name: spec_memories
-- A spec's current decisions, blockers and learnings: blockers first (what stops the work now), then
-- decisions, then learnings; the most important and the newest first within each.
SELECT id, content, category, importance, tags, created_at
FROM memories
WHERE spec = $spec AND category IN ('blocker', 'decision', 'learning')
  AND id NOT IN (SELECT memory_id FROM memory_states WHERE forgotten_at IS NOT NULL OR superseded_by IS NOT NULL)
ORDER BY CASE category WHEN 'blocker' THEN 0 WHEN 'decision' THEN 1 ELSE 2 END, importance DESC, created_at DESC,
         seq DESC
LIMIT $limit;

-- name: recent_patterns
-- The newest current patterns, of every spec and project.
SELECT id, content, category, importance, tags, created_at
FROM memories
WHERE category = 'pattern'
  AND id NOT IN (SELECT memory_id FROM memory_states WHERE forgotten_at IS NOT NULL OR superseded_by IS NOT NULL)
ORDER BY created_at DESC, seq DESC
LIMIT $limit;
