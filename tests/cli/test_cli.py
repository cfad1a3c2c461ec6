"""The `learnmem` command, run as real subprocesses against a real file and the real model."""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import learnmem
from learnmem.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, cwd: Path | None = None, ok: bool = True) -> subprocess.CompletedProcess[str]:
    """Run `python -m learnmem.cli ARGS`; by default assert it succeeded and wrote nothing to stderr."""
    env = dict(os.environ)
    env.pop("LEARNMEM_DB", None)
    env.pop("LEARNMEM_DEBUG", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-m", "learnmem.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=env,
        timeout=120,
    )
    if ok:
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stderr
    return proc


def _json(*args: str) -> object:
    return json.loads(_run(*args, "--json").stdout)


def _assert_one_line_error(proc: subprocess.CompletedProcess[str], status: int, *fragments: str) -> None:
    """A user error: the given exit status, no traceback, one `learnmem: error:` line naming the fragments."""
    assert proc.returncode == status, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("learnmem: error: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


@pytest.fixture(scope="module")
def category() -> str:
    import learnmem

    return learnmem.MEMORY_CATEGORIES[0]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory, category: str) -> tuple[Path, dict[str, str]]:
    """One file holding three memories, stored through the CLI (human output for the first)."""
    path = tmp_path_factory.mktemp("cli") / "memory.duckdb"
    first = _run("remember", "Format Python with ruff, never black.", "--category", category,
                 "--importance", "0.9", "--tag", "style", "--tag", "tooling", "--db", str(path))
    assert first.stdout.startswith("Remembered "), first.stdout
    ids = {"ruff": first.stdout.split()[1]}
    # --db and --json before the subcommand work as well as after it.
    second = json.loads(_run("--db", str(path), "--json", "remember", "Releases are cut on Tuesdays.",
                             "-c", category).stdout)
    assert second["duplicate"] is False
    ids["release"] = second["id"]
    third = _json("remember", "The CI runs on two cores, keep test runs short.", "-c", category,
                  "--tag", "ci", "--db", str(path))
    ids["ci"] = third["id"]
    return path, ids


def test_remember_twice_reports_duplicate(db: tuple[Path, dict[str, str]], category: str) -> None:
    path, ids = db
    human = _run("remember", "Format Python with ruff, never black.", "-c", category, "--db", str(path))
    assert human.stdout.strip() == f"Already remembered as {ids['ruff']}"
    data = _json("remember", "Format Python with ruff, never black.", "-c", category, "--db", str(path))
    assert data["duplicate"] is True and data["id"] == ids["ruff"]


def test_recall_finds_by_meaning(db: tuple[Path, dict[str, str]]) -> None:
    path, ids = db
    data = _json("recall", "which code formatter do we use?", "--db", str(path), "--limit", "2")
    assert data["count"] == len(data["results"]) <= 2
    assert data["results"][0]["id"] == ids["ruff"]
    assert set(data["results"][0]) == {"id", "content", "category", "importance", "tags", "created_at",
                                       "superseded_by", "commit_sha", "sources", "spec", "phase", "session", "speaker",
                                       "said_at", "score"}

    human = _run("recall", "which code formatter do we use?", "--db", str(path), "-n", "1").stdout
    lines = human.strip().splitlines()
    assert len(lines) == 1
    assert ids["ruff"] in lines[0] and "ruff, never black" in lines[0] and "#style" in lines[0]

    tagged = _json("recall", "when do we release?", "--tag", "ci", "--db", str(path))
    assert [hit["id"] for hit in tagged["results"]] == [ids["ci"]]


def test_memories_lists_and_pages(db: tuple[Path, dict[str, str]]) -> None:
    path, ids = db
    data = _json("memories", "--db", str(path))
    assert data["count"] == 3
    assert {memory["id"] for memory in data["results"]} == set(ids.values())
    page = _json("memories", "--db", str(path), "--limit", "2", "--offset", "2")
    assert page["count"] == 1
    tagged = _json("memories", "--db", str(path), "--tag", "style")
    assert [memory["id"] for memory in tagged["results"]] == [ids["ruff"]]

    human = _run("memories", "--db", str(path)).stdout.strip().splitlines()
    assert len(human) == 3
    assert any(ids["release"] in line and "Releases are cut on Tuesdays." in line for line in human)


def test_sql_prints_a_table_or_json(db: tuple[Path, dict[str, str]]) -> None:
    path, ids = db
    human = _run("sql", "SELECT id, importance FROM memories ORDER BY importance DESC, id", "--db", str(path))
    lines = human.stdout.strip().splitlines()
    assert lines[0].split() == ["id", "importance"]
    assert set(lines[1]) <= {"-", " "}
    assert lines[2].split()[0] == ids["ruff"]
    assert lines[-1] == "(3 rows)"
    # Columns are aligned: every row is as wide as the rule under the header (modulo stripped padding).
    assert all(len(line) <= len(lines[1]) for line in lines[2:-1])

    rows = _json("sql", "SELECT count(*) AS n, max(importance) AS top FROM memories", "--db", str(path))
    assert rows == [{"n": 3, "top": pytest.approx(0.9)}]


def test_info_describes_the_file(db: tuple[Path, dict[str, str]]) -> None:
    path, _ = db
    data = _json("info", "--db", str(path))
    assert Path(data["path"]).resolve() == path.resolve()
    assert data["file_bytes"] > 0
    assert data["embedding_dim"] == 384
    assert "MiniLM" in data["embedding_model"]
    assert data["counts"]["memories"] == 3

    human = _run("info", "--db", str(path)).stdout
    assert str(path.name) in human and "MiniLM" in human and "memories" in human


def test_forget_then_errors(db: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    # Uses its own memory so the module's shared file keeps its three.
    path, _ = db
    scratch = tmp_path / "scratch.duckdb"
    import learnmem

    category = learnmem.MEMORY_CATEGORIES[0]
    memory_id = _json("remember", "Temporary note.", "-c", category, "--db", str(scratch))["id"]
    assert _run("forget", memory_id, "--db", str(scratch)).stdout.strip() == f"Forgot {memory_id}"
    assert _json("memories", "--db", str(scratch))["count"] == 0

    # Forgetting again: the library's not-found error, as one line, exit 2.
    _assert_one_line_error(_run("forget", memory_id, "--db", str(scratch), ok=False), 2, memory_id)
    assert _json("memories", "--db", str(path))["count"] == 3
    assert _run("restore", memory_id, "--db", str(scratch)).stdout.strip() == f"Restored {memory_id}"
    newer = _json("supersede", memory_id, "Permanent note.", "--db", str(scratch))
    assert newer["superseded"] == memory_id
    assert [m["id"] for m in _json("memories", "--db", str(scratch))["results"]] == [newer["id"]]
    assert _json("forget", "--all", "--hard", "--db", str(scratch)) == {
        "ids": [memory_id, newer["id"]], "count": 2, "hard": True}
    _assert_one_line_error(_run("forget", "--db", str(scratch), ok=False), 2, "forget: give one id")


def test_user_errors_are_one_line(db: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    existing = str(db[0])
    db = str(tmp_path / "errors.duckdb")
    # Reading a file that does not exist does not create it.
    _assert_one_line_error(_run("memories", "--db", db, ok=False), 2, db)
    assert not Path(db).exists()
    # A library validation error names the field and the bad value.
    _assert_one_line_error(_run("remember", "x", "--category", "gossip", "--db", db, ok=False), 2, "category", "gossip")
    # Argparse errors: missing argument, bad type, unknown command.
    _assert_one_line_error(_run("remember", "x", "--db", db, ok=False), 2, "--category")
    _assert_one_line_error(_run("recall", "x", "--limit", "many", "--db", db, ok=False), 2, "many")
    _assert_one_line_error(_run("frobnicate", ok=False), 2, "frobnicate")
    _assert_one_line_error(_run(ok=False), 2)
    # SQL is read-only and its errors are the user's, not a crash.
    _assert_one_line_error(_run("sql", "DELETE FROM memories", "--db", existing, ok=False), 2, "DELETE")
    _assert_one_line_error(_run("sql", "SELECT * FROM no_such_table", "--db", existing, ok=False), 2, "no_such_table")
    # A file that is not a DuckDB database: still one line, never a traceback.
    junk = tmp_path / "junk.duckdb"
    junk.write_text("not a database")
    proc = _run("memories", "--db", str(junk), ok=False)
    assert proc.returncode in (1, 2)
    _assert_one_line_error(proc, proc.returncode, str(junk))


def test_init_creates_the_project_file(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    data = json.loads(_run("init", "--json", cwd=project).stdout)
    created = Path(data["path"])
    assert created.exists() and created.parent.name == ".learnmem"
    assert ".learnmem/" in (project / ".gitignore").read_text()
    human = _run("init", "--dir", str(project)).stdout
    assert str(created.parent) in human or str(created) in human


def _subcommands(parser: argparse.ArgumentParser | None = None, prefix: str = "") -> list[str]:
    """The subcommand names ("git blame" for nested ones), read from the parser itself."""
    actions = [a for a in (parser or build_parser())._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(actions) <= 1
    names = []
    for name, child in (actions[0].choices.items() if actions else ()):
        names.append(prefix + name)
        names.extend(_subcommands(child, prefix + name + " "))
    return sorted(names)


def test_every_subcommand_is_documented_in_the_manual() -> None:
    # The README and docs/, whose CLI reference (docs/cli.md) is generated from the parser and must be kept
    # current (tests/docs/test_docs_reference.py): a new command is documented once the page is regenerated.
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    assert ROOT / "docs" / "cli.md" in pages, "docs/cli.md, the CLI reference, is missing"
    manual = "\n".join(page.read_text(encoding="utf-8") for page in pages)
    missing = [name for name in _subcommands() if f"learnmem {name}" not in manual]
    assert not missing, f"README.md and docs/ do not document: {', '.join('learnmem ' + m for m in missing)}"


def test_reembed_command_moves_the_file_to_the_current_model(tmp_path):
    import learnmem
    from learnmem.embedding.embed import HashingEmbedder

    db = tmp_path / "moved.duckdb"
    learnmem.open(db, embedder=HashingEmbedder()).store_memory("Deploys happen on Tuesdays.", "fact")
    assert _json("reembed", "--db", str(db)) == {"reembedded": 1, "embedding_model": "all-MiniLM-L6-v2", "embedding_dim": 384}


def test_index_then_callers_and_callees(tmp_path):
    source = tmp_path / "src"
    (source / "app").mkdir(parents=True)
    (source / "app" / "__init__.py").write_text("")
    (source / "app" / "util.py").write_text("def helper():\n    return 1\n")
    (source / "app" / "main.py").write_text("from .util import helper\n\n\ndef main():\n    return helper()\n")
    db = str(tmp_path / "code.duckdb")
    result = _json("index", str(source), "--project", "demo", "--db", db)
    assert (result["project"], result["files_indexed"], result["calls_resolved"]) == ("demo", 3, 1)
    again = _run("index", str(source), "--project", "demo", "--db", db).stdout
    assert "0 files indexed, 3 unchanged" in again
    callers = _json("callers", "helper", "--db", db)["results"]
    assert [(c["caller_module"], c["caller_qualified_name"], c["callee_module"]) for c in callers] == [
        ("app.main", "main", "app.util")]
    assert "app.main.main -> app.util.helper" in _run("callees", "app.main.main", "--db", db).stdout
    missing = _run("index", str(tmp_path / "nope"), "--db", db, ok=False)
    assert missing.returncode == 2 and "does not exist" in missing.stderr


def test_git_commands_index_and_report_this_repository(tmp_path):
    """`learnmem git ...` on this project's own history: index, then each report, text and JSON."""
    db = str(tmp_path / "git.duckdb")
    indexed = _json("git", "index", str(ROOT), "--no-embed", "--db", db)
    assert indexed["commits_added"] > 0 and indexed["commits_total"] == indexed["commits_added"]
    assert _json("git", "index", str(ROOT), "--no-embed", "--db", db)["commits_added"] == 0
    history = _json("git", "history", "README.md", "--limit", "3", "--db", db)["results"]
    assert 1 <= len(history) <= 3 and all(entry["path"] == "README.md" for entry in history)
    spots = _json("git", "hotspots", "--days", "36500", "--as-of", "2100-01-01", "--limit", "5", "--db", db)["results"]
    assert spots and [s["commits"] for s in spots] == sorted((s["commits"] for s in spots), reverse=True)
    blame = _json("git", "blame", "pyproject.toml", "--start", "1", "--end", "3", "--db", db)["results"]
    assert blame[0]["start_line"] == 1 and blame[-1]["end_line"] == 3
    assert "README.md" in _run("git", "history", "README.md", "--db", db).stdout
    _assert_one_line_error(_run("git", "history", "no/such/file.py", "--db", db, ok=False), 2, "no/such/file.py")
    _assert_one_line_error(_run("git", "index", str(tmp_path), "--db", db, ok=False), 2, "repo_path")


def test_ghap_session_through_the_cli(tmp_path):
    """`learnmem ghap ...`: start, update, status, resolve, list, search, export, import, abandon; JSON and text."""
    db = str(tmp_path / "ghap.duckdb")
    started = _json("ghap", "start", "--domain", "testing", "--strategy", "systematic-elimination",
                    "--goal", "Fix the flaky order tests", "--hypothesis", "Two tests share a temp directory",
                    "--action", "Give each test its own tmp_path", "--prediction", "The order tests pass 20 of 20 runs",
                    "--db", db)
    assert started["id"].startswith("ghap_") and started["warning"] is None and started["domain"] == "testing"
    status = _json("ghap", "status", "--db", db)
    assert (status["has_active"], status["id"], status["iteration_count"]) == (True, started["id"], 1)
    updated = _json("ghap", "update", "--hypothesis", "The tests share one Redis database and race on its keys",
                    "--action", "Flush a per-test Redis database", "--note", "tmp dirs were already separate",
                    "--db", db)
    assert updated == {"success": True, "iteration_count": 2}
    human = _run("ghap", "status", "--db", db).stdout
    assert started["id"] in human and "iteration 2" in human and "Redis" in human

    resolved = _json("ghap", "resolve", "--status", "falsified", "--result", "Still failing 3 of 20 with Redis flushed",
                     "--surprise", "The failures follow the test order, not the data",
                     "--root-cause-category", "test-isolation",
                     "--root-cause-description", "A module-level cache keeps results between tests",
                     "--what-worked", "Clearing the module cache in an autouse fixture",
                     "--takeaway", "Look for module state before shared services", "--db", db)
    assert (resolved["id"], resolved["status"], resolved["confidence_tier"]) == (started["id"], "falsified", "silver")
    assert _json("ghap", "status", "--db", db)["has_active"] is False
    assert "No active GHAP entry" in _run("ghap", "status", "--db", db).stdout

    listed = _json("ghap", "list", "--outcome", "falsified", "--since", "2000-01-01", "--db", db)
    assert [entry["id"] for entry in listed["results"]] == [started["id"]]
    assert started["id"] in _run("ghap", "list", "--db", db).stdout
    hits = _json("ghap", "search", "module cache kept between tests", "--axis", "root_cause", "--db", db)["results"]
    assert hits[0]["ghap_id"] == started["id"]
    assert hits[0]["root_cause"] == {"category": "test-isolation",
                                     "description": "A module-level cache keeps results between tests"}

    # Export: to a file (JSON summary) or to stdout (the lines themselves); import into another file.
    out = tmp_path / "ghap.jsonl"
    assert _json("ghap", "export", "--out", str(out), "--db", db) == {"exported": 1, "path": str(out)}
    assert _run("ghap", "export", "--db", db).stdout == out.read_text(encoding="utf-8")
    (entry,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert entry["id"] == started["id"] and entry["iteration_count"] == 2 and len(entry["history"]) == 1
    copy = str(tmp_path / "copy.duckdb")
    imported = _json("ghap", "import", str(out), "--db", copy)
    assert imported == {"imported": 1, "skipped_duplicates": 0, "errors": [], "warnings": []}
    assert _run("ghap", "export", "--db", copy).stdout == out.read_text(encoding="utf-8")
    again = _run("ghap", "import", str(out), "--db", copy).stdout
    assert again.startswith("Imported 0 entries (1 duplicates skipped, 0 lines rejected)")

    # Abandon, then the one-line errors.
    _run("ghap", "start", "--domain", "feature", "--strategy", "research-first", "--goal", "Add CSV export",
         "--hypothesis", "The csv module quotes embedded commas", "--action", "Use csv.writer",
         "--prediction", "Cells with commas open intact", "--db", db)
    assert _run("ghap", "abandon", "the feature was dropped", "--db", db).stdout.startswith("Abandoned ghap_")
    _assert_one_line_error(_run("ghap", "update", "--note", "x", "--db", db, ok=False), 2, "start_ghap")
    _assert_one_line_error(_run("ghap", "resolve", "--status", "falsified", "--result", "x", "--db", db, ok=False),
                           2, "surprise")
    _assert_one_line_error(_run("ghap", "start", "--domain", "astrology", "--strategy", "ask-user", "--goal", "g",
                                "--hypothesis", "h", "--action", "a", "--prediction", "p", "--db", db, ok=False),
                           2, "domain", "astrology")
    _assert_one_line_error(_run("ghap", "list", "--outcome", "maybe", "--db", db, ok=False), 2, "outcome", "maybe")
    _assert_one_line_error(_run("ghap", "import", str(tmp_path / "nope.jsonl"), "--db", db, ok=False), 2, "nope.jsonl")

    # An entry left active by an earlier session is adopted into the current one.
    orphan = _json("ghap", "start", "--domain", "feature", "--strategy", "research-first", "--goal", "Add XLSX export",
                   "--hypothesis", "openpyxl streams rows", "--action", "Use write_only mode",
                   "--prediction", "Memory stays flat", "--db", db)
    _assert_one_line_error(_run("ghap", "adopt", "--db", db, ok=False), 2, "orphan")  # its own session: none
    learnmem.open(db).start_session()  # a new conversation
    adopted = _json("ghap", "adopt", "--db", db)
    assert adopted["id"] == orphan["id"] and adopted["session_id"] != orphan.get("session_id")
    assert _run("ghap", "adopt", "--db", db, ok=False).returncode == 2


def test_ghap_status_imports_no_heavy_module(tmp_path):
    """The hook path: `learnmem ghap status` loads DuckDB, not the facade, numpy, pyarrow, the model, tree-sitter
    or dulwich (what it costs is measured, not asserted: tests never assert on wall-clock time)."""
    db = str(tmp_path / "status.duckdb")
    _run("ghap", "start", "--domain", "debugging", "--strategy", "read-the-error", "--goal", "Fix the CI import error",
         "--hypothesis", "The image lacks libffi headers", "--action", "Install libffi-dev",
         "--prediction", "pip install cffi succeeds", "--db", db)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    # What the process holds at the end (an import the CLI blocks, such as pandas, is attempted but not loaded).
    report = ("import sys\nfrom learnmem.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
              "print('MODULES', *sorted(sys.modules))")
    proc = subprocess.run([sys.executable, "-c", report, "ghap", "status", "--db", db],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Fix the CI import error" in proc.stdout
    imported = set(proc.stdout.split("MODULES", 1)[1].split())
    # numpy and pandas too: DuckDB's client tries them on a process's first bound parameter (store._host binds
    # one at once); the CLI blocks pandas, and numpy must not come with it.
    heavy = {name for name in imported
             if name.split(".")[0] in ("numpy", "pandas", "pyarrow", "onnxruntime", "tokenizers", "tree_sitter",
                                       "tree_sitter_language_pack", "dulwich")
             or name in ("learnmem.api", "learnmem.learning.experiences", "learnmem.memory.memories")}
    assert not heavy, sorted(heavy)
    assert "duckdb" in imported and "learnmem.learning.ghap" in imported
