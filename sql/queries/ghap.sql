-- name: current_session
-- The current session: the newest one not ended.
SELECT id, tool_count FROM sessions WHERE ended_at IS NULL ORDER BY started_at DESC, id DESC LIMIT 1;

-- name: insert_session
INSERT INTO sessions (id, started_at, ended_at, tool_count) VALUES ($id, $now, NULL, 0);

-- name: end_session
UPDATE sessions SET ended_at = $now WHERE id = $id;

-- name: add_tool_call
UPDATE sessions SET tool_count = tool_count + 1 WHERE id = $id RETURNING tool_count;

-- name: reset_tool_calls
UPDATE sessions SET tool_count = 0 WHERE id = $id;

-- name: active_ghap
SELECT id, session_id, domain, strategy, goal, hypothesis, action, prediction, iteration_count, created_at
FROM ghap_entries WHERE active;

-- name: insert_ghap_entry
INSERT INTO ghap_entries (id, session_id, created_at, updated_at, revised_at, active, domain, strategy, goal,
                          hypothesis, action, prediction, history, iteration_count, notes)
VALUES ($id, $session_id, $now, $now, $now, true, $domain, $strategy, $goal, $hypothesis, $action, $prediction,
        [], 1, []);

-- name: revise_ghap
-- A new hypothesis/action/prediction: the current triple goes to history with the time it was set.
UPDATE ghap_entries
SET history = list_append(history, {'timestamp': revised_at, 'hypothesis': hypothesis, 'action': action,
                                    'prediction': prediction}),
    hypothesis = $hypothesis, action = $action, prediction = $prediction,
    iteration_count = iteration_count + 1, revised_at = $now, updated_at = $now
WHERE id = $id AND active;

-- name: set_ghap_strategy
UPDATE ghap_entries SET strategy = $strategy, updated_at = $now WHERE id = $id AND active;

-- name: add_ghap_note
UPDATE ghap_entries SET notes = list_append(notes, $note), updated_at = $now WHERE id = $id AND active;

-- name: resolve_ghap
UPDATE ghap_entries
SET active = false, outcome_status = $status, outcome_result = $result, captured_at = $now,
    auto_captured = $auto_captured, surprise = $surprise, root_cause_category = $root_cause_category,
    root_cause_description = $root_cause_description, lesson_what_worked = $lesson_what_worked,
    lesson_takeaway = $lesson_takeaway, confidence_tier = $confidence_tier, updated_at = $now
WHERE id = $id AND active;

-- name: adopt_ghap
UPDATE ghap_entries SET session_id = $session_id, updated_at = $now WHERE id = $id AND active;

-- name: ghap_entry
-- One entry, every column (the persistence step reads the resolved entry back).
SELECT * FROM ghap_entries WHERE id = $id;

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
INSERT INTO ghap_entries BY NAME SELECT * FROM new_ghap_entries;
