"""`learnmem git ...`: the git-history subcommands, each one library call plus formatting.

Like app.py, this imports only the standard library at import time.
"""

from __future__ import annotations

from learnmem.cli import output
import argparse
from collections.abc import Callable



def _short_date(iso_time: str | None) -> str:
    return (iso_time or "")[:10]


def cmd_index(args: argparse.Namespace) -> None:
    """Index a repository's commits (incremental)."""
    result = output.open_learnmem(args).index_commits(
        args.path, since=args.since, project=args.project, all_branches=args.all_branches,
        embed=not args.no_embed, progress=not (args.quiet or args.json),
    )
    if args.json:
        output.emit_json(output.as_json(result))
        return
    print(f"{result.project}: {result.commits_added} commits added, {result.commits_removed} removed "
          f"({result.commits_total} in all, {result.commits_embedded} embedded) in {result.seconds:.1f} s")
    for warning in result.warnings:
        print(f"  warning: {warning}")


def cmd_search(args: argparse.Namespace) -> None:
    """Search commit messages and paths."""
    hits = output.open_learnmem(args, read_only=True).search_commits(
        args.query, author=args.author, since=args.since, until=args.until, path=args.path, limit=args.limit,
        project=args.project,
    )
    if args.json:
        output.emit_json(output.as_json(hits))
        return
    for hit in hits:
        print(f"{hit.score:.3f}  {hit.sha[:10]}  {_short_date(hit.authored_at)}  {hit.author}  "
              f"{output.one_line(hit.subject, 80)}")
    if not hits:
        print("(no commits found: index a repository first with `learnmem git index`)")


def cmd_history(args: argparse.Namespace) -> None:
    """Show the commits that changed a file."""
    entries = output.open_learnmem(args, read_only=True).get_file_history(args.path, limit=args.limit, project=args.project)
    if args.json:
        output.emit_json(output.as_json(entries))
        return
    for entry in entries:
        lines = "binary" if entry.is_binary else f"+{entry.insertions} -{entry.deletions}"
        renamed = f" (from {entry.old_path})" if entry.old_path else ""
        print(f"{entry.sha[:10]}  {_short_date(entry.authored_at)}  {entry.author}  {entry.change_type} {lines}  "
              f"{entry.path}{renamed}  {output.one_line(entry.subject, 60)}")


def cmd_hotspots(args: argparse.Namespace) -> None:
    """Show the files that changed most in a window."""
    spots = output.open_learnmem(args, read_only=True).get_churn_hotspots(
        days=args.days, limit=args.limit, as_of=args.as_of, project=args.project
    )
    if args.json:
        output.emit_json(output.as_json(spots))
        return
    rows = [(s.path, s.commits, f"+{s.insertions}", f"-{s.deletions}", s.authors, _short_date(s.last_change))
            for s in spots]
    print(output.format_table(["path", "commits", "added", "removed", "authors", "last change"], rows))


def cmd_authors(args: argparse.Namespace) -> None:
    """Show who wrote a file."""
    authors = output.open_learnmem(args, read_only=True).get_code_authors(args.path, project=args.project)
    if args.json:
        output.emit_json(output.as_json(authors))
        return
    rows = [(f"{a.author} <{a.author_email}>", a.commits, f"+{a.insertions}", f"-{a.deletions}", a.lines_owned,
             f"{a.share:.0%}", f"{_short_date(a.first_change)}..{_short_date(a.last_change)}") for a in authors]
    print(output.format_table(["author", "commits", "added", "removed", "lines", "share", "active"], rows))


def cmd_blame(args: argparse.Namespace) -> None:
    """Show who last changed each line of a file."""
    entries = output.open_learnmem(args, read_only=True).get_blame(
        args.path, start_line=args.start, end_line=args.end, rev=args.rev, project=args.project
    )
    if args.json:
        output.emit_json(output.as_json(entries))
        return
    for entry in entries:
        print(f"{entry.start_line:>5}-{entry.end_line:<5} {entry.sha[:10]}  {_short_date(entry.authored_at)}  "
              f"{entry.author}  {output.one_line(entry.summary, 70)}")


def cmd_unit_history(args: argparse.Namespace) -> None:
    """Show the commits that changed a function's lines."""
    changes = output.open_learnmem(args, read_only=True).get_unit_history(args.name, project=args.project, limit=args.limit)
    if args.json:
        output.emit_json(output.as_json(changes))
        return
    for change in changes:
        print(f"{change.sha[:10]}  {_short_date(change.authored_at)}  {change.author}  "
              f"{change.path}:{change.start_line}-{change.end_line}  {output.one_line(change.subject, 70)}")
    if not changes:
        print("(no commits changed these lines)")


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], None], str]] = {
    "index": (cmd_index, "index a repository's commits: messages embedded, files and lines changed (incremental)"),
    "search": (cmd_search, "search commits by meaning and words of their messages and paths"),
    "history": (cmd_history, "list the commits that changed a file, following renames"),
    "hotspots": (cmd_hotspots, "rank files by how often and how much they changed recently"),
    "authors": (cmd_authors, "show who wrote a file: commits, lines, share of today's lines"),
    "blame": (cmd_blame, "show the commit that last changed each line of a file"),
    "unit-history": (cmd_unit_history, "list the commits that changed a function's, method's or class's lines"),
}


def add_commands(git: argparse.ArgumentParser, common: argparse.ArgumentParser, parser_class) -> None:
    """The `learnmem git` subcommands and their arguments."""
    sub = git.add_subparsers(dest="git_command", metavar="GIT_COMMAND", required=True, parser_class=parser_class)
    commands = {
        name: sub.add_parser(name, help=help_text, description=f"{help_text[0].upper()}{help_text[1:]}.",
                             parents=[common])
        for name, (_, help_text) in COMMANDS.items()
    }
    index = commands["index"]
    index.add_argument("path", nargs="?", default=".", metavar="PATH", help="a path inside the repository (default: .)")
    index.add_argument("--since", metavar="DATE", help="skip commits older than this ISO date (commit time)")
    index.add_argument("--all-branches", action="store_true", help="every local branch, not only HEAD")
    index.add_argument("--no-embed", action="store_true", help="do not embed messages (keyword search only)")
    index.add_argument("--quiet", "-q", action="store_true", help="no progress display")

    search = commands["search"]
    search.add_argument("query", metavar="QUERY", help="what the change was about, in plain words")
    search.add_argument("--author", metavar="A", help="only commits by this author (name or email)")
    search.add_argument("--since", metavar="DATE", help="only commits on or after this ISO date")
    search.add_argument("--until", metavar="DATE", help="only commits on or before this ISO date")
    search.add_argument("--path", metavar="PATH", help="only commits touching this file or folder")

    commands["history"].add_argument("path", metavar="PATH", help="file path relative to the repository root")
    commands["hotspots"].add_argument("--days", type=int, default=90, metavar="N", help="window in days (default: 90)")
    commands["hotspots"].add_argument("--as-of", dest="as_of", metavar="DATE", help="end of the window (default: now)")
    commands["authors"].add_argument("path", metavar="PATH", help="file path relative to the repository root")

    blame = commands["blame"]
    blame.add_argument("path", metavar="PATH", help="file path relative to the repository root")
    blame.add_argument("--start", type=int, metavar="N", help="first line (1-based)")
    blame.add_argument("--end", type=int, metavar="N", help="last line (inclusive)")
    blame.add_argument("--rev", default="HEAD", metavar="REV", help="commit, branch or tag (default: HEAD)")

    commands["unit-history"].add_argument("name", metavar="NAME", help="load, Config.load or path/to/file.py:Config.load")

    for name, command in commands.items():
        command.add_argument("--project", metavar="P", help="which indexed repository (default: the only one)")
        if name in ("search", "history", "hotspots", "unit-history"):
            default = {"search": 10, "history": 20, "hotspots": 10, "unit-history": 20}[name]
            command.add_argument("--limit", "-n", type=int, default=default, metavar="N",
                                 help=f"at most N results (default: {default})")


def run(args: argparse.Namespace) -> None:
    """Dispatch `learnmem git <command>`."""
    COMMANDS[args.git_command][0](args)
