-- name: current_session
-- The current session: the newest one not ended.
SELECT id, tool_count FROM sessions WHERE ended_at IS NULL ORDER BY started_at DESC, id DESC LIMIT 1;

-- name: insert_session
INSERT INTO sessions (id, started_at, ended_at, tool_count) VALUES ($id, $now, NULL, 0);

-- name: end_session
UPDATE sessions SET ended_at = $now WHERE id = $id;

-- name: add_tool_call
UPDATE sessions SET tool_count = tool_count + 1 WHERE id = $id;

-- name: session_tool_count
-- Read after add_tool_call(s) in the same transaction: a lake has no RETURNING.
SELECT tool_count FROM sessions WHERE id = $id;

-- name: reset_tool_calls
UPDATE sessions SET tool_count = 0 WHERE id = $id;

-- name: active_ghap
SELECT id, session_id, domain, strategy, goal, hypothesis, action, prediction, iteration_count, created_at
FROM ghap_active;

-- name: insert_ghap_entry
INSERT INTO ghap_active (id, session_id, created_at, updated_at, revised_at, domain, strategy, goal, hypothesis,
                         action, prediction, history, iteration_count, notes)
VALUES ($id, $session_id, $now, $now, $now, $domain, $strategy, $goal, $hypothesis, $action, $prediction, [], 1, []);

-- name: revise_ghap
-- A new hypothesis/action/prediction: the current triple goes to history with the time it was set.
UPDATE ghap_active
SET history = list_append(history, {'timestamp': revised_at, 'hypothesis': hypothesis, 'action': action,
                                    'prediction': prediction}),
    hypothesis = $hypothesis, action = $action, prediction = $prediction,
    iteration_count = iteration_count + 1, revised_at = $now, updated_at = $now
WHERE id = $id;

-- name: set_ghap_strategy
UPDATE ghap_active SET strategy = $strategy, updated_at = $now WHERE id = $id;

-- name: add_ghap_note
UPDATE ghap_active SET notes = list_append(notes, $note), updated_at = $now WHERE id = $id;

-- name: resolve_ghap
-- The active entry moves to ghap_resolved with its outcome (remove_active_ghap then deletes it).
INSERT INTO ghap_resolved BY NAME
SELECT * REPLACE ($now::TIMESTAMP AS updated_at), $status AS outcome_status, $result AS outcome_result,
       $now::TIMESTAMP AS captured_at, $auto_captured AS auto_captured, $surprise::VARCHAR AS surprise,
       $root_cause_category::VARCHAR AS root_cause_category,
       $root_cause_description::VARCHAR AS root_cause_description,
       $lesson_what_worked::VARCHAR AS lesson_what_worked, $lesson_takeaway::VARCHAR AS lesson_takeaway,
       $confidence_tier AS confidence_tier
FROM ghap_active WHERE id = $id;

-- name: remove_active_ghap
DELETE FROM ghap_active WHERE id = $id;

-- name: adopt_ghap
UPDATE ghap_active SET session_id = $session_id, updated_at = $now WHERE id = $id;

-- name: active_ghap_entry
-- The active entry, every column: resolving it reads it whole (the outcome columns come from the caller).
SELECT * FROM ghap_active WHERE id = $id;

-- name: list_ghap_entries
SELECT id, domain, strategy, goal, outcome_status, confidence_tier, created_at, captured_at
FROM ghap_entries
WHERE ($domain::VARCHAR IS NULL OR domain = $domain)
  AND ($outcome::VARCHAR IS NULL OR outcome_status = $outcome OR ($outcome = 'active' AND active))
  AND ($since::TIMESTAMP IS NULL OR created_at >= $since)
ORDER BY created_at DESC, id DESC
LIMIT $limit;

-- name: export_ghap_entries
-- Every resolved entry (and the active one when $include_active), oldest first: the export's order.
SELECT * FROM ghap_entries WHERE $include_active OR NOT active ORDER BY created_at, id;

-- name: ghap_entry_ids
-- The ids already stored: an import skips entries it would duplicate.
SELECT id FROM ghap_entries;

-- name: insert_ghap_entries
-- new_ghap_entries is an Arrow table (the columns of ghap_entries) the caller registers: an import's rows.
INSERT INTO ghap_resolved BY NAME SELECT * EXCLUDE (active) FROM new_ghap_entries WHERE NOT active;

-- name: insert_imported_active_ghap
-- The imported entry that becomes the active one (the caller lets at most one through).
INSERT INTO ghap_active BY NAME
SELECT id, session_id, created_at, updated_at, revised_at, domain, strategy, goal, hypothesis, action, prediction,
       history, iteration_count, notes
FROM new_ghap_entries WHERE active;

-- name: delete_session_if_empty
-- A session in which nothing happened (`claude mcp list` and `claude doctor` start and end one): no tool call
-- counted, no GHAP entry, no observation. Read with session_exists afterwards: a lake has no RETURNING.
DELETE FROM sessions
WHERE id = $id AND tool_count = 0
  AND NOT EXISTS (SELECT 1 FROM ghap_entries WHERE session_id = $id)
  AND NOT EXISTS (SELECT 1 FROM ghap_active WHERE session_id = $id)
  AND NOT EXISTS (SELECT 1 FROM ghap_resolved WHERE session_id = $id)
  AND NOT EXISTS (SELECT 1 FROM ghap_observations WHERE session_id = $id);

-- name: session_exists
SELECT count(*) > 0 FROM sessions WHERE id = $id;
