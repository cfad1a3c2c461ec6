"""Index bookkeeping: what the code index holds (`get_indexing_stats`) and taking one file out of it (`remove_file`).

A project's root is the folder `index_codebase` last indexed it from, recorded in the file's meta table
(`code_root:<project>`, see sql/queries/code.sql; projects indexed before roots were recorded have none until
their next index run). Indexed paths are relative to it, with POSIX separators.
"""

from __future__ import annotations

import os
import posixpath
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from learnmem.storage import sql
from learnmem import validate
from learnmem.errors import NotFoundError, ValidationError
from learnmem.storage.store import Store, iso

MAX_PATH_CHARS = 4096
_SUGGESTIONS = 3


@dataclass(frozen=True)
class IndexStats:
    """What the code index holds: one project's, or with project=None every project's added up.

    `roots`: per project, the folder it was last indexed from (None: indexed before learnmem recorded roots).
    `units_by_language`: language -> unit type (module, class, function, method, key) -> units.
    `calls` = `calls_resolved` + `calls_unresolved`: the call graph's edges, one per call site and target (a
    Python call that may reach several defs has one for each; a property read or a decorator applied without a
    call of its own (`@dec`) is one too).
    `last_indexed_at`: per project, when a file of it was last (re)indexed (ISO 8601, UTC; None when it has
    no files); an index run that found nothing changed leaves it as it was.
    `embedding_model`, `embedding_dim`: the file's model, which every unit vector comes from.
    `pending_embeddings`: units stored without a vector. Always 0: the indexer writes each unit with its
    vector in one transaction (code_units.embedding is NOT NULL), so the code index has no backlog.
    """

    projects: tuple[str, ...]
    roots: dict[str, str | None]
    files: int
    files_by_language: dict[str, int]
    files_with_syntax_errors: int
    units: int
    units_by_language: dict[str, dict[str, int]]
    calls: int
    calls_resolved: int
    calls_unresolved: int
    last_indexed_at: dict[str, str | None]
    embedding_model: str
    embedding_dim: int
    pending_embeddings: int


@dataclass(frozen=True)
class RemoveFileResult:
    """What `remove_file` took out of the code index of `project`: `file` (as stored, relative to the root)
    with its `units_removed` units and their vectors, imports and call sites (`calls_removed` edges).

    The other files' calls were resolved again, as a clean index of the tree without it would; of those that
    resolved differently (into the file, or through values its code passed: learnmem.code.pyflow),
    `calls_unresolved` now resolve nowhere and `calls_reresolved` to another unit.
    `still_on_disk`: the file is still under the project's root (None: no root recorded); the next
    index_codebase then adds it back, unless it is ignored (.gitignore) or deleted.
    """

    project: str
    file: str
    units_removed: int
    calls_removed: int
    calls_unresolved: int
    calls_reresolved: int
    still_on_disk: bool | None


def _unknown_project(project: str, known: dict) -> NotFoundError:
    names = ", ".join(known) or "none yet"
    return NotFoundError(f"project: {project!r} has no indexed code (indexed projects: {names}); "
                         "index it with index_codebase")


def get_indexing_stats(store: Store, project: str | None = None) -> IndexStats:
    """Counts of the code index of `project`, or of every project added up when None (an empty file: zeros)."""
    if project is not None:
        project = validate.text("project", project, max_chars=200)
    params = {"project": project}
    with store.read() as con:
        known = dict(con.execute(sql.query("code_projects")).fetchall())
        if project is not None and project not in known:
            raise _unknown_project(project, known)
        file_rows = con.execute(sql.query("code_file_stats"), params).fetchall()
        unit_rows = con.execute(sql.query("code_unit_counts"), params).fetchall()
        calls, resolved = con.execute(sql.query("code_call_stats"), params).fetchone()
    projects = tuple(known) if project is None else (project,)
    files_by_language: Counter[str] = Counter()
    broken = 0
    latest: dict[str, object] = {name: None for name in projects}
    for name, language, files, with_errors, last in file_rows:
        files_by_language[language] += files
        broken += with_errors
        if latest.get(name) is None or last > latest[name]:
            latest[name] = last
    units_by_language: dict[str, dict[str, int]] = {}
    for language, unit_type, count in unit_rows:
        units_by_language.setdefault(language, {})[unit_type] = count
    meta = store.meta
    return IndexStats(
        projects=projects, roots={name: known[name] for name in projects},
        files=sum(files_by_language.values()), files_by_language=dict(sorted(files_by_language.items())),
        files_with_syntax_errors=broken, units=sum(sum(types.values()) for types in units_by_language.values()),
        units_by_language=units_by_language, calls=calls, calls_resolved=resolved, calls_unresolved=calls - resolved,
        last_indexed_at={name: None if when is None else iso(when) for name, when in latest.items()},
        embedding_model=meta.get("embedding_model", ""), embedding_dim=int(meta.get("embedding_dim", 0)),
        pending_embeddings=0,
    )


def remove_file(store: Store, path: str, project: str | None = None) -> RemoveFileResult:
    """Take one file out of the code index: its units (with their vectors), imports, call sites, its
    fingerprint, and the edges of the call graph, which is resolved again for the whole project. One
    transaction: a crash leaves the file indexed as before, or removed with the graph rebuilt.

    `path`: relative to the project's root (as index_codebase stored it) or absolute inside it. `project`:
    may be left out when exactly one project indexes that path.
    """
    from learnmem.code import indexer

    text = validate.text("path", path, max_chars=MAX_PATH_CHARS)
    if project is not None:
        project = validate.text("project", project, max_chars=200)
    with store.write() as con:
        known = dict(con.execute(sql.query("code_projects")).fetchall())
        project, relative = _locate(con, text, project, known)
        units = con.execute(sql.query("code_file_unit_count"), {"project": project, "path": relative}).fetchone()[0]
        before = con.execute(sql.query("project_calls"), {"project": project}).fetchall()
        indexer.drop_files(con, project, [relative])
        after = con.execute(sql.query("project_calls"), {"project": project}).fetchall()
    others = Counter(row for row in before if row[0] != relative)
    sites = {row[:5] for row in others}  # file, line, caller, callee text: each call site of the other files
    changed = [(row, count) for row, count in (Counter(after) - others).items() if row[:5] in sites]
    root = known[project]
    return RemoveFileResult(
        project=project, file=relative, units_removed=units, calls_removed=len(before) - sum(others.values()),
        calls_unresolved=sum(count for row, count in changed if row[6] is None),
        calls_reresolved=sum(count for row, count in changed if row[6] is not None),
        still_on_disk=None if root is None else os.path.lexists(os.path.join(root, *relative.split("/"))),
    )


def _locate(con, text: str, project: str | None, known: dict[str, str | None]) -> tuple[str, str]:
    """(project, path as stored) of the indexed file `text` names; the errors say what would be accepted."""
    if project is not None and project not in known:
        raise _unknown_project(project, known)
    if not known:
        raise NotFoundError(f"path: {text!r} is not in the code index: no code is indexed in this file yet "
                            "(index_codebase)")
    candidates = [project] if project is not None else list(known)
    expanded = os.path.expanduser(text)
    if os.path.isabs(expanded):
        inside = {name: rel for name in candidates if (rel := _inside(expanded, known[name])) is not None}
        if not inside:
            raise _outside(text, project, known)
    else:
        relative = _relative(text)
        inside = {name: relative for name in candidates}
    indexed = {}
    for relative in set(inside.values()):
        holders = {name for (name,) in con.execute(sql.query("code_file_projects"), {"path": relative}).fetchall()}
        indexed |= {name: rel for name, rel in inside.items() if rel == relative and name in holders}
    if len(indexed) > 1:
        raise ValidationError(f"project: {text!r} is indexed in several projects ({', '.join(sorted(indexed))}); "
                              "name one")
    if indexed:
        return next(iter(indexed.items()))
    raise _not_indexed(con, text, inside)


def _inside(absolute: str, root: str | None) -> str | None:
    """`absolute` relative to `root` (as written, else with links resolved); None when it is not under it."""
    if root is None:
        return None
    forms = [os.path.normpath(absolute)]
    try:
        forms.append(str(Path(absolute).resolve()))
    except (OSError, RuntimeError, ValueError):  # a link loop, a name the system refuses
        pass
    for form in forms:
        try:
            relative = Path(form).relative_to(root).as_posix()
        except ValueError:
            continue
        if relative != ".":
            return relative
    return None


def _relative(text: str) -> str:
    """A relative path as the index stores it: POSIX separators, normalised; one that leaves the root is refused."""
    posix = text.replace(os.sep, "/") if os.sep != "/" else text
    normal = posixpath.normpath(posix)
    if normal in (".", "..") or normal.startswith("../"):
        raise ValidationError(f"path: {text!r} is not a file inside the project root; give a file path relative to "
                              "the root (as index_codebase stored it, e.g. 'pkg/mod.py') or an absolute path inside it")
    return normal


def _outside(text: str, project: str | None, known: dict[str, str | None]) -> ValidationError:
    if project is not None and known[project] is None:
        return ValidationError(f"path: {text!r} is absolute, but project {project!r} was indexed before learnmem "
                               "recorded roots: give the path relative to its root, or index it again")
    names = [project] if project is not None else list(known)
    roots = "; ".join(f"{name}: {known[name]}" for name in names if known[name] is not None) or "none recorded"
    return ValidationError(f"path: {text!r} is not a file inside the root of "
                           f"{'project ' + repr(project) if project else 'any indexed project'} ({roots}); give a "
                           "path inside it, or relative to it")


def _not_indexed(con, text: str, inside: dict[str, str]) -> NotFoundError:
    """The path is no indexed file: say which projects were looked in, and indexed paths it may have meant."""
    near = []
    for name, relative in sorted(inside.items()):
        base = posixpath.basename(relative)
        for (stored, *_rest) in con.execute(sql.query("project_files"), {"project": name}).fetchall():
            if posixpath.basename(stored) == base:
                near.append(f"{stored} ({name})" if len(inside) > 1 else stored)
    hint = f"; indexed files of that name: {', '.join(near[:_SUGGESTIONS])}" if near else ""
    where = ("project " if len(inside) == 1 else "projects ") + ", ".join(repr(name) for name in sorted(inside))
    return NotFoundError(f"path: {text!r} is not an indexed file of {where} (paths are relative to the project's "
                         f"root; get_indexing_stats counts the files){hint}")
