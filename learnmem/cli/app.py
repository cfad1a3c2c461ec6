"""The `learnmem` command: a thin argparse layer over the library.

Each subcommand is one library call plus formatting: concise text for people,
`--json` for programs (the dataclasses, via `dataclasses.asdict`).

Startup matters (hooks run this on every prompt), so this module imports only
the standard library at import time; `learnmem` (DuckDB, the embedder) is
imported inside the command functions that need it.

Exit status: 0 on success, 2 for a usage or input error (an argparse error or
a `LearnmemError`), 1 for anything unexpected. Errors are one line on stderr,
`learnmem: error: <message>`, never a traceback (set LEARNMEM_DEBUG=1 to get
one for unexpected errors).
"""

import argparse
import dataclasses
import os
import sys
from pathlib import Path
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from learnmem.cli import output
from learnmem.cli import code as cli_code, context as cli_context, ghap as cli_ghap, git as cli_git, hooks as cli_hooks, lake as cli_lake, learning as cli_learning, notes as cli_notes, portable as cli_portable

PROG = "learnmem"

class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr, exit status 2."""

    def error(self, message: str) -> NoReturn:
        # argparse prints the whole usage block; one line with a pointer to --help reads better in a hook log.
        self.exit(2, f"{PROG}: error: {message} (see `{self.prog} --help`)\n")


# --------------------------------------------------------------------------- commands


def cmd_init(args: argparse.Namespace) -> None:
    """Create .learnmem/ and the database file in a directory and git-ignore it; with --claude / --opencode
    also register hooks, the MCP server, slash commands and the GHAP section (`learnmem.agents.setup.install`);
    --uninstall removes those again (never the database)."""
    from learnmem.agents.setup import install as agent_setup

    targets = [name for name in agent_setup.TARGETS if getattr(args, name)]
    if args.uninstall:
        # Standard library only: unwiring an agent must not load DuckDB.
        report = agent_setup.uninstall(args.dir, targets or agent_setup.TARGETS, dry_run=args.dry_run)
        if args.json:
            output.emit_json(dataclasses.asdict(report))
        else:
            print(agent_setup.format_report(report))
        return
    path = agent_setup.database_path(args.dir)
    existed = path.exists()
    ignore = agent_setup.gitignore_action(args.dir)
    if args.approve and "claude" not in targets:
        from learnmem.errors import ValidationError

        raise ValidationError("--approve approves the Claude Code server: give it with --claude")
    # A dry run first reads and checks every agent file: a malformed one stops init before it writes anything.
    report = agent_setup.install(args.dir, targets, dry_run=True, approve=args.approve) if targets else None
    if not args.dry_run:
        import learnmem

        path = learnmem.init_project(args.dir)
        report = agent_setup.install(args.dir, targets, approve=args.approve) if targets else None
    actions = [ignore, *(report.actions if report else ())]
    changed = not existed or ignore.action != "unchanged" or bool(report and report.changed)
    indexing = None
    if targets and not args.dry_run and not args.no_index:
        from learnmem.cli import background

        indexing = background.start(agent_setup.project_root(Path(args.dir)), path)
    if args.json:
        extra = dataclasses.asdict(report) if report else {}
        background_json = None if indexing is None else {
            "pid": indexing[0], "log": str(indexing[1]), "already_running": indexing[2]}
        output.emit_json({"path": str(path), "database_existed": existed, "dry_run": args.dry_run, **extra,
                          "changed": changed, "actions": [dataclasses.asdict(action) for action in actions],
                          "indexing": background_json})
        return
    if args.dry_run:
        print(f"{path} exists" if existed else f"would create {path}")
    elif changed:
        print(f"Initialised {path}")
    else:
        print(f"Already set up: {path}")
    shown = agent_setup.SetupReport(str(path), tuple(targets), args.dry_run, changed, tuple(actions))
    print(agent_setup.format_report(shown))
    if targets and changed and not args.dry_run:
        print("\n".join(agent_setup.closing_words(targets)))
    if indexing is not None:
        pid, log, already = indexing
        print(f"Indexing the code and the git history in the background{' (already running)' if already else ''}: "
              f"progress in {_shown(log, args.dir)}; `learnmem index-stats` shows what is in. (--no-index skips it.)")


def _shown(path: Path, directory: str) -> str:
    """`path` relative to the project directory when it is inside it."""
    try:
        return str(path.relative_to(Path(directory).resolve()))
    except ValueError:
        return str(path)


def cmd_doctor(args: argparse.Namespace) -> None:
    """Check the set-up end to end (learnmem.agents.doctor); exit 1 when something is at fault."""
    from learnmem.agents.doctor import diagnose

    report = diagnose(args.dir, args.db)
    if args.json:
        output.emit_json(dataclasses.asdict(report))
    else:
        width = max(len(check.name) for check in report.checks)
        for check in report.checks:
            print(f"{check.status:<5}  {check.name.ljust(width)}  {check.detail}")
            if check.fix:
                print(f"{'':5}  {'':{width}}  fix: {check.fix}")
        print("Healthy." if report.healthy else "Not healthy: fix what is marked fault above.")
    if not report.healthy:
        raise SystemExit(1)


def cmd_remember(args: argparse.Namespace) -> None:
    """Store one memory."""
    result = output.open_learnmem(args).store_memory(args.text, args.category, importance=args.importance, tags=args.tag,
                                      allow_secrets=args.allow_secrets, sources=args.sources, force=args.force,
                                      spec=args.spec, phase=args.phase)
    if args.json:
        output.emit_json(output.as_json(result))
    elif result.near_duplicate:
        print(f"Not stored: it restates {result.id} ({result.similar[0].content!r}, similarity "
              f"{result.similar[0].similarity:.2f}); --force stores it anyway")
    elif result.duplicate:
        print(f"Already remembered as {result.id}")
    else:
        print(f"Remembered {result.id}")


def cmd_docs_gaps(args: argparse.Namespace) -> None:
    """The documents most often named by corrections and discoveries."""
    gaps = output.open_learnmem(args, read_only=True).docs_gaps(limit=args.limit)
    if args.json:
        output.emit_json(output.as_json(gaps))
    elif not gaps:
        print("No corrections or discoveries name a source document (store them with --source DOC).")
    else:
        for gap in gaps:
            anchors = f"  ({', '.join(gap.anchors)})" if gap.anchors else ""
            print(f"{gap.document}  corrections {gap.corrections}  discoveries {gap.discoveries}  "
                  f"latest {gap.latest[:10]}{anchors}")


def cmd_recall(args: argparse.Namespace) -> None:
    """Retrieve the memories most relevant to a query."""
    lm = output.open_learnmem(args, read_only=True)
    hits = lm.retrieve_memories(args.query, limit=args.limit, category=args.category, tags=args.tag,
                                include_superseded=args.include_superseded,
                                recency_half_life_days=args.half_life, importance_weight=args.importance_weight,
                                detail=args.detail, spec=args.spec, phase=args.phase, since=args.since,
                                until=args.until, session=args.session)
    if args.json:
        output.emit_json(output.as_json(hits))
    elif not hits:
        print("No memories match.")
    elif args.detail == "index":
        for hit in hits:
            print(f"{hit.score:.3f}  {hit.id}  {hit.category:<11}  {hit.summary}")
    else:
        for hit in hits:
            print(output.format_memory(hit, hit.score))
            for file in getattr(hit, "files", ()):
                size = "binary" if file.content is None else f"{file.size} bytes" + (", cut" if file.truncated else "")
                print(f"    {file.path} at {hit.commit_sha[:12]} ({size})")


def cmd_memories(args: argparse.Namespace) -> None:
    """List stored memories (or, with --stale, those nobody used for a while; with --queued, those captured
    from tool output that wait to be stored)."""
    if args.queued or args.discard_queued or args.flush_queued:
        _queued(args)
        return
    lm = output.open_learnmem(args, read_only=args.stale is None)
    if args.stale is not None:
        memories = lm.list_stale_memories(days=args.stale, limit=args.limit)
    else:
        memories = lm.list_memories(category=args.category, tags=args.tag, limit=args.limit, offset=args.offset,
                                    include_superseded=args.include_superseded, spec=args.spec, phase=args.phase,
                                    since=args.since, until=args.until, session=args.session)
    if args.json:
        output.emit_json(output.as_json(memories))
    elif not memories:
        print("No memories.")
    else:
        for memory in memories:
            print(output.format_memory(memory))


def _queued(args: argparse.Namespace) -> None:
    """memories --queued / --flush-queued / --discard-queued: the capture queue (learnmem.agents.capture.tool_output)."""
    if args.queued + args.discard_queued + args.flush_queued > 1:
        _fail("memories: give one of --queued, --flush-queued, --discard-queued", 2)
    if args.discard_queued:
        count = output.open_learnmem(args).discard_queued_memories()
        output.emit_json({"discarded": count}) if args.json else print(f"Discarded {count} queued captures.")
    elif args.flush_queued:
        result = output.open_learnmem(args).flush_queued_memories()
        output.emit_json(output.as_json(result)) if args.json else print(result.message)
    else:
        waiting = output.open_learnmem(args, read_only=True).list_queued_memories(limit=args.limit)
        if args.json:
            output.emit_json(output.as_json(waiting))
        elif not waiting:
            print("Nothing queued: captures from tool output are stored when the agent stops.")
        else:
            for item in waiting:
                print(f"{item.id}  {item.captured_at}  {item.tool:<5} {item.category:<8} {output.one_line(item.content, 200)}")


def cmd_forget(args: argparse.Namespace) -> None:
    """Forget memories (one by id, by category and/or tags, or all): hidden, or with --hard deleted for good."""
    result = output.open_learnmem(args).forget(args.id, category=args.category, tags=args.tag, everything=args.all, hard=args.hard)
    if args.json:
        output.emit_json(output.as_json(result))
        return
    what = result.ids[0] if args.id else f"{result.count} memor{'y' if result.count == 1 else 'ies'}"
    print(f"Forgot {what}" + (" for good: deleted, and the file rewritten without it" if result.hard else ""))


def cmd_compact(args: argparse.Namespace) -> None:
    """Show (or with --apply, merge) groups of near-duplicate memories."""
    result = output.open_learnmem(args).compact_memories(category=args.category, dry_run=not args.apply)
    if args.json:
        output.emit_json(output.as_json(result))
        return
    for group in result.groups:
        print(f"keep {group.keep.id}  {output.one_line(group.keep.content, 90)}")
        for old in group.merged:
            print(f"  {'merged' if args.apply else 'would merge'} {old.id}  {output.one_line(old.content, 80)}")
    verb = "now" if args.apply else "would be"
    print(f"{len(result.groups)} groups; current memories {result.memories_before} -> {result.memories_after} "
          f"({verb})" + (f"; backup at {result.backup}" if result.backup else "; --apply to merge"))


def cmd_restore(args: argparse.Namespace) -> None:
    """Bring back a memory that `forget` hid."""
    memory = output.open_learnmem(args).restore_memory(args.id)
    if args.json:
        output.emit_json(output.as_json(memory))
    else:
        print(f"Restored {memory.id}")


def cmd_supersede(args: argparse.Namespace) -> None:
    """Replace a memory with a new text; the old one is kept, superseded."""
    result = output.open_learnmem(args).supersede_memory(args.id, args.text)
    if args.json:
        output.emit_json(output.as_json(result))
    else:
        print(f"Remembered {result.id}, superseding {result.superseded}")


def cmd_sql(args: argparse.Namespace) -> None:
    """Run a read-only SQL query and print its rows."""
    import duckdb

    lm = output.open_learnmem(args, read_only=True)
    try:
        relation = lm.sql(args.query)
        # DuckDB returns no relation for a statement without a result set.
        columns = list(relation.columns) if relation is not None else []
        rows = relation.fetchall() if relation is not None else []
    except duckdb.Error as exc:
        # A typo, an unknown table, a write refused in read-only mode: the query's fault, not a crash.
        raise output.UserError(str(exc).split("\n\n")[0]) from None
    if args.json:
        output.emit_json([dict(zip(columns, row, strict=True)) for row in rows])
    elif columns:
        print(output.format_table(columns, rows))
    else:
        print("OK")


def cmd_reembed(args: argparse.Namespace) -> None:
    """Embed every memory again with the current (or given) model."""
    import learnmem
    from learnmem.embedding.embed import load_embedder

    lm = learnmem.open(args.db, embedder=load_embedder(args.model))
    if not args.json:
        print(f"Re-embedding the memories of {lm.path} (this takes ~2 ms per memory)...", file=sys.stderr)
    count = lm.reembed()
    info = lm.info()
    if args.json:
        output.emit_json({"reembedded": count, "embedding_model": info.embedding_model, "embedding_dim": info.embedding_dim})
    else:
        print(f"Re-embedded {count} memories with {info.embedding_model} ({info.embedding_dim}-d)")


def cmd_info(args: argparse.Namespace) -> None:
    """Describe the database file: where, how big, what model, how many rows."""
    info = output.open_learnmem(args, read_only=True).info()
    if args.json:
        output.emit_json(output.as_json(info))
        return
    pairs = [
        ("file", info.path),
        ("size", f"{output.human_bytes(info.file_bytes)} (+ {output.human_bytes(info.wal_bytes)} WAL)"),
        ("schema", f"version {info.schema_version} (learnmem {info.library_version})"),
        ("model", f"{info.embedding_model} ({info.embedding_dim}-d)"),
    ]
    pairs += [(name, str(count)) for name, count in info.counts.items()]
    width = max(len(name) for name, _ in pairs)
    for name, value in pairs:
        print(f"{name.ljust(width)}  {value}")


# --------------------------------------------------------------------------- parser


def _common_options(*, suppress_defaults: bool) -> argparse.ArgumentParser:
    """--db and --json, accepted before and after the subcommand.

    The copies on the subcommands default to SUPPRESS so that an option given
    before the subcommand is not overwritten by the subcommand's default.
    """
    parent = _Parser(add_help=False)
    db_default = argparse.SUPPRESS if suppress_defaults else None
    json_default = argparse.SUPPRESS if suppress_defaults else False
    parent.add_argument(
        "--db",
        metavar="PATH",
        default=db_default,
        help="database file, or a lake: ducklake:postgres:<libpq string> (default: $LEARNMEM_DB, else "
             "<git root or cwd>/.learnmem/learnmem.duckdb)",
    )
    parent.add_argument("--json", action="store_true", default=json_default, help="print machine-readable JSON")
    return parent


def _filter_options(parser: argparse.ArgumentParser) -> None:
    """--category, --tag, --spec, --phase, --session, --since and --until, shared by recall and memories."""
    parser.add_argument("--category", metavar="C", help="only this category")
    parser.add_argument(
        "--tag", metavar="T", action="append", help="only memories with this tag (repeat for several)"
    )
    _spec_options(parser, "only memories of this spec (a slug, e.g. checkout-v2)", "only memories of this phase")
    parser.add_argument("--session", metavar="S", help="only the turns of this conversation session (transcripts)")
    parser.add_argument("--since", metavar="WHEN",
                        help="only memories stored (a conversation turn: said) since then: an ISO date or datetime, "
                             "or an age (12h, 7d, 2w)")
    parser.add_argument("--until", metavar="WHEN",
                        help="only memories stored (a turn: said) until then: an ISO date or datetime, or an age")


def _spec_options(parser: argparse.ArgumentParser, spec_help: str, phase_help: str) -> None:
    parser.add_argument("--spec", metavar="SLUG", help=spec_help)
    parser.add_argument("--phase", metavar="P", help=f"{phase_help}: planning, implementation, review or close-out")


# Subcommands: (name, handler, one-line help). Add new commands here and in build_parser.
COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], None], str]] = {
    "init": (cmd_init, "create .learnmem/ with the database file and git-ignore it"),
    "doctor": (cmd_doctor, "check the set-up end to end (file, model, hooks, MCP server, approval) and say what to fix"),
    "remember": (cmd_remember, "store a memory"),
    "recall": (cmd_recall, "find the memories most relevant to a query"),
    "memories": (cmd_memories, "list stored memories"),
    "forget": (cmd_forget, "forget memories: one by id, by category and/or tag, or --all (hidden; --hard deletes)"),
    "restore": (cmd_restore, "bring back a memory that forget hid"),
    "compact": (cmd_compact, "show groups of near-duplicate memories; --apply supersedes all but the newest"),
    "supersede": (cmd_supersede, "replace a memory with a new text (the old one is kept, superseded)"),
    "docs-gaps": (cmd_docs_gaps, "list the documents that corrections and discoveries name as sources most often"),
    "sql": (cmd_sql, "run a read-only SQL query on the database"),
    "info": (cmd_info, "show the database file, its size, model and row counts"),
    "reembed": (cmd_reembed, "embed every memory and experience again with the current model (after a model change)"),
    **cli_code.COMMANDS,
    "git": (cli_git.run, "git history: index, search, history, hotspots, authors, blame, unit-history"),
    "ghap": (cli_ghap.run, "GHAP tracking: start, update, resolve, abandon, status, list, search, export, import"),
    **cli_learning.COMMANDS,
    **cli_context.COMMANDS,
    **cli_portable.COMMANDS,
    **cli_notes.COMMANDS,
    "lake": (cli_lake.run, "a team's lake (DuckLake on PostgreSQL): push a local file into it, pull a local copy"),
    "hook": (cli_hooks.run, "answer a Claude Code hook event (JSON on stdin): session-start, user-prompt-submit, "
                            "pre-tool-use, post-tool-use, post-tool-use-failure, stop, session-end"),
}


def build_parser() -> argparse.ArgumentParser:
    """The full `learnmem` argument parser."""
    parser = _Parser(
        prog=PROG,
        description="Memory for AI coding agents, in one DuckDB file.",
        parents=[_common_options(suppress_defaults=False)],
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)
    common = _common_options(suppress_defaults=True)
    commands = {
        name: sub.add_parser(
            name, help=help_text, description=f"{help_text[0].upper()}{help_text[1:]}.", parents=[common]
        )
        for name, (_, help_text) in COMMANDS.items()
    }

    commands["init"].add_argument("--dir", default=".", metavar="DIR", help="project directory (default: .)")
    commands["init"].add_argument("--claude", action="store_true",
                                  help="also set up Claude Code: hooks in .claude/settings.json, the MCP server in "
                                       ".mcp.json, slash commands in .claude/commands/, a GHAP section in CLAUDE.md")
    commands["init"].add_argument("--opencode", action="store_true",
                                  help="also set up opencode: the MCP server in opencode.json, slash commands in "
                                       ".opencode/commands/, a GHAP section in AGENTS.md")
    commands["init"].add_argument("--uninstall", action="store_true",
                                  help="remove what --claude / --opencode added (both when neither is given); "
                                       "keeps the database and files you edited")
    commands["init"].add_argument("--dry-run", action="store_true",
                                  help="only report what would be created, updated or removed")
    commands["init"].add_argument("--approve", action="store_true",
                                  help="with --claude: also approve the project's MCP server for Claude Code, in "
                                       ".claude/settings.local.json (personal, git-ignored)")
    commands["init"].add_argument("--no-index", action="store_true",
                                  help="with --claude / --opencode: do not index the code and the git history in "
                                       "the background (`learnmem index` and `learnmem git index` do it later)")
    commands["doctor"].add_argument("--dir", default=".", metavar="DIR", help="project directory (default: .)")

    remember = commands["remember"]
    remember.add_argument("text", metavar="TEXT", help="the memory, one self-contained statement")
    remember.add_argument("--category", "-c", required=True, metavar="C", help="kind of memory, e.g. fact, preference")
    remember.add_argument("--importance", type=float, default=0.5, metavar="F", help="0.0 to 1.0 (default: 0.5)")
    remember.add_argument("--tag", metavar="T", action="append", help="a label (repeat for several)")
    remember.add_argument("--force", action="store_true",
                          help="store it even if it restates a current memory (same meaning, numbers and names)")
    remember.add_argument("--source", metavar="DOC", action="append", dest="sources",
                          help="a document it came from, e.g. README.md#install (repeat for several)")
    remember.add_argument("--allow-secrets", dest="allow_secrets", action="store_true",
                          help="store it even if it looks like a credential (API key, token, password...)")
    _spec_options(remember, "the spec or project it belongs to (a slug, e.g. checkout-v2)",
                  "the phase of that work it was made in")

    recall = commands["recall"]
    recall.add_argument("query", metavar="QUERY", help="what you want to know, in plain words")
    recall.add_argument("--limit", "-n", type=int, default=10, metavar="N", help="at most N memories (default: 10)")
    recall.add_argument("--include-superseded", dest="include_superseded", action="store_true",
                        help="also memories that newer ones replaced")
    recall.add_argument("--half-life", dest="half_life", type=float, metavar="DAYS",
                        help="favour recent memories: one DAYS old counts half")
    recall.add_argument("--importance-weight", dest="importance_weight", type=float, default=0.0, metavar="W",
                        help="0-1: favour important memories (default: 0)")
    recall.add_argument("--detail", choices=("index", "full", "files"), default="full",
                        help="index: id and a one-line summary; full (default): the whole memory; files: also "
                             "the files of the commit it was made at, as they were there (size-capped)")
    _filter_options(recall)

    memories = commands["memories"]
    _filter_options(memories)
    memories.add_argument("--limit", "-n", type=int, default=50, metavar="N", help="page size (default: 50)")
    memories.add_argument("--offset", type=int, default=0, metavar="N", help="skip N memories (default: 0)")
    memories.add_argument("--include-superseded", dest="include_superseded", action="store_true",
                          help="also memories that newer ones replaced")
    memories.add_argument("--stale", nargs="?", type=float, const=30.0, metavar="DAYS",
                          help="only memories neither used nor stored in the last DAYS days (default: 30)")
    memories.add_argument("--queued", action="store_true",
                          help="the candidates captured from tool output, waiting for the Stop hook to store them")
    memories.add_argument("--flush-queued", dest="flush_queued", action="store_true",
                          help="store the queued candidates that are new now (as the Stop hook does)")
    memories.add_argument("--discard-queued", dest="discard_queued", action="store_true",
                          help="drop the queued candidates without storing them")

    forget = commands["forget"]
    forget.add_argument("id", nargs="?", metavar="ID", help="one memory id")
    forget.add_argument("--category", "-c", metavar="C", help="every memory of this category")
    forget.add_argument("--tag", metavar="T", action="append", help="every memory carrying this tag (repeat: all)")
    forget.add_argument("--all", action="store_true", help="every memory")
    forget.add_argument("--hard", action="store_true",
                        help="delete them and rewrite the file without them (cannot be undone)")
    commands["restore"].add_argument("id", metavar="ID", help="the forgotten memory's id")
    commands["compact"].add_argument("--category", "-c", metavar="C", help="only this category")
    commands["compact"].add_argument("--apply", action="store_true",
                                     help="back the file up, then supersede each group's older memories")
    commands["supersede"].add_argument("id", metavar="ID", help="the memory to replace")
    commands["supersede"].add_argument("text", metavar="TEXT", help="what is true now")
    commands["reembed"].add_argument(
        "--model", metavar="PATH", help="model directory or name (default: $LEARNMEM_MODEL, else all-MiniLM-L6-v2)"
    )
    cli_git.add_commands(commands["git"], common, _Parser)
    cli_lake.add_commands(commands["lake"], common, _Parser)
    cli_ghap.add_commands(commands["ghap"], common, _Parser)
    cli_learning.add_arguments(commands, common, _Parser)
    cli_hooks.add_arguments(commands["hook"])
    cli_context.add_arguments(commands)
    cli_portable.add_arguments(commands)
    cli_code.add_arguments(commands)
    cli_notes.add_arguments(commands)
    commands["docs-gaps"].add_argument("--limit", "-n", type=int, default=20, metavar="N",
                                       help="at most N documents (default: 20)")
    commands["sql"].add_argument("query", metavar="QUERY", help="a read-only query, e.g. SELECT ... FROM memories")
    return parser


def _fail(message: str, status: int) -> NoReturn:
    """Print one error line and exit."""
    print(f"{PROG}: error: {output.one_line(message)}", file=sys.stderr)
    raise SystemExit(status)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the `learnmem` command, past learnmem.cli.main's shortcut for hooks."""
    args = build_parser().parse_args(argv)
    handler = COMMANDS[args.command][0]
    try:
        handler(args)
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error. Point stdout at
        # devnull so the interpreter's final flush does not complain.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(0) from None
    except output.UserError as exc:
        _fail(str(exc), 2)
    except Exception as exc:
        from learnmem.errors import LearnmemError

        if isinstance(exc, LearnmemError):
            _fail(str(exc), 2)
        if os.environ.get("LEARNMEM_DEBUG"):
            raise
        _fail(f"unexpected {type(exc).__name__}: {exc} (set LEARNMEM_DEBUG=1 for a traceback)", 1)


if __name__ == "__main__":
    main()
