-- Conversation turns as memories (issue 22, item 3). Never edit this file once released.
--   session:  the conversation a turn was said in (a transcript's session id, or a name the caller gives);
--   speaker:  who said it ("user", "assistant", "Caroline");
--   said_at:  when it was said (a transcript's timestamp), which can be long before it was stored.
-- NULL for every memory that is not a turn. retrieve_memories and list_memories filter by session, and their
-- time window (since, until) reads said_at where a memory has one, created_at otherwise.
-- New columns at the end of both halves, in the same order (the view `memories` unites them by position). IF NOT
-- EXISTS: a lake project upgraded from schema 13 gets memories_recent with them already (learnmem/storage/lake_upgrade.py).

ALTER TABLE memories_stored ADD COLUMN IF NOT EXISTS session VARCHAR;
ALTER TABLE memories_stored ADD COLUMN IF NOT EXISTS speaker VARCHAR;
ALTER TABLE memories_stored ADD COLUMN IF NOT EXISTS said_at TIMESTAMP;
ALTER TABLE memories_recent ADD COLUMN IF NOT EXISTS session VARCHAR;
ALTER TABLE memories_recent ADD COLUMN IF NOT EXISTS speaker VARCHAR;
ALTER TABLE memories_recent ADD COLUMN IF NOT EXISTS said_at TIMESTAMP;
