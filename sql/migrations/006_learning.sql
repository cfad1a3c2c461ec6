-- Learning from experience: clustering runs per axis, their clusters and members,
-- and the values agents distil from a cluster (../shared/GHAP.md "Clustering").

-- One clustering of one axis.
CREATE TABLE cluster_runs (
    id               VARCHAR NOT NULL,  -- run_YYYYMMDD_HHMMSS_xxxxxx
    axis             VARCHAR NOT NULL,  -- full, strategy, surprise, root_cause
    created_at       TIMESTAMP NOT NULL,
    parameters       VARCHAR NOT NULL,  -- JSON: what the clustering ran with
    experience_count INTEGER NOT NULL,
    cluster_count    INTEGER NOT NULL,
    noise_count      INTEGER NOT NULL
);

-- The clusters a run found. cluster_id (`<axis>-<n>`) carries over to the next run's
-- cluster that keeps most of the members, so values stay attached to their cluster.
CREATE TABLE clusters (
    run_id             VARCHAR NOT NULL,
    axis               VARCHAR NOT NULL,
    cluster_id         VARCHAR NOT NULL,
    label              VARCHAR NOT NULL,  -- the terms that set the cluster apart
    size               INTEGER NOT NULL,
    avg_weight         DOUBLE NOT NULL,   -- mean tier weight of the members
    centroid           FLOAT[384] NOT NULL,  -- tier-weighted, unit length
    mean_distance      DOUBLE NOT NULL,   -- members' cosine distance to the centroid
    sd_distance        DOUBLE NOT NULL,
    threshold_distance DOUBLE NOT NULL    -- mean + 1 sd: the published validation threshold
);

-- Every experience of a run: its cluster (NULL = noise), tier weight and distance to the centroid.
CREATE TABLE cluster_members (
    run_id     VARCHAR NOT NULL,
    axis       VARCHAR NOT NULL,
    cluster_id VARCHAR,
    ghap_id    VARCHAR NOT NULL,
    weight     DOUBLE NOT NULL,
    distance   DOUBLE              -- NULL for noise
);

-- Values: principles an agent wrote for a cluster and the library validated.
CREATE TABLE learned_values (
    id                     VARCHAR NOT NULL,  -- value_YYYYMMDD_HHMMSS_xxxxxx
    text                   VARCHAR NOT NULL,
    axis                   VARCHAR NOT NULL,
    cluster_id             VARCHAR NOT NULL,
    cluster_size           INTEGER NOT NULL,  -- when stored
    similarity_to_centroid DOUBLE NOT NULL,
    centroid_distance      DOUBLE NOT NULL,
    threshold_distance     DOUBLE NOT NULL,
    terms                  VARCHAR[] NOT NULL,
    embedding              FLOAT[384] NOT NULL,
    created_at             TIMESTAMP NOT NULL,
    dissolved_at           TIMESTAMP          -- set when a re-clustering left its cluster without a successor
);
