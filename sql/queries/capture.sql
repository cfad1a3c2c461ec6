-- The queue of memories captured from tool output (learnmem/capture_queue.py; migration 012).

-- name: enqueue_captured
-- One row per candidate; a candidate whose key is queued already (a warning every run repeats) is not.
INSERT INTO capture_queue (id, session_id, captured_at, tool, category, content, key)
SELECT c.id, $session_id, $now, c.tool, c.category, c.content, c.key
FROM (SELECT unnest($ids::VARCHAR[]) AS id, unnest($tools::VARCHAR[]) AS tool,
             unnest($categories::VARCHAR[]) AS category, unnest($contents::VARCHAR[]) AS content,
             unnest($keys::VARCHAR[]) AS key) AS c
WHERE c.key NOT IN (SELECT key FROM capture_queue)
QUALIFY row_number() OVER (PARTITION BY c.key ORDER BY c.id) = 1;

-- name: queued_captures
-- Oldest first.
SELECT id, session_id, captured_at, tool, category, content
FROM capture_queue
ORDER BY captured_at, id
LIMIT $limit;

-- name: count_queued_captures
SELECT count(*) FROM capture_queue;

-- name: delete_queued_captures
DELETE FROM capture_queue WHERE list_contains($ids::VARCHAR[], id);

-- name: discard_queued_captures
-- The caller counts first (count_queued_captures): a lake has no RETURNING.
DELETE FROM capture_queue;
