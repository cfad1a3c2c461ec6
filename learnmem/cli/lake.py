"""`learnmem lake push|pull`: between a local file and a project in a lake (learnmem/exchange/lake_sync.py), each one
library call plus formatting. The lake is `--db ducklake:postgres:...` (or $LEARNMEM_DB).

Like app.py, this imports only the standard library at import time.
"""

from __future__ import annotations

from learnmem.cli import output
import argparse
import dataclasses
from collections.abc import Callable


def _lake(args: argparse.Namespace):
    import learnmem

    return learnmem.open(args.db, data_path=args.data_path, project=args.project, agent=args.agent,
                         read_only=args.lake_command == "pull")


def _report(args: argparse.Namespace, result, verb: str) -> None:
    if args.json:
        output.emit_json(dataclasses.asdict(result))
        return
    total = sum(result.added.values())
    detail = ", ".join(f"{table} {count}" for table, count in result.added.items())
    print(f"{verb} {total} rows from {result.source} to {result.target}" + (f" ({detail})" if detail else
                                                                            " (nothing new)"))


def cmd_push(args: argparse.Namespace) -> None:
    """Copy a local learnmem file's memories, experiences and values (--code: code index and git history too)
    into the lake project: only the rows it lacks."""
    from learnmem.exchange import lake_sync

    _report(args, lake_sync.push(_lake(args).store, args.file, code=args.code), "Pushed")


def cmd_pull(args: argparse.Namespace) -> None:
    """Write the lake project (and this agent's working state) to a new local learnmem file."""
    from learnmem.exchange import lake_sync

    _report(args, lake_sync.pull(_lake(args).store, args.file), "Pulled")


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], None], str]] = {
    "push": (cmd_push, "copy a local learnmem file into the lake project (only the rows it lacks; --code: code "
                       "and git tables too)"),
    "pull": (cmd_pull, "write the lake project to a new local learnmem file, for offline work"),
}


def add_commands(group: argparse.ArgumentParser, common: argparse.ArgumentParser, parser_class) -> None:
    """The `learnmem lake` subcommands and their arguments."""
    sub = group.add_subparsers(dest="lake_command", metavar="LAKE_COMMAND", required=True, parser_class=parser_class)
    for name, (_, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=f"{help_text[0].upper()}{help_text[1:]}.",
                                 parents=[common])
        command.add_argument("file", metavar="FILE", help="the local learnmem file" +
                             (" to copy from" if name == "push" else " to write (must not exist)"))
        command.add_argument("--data-path", metavar="PATH",
                             help="where the lake keeps its data files (default: $LEARNMEM_LAKE_DATA_PATH, else the "
                                  "lake's own)")
        command.add_argument("--project", metavar="P",
                             help="the lake project (default: $LEARNMEM_PROJECT, else the git top level's name)")
        command.add_argument("--agent", metavar="A",
                             help="the agent whose working state pull copies (default: $LEARNMEM_AGENT, else host and "
                                  "checkout)")
        if name == "push":
            command.add_argument("--code", action="store_true", help="also the code index and git history")


def run(args: argparse.Namespace) -> None:
    """Dispatch `learnmem lake <command>`."""
    COMMANDS[args.lake_command][0](args)
