-- Which memories get used: accesses counted by a handle (retrieve_memories and get_memory
-- results, touch_memory) and appended here in batches, one row per memory and flush.
-- Appended only; the view memory_usage sums them.

CREATE TABLE memory_accesses (
    memory_id        VARCHAR NOT NULL,
    accesses         INTEGER NOT NULL,   -- in this batch
    last_accessed_at TIMESTAMP NOT NULL  -- the batch's latest access of the memory
);
