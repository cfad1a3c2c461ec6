"""Failures that were then fixed, and failures that block: the half of learnmem.agents.capture.tool_output that follows a Bash
command across tool calls.

A command fails (Claude Code's PostToolUseFailure, or a test or build run whose summary says failed) with
lines that say what went wrong (`error_lines`: an exception, `error[E0382]:`, `error TS2345:`, pytest's
`FAILED test::id - ...`, `fatal:`, the line after Gradle's "What went wrong:"...). It waits in
`<file>.capture` (JSON under a lock, PendingFailures) with what the agent does next: files edited (with
their first added lines) and commands run, mere reads (ls, cat, git status) left out. When the same
command, a broader one (`pytest` after `pytest tests/a.py`) or the same with more arguments passes, the
failure and its fix are a candidate learning. Not taken: a rerun that passes with nothing done (flaky), an
error in names of the project's own half-written code (NameError, "cannot import name X" from the project,
an undeclared type, a missing relative module: the agent's typo, not a lesson), and a failure whose lesson
the agent wrote down meanwhile (`PendingFailures.act(explained=True)`: one lesson, one memory).

A failure still pending when the agent stops whose output names an outside condition (a rate limit, a
quota, access denied, missing credentials, no network) is what blocks the work: `unresolved_blockers`
makes one blocker of them, for the Stop hook.

Standard library only: it runs inside the PostToolUse hook.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from learnmem.agents.capture.candidates import (
    ANSI,
    MAX_CONTENT_CHARS,
    Candidate,
    added_lines,
    distinctive,
    flat,
    moment_key,
    program_of,
    reads_only,
    response_text,
    scan_window,
)
from learnmem.agents.test_runs import detect_test_command, judge_run, simple_commands
from learnmem.text import LazyPattern, clip
from learnmem.agents.tool_counter import locked_file

PENDING_SECONDS = 3 * 3600  # a failure not fixed within this is forgotten
MAX_PENDING = 8
MAX_ACTIONS = 6
MAX_ERROR_LINES = 2
MAX_ERROR_CHARS = 300

_ERROR_LINES = (  # most specific first
    LazyPattern(r"^FAILED \S+ - \S.*"),  # pytest's short summary: the test and its error
    LazyPattern(r"\b(?:[A-Z][a-zA-Z]*\.)*[A-Z]\w*(?:Error|Exception|Failure|Panic)\b(?::\s*\S.*|\s+at\s.*|\s*$)"),
    LazyPattern(r"\berror(?:\[E\d+\]| TS\d+|\s+CS\d+| [A-Z]+\d+| \[[A-Z_]+\])?:\s*\S.*", re.IGNORECASE),
    LazyPattern(r"^(?:fatal|panic|FATAL|ERROR):?\s+\S.*|\bWARNING: DATA RACE\b|^--- FAIL: .*|\*\*\* .+"
                r"|^[×✗✘]\s+\S.*|^╰─▶\s+\S.*"),
    LazyPattern(r"^[\w./-]+\.\w+:\d+(?::\d+)?:\s*\S.*"),  # a compiler's or linter's file:line: message
    LazyPattern(r"^npm ERR! (?!code\b|errno\b|syscall\b|path\b|A complete log|\s*$)\S.*"),
    LazyPattern(r"\b(?:command not found|No such file or directory|Permission denied|Connection refused"
                r"|Segmentation fault|Killed|Too Many Requests|exec format error|Unsupported\b|unsatisfiable"
                r"|could not (?:resolve|find|open|load)|cannot (?:find|open|load|resolve))\b.*", re.IGNORECASE),
)
# A heading a tool prints before the line that says what went wrong (Gradle, Spring Boot, Vite...).
_LABEL = LazyPattern(r"^(?:\* )?(?:what went wrong|description|caused by|error during build|reason|details"
                     r"|error|problem):?$", re.IGNORECASE)
# Says only that something failed, not what.
_GENERIC = LazyPattern(r"\*\*\* \[[^\]]*\] Error \d+|subprocess-exited-with-error|could not compile|build failed|command failed|exited with"
                       r"|did not run successfully|^error: aborting|returned non-zero|^Error: Process completed",
                       re.IGNORECASE)
# Names missing from the project's own half-written code: the agent's typo, not a lesson.
_OWN_NAME_ERROR = LazyPattern(
    r"\bNameError\b|\bReferenceError: \w+ is not defined|cannot import name '\w+' from '[\w.]+' \((?![^)]*(?:site|"
    r"dist)-packages)|error\[E0(?:412|425|433)\]|error TS2304|\bundefined: \w+$|cannot find symbol"
    r"|\bIndentationError\b|unresolved reference|Cannot find module '\.{1,2}/")
# An outside condition: what stops the work now when no fix follows.
_OUTSIDE = LazyPattern(
    r"rate limit|too many requests|\b429\b|quota|exceeded (?:your|the)|access ?denied|not authori[sz]ed"
    r"|unauthori[sz]ed|\b40[13]\b|forbidden|permission denied for|insufficient (?:permissions|privileges)"
    r"|credentials|authentication (?:failed|required)|login required|non[- ]TTY|no space left"
    r"|network is unreachable|could not resolve host|name resolution|payment required|suspended"
    r"|over (?:data )?quota|limit exceeded", re.IGNORECASE)


def error_lines(output: str) -> list[str]:
    """The lines that say what went wrong, most specific first (at most MAX_ERROR_LINES); lines that only
    say that something failed (make's `*** [x] Error 2`, "could not compile") are not among them. A line
    after a label such as Gradle's "What went wrong:" ranks first."""
    lines = [flat(ANSI.sub("", line)).lstrip("│|>#0123456789. ") for line in scan_window(output).splitlines()]
    lines = [line for line in lines if line and not re.match(r"^Exit code \d+$", line)]
    found: list[tuple[int, int, str]] = []
    for position, line in enumerate(lines[1:], start=1):
        if _LABEL.match(lines[position - 1]):
            found.append((0, position, clip(line, MAX_ERROR_CHARS)))
    for rank, pattern in enumerate(_ERROR_LINES, start=1):
        for position, line in enumerate(lines):
            match = pattern.search(line)
            if match:
                found.append((rank, position, clip(match.group(0), MAX_ERROR_CHARS)))
    chosen: list[str] = []
    for _, _, line in sorted(item for item in found if not _GENERIC.search(item[2])):
        if not any(line in other or other in line for other in chosen):
            chosen.append(line)
    return chosen[:MAX_ERROR_LINES]


def outside_condition(output: str) -> str | None:
    """The first line of `output` that names an outside condition (a rate limit, a quota, access denied...)."""
    for line in scan_window(output).splitlines():
        if _OUTSIDE.search(line):
            return clip(ANSI.sub("", line).strip(" │|>"), MAX_ERROR_CHARS)
    return None


def _tokens(words: list[str]) -> set[str]:
    """A simple command's arguments as bare words (flags dropped, quotes and punctuation stripped)."""
    return {token for word in words[1:] for token in (piece.strip("'\"`,;()[]{}") for piece in word.split())
            if token and not token.startswith("-")}


def _reruns(passed: list[str], failed: list[str]) -> bool:
    """Whether a passing simple command reruns a failed one: the same program, and the one's arguments all
    among the other's (`pytest` reruns `pytest -x tests/a.py`; so does `python -c 'import a; print(a.x)'`
    `python -c 'import a'`; `pytest tests/b.py` does not rerun `pytest tests/a.py`)."""
    if not passed or not failed or program_of(passed) != program_of(failed):
        return False
    ran, wanted = _tokens(passed), _tokens(failed)
    return ran <= wanted or wanted <= ran


def edit_action(tool_input: Mapping[str, Any]) -> str | None:
    """An Edit or Write as the fix it may be: the file and its first added lines."""
    path = tool_input.get("file_path") or tool_input.get("notebook_path")
    if not isinstance(path, str) or not path:
        return None
    added = [clip(line, 80) for line in added_lines(tool_input) if line.strip()][:2]
    return f"editing {Path(path).name}" + (f" (+ {' / '.join(added)})" if added else "")


def _command_action(words: list[str]) -> str | None:
    return None if reads_only(words) else f"running `{clip(shlex.join(words), 100)}`"


class PendingFailures:
    """Failed commands waiting for a fix, in `<file>.capture` (JSON, under an exclusive lock)."""

    def __init__(self, path: Path):
        self.path = path

    def update(self, change) -> Any:
        """Apply `change(failures) -> result` to the list under the lock; an empty list removes the file."""
        with locked_file(self.path) as handle:
            try:
                failures = [f for f in json.loads(handle.read() or "[]") if isinstance(f, dict)]
            except ValueError:
                failures = []
            now = time.time()
            failures = [f for f in failures if now - float(f.get("at", 0)) < PENDING_SECONDS][-MAX_PENDING:]
            result = change(failures)
            handle.write(json.dumps(failures[-MAX_PENDING:]))
        if not failures:
            try:
                os.unlink(self.path)
            except OSError:
                pass
        return result

    def error_words(self) -> set[str]:
        """The distinctive words of the pending failures' errors (what an explanation would name)."""
        if not self.path.exists():
            return set()
        return self.update(lambda failures: {word for f in failures for word in distinctive(" ".join(f["errors"]))})

    def act(self, action: str | None, explained: bool = False) -> None:
        """Record something done while failures are pending; `explained`: a lesson written down now
        explains them (they will not be taken again when their rerun passes)."""
        if not self.path.exists() or (action is None and not explained):
            return

        def record(failures: list[dict]) -> None:
            for failure in failures:
                if action and len(failure["actions"]) < MAX_ACTIONS and action not in failure["actions"]:
                    failure["actions"].append(action)
                failure["explained"] = failure.get("explained", False) or explained

        self.update(record)


def _fixed(failures: list[dict], segments: list[list[str]], command: str) -> list[Candidate]:
    """The failures a passing command line reruns, as candidates; the commands before the rerun count as the
    fix. Settled failures leave the list."""
    found = []
    for failure in list(failures):
        rerun = next((i for i, words in enumerate(segments) if _reruns(words, failure["words"])), None)
        if rerun is None:
            continue
        failures.remove(failure)
        actions = failure["actions"] + [a for a in map(_command_action, segments[:rerun]) if a]
        if not actions or failure.get("explained"):
            continue  # nothing done: a flaky rerun; explained: the lesson was taken as written
        text = (f"`{clip(failure['command'], 160)}` failed with: {'; '.join(failure['errors'])}. "
                f"It passed (`{clip(command, 100)}`) after {', '.join(actions)}.")
        found.append(Candidate("learning", clip(text, MAX_CONTENT_CHARS), "Bash",
                               moment_key(f"{failure['command']} {failure['errors'][0]}")))
    return found


def failures_and_fixes(command: str, payload: Mapping[str, Any], pending: PendingFailures,
                       failed_event: bool) -> list[Candidate]:
    """Track a Bash command's failure; when it passes and reruns failed ones after other work, the
    candidates (module docstring)."""
    response = payload.get("tool_response")
    error = payload.get("error") if isinstance(payload.get("error"), str) else ""
    if isinstance(response, Mapping) and response.get("interrupted") or payload.get("is_interrupt"):
        return []
    test = detect_test_command(command)
    run = judge_run(test, failed_event, response, error) if test is not None else None
    segments = simple_commands(command)
    if failed_event or (run is not None and run.outcome == "failed"):
        output = "\n".join(part for part in (response_text(response), error) if part)
        errors = error_lines(output)
        if not errors or not segments or _OWN_NAME_ERROR.search(" ".join(errors)):
            pending.act(None if not segments else _command_action(segments[-1]))
            return []
        failure = {"words": segments[-1], "command": command[:500], "errors": errors, "at": time.time(),
                   "actions": [], "outside": outside_condition(output)}

        def remember(failures: list[dict]) -> None:
            for f in failures:
                if f["words"] != failure["words"] and len(f["actions"]) < MAX_ACTIONS:
                    f["actions"].append(f"running `{clip(command, 100)}`")
            failures[:] = [f for f in failures if f["words"] != failure["words"]] + [failure]

        pending.update(remember)
        return []
    if not pending.path.exists():
        return []

    def settle(failures: list[dict]) -> list[Candidate]:
        found = _fixed(failures, segments, command)
        action = next((a for a in map(_command_action, reversed(segments)) if a), None)
        for f in failures:
            if action and len(f["actions"]) < MAX_ACTIONS and action not in f["actions"]:
                f["actions"].append(action)
        return found

    return pending.update(settle)


def unresolved_blockers(pending: PendingFailures) -> list[Candidate]:
    """The pending failures whose output names an outside condition (a rate limit, a quota, access denied, no
    credentials, no network), as one blocker: what stops the work when the agent stops. They leave the list.
    The Stop hook asks."""
    if not pending.path.exists():
        return []

    def take(failures: list[dict]) -> list[Candidate]:
        blocking = [f for f in failures if f.get("outside")]
        if not blocking:
            return []
        for failure in blocking:
            failures.remove(failure)
        parts = [f"`{clip(f['command'], 120)}` fails: {f['outside']}" for f in blocking]
        tried = [action for f in blocking for action in f["actions"]]
        text = "Blocked: " + "; ".join(parts) + (f". Tried: {', '.join(tried[:MAX_ACTIONS])}." if tried else ".")
        return [Candidate("blocker", clip(text, MAX_CONTENT_CHARS), "Bash", moment_key(f"blocked {blocking[0]['outside']}"))]

    return pending.update(take)
