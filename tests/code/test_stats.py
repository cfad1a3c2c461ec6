"""Index bookkeeping (issue 10, item 4): `get_indexing_stats` and `remove_file`, in the library, the CLI and MCP.

The counts are checked against a real repository whose units and calls are known by reading it; `remove_file`
must leave exactly what a clean index of the tree without the file holds (real model, and property-tested over
random trees with the hashing embedder), refuse bad paths and projects with messages naming the field, the
value and what is allowed, change nothing when it refuses, and be all-or-nothing when killed.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import learnmem
from learnmem.code.bookkeeping import RemoveFileResult
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import LearnmemError, NotFoundError, ValidationError
from tests.gitrepo import GitRepo
from tests.code.test_incremental import (
    ALL_PATHS,
    PROJECT,
    assert_same_index,
    clean_snapshot,
    snapshot,
    source_for,
    write,
)

ROOT = Path(__file__).resolve().parents[2]

CONFIG = '''"""Configuration files."""


class Config:
    """Settings read from a file."""

    def load(self):
        return parse(self)


def parse(config):
    return config
'''
MAIN = '''from app.config import Config


def main():
    config = Config()
    config.load()
    return missing_helper()
'''
UTIL = '''export function helper(s: string): string {
  return s;
}

export function shout(s: string): string {
  return helper(s);
}
'''
# Read off the three files: the units each defines, and every call site with what it calls.
UNITS = {"python": {"class": 1, "function": 2, "method": 1, "module": 2}, "typescript": {"function": 2, "module": 1}}
EDGES = {  # (file, line, caller) -> callee (module, qualified name), None where nothing in the project is called
    ("app/config.py", 8, "Config.load"): ("app.config", "parse"),
    ("app/main.py", 5, "main"): ("app.config", "Config"),
    ("app/main.py", 6, "main"): ("app.config", "Config.load"),
    ("app/main.py", 7, "main"): None,  # missing_helper is defined nowhere
    ("web/util.ts", 6, "shout"): ("web.util", "helper"),
}


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo.init(tmp_path / "shop")
    repo.write("app/config.py", CONFIG)
    repo.write("app/main.py", MAIN)
    repo.write("web/util.ts", UTIL)
    repo.commit("A shop")
    return repo


def edges(lm, project: str = "shop") -> dict:
    rows = lm.sql("SELECT file_path, line, caller_qualified_name, callee_module, callee_qualified_name "
                  "FROM call_edges WHERE project = $1", [project]).fetchall()
    return {(path, line, caller): None if name is None else (module, name) for path, line, caller, module, name in rows}


def clean(tree: Path, db: Path, embedder, project: str = "shop") -> dict:
    """A snapshot of a fresh file that indexed `tree` once."""
    fresh = learnmem.open(db, embedder=embedder)
    fresh.index_codebase(tree, project=project, progress=False)
    return snapshot(fresh, project)


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


# --- get_indexing_stats ---------------------------------------------------------------------------------


def test_stats_count_the_known_units_and_calls_of_a_real_repository(lm, repo):
    before = _now().replace(microsecond=0)
    result = lm.index_codebase(repo.path, project="shop", progress=False)
    after = _now()
    assert edges(lm) == EDGES  # the fixture is what it says

    stats = lm.get_indexing_stats("shop")
    assert stats.projects == ("shop",)
    assert stats.roots == {"shop": str(repo.path.resolve())}
    assert (stats.files, stats.files_by_language, stats.files_with_syntax_errors) == (3, {"python": 2, "typescript": 1}, 0)
    assert stats.units_by_language == UNITS
    assert stats.units == 9 == result.units
    assert (stats.calls, stats.calls_resolved, stats.calls_unresolved) == (5, 4, 1)
    assert (stats.calls, stats.calls_resolved) == (result.calls, result.calls_resolved)
    assert (stats.embedding_model, stats.embedding_dim) == ("all-MiniLM-L6-v2", 384)
    assert stats.pending_embeddings == 0
    indexed_at = datetime.fromisoformat(stats.last_indexed_at["shop"].removesuffix("Z"))
    assert before <= indexed_at <= after

    # Unchanged files keep their time; an edited one moves it.
    time.sleep(1.1)
    assert lm.index_codebase(repo.path, project="shop", progress=False).files_indexed == 0
    assert lm.get_indexing_stats("shop").last_indexed_at == stats.last_indexed_at
    repo.write("app/main.py", MAIN + "\n\ndef extra():\n    return main()\n")
    lm.index_codebase(repo.path, project="shop", progress=False)
    edited = lm.get_indexing_stats("shop")
    assert edited.last_indexed_at["shop"] > stats.last_indexed_at["shop"]
    assert edited.units_by_language["python"]["function"] == 3
    assert (edited.calls, edited.calls_resolved) == (6, 5)


def test_stats_of_every_project_add_up_and_keep_times_and_roots_per_project(lm, repo, tmp_path):
    lm.index_codebase(repo.path, project="shop", progress=False)
    lm.index_codebase(repo.path / "web", project="web", progress=False)
    empty = tmp_path / "empty"
    empty.mkdir()
    lm.index_codebase(empty, project="empty", progress=False)

    every = lm.get_indexing_stats()
    assert every.projects == ("empty", "shop", "web")
    assert every.roots == {"empty": str(empty.resolve()), "shop": str(repo.path.resolve()),
                           "web": str((repo.path / "web").resolve())}
    assert every.files == 4 and every.files_by_language == {"python": 2, "typescript": 2}
    assert every.units_by_language == {"python": UNITS["python"], "typescript": {"function": 4, "module": 2}}
    assert (every.calls, every.calls_resolved, every.calls_unresolved) == (6, 5, 1)
    assert every.last_indexed_at["empty"] is None and every.last_indexed_at["shop"] and every.last_indexed_at["web"]

    web = lm.get_indexing_stats("web")
    assert (web.projects, web.files, web.units, web.calls, web.calls_resolved) == (("web",), 1, 3, 1, 1)
    assert web.last_indexed_at == {"web": every.last_indexed_at["web"]}
    nothing = lm.get_indexing_stats("empty")
    assert (nothing.files, nothing.units, nothing.calls, nothing.units_by_language) == (0, 0, 0, {})


def test_stats_of_a_file_with_no_code_and_of_unknown_projects(lm, repo):
    stats = lm.get_indexing_stats()
    assert (stats.projects, stats.files, stats.units, stats.calls, stats.last_indexed_at) == ((), 0, 0, 0, {})
    assert stats.embedding_model == "all-MiniLM-L6-v2"
    with pytest.raises(NotFoundError, match=r"project: 'shop' has no indexed code \(indexed projects: none yet\)"):
        lm.get_indexing_stats("shop")
    lm.index_codebase(repo.path, project="shop", progress=False)
    with pytest.raises(NotFoundError, match=r"project: 'nope' has no indexed code \(indexed projects: shop\)"):
        lm.get_indexing_stats("nope")
    for bad, message in ((5, "project: expected a string, got int 5"), ("  ", "project: must not be empty"),
                         ("x" * 201, "project: 201 characters is over the limit of 200")):
        with pytest.raises(ValidationError, match=message):
            lm.get_indexing_stats(bad)


def test_read_only_handle_reads_stats_but_cannot_remove(lm, repo, db_path):
    lm.index_codebase(repo.path, project="shop", progress=False)
    before = snapshot(lm, "shop")
    reader = learnmem.open(db_path, read_only=True)
    assert reader.get_indexing_stats() == lm.get_indexing_stats()
    with pytest.raises(LearnmemError, match="opened read-only"):
        reader.remove_file("app/config.py")
    assert snapshot(lm, "shop") == before


# --- remove_file ----------------------------------------------------------------------------------------


def test_removing_a_deleted_file_leaves_what_a_clean_index_holds(lm, repo, embedder, tmp_path):
    lm.index_codebase(repo.path, project="shop", progress=False)
    assert "app/config.py" in {hit.file_path for hit in lm.search_code("Config load parse", project="shop")}
    (repo.path / "app/config.py").unlink()
    result = lm.remove_file("app/config.py")
    assert result == RemoveFileResult(
        project="shop", file="app/config.py", units_removed=4, calls_removed=1, calls_unresolved=2,
        calls_reresolved=0, still_on_disk=False)
    assert_same_index(snapshot(lm, "shop"), clean(repo.path, tmp_path / "clean.duckdb", embedder))
    assert edges(lm) == {key: None if key[0] == "app/main.py" else target
                         for key, target in EDGES.items() if key[0] != "app/config.py"}
    assert "app/config.py" not in {hit.file_path for hit in lm.search_code("Config load parse", project="shop")}
    stats = lm.get_indexing_stats("shop")
    assert (stats.files, stats.units, stats.calls, stats.calls_resolved) == (2, 5, 4, 1)
    again = lm.index_codebase(repo.path, project="shop", progress=False)  # nothing left for it to do
    assert (again.files_indexed, again.files_deleted, again.files_unchanged) == (0, 0, 2)


def test_a_file_still_on_disk_comes_back_on_the_next_index_run(lm, repo):
    lm.index_codebase(repo.path, project="shop", progress=False)
    whole = snapshot(lm, "shop")
    result = lm.remove_file(str(repo.path / "app" / "main.py"))  # absolute
    assert (result.file, result.units_removed, result.calls_removed, result.still_on_disk) == ("app/main.py", 2, 3, True)
    assert lm.get_indexing_stats("shop").files == 2
    back = lm.index_codebase(repo.path, project="shop", progress=False)
    assert (back.files_indexed, back.files_unchanged, back.units_embedded) == (1, 2, 2)
    assert_same_index(snapshot(lm, "shop"), whole)  # nothing lost: the same rows, vectors included


def test_removal_resolves_other_files_calls_again(hashed_lm, tmp_path):
    """The later of two `import *` that both define a name binds it: once it is gone, the call means the other."""
    tree = tmp_path / "tree"
    write(tree, "pkg/a.py", "def f():\n    return 1\n")
    write(tree, "pkg/b.py", "def f():\n    return 2\n")
    write(tree, "main.py", "from pkg.a import *\nfrom pkg.b import *\n\n\ndef m():\n    return f()\n")
    hashed_lm.index_codebase(tree, project=PROJECT, progress=False)
    assert [(e.callee_module, e.callee_qualified_name) for e in hashed_lm.find_callees("main.m")] == [("pkg.b", "f")]
    (tree / "pkg/b.py").unlink()
    result = hashed_lm.remove_file("pkg/b.py", project=PROJECT)
    assert (result.units_removed, result.calls_removed, result.calls_unresolved, result.calls_reresolved) == (2, 0, 0, 1)
    assert [(e.callee_module, e.callee_qualified_name) for e in hashed_lm.find_callees("main.m")] == [("pkg.a", "f")]
    assert_same_index(snapshot(hashed_lm), clean_snapshot(tree, tmp_path / "clean.duckdb"))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_removing_deleted_files_one_by_one_equals_a_clean_index(data):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        tree = tmp / "tree"
        files = data.draw(st.lists(st.sampled_from(ALL_PATHS), min_size=2, max_size=7, unique=True), label="files")
        for path in files:
            write(tree, path, data.draw(source_for(path), label=path))
        lm = learnmem.open(tmp / "a.duckdb", embedder=HashingEmbedder())
        lm.index_codebase(tree, project=PROJECT, progress=False)
        for step, path in enumerate(data.draw(st.permutations(files), label="order")[:data.draw(st.integers(1, 3))]):
            before = snapshot(lm)
            form = data.draw(st.sampled_from(["relative", "dotted", "absolute"]), label="form")
            given_as = {"relative": path, "dotted": f"./{path}", "absolute": str(tree / path)}[form]
            (tree / path).unlink()
            result = lm.remove_file(given_as)
            after = snapshot(lm)
            assert_same_index(after, clean_snapshot(tree, tmp / f"clean{step}.duckdb"))
            assert (result.project, result.file, result.still_on_disk) == (PROJECT, path, False)
            assert result.units_removed == sum(row[0] == path for row in before["code_units"])
            assert result.calls_removed == sum(row[-2] == path for row in before["call_edges"])
            # The other files' edges that now point elsewhere, counted from the snapshots.
            others = Counter(row for row in before["call_edges"] if row[-2] != path)
            moved = Counter(after["call_edges"]) - others
            assert result.calls_unresolved == sum(n for row, n in moved.items() if row[3] is None)
            assert result.calls_reresolved == sum(n for row, n in moved.items() if row[3] is not None)
        again = lm.index_codebase(tree, project=PROJECT, progress=False)
        assert (again.files_indexed, again.files_deleted) == (0, 0)


def test_paths_are_relative_to_the_root_or_absolute_inside_it(hashed_lm, repo, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(repo.path, target_is_directory=True)
    hashed_lm.index_codebase(link, project="shop", progress=False)  # the root is recorded resolved
    assert hashed_lm.get_indexing_stats().roots == {"shop": str(repo.path.resolve())}
    assert hashed_lm.remove_file(str(link / "app" / "config.py")).file == "app/config.py"  # through the link
    assert hashed_lm.remove_file("app/./sub/../main.py", project="shop").file == "app/main.py"
    assert hashed_lm.remove_file(f"{repo.path}/web//util.ts").file == "web/util.ts"
    assert hashed_lm.get_indexing_stats().files == 0


def test_bad_paths_and_projects_are_refused_naming_field_value_and_what_is_allowed(hashed_lm, repo):
    root = str(repo.path.resolve())
    shown = re.escape(root)
    with pytest.raises(NotFoundError, match=r"path: 'app/config.py' is not in the code index: no code is indexed"):
        hashed_lm.remove_file("app/config.py")
    hashed_lm.index_codebase(repo.path, project="shop", progress=False)
    before = snapshot(hashed_lm, "shop")
    refusals = [
        (("config.py",), NotFoundError,
         (r"path: 'config.py' is not an indexed file of project 'shop' \(paths are relative to the project's root; "
          r"get_indexing_stats counts the files\); indexed files of that name: app/config.py")),
        (("app/nope.py",), NotFoundError, r"path: 'app/nope.py' is not an indexed file of project 'shop'"),
        ((f"{root}/app/nope.py",), NotFoundError, rf"path: '{shown}/app/nope.py' is not an indexed file of project"),
        (("app/config.py", "nope"), NotFoundError, r"project: 'nope' has no indexed code \(indexed projects: shop\)"),
        (("../other/config.py",), ValidationError,
         r"path: '../other/config.py' is not a file inside the project root; give a file path relative to the root"),
        (("app/../../config.py",), ValidationError, r"path: 'app/../../config.py' is not a file inside the project"),
        ((".",), ValidationError, r"path: '.' is not a file inside the project root"),
        (("/etc/passwd",), ValidationError,
         (rf"path: '/etc/passwd' is not a file inside the root of any indexed project \(shop: {shown}\); give a "
          r"path inside it, or relative to it")),
        ((root,), ValidationError, r"is not a file inside the root of any indexed project"),
        (("/etc/passwd", "shop"), ValidationError, rf"inside the root of project 'shop' \(shop: {shown}\)"),
        (("",), ValidationError, r"path: must not be empty"),
        ((None,), ValidationError, r"path: expected a string, got NoneType None"),
        (("x" * 4097,), ValidationError, r"path: 4097 characters is over the limit of 4096"),
        (("app/config.py", 7), ValidationError, r"project: expected a string, got int 7"),
    ]
    for args, error, message in refusals:
        with pytest.raises(error, match=message):
            hashed_lm.remove_file(*args)
    assert snapshot(hashed_lm, "shop") == before  # nothing changed by any of them


def test_a_path_indexed_in_several_projects_needs_its_project(hashed_lm, repo):
    hashed_lm.index_codebase(repo.path, project="shop", progress=False)
    hashed_lm.index_codebase(repo.path, project="copy", progress=False)
    hashed_lm.index_codebase(repo.path / "web", project="web", progress=False)
    shop = snapshot(hashed_lm, "shop")
    with pytest.raises(ValidationError, match=r"project: 'app/config.py' is indexed in several projects "
                                              r"\(copy, shop\); name one"):
        hashed_lm.remove_file("app/config.py")
    with pytest.raises(ValidationError, match=r"indexed in several projects \(copy, shop, web\)"):
        hashed_lm.remove_file(str(repo.path / "web/util.ts"))  # inside all three roots
    assert hashed_lm.remove_file("app/config.py", project="copy").project == "copy"
    assert snapshot(hashed_lm, "shop") == shop
    assert hashed_lm.remove_file("util.ts").project == "web"  # the only project with that path


def test_a_project_indexed_before_roots_were_recorded(hashed_lm, repo, db_path):
    hashed_lm.index_codebase(repo.path, project="shop", progress=False)
    con = duckdb.connect(str(db_path))  # as an older learnmem left it: no root in meta
    con.execute("DELETE FROM meta WHERE key LIKE 'code_root:%'")
    con.close()
    assert hashed_lm.get_indexing_stats().roots == {"shop": None}
    with pytest.raises(ValidationError, match=r"path: '/.*/app/main.py' is absolute, but project 'shop' was indexed "
                                              r"before learnmem recorded roots: give the path relative to its root"):
        hashed_lm.remove_file(str(repo.path / "app/main.py"), project="shop")
    result = hashed_lm.remove_file("app/main.py")
    assert (result.file, result.still_on_disk) == ("app/main.py", None)
    hashed_lm.index_codebase(repo.path, project="shop", progress=False)  # the next run records it
    assert hashed_lm.get_indexing_stats().roots == {"shop": str(repo.path.resolve())}


# --- all or nothing ----------------------------------------------------------------------------------------

KILLED = """
import os, signal, sys
import learnmem
from learnmem.code import indexer, resolve

def die(*args):
    os.kill(os.getpid(), signal.SIGKILL)

if sys.argv[3] == "before-resolve":
    resolve.resolve_calls = die
else:  # the new edges written, the transaction not yet committed
    real = indexer._replace_edges
    indexer._replace_edges = lambda con, project, edges: (real(con, project, edges), die())
learnmem.open(sys.argv[1]).remove_file(sys.argv[2])
"""


@pytest.mark.parametrize("moment", ["before-resolve", "before-commit"])
def test_remove_file_killed_mid_transaction_leaves_the_index_as_it_was(lm, repo, db_path, embedder, moment):
    lm.index_codebase(repo.path, project="shop", progress=False)
    before = snapshot(lm, "shop")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    killed = subprocess.run([sys.executable, "-c", KILLED, str(db_path), "app/config.py", moment], env=env, check=False,
                            capture_output=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL, killed.stderr.decode()
    reopened = learnmem.open(db_path, embedder=embedder)
    assert snapshot(reopened, "shop") == before
    assert reopened.remove_file("app/config.py").units_removed == 4  # and it still works


def test_remove_file_failing_mid_transaction_rolls_back(hashed_lm, repo, monkeypatch):
    from learnmem.code import resolve

    hashed_lm.index_codebase(repo.path, project="shop", progress=False)
    before = snapshot(hashed_lm, "shop")

    def failing(files):
        raise RuntimeError("resolver died")

    monkeypatch.setattr(resolve, "resolve_calls", failing)
    with pytest.raises(RuntimeError, match="resolver died"):
        hashed_lm.remove_file("app/config.py")
    assert snapshot(hashed_lm, "shop") == before


# --- the CLI and MCP -----------------------------------------------------------------------------------------


def test_cli_index_stats_and_remove_file(lm, repo, db_path):
    from tests.cli.test_cli import _assert_one_line_error, _json, _run

    lm.index_codebase(repo.path, project="shop", progress=False)
    db = str(db_path)
    stats = _json("index-stats", "--db", db)
    assert stats == json.loads(json.dumps(dataclasses.asdict(lm.get_indexing_stats())))
    assert stats["units_by_language"] == UNITS and stats["calls_unresolved"] == 1
    text = _run("index-stats", "--project", "shop", "--db", db).stdout
    assert text.startswith("shop: 3 files (python 2, typescript 1), 9 units, 5 calls (4 resolved, 1 unresolved), "
                           "0 pending embeddings\n")
    assert "  python: class 1, function 2, method 1, module 2\n" in text
    assert "  model: all-MiniLM-L6-v2 (384-d)" in text

    removed = _json("remove-file", "app/config.py", "--project", "shop", "--db", db)
    assert removed == {"project": "shop", "file": "app/config.py", "units_removed": 4, "calls_removed": 1,
                       "calls_unresolved": 2, "calls_reresolved": 0, "still_on_disk": True}
    assert _json("index-stats", "--project", "shop", "--db", db)["files"] == 2
    text = _run("remove-file", str(repo.path / "web/util.ts"), "--db", db).stdout
    assert text.startswith("shop: removed web/util.ts (3 units, 1 call sites)")
    assert "still on disk: the next `learnmem index` adds it back" in text

    _assert_one_line_error(_run("remove-file", "app/config.py", "--db", db, ok=False), 2,
                           "path: 'app/config.py' is not an indexed file of project 'shop'")
    _assert_one_line_error(_run("remove-file", "../x.py", "--db", db, ok=False), 2, "path: '../x.py'",
                           "relative to the root")
    _assert_one_line_error(_run("index-stats", "--project", "nope", "--db", db, ok=False), 2,
                           "project: 'nope' has no indexed code (indexed projects: shop)")


def test_mcp_tools_answer_results_and_documented_errors(lm, repo, db_path, tmp_path):
    from tests.mcp_adapter.test_mcp import _call, _ok, _run

    lm.index_codebase(repo.path, project="shop", progress=False)
    expected = json.loads(json.dumps(dataclasses.asdict(lm.get_indexing_stats())))

    async def scenario(session) -> None:
        assert await _ok(session, "get_indexing_stats") == expected
        removed = await _ok(session, "remove_file", path="app/main.py", project="shop")
        assert (removed["file"], removed["units_removed"], removed["calls_removed"]) == ("app/main.py", 2, 3)
        assert (await _ok(session, "get_indexing_stats", project="shop"))["files"] == 2
        for tool, arguments, kind in (("remove_file", {"path": "app/main.py"}, "not_found"),
                                      ("remove_file", {"path": "/etc/passwd"}, "validation_error"),
                                      ("get_indexing_stats", {"project": "nope"}, "not_found")):
            error, is_error = await _call(session, tool, **arguments)
            assert is_error and error["error"]["type"] == kind, (tool, error)

    _run(db_path, tmp_path, scenario)
