"""The `learnmem-mcp` process: it answers the handshake at once, boots in the background and stops when told.

A client spawns the server and times its `initialize` (Claude Code sends the first turn while a server is
still pending). Importing the MCP SDK and opening the library take one to two seconds, so:

1. the process claims stdin and stdout for the protocol (fd 0 then reads /dev/null and fd 1 writes to stderr,
   as the SDK's own stdio transport does, so a stray print or child process cannot corrupt the protocol);
2. a boot thread opens the library, starts the model's warm-up and builds the server (`server.build_server`);
3. meanwhile a plain `initialize` is answered from `handshake`, with nothing heavy imported;
4. once booted, the SDK serves the wire from the first line on; its own answer to that `initialize` is
   dropped (`transport.Server.serve_wire`). A call that needs the model waits for the warm-up.

It stops like a good citizen: SIGINT or SIGTERM, or stdin closed at any moment (before the handshake, during
boot, between calls), ends it with exit 0 within a second, after writing the memory use counted since the
last batch (`Learnmem.close`; bounded in time, as those counts are best effort). It leaves with `os._exit`,
so a thread still loading the model or blocked on stdin cannot hold the process or abort it on the way out.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import select
import signal
import sys
import threading
from typing import Any, BinaryIO

from learnmem.errors import LearnmemError
from learnmem.without_pandas import skip_pandas
from mcp_adapter import handshake, profiles

# The longest the process waits, when told to stop, for the counted memory use to be written.
FLUSH_SECONDS = 0.7
# How often the wait for the first line looks whether the boot has ended.
_POLL_SECONDS = 0.05


class Wire:
    """The protocol's two ends: private copies of fd 0 and fd 1, which are then pointed elsewhere."""

    def __init__(self) -> None:
        reader_fd = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
        writer_fd = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.dup2(2, 1)
        self.reader: BinaryIO = os.fdopen(reader_fd, "rb")
        self.writer: BinaryIO = os.fdopen(writer_fd, "wb")

    def wait_for_line(self, booted: threading.Event) -> bool:
        """Wait until the client writes (True) or the boot ends first (False)."""
        while not booted.is_set():
            readable, _, _ = select.select([self.reader], [], [], _POLL_SECONDS)
            if readable:
                return True
        return False

    def wait_for_boot(self, booted: threading.Event) -> bool:
        """Wait until the boot ends (True), or the client closes stdin first (False). What the client writes
        meanwhile stays unread, for the server."""
        while not booted.is_set():
            readable, _, _ = select.select([self.reader], [], [], _POLL_SECONDS)
            if readable:
                if not self.reader.peek(1):
                    return False
                booted.wait()
        return True

    def send(self, line: bytes) -> None:
        self.writer.write(line)
        self.writer.flush()


class Boot(threading.Thread):
    """Opens the library, starts its warm-up and builds the server, off the main thread."""

    def __init__(self, db: str | None, allow_sql: bool, tools: str) -> None:
        super().__init__(name="learnmem-boot", daemon=True)
        self.db, self.allow_sql, self.tools = db, allow_sql, tools
        self.done = threading.Event()
        self.lm: Any = None
        self.hooks: Any = None  # learnmem.agents.hook_socket.HookServer, while it serves the hooks
        self.server: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            import learnmem
            from mcp_adapter.server import build_server

            self.lm = learnmem.open(self.db)
            # The model loads while the client lists the tools: the first call then answers at full speed.
            threading.Thread(target=_warm_up, args=(self.lm,), name="learnmem-warm-up", daemon=True).start()
            self.hooks = _serve_hooks(self.lm, self.db)
            self.server = build_server(self.lm, allow_sql=self.allow_sql, tools=self.tools)
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread, which exits with it
            self.error = exc
        finally:
            self.done.set()


def _serve_hooks(lm: Any, db: str | None) -> Any:
    """Answer the project's hooks warm (learnmem.agents.hook_server). Best effort: without it the hooks answer
    themselves, as before."""
    from learnmem.agents.hook_server import serve_hooks

    try:
        return serve_hooks(lm, db)
    except OSError as exc:
        print(f"learnmem-mcp: the hooks will answer themselves (no socket for them: {exc})", file=sys.stderr)
        return None


def _warm_up(lm: Any) -> None:
    """Best effort: a failure here (say, a model mismatch) is reported by the first tool call instead."""
    try:
        lm.warm_up()
    except Exception:  # noqa: BLE001
        pass


def leave(boot: Boot, code: int) -> None:
    """End the process now: write the counted memory use (at most FLUSH_SECONDS), then exit with `code`."""
    if boot.hooks is not None:
        boot.hooks.close()
    lm = boot.lm
    if lm is not None:
        closing = threading.Thread(target=_close_quietly, args=(lm,), name="learnmem-close", daemon=True)
        closing.start()
        closing.join(FLUSH_SECONDS)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _close_quietly(lm: Any) -> None:
    try:
        lm.close()
    except Exception as exc:  # noqa: BLE001 - leaving anyway; say why the counts were not written
        print(f"learnmem-mcp: the memory use counted since the last batch was not written: {exc}", file=sys.stderr)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="learnmem-mcp",
        description="Serve learnmem's memory tools to an MCP client over stdio.",
    )
    parser.add_argument(
        "--db",
        metavar="PATH",
        default=None,
        help="database file, or a lake: ducklake:postgres:<libpq string> (default: $LEARNMEM_DB, else <git root or "
             "cwd>/.learnmem/learnmem.duckdb)",
    )
    parser.add_argument(
        "--allow-sql",
        action="store_true",
        help="also serve the `sql` tool: one read-only query on the memory file (off by default)",
    )
    parser.add_argument(
        "--tools",
        metavar="PROFILE",
        default="lean",
        help="the tools listed: lean (the default: 14 tools, ~10 KB of tool list), all (every tool under its "
             f"library name, ~51 KB), or groups among {', '.join(profiles.GROUPS)} (comma-separated); every "
             "tool stays callable by name in each",
    )
    return parser


def main(argv: list[str] | None = None) -> None:
    """Entry point of `learnmem-mcp` / `python -m mcp_adapter`: serve the tools over stdio."""
    skip_pandas("the learnmem MCP server")
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        profile = profiles.parse(args.tools)
    except ValueError as exc:
        parser.error(str(exc))
    wire = Wire()
    boot = Boot(args.db, args.allow_sql, args.tools)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda _signum, _frame: leave(boot, 0))
    boot.start()

    first_line, answered = b"", None
    if wire.wait_for_line(boot.done):
        first_line = wire.reader.readline()
        if not first_line:
            leave(boot, 0)  # stdin closed before anything was asked
        handshake_answer = handshake.answer_initialize(first_line, profile)
        if handshake_answer is not None:
            answered, reply = handshake_answer
            wire.send(reply)
    if not wire.wait_for_boot(boot.done):
        leave(boot, 0)  # stdin closed during the boot
    if boot.error is not None:
        # stdout belongs to the protocol: report on stderr, where MCP clients log it.
        print(f"learnmem-mcp: error: {boot.error}", file=sys.stderr)
        leave(boot, 2 if isinstance(boot.error, LearnmemError) else 1)

    import anyio

    anyio.run(boot.server.serve_wire, wire.reader, wire.writer, first_line, answered)
    leave(boot, 0)  # the client closed stdin
