"""`learnmem notes export|import` and `learnmem sync push|pull [REMOTE]`: memories and values shared as git
notes (learnmem/exchange/notes.py), each one library call plus formatting.

Like app.py, this imports only the standard library at import time.
"""

from __future__ import annotations

from learnmem.cli import output
import argparse
from collections.abc import Callable



def _print_export(result) -> None:
    changed = ", ".join(result.changed) if result.changed else "none (the notes were up to date)"
    print(f"Notes in {result.repository}: {result.memories} memories and {result.values} values in {result.notes} "
          f"notes; refs with a new notes commit: {changed}")


def _print_import(result, origin: str) -> None:
    imported, skipped = result.imported, result.skipped
    print(f"Imported {imported['memories']} memories and {imported['values']} values from {origin}; already "
          f"stored, skipped: {skipped['memories']} memories, {skipped['values']} values; supersedes taken: "
          f"{result.supersedes_merged}")
    for warning in result.warnings:
        print(f"  warning: {warning}")


def cmd_notes(args: argparse.Namespace) -> None:
    """Write the memories and values as git notes, or import the local notes into the file."""
    lm = output.open_learnmem(args)
    if args.notes_command == "export":
        if args.allow_secrets:
            from learnmem.errors import ValidationError

            raise ValidationError("--allow-secrets: applies to `notes import` (and sync), which store what others "
                                "shared; an export shares what this file holds")
        result = lm.export_notes(args.repo)
        if args.json:
            output.emit_json(output.as_json(result))
        else:
            _print_export(result)
        return
    result = lm.import_notes(args.repo, progress=not (args.quiet or args.json), allow_secrets=args.allow_secrets)
    if args.json:
        output.emit_json(output.as_json(result))
    else:
        _print_import(result, "the local notes refs")


def cmd_sync(args: argparse.Namespace) -> None:
    """Pull (fetch, import, merge) or push (pull, then send) the learnmem notes refs of a remote."""
    lm = output.open_learnmem(args)
    method = lm.push_notes if args.sync_command == "push" else lm.pull_notes
    result = method(args.remote, repo=args.repo, progress=not (args.quiet or args.json),
                    allow_secrets=args.allow_secrets)
    if args.json:
        output.emit_json(output.as_json(result))
        return
    _print_import(result.imported, f"{result.remote} ({len(result.remote_refs)} refs fetched)")
    _print_export(result.exported)
    if result.action == "push":
        print(f"Pushed to {result.remote}: {', '.join(result.pushed) if result.pushed else 'nothing new'}")


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], None], str]] = {
    "notes": (cmd_notes, "share memories and values as git notes: export (write refs/notes/learnmem/*) or import"),
    "sync": (cmd_sync, "pull or push the learnmem git notes of a remote (default origin), merging by id"),
}


def add_arguments(commands: dict[str, argparse.ArgumentParser]) -> None:
    """The arguments of `notes` and `sync` (their parsers are made by app.build_parser)."""
    notes = commands["notes"]
    notes.add_argument("notes_command", choices=("export", "import"), metavar="export|import",
                       help="export: write the file's memories and values as notes; import: store what the "
                            "local notes hold and the file lacks")
    sync = commands["sync"]
    sync.add_argument("sync_command", choices=("push", "pull"), metavar="push|pull",
                      help="pull: fetch, import and merge the remote's notes; push: pull, then send the local notes")
    sync.add_argument("remote", nargs="?", default="origin", metavar="REMOTE",
                      help="a remote's name, or a URL or path (default: origin)")
    for parser in (notes, sync):
        parser.add_argument("--repo", metavar="PATH",
                            help="the git repository (default: the one holding the database file, else the "
                                 "working directory's)")
        parser.add_argument("--quiet", "-q", action="store_true", help="no progress display")
        parser.add_argument("--allow-secrets", dest="allow_secrets", action="store_true",
                            help="import shared memories that look like credentials too (refused otherwise)")
