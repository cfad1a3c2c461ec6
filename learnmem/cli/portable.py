"""`learnmem backup|export|import`: a consistent copy of the file, and the user's data as JSON lines or
markdown (learnmem/exchange/portable.py), each one library call plus formatting.

Like app.py, this imports only the standard library at import time.
"""

from __future__ import annotations

from learnmem.cli import output
import argparse
import os
import sys
from collections.abc import Callable



def cmd_backup(args: argparse.Namespace) -> None:
    """Copy the database file, consistently, and print the copy's path."""
    # Read-only: a missing file is an error rather than created; the backup itself takes the writer lock.
    path = output.open_learnmem(args, read_only=True).backup(args.out)
    if args.json:
        output.emit_json({"path": str(path), "bytes": path.stat().st_size})
    else:
        print(path)


def _export_format(args: argparse.Namespace) -> str:
    """--format, else read from PATH's suffix (.md / .markdown: markdown), else jsonl."""
    if args.format:
        return args.format
    return "markdown" if os.path.splitext(args.path)[1].lower() in (".md", ".markdown") else "jsonl"


def cmd_export(args: argparse.Namespace) -> None:
    """Write memories, GHAP entries and values as JSON lines or markdown to PATH (`-`: standard output)."""
    lm = output.open_learnmem(args, read_only=True)
    if args.path == "-":  # the data is the output; --json changes nothing
        lm.export_data(sys.stdout, _export_format(args))
        return
    result = lm.export_data(args.path, _export_format(args))
    if args.json:
        output.emit_json(output.as_json(result))
    else:
        print(f"Exported {result.memories} memories, {result.ghap_entries} GHAP entries and {result.values} values "
              f"to {result.path} ({result.format})")


def cmd_import(args: argparse.Namespace) -> None:
    """Import a JSON lines export or a markdown memory file, merging by id; or a conversation transcript."""
    result = output.open_learnmem(args).import_data(args.path, format=args.format, progress=not (args.quiet or args.json),
                                         allow_secrets=args.allow_secrets)
    if args.json:
        output.emit_json(output.as_json(result))
        return
    imported, skipped = result.imported, result.skipped
    print(f"Imported {imported['memories']} memories, {imported['ghap_entries']} GHAP entries and "
          f"{imported['values']} values from {result.path} ({result.format}); already stored, skipped: "
          f"{skipped['memories']} memories, {skipped['ghap_entries']} GHAP entries, {skipped['values']} values")
    if result.source_model:
        print(f"  exported with the model {result.source_model}; embedded again with this file's model")
    for warning in result.warnings:
        print(f"  warning: {warning}")
    for problem in result.problems:
        print(f"  skipped: {problem}")


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], None], str]] = {
    "backup": (cmd_backup, "copy the database file consistently (while others use it) and print the copy's path"),
    "export": (cmd_export, "write memories, GHAP entries and values as JSON lines (lossless) or markdown"),
    "import": (cmd_import, "import a JSON lines export or a markdown memory file, merging by id, or a "
                           "conversation transcript (a memory per turn)"),
}


def add_arguments(commands: dict[str, argparse.ArgumentParser]) -> None:
    """The arguments of the portability commands (their parsers are made by app.build_parser)."""
    commands["backup"].add_argument("--out", metavar="DIR",
                                    help="folder for the copy (default: beside the database file)")
    export = commands["export"]
    export.add_argument("path", metavar="PATH", help="file to write (`-`: standard output)")
    export.add_argument("--format", choices=("jsonl", "markdown"),
                        help="jsonl (lossless, re-importable) or markdown (the agent-learning layout); "
                             "default: markdown for a .md PATH, else jsonl")
    imported = commands["import"]
    imported.add_argument("path", metavar="PATH", help="a `learnmem export` JSONL file, a markdown memory file, or "
                                                       "a transcript: JSON lines of turns, or Claude Code's")
    imported.add_argument("--format", choices=("jsonl", "markdown", "turns", "claude-code"),
                          help="default: read from the content")
    imported.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    imported.add_argument("--allow-secrets", dest="allow_secrets", action="store_true",
                          help="import memories that look like credentials too (refused otherwise)")
