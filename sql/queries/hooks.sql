-- The Claude Code hooks (learnmem/hooks.py) and the observed outcomes of GHAP entries (learnmem/ghap.py).

-- name: add_tool_calls
-- Tool calls the PreToolUse hook counted outside the file (see hooks.py) join the session's counter.
UPDATE sessions SET tool_count = tool_count + $calls WHERE id = $id;

-- name: insert_ghap_observation
-- A test/build outcome, recorded against the active entry (no row when none is active).
INSERT INTO ghap_observations (ghap_id, session_id, observed_at, tool, command, kind, outcome, exit_code, summary)
SELECT id, session_id, $now, $tool, $command, $kind, $outcome, $exit_code::INTEGER, $summary
FROM ghap_active;

-- name: ghap_observed_outcome
-- The latest outcome observed for the active entry since its current hypothesis/action/prediction were set.
SELECT o.outcome
FROM ghap_observations o JOIN ghap_active a ON a.id = o.ghap_id
WHERE o.ghap_id = $id AND o.observed_at >= a.revised_at
ORDER BY o.observed_at DESC
LIMIT 1;

-- name: known_code_names
-- Which of the names a prompt mentions are indexed code units (name or qualified name) or files (a path, or
-- its tail after a '/', or a longer path ending in it); at most 10, each with one place it lives.
WITH wanted AS (SELECT DISTINCT unnest($names::VARCHAR[]) AS name)
SELECT w.name, min(u.file_path || ':' || u.start_line) AS place
FROM wanted w JOIN code_units u ON u.unit_type <> 'module' AND (u.name = w.name OR u.qualified_name = w.name)
GROUP BY w.name
UNION ALL
SELECT w.name, min(f.path) AS place
FROM wanted w JOIN code_files f
  ON f.path = w.name OR ends_with(f.path, '/' || w.name) OR ends_with(w.name, '/' || f.path)
GROUP BY w.name
ORDER BY name
LIMIT 10;

-- One-shot retrieval for the hooks (hooks.OneShotView): exact cosine similarity computed in SQL, the way
-- DESIGN.md prescribes for short-lived processes (the facade's in-memory indexes pay off only in long-lived
-- ones). $q is the query vector as text ('[0.1, ...]'), cast once; the vector's width is the schema's. The
-- stored vectors are cast too: a no-op on a file, where they are FLOAT[384]; a lake stores FLOAT[].

-- name: hook_similar_memories
-- Memories by cosine similarity to $q (a long memory scores by its best passage), best first; forgotten and
-- superseded ones left out, as retrieval leaves them out.
SELECT id, content, category, importance, tags, created_at,
       greatest(array_cosine_similarity(embedding::FLOAT[384], $q::FLOAT[384]),
                coalesce(list_max(list_transform(passages, lambda p: array_cosine_similarity(p::FLOAT[384], $q::FLOAT[384]))),
                         -1.0)) AS score
FROM memories
WHERE ($category::VARCHAR IS NULL OR category = $category)
  AND ($tags::VARCHAR[] IS NULL OR list_has_all(tags, $tags::VARCHAR[]))
  AND id NOT IN (SELECT memory_id FROM memory_states WHERE forgotten_at IS NOT NULL OR superseded_by IS NOT NULL)
ORDER BY score DESC, seq DESC
LIMIT $limit;

-- name: hook_similar_values
-- Values by cosine similarity to $q, best first, with the size of their cluster now (0 once dissolved).
SELECT v.id, v.text, v.axis, v.cluster_id, coalesce(c.size, 0) AS cluster_size, v.similarity_to_centroid,
       v.created_at, v.dissolved_at, array_cosine_similarity(v.embedding::FLOAT[384], $q::FLOAT[384]) AS score
FROM learned_values v
LEFT JOIN latest_cluster_runs r ON r.axis = v.axis
LEFT JOIN clusters c ON c.run_id = r.run_id AND c.cluster_id = v.cluster_id
WHERE ($axis::VARCHAR IS NULL OR v.axis = $axis)
ORDER BY score DESC, v.id
LIMIT $limit;

-- name: hook_ranked_experiences
-- The best $limit entries of each axis in $axes by the cosine similarity of the axis text to $q (pending
-- axes left out), optionally of one domain / outcome. Rich context asks three axes for one situation: one
-- scan of the vectors serves them. The similarity is computed in a subquery (ranked outside, it was computed
-- twice: 2x slower); the entries' fields come from hook_experience_rows (joining here would read every
-- entry's text for the ~30 rows kept: ~50 ms at 10,000 entries).
SELECT ghap_id, axis, score
FROM (
    SELECT ghap_id, axis, array_cosine_similarity(embedding::FLOAT[384], $q::FLOAT[384]) AS score
    FROM experience_axes
    WHERE list_contains($axes::VARCHAR[], axis) AND embedding IS NOT NULL
      AND (($domain::VARCHAR IS NULL AND $outcome::VARCHAR IS NULL) OR ghap_id IN (
           SELECT id FROM ghap_resolved
           WHERE ($domain::VARCHAR IS NULL OR domain = $domain)
             AND ($outcome::VARCHAR IS NULL OR outcome_status = $outcome)))
)
QUALIFY row_number() OVER (PARTITION BY axis ORDER BY score DESC, ghap_id) <= $limit
ORDER BY axis, score DESC, ghap_id;

-- name: hook_experience_rows
-- The fields of the resolved entries in $ids (hook_ranked_experiences picked them).
SELECT id AS ghap_id, domain, strategy, goal, hypothesis, action, prediction, outcome_status, outcome_result,
       surprise, root_cause_category, root_cause_description, lesson_what_worked, lesson_takeaway,
       confidence_tier, created_at
FROM ghap_resolved
WHERE list_contains($ids::VARCHAR[], id);
