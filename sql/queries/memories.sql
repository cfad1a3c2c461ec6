-- name: memory_ids_by_hash
SELECT content_hash, id, created_at
FROM memories
WHERE content_hash IN (SELECT unnest($hashes::VARCHAR[]));

-- name: insert_memories
-- new_memories is an Arrow table the caller registers on the connection.
INSERT INTO memories (id, content, content_hash, category, importance, tags, terms, created_at, embedding, passages)
SELECT id, content, content_hash, category, importance, tags, terms, created_at, embedding, passages
FROM new_memories;

-- name: get_memory
SELECT id, content, category, importance, tags, created_at
FROM memories
WHERE id = $id;

-- name: list_memories
SELECT id, content, category, importance, tags, created_at
FROM memories
WHERE ($category::VARCHAR IS NULL OR category = $category)
  AND list_has_all(tags, $tags::VARCHAR[])
ORDER BY created_at DESC, seq DESC
LIMIT $limit OFFSET $offset;

-- name: delete_memory
DELETE FROM memories WHERE id = $id RETURNING id;

-- name: memory_stats
-- rewrites counts deletes and updates: a snapshot that saw another count reloads whole.
SELECT count(*) AS rows,
       coalesce(max(seq), 0) AS max_seq,
       (SELECT coalesce(max(value), '0') FROM meta WHERE key = 'rewrites') AS rewrites
FROM memories;

-- name: count_rewrite
INSERT INTO meta (key, value) VALUES ('rewrites', '1')
ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(meta.value AS BIGINT) + 1 AS VARCHAR);

-- name: memory_texts
SELECT id, content FROM memories ORDER BY seq;

-- name: update_embeddings
-- new_vectors is an Arrow table (id, embedding, passages) the caller registers.
UPDATE memories
SET embedding = new_vectors.embedding, passages = new_vectors.passages
FROM new_vectors
WHERE memories.id = new_vectors.id;

-- name: load_memories
-- Everything retrieval needs, for rows inserted after $after_seq.
SELECT id, seq, content, content_hash, category, importance, tags, terms, created_at, embedding, passages
FROM memories
WHERE seq > $after_seq
ORDER BY seq;
