"""Hooks served warm, the server's side: the MCP server answers the project's hook events over a Unix socket.

The hook's side, the wire and the socket's place and safety are in learnmem.agents.hook_socket. Here: the
listening thread (HookServer) and `serve_hooks`, which the MCP server calls once its facade is open. Each
event is answered by learnmem.agents.hooks.serve with the server's facade: its store, warm model and
in-memory indexes, so a hook costs the agent a process start and a round trip.
"""

from __future__ import annotations

import os
import socket
import struct
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any

from learnmem.agents import hooks
from learnmem.agents.hook_paths import HookPaths, locate
from learnmem.agents.hook_socket import (
    ANSWER_TIMEOUT_S,
    ANSWERED,
    ENV_PREFIXES,
    MAX_HEADER_BYTES,
    MAX_STDIN_BYTES,
    NOT_SERVED,
    REQUEST_TIMEOUT_S,
    VERSION,
    enabled,
    owned_private_folder,
    read_all,
    socket_path,
)


def serve_hooks(facade: Any, db: str | None = None) -> HookServer | None:
    """Answer the hooks of the file `facade` has open (`db`: as the process was given it, for a lake) from
    this process, until it exits; None when $LEARNMEM_HOOK_SERVER is off or the file is open read-only (a
    hook writes). Raises OSError when the socket cannot be made: the hooks then answer themselves."""
    if not enabled(os.environ) or facade.store.read_only:
        return None
    paths = locate(db, {"cwd": os.getcwd()}, os.environ)
    if paths.lake is None:
        paths = HookPaths(facade.path)
    return HookServer(paths, lambda event, raw, environ: hooks.serve(facade, paths, event, raw, environ)).start()


class HookServer:
    """Answers hook events for one file from a long-lived process (the MCP server) on a daemon thread.

    `answer(event, raw, environ)` returns the text to print; it is asked only for events whose file, located
    from the payload as a one-shot hook would (hook_paths.locate), is `paths`. Events are answered one at a
    time, as an agent sends them.
    """

    def __init__(self, paths: HookPaths, answer: Callable[[str | None, bytes, Mapping[str, str]], str]):
        self.paths = paths
        self.path = socket_path(paths.db, paths.lake)
        self._answer = answer
        self._listener: socket.socket | None = None
        self._inode: tuple[int, int] | None = None
        self._closed = False

    def start(self) -> HookServer:
        """Listen (taking the socket over from an earlier server, if any) and serve on a daemon thread."""
        folder = os.path.dirname(self.path)
        if folder != os.fspath(self.paths.folder):
            os.makedirs(folder, mode=0o700, exist_ok=True)
            if not owned_private_folder(folder):
                raise PermissionError(f"{folder} must be this user's, mode 0700")
        temporary = os.path.join(folder, f".{os.path.basename(self.path)}.{os.getpid()}")
        _unlink(temporary)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(temporary)
            os.chmod(temporary, 0o600)
            listener.listen(16)
            info = os.stat(temporary)
            os.replace(temporary, self.path)
        except BaseException:
            listener.close()
            _unlink(temporary)
            raise
        self._listener, self._inode = listener, (info.st_dev, info.st_ino)
        threading.Thread(target=self._serve, name="learnmem-hooks", daemon=True).start()
        return self

    def close(self) -> None:
        """Stop serving and remove the socket, unless a later server has taken it over."""
        self._closed = True
        try:
            info = os.stat(self.path)
            if (info.st_dev, info.st_ino) == self._inode:
                os.unlink(self.path)
        except OSError:
            pass
        if self._listener is not None:
            try:
                self._listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._listener.close()

    def _serve(self) -> None:
        assert self._listener is not None
        while not self._closed:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return  # closed
            with connection:
                try:
                    self._one(connection)
                except Exception as error:  # noqa: BLE001 - one bad request must not stop the server
                    print(f"learnmem-mcp: a hook request failed: {type(error).__name__}: {error}", file=sys.stderr)

    def _one(self, connection: socket.socket) -> None:
        if not _same_user(connection):
            return
        connection.settimeout(REQUEST_TIMEOUT_S)
        request = read_all(connection, MAX_HEADER_BYTES + MAX_STDIN_BYTES)
        if not request:
            return  # a probe: connected and left
        length, _, rest = request.partition(b"\n")
        header, raw = rest[:int(length)], rest[int(length):]
        version, *fields = header.decode("utf-8", errors="surrogateescape").split("\0")
        if version != VERSION or len(fields) < 5:
            connection.sendall(NOT_SERVED)  # another version's hook: it answers itself
            return
        event, db_arg, cwd, _db, _lake, *variables = fields
        environ = dict(variable.split("=", 1) for variable in variables if "=" in variable)
        environ = {key: value for key, value in environ.items() if key.startswith(ENV_PREFIXES)}
        if not self._serves(db_arg or None, raw, environ, cwd):
            connection.sendall(NOT_SERVED)  # another file's hook: it answers itself
            return
        text = self._answer(event or None, raw, environ)
        connection.settimeout(ANSWER_TIMEOUT_S)
        connection.sendall(ANSWERED + text.encode("utf-8"))

    def _serves(self, db_arg: str | None, raw: bytes, environ: Mapping[str, str], cwd: str) -> bool:
        """Whether the hook's file, located as a one-shot hook would locate it, is this server's."""
        import json

        try:
            payload = json.loads(raw)
        except ValueError:
            payload = None
        asked = locate(db_arg, payload if isinstance(payload, dict) else {}, environ, cwd)
        return asked.lake == self.paths.lake and (
            asked.db == self.paths.db or os.path.realpath(asked.db) == os.path.realpath(self.paths.db))


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _same_user(connection: socket.socket) -> bool:
    """Whether the connecting process is this user's; True where the platform cannot say (the socket's mode
    already keeps other users out)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    credentials = connection.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return uid == os.getuid()
