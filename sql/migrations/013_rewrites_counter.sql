-- The deletes-and-updates counter that memory_stats reads starts as a row, so that counting is a plain UPDATE:
-- the same statement then runs on a lake, whose tables have no key for an upsert (issue 11).
INSERT INTO meta (key, value)
SELECT 'rewrites', '0'
WHERE NOT EXISTS (SELECT 1 FROM meta WHERE key = 'rewrites');
