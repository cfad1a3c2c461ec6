"""`learnmem index|search-code|callers|callees|index-stats|remove-file`: the code index (learnmem/code/), each one library call plus
formatting.

Like app.py, this imports only the standard library at import time.
"""

from __future__ import annotations

from learnmem.cli import output
import argparse
from collections.abc import Callable



def cmd_index(args: argparse.Namespace) -> None:
    """Index the source files of a folder (incremental)."""
    result = output.open_learnmem(args).index_codebase(args.path, project=args.project, progress=not (args.quiet or args.json))
    if args.json:
        output.emit_json(output.as_json(result))
        return
    print(
        f"{result.project}: {result.files_indexed} files indexed, {result.files_unchanged} unchanged, "
        f"{result.files_deleted} deleted, {result.files_skipped} skipped, {result.files_failed} failed; "
        f"{result.units} units ({result.units_embedded} embedded), {result.calls} calls "
        f"({result.calls_resolved} resolved) in {result.seconds:.1f} s"
    )
    for failure in result.failures:
        print(f"  failed: {failure}")


def _print_edges(edges: list, args: argparse.Namespace) -> None:
    if args.json:
        output.emit_json(output.as_json(edges))
        return
    for edge in edges:
        callee = f"{edge.callee_module}.{edge.callee_qualified_name}" if edge.callee_qualified_name else f"{edge.callee_name} (unresolved)"
        caller = f"{edge.caller_module}.{edge.caller_qualified_name}".rstrip(".")
        print(f"{edge.file_path}:{edge.line}  {caller} -> {callee}")
    if not edges:
        print("(no calls found)")


def cmd_search_code(args: argparse.Namespace) -> None:
    """Search indexed code by meaning and identifiers."""
    hits = output.open_learnmem(args, read_only=True).search_code(
        args.query, project=args.project, language=args.language, unit_type=args.unit_type, limit=args.limit
    )
    if args.json:
        output.emit_json(output.as_json(hits))
        return
    for hit in hits:
        name = hit.qualified_name or "(module)"
        print(f"{hit.score:.3f}  {hit.file_path}:{hit.start_line}-{hit.end_line}  {hit.unit_type} {name}  [{hit.module}]")
        if hit.signature:
            print(f"       {output.one_line(hit.signature, 100)}")
    if not hits:
        print("(no code found: index a folder first with `learnmem index`)")


def cmd_callers(args: argparse.Namespace) -> None:
    """Show who calls a function."""
    _print_edges(output.open_learnmem(args, read_only=True).find_callers(args.name, project=args.project), args)


def cmd_callees(args: argparse.Namespace) -> None:
    """Show what a function calls."""
    _print_edges(output.open_learnmem(args, read_only=True).find_callees(args.name, project=args.project), args)


def cmd_index_stats(args: argparse.Namespace) -> None:
    """Show what the code index holds."""
    stats = output.open_learnmem(args, read_only=True).get_indexing_stats(project=args.project)
    if args.json:
        output.emit_json(output.as_json(stats))
        return
    languages = ", ".join(f"{language} {count}" for language, count in stats.files_by_language.items())
    print(f"{', '.join(stats.projects) or '(no code indexed: index a folder with `learnmem index`)'}: "
          f"{stats.files} files{f' ({languages})' if languages else ''}, {stats.units} units, {stats.calls} calls "
          f"({stats.calls_resolved} resolved, {stats.calls_unresolved} unresolved), "
          f"{stats.pending_embeddings} pending embeddings")
    for language, types in stats.units_by_language.items():
        print(f"  {language}: " + ", ".join(f"{unit_type} {count}" for unit_type, count in types.items()))
    for project in stats.projects:
        print(f"  {project}: last indexed {stats.last_indexed_at[project] or 'never'}, "
              f"root {stats.roots[project] or '(not recorded)'}")
    print(f"  model: {stats.embedding_model} ({stats.embedding_dim}-d)")


def cmd_remove_file(args: argparse.Namespace) -> None:
    """Take one file out of the code index."""
    result = output.open_learnmem(args).remove_file(args.path, project=args.project)
    if args.json:
        output.emit_json(output.as_json(result))
        return
    print(f"{result.project}: removed {result.file} ({result.units_removed} units, {result.calls_removed} call "
          f"sites); calls of other files resolved again: {result.calls_unresolved} now unresolved, "
          f"{result.calls_reresolved} resolved elsewhere")
    if result.still_on_disk:
        print(f"  {result.file} is still on disk: the next `learnmem index` adds it back unless it is ignored")


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], None], str]] = {
    "index": (cmd_index, "index the source files of a folder: units, embeddings, call graph (incremental)"),
    "search-code": (cmd_search_code, "search indexed code by meaning and identifiers"),
    "callers": (cmd_callers, "show the call sites that call a function"),
    "callees": (cmd_callees, "show the calls a function makes"),
    "index-stats": (cmd_index_stats, "show what the code index holds: files, units, calls, last indexed, model"),
    "remove-file": (cmd_remove_file, "take one file out of the code index (back on the next index run if on disk)"),
}


def add_arguments(commands: dict[str, argparse.ArgumentParser]) -> None:
    """The arguments of the code commands (their parsers are made by app.build_parser)."""
    index = commands["index"]
    index.add_argument("path", nargs="?", default=".", metavar="PATH", help="folder to index (default: .)")
    index.add_argument("--project", metavar="P", help="project name (default: as the folder was indexed before, else its name)")
    index.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    search = commands["search-code"]
    search.add_argument("query", metavar="QUERY", help="what the code does, or names in it")
    search.add_argument("--project", metavar="P", help="only this project")
    search.add_argument("--language", metavar="L", help="only this language (python, typescript, go...)")
    search.add_argument("--unit-type", dest="unit_type", metavar="T", help="module, class, function, method or key")
    search.add_argument("--limit", "-n", type=int, default=10, metavar="N", help="at most N units (default: 10)")
    for name in ("callers", "callees"):
        commands[name].add_argument("name", metavar="NAME", help="load, Config.load or app.config.Config.load")
        commands[name].add_argument("--project", metavar="P", help="only this project")
    commands["index-stats"].add_argument("--project", metavar="P", help="only this project (default: all, added up)")
    remove = commands["remove-file"]
    remove.add_argument("path", metavar="PATH", help="the file, relative to the project root or absolute inside it")
    remove.add_argument("--project", metavar="P", help="its project (needed only when several index that path)")
