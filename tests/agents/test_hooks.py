"""The Claude Code hooks: `learnmem hook <event>` as real processes with JSON on stdin, on real files.

The parsing rules (events, test/build commands, runner summaries, prompts) are checked as functions; what
a hook does to the file and prints is checked through `python -m learnmem.cli hook ...` subprocesses.
Nothing here asserts on time (bench/hooks measures that).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

import learnmem
from learnmem.learning import ghap
from learnmem.agents import hook_server, hook_socket, hooks, prompt_refs, test_runs
from learnmem.context import oneshot
from learnmem.storage import store
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import ValidationError

HOOK_ENV = ("LEARNMEM_DB", "CLAUDE_PROJECT_DIR", "LEARNMEM_CHECKIN_EVERY", "LEARNMEM_HOOK_CONTEXT_TOKENS",
            "LEARNMEM_HOOK_PROMPT_TOKENS", "LEARNMEM_DEBUG")
GHAP = {"domain": "debugging", "strategy": "systematic-elimination", "goal": "Fix the flaky auth test",
        "hypothesis": "Slow network responses exceed the 30 s timeout", "action": "Raise the timeout to 60 s",
        "prediction": "Auth failures stop"}


# -- helpers ---------------------------------------------------------------------------------------------

ASKED: list = []  # run_hook's events that a server for the project's file would answer


def run_hook(event: str | None, payload=None, *, cwd: Path, env: dict | None = None, raw: str | None = None,
             args: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """`python -m learnmem.cli hook <event>` with the payload as JSON on stdin."""
    environment = {key: value for key, value in os.environ.items() if key not in HOOK_ENV}
    environment.update(env or {})
    data = raw if raw is not None else json.dumps(payload if payload is not None else {})
    if not args and "LEARNMEM_DB" not in environment and (cwd / ".learnmem" / "learnmem.duckdb").is_file():
        ASKED.append(event)  # a hook the project's server, when one serves, must answer
    command = [sys.executable, "-m", "learnmem.cli", "hook", *args, *([event] if event else [])]
    return subprocess.run(command, input=data, capture_output=True, text=True, cwd=cwd, env=environment,
                          timeout=120, check=False)


def context_of(done: subprocess.CompletedProcess, event: str) -> str:
    """The additionalContext of a hook's answer, checking the answer's shape on the way."""
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == {"hookSpecificOutput"}
    assert set(answer["hookSpecificOutput"]) == {"hookEventName", "additionalContext"}
    assert answer["hookSpecificOutput"]["hookEventName"] == event
    return answer["hookSpecificOutput"]["additionalContext"]


def silent(done: subprocess.CompletedProcess) -> bool:
    return done.returncode == 0 and done.stdout == ""


@dataclass
class Project:
    root: Path
    db: Path
    lm: learnmem.Learnmem
    mode: str = "one-shot"  # or "served": this process answers the hooks (see the fixture)

    def payload(self, **fields) -> dict:
        return {"session_id": "claude-session-1", "cwd": str(self.root), **fields}

    def hook(self, event: str, env: dict | None = None, **fields) -> subprocess.CompletedProcess:
        return run_hook(event, self.payload(**fields), cwd=self.root, env=env)

    def log(self) -> str:
        log = self.db.parent / "hooks.log"
        return log.read_text(encoding="utf-8") if log.exists() else ""

    def rows(self, query: str) -> list[tuple]:
        return self.lm.sql(query).fetchall()


@pytest.fixture(params=["one-shot", "served"])
def project(request, tmp_path: Path, embedder) -> Project:
    """A git project (a `.git` folder marks its root) with `.learnmem/learnmem.duckdb`, the real model's.

    Each test runs twice: with the hook processes answering themselves, and with this process serving them
    warm over the socket, as the MCP server does (learnmem.agents.hook_socket); the answers must not differ.
    Served, every hook that reached the file must have been answered by the server."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    db = root / ".learnmem" / "learnmem.duckdb"
    project = Project(root, db, learnmem.open(db, embedder=embedder))
    if request.param == "one-shot":
        yield project
        return
    project.mode = "served"
    paths = hooks.HookPaths(db)
    served: list[str | None] = []

    def answer(event, raw, environ):
        served.append(event)
        return hooks.serve(project.lm, paths, event, raw, environ)

    server = hook_server.HookServer(paths, answer).start()
    ASKED.clear()
    try:
        yield project
    finally:
        server.close()
    assert not os.path.exists(hook_socket.socket_path(db))
    unserved = Counter(ASKED) - Counter(served)  # tests that spawn hooks themselves add to `served` only
    assert not unserved, f"hooks answered themselves while the server ran: {dict(unserved)}"


def tool_call(tool: str = "Read", **tool_input) -> dict:
    return {"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input or {"file_path": "a.py"}}


# -- events and paths ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, expected", [
    ("session-start", "SessionStart"), ("SessionStart", "SessionStart"), ("session_start", "SessionStart"),
    ("USER-PROMPT-SUBMIT", "UserPromptSubmit"), ("PreToolUse", "PreToolUse"), ("post-tool-use", "PostToolUse"),
    ("PostToolUseFailure", "PostToolUseFailure"), ("session-end", "SessionEnd"), ("SessionEnd", "SessionEnd"),
    ("stop", "Stop"), ("Stop", "Stop"), ("notification", None), ("", None), (None, None), ("pre tool use", None),
])
def test_event_names(name, expected):
    assert hooks.canonical_event(name) == expected


def test_the_file_is_the_projects_default_one(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    deep = tmp_path / "src" / "deep"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    monkeypatch.delenv("LEARNMEM_DB", raising=False)
    assert hooks.locate(None, {}, {}).db == store.default_path() == tmp_path / ".learnmem" / "learnmem.duckdb"
    assert hooks.project_root(deep) == store.project_root(deep) == deep.parent.parent  # one rule, one place
    # The payload's cwd wins over the process's directory; $LEARNMEM_DB and --db over both.
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    assert hooks.locate(None, {"cwd": str(other)}, {}).db == other / ".learnmem" / "learnmem.duckdb"
    assert hooks.locate(None, {"cwd": str(other)}, {"LEARNMEM_DB": str(tmp_path / "x.duckdb")}).db == \
        tmp_path / "x.duckdb"
    assert hooks.locate(str(tmp_path / "y.duckdb"), {}, {"LEARNMEM_DB": str(tmp_path / "x.duckdb")}).db == \
        tmp_path / "y.duckdb"
    # A cwd without a file falls through to $CLAUDE_PROJECT_DIR when that one has one.
    (other / ".learnmem").mkdir()
    (other / ".learnmem" / "learnmem.duckdb").touch()
    found = hooks.locate(None, {"cwd": str(deep)}, {"CLAUDE_PROJECT_DIR": str(other)})
    assert found.db == other / ".learnmem" / "learnmem.duckdb"
    assert found.log == other / ".learnmem" / "hooks.log"


def test_the_log_stays_bounded(tmp_path):
    paths = hooks.HookPaths(tmp_path / "learnmem.duckdb")
    paths.log.write_text("old line\n" * (hooks.LOG_MAX_BYTES // 9 + 10), encoding="utf-8")
    hooks._log(paths, "PreToolUse", "the newest problem")
    text = paths.log.read_text(encoding="utf-8")
    assert len(text.encode()) <= hooks.LOG_MAX_BYTES // 2 + 200
    assert text.splitlines()[-1].endswith(f"PreToolUse pid={os.getpid()} the newest problem")
    assert text.startswith("old line\n")  # cut at a line boundary


# -- test and build commands -----------------------------------------------------------------------------


@pytest.mark.parametrize("command, kind, program", [
    ("pytest -q", "test", "pytest"),
    ("python -m pytest tests/test_auth.py -x", "test", "pytest"),
    (".venv/bin/python -m pytest -q tests", "test", "pytest"),
    ("/usr/bin/python3.11 -m unittest discover", "test", "unittest"),
    ("PYTHONPATH=src pytest", "test", "pytest"),
    ("env CI=1 FOO=bar pytest -k auth", "test", "pytest"),
    ("timeout 300 pytest -x", "test", "pytest"),
    ("time make test", "test", "make"),
    ("uv run pytest -q", "test", "pytest"),
    ("poetry run python -m pytest", "test", "pytest"),
    ("cd backend && pytest", "test", "pytest"),
    ("npm test", "test", "npm"),
    ("npm t", "test", "npm"),
    ("npm run test:unit -- --watch=false", "test", "npm"),
    ("pnpm test", "test", "pnpm"),
    ("yarn test --ci", "test", "yarn"),
    ("bun test", "test", "bun"),
    ("npm run build", "build", "npm"),
    ("pnpm build", "build", "pnpm"),
    ("npx jest src/", "test", "jest"),
    ("npx vitest run", "test", "vitest"),
    ("cargo test --release", "test", "cargo"),
    ("cargo +nightly build", "build", "cargo"),
    ("cargo nextest run", "test", "cargo"),
    ("go test ./...", "test", "go"),
    ("go build ./cmd/app", "build", "go"),
    ("make test", "test", "make"),
    ("make -C sub test-unit", "test", "make"),
    ("make build", "build", "make"),
    ("make", "build", "make"),
    ("tox -e py311", "test", "tox"),
    ("nox -s tests", "test", "nox"),
    ("python manage.py test app", "test", "manage.py"),
    ("bash -c 'pytest -q tests'", "test", "pytest"),
    ("bundle exec rspec spec/models", "test", "rspec"),
    ("./gradlew test", "test", "gradlew"),
    ("mvn -q package", "build", "mvn"),
    ("dotnet test", "test", "dotnet"),
])
def test_test_and_build_commands_are_recognised(command, kind, program):
    found = test_runs.detect_test_command(command)
    assert found is not None, command
    assert (found.kind, found.program) == (kind, program)


@pytest.mark.parametrize("command", [
    "echo pytest", "git commit -m 'run pytest and npm test'", "grep -rn pytest .", "cat Makefile",
    "ls tests/", "pip install pytest", "npm ci", "npm install", "yarn install", "npm run lint", "python script.py",
    "cargo fmt", "go vet ./...", "make clean", "vim test_auth.py", "rm -rf build", "git log -- tests/",
    "python -c 'import pytest'", "",
])
def test_commands_that_only_mention_tests_are_not_runs(command):
    assert test_runs.detect_test_command(command) is None


@pytest.mark.parametrize("command, success_is_its, failure_is_its", [
    ("pytest -q", True, True),
    ("cd app && npm test", True, True),
    ("npm test && echo done", True, True),  # echo does not fail: a failure is the tests'
    ("pytest && git push", True, False),  # a failure may be the push's
    ("pytest; echo done", False, False),  # the status is echo's
    ("pytest || true", False, False),
    ("pytest | tail -20", False, False),  # the status is tail's (without pipefail)
    ("pytest 2>&1 | tee log.txt", False, False),
    ("pytest &", False, False),
    ("make lint || make test", False, False),  # the tests may not have run
    ("pytest -q > out.txt 2>&1", True, True),  # redirections are not commands
])
def test_whose_exit_status_it_is(command, success_is_its, failure_is_its):
    found = test_runs.detect_test_command(command)
    assert (found.success_is_its, found.failure_is_its) == (success_is_its, failure_is_its)


@pytest.mark.parametrize("output, verdict, line", [
    ("....F.\n=========== 1 failed, 5 passed in 0.42s ===========", "failed", "1 failed, 5 passed"),
    ("......\n6 passed in 0.12s", "passed", "6 passed in 0.12s"),
    ("=== 3 passed, 2 warnings in 1.01s ===", "passed", "3 passed, 2 warnings"),
    ("=== 1 error in 0.3s ===", "failed", "1 error"),
    ("=== no tests ran in 0.01s ===", "failed", "no tests ran"),
    ("Ran 12 tests in 0.004s\n\nOK", "passed", "OK"),
    ("Ran 12 tests in 0.004s\n\nFAILED (failures=2)", "failed", "FAILED (failures=2)"),
    ("test result: ok. 4 passed; 0 failed\n\ntest result: FAILED. 1 passed; 1 failed", "failed",
     "test result: FAILED"),
    ("test result: ok. 4 passed; 0 failed; 0 ignored", "passed", "test result: ok"),
    ("--- FAIL: TestAuth (0.00s)\nFAIL\nFAIL\texample.com/auth\t0.01s", "failed", "FAIL"),
    ("ok  \texample.com/auth\t0.012s\nok  \texample.com/db\t(cached)", "passed", "ok"),
    ("Tests:       1 failed, 5 passed, 6 total\nTime: 2 s", "failed", "Tests: 1 failed, 5 passed, 6 total"),
    ("Tests:       6 passed, 6 total", "passed", "Tests: 6 passed, 6 total"),
    (" Test Files  1 passed (1)\n      Tests  3 passed (3)", "passed", "Tests 3 passed (3)"),
    ("  3 passing (20ms)\n  1 failing", "failed", "1 failing"),
    ("  py311: OK (3.1 seconds)\n  congratulations :) (3.2 seconds)", "passed", "congratulations :)"),
    ("  py311: FAIL code 1\n  evaluation failed :( (3.2 seconds)", "failed", "evaluation failed :("),
    ("nox > Session tests was successful in 2 seconds.", "passed", "was successful"),
    ("make: *** [Makefile:12: test] Error 2", "failed", "Error 2"),
    ("BUILD SUCCESSFUL in 3s", "passed", "BUILD SUCCESSFUL"),
    ("error: could not compile `app` (bin \"app\") due to 2 previous errors", "failed", "could not compile"),
    ("Found 3 errors in 2 files.", "failed", "Found 3 errors"),
    ("\x1b[32m6 passed\x1b[0m in 0.12s", "passed", "6 passed in 0.12s"),
    ("compiling...\nall done", None, "all done"),
])
def test_runner_summaries(output, verdict, line):
    found, summary = test_runs.summarise(output)
    assert found == verdict
    assert line in summary


def test_judging_a_run():
    plain = test_runs.detect_test_command("pytest -q")
    piped = test_runs.detect_test_command("pytest -q | tail -3")
    # Claude Code's Bash response: stdout/stderr/interrupted; a success event, a summary line.
    run = test_runs.judge_run(plain, False, {"stdout": "....\n4 passed in 0.1s", "stderr": "", "interrupted": False})
    assert (run.kind, run.outcome, run.exit_code, run.summary) == ("test", "passed", None, "4 passed in 0.1s")
    # PostToolUseFailure: the exit code is in the error text.
    run = test_runs.judge_run(plain, True, None, "Exit code 1\nE   AssertionError\n1 failed, 3 passed in 0.2s")
    assert (run.outcome, run.exit_code, run.summary) == ("failed", 1, "1 failed, 3 passed in 0.2s")
    # No summary: the exit status decides where it is the run's, and only there.
    run = test_runs.judge_run(plain, True, None, "Command exited with non-zero status code 2")
    assert (run.outcome, run.exit_code) == ("failed", 2)
    assert test_runs.judge_run(piped, True, None, "Exit code 1") is None
    assert test_runs.judge_run(piped, False, {"stdout": "...", "stderr": ""}) is None
    # A summary line decides even where the status is another command's.
    assert test_runs.judge_run(piped, False, {"stdout": "2 failed, 1 passed in 0.3s"}).outcome == "failed"
    assert test_runs.judge_run(test_runs.detect_test_command("pytest || true"), False,
                           {"stdout": "1 failed in 0.1s"}).outcome == "failed"
    # Interrupted, timed out or refused runs are no outcome.
    assert test_runs.judge_run(plain, False, {"stdout": "", "interrupted": True}) is None
    assert test_runs.judge_run(plain, True, None, "Command timed out after 2m 0.0s") is None
    # An explicit exit code in the response counts.
    assert test_runs.judge_run(plain, False, {"stdout": "", "exit_code": 3}).outcome == "failed"


# -- prompts ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("prompt", [
    "Why did we switch from black to ruff?", "what did we decide about the retry policy", "remind me of the plan",
    "Last time the migration broke the CI, what was the fix?", "as discussed, move the cache to redis",
    "We decided to keep sqlite, right?", "Previously you tried bumping the timeout", "continue where we left off",
    "do you remember why the auth test is skipped", "Did we try pinning urllib3?",
])
def test_prompts_about_earlier_work(prompt):
    assert prompt_refs.refers_to_earlier_work(prompt)


@pytest.mark.parametrize("prompt", [
    "Add a --verbose flag to the CLI", "write a function that parses ISO dates", "run the tests",
    "What is the capital of France?", "Refactor this module for readability", "make the button blue",
])
def test_prompts_about_something_new(prompt):
    assert not prompt_refs.refers_to_earlier_work(prompt)


def test_code_names_in_prompts():
    names = prompt_refs.code_name_candidates(
        "Why does load_config() ignore `Settings.from_env` in app/config.py:42 and src/db.ts? "
        "parseArgs and HttpClientPool too, see https://example.com/a/b e.g. the docs. Also `make_app`.")
    assert names == ["Settings.from_env", "make_app", "load_config", "app/config.py", "src/db.ts", "parseArgs",
                     "HttpClientPool"]
    assert prompt_refs.code_name_candidates("Add a verbose flag to the command line, please.") == []


# -- observed outcomes and resolve (the library part) ------------------------------------------------------


@pytest.mark.parametrize("outcome, status, tier", [
    ("passed", "confirmed", "gold"), ("failed", "falsified", "gold"),
    ("failed", "confirmed", "silver"), ("passed", "falsified", "silver"),
])
def test_a_resolution_that_agrees_with_the_observed_run_is_gold(hashed_lm, outcome, status, tier):
    started = hashed_lm.start_ghap(**GHAP)
    active = ghap.record_observation(hashed_lm.store, "Bash", "pytest -q", "test", outcome, 1, "1 failed in 0.1s")
    assert active.id == started.id
    extra = {"surprise": "Timeouts were not the cause", "root_cause": {
        "category": "wrong-assumption", "description": "The mock auth server drops parallel connections"}} \
        if status == "falsified" else {}
    result = hashed_lm.resolve_ghap(status, "Auth still failed 2 of 10 runs with the mock server", **extra)
    assert result.confidence_tier == tier
    assert hashed_lm.sql("SELECT auto_captured FROM ghap_entries").fetchone()[0] is (tier == "gold")
    # The evidence stays with the resolved entry.
    assert hashed_lm.sql("SELECT ghap_id, outcome FROM ghap_observations").fetchall() == [(started.id, outcome)]


def test_only_a_run_of_the_current_prediction_counts(hashed_lm):
    hashed_lm.start_ghap(**GHAP)
    ghap.record_observation(hashed_lm.store, "Bash", "pytest", "test", "passed", 0, "5 passed in 0.1s")
    hashed_lm.update_ghap(hypothesis="The auth mock shares state between workers",
                          action="Give each worker its own mock", prediction="No auth failures in 20 runs")
    assert hashed_lm.resolve_ghap("confirmed", "No auth failures in 20 runs with per-worker mocks")\
        .confidence_tier == "silver"
    # A note is no new iteration: the run still tests the current prediction.
    hashed_lm.start_ghap(**GHAP)
    ghap.record_observation(hashed_lm.store, "Bash", "pytest", "test", "passed", 0, "5 passed in 0.1s")
    hashed_lm.update_ghap(note="ran it three times")
    assert hashed_lm.resolve_ghap("confirmed", "No auth failures in 20 runs after raising the timeout")\
        .confidence_tier == "gold"
    # Abandoning is never auto-captured; the caller's own auto_captured=True still counts without a run.
    hashed_lm.start_ghap(**GHAP)
    ghap.record_observation(hashed_lm.store, "Bash", "pytest", "test", "failed", 1, "1 failed")
    assert hashed_lm.abandon_ghap("switching to the retry approach").confidence_tier == "abandoned"
    hashed_lm.start_ghap(**GHAP)
    assert hashed_lm.resolve_ghap("confirmed", "No auth failures in 20 runs after raising the timeout",
                                  auto_captured=True).confidence_tier == "gold"


def test_recording_an_observation_validates_and_needs_an_active_entry(hashed_lm):
    assert ghap.record_observation(hashed_lm.store, "Bash", "pytest", "test", "passed", 0, "ok").has_active is False
    assert hashed_lm.sql("SELECT count(*) FROM ghap_observations").fetchone()[0] == 0
    hashed_lm.start_ghap(**GHAP)
    for field, arguments in (("kind", ("lint", "passed", 0)), ("outcome", ("test", "green", 0)),
                             ("exit_code", ("test", "passed", "0"))):
        with pytest.raises(ValidationError, match=field):
            ghap.record_observation(hashed_lm.store, "Bash", "pytest", arguments[0], arguments[1], arguments[2], "")
    long = "pytest " + "x" * 5000
    ghap.record_observation(hashed_lm.store, "Bash", long, "test", "passed", None, "y" * 3000)
    command, summary = hashed_lm.sql("SELECT command, summary FROM ghap_observations").fetchone()
    assert len(command) == ghap.MAX_RESOLVE_CHARS and len(summary) == ghap.MAX_START_CHARS


# -- hooks as processes: nothing harmful, ever ---------------------------------------------------------------


def test_without_a_learnmem_file_hooks_do_nothing_and_create_nothing(tmp_path):
    root = tmp_path / "plain"
    (root / ".git").mkdir(parents=True)
    before = sorted(path.relative_to(root) for path in root.rglob("*"))
    payloads = {
        "session-start": {"source": "startup"},
        "user-prompt-submit": {"prompt": "why did we pick `load_config` last time?"},
        "pre-tool-use": tool_call(),
        "post-tool-use": {"tool_name": "Bash", "tool_input": {"command": "pytest"},
                          "tool_response": {"stdout": "1 failed in 0.1s"}},
        "session-end": {"reason": "exit"},
    }
    for event, payload in payloads.items():
        done = run_hook(event, {"cwd": str(root), **payload}, cwd=root, env={"LEARNMEM_CHECKIN_EVERY": "1"})
        assert silent(done) and done.stderr == "", (event, done.stderr)
    assert sorted(path.relative_to(root) for path in root.rglob("*")) == before


def test_malformed_input_and_unknown_events_are_logged_not_failed(project):
    for raw in ("{not json", "[1, 2]", ""):
        done = run_hook("pre-tool-use", cwd=project.root, raw=raw)
        assert silent(done)
    assert project.log().count("stdin:") == 3
    assert "expected a JSON object, got list" in project.log()
    done = run_hook("stop-everything", {"cwd": str(project.root)}, cwd=project.root)
    assert silent(done)
    assert "event: 'stop-everything' is not one of: session-start" in project.log()
    # No event argument: the payload's hook_event_name says which (Claude Code's name).
    project.lm.start_ghap(**GHAP)
    done = run_hook(None, project.payload(hook_event_name="SessionEnd"), cwd=project.root)
    assert silent(done)
    assert project.rows("SELECT outcome_result FROM ghap_entries") == [("session ended",)]


def test_a_broken_file_never_fails_the_agents_action(tmp_path):
    root = tmp_path / "broken"
    (root / ".git").mkdir(parents=True)
    (root / ".learnmem").mkdir()
    (root / ".learnmem" / "learnmem.duckdb").write_bytes(b"this is not a database" * 100)
    for event, payload in (("session-start", {"source": "startup"}), ("pre-tool-use", tool_call()),
                           ("user-prompt-submit", {"prompt": "why did we do that last time?"}),
                           ("post-tool-use-failure", {"tool_name": "Bash", "tool_input": {"command": "pytest"},
                                                      "error": "Exit code 1\n1 failed in 0.1s"}),
                           ("session-end", {})):
        done = run_hook(event, {"cwd": str(root), **payload}, cwd=root, env={"LEARNMEM_CHECKIN_EVERY": "1"})
        assert silent(done), (event, done.stdout, done.stderr)
    log = (root / ".learnmem" / "hooks.log").read_text(encoding="utf-8")
    for event in ("SessionStart", "PreToolUse", "UserPromptSubmit", "PostToolUseFailure", "SessionEnd"):
        assert f" {event} pid=" in log and "cannot open" in log, event


def test_the_db_option_and_environment_choose_the_file(project, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    project.lm.start_ghap(**GHAP)
    done = run_hook("session-end", {"cwd": str(elsewhere)}, cwd=elsewhere, env={"LEARNMEM_DB": str(project.db)})
    assert silent(done)
    assert project.rows("SELECT count(*) FROM sessions WHERE ended_at IS NOT NULL") == [(1,)]
    project.lm.start_ghap(**GHAP)
    done = run_hook("SessionEnd", {"cwd": str(elsewhere)}, cwd=elsewhere, args=("--db", str(project.db)))
    assert silent(done)
    assert project.rows("SELECT count(*) FROM sessions WHERE ended_at IS NOT NULL") == [(2,)]


# -- PreToolUse: the tool counter ------------------------------------------------------------------------------


def test_check_ins_and_nudges_every_n_tool_calls(project):
    env = {"LEARNMEM_CHECKIN_EVERY": "3"}
    paths = hooks.HookPaths(project.db)
    tool_count = "SELECT coalesce(sum(tool_count), 0) FROM sessions"
    assert silent(project.hook("pre-tool-use", env, **tool_call()))
    assert silent(project.hook("PreToolUse", env, **tool_call("Grep", pattern="x")))
    # One count: two calls wait in the file, none in the database yet.
    assert hooks.pending_tool_calls(paths) == 2 and project.rows(tool_count) == [(0,)]
    nudge = context_of(project.hook("pre-tool-use", env, **tool_call()), "PreToolUse")
    assert nudge.startswith("learnmem: 3 tool calls without a GHAP entry") and "start_ghap" in nudge
    assert len(nudge.splitlines()) == 1
    assert hooks.pending_tool_calls(paths) == 0 and project.rows(tool_count) == [(0,)]

    started = project.lm.start_ghap(**GHAP)
    assert silent(project.hook("pre-tool-use", env, **tool_call()))
    assert silent(project.hook("pre-tool-use", env, **tool_call()))
    check_in = context_of(project.hook("pre-tool-use", env, **tool_call()), "PreToolUse")
    assert check_in.startswith("learnmem check-in (3 tool calls since the last one)")
    assert started.id in check_in and GHAP["hypothesis"] in check_in and "update_ghap" in check_in
    assert project.lm.should_check_in(1) is False  # shown, so reset

    # The agent's own GHAP calls count as the check-in.
    assert silent(project.hook("pre-tool-use", env, **tool_call()))
    assert hooks.pending_tool_calls(paths) == 1
    assert silent(project.hook("pre-tool-use", env, **tool_call("mcp__learnmem__update_ghap", note="on it")))
    assert hooks.pending_tool_calls(paths) == 0
    assert silent(project.hook("pre-tool-use", env, **tool_call()))
    assert silent(project.hook("pre-tool-use", env, **tool_call("Bash", command="learnmem ghap update --note x")))
    assert hooks.pending_tool_calls(paths) == 0
    # A bad setting falls back to the default (10) and says so in the log.
    assert silent(project.hook("pre-tool-use", {"LEARNMEM_CHECKIN_EVERY": "often"}, **tool_call()))
    assert "LEARNMEM_CHECKIN_EVERY: 'often' is not an integer" in project.log()


def test_the_post_tool_use_before_a_due_call_prepares_its_check_in(project):
    """In an agent's real sequence (PreToolUse, the tool, PostToolUse), the PostToolUse of the call before a
    due one hands the counts over and writes the check-in; the due PreToolUse only prints it, without DuckDB."""
    env = {"LEARNMEM_CHECKIN_EVERY": "3"}
    paths = hooks.HookPaths(project.db)
    started = project.lm.start_ghap(**GHAP)
    for _ in range(2):
        assert silent(project.hook("pre-tool-use", env, **tool_call()))
        assert silent(project.hook("post-tool-use", env, **bash("ls", "a.py")))
    assert paths.prepared.exists() and hooks.pending_tool_calls(paths) == 0
    assert project.lm.should_check_in(1) is False  # handed over and zeroed as the check-in was prepared
    script = CHECK_IMPORTS.format(payload=repr(project.payload(**tool_call())), event="pre-tool-use")
    environment = {key: value for key, value in os.environ.items() if key not in HOOK_ENV} | env
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=project.root,
                          env=environment, timeout=60, check=False)
    check_in = context_of(done, "PreToolUse")
    assert check_in.startswith("learnmem check-in (3 tool calls since the last one)") and started.id in check_in
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []  # no duckdb, numpy, model
    assert not paths.prepared.exists() and hooks.pending_tool_calls(paths) == 0  # counted when prepared
    # The next check-in comes 3 calls later; a prepared one goes when the agent's own GHAP call makes it moot.
    assert silent(project.hook("post-tool-use", env, **bash("ls", "a.py")))
    for _ in range(2):
        assert not paths.prepared.exists()
        assert silent(project.hook("pre-tool-use", env, **tool_call()))
        assert silent(project.hook("post-tool-use", env, **bash("ls", "a.py")))
    assert paths.prepared.exists()
    assert silent(project.hook("pre-tool-use", env, **tool_call("mcp__learnmem__update_ghap", note="on it")))
    assert not paths.prepared.exists() and hooks.pending_tool_calls(paths) == 0


@pytest.mark.parametrize("project", ["one-shot"], indirect=True)  # the holder is this process: the server's
def test_a_file_held_by_another_process_costs_a_check_in_not_the_counts(project):
    import duckdb

    holder = duckdb.connect(str(project.db))  # a notebook or the DuckDB CLI holding the file read-write
    try:
        done = project.hook("pre-tool-use", {"LEARNMEM_CHECKIN_EVERY": "1"}, **tool_call())
    finally:
        holder.close()
    assert silent(done)
    assert "StoreBusyError" in project.log() and "stayed locked by another process for 2 s" in project.log()
    assert hooks.pending_tool_calls(hooks.HookPaths(project.db)) == 1  # handed over with the next call
    nudge = context_of(project.hook("pre-tool-use", {"LEARNMEM_CHECKIN_EVERY": "1"}, **tool_call()), "PreToolUse")
    assert nudge.startswith("learnmem: 2 tool calls without a GHAP entry")


COUNT_CALLS = """
import sys
from pathlib import Path
from learnmem.agents import hooks
paths = hooks.HookPaths(Path(sys.argv[1]))
for _ in range(int(sys.argv[2])):
    hooks.count_tool_call(paths, 10**9)
"""


def test_the_counter_file_loses_no_update_under_contention(tmp_path):
    """Four processes counting as fast as they can: every call is counted once (the file lock)."""
    db = tmp_path / "learnmem.duckdb"
    processes = [subprocess.Popen([sys.executable, "-c", COUNT_CALLS, str(db), "400"]) for _ in range(4)]
    assert [process.wait(timeout=120) for process in processes] == [0, 0, 0, 0]
    assert hooks.pending_tool_calls(hooks.HookPaths(db)) == 1600


def test_parallel_tool_calls_are_each_counted_once(project):
    env = {key: value for key, value in os.environ.items() if key not in HOOK_ENV}
    env["LEARNMEM_CHECKIN_EVERY"] = "5"
    payload = json.dumps(project.payload(**tool_call()))
    processes = [subprocess.Popen([sys.executable, "-m", "learnmem.cli", "hook", "pre-tool-use"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  cwd=project.root, env=env) for _ in range(12)]
    outputs = [process.communicate(payload, timeout=120) for process in processes]
    assert all(process.returncode == 0 for process in processes), [err for _, err in outputs]
    nudges = [out for out, _ in outputs if out]
    assert len(nudges) == 2  # 12 calls: two hand-overs of 5, 2 still pending
    assert all("5 tool calls without a GHAP entry" in out for out in nudges)
    assert hooks.pending_tool_calls(hooks.HookPaths(project.db)) == 2


# -- SessionStart and SessionEnd ---------------------------------------------------------------------------


def test_session_start_starts_a_session_and_reports_an_orphan(project):
    project.lm.store_memory("Deploys to staging need the VPN; run `make deploy-staging` from the bastion",
                            "fact", importance=0.9)
    first = project.lm.get_session_id()
    left = project.lm.start_ghap(**GHAP)
    text = context_of(project.hook("session-start", source="startup"), "SessionStart")
    sessions = project.rows("SELECT id FROM sessions ORDER BY started_at")
    assert len(sessions) == 2 and sessions[0][0] == first
    assert text.startswith("learnmem: an earlier session left a GHAP entry active")
    assert left.id in text and GHAP["goal"] in text
    assert "adopt_orphan" in text and "abandon_orphan" in text and 'learnmem ghap abandon "<reason>"' in text
    assert "# learnmem context (light)" in text and "make deploy-staging" in text
    # resume and compact go on in the current session (the orphan stays reported until kept or dropped).
    text = context_of(project.hook("session-start", source="compact"), "SessionStart")
    assert project.rows("SELECT count(*) FROM sessions") == [(2,)]
    assert left.id in text
    project.lm.adopt_orphan()
    text = context_of(project.hook("session-start", source="resume"), "SessionStart")
    assert "earlier session" not in text and left.id in text  # the active entry, in the light context


def test_session_start_with_nothing_to_say_prints_nothing(project):
    assert silent(project.hook("session-start", source="startup"))
    assert project.rows("SELECT count(*) FROM sessions WHERE ended_at IS NULL") == [(1,)]


def test_session_end_ends_the_session_and_its_entry(project):
    project.lm.start_ghap(**GHAP)
    paths = hooks.HookPaths(project.db)
    assert silent(project.hook("pre-tool-use", **tool_call()))
    assert hooks.pending_tool_calls(paths) == 1
    assert silent(project.hook("session-end", reason="prompt_input_exit"))
    assert project.rows("SELECT count(*) FROM sessions WHERE ended_at IS NULL") == [(0,)]
    assert project.rows("SELECT outcome_status, outcome_result FROM ghap_entries") == [("abandoned", "session ended")]
    assert hooks.pending_tool_calls(paths) == 0


def test_a_session_in_which_nothing_happened_is_not_kept(project):
    # `claude mcp list` and `claude doctor` fire SessionStart and SessionEnd with nothing between.
    assert silent(project.hook("session-start", source="startup"))
    assert silent(project.hook("session-end", reason="other"))
    assert project.rows("SELECT count(*) FROM sessions") == [(0,)]
    # A SessionEnd with no session started none to end.
    assert silent(project.hook("session-end", reason="other"))
    assert project.rows("SELECT count(*) FROM sessions") == [(0,)]
    # One tool call, even one still pending in the counter, keeps the session.
    assert silent(project.hook("session-start", source="startup"))
    assert silent(project.hook("pre-tool-use", **tool_call()))
    assert silent(project.hook("session-end", reason="other"))
    assert project.rows("SELECT count(*), count(ended_at) FROM sessions") == [(1, 1)]


# -- PostToolUse: test and build runs ----------------------------------------------------------------------


def bash(command: str, stdout: str = "", **fields) -> dict:
    return {"tool_name": "Bash", "tool_input": {"command": command, "description": "run"},
            "tool_response": {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False}, **fields}


def test_a_failed_test_run_is_recorded_and_makes_the_resolution_gold(project):
    started = project.lm.start_ghap(**GHAP)
    failure = {"tool_name": "Bash", "tool_input": {"command": "npm test && echo done"},
               "error": "Exit code 1\n  ● auth › logs in\nTests:       1 failed, 5 passed, 6 total",
               "is_interrupt": False}
    text = context_of(project.hook("post-tool-use-failure", **failure), "PostToolUseFailure")
    assert started.id in text and "failed" in text and "Tests: 1 failed, 5 passed, 6 total" in text
    assert GHAP["prediction"] in text and "resolve_ghap" in text
    assert project.rows("SELECT ghap_id, command, kind, outcome, exit_code FROM ghap_observations") == [
        (started.id, "npm test && echo done", "test", "failed", 1)]
    resolved = project.lm.resolve_ghap("falsified", "Auth still failed 1 of 6 with the 60 s timeout",
                                       surprise="The timeout was never reached",
                                       root_cause={"category": "wrong-assumption",
                                                   "description": "The mock auth server drops parallel connections"})
    assert resolved.confidence_tier == "gold"


def test_a_passing_run_then_a_contradicting_resolution_stays_silver(project):
    project.lm.start_ghap(**GHAP)
    text = context_of(project.hook("post-tool-use", **bash("cd app && python -m pytest -q tests/test_auth.py",
                                                           "......\n6 passed in 0.51s")), "PostToolUse")
    assert "passed" in text and "6 passed in 0.51s" in text
    resolved = project.lm.resolve_ghap("falsified", "Green locally but the CI auth job still times out",
                                       surprise="Local runs never hit the CI proxy",
                                       root_cause={"category": "environment-issue",
                                                   "description": "The CI proxy adds 40 s to auth calls"})
    assert resolved.confidence_tier == "silver"


def test_other_commands_and_runs_without_an_active_entry_are_not_recorded(project):
    assert silent(project.hook("post-tool-use", **bash("pytest -q", "3 passed in 0.1s")))  # nothing active
    project.lm.start_ghap(**GHAP)
    for payload in (bash("ls -la", "total 0"), bash("git status", "clean"),
                    bash("pytest | tail -3", "...."),  # the status is tail's, and no summary says
                    bash("pytest", "", tool_response={"stdout": "", "interrupted": True}),
                    {"tool_name": "Read", "tool_input": {"file_path": "pytest.ini"}, "tool_response": {}},
                    bash("pytest -q", "3 passed", tool_input={"command": "pytest -q", "run_in_background": True})):
        assert silent(project.hook("post-tool-use", **payload)), payload
    assert silent(project.hook("post-tool-use-failure", tool_name="Bash", tool_input={"command": "pytest"},
                               error="Command timed out after 2m 0.0s"))
    assert project.rows("SELECT count(*) FROM ghap_observations") == [(0,)]


# -- UserPromptSubmit -----------------------------------------------------------------------------------------


def test_prompts_about_earlier_work_get_rich_context(project):
    decision = project.lm.store_memory("We chose ruff over black because black reformatted the generated "
                                       "protobuf files on every run", "decision", importance=0.8)
    project.lm.store_memory("The staging database is refreshed every Sunday night", "fact")
    text = context_of(project.hook("user-prompt-submit", prompt="Why did we pick ruff instead of black again?"),
                      "UserPromptSubmit")
    assert text.startswith("# learnmem context (rich)")
    assert decision.id in text and "protobuf" in text
    # A prompt about something new costs nothing and says nothing.
    assert silent(project.hook("user-prompt-submit", prompt="Add a --verbose flag to the export command"))
    assert silent(project.hook("user-prompt-submit", prompt="   "))


def test_prompts_naming_indexed_code_get_context(project, tmp_path):
    source = tmp_path / "billing"
    source.mkdir()
    (source / "ledger.py").write_text(
        "def reconcile_ledger_totals(entries):\n"
        "    \"\"\"Sum the entries per account and compare with the stored balances.\"\"\"\n"
        "    return {entry.account: entry.amount for entry in entries}\n", encoding="utf-8")
    project.lm.index_codebase(source, project="billing", progress=False)
    memory = project.lm.store_memory("reconcile_ledger_totals drops all but the last entry of each account; "
                                     "a sum per account is what finance expects", "correction", importance=0.9)
    text = context_of(project.hook("user-prompt-submit", prompt="reconcile_ledger_totals returns wrong sums"),
                      "UserPromptSubmit")
    assert memory.id in text
    assert "Indexed code the prompt names: `reconcile_ledger_totals` (ledger.py:1)" in text
    # A code-looking name the index does not know, in a prompt about something new: nothing.
    assert silent(project.hook("user-prompt-submit", prompt="frobnicate_widget_cache returns wrong sums"))


def test_one_shot_context_agrees_with_the_facade(project):
    """The hooks rank by meaning in SQL; the facade fuses meaning and keywords. On clear cases they agree."""
    lm = project.lm
    for text in ("We deploy with Kubernetes on GKE, one namespace per team",
                 "The billing service retries card charges three times with exponential backoff",
                 "Use ruff for formatting and linting; black is not allowed",
                 "Flaky tests in the auth module come from the shared Redis instance"):
        lm.store_memory(text, "fact")
    for goal, lesson in (("Fix the flaky login test", "Isolate Redis per test worker"),
                         ("Speed up the CSV export", "Stream rows instead of building the whole file")):
        lm.start_ghap(domain="debugging", strategy="systematic-elimination", goal=goal,
                      hypothesis="Shared state between workers causes the race in the suite",
                      action="Give each worker a separate Redis database", prediction="Twenty green runs in a row")
        lm.resolve_ghap("confirmed", "Twenty green runs after isolating Redis per worker",
                        lesson={"what_worked": lesson})
    view = oneshot.OneShotView(store.Store(project.db, read_only=True, embedding_model=lm.embedder.name,
                                         embedding_dim=lm.embedder.dim))
    memory_queries = ("how do we ship to production?", "card payment retry policy", "which code formatter?")
    experience_queries = ("the login test fails at random", "exporting a big spreadsheet is slow")
    mine = {
        "memories": [view.retrieve_memories(query, limit=1)[0].id for query in memory_queries],
        # limit 1 of a prefetched axis, then one past the prefetch depth: both paths of the view
        "experiences": [(hit.id, hit.goal, hit.lesson) for query in experience_queries
                        for hit in view.search_experiences(query, limit=1)],
        "deep": [hit.ghap_id for hit in view.search_experiences(experience_queries[0], limit=20)],
        "tokens": view.count_tokens(["hello world"]), "values": view.list_values(), "active": view.get_active_ghap(),
    }
    view.close()  # the view holds the file while it works: the facade below attaches it itself
    assert mine == {
        "memories": [lm.retrieve_memories(query, limit=1)[0].id for query in memory_queries],
        "experiences": [(hit.id, hit.goal, hit.lesson) for query in experience_queries
                        for hit in lm.search_experiences(query, limit=1)],
        "deep": [hit.ghap_id for hit in lm.search_experiences(experience_queries[0], limit=20)],
        "tokens": lm.count_tokens(["hello world"]), "values": [], "active": lm.get_active_ghap(),
    }


# -- import weight ---------------------------------------------------------------------------------------------

CHECK_IMPORTS = """
import io, json, sys
sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps({payload}).encode()))
import learnmem.cli
try:
    learnmem.cli.main(["hook", {event!r}])
except SystemExit:
    pass
heavy = sorted(m for m in ("duckdb", "numpy", "pyarrow", "onnxruntime", "learnmem.api") if m in sys.modules)
print(json.dumps(heavy), file=sys.stderr)
"""


@pytest.mark.parametrize("event, payload", [
    ("pre-tool-use", tool_call()),
    ("user-prompt-submit", {"prompt": "Add a --verbose flag to the export command"}),
    ("post-tool-use", bash("ls -la", "total 0")),
])
def test_the_frequent_paths_load_no_database_and_no_model(project, event, payload):
    script = CHECK_IMPORTS.format(payload=repr(project.payload(**payload)), event=event)
    environment = {key: value for key, value in os.environ.items() if key not in HOOK_ENV}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=project.root,
                          env=environment, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout == "", done.stderr
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []


def test_a_prompt_hook_never_imports_the_facade(project):
    project.lm.store_memory("We decided to keep SQLite for the CLI cache", "decision")
    script = CHECK_IMPORTS.format(payload=repr(project.payload(prompt="why did we keep sqlite last time?")),
                                  event="user-prompt-submit")
    environment = {key: value for key, value in os.environ.items() if key not in HOOK_ENV}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=project.root,
                          env=environment, timeout=120, check=False)
    assert "SQLite" in done.stdout
    heavy = json.loads(done.stderr.strip().splitlines()[-1])
    assert "learnmem.api" not in heavy
    if project.mode == "served":  # the server holds the file, the model and the indexes: the hook nothing
        assert heavy == []


def test_the_hashing_embedder_file_is_refused_by_the_prompt_hook_without_failing(tmp_path):
    """A file embedded with another model: the one-shot view refuses to mix vectors; the hook logs it."""
    root = tmp_path / "hashed"
    (root / ".git").mkdir(parents=True)
    db = root / ".learnmem" / "learnmem.duckdb"
    learnmem.open(db, embedder=HashingEmbedder()).store_memory("We decided to keep SQLite", "decision")
    done = run_hook("user-prompt-submit", {"cwd": str(root), "prompt": "why did we keep sqlite?"}, cwd=root)
    assert silent(done)
    assert "learnmem reembed" in (db.parent / "hooks.log").read_text(encoding="utf-8")
