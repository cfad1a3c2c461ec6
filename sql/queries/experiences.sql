-- name: delete_experience_axes
-- A resolved entry's axes are written once; clearing first makes a repeated call harmless.
DELETE FROM experience_axes_embedded WHERE ghap_id = $ghap_id;

-- name: delete_pending_experience_axes
DELETE FROM experience_axes_pending WHERE ghap_id = $ghap_id;

-- name: insert_experience_axis
-- Pending until embed_pending moves it to experience_axes_embedded with its vector, after the commit.
INSERT INTO experience_axes_pending (ghap_id, axis, text, terms, created_at)
VALUES ($ghap_id, $axis, $text, $terms::VARCHAR[], $now);

-- name: pending_experience_axes
SELECT ghap_id, axis, text FROM experience_axes_pending ORDER BY created_at, ghap_id, axis;

-- name: all_experience_axes
SELECT ghap_id, axis, text FROM experience_axes ORDER BY created_at, ghap_id, axis;

-- name: fill_axis_embeddings
-- new_experience_axes is an Arrow table (ghap_id, axis, text, embedding) the caller registers.
-- Only rows still pending, with the text that was embedded, move: a racing process moves each once
-- (clear_filled_axes then removes them from the pending table, in the same transaction).
INSERT INTO experience_axes_embedded (ghap_id, axis, text, terms, embedding, created_at)
SELECT p.ghap_id, p.axis, p.text, p.terms, n.embedding, p.created_at
FROM experience_axes_pending p
JOIN new_experience_axes n ON n.ghap_id = p.ghap_id AND n.axis = p.axis AND n.text = p.text
RETURNING ghap_id;

-- name: clear_filled_axes
DELETE FROM experience_axes_pending p
USING new_experience_axes n
WHERE n.ghap_id = p.ghap_id AND n.axis = p.axis AND n.text = p.text;

-- name: replace_axis_embeddings
-- reembed: every embedded row gets the new model's vector (fill_axis_embeddings moves the pending ones).
UPDATE experience_axes_embedded
SET embedding = new_experience_axes.embedding
FROM new_experience_axes
WHERE experience_axes_embedded.ghap_id = new_experience_axes.ghap_id
  AND experience_axes_embedded.axis = new_experience_axes.axis
  AND experience_axes_embedded.text = new_experience_axes.text;

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
