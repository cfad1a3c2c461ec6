"""Paths and exposure (issue 9 item 4): indexing never follows a symbolic link out of the indexed root,
git's in-tree files are not read through links, and no learnmem process listens on a network port."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from dulwich.repo import Repo

import learnmem
from learnmem.code.walk import candidate_files, read_no_follow
from learnmem.embedding.embed import HashingEmbedder
from learnmem.git.repository import read_mailmap
from tests.gitrepo import EMAIL, NAME, GitRepo

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A project whose links point outside it: a file, a folder, and its .gitignore."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("def leaked_secret_function():\n    return 'do not index me'\n")
    (outside / "ignore-everything").write_text("*.py\n")
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text("def ok():\n    return 1\n")
    (root / "link.py").symlink_to(outside / "secret.py")
    (root / "linked_dir").symlink_to(outside, target_is_directory=True)
    (root / ".gitignore").symlink_to(outside / "ignore-everything")
    return root


def test_indexing_never_follows_a_link_out_of_the_root(tree: Path, tmp_path: Path) -> None:
    assert list(candidate_files(tree)) == ["app.py"]  # no link.py, nothing under linked_dir, .gitignore not read
    lm = learnmem.open(tmp_path / "index.duckdb", embedder=HashingEmbedder())
    result = lm.index_codebase(tree, progress=False)
    assert result.files_indexed == 1
    names = {row[0] for row in lm.sql("SELECT name FROM code_units").fetchall()}
    assert "ok" in names and "leaked_secret_function" not in names
    assert lm.sql("SELECT count(*) FROM code_units WHERE content LIKE '%do not index me%'").fetchone() == (0,)


def test_a_link_swapped_in_after_the_walk_is_refused(tree: Path) -> None:
    assert read_no_follow(tree / "app.py").startswith(b"def ok")
    with pytest.raises(OSError):
        read_no_follow(tree / "link.py")


def test_a_linked_mailmap_is_not_read(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("a.txt", "a\n")
    repo.commit("first")
    outside = tmp_path / "mailmap-outside"
    outside.write_text(f"Mapped Name <mapped@example.com> {NAME} <{EMAIL}>\n")
    (repo.path / ".mailmap").symlink_to(outside)
    with Repo(str(repo.path)) as opened:
        assert read_mailmap(opened).lookup(NAME, EMAIL).name == NAME
    (repo.path / ".mailmap").unlink()
    (repo.path / ".mailmap").write_text(outside.read_text())  # the same file, not linked: read
    with Repo(str(repo.path)) as opened:
        assert read_mailmap(opened).lookup(NAME, EMAIL).name == "Mapped Name"


# -- no network ---------------------------------------------------------------------------------

_SERVER_MODULES = {"socketserver", "http.server", "xmlrpc.server", "uvicorn", "starlette", "aiohttp", "fastapi",
                   "flask", "tornado", "sse_starlette"}


def _imports(folder: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in folder.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
            else:
                continue
            found.setdefault(str(path.relative_to(ROOT)), set()).update(names)
    return found


_SERVING_CALLS = {"bind", "listen", "serve_forever", "start_server", "create_server", "start_unix_server",
                  "run_sse_async", "run_streamable_http_async"}


# Modules that listen on a Unix socket, never a network port: the hooks' socket beside the file (0600).
_UNIX_SOCKET_SERVERS = {"learnmem/agents/hook_server.py"}


def test_no_module_serves_on_a_network() -> None:
    # Clients are fine (embed.py checks that the model hub is reachable); serving is not. The one server is
    # the hooks' Unix socket, and it is checked to be nothing else.
    for rel in _UNIX_SOCKET_SERVERS:
        names = {node.attr for node in ast.walk(ast.parse((ROOT / rel).read_text(encoding="utf-8")))
                 if isinstance(node, ast.Attribute) and node.attr.startswith("AF_")}
        assert names == {"AF_UNIX"}, f"{rel} makes {names} sockets: only AF_UNIX may listen"
    for folder in ("learnmem", "mcp_adapter"):
        for path, names in _imports(ROOT / folder).items():
            servers = {name for name in names if name in _SERVER_MODULES
                       or name.startswith(("mcp.server.sse", "mcp.server.streamable"))}
            assert not servers, f"{path} imports {servers}: learnmem talks over stdio and files only"
        for path in (ROOT / folder).rglob("*.py"):
            if path.relative_to(ROOT).as_posix() in _UNIX_SOCKET_SERVERS:
                continue
            calls = {node.attr for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                     if isinstance(node, ast.Attribute) and node.attr in _SERVING_CALLS}
            assert not calls, f"{path.relative_to(ROOT)} calls {calls}: nothing listens on a port"


def _listening_inodes() -> set[str]:
    """Socket inodes in a listening state: TCP LISTEN (0A), and bound UDP sockets (07)."""
    inodes = set()
    for table, states in (("tcp", {"0A"}), ("tcp6", {"0A"}), ("udp", {"07"}), ("udp6", {"07"})):
        try:
            lines = Path(f"/proc/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] in states:
                inodes.add(fields[9])
    return inodes


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    return inodes


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux /proc")
def test_the_mcp_server_listens_on_no_port(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    env.pop("LEARNMEM_DB", None)
    server = subprocess.Popen([sys.executable, "-m", "mcp_adapter", "--db", str(tmp_path / "mcp.duckdb")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                              cwd=str(tmp_path))
    try:
        hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                            "clientInfo": {"name": "port-check", "version": "0"}}}
        server.stdin.write((json.dumps(hello) + "\n").encode())
        server.stdin.flush()
        answer = json.loads(server.stdout.readline())
        assert answer["id"] == 1 and "serverInfo" in answer["result"]
        time.sleep(1.0)  # let the warm-up thread start: whatever the process opens, it has opened
        assert _socket_inodes(server.pid) & _listening_inodes() == set()
    finally:
        server.kill()
        server.wait(timeout=30)


def test_lm_sql_only_reads_the_file(tmp_path: Path) -> None:
    lm = learnmem.open(tmp_path / "sql.duckdb", embedder=HashingEmbedder())
    lm.store_memory("SQL may read me.", "fact")
    (tmp_path / "elsewhere.csv").write_text("a,b\n1,2\n")
    assert lm.sql("SELECT content FROM memory_list WHERE category = $c", {"c": "fact"}).fetchall() == [
        ("SQL may read me.",)]
    assert ("memories",) in lm.sql("SHOW TABLES").fetchall()
    for query, why in (("DELETE FROM memories", "got a DELETE statement"),
                       ("SELECT 1; SELECT 2", "one statement at a time"),
                       ("USE memory", "got a SET statement"),
                       ("EXPLAIN ANALYZE SELECT 1", "got a EXPLAIN statement"),
                       (f"SELECT * FROM read_csv('{tmp_path / 'elsewhere.csv'}')", "file system operations are "
                                                                                   "disabled")):
        with pytest.raises(learnmem.ValidationError, match=why):
            lm.sql(query)
    assert lm.info().counts["memories"] == 1


def test_lm_sql_reaches_only_its_own_file_and_never_holds_it(tmp_path: Path) -> None:
    # Each query runs on a new locked-down instance: one kept between queries (~20 ms saved a query) was tried
    # and refused, as test_hostile found: `SELECT * FROM enable_logging(storage='file', ...)` changes the
    # instance's state for the queries after it, and the server aborted when the logger met the locked file
    # system. Between queries nothing holds the file, so another process can write.
    first = learnmem.open(tmp_path / "first.duckdb", embedder=HashingEmbedder())
    second = learnmem.open(tmp_path / "second.duckdb", embedder=HashingEmbedder())
    first.store_memory("Only the first file holds this.", "fact")
    for _ in range(3):  # query after query
        assert first.sql("SELECT count(*) FROM memories").fetchone() == (1,)
        assert second.sql("SELECT count(*) FROM memories").fetchone() == (0,)
        with pytest.raises(learnmem.ValidationError, match="file system operations are disabled"):
            second.sql(f"SELECT * FROM read_blob('{tmp_path / 'first.duckdb'}')")
        try:  # a query that changes its instance's state leaves the next query alone
            first.sql(f"SELECT * FROM enable_logging(storage='file', storage_path='{tmp_path / 'logs'}')").fetchall()
        except learnmem.ValidationError:
            pass
    assert not (tmp_path / "logs").exists()
    writer = subprocess.run(
        [sys.executable, "-c", "import sys, learnmem; from learnmem.embedding.embed import HashingEmbedder; "
         "learnmem.open(sys.argv[1], embedder=HashingEmbedder()).store_memory('Written by another process.', 'fact')",
         str(tmp_path / "first.duckdb")], capture_output=True, text=True, timeout=120)
    assert writer.returncode == 0, writer.stderr
    assert first.sql("SELECT count(*) FROM memories").fetchone() == (2,)
    first.forget(first.sql("SELECT id FROM memories LIMIT 1").fetchone()[0], hard=True)  # the file is replaced
    assert first.sql("SELECT count(*) FROM memories").fetchone() == (1,)
