"""`learnmem ghap ...`: GHAP tracking from the command line, each one library call plus formatting.

Like app.py, this imports only the standard library at import time. `status`,
`start`, `update` and `list` are on the hot path (hooks run them on every
prompt): they open the file with `learnmem.storage.store.Store` and call `learnmem.learning.ghap`
directly, which import DuckDB but not the facade, numpy, pyarrow or the model.
`resolve`, `abandon`, `search`, `export` and `import` go through the facade
(`learnmem.open`), because they embed experiences or read them back.
"""

from __future__ import annotations

from learnmem.cli import output
import argparse
import sys
from collections.abc import Callable

# The width of the file's vectors; a file made with another model keeps its own (Store does not check it).
_EMBEDDING_DIM = 384



def _store(args: argparse.Namespace, *, read_only: bool):
    """The file without the facade: DuckDB only, no numpy, pyarrow or model."""
    from learnmem.embedding.embed import DEFAULT_MODEL
    from learnmem.storage.store import Store

    return Store(args.db, read_only=read_only, embedding_model=DEFAULT_MODEL, embedding_dim=_EMBEDDING_DIM)


def _emit(args: argparse.Namespace, result, text: str) -> None:
    if args.json:
        output.emit_json(output.as_json(result))
    else:
        print(text)


def _short(iso_time: str | None) -> str:
    """'2026-01-31T12:34:56Z' -> '2026-01-31 12:34'."""
    return (iso_time or "")[:16].replace("T", " ")


def cmd_start(args: argparse.Namespace) -> None:
    """Start tracking an entry (an active one is abandoned as superseded)."""
    from learnmem.learning import ghap

    result = ghap.start_ghap(_store(args, read_only=False), args.domain, args.strategy, args.goal, args.hypothesis,
                             args.action, args.prediction)
    if result.warning and not args.json:
        print(f"learnmem: warning: {result.warning}", file=sys.stderr)
    _emit(args, result, f"Started {result.id} ({result.domain}, {result.strategy})")


def cmd_update(args: argparse.Namespace) -> None:
    """Revise the active entry."""
    from learnmem.learning import ghap

    result = ghap.update_ghap(_store(args, read_only=False), hypothesis=args.hypothesis, action=args.action,
                              prediction=args.prediction, strategy=args.strategy, note=args.note)
    _emit(args, result, f"Updated the active entry (iteration {result.iteration_count})")


def _lesson_and_cause(args: argparse.Namespace) -> tuple[dict | None, dict | None]:
    cause = None
    if args.root_cause_category is not None or args.root_cause_description is not None:
        cause = {key: value for key, value in (("category", args.root_cause_category),
                                               ("description", args.root_cause_description)) if value is not None}
    lesson = None
    if args.what_worked is not None or args.takeaway is not None:
        lesson = {key: value for key, value in (("what_worked", args.what_worked), ("takeaway", args.takeaway))
                  if value is not None}
    return cause, lesson


def cmd_resolve(args: argparse.Namespace) -> None:
    """Resolve the active entry."""
    cause, lesson = _lesson_and_cause(args)
    result = output.open_learnmem(args).resolve_ghap(args.status, args.result, surprise=args.surprise, root_cause=cause,
                                               lesson=lesson, auto_captured=args.auto_captured)
    _emit(args, result, f"Resolved {result.id}: {result.status} ({result.confidence_tier})")


def cmd_abandon(args: argparse.Namespace) -> None:
    """Abandon the active entry with a reason."""
    result = output.open_learnmem(args).abandon_ghap(args.reason)
    _emit(args, result, f"Abandoned {result.id}")


def cmd_adopt(args: argparse.Namespace) -> None:
    """Take the entry an earlier session left active into the current session."""
    result = output.open_learnmem(args).adopt_orphan()
    _emit(args, result, f"Adopted {result.id} into the current session: {result.goal}")


def cmd_status(args: argparse.Namespace) -> None:
    """Show the active entry."""
    from learnmem.learning import ghap

    active = ghap.get_active_ghap(_store(args, read_only=True))
    if not active.has_active:
        _emit(args, active, "No active GHAP entry (start one with `learnmem ghap start`).")
        return
    lines = [
        (f"{active.id}  {active.domain} / {active.strategy}  iteration {active.iteration_count}  "
         f"since {_short(active.created_at)}"),
        f"  goal:       {active.goal}",
        f"  hypothesis: {active.hypothesis}",
        f"  action:     {active.action}",
        f"  prediction: {active.prediction}",
    ]
    _emit(args, active, "\n".join(lines))


def cmd_list(args: argparse.Namespace) -> None:
    """List entries, newest first."""
    from learnmem.learning import ghap

    entries = ghap.list_ghap_entries(_store(args, read_only=True), limit=args.limit, domain=args.domain,
                                     outcome=args.outcome, since=args.since)
    if args.json:
        output.emit_json(output.as_json(entries))
        return
    for entry in entries:
        state = f"{entry.outcome_status} ({entry.confidence_tier})" if entry.outcome_status else "active"
        print(f"{entry.id}  {_short(entry.created_at)}  {entry.domain:<13}  {state:<20}  {output.one_line(entry.goal, 70)}")
    if not entries:
        print("(no GHAP entries)")


def cmd_search(args: argparse.Namespace) -> None:
    """Search resolved entries (experiences) on one axis."""
    hits = output.open_learnmem(args).search_experiences(args.query, axis=args.axis, domain=args.domain, outcome=args.outcome,
                                              limit=args.limit, include_cold=args.include_cold)
    if args.json:
        output.emit_json(output.as_json(hits))
        return
    for hit in hits:
        print(f"{hit.score:.3f}  {hit.ghap_id}  {hit.outcome_status} ({hit.confidence_tier})  "
              f"{output.one_line(hit.goal, 60)}")
        print(f"       {output.one_line(hit.outcome_result, 100)}")
    if not hits:
        print("(no experiences found: resolve entries with `learnmem ghap resolve`)")


def cmd_export(args: argparse.Namespace) -> None:
    """Write the entries as JSON lines to a file or stdout."""
    lm = output.open_learnmem(args, read_only=True)
    if args.out is None:  # the JSON lines are the output; --json changes nothing
        lm.export_ghap(sys.stdout, include_active=args.include_active)
        return
    count = lm.export_ghap(args.out, include_active=args.include_active)
    if args.json:
        output.emit_json({"exported": count, "path": args.out})
    else:
        print(f"Exported {count} entries to {args.out}")


def cmd_import(args: argparse.Namespace) -> None:
    """Import entries from a JSONL file or a journal directory."""
    result = output.open_learnmem(args).import_ghap(args.source)
    if args.json:
        output.emit_json(output.as_json(result))
        return
    print(f"Imported {result.imported} entries ({result.skipped_duplicates} duplicates skipped, "
          f"{len(result.errors)} lines rejected)")
    for warning in result.warnings:
        print(f"  warning: {warning}")
    for error in result.errors:
        print(f"  rejected: {error}")


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], None], str]] = {
    "start": (cmd_start, "start tracking a goal, hypothesis, action and prediction"),
    "update": (cmd_update, "revise the active entry: a new hypothesis/action/prediction, a strategy or a note"),
    "resolve": (cmd_resolve, "resolve the active entry as confirmed, falsified or abandoned"),
    "abandon": (cmd_abandon, "abandon the active entry with a reason"),
    "adopt": (cmd_adopt, "take the entry an earlier session left active (an orphan) into the current session"),
    "status": (cmd_status, "show the active entry"),
    "list": (cmd_list, "list entries, newest first"),
    "search": (cmd_search, "search resolved entries (experiences) by meaning and words, on one axis"),
    "export": (cmd_export, "write the entries as JSON lines (GHAP entry format), oldest first"),
    "import": (cmd_import, "import entries from a JSONL file or a journal directory"),
}


def add_commands(group: argparse.ArgumentParser, common: argparse.ArgumentParser, parser_class) -> None:
    """The `learnmem ghap` subcommands and their arguments."""
    sub = group.add_subparsers(dest="ghap_command", metavar="GHAP_COMMAND", required=True, parser_class=parser_class)
    commands = {
        name: sub.add_parser(name, help=help_text, description=f"{help_text[0].upper()}{help_text[1:]}.",
                             parents=[common])
        for name, (_, help_text) in COMMANDS.items()
    }
    start = commands["start"]
    start.add_argument("--domain", required=True, metavar="D", help="debugging, refactoring, feature, testing, ...")
    start.add_argument("--strategy", required=True, metavar="S",
                       help="systematic-elimination, trial-and-error, research-first, ...")
    start.add_argument("--goal", required=True, metavar="TEXT", help="the meaningful change you are after")
    start.add_argument("--hypothesis", required=True, metavar="TEXT", help="what you believe that informs the approach")
    start.add_argument("--action", required=True, metavar="TEXT", help="what you are doing because of it")
    start.add_argument("--prediction", required=True, metavar="TEXT", help="what you will see if the hypothesis holds")

    update = commands["update"]
    for name in ("hypothesis", "action", "prediction"):
        update.add_argument(f"--{name}", metavar="TEXT", help=f"a new {name} (a new iteration)")
    update.add_argument("--strategy", metavar="S", help="a new strategy (no new iteration)")
    update.add_argument("--note", metavar="TEXT", help="a note to append")

    resolve = commands["resolve"]
    resolve.add_argument("--status", required=True, metavar="S", help="confirmed, falsified or abandoned")
    resolve.add_argument("--result", required=True, metavar="TEXT", help="what actually happened")
    resolve.add_argument("--surprise", metavar="TEXT", help="what was unexpected (required when falsified)")
    resolve.add_argument("--root-cause-category", metavar="C",
                         help="wrong-assumption, missing-knowledge, oversight, ... (required when falsified)")
    resolve.add_argument("--root-cause-description", metavar="TEXT", help="why the hypothesis was wrong")
    resolve.add_argument("--what-worked", metavar="TEXT", help="the lesson: what worked")
    resolve.add_argument("--takeaway", metavar="TEXT", help="the lesson: what to do next time")
    resolve.add_argument("--auto-captured", action="store_true",
                         help="the outcome came from a test or build run (gold tier)")

    commands["abandon"].add_argument("reason", metavar="REASON", help="why the entry is abandoned")

    listing = commands["list"]
    listing.add_argument("--limit", "-n", type=int, default=20, metavar="N", help="at most N entries (default: 20)")
    listing.add_argument("--domain", metavar="D", help="only this domain")
    listing.add_argument("--outcome", metavar="O", help="confirmed, falsified, abandoned or active")
    listing.add_argument("--since", metavar="DATE", help="only entries created on or after this ISO date")

    search = commands["search"]
    search.add_argument("query", metavar="QUERY", help="what you are looking for, in plain words")
    search.add_argument("--axis", default="full", metavar="A",
                        help="full, strategy, surprise or root_cause (default: full)")
    search.add_argument("--domain", metavar="D", help="only this domain")
    search.add_argument("--outcome", metavar="O", help="confirmed, falsified or abandoned")
    search.add_argument("--limit", "-n", type=int, default=10, metavar="N", help="at most N experiences (default: 10)")
    search.add_argument("--include-cold", action="store_true",
                        help="also cold experiences (bronze, abandoned; LEARNMEM_COLD_TIER sets the threshold)")

    export = commands["export"]
    export.add_argument("--out", "-o", metavar="FILE", help="write to FILE (default: standard output)")
    export.add_argument("--include-active", action="store_true", help="the active entry too")

    commands["import"].add_argument("source", metavar="FILE|DIR",
                                    help="a JSONL file, or a journal directory (current_ghap.json, "
                                         "session_entries.jsonl, archive/*.jsonl)")


def run(args: argparse.Namespace) -> None:
    """Dispatch `learnmem ghap <command>`."""
    COMMANDS[args.ghap_command][0](args)
