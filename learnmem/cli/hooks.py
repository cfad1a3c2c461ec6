"""`learnmem hook <event>`: the Claude Code hook entry points; the logic is learnmem/agents/hooks.py.

Claude Code runs the command with the event's JSON on stdin and reads the answer (its hook JSON, or
nothing) from stdout. Like app.py this imports only the standard library at import time, and so does
hooks.py: the PreToolUse hook runs before every tool call and must not pay for DuckDB unless a check-in
is due.

The exit status is always 0: a hook must never fail, block or delay the agent's action (exit status 2
would block a tool call in Claude Code). An unknown event, malformed JSON or any error is logged to
`hooks.log` beside the database file instead. The event is optional on the command line so that even a
misconfigured hook (`learnmem hook` alone) exits 0; it then comes from the payload's `hook_event_name`.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # argparse and typing cost a hook process ~10 ms: learnmem.cli.main skips both
if TYPE_CHECKING:
    import argparse

EVENTS_HELP = ("session-start, user-prompt-submit, pre-tool-use, post-tool-use, post-tool-use-failure, stop or "
               "session-end (Claude Code's names, e.g. SessionStart, work too; default: the payload's "
               "hook_event_name)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The `learnmem hook` arguments: the event, optional (see the module docstring)."""
    parser.add_argument("event", nargs="?", metavar="EVENT", help=EVENTS_HELP)


def _stdin() -> bytes:
    stream = sys.stdin
    if stream is None or stream.isatty():  # run by hand with nothing piped in: do not wait for a terminal
        return b""
    from learnmem.agents.hook_socket import MAX_STDIN_BYTES

    return stream.buffer.read(MAX_STDIN_BYTES)


def _started_as_a_hook() -> bool:
    """This process was started to answer the hook (`learnmem hook ...`, `python -m learnmem.cli hook ...`),
    not by a program that calls learnmem.cli.main itself."""
    started = sys.argv[0].replace("\\", "/") if sys.argv and sys.argv[0] else ""
    name = os.path.basename(started).lower()
    from_the_package = started.endswith(("learnmem/cli/__main__.py", "learnmem/cli/app.py"))
    return (name in ("learnmem", "learnmem.exe") or from_the_package) and "hook" in sys.argv[1:]


def _served(event: str | None, raw: bytes, db: str | None) -> str | None:
    """The answer of the agent's MCP server, which holds the file warm (learnmem.agents.hook_socket), or None
    when none answers (or $LEARNMEM_HOOK_SERVER is off): this process answers itself then."""
    from learnmem.agents import hook_socket

    if not hook_socket.enabled(os.environ):
        return None
    return hook_socket.ask(db, event, raw, os.environ)


def run(args: argparse.Namespace) -> None:
    """Answer one hook event: print Claude Code's hook JSON (or nothing) and exit 0, whatever happens.

    The agent's MCP server answers when it runs (warm: no DuckDB or model in this process); otherwise this
    process does. A process started as the hook ends with os._exit(0) once its answer is flushed: everything
    it wrote is committed by then, and the interpreter's teardown (ONNX Runtime, numpy, DuckDB) costs
    50-100 ms the agent would wait for."""
    try:
        raw = _stdin()
        db = getattr(args, "db", None)
        answer = _served(args.event, raw, db)
        if answer is None:
            from learnmem.agents import hooks

            answer = hooks.handle(args.event, raw, db=db, wait_s=hooks.LOCK_DEADLINE_S)
        if answer:
            sys.stdout.write(answer + "\n")
            sys.stdout.flush()
    except Exception as error:  # noqa: BLE001 - hooks.handle never raises; this guards its import and stdout
        sys.stderr.write(f"learnmem hook: {type(error).__name__}: {error}\n")
    if _started_as_a_hook():
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(0)
