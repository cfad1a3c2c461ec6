"""Index a source tree into the file: units (embedded), imports, call sites, the call graph.

Incremental: a file whose bytes did not change is not read again, and a unit
whose embedded text did not change keeps its vector. Files are written in
batches (each its own transaction) so that other processes get the file
between them; the call graph is then rebuilt for the whole project from what
is stored, so a re-index after edits equals a clean index of the same tree.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa

from learnmem.search import keywords
from learnmem.storage import sql
from learnmem import validate
from learnmem.code import languages
from learnmem.code.describe import embed_text, keyword_text
from learnmem.code.model import CallSite, Import, ParsedFile, Unit
from learnmem.errors import NotFoundError, ValidationError
from learnmem.progress import Progress, ProgressCallback
from learnmem.storage.store import Store, project_at, set_meta, utc_now
from learnmem.storage.vectors import to_column

# Files bigger than this are counted as skipped: generated or minified, not code to read.
MAX_FILE_BYTES = 5 * 1024 * 1024
# Files written per transaction.
WRITE_BATCH = 200
# Bumped whenever what a file yields changes (its units, their names, embedded or keyword texts): a project last
# indexed under another version has every file parsed again on its next run, so an upgrade never leaves old units
# beside new ones; vectors whose embedded text did not change are reused, not recomputed.
UNITS_VERSION = "5"  # 3: Python, JavaScript and TypeScript files store their flow facts (migration 016); 4: Go
# interface methods and Java annotation elements are units, Go and Java files store their imports; 5: Rust and Lua
# files store theirs, a Rust impl for `&'a mut Type` names its methods `Type.m`, Go and Java files store the declared
# types of their names (learnmem.code.typedvars)


@dataclass(frozen=True)
class IndexResult:
    """What `index_codebase` did."""

    project: str
    root: str
    files_seen: int
    files_indexed: int
    files_unchanged: int
    files_skipped: int
    files_failed: int
    files_deleted: int
    units: int
    units_embedded: int
    calls: int
    calls_resolved: int
    seconds: float
    failures: tuple[str, ...] = field(default=())


def _digest(data: bytes | str) -> str:
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def _root(directory) -> Path:
    if not isinstance(directory, (str, Path)):
        raise ValidationError(f"directory: expected a path, got {type(directory).__name__}")
    root = Path(directory).expanduser()
    if not validate.path_exists("directory", root):
        raise NotFoundError(f"directory: {str(directory)!r} does not exist")
    if not root.is_dir():
        raise ValidationError(f"directory: {str(directory)!r} is a file; give the folder to index")
    return root.resolve()


def index_codebase(
    store: Store,
    embedder,
    directory,
    project: str | None = None,
    recursive: bool = True,
    progress: bool | ProgressCallback = True,
) -> IndexResult:
    """Index (or re-index) the source files under `directory` as `project` (default: the project the folder was
    indexed as before, code or history, else its name).

    The folder (resolved) is recorded as the project's root: remove_file takes absolute paths inside it."""
    # tree-sitter and pathspec load only when code is indexed
    from learnmem.code.walk import candidate_files, read_no_follow

    started = time.monotonic()
    root = _root(directory)
    project = validate.text("project", project if project is not None else project_at(store, root), max_chars=200)
    display = Progress(progress, "files", "units embedded")
    with store.read() as con:
        known = dict(con.execute(sql.query("code_file_hashes"), {"project": project}).fetchall())
        recorded_root = con.execute(sql.query("code_root"), {"project": project}).fetchone()
        version = con.execute(sql.query("code_units_version"), {"project": project}).fetchone()
    # Files written under another version are all parsed again (stale). A project with nothing stored yet is
    # marked current before any file is written, so that a run killed half-way resumes where it stopped.
    stale = version is None or version[0] != UNITS_VERSION
    if stale and not known:
        with store.write() as con:
            set_meta(con, f"code_units_version:{project}", UNITS_VERSION)
        stale = False

    seen: set[str] = set()
    changed: list[tuple[str, bytes, str]] = []
    skipped = failed = unchanged = 0
    failures: list[str] = []
    for relative in candidate_files(root, recursive):
        language = languages.language_of(relative)
        if language is None:
            skipped += 1
            continue
        try:
            relative.encode("utf-8")
        except UnicodeEncodeError:  # os.walk keeps undecodable bytes as surrogates, which no column can hold
            failed += 1
            shown = relative.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            failures.append(f"{shown}: file name is not valid UTF-8")
            continue
        try:
            if (root / relative).stat().st_size > MAX_FILE_BYTES:  # skip it without reading it
                skipped += 1
                continue
            data = read_no_follow(root / relative)
        except OSError as error:
            failed += 1
            failures.append(f"{relative}: {error.strerror or error}")
            continue
        if len(data) > MAX_FILE_BYTES or languages.is_probably_binary(data):
            skipped += 1
            continue
        seen.add(relative)
        digest = _digest(data)
        if not stale and known.get(relative) == digest:
            unchanged += 1
        else:
            changed.append((relative, data, digest))
    deleted = sorted(set(known) - seen)

    units_embedded = 0
    display.total = len(changed)
    for start in range(0, len(changed), WRITE_BATCH):
        batch = changed[start : start + WRITE_BATCH]
        parsed = [_parse(relative, data) for relative, data, _ in batch]
        display.advance_to(start)
        units_embedded += _write_batch(store, embedder, project, batch, parsed, display)
        display.advance_to(start + len(batch))
    # The root is recorded (bookkeeping.remove_file takes absolute paths inside it) with the deletions, and a
    # stale project's version once every file has been written under it (a run that dies first starts again).
    new_root = recorded_root is None or recorded_root[0] != str(root)
    if deleted or new_root or stale:
        with store.write() as con:
            if deleted:
                _delete_files(con, project, deleted)
            if new_root:
                set_meta(con, f"code_root:{project}", str(root))
            if stale:
                set_meta(con, f"code_units_version:{project}", UNITS_VERSION)

    with store.read() as con:
        calls, resolved = con.execute(sql.query("call_counts"), {"project": project}).fetchone()
    # Writing files clears the graph (see _delete_files), so no edges with no change
    # means a run died before its rebuild: rebuild then too.
    if changed or deleted or not calls:
        calls, resolved = _rebuild_call_graph(store, project)
    display.close()
    with store.read() as con:
        unit_count = len(con.execute(sql.query("project_units"), {"project": project}).fetchall())
    return IndexResult(
        project=project, root=str(root), files_seen=len(seen) + skipped + failed, files_indexed=len(changed),
        files_unchanged=unchanged, files_skipped=skipped, files_failed=failed, files_deleted=len(deleted),
        units=unit_count, units_embedded=units_embedded, calls=calls, calls_resolved=resolved,
        seconds=time.monotonic() - started, failures=tuple(failures),
    )


def _parse(relative: str, data: bytes) -> ParsedFile:
    from learnmem.code.parse import parse_source_with_tree

    language = languages.language_of(relative)
    parsed, tree = parse_source_with_tree(relative, data, language)
    if language == "python" and tree is not None:
        from learnmem.code.pycalls import python_calls_and_imports
        from learnmem.code.pyfacts import python_flow_facts

        is_package = relative.endswith("__init__.py")
        try:
            parsed.calls, parsed.imports = python_calls_and_imports(tree.root_node, data, parsed.units, parsed.module,
                                                                    is_package)
            parsed.flow = python_flow_facts(tree.root_node, data, parsed.units)
        except RecursionError:
            # An expression nested thousands deep (generated code: `a + b + ...` of 3,000 terms) is deeper than
            # the walks recurse: the file keeps its units, without call sites.
            parsed.calls, parsed.imports, parsed.flow = [], [], None
    elif language in languages.SCRIPT_LANGUAGES and tree is not None:
        from learnmem.code.jsmodules import js_module_facts

        parsed.flow = js_module_facts(tree.root_node, data, relative, parsed.units)
    elif language in ("go", "java", "rust", "lua") and tree is not None:
        from learnmem.code.pkgimports import java_package, package_imports

        parsed.imports = package_imports(tree.root_node, language)
        if language in ("go", "java"):
            from learnmem.code.typedvars import type_facts

            facts = type_facts(tree.root_node, language, parsed.units)
            package = java_package(tree.root_node) if language == "java" else ""
            parsed.flow = {**facts, "package": package} if package else facts or None
    return parsed


def drop_files(con, project: str, paths: list[str]) -> None:
    """Take files out of a project's index and resolve its call graph again, on a connection holding the
    writer lock (bookkeeping.remove_file): one transaction with the caller's other statements."""
    from learnmem.code.resolve import resolve_calls

    _delete_files(con, project, paths)
    with _without_gc_pauses():
        _, files = _graph_inputs(con, project)
        _replace_edges(con, project, resolve_calls(list(files.values())))


def _delete_files(con, project: str, paths: Sequence[str]) -> None:
    """Drop the rows of these files and the project's call graph, which may name them (rebuilt at the end of the run)."""
    con.execute(sql.query("delete_calls"), {"project": project})
    params = {"project": project, "paths": list(paths)}
    for query in (
        sql.query("delete_code_files"),
        sql.query("delete_code_units"),
        sql.query("delete_code_imports"),
        sql.query("delete_call_sites"),
    ):
        con.execute(query, params)


def _write_batch(store: Store, embedder, project: str, batch, parsed: list[ParsedFile], display: Progress) -> int:
    """Embed what changed in these files and replace their rows in one transaction; returns units embedded."""
    rows = [(file, unit, embed_text(unit, file.module)) for file in parsed for unit in file.units]
    hashes = [_digest(text) for _, _, text in rows]
    with store.read() as con:
        reused = dict(
            con.execute(sql.query("code_vectors_by_hash"), {"project": project, "hashes": sorted(set(hashes))}).fetchall()
        )
    missing = sorted({h: text for h, (_, _, text) in zip(hashes, rows) if h not in reused}.items())
    vectors = {h: np.asarray(v, dtype=np.float32) for h, v in reused.items()}
    for start in range(0, len(missing), 64):
        chunk = missing[start : start + 64]
        for (digest, _), vector in zip(chunk, embedder.embed([text for _, text in chunk])):
            vectors[digest] = vector
        display.add(len(chunk))
    now = utc_now()
    files = pa.table({
        "project": [project] * len(parsed), "path": [f.path for f in parsed], "language": [f.language for f in parsed],
        "module": [f.module for f in parsed], "content_hash": [digest for _, _, digest in batch],
        "size_bytes": [len(data) for _, data, _ in batch], "syntax_errors": [f.syntax_errors for f in parsed],
        "indexed_at": pa.array([now] * len(parsed), pa.timestamp("us")),
        "flow": pa.array([None if f.flow is None else json.dumps(f.flow, separators=(",", ":")) for f in parsed],
                         pa.string()),
    })
    units = pa.table({
        "id": [f"unit_{secrets.token_hex(8)}" for _ in rows], "project": [project] * len(rows),
        "file_path": [f.path for f, _, _ in rows], "module": [f.module for f, _, _ in rows],
        "name": [u.name for _, u, _ in rows], "qualified_name": [u.qualified_name for _, u, _ in rows],
        "unit_type": [u.unit_type for _, u, _ in rows], "signature": [u.signature for _, u, _ in rows],
        "docstring": [u.docstring for _, u, _ in rows], "content": [u.content for _, u, _ in rows],
        "start_line": pa.array([u.start_line for _, u, _ in rows], pa.int32()),
        "end_line": pa.array([u.end_line for _, u, _ in rows], pa.int32()),
        "language": [f.language for f, _, _ in rows], "complexity": pa.array([u.complexity for _, u, _ in rows], pa.int32()),
        "content_hash": hashes, "bases": pa.array([list(u.bases) for _, u, _ in rows], pa.list_(pa.string())),
        "terms": pa.array([keywords.terms(keyword_text(u)) for _, u, _ in rows], pa.list_(pa.string())),
        "embedding": to_column(np.asarray([vectors[h] for h in hashes]).reshape(-1, embedder.dim), embedder.dim),
    })
    imports = _records(project, parsed, lambda f: f.imports, ("local", "module", "name", "line"))
    sites = _records(project, parsed, lambda f: f.calls, ("caller", "callee", "name", "line", "receiver_type"))
    with store.write() as con:
        _delete_files(con, project, [f.path for f in parsed])
        for view, table, query in (
            ("new_code_files", files, sql.query("insert_code_files")),
            ("new_code_units", units, sql.query("insert_code_units")),
            ("new_code_imports", imports, sql.query("insert_code_imports")),
            ("new_call_sites", sites, sql.query("insert_call_sites")),
        ):
            if table.num_rows:
                con.register(view, table)
                con.execute(query)
                con.unregister(view)
    return len(missing)


def _records(project: str, parsed: list[ParsedFile], items, columns: tuple[str, ...]) -> pa.Table:
    rows = [(f.path, item) for f in parsed for item in items(f)]
    table = {"project": [project] * len(rows), "file_path": [path for path, _ in rows]}
    for column in columns:
        values = [getattr(item, column) for _, item in rows]
        table[column] = pa.array(values, pa.int32()) if column == "line" else pa.array(values, pa.string())
    return pa.table(table)


_LAST_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


def _last_name(callee: str) -> str:
    """The called name of a callee expression: "load" for "self.config.load"."""
    found = _LAST_NAME.search(callee)
    return found.group(0) if found else callee


GRAPH_ATTEMPTS = 3  # call-graph resolutions outside the writer lock before one is done under it


def _rebuild_call_graph(store: Store, project: str) -> tuple[int, int]:
    """Resolve every stored call site of the project again and replace its edges; returns (calls, resolved).

    Resolution runs outside the writer lock; the edges are written only if no other process indexed the
    project meanwhile (its files' fingerprint unchanged), else it starts again, and after GRAPH_ATTEMPTS
    the last resolution runs under the lock: edges computed from an older state never replace newer ones."""
    from learnmem.code.resolve import resolve_calls

    with _without_gc_pauses():
        for _ in range(GRAPH_ATTEMPTS):
            with store.read() as con:
                fingerprint, files = _graph_inputs(con, project)
            edges = resolve_calls(list(files.values()))
            with store.write() as con:
                if con.execute(sql.query("project_files_fingerprint"), {"project": project}).fetchone() == fingerprint:
                    return _replace_edges(con, project, edges)
        with store.write() as con:
            _, files = _graph_inputs(con, project)
            return _replace_edges(con, project, resolve_calls(list(files.values())))


@contextlib.contextmanager
def _without_gc_pauses():
    """Python's cycle collector off for a while. Resolving a call graph makes hundreds of thousands of small
    tuples and sets, none of them in a cycle, and each batch of allocations starts a collection, the largest of
    which walk every object the process holds: on hypothesis that was 0.45 s of a 1.1 s one-file re-index.
    What is made meanwhile is collected as usual once the collector is back on."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _graph_inputs(con, project: str) -> tuple[tuple, dict[str, ParsedFile]]:
    """The fingerprint of the project's files, and its files with the units, imports and call sites stored."""
    params = {"project": project}
    fingerprint = con.execute(sql.query("project_files_fingerprint"), params).fetchone()
    files = {path: ParsedFile(path=path, language=language, module=module, syntax_errors=errors,
                              flow=None if flow is None else json.loads(flow))
             for path, language, module, errors, flow in con.execute(sql.query("project_files"), params).fetchall()}
    for path, name, qualified, unit_type, start, end, bases, signature in con.execute(sql.query("project_units"),
                                                                                     params).fetchall():
        files[path].units.append(Unit(name, qualified, unit_type, signature, "", "", start, end, 1, tuple(bases)))
    for path, local, module, name, line in con.execute(sql.query("project_imports"), params).fetchall():
        files[path].imports.append(Import(local, module, name, line))
    for path, caller, callee, name, line, receiver in con.execute(sql.query("project_call_sites"), params).fetchall():
        files[path].calls.append(CallSite(caller, callee, name, line, receiver))
    return fingerprint, files


def _replace_edges(con, project: str, edges) -> tuple[int, int]:
    table = pa.table({
        "project": [project] * len(edges), "file_path": [e.file_path for e in edges],
        "caller_module": [e.caller_module for e in edges], "caller_qualified_name": [e.caller_qualified_name for e in edges],
        "callee_module": pa.array([e.callee_module for e in edges], pa.string()),
        "callee_qualified_name": pa.array([e.callee_qualified_name for e in edges], pa.string()),
        "callee_name": [_last_name(e.callee_name) for e in edges], "line": pa.array([e.line for e in edges], pa.int32()),
    })
    con.execute(sql.query("delete_calls"), {"project": project})
    if edges:
        con.register("new_calls", table)
        con.execute(sql.query("insert_calls"))
        con.unregister("new_calls")
    return len(edges), sum(e.callee_qualified_name is not None for e in edges)
