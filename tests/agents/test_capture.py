"""Automatic capture (issue 10 item 1): learnable moments in tool output, queued by the PostToolUse hook,
flushed by Stop and SessionEnd. Detection is checked as functions on payloads shaped as Claude Code sends
them; the queue and the flush through real hook processes on a real file with the real model.
bench/capture measures precision and recall on a larger written set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from learnmem.agents.capture import tool_output as capture, queue as capture_queue
from learnmem.agents.capture.failures import PENDING_SECONDS, PendingFailures
from learnmem.agents.capture.candidates import MAX_CONTENT_CHARS, Candidate
from tests.agents.test_hooks import Project, context_of, silent


def bash(command: str, stdout: str = "", stderr: str = "") -> dict:
    return {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": command},
            "tool_response": {"stdout": stdout, "stderr": stderr, "interrupted": False, "isImage": False}}


def bash_failed(command: str, output: str, code: int = 1) -> dict:
    return {"hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "tool_input": {"command": command},
            "error": f"Exit code {code}\n{output}", "is_interrupt": False}


def edit(path: str, new: str, old: str = "pass") -> dict:
    return {"hook_event_name": "PostToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": path, "old_string": old, "new_string": new, "replace_all": False}}


def task(report: str) -> dict:
    return {"hook_event_name": "PostToolUse", "tool_name": "Task",
            "tool_input": {"description": "investigate", "prompt": "look", "subagent_type": "general-purpose"},
            "tool_response": {"content": [{"type": "text", "text": report}], "totalDurationMs": 1200}}


PYTEST_FAIL = ("============ FAILURES ============\n___ test_connect ___\n"
               "E   ModuleNotFoundError: No module named 'psycopg2'\n"
               "FAILED tests/test_db.py::test_connect - ModuleNotFoundError: No module named 'psycopg2'\n"
               "======= 1 failed, 12 passed in 0.41s =======")
PYTEST_PASS = "............. [100%]\n13 passed in 0.38s"
TASK_REPORT = ("I went through the CI logs for the last two weeks.\n\n"
               "Turns out the flaky test_export was caused by the session-scoped tmp_path_factory fixture: two "
               "workers under pytest-xdist wrote the same export.csv. Giving each worker its own directory fixed it.\n\n"
               "Everything else in the suite is stable.")


def replay(payloads: list[dict], tmp_path: Path) -> list[Candidate]:
    pending = PendingFailures(tmp_path / "db.capture")
    found = []
    for payload in payloads:
        found += capture.candidates(payload, pending, payload["hook_event_name"] == "PostToolUseFailure")
    return found


# -- detection ---------------------------------------------------------------------------------------------


def test_a_failure_fixed_by_other_work_is_a_learning(tmp_path):
    found = replay([bash_failed("pytest -x tests/test_db.py", PYTEST_FAIL), bash("ls", "a.py b.py"),
                    bash("pip install psycopg2-binary", "Successfully installed psycopg2-binary-2.9.9"),
                    bash("pytest tests/test_db.py", PYTEST_PASS)], tmp_path)
    assert len(found) == 1
    (learning,) = found
    assert learning.category == "learning" and learning.tool == "Bash"
    assert "No module named 'psycopg2'" in learning.content and "pip install psycopg2-binary" in learning.content
    assert len(learning.content) <= MAX_CONTENT_CHARS
    assert not (tmp_path / "db.capture").exists()  # nothing pending any more: the file goes


def test_a_broader_rerun_settles_it_and_edits_count_as_the_fix(tmp_path):
    found = replay([bash_failed("cargo test --lib parser", "error[E0382]: borrow of moved value: `tokens`\n"
                                                             "error: could not compile `lexer`"),
                    edit("/repo/src/parser.rs", "let tokens = tokens.clone();", "let tokens = tokens;"),
                    bash("cargo test", "test result: ok. 41 passed; 0 failed")], tmp_path)
    assert [c.content for c in found] == [
        "`cargo test --lib parser` failed with: error[E0382]: borrow of moved value: `tokens`. It passed "
        "(`cargo test`) after editing parser.rs (+ let tokens = tokens.clone();)."]


@pytest.mark.parametrize("payloads", [
    # a rerun that passes with nothing done in between: flaky, not a lesson
    [bash_failed("npm test", "FAIL src/api.test.ts\n  TypeError: fetch failed"), bash("npm test", "Tests: 9 passed")],
    # never fixed
    [bash_failed("pytest", PYTEST_FAIL), edit("/r/db.py", "import psycopg")],
    # a typo, then the right command: another program
    [bash_failed("gti status", "bash: gti: command not found", 127), bash("git status", "On branch main")],
    # a failure without an error line says nothing to remember
    [bash_failed("make lint", "make: *** [lint] Error 2"), edit("/r/a.py", "x = 1"), bash("make lint", "")],
    # another command passing does not settle it
    [bash_failed("pytest tests/a.py", PYTEST_FAIL), edit("/r/a.py", "x"), bash("pytest tests/b.py", PYTEST_PASS)],
])
def test_failures_that_teach_nothing_are_not_captured(payloads, tmp_path):
    assert replay(payloads, tmp_path) == []


def test_lessons_in_a_report_in_comments_and_in_markdown(tmp_path):
    (report,) = replay([task(TASK_REPORT)], tmp_path)
    assert report.category == "learning" and report.tool == "Task"
    assert report.content.startswith("Turns out the flaky test_export") and "Everything else" not in report.content
    code = edit("/repo/client.py", "# Workaround for psf/requests#6432: urllib3 2.x drops Content-Length on\n"
                                   "# retried POSTs, so we set the header ourselves.\nheaders['Content-Length'] = n")
    (comment,) = replay([code], tmp_path)
    assert comment.content == ("Workaround for psf/requests#6432: urllib3 2.x drops Content-Length on retried "
                               "POSTs, so we set the header ourselves.") and comment.tool == "Edit"
    ops = ("# Ops\n\n**Important:** run `make deploy` from the main branch only, after the changelog is updated.\n\n"
           "## Gotchas\n\n- The staging database refuses connections from outside the VPN, so run migrations "
           "from the bastion host.\n")
    note = {"hook_event_name": "PostToolUse", "tool_name": "Write",
            "tool_input": {"file_path": "/repo/docs/ops.md", "content": ops}}
    (written,) = replay([note], tmp_path)  # an instruction in a document is not a lesson; a gotcha is
    assert written.content.startswith("The staging database refuses connections from outside the VPN")
    blocked = task("Status: Blocked on the payments team: the sandbox API keys are not in the vault, and we "
                   "cannot run the checkout e2e tests until they grant access.")
    (blocker,) = replay([blocked], tmp_path)
    assert blocker.category == "blocker"


@pytest.mark.parametrize("payload", [
    bash("pytest -q", PYTEST_PASS),
    bash("ls -la", "total 8\n-rw-r--r-- 1 me me 120 README.md\n-rw-r--r-- 1 me me 80 notes.txt"),
    bash("grep -rn workaround src/", "src/http.py:12: # Workaround for the proxy bug: turns out it strips headers"),
    bash("cat docs/NOTES.md", "Note: the staging database refuses connections from outside the VPN"),
    bash("make", "src/a.c:3:5: note: in expansion of macro 'MAX'\nsrc/a.c:9: note: declared here"),
    bash("npm install", "npm WARN deprecated inflight@1.0.6: This module is not supported, use lru-cache instead"),
    bash("pytest", PYTEST_PASS + "\n.venv/lib/python3.12/site-packages/dateutil/tz.py:37: DeprecationWarning: "
                                 "datetime.utcfromtimestamp() is deprecated; use datetime.fromtimestamp(ts, UTC)"),
    edit("/repo/api.py", "def deprecated_endpoint(note: str):\n    print('Note: this endpoint is going away')"),
    edit("/repo/data.json", '{"note": "turns out we need a workaround here"}'),
    task("Done. I renamed the module and updated the imports; all 212 tests pass."),
    {"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_input": {"file_path": "/repo/README.md"},
     "tool_response": {"type": "text", "file": {"filePath": "/repo/README.md",
                                                "content": "IMPORTANT: turns out the workaround is required"}}},
    edit("/repo/x.py", "# note: short"),
])
def test_noise_is_not_captured(payload, tmp_path):
    assert replay([payload], tmp_path) == []


def test_a_deprecation_in_the_projects_own_code_naming_its_replacement(tmp_path):
    output = ("/repo/app/clock.py:14: DeprecationWarning: datetime.datetime.utcnow() is deprecated and scheduled "
              "for removal in a future version. Use timezone-aware objects: datetime.datetime.now(datetime.UTC).\n"
              "  stamp = datetime.utcnow()\n" + PYTEST_PASS)
    found = replay([bash("pytest", output), bash("pytest -x", output)], tmp_path)
    assert len({c.key for c in found}) == 1 and "datetime.datetime.now(datetime.UTC)" in found[0].content


def test_pending_failures_expire_and_a_damaged_file_is_started_over(tmp_path):
    pending = PendingFailures(tmp_path / "db.capture")
    capture.candidates(bash_failed("pytest", PYTEST_FAIL), pending, True)
    stale = json.loads(pending.path.read_text())
    stale[0]["at"] = time.time() - PENDING_SECONDS - 1
    pending.path.write_text(json.dumps(stale))
    assert replay([edit("/r/a.py", "x = 2"), bash("pytest", PYTEST_PASS)], tmp_path) == []
    pending.path.write_text("{not json")
    assert replay([bash_failed("pytest", PYTEST_FAIL), edit("/r/a.py", "y"), bash("pytest", PYTEST_PASS)],
                  tmp_path)[0].category == "learning"


# -- the queue and the flush, through the hooks ------------------------------------------------------------


@pytest.fixture
def project(tmp_path, embedder) -> Project:
    import learnmem

    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    db = root / ".learnmem" / "learnmem.duckdb"
    return Project(root, db, learnmem.open(db, embedder=embedder))


def hook(project: Project, event: str, payload: dict) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("LEARNMEM_", "CLAUDE_"))}
    return subprocess.run([sys.executable, "-m", "learnmem.cli", "hook", event],
                          input=json.dumps({"session_id": "s-1", "cwd": str(project.root), **payload}),
                          capture_output=True, text=True, cwd=project.root, env=environment, timeout=120, check=False)


def system_message(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == {"systemMessage"}
    return answer["systemMessage"]


def test_hooks_queue_captures_and_stop_stores_the_new_ones(project):
    assert silent(hook(project, "stop", {"stop_hook_active": False}))  # an empty queue: nothing to say
    for event, payload in (("post-tool-use-failure", bash_failed("pytest tests/test_db.py", PYTEST_FAIL)),
                           ("post-tool-use", bash("pip install psycopg2-binary", "Successfully installed")),
                           ("post-tool-use", bash("pytest tests/test_db.py", PYTEST_PASS)),
                           ("post-tool-use", task(TASK_REPORT)),
                           ("post-tool-use", task(TASK_REPORT))):  # the same moment again: queued once
        assert hook(project, event, payload).returncode == 0
    queued = project.lm.list_queued_memories()
    assert [(q.tool, q.category, q.session_id) for q in queued] == [("Bash", "learning", "s-1"),
                                                                     ("Task", "learning", "s-1")]
    message = system_message(hook(project, "stop", {"stop_hook_active": False}))
    assert message.startswith("learnmem: kept 2 of 2 learnings captured from tool output")
    stored = project.lm.list_memories(tags=[capture_queue.CAPTURED_TAG])
    assert sorted(m.content[:12] for m in stored) == ["Turns out th", "`pytest test"]
    assert {tag for m in stored for tag in m.tags} == {"auto-captured", "tool:bash", "tool:task"}
    assert all(m.importance == capture_queue.CAPTURED_IMPORTANCE for m in stored)
    assert project.lm.list_queued_memories() == []
    # The agent hears of it with its next prompt, once.
    text = context_of(hook(project, "user-prompt-submit", {"prompt": "now add a changelog entry"}), "UserPromptSubmit")
    assert text == message
    assert silent(hook(project, "user-prompt-submit", {"prompt": "now add a changelog entry"}))
    # The same lesson captured again in a later session is known: nothing new is stored.
    assert hook(project, "post-tool-use", task(TASK_REPORT.replace("two weeks", "month"))).returncode == 0
    message = system_message(hook(project, "session-end", {"reason": "prompt_input_exit"}))
    assert message.startswith("learnmem: kept 0 of 1 learning captured from tool output (1 already known)")
    assert len(project.lm.list_memories(tags=[capture_queue.CAPTURED_TAG])) == 2
    assert project.rows("SELECT count(*) FROM sessions WHERE ended_at IS NULL") == [(0,)]
    text = context_of(hook(project, "session-start", {"source": "startup"}), "SessionStart")
    assert text.startswith("learnmem: kept 0 of 1")


def test_a_candidate_that_looks_like_a_credential_is_never_queued(project):
    leaked = task("Turns out the deploy failed because the token was rotated; the new one is "
                  "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 and it works now.")
    assert hook(project, "post-tool-use", leaked).returncode == 0
    assert project.lm.list_queued_memories() == []
    assert b"ghp_a1B2" not in project.db.read_bytes()


def test_flush_cut_short_stores_nothing_twice(project):
    store = project.lm.store
    moment = capture.lessons_in_prose(TASK_REPORT)[0]
    candidate = Candidate(moment.category, moment.content, "Task", moment.key)
    capture_queue.enqueue(store, [candidate], "s-1")
    first = project.lm.flush_queued_memories()
    assert len(first.stored) == 1
    # As if the process died after storing and before emptying the queue: the row comes back.
    capture_queue.enqueue(store, [candidate], "s-1")
    again = project.lm.flush_queued_memories()
    assert again.stored == () and again.known == 1
    assert len(project.lm.list_memories()) == 1


def test_the_memories_command_shows_flushes_and_discards_the_queue(project):
    env = {key: value for key, value in os.environ.items() if not key.startswith("LEARNMEM_")}
    env["LEARNMEM_DB"] = str(project.db)

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "learnmem.cli", "memories", *args], capture_output=True,
                              text=True, env=env, timeout=120, check=False)

    assert "Nothing queued" in cli("--queued").stdout
    for report in (TASK_REPORT, "The root cause was the load balancer's 60 s idle timeout closing long polls; "
                                "the client now sends a heartbeat every 30 s."):
        assert hook(project, "post-tool-use", task(report)).returncode == 0
    listed = json.loads(cli("--queued", "--json").stdout)
    assert listed["count"] == 2 and {item["tool"] for item in listed["results"]} == {"Task"}
    assert "Task  learning" in cli("--queued").stdout
    assert json.loads(cli("--discard-queued", "--json").stdout) == {"discarded": 2}
    assert project.lm.list_queued_memories() == [] and project.lm.list_memories() == []
    assert hook(project, "post-tool-use", task(TASK_REPORT)).returncode == 0
    flushed = json.loads(cli("--flush-queued", "--json").stdout)
    assert flushed["queued"] == 1 and len(flushed["stored"]) == 1
    both = cli("--queued", "--discard-queued")
    assert both.returncode == 2 and "give one of --queued" in both.stderr


def test_a_broken_capture_never_fails_the_agent(project):
    Path(f"{project.db}.capture").mkdir()  # the pending-failures file cannot be opened
    done = hook(project, "post-tool-use-failure", bash_failed("pytest", PYTEST_FAIL))
    assert silent(done)
    assert "capture failed" in (project.db.parent / "hooks.log").read_text()


def test_a_lesson_written_while_fixing_is_one_memory_not_two(tmp_path):
    failure = bash_failed("python -c 'import requests'",
                          "ImportError: urllib3 v2 only supports OpenSSL 1.1.1+, currently the 'ssl' module is "
                          "compiled with 'OpenSSL 1.0.2k-fips'")
    pin = edit("/repo/requirements.txt", "requests==2.31.0\n# urllib3 2.x refuses OpenSSL older than 1.1.1, and "
                                         "the CentOS 7 build box has 1.0.2k.\nurllib3<2", "requests==2.31.0")
    found = replay([failure, pin, bash("pip install -r requirements.txt && python -c 'import requests; print(1)'",
                                       "1")], tmp_path)
    assert [(c.tool, c.content[:34]) for c in found] == [("Edit", "urllib3 2.x refuses OpenSSL older ")]
    commit = bash('git commit -q -m "fix: cache per tenant\n\nThe issue was that get_settings() was wrapped in '
                  'lru_cache, so the first tenant fixed the settings for every later request."', "")
    (lesson,) = replay([commit], tmp_path)
    assert lesson.content.startswith("The issue was that get_settings()")


def test_an_outside_condition_left_unfixed_is_a_blocker_when_the_agent_stops(tmp_path):
    from learnmem.agents.capture.failures import unresolved_blockers

    pending = PendingFailures(tmp_path / "db.capture")
    limited = bash_failed("docker build -t app .", "ERROR: failed to copy: 429 Too Many Requests - toomanyrequests: "
                                                    "You have reached your pull rate limit.")
    typo = bash_failed("pytest tests/test_api.py", PYTEST_FAIL)
    for payload in (limited, typo):
        capture.candidates(payload, pending, True)
    (blocker,) = unresolved_blockers(pending)
    assert blocker.category == "blocker" and "pull rate limit" in blocker.content
    assert unresolved_blockers(pending) == []  # taken once; the test failure is no blocker and stays pending
    assert pending.path.exists()


def test_the_stop_hook_queues_and_stores_the_blocker(project):
    limited = bash_failed("git push origin main", "batch response: This repository is over its data quota. "
                                                  "Account responsible for LFS bandwidth should purchase more data "
                                                  "packs.\nerror: failed to push some refs to 'github.com:acme/x.git'")
    assert hook(project, "post-tool-use-failure", limited).returncode == 0
    assert project.lm.list_queued_memories() == []  # not yet: the agent may still fix it
    message = system_message(hook(project, "stop", {"stop_hook_active": False}))
    assert message.startswith("learnmem: kept 1 of 1 learning")
    (blocker,) = project.lm.list_memories(category="blocker")
    assert "over its data quota" in blocker.content and "auto-captured" in blocker.tags


def test_stop_opens_the_file_only_when_the_hooks_queued_something(project):
    moment = capture.lessons_in_prose(TASK_REPORT)[0]
    capture_queue.enqueue(project.lm.store, [Candidate(moment.category, moment.content, "Task", moment.key)], "s-1")
    marker = Path(f"{project.db}.queued")
    assert not marker.exists()  # queued by the library, not by a hook: no marker
    assert silent(hook(project, "stop", {"stop_hook_active": False}))
    assert len(project.lm.list_queued_memories()) == 1  # Stop did not look
    assert hook(project, "post-tool-use", task("The root cause was the load balancer's 60 s idle timeout closing "
                                               "long polls; the client now sends a heartbeat every 30 s.")).returncode == 0
    assert marker.exists()
    assert system_message(hook(project, "stop", {"stop_hook_active": False})).startswith("learnmem: kept 2 of 2")
    assert not marker.exists() and project.lm.list_queued_memories() == []
    capture_queue.enqueue(project.lm.store, [Candidate("learning", "Turns out the staging cron runs in "
                                                                   "Europe/Paris, so exports shift by an hour.",
                                                       "Task", "cron tz")], "s-1")
    message = system_message(hook(project, "session-end", {"reason": "other"}))  # SessionEnd always looks
    assert message.startswith("learnmem: kept 1 of 1")
