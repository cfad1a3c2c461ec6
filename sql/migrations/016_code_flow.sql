-- Where values flow in a Python file (issue 23, item 2): the facts learnmem.code.pyfacts records and
-- learnmem.code.pyflow solves for the call graph, as JSON; NULL for other languages. The call graph is rebuilt
-- from what is stored, so the facts are stored with the file. A project indexed before this migration has its
-- files parsed again on its next index (learnmem.code.indexer.UNITS_VERSION), its vectors reused.
-- Never edit this file once released.

ALTER TABLE code_files ADD COLUMN IF NOT EXISTS flow VARCHAR;
