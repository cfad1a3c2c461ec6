-- Backup and portability (learnmem/portable.py): a consistent copy of the file, and the data a user owns
-- (memories with their state, GHAP entries, values) as JSON lines or markdown. Derived columns
-- (embeddings, passages, BM25 terms, content hashes, insertion order) are left out: an import rebuilds them.

-- name: checkpoint_file
-- Fold the WAL into the file: its bytes alone then hold every committed row (backup copies them).
CHECKPOINT;

-- name: portable_memory_columns
-- The columns of memories a user owns, no rows: an import reads their names and types. `SELECT *` so
-- that columns later migrations add are exported and imported without a change here.
SELECT * EXCLUDE (embedding, passages, terms, seq, content_hash) FROM memories LIMIT 0;

-- name: portable_memory_state_columns
-- The columns of a memory's state (forgotten, superseded), no rows.
SELECT * EXCLUDE (memory_id) FROM memory_states LIMIT 0;

-- name: portable_memories
-- Every memory (forgotten and superseded ones too) in insertion order, the user-owned columns, then its
-- state row's columns after state_memory_id (all NULL when it has no state row).
SELECT m.* EXCLUDE (embedding, passages, terms, seq, content_hash), s.memory_id AS state_memory_id,
       s.* EXCLUDE (memory_id)
FROM memories m LEFT JOIN memory_states s ON s.memory_id = m.id
ORDER BY m.seq;

-- name: portable_memory_keys
-- The ids and text hashes already stored: an import skips what it would duplicate.
SELECT id, content_hash FROM memories;

-- name: insert_portable_memories
-- new_memories is an Arrow table the caller registers (user columns, content_hash, terms, embedding,
-- passages): inserted by name, in the table's order, so `seq` follows it. In bulk: into the big table.
INSERT INTO memories_stored BY NAME SELECT * FROM new_memories;

-- name: insert_portable_memory_states
-- new_memory_states is an Arrow table (memory_id and the state columns) the caller registers.
INSERT INTO memory_states BY NAME SELECT * FROM new_memory_states;

-- name: known_supersedes_to_merge
-- The memories merge_known_supersedes changes, read before it (a lake has no RETURNING): its join and
-- conditions, one row per match.
SELECT memory_states.memory_id
FROM memory_states,
     (SELECT unnest($ids::VARCHAR[]) AS id, unnest($bys::VARCHAR[]) AS by, unnest($times::TIMESTAMP[]) AS at) t
WHERE memory_states.memory_id = t.id
  AND memory_states.superseded_by IS NULL AND memory_states.forgotten_at IS NULL
  AND t.by IN (SELECT id FROM memories);

-- name: merge_known_supersedes
-- Shared notes name a replacement ($bys) for memories ($ids): a current memory here with a state row
-- takes it, when the replacement is stored here too.
UPDATE memory_states SET superseded_by = t.by, changed_at = t.at
FROM (SELECT unnest($ids::VARCHAR[]) AS id, unnest($bys::VARCHAR[]) AS by, unnest($times::TIMESTAMP[]) AS at) t
WHERE memory_states.memory_id = t.id
  AND memory_states.superseded_by IS NULL AND memory_states.forgotten_at IS NULL
  AND t.by IN (SELECT id FROM memories);

-- name: new_supersedes_to_merge
-- The rows merge_new_supersedes inserts, read before it (a lake has no RETURNING): its SELECT.
SELECT t.id
FROM (SELECT unnest($ids::VARCHAR[]) AS id, unnest($bys::VARCHAR[]) AS by, unnest($times::TIMESTAMP[]) AS at) t
WHERE t.id IN (SELECT id FROM memories) AND t.id NOT IN (SELECT memory_id FROM memory_states)
  AND t.by IN (SELECT id FROM memories);

-- name: merge_new_supersedes
-- The same for stored memories without a state row (current ones).
INSERT INTO memory_states (memory_id, superseded_by, forgotten_at, changed_at)
SELECT t.id, t.by, NULL, t.at
FROM (SELECT unnest($ids::VARCHAR[]) AS id, unnest($bys::VARCHAR[]) AS by, unnest($times::TIMESTAMP[]) AS at) t
WHERE t.id IN (SELECT id FROM memories) AND t.id NOT IN (SELECT memory_id FROM memory_states)
  AND t.by IN (SELECT id FROM memories);

-- name: portable_value_columns
SELECT * EXCLUDE (terms, embedding) FROM learned_values LIMIT 0;

-- name: portable_values
-- Every value, dissolved ones too, oldest first.
SELECT * EXCLUDE (terms, embedding) FROM learned_values ORDER BY created_at, id;

-- name: portable_value_ids
SELECT id FROM learned_values;

-- name: insert_portable_values
-- new_learned_values is an Arrow table (the user columns, terms, embedding) the caller registers.
INSERT INTO learned_values BY NAME SELECT * FROM new_learned_values;

-- name: markdown_memories
-- The memories an agent should read: not forgotten (memory_list leaves those out), not superseded.
SELECT id, content, category, importance, tags, created_at, spec, phase
FROM memory_list
WHERE superseded_by IS NULL
ORDER BY created_at, id;

-- name: markdown_values
-- Values whose cluster still stands, oldest first.
SELECT id, text, axis, cluster_id, created_at
FROM learned_values
WHERE dissolved_at IS NULL
ORDER BY created_at, id;
