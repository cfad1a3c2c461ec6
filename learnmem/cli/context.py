"""`learnmem context|premortem`: what the agent should know now, each one library call plus formatting.

Like app.py, this imports only the standard library at import time.
"""

from __future__ import annotations

from learnmem.cli import output
import argparse
from collections.abc import Callable



def cmd_context(args: argparse.Namespace) -> None:
    """Print light context (or rich context for a situation, with --rich) as markdown."""
    result = output.open_learnmem(args, read_only=True).get_context(
        args.situation, depth="rich" if args.rich else "light", max_tokens=args.max_tokens,
        include_code=not args.no_code, project=args.project, spec=args.spec)
    if args.json:
        output.emit_json(output.as_json(result))
    else:
        print(result.markdown)


def cmd_premortem(args: argparse.Namespace) -> None:
    """Print how a strategy went on a domain before: counts, failures, root causes, surprises, values."""
    result = output.open_learnmem(args, read_only=True).get_premortem(args.domain, args.strategy, args.situation)
    if args.json:
        output.emit_json(output.as_json(result))
    else:
        print(result.markdown)


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], None], str]] = {
    "context": (cmd_context, "print what an agent should know now: light context, or rich context for a situation"),
    "premortem": (cmd_premortem, "print how a strategy went on a domain before (failures, root causes, values)"),
}


def add_arguments(commands: dict[str, argparse.ArgumentParser]) -> None:
    """The arguments of the context commands (their parsers are made by app.build_parser)."""
    context = commands["context"]
    context.add_argument("situation", nargs="?", metavar="SITUATION",
                         help="what happened or what you are about to do (needed with --rich)")
    context.add_argument("--rich", action="store_true",
                         help="similar experiences, patterns, relevant memories and code for SITUATION")
    context.add_argument("--max-tokens", dest="max_tokens", type=int, default=2000, metavar="N",
                         help="token budget, counted with the model's tokenizer (default: 2000)")
    context.add_argument("--no-code", dest="no_code", action="store_true", help="leave code units out")
    context.add_argument("--project", metavar="P", help="only this project's code and history")
    context.add_argument("--spec", metavar="SLUG",
                         help="lead light context with this spec's blockers, decisions and learnings (the "
                              "SessionStart hook picks the newest spec under docs/spec/active/)")
    premortem = commands["premortem"]
    premortem.add_argument("domain", metavar="DOMAIN", help="debugging, refactoring, feature, testing, ...")
    premortem.add_argument("strategy", metavar="STRATEGY", help="systematic-elimination, trial-and-error, ...")
    premortem.add_argument("situation", nargs="?", metavar="SITUATION", help="what you are about to do")
