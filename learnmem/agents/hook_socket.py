"""Hooks served warm, the hook's side: ask the MCP server over a Unix socket beside the file.

A one-shot hook process imports DuckDB (80-140 ms) and, for context or a flush, loads the model (~0.5 s);
the agent's MCP server already holds both, and the open project. So while it runs it listens on
`<file>.hooks.sock` (learnmem.agents.hook_server), and `learnmem hook <event>` first asks it (ask). When no server answers
(none runs, or one was killed and left its socket behind) the hook answers itself, as before
(learnmem.agents.hooks).

The hook's side must cost almost nothing, as PreToolUse and PostToolUse run around every tool call: it
imports `os`, `stat` and `_socket` (the C half of `socket`) and no more (not `json` or `pathlib`, which pull in `re`: ~10 ms on a small
machine). So it finds the file from the environment alone (`--db`, `$LEARNMEM_DB`, else the project of
`$CLAUDE_PROJECT_DIR` or of its working directory: find_file) and sends the event's JSON unread. The server
locates the file again from the payload, exactly as a one-shot hook would (hook_paths.locate), and answers
only when it is its own; otherwise it says so and the hook answers itself.

The socket is the user's alone: created 0600 under a temporary name and renamed into place, refused by the
hook unless this user owns it, and, where the platform says who connects (SO_PEERCRED on Linux), the server
answers only this user's processes. A path too long for a Unix socket (about 104 bytes) moves to a private
folder of the user's (`$XDG_RUNTIME_DIR/learnmem`, else `<tmp>/learnmem-<uid>`, mode 0700), named by a hash
of the file's path. Several servers for one file (two agents in one project) are fine: the last started
owns the socket, and each removes it on exit only while it is still its own.

The wire, one request per connection: the header's length in ASCII digits and a newline; the header, its
fields joined by NUL (a version, the event, the `--db` given, the hook's working directory, the file, the
lake, then `NAME=value` for each environment variable the hooks read); the event's JSON as Claude Code sent
it. The hook then shuts its side.
The answer is one status byte (`=`: answered, the text to print follows; `!`: not this server's file, the
hook answers itself).
"""

from __future__ import annotations

import os
import stat
import sys

import _socket  # socket.py itself imports selectors, enum and collections: ~5 ms a hook need not pay

TYPE_CHECKING = False  # typing costs a hook ~8 ms
if TYPE_CHECKING:
    from collections.abc import Mapping

VERSION = "1"
# How long the hook waits to connect (a live server accepts at once; a dead one refuses at once).
CONNECT_TIMEOUT_S = 0.5
# How long the hook waits for the server's answer: past Claude Code's own hook timeouts (settings.py).
ANSWER_TIMEOUT_S = 60.0
# How long the server waits for a connected hook to send its event.
REQUEST_TIMEOUT_S = 5.0
MAX_HEADER_BYTES = 64 * 1024
MAX_STDIN_BYTES = 8 * 1024 * 1024  # a tool response can be large; beyond this a hook reads no further
ANSWERED, NOT_SERVED = b"=", b"!"
# The hook's environment the server passes on: what the hooks and the library read per event.
ENV_PREFIXES = ("LEARNMEM_", "CLAUDE_")
LAKE_SCHEME = "ducklake:"  # as learnmem.storage.paths.LAKE_SCHEME (that module imports pathlib)
_SUN_PATH_MAX = 100  # sockaddr_un holds 108 bytes on Linux, 104 on macOS; keep a margin
_OFF = ("0", "off", "no", "false")


def enabled(environ: Mapping[str, str]) -> bool:
    """Whether hooks go through a server: yes unless $LEARNMEM_HOOK_SERVER is off (0, off, no, false)."""
    return environ.get("LEARNMEM_HOOK_SERVER", "").strip().lower() not in _OFF


def socket_path(db: str | os.PathLike[str], target: str | None = None) -> str:
    """Where the server for file `db` (a lake: `target`, its name, with `db` beside its small files) listens:
    beside the file, or in the user's private folder when that path is too long for a Unix socket."""
    beside = f"{os.fspath(db)}.hooks.sock"
    if len(os.fsencode(beside)) <= _SUN_PATH_MAX:
        return beside
    import hashlib
    import tempfile

    name = hashlib.sha256(os.fsencode(target or os.fspath(db))).hexdigest()[:24] + ".sock"
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime) and len(os.fsencode(os.path.join(runtime, "learnmem", name))) <= _SUN_PATH_MAX:
        return os.path.join(runtime, "learnmem", name)
    return os.path.join(tempfile.gettempdir(), f"learnmem-{os.getuid()}", name)


def owned_private_folder(folder: str) -> bool:
    """Whether `folder` is a directory only this user can enter (so no one else can plant a socket in it)."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077


# -- the hook's side ------------------------------------------------------------------------------------


def find_file(db: str | None, environ: Mapping[str, str], cwd: str) -> tuple[str, str | None]:
    """(the file, the lake's name or None) a hook in `cwd` works on, from `--db`, $LEARNMEM_DB, else the project
    of $CLAUDE_PROJECT_DIR or `cwd` (its git top level's `.learnmem/learnmem.duckdb`). hook_paths.locate also
    reads the payload's `cwd`; the server checks that the two agree."""
    named = db or environ.get("LEARNMEM_DB")
    folder = next((f for f in (environ.get("CLAUDE_PROJECT_DIR"), cwd) if f and os.path.isdir(f)), cwd)
    if named and named.startswith(LAKE_SCHEME):
        return os.path.join(_project_root(folder), ".learnmem", "lake"), named
    if named:
        return os.path.abspath(os.path.expanduser(named)), None
    return os.path.join(_project_root(folder), ".learnmem", "learnmem.duckdb"), None


def _project_root(start: str) -> str:
    """As learnmem.storage.paths.project_root, on strings: the git top level containing `start`, else it."""
    start = os.path.realpath(start)
    folder = start
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return start
        folder = parent


def ask(db_arg: str | None, event: str | None, raw: bytes, environ: Mapping[str, str],
        cwd: str | None = None) -> str | None:
    """The served answer to one hook event (the text to print, "" for nothing), or None when no server
    answers for the hook's file: the caller answers itself then."""
    cwd = cwd or os.getcwd()
    db, lake = find_file(db_arg, environ, cwd)
    path = socket_path(db, lake)
    try:
        info = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISSOCK(info.st_mode) or info.st_uid != os.getuid():
        return None
    if os.path.dirname(path) != os.path.dirname(db) and not owned_private_folder(os.path.dirname(path)):
        return None
    fields = [VERSION, event or "", db_arg or "", cwd, db, lake or "",
              *(f"{key}={value}" for key, value in environ.items() if key.startswith(ENV_PREFIXES))]
    header = "\0".join(fields).encode("utf-8", errors="surrogateescape")
    connection = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        connection.settimeout(CONNECT_TIMEOUT_S)
        try:
            connection.connect(path)
        except OSError:
            return None  # no server behind the socket (it was killed): nothing was asked
        connection.settimeout(ANSWER_TIMEOUT_S)
        try:
            connection.sendall(b"%d\n%s%s" % (len(header), header, raw))
            connection.shutdown(_socket.SHUT_WR)
            answer = read_all(connection)
        except TimeoutError:
            return ""  # the server has the event and is still at it: answering again would do it twice
        except OSError:
            return None  # the server went away before answering
    finally:
        connection.close()
    if answer[:1] != ANSWERED:
        return None
    return answer[1:].decode("utf-8", errors="replace")


def read_all(connection: _socket.socket, limit: int | None = None) -> bytes:
    chunks, size = [], 0
    while True:
        chunk = connection.recv(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if limit is not None and size > limit:
            raise ValueError(f"request over {limit} bytes")
