-- name: git_repo_list
SELECT project, root FROM git_repos ORDER BY project;

-- name: delete_git_repo
DELETE FROM git_repos WHERE project = $project;

-- name: insert_git_repo
INSERT INTO git_repos BY NAME SELECT * FROM new_git_repos;

-- name: known_commits
-- The stored commit graph: reachability is computed from it without reading objects.
SELECT sha, parents FROM commits WHERE project = $project;

-- name: last_position
SELECT coalesce(max(position), -1) FROM commits WHERE project = $project;

-- name: insert_commits
INSERT INTO commits BY NAME SELECT * FROM new_commits;

-- name: insert_commit_files
INSERT INTO commit_files BY NAME SELECT * FROM new_commit_files;

-- name: delete_commits
DELETE FROM commits WHERE project = $project AND sha IN (SELECT unnest($shas::VARCHAR[]));

-- name: delete_commit_files
DELETE FROM commit_files WHERE project = $project AND sha IN (SELECT unnest($shas::VARCHAR[]));

-- name: commit_stats
-- Changes whenever commits are added or removed: the search snapshot reloads then.
SELECT count(*), max(committed_at), sum(hash(sha)) FROM commits;

-- name: load_commits
SELECT project, sha, subject, message, author, author_email, authored_at, committed_at,
       insertions, deletions, files_changed, is_merge, terms, embedding
FROM commits
ORDER BY project, committed_at, sha;

-- name: commits_touching
-- Commits that changed a file (by its path then or before a rename) or anything under a folder.
SELECT DISTINCT project, sha
FROM commit_files
WHERE ($project IS NULL OR project = $project)
  AND (path = $path OR old_path = $path OR starts_with(path, $folder) OR starts_with(old_path, $folder));

-- name: commit_paths
SELECT sha, list(path ORDER BY path) AS paths
FROM commit_files
WHERE project = $project AND sha IN (SELECT unnest($shas::VARCHAR[]))
GROUP BY sha;

-- name: path_changes
-- Every change recorded under one path, newest first: the file history walks renames over it.
SELECT f.sha, f.path, f.old_path, f.change_type, f.insertions, f.deletions, f.is_binary,
       c.author, c.author_email, c.authored_at, c.committed_at, c.subject, c.is_merge, c.position
FROM commit_files f JOIN commits c ON c.project = f.project AND c.sha = f.sha
WHERE f.project = $project AND f.path = $path AND NOT f.from_merged
ORDER BY c.committed_at DESC, c.position DESC;

-- name: churn_hotspots
-- Files by how often and how much they changed in a window; merges are left out, their
-- first-parent diffs repeat what the merged branch's own commits changed.
SELECT f.path, count(DISTINCT f.sha) AS commits, sum(f.insertions) AS insertions, sum(f.deletions) AS deletions,
       count(DISTINCT c.author_email) AS authors, max(c.committed_at) AS last_change
FROM commit_files f JOIN commits c ON c.project = f.project AND c.sha = f.sha
WHERE f.project = $project AND NOT c.is_merge AND f.change_type <> 'delete'
  AND c.committed_at > $start AND c.committed_at <= $end
GROUP BY f.path
ORDER BY commits DESC, sum(f.insertions) + sum(f.deletions) DESC, f.path
LIMIT $limit;

-- name: merge_commits
SELECT sha FROM commits WHERE project = $project AND is_merge AND sha IN (SELECT unnest($shas::VARCHAR[]));

-- name: units_named
-- A unit by bare, qualified, module-qualified or "path:qualified" name (module units excluded).
SELECT file_path, qualified_name, language
FROM code_units
WHERE project = $project AND unit_type <> 'module'
  AND (name = $name OR qualified_name = $name OR module || '.' || qualified_name = $name
       OR file_path || ':' || qualified_name = $name)
ORDER BY file_path, start_line;
