-- name: axis_vectors
-- The embedded experiences of one axis with their tier and BM25 terms, oldest first.
SELECT a.ghap_id, a.embedding, e.confidence_tier, a.terms, a.text
FROM experience_axes a JOIN ghap_resolved e ON e.id = a.ghap_id
WHERE a.axis = $axis AND a.embedding IS NOT NULL
ORDER BY e.captured_at, a.ghap_id;

-- name: latest_run
SELECT id, axis, created_at, parameters, experience_count, cluster_count, noise_count
FROM cluster_runs WHERE axis = $axis
ORDER BY created_at DESC, id DESC LIMIT 1;

-- name: run_memberships
-- Who was in which cluster in a run (noise left out): re-clustering matches clusters by these.
SELECT cluster_id, ghap_id FROM cluster_members WHERE run_id = $run_id AND cluster_id IS NOT NULL;

-- name: highest_cluster_number
-- New clusters of an axis take numbers never used before on it, by a cluster or by a value (an imported value
-- keeps the cluster id it was stored with, which no cluster of this file may take over).
SELECT coalesce(max(regexp_extract(cluster_id, '(\d+)$', 1)::INTEGER), 0)
FROM (SELECT cluster_id FROM clusters WHERE axis = $axis UNION ALL SELECT cluster_id FROM learned_values WHERE axis = $axis);

-- name: insert_cluster_run
INSERT INTO cluster_runs (id, axis, created_at, parameters, experience_count, cluster_count, noise_count)
VALUES ($id, $axis, $created_at, $parameters, $experience_count, $cluster_count, $noise_count);

-- name: insert_clusters
-- new_clusters is an Arrow table (the columns of clusters) the caller registers.
INSERT INTO clusters BY NAME SELECT * FROM new_clusters;

-- name: insert_cluster_members
-- new_cluster_members is an Arrow table (the columns of cluster_members) the caller registers.
INSERT INTO cluster_members BY NAME SELECT * FROM new_cluster_members;

-- name: values_to_dissolve
-- The values dissolve_values flags, read before it (a lake has no RETURNING): the same conditions.
SELECT id FROM learned_values
WHERE axis = $axis AND dissolved_at IS NULL
  AND cluster_id NOT IN (SELECT cluster_id FROM clusters WHERE run_id = $run_id);

-- name: dissolve_values
-- Values whose cluster has no successor in the new run are flagged, never deleted.
UPDATE learned_values SET dissolved_at = $now
WHERE axis = $axis AND dissolved_at IS NULL
  AND cluster_id NOT IN (SELECT cluster_id FROM clusters WHERE run_id = $run_id);

-- name: current_cluster
-- One cluster of the latest run of its axis, centroid and distances included.
SELECT run_id, axis, cluster_id, label, size, avg_weight, centroid, mean_distance, sd_distance, threshold_distance
FROM clusters
WHERE cluster_id = $cluster_id AND run_id = (SELECT run_id FROM latest_cluster_runs WHERE axis = $axis);

-- name: cluster_member_terms
-- The BM25 terms each member of a cluster wrote on its axis: validation names the ones a value shares.
SELECT a.terms FROM cluster_members m
JOIN experience_axes a ON a.ghap_id = m.ghap_id AND a.axis = $axis
WHERE m.run_id = $run_id AND m.cluster_id = $cluster_id;

-- name: current_centroids
-- Every cluster of the latest run of an axis: validation finds the candidate's nearest one.
SELECT cluster_id, centroid FROM clusters
WHERE run_id = (SELECT run_id FROM latest_cluster_runs WHERE axis = $axis)
ORDER BY cluster_id;

-- name: cluster_member_ids
-- A cluster's members, most central first.
SELECT ghap_id, distance FROM cluster_members
WHERE run_id = $run_id AND cluster_id = $cluster_id
ORDER BY distance, ghap_id
LIMIT $limit;

-- name: insert_value
INSERT INTO learned_values (id, text, axis, cluster_id, cluster_size, similarity_to_centroid, centroid_distance,
                            threshold_distance, terms, embedding, created_at, dissolved_at)
VALUES ($id, $text, $axis, $cluster_id, $cluster_size, $similarity_to_centroid, $centroid_distance,
        $threshold_distance, $terms::VARCHAR[], $embedding::FLOAT[384], $created_at, NULL);

-- name: value_stats
-- Changes whenever a value is stored or flagged, or an axis is clustered again: the value snapshot reloads then.
SELECT (SELECT count(*) FROM learned_values), (SELECT count(dissolved_at) FROM learned_values),
       (SELECT max(created_at) FROM learned_values), (SELECT count(*) FROM cluster_runs);

-- name: all_values
-- Every value with the size of its cluster in the latest run of its axis (0 once dissolved), largest first,
-- then newest: the order list_values gives.
SELECT v.id, v.text, v.axis, v.cluster_id, coalesce(c.size, 0) AS cluster_size, v.similarity_to_centroid,
       v.created_at, v.dissolved_at, v.embedding, v.terms
FROM learned_values v
LEFT JOIN latest_cluster_runs r ON r.axis = v.axis
LEFT JOIN clusters c ON c.run_id = r.run_id AND c.cluster_id = v.cluster_id
ORDER BY cluster_size DESC, v.created_at DESC, v.id DESC;

-- name: cluster_value_forms
-- The most central members of a cluster with what they learned: validation compares a value with these.
SELECT m.ghap_id, m.weight, e.lesson_what_worked, e.lesson_takeaway, e.root_cause_category,
       e.root_cause_description, e.surprise, e.outcome_result
FROM cluster_members m JOIN ghap_resolved e ON e.id = m.ghap_id
WHERE m.run_id = $run_id AND m.cluster_id = $cluster_id
ORDER BY m.distance, m.ghap_id
LIMIT $limit;
