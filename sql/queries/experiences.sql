-- name: delete_recorded_axes_embedded
-- new_experience_axes is an Arrow table the caller registers (the columns of experience_axes): the
-- axes of entries just resolved or imported. They are written once; clearing first makes a repeated call harmless.
DELETE FROM experience_axes_embedded WHERE ghap_id IN (SELECT ghap_id FROM new_experience_axes);

-- name: delete_recorded_axes_recent
DELETE FROM experience_axes_recent WHERE ghap_id IN (SELECT ghap_id FROM new_experience_axes);

-- name: insert_pending_recorded_axes
-- Pending (NULL embedding) until embed_pending fills them, after the commit.
INSERT INTO experience_axes_recent (ghap_id, axis, text, terms, embedding, created_at)
SELECT ghap_id, axis, text, terms, NULL, created_at FROM new_experience_axes WHERE embedding IS NULL;

-- name: insert_embedded_recorded_axes
-- Axes embedded before their resolve's transaction (on a lake: learning/ghap.py _embedded_ahead) go straight to
-- the big table: nothing fills them in afterwards, so no other agent's resolve conflicts with them.
INSERT INTO experience_axes_embedded (ghap_id, axis, text, terms, embedding, created_at)
SELECT ghap_id, axis, text, terms, embedding::FLOAT[384], created_at FROM new_experience_axes WHERE embedding IS NOT NULL;

-- name: pending_experience_axes
SELECT ghap_id, axis, text FROM experience_axes_recent WHERE embedding IS NULL ORDER BY created_at, ghap_id, axis;

-- name: fillable_axis_count
-- Before fill_axis_embeddings, how many rows it fills (a lake has no RETURNING): its join and conditions, one
-- row per match.
SELECT count(*)
FROM experience_axes_recent, new_experience_axes
WHERE experience_axes_recent.ghap_id = new_experience_axes.ghap_id
  AND experience_axes_recent.axis = new_experience_axes.axis
  AND experience_axes_recent.text = new_experience_axes.text
  AND experience_axes_recent.embedding IS NULL;

-- name: fill_axis_embeddings
-- new_experience_axes is an Arrow table (ghap_id, axis, text, embedding) the caller registers.
-- Only rows still pending, with the text that was embedded, are filled: a racing process fills each once.
UPDATE experience_axes_recent
SET embedding = new_experience_axes.embedding
FROM new_experience_axes
WHERE experience_axes_recent.ghap_id = new_experience_axes.ghap_id
  AND experience_axes_recent.axis = new_experience_axes.axis
  AND experience_axes_recent.text = new_experience_axes.text
  AND experience_axes_recent.embedding IS NULL;

-- name: recent_embedded_count
SELECT count(*) FROM experience_axes_recent WHERE embedding IS NOT NULL;

-- name: fold_recent_axes
-- The embedded recent axes move to the big table in one append (clear_folded_axes removes them here).
INSERT INTO experience_axes_embedded (ghap_id, axis, text, terms, embedding, created_at)
SELECT ghap_id, axis, text, terms, embedding, created_at FROM experience_axes_recent
WHERE embedding IS NOT NULL
ORDER BY created_at, ghap_id, axis;

-- name: clear_folded_axes
DELETE FROM experience_axes_recent WHERE embedding IS NOT NULL;

-- name: resolved_entries_with_axes
-- reembed: every resolved entry (all columns) and when its axes were first recorded.
SELECT e.*, coalesce(a.created_at, e.captured_at) AS axes_created_at
FROM ghap_resolved e
LEFT JOIN (SELECT ghap_id, min(created_at) AS created_at FROM experience_axes GROUP BY ghap_id) a ON a.ghap_id = e.id
ORDER BY e.captured_at, e.id;

-- name: clear_experience_axes
DELETE FROM experience_axes_embedded;

-- name: clear_recent_experience_axes
DELETE FROM experience_axes_recent;

-- name: insert_embedded_axes
-- new_experience_axes is an Arrow table (ghap_id, axis, text, embedding, terms, created_at) the caller registers.
INSERT INTO experience_axes_embedded (ghap_id, axis, text, terms, embedding, created_at)
SELECT ghap_id, axis, text, terms, embedding, created_at FROM new_experience_axes
ORDER BY created_at, ghap_id, axis;

-- name: experience_axis_stats
-- Changes whenever axes are added, embedded or re-embedded: the search snapshot reloads then.
SELECT count(*), count(embedding), sum(hash(ghap_id, axis, embedding)) FROM experience_axes;

-- name: load_experience_axes
-- Every axis row with the entry it belongs to (pending rows have a NULL embedding).
SELECT a.ghap_id, a.axis, a.terms, a.embedding,
       e.domain, e.strategy, e.goal, e.hypothesis, e.action, e.prediction, e.outcome_status, e.outcome_result,
       e.surprise, e.root_cause_category, e.root_cause_description, e.lesson_what_worked, e.lesson_takeaway,
       e.confidence_tier, e.created_at
FROM experience_axes a JOIN ghap_resolved e ON e.id = a.ghap_id
ORDER BY e.captured_at, a.ghap_id, a.axis;

-- name: experience_tier_counts
-- Resolved entries per confidence tier: how many sit in cold storage (Learnmem.info).
SELECT confidence_tier, count(*) FROM ghap_resolved GROUP BY confidence_tier ORDER BY confidence_tier;
