-- name: memory_ids_by_hash
SELECT content_hash, id, created_at
FROM memories
WHERE content_hash IN (SELECT unnest($hashes::VARCHAR[]));

-- name: insert_memories
-- new_memories is an Arrow table the caller registers on the connection. {table}: memories_recent for a few
-- (fold_recent_memories moves them on, migration 014), memories_stored for a batch. {returning}: on a file,
-- `RETURNING id, seq` (the numbers the new rows were given, so the process's snapshot need not read them back);
-- on a lake, nothing (DuckLake has no RETURNING).
INSERT INTO {table} (id, content, content_hash, category, importance, tags, terms, created_at, embedding, passages,
                      commit_sha, sources, spec, phase, session, speaker, said_at)
SELECT id, content, content_hash, category, importance, tags, terms, created_at, embedding, passages, commit_sha, sources,
       spec, phase, session, speaker, said_at
FROM new_memories
{returning};

-- name: get_memory
SELECT m.id, m.content, m.category, m.importance, m.tags, m.created_at, s.superseded_by, m.commit_sha, m.sources,
       m.spec, m.phase, m.session, m.speaker, m.said_at, s.forgotten_at
FROM memories m LEFT JOIN memory_states s ON s.memory_id = m.id
WHERE m.id = $id;

-- name: list_memories
-- Forgotten memories never; superseded ones only when $include_superseded. Each filter applies when given. A
-- memory's time (the window, the order) is when it was said for a turn, when it was stored for any other.
SELECT m.id, m.content, m.category, m.importance, m.tags, m.created_at, s.superseded_by, m.commit_sha, m.sources,
       m.spec, m.phase, m.session, m.speaker, m.said_at
FROM memories m LEFT JOIN memory_states s ON s.memory_id = m.id
WHERE ($category::VARCHAR IS NULL OR m.category = $category)
  AND ($spec::VARCHAR IS NULL OR m.spec = $spec)
  AND ($phase::VARCHAR IS NULL OR m.phase = $phase)
  AND ($session::VARCHAR IS NULL OR m.session = $session)
  AND ($since::TIMESTAMP IS NULL OR coalesce(m.said_at, m.created_at) >= $since)
  AND ($until::TIMESTAMP IS NULL OR coalesce(m.said_at, m.created_at) <= $until)
  AND list_has_all(m.tags, $tags::VARCHAR[])
  AND s.forgotten_at IS NULL
  AND ($include_superseded OR s.superseded_by IS NULL)
ORDER BY coalesce(m.said_at, m.created_at) DESC, m.seq DESC
LIMIT $limit OFFSET $offset;

-- name: delete_memory
-- The caller reads memory_state first to tell whether there was one: a lake has no RETURNING. Run on each
-- of MEMORY_TABLES ({table}).
DELETE FROM {table} WHERE id = $id;

-- name: memory_stats
-- rewrites counts deletes and updates: a snapshot that saw another count reloads whole.
SELECT count(*) AS rows,
       coalesce(max(seq), 0) AS max_seq,
       (SELECT coalesce(max(value), '0') FROM meta WHERE key = 'rewrites') AS rewrites
FROM memories;

-- name: count_rewrite
-- The row is made by migration 013 (a lake: by lake.prepare); an UPDATE rather than an upsert, which needs a key.
UPDATE meta SET value = CAST(CAST(value AS BIGINT) + 1 AS VARCHAR) WHERE key = 'rewrites';

-- name: memory_texts
SELECT id, content FROM memories ORDER BY seq;

-- name: update_embeddings
-- new_vectors is an Arrow table (id, embedding, passages) the caller registers. Run on each of MEMORY_TABLES.
UPDATE {table} AS m
SET embedding = new_vectors.embedding, passages = new_vectors.passages
FROM new_vectors
WHERE m.id = new_vectors.id;

-- name: load_memories
-- Everything retrieval needs, for rows inserted after $after_seq, with their state (a change of state
-- counts as a rewrite: the snapshot then reloads whole).
SELECT m.id, m.seq, m.content, m.content_hash, m.category, m.importance, m.tags, m.terms, m.created_at,
       m.embedding, m.passages, m.commit_sha, m.sources, m.spec, m.phase, m.session, m.speaker, m.said_at,
       s.superseded_by,
       s.forgotten_at IS NOT NULL AS forgotten
FROM memories m LEFT JOIN memory_states s ON s.memory_id = m.id
WHERE m.seq > $after_seq
ORDER BY m.seq;

-- name: memories_to_forget
-- The memories a forget selects, oldest first: one id, or a category and/or tags, or all ($everything);
-- soft-forgotten ones too only when $include_forgotten (a hard forget purges them as well).
SELECT m.id
FROM memories m LEFT JOIN memory_states s ON s.memory_id = m.id
WHERE ($id::VARCHAR IS NULL OR m.id = $id)
  AND ($category::VARCHAR IS NULL OR m.category = $category)
  AND list_has_all(m.tags, $tags::VARCHAR[])
  AND ($id::VARCHAR IS NOT NULL OR $category::VARCHAR IS NOT NULL OR len($tags::VARCHAR[]) > 0 OR $everything)
  AND ($include_forgotten OR s.forgotten_at IS NULL)
ORDER BY m.seq;

-- name: forget_known_states
UPDATE memory_states SET forgotten_at = $now, changed_at = $now WHERE list_contains($ids::VARCHAR[], memory_id);

-- name: forget_new_states
INSERT INTO memory_states (memory_id, superseded_by, forgotten_at, changed_at)
SELECT id, NULL, $now, $now FROM unnest($ids::VARCHAR[]) AS t(id)
WHERE id NOT IN (SELECT memory_id FROM memory_states);

-- name: delete_memories
-- Run on each of MEMORY_TABLES.
DELETE FROM {table} WHERE list_contains($ids::VARCHAR[], id);

-- name: recent_memory_count
SELECT count(*) FROM memories_recent;

-- name: fold_recent_memories
-- The small table's rows appended to the big one in one go, in the order stored (then clear_folded_memories).
INSERT INTO memories_stored SELECT * FROM memories_recent ORDER BY seq;

-- name: clear_folded_memories
DELETE FROM memories_recent;

-- name: delete_memory_states
DELETE FROM memory_states WHERE list_contains($ids::VARCHAR[], memory_id);

-- name: release_superseded
-- A memory whose replacement was deleted is current again.
UPDATE memory_states SET superseded_by = NULL, changed_at = $now WHERE list_contains($ids::VARCHAR[], superseded_by);

-- name: memory_state
SELECT m.id, m.category, m.importance, m.tags, s.superseded_by, s.forgotten_at
FROM memories m LEFT JOIN memory_states s ON s.memory_id = m.id
WHERE m.id = $id;

-- name: supersede_known_state
UPDATE memory_states SET superseded_by = $by, changed_at = $now WHERE memory_id = $id;

-- name: supersede_new_state
INSERT INTO memory_states (memory_id, superseded_by, forgotten_at, changed_at)
SELECT $id, $by, NULL, $now WHERE $id NOT IN (SELECT memory_id FROM memory_states);

-- name: restorable_memories
-- Those of $ids that restore_memories brings back (soft-forgotten), read before it: a lake has no RETURNING.
SELECT memory_id FROM memory_states WHERE list_contains($ids::VARCHAR[], memory_id) AND forgotten_at IS NOT NULL;

-- name: restore_memories
-- restore_memory, and storing the exact text of a soft-forgotten memory, bring that memory back.
UPDATE memory_states SET forgotten_at = NULL, changed_at = $now
WHERE list_contains($ids::VARCHAR[], memory_id) AND forgotten_at IS NOT NULL;

-- name: insert_memory_accesses
INSERT INTO memory_accesses (memory_id, accesses, last_accessed_at)
SELECT unnest($ids::VARCHAR[]), unnest($counts::INTEGER[]), unnest($times::TIMESTAMP[]);

-- name: stale_memories
-- Current memories (neither forgotten nor superseded) not used since $before (never used: since stored),
-- the longest unused first.
SELECT m.id, m.content, m.category, m.importance, m.tags, m.created_at, NULL AS superseded_by, m.commit_sha,
       m.sources, m.spec, m.phase, m.session, m.speaker, m.said_at, coalesce(u.accesses, 0) AS accesses,
       u.last_accessed_at
FROM memories m
LEFT JOIN memory_usage u ON u.memory_id = m.id
WHERE coalesce(u.last_accessed_at, m.created_at) < $before
  AND m.id NOT IN (SELECT memory_id FROM memory_states WHERE forgotten_at IS NOT NULL OR superseded_by IS NOT NULL)
ORDER BY coalesce(u.last_accessed_at, m.created_at), m.seq
LIMIT $limit;


-- name: docs_gaps
-- The documents current memories name as sources, with how many corrections and discoveries (learning,
-- research) name them: the documents that misled or left out what had to be found the hard way, most
-- first. A source's anchor (`README.md#install`) counts for its document and is listed.
WITH named AS (
    SELECT m.id, m.category, m.created_at, unnest(m.sources) AS source
    FROM memories m
    WHERE m.category IN ('correction', 'learning', 'research')
      AND m.id NOT IN (SELECT memory_id FROM memory_states WHERE forgotten_at IS NOT NULL OR superseded_by IS NOT NULL)
)
SELECT split_part(source, '#', 1) AS document,
       count(DISTINCT id) FILTER (WHERE category = 'correction') AS corrections,
       count(DISTINCT id) FILTER (WHERE category <> 'correction') AS discoveries,
       coalesce(list(DISTINCT source ORDER BY source) FILTER (WHERE source LIKE '%#%'), []) AS anchors,
       list(DISTINCT id ORDER BY id) AS memory_ids,
       max(created_at) AS latest
FROM named
WHERE split_part(source, '#', 1) <> ''
GROUP BY document
ORDER BY corrections + discoveries DESC, corrections DESC, latest DESC, document
LIMIT $limit;
