-- name: code_file_hashes
SELECT path, content_hash FROM code_files WHERE project = $project;

-- name: code_vectors_by_hash
-- Embeddings already computed for unit texts of this project: reused when a unit did not change.
SELECT content_hash, any_value(embedding) AS embedding
FROM code_units
WHERE project = $project AND content_hash IN (SELECT unnest($hashes::VARCHAR[]))
GROUP BY content_hash;

-- name: delete_code_files
DELETE FROM code_files WHERE project = $project AND path IN (SELECT unnest($paths::VARCHAR[]));

-- name: delete_code_units
DELETE FROM code_units WHERE project = $project AND file_path IN (SELECT unnest($paths::VARCHAR[]));

-- name: delete_code_imports
DELETE FROM code_imports WHERE project = $project AND file_path IN (SELECT unnest($paths::VARCHAR[]));

-- name: delete_call_sites
DELETE FROM call_sites WHERE project = $project AND file_path IN (SELECT unnest($paths::VARCHAR[]));

-- name: insert_code_files
INSERT INTO code_files BY NAME SELECT * FROM new_code_files;

-- name: insert_code_units
INSERT INTO code_units (id, project, file_path, module, name, qualified_name, unit_type, signature, docstring,
                        content, start_line, end_line, language, complexity, content_hash, bases, terms, embedding)
SELECT id, project, file_path, module, name, qualified_name, unit_type, signature, docstring,
       content, start_line, end_line, language, complexity, content_hash, bases, terms, embedding
FROM new_code_units;

-- name: insert_code_imports
INSERT INTO code_imports BY NAME SELECT * FROM new_code_imports;

-- name: insert_call_sites
INSERT INTO call_sites BY NAME SELECT * FROM new_call_sites;

-- name: project_files_fingerprint
-- Changes whenever an index run changes the project's files (content, set): a call graph resolved from
-- an older state is not written over a newer one.
SELECT count(*), md5(coalesce(string_agg(path || ':' || content_hash, ',' ORDER BY path), ''))
FROM code_files WHERE project = $project;

-- name: project_files
SELECT path, language, module, syntax_errors, flow FROM code_files WHERE project = $project ORDER BY path;

-- name: project_units
-- A Go method's signature names its receiver (`func (g *Group) handle()`), which calls on it go through, and a
-- Go function's says what it returns (`x := NewFoo()`) (learnmem.code.localresolve); nothing else reads them.
SELECT file_path, name, qualified_name, unit_type, start_line, end_line, bases,
       CASE WHEN language = 'go' AND unit_type IN ('method', 'function') THEN signature ELSE '' END AS signature
FROM code_units WHERE project = $project ORDER BY file_path, start_line;

-- name: project_imports
SELECT file_path, local, module, name, line FROM code_imports WHERE project = $project ORDER BY file_path, line;

-- name: project_call_sites
SELECT file_path, caller, callee, name, line, receiver_type
FROM call_sites WHERE project = $project ORDER BY file_path, line;

-- name: delete_calls
DELETE FROM calls WHERE project = $project;

-- name: insert_calls
INSERT INTO calls BY NAME SELECT * FROM new_calls;

-- name: call_counts
SELECT count(*), count(callee_qualified_name) FROM calls WHERE project = $project;

-- name: find_callers
-- $name may be bare ("load"), qualified ("Config.load") or module-qualified ("app.config.Config.load").
SELECT project, caller_module, caller_qualified_name, callee_module, callee_qualified_name, callee_name, file_path, line
FROM calls
WHERE ($project::VARCHAR IS NULL OR project = $project)
  AND (callee_name = $name
       OR callee_qualified_name = $name
       OR callee_module || '.' || callee_qualified_name = $name)
ORDER BY project, file_path, line;

-- name: find_callees
SELECT project, caller_module, caller_qualified_name, callee_module, callee_qualified_name, callee_name, file_path, line
FROM calls
WHERE ($project::VARCHAR IS NULL OR project = $project)
  AND caller_qualified_name <> ''
  AND (caller_qualified_name = $name
       OR caller_qualified_name LIKE '%.' || $name
       OR caller_module || '.' || caller_qualified_name = $name)
ORDER BY project, file_path, line;

-- name: code_unit_stats
SELECT count(*), coalesce(max(seq), 0) FROM code_units;

-- name: load_code_units
-- Everything code search needs, every project.
SELECT project, file_path, module, name, qualified_name, unit_type, signature, start_line, end_line,
       language, content, terms, embedding
FROM code_units
ORDER BY seq;

-- name: code_root
-- Where a project was last indexed from (resolved, absolute): kept in meta, no schema of its own.
SELECT value FROM meta WHERE key = 'code_root:' || $project;

-- name: code_units_version
-- The version of what files yield (learnmem.code.indexer.UNITS_VERSION) a project was last fully indexed under.
SELECT value FROM meta WHERE key = 'code_units_version:' || $project;

-- name: code_projects
-- Every project the code index knows: those with files, and those indexed with none (a recorded root).
SELECT p.project, m.value AS root
FROM (SELECT DISTINCT project FROM code_files
      UNION SELECT substr(key, length('code_root:') + 1) FROM meta WHERE starts_with(key, 'code_root:')) AS p
LEFT JOIN meta AS m ON m.key = 'code_root:' || p.project
ORDER BY p.project;

-- name: code_file_stats
SELECT project, language, count(*) AS files, count(*) FILTER (WHERE syntax_errors > 0) AS broken,
       max(indexed_at) AS last_indexed_at
FROM code_files
WHERE ($project::VARCHAR IS NULL OR project = $project)
GROUP BY project, language
ORDER BY project, language;

-- name: code_unit_counts
SELECT language, unit_type, count(*) AS units
FROM code_units
WHERE ($project::VARCHAR IS NULL OR project = $project)
GROUP BY language, unit_type
ORDER BY language, unit_type;

-- name: code_call_stats
SELECT count(*), count(callee_qualified_name) FROM calls WHERE ($project::VARCHAR IS NULL OR project = $project);

-- name: code_file_projects
-- The projects that index a file at this path (relative to their roots).
SELECT project FROM code_files WHERE path = $path ORDER BY project;

-- name: code_file_unit_count
SELECT count(*) FROM code_units WHERE project = $project AND file_path = $path;

-- name: project_calls
-- The project's call graph, every column remove_file compares before and after.
SELECT file_path, line, caller_module, caller_qualified_name, callee_name, callee_module, callee_qualified_name
FROM calls WHERE project = $project;

-- name: project_at_root
-- The project a folder was indexed as before, by the code index (meta) or the git history (git_repos): what
-- index_codebase and index_commits take when no project is named, so one folder stays one project.
SELECT project FROM (
    SELECT project, indexed_at FROM git_repos WHERE root = $root
    UNION ALL
    SELECT substr(key, length('code_root:') + 1) AS project, NULL AS indexed_at FROM meta
    WHERE key LIKE 'code_root:%' AND value = $root
) ORDER BY indexed_at DESC NULLS LAST, project LIMIT 1;
