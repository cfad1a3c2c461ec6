"""A real PostgreSQL server for the DuckLake tests: started in a temporary folder on a free loopback port,
stopped at the end. No server is shared with anything else on the machine.

The server binaries come from the Debian `postgresql` package (`make setup-test` installs it as root when
/usr/lib/postgresql/*/bin/initdb is missing), or from wherever PATH finds initdb, or PG_BIN. PostgreSQL refuses to run as root: under root the server and
`initdb` run as the `postgres` user the package creates (else `nobody`), in a folder handed to it.
Authentication is `trust` on 127.0.0.1 and the Unix socket in that folder, so the catalog string is
`dbname=... host=127.0.0.1 port=... user=postgres`.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


def server_binaries() -> Path:
    """The folder of initdb and pg_ctl: PG_BIN, else the newest /usr/lib/postgresql/<version>/bin (Debian),
    else where PATH finds initdb (Homebrew, other systems)."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    raise RuntimeError("PostgreSQL's server is not installed (no initdb): run `make setup-test`, which installs "
                       "the Debian postgresql package as root, or install it yourself (brew install postgresql@16)")


@dataclass
class PostgresServer:
    """A running server: its port, the folder it lives in, and how to reach a database on it."""

    folder: Path
    port: int
    _user: pwd.struct_passwd | None

    @staticmethod
    def free_port() -> int:
        """A loopback port nothing listens on now."""
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return probe.getsockname()[1]

    @classmethod
    def start(cls, folder: Path) -> PostgresServer:
        folder.mkdir(parents=True, exist_ok=True)
        user = None
        if os.geteuid() == 0:  # the server refuses root
            user = next(pwd.getpwnam(name) for name in ("postgres", "nobody") if _exists(name))
            os.chown(folder, user.pw_uid, user.pw_gid)
            for parent in folder.parents:  # it must be able to reach its folder
                if str(parent).startswith(("/tmp", "/var/tmp")) and parent.stat().st_mode & 0o005 != 0o005:
                    os.chmod(parent, parent.stat().st_mode | 0o005)
        server = cls(folder, cls.free_port(), user)
        binaries = server_binaries()
        server._run(binaries / "initdb", "-D", str(folder / "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                    "--no-sync")
        server._run(binaries / "pg_ctl", "-D", str(folder / "data"), "-w", "-t", "60", "-l", str(folder / "server.log"),
                    "-o", f"-p {server.port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                          "-c max_connections=200", "start")
        return server

    def _run(self, *command) -> None:
        # Demoted by setpriv rather than a preexec_fn: that would make Python fork() the whole test process,
        # which the kernel refuses (ENOMEM) once the process maps a lot of address space (DuckDB's Arrow
        # export of FLOAT[384] columns reserves ~2 GB of it per table); without one it uses vfork.
        demote = (["setpriv", f"--reuid={self._user.pw_uid}", f"--regid={self._user.pw_gid}", "--clear-groups"]
                  if self._user else [])
        done = subprocess.run([*demote, *(str(part) for part in command)], capture_output=True, text=True,
                              check=False, timeout=120)
        if done.returncode != 0:
            log = self.folder / "server.log"
            raise RuntimeError(f"{command[0]} failed ({done.returncode}): {done.stderr or done.stdout}"
                               + (f"\n{log.read_text()[-2000:]}" if log.exists() else ""))

    def create_database(self, name: str) -> str:
        """A new database; returns its libpq connection string (what follows `ducklake:postgres:`)."""
        self._run(server_binaries() / "createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return f"dbname={name} host=127.0.0.1 port={self.port} user=postgres"

    def stop(self) -> None:
        self._run(server_binaries() / "pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def _exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def wait_for(predicate, seconds: float = 30.0) -> None:
    """Poll `predicate` until it holds (the tests' processes start at their own pace)."""
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met in time")
        time.sleep(0.05)
