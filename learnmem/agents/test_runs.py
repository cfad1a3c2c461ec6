"""Test and build runs in an agent's shell commands: which command lines are runs, and what a run came to.

A command is a test or build run when one of its simple commands is (pytest, python -m pytest,
npm/pnpm/yarn/bun test, cargo test/build, go test/build, make test/build, tox, nox, jest, vitest, gradle,
mvn, dotnet...), after environment assignments and wrappers (env, time, timeout 60, uv run, npx...) are
set aside; `echo pytest` or `git commit -m "run pytest"` are not. The outcome is the runner's summary line
when the output holds one (pytest, unittest, cargo, go, jest, vitest, mocha, tox, nox, make...), else the
exit status, but only where the status is the run's: not for a run piped into another command, followed
by `;` or `||`, or run after `||` (`npm test && echo done` is; `pytest | tail` is not, without a summary).
Interrupted or timed-out runs are no outcome. The PostToolUse hooks (learnmem.agents.hooks) use this.

Standard library only: it runs inside a hook process.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from learnmem.text import LazyPattern, clip

_ASSIGNMENT = LazyPattern(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PYTHON = LazyPattern(r"^(?:python|pypy)(?:\d+(?:\.\d+)*)?(?:w)?$|^py$")
_WRAPPERS = {"env", "time", "nice", "nohup", "sudo", "command", "exec", "stdbuf", "ionice", "chronic", "caffeinate",
             "xvfb-run", "timeout", "gtimeout", "dotenv"}
_RUNNERS = {"uv", "poetry", "pipenv", "pdm", "hatch", "rye", "pixi"}  # `<runner> run <command>`
_NODE_EXEC = {"npx", "pnpx", "bunx"}
_NODE_PACKAGE_MANAGERS = {"npm", "pnpm", "yarn", "bun"}
_TEST_TOOLS = {"pytest", "py.test", "tox", "nox", "jest", "vitest", "mocha", "ava", "rspec", "phpunit", "ctest",
               "nextest", "karma", "cypress", "behave", "trial", "green", "ward"}
_TEST_TARGET = LazyPattern(r"^(?:test|tests|check|unittest|unit-test|integration-test|e2e)(?:[-_:.].*)?$")
_BUILD_TARGET = LazyPattern(r"^(?:build|all|compile|dist|release|install)(?:[-_:.].*)?$")
_SCRIPT = LazyPattern(r"^(?:test|tests|t|tst)(?:[-_:.].*)?$|^(?:build|compile)(?:[-_:.].*)?$")
_HARMLESS = {"echo", "printf", "true", ":", "date", "sleep", "tput", "clear"}
_SEPARATORS = {"&&", "||", ";", "|", "|&", "&", ";;", ";&", "\n"}
_REDIRECT = LazyPattern(r"^\d*(?:[<>]{1,2}|>&|<&|&>{1,2})$")


@dataclass(frozen=True)
class TestCommand:
    """A test or build command found in a command line, and what the command's exit status says of it."""

    kind: str  # test or build
    program: str  # the tool that ran it, e.g. pytest, npm, cargo
    success_is_its: bool  # the whole command succeeding means this run passed
    failure_is_its: bool  # the whole command failing means this run failed


@dataclass(frozen=True)
class RunOutcome:
    """What a test/build run came to: passed or failed, the exit code if known, its summary line."""

    kind: str
    outcome: str
    exit_code: int | None
    summary: str


def _split(command: str) -> list[tuple[list[str], str | None, str | None]]:
    """The simple commands of a command line: (words, operator before, operator after)."""
    import shlex

    flat = command.replace("\r", "").replace("\\\n", " ").replace("\n", " ; ")
    try:
        lexer = shlex.shlex(flat, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:  # unbalanced quotes: split on the operators and spaces alone
        tokens = re.findall(r"&&|\|\||\|&|[;&|()]|[^\s;&|()]+", flat)
    segments: list[tuple[list[str], str | None, str | None]] = []
    words: list[str] = []
    before = None
    skip_next = False
    for token in tokens:
        if skip_next:
            skip_next = False
            continue
        if token in _SEPARATORS:
            if words:
                segments.append((words, before, token))
            words, before = [], token
        elif token in ("(", ")", "{", "}"):
            continue
        elif _REDIRECT.match(token):
            skip_next = True  # the redirection's target
        elif re.match(r"^\d*[<>]", token):  # 2>/dev/null written as one word
            continue
        else:
            words.append(token)
    if words:
        segments.append((words, before, None))
    return segments


def _program(words: list[str]) -> list[str]:
    """The words from the program on: environment assignments, wrappers (env, time, timeout 60, sudo...) and
    runners (uv run, poetry run, npx, bundle exec...) removed."""
    words = list(words)
    while words:
        head = os.path.basename(words[0]).lower().removesuffix(".exe")
        if _ASSIGNMENT.match(words[0]):
            words = words[1:]
        elif head in _WRAPPERS:
            words = words[1:]
            while words and (words[0].startswith("-") or _ASSIGNMENT.match(words[0])):
                words = words[1:]
            if head in ("timeout", "gtimeout") and words and re.match(r"^\d+(?:\.\d+)?[smhd]?$", words[0]):
                words = words[1:]
        elif head in _RUNNERS and len(words) > 1 and words[1] == "run":
            words = words[2:]
            while words and words[0].startswith("-"):
                words = words[1:]
        elif head in _NODE_EXEC or (head == "bundle" and len(words) > 1 and words[1] == "exec"):
            words = words[2:] if head == "bundle" else words[1:]
            while words and words[0].startswith("-"):
                words = words[1:]
        elif head in ("bash", "sh", "zsh") and "-c" in words[1:-1]:
            return ["<shell>", words[words.index("-c", 1) + 1]]
        else:
            return words
    return words


def _kind(words: list[str]) -> tuple[str, str] | None:
    """(kind, program) when `words` (a simple command, wrappers removed) runs tests or a build."""
    if not words:
        return None
    program = os.path.basename(words[0]).lower().removesuffix(".exe")
    args = [word for word in words[1:] if not word.startswith("-")]
    first = args[0] if args else ""
    if program in _TEST_TOOLS:
        return "test", program
    if _PYTHON.match(program):
        if "-m" in words:
            module = words[words.index("-m") + 1] if words.index("-m") + 1 < len(words) else ""
            if module in ("pytest", "unittest", "tox", "nox", "nose2", "green", "ward", "trial"):
                return "test", module
            if module == "build":
                return "build", "python -m build"
            return None
        script = os.path.basename(first)
        if script == "manage.py" and len(args) > 1 and args[1] == "test":
            return "test", "manage.py"
        if script in ("runtests.py", "run_tests.py", "test.py"):
            return "test", script
        if script == "setup.py" and len(args) > 1 and args[1] in ("test", "build", "build_ext"):
            return ("test" if args[1] == "test" else "build"), "setup.py"
        return None
    if program in _NODE_PACKAGE_MANAGERS:
        if first in ("run", "run-script"):
            script = args[1] if len(args) > 1 else ""
        else:  # npm runs only its test script without `run`; pnpm, yarn and bun run any script
            script = first if program != "npm" or first in ("test", "t", "tst") else ""
        if _SCRIPT.match(script):
            return ("build" if re.match(r"^(?:build|compile)", script) else "test"), program
        return None
    if program == "cargo":
        sub = next((arg for arg in args if not arg.startswith("+")), "")
        if sub in ("test", "nextest", "t"):
            return "test", "cargo"
        if sub in ("build", "b", "check", "c"):
            return "build", "cargo"
        return None
    if program == "go":
        return ("test", "go") if first == "test" else ("build", "go") if first == "build" else None
    if program in ("make", "gmake", "just", "task", "mage", "ninja"):
        targets = [arg for arg in args if "=" not in arg]
        if any(_TEST_TARGET.match(target) for target in targets):
            return "test", program
        if not targets or any(_BUILD_TARGET.match(target) for target in targets):
            return "build", program
        return None
    if program in ("gradle", "gradlew", "mvn", "mvnw", "dotnet", "swift", "mix", "deno",
                   "sbt", "lein", "stack", "cabal", "dune", "zig", "bazel", "bazelisk", "flutter", "dart",
                   "playwright", "elixir"):
        if any(_TEST_TARGET.match(arg) or arg in ("verify",) for arg in args[:2]):
            return "test", program
        if any(arg in ("build", "package", "install", "assemble", "compile") for arg in args[:2]):
            return "build", program
        return None
    if program == "cmake" and "--build" in words:
        return "build", "cmake"
    if program in ("tsc", "vue-tsc"):
        return "build", program
    return None


def simple_commands(command: str) -> list[list[str]]:
    """The simple commands of a command line, in order, each from its program on (environment assignments,
    wrappers and runners removed): `cd src && uv run pytest -x` -> [["cd", "src"], ["pytest", "-x"]]."""
    return [words for words in (_program(words) for words, _, _ in _split(command)) if words]


def detect_test_command(command: str) -> TestCommand | None:
    """The last test or build run in a shell command line (pytest, python -m pytest, npm/pnpm/yarn test,
    cargo test, go test, make test / make build, tox, nox, ...), with whether the command's exit status is
    that run's: a run piped into another command, followed by `;` or `||`, run after `||` or in the
    background is not; `cmd && echo done` is (echo does not fail)."""
    segments = _split(command)
    found = None
    for index, (words, _before, _after) in enumerate(segments):
        words = _program(words)
        if words[:1] == ["<shell>"]:
            inner = detect_test_command(words[1])
            if inner is not None:
                found = (index, inner.kind, inner.program)
            continue
        kind = _kind(words)
        if kind is not None:
            found = (index, *kind)
    if found is None:
        return None
    index, kind, program = found
    _words, before, after = segments[index]
    rest = segments[index + 1:]
    if after in ("|", "|&", "&") or before in ("||", "&"):
        return TestCommand(kind, program, False, False)
    if not rest:
        return TestCommand(kind, program, True, True)
    chained = after == "&&" and all(seg_after in ("&&", None) for _w, _b, seg_after in rest)
    harmless = all(os.path.basename((_program(words) or [""])[0]) in _HARMLESS for words, _b, _a in rest)
    return TestCommand(kind, program, chained, chained and harmless)


# Summary lines of common runners: (pattern, which group tells pass/fail, or a fixed outcome).
_PYTEST_LINE = LazyPattern(
    r"^=*\s*((?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)(?:, )?)+"
    r".* in [\d.]+s.*?)\s*=*$|^=+ (no tests ran.*?) =+$")
_SUMMARIES: tuple[tuple[LazyPattern, Callable[[re.Match], str | None]], ...] = (
    (_PYTEST_LINE, lambda m: "failed" if re.search(r"\b(?:failed|errors?)\b|no tests ran", m.group(0)) else
     "passed" if "passed" in m.group(0) else None),
    (LazyPattern(r"^test result: (ok|FAILED)\."), lambda m: "passed" if m.group(1) == "ok" else "failed"),
    (LazyPattern(r"^(?:FAIL|--- FAIL:)(?:\s|$)"), lambda m: "failed"),
    (LazyPattern(r"^ok\s+\S+\s+(?:[\d.]+s|\(cached\))"), lambda m: "passed"),
    (LazyPattern(r"^Tests?:\s+(.*\b(?:passed|failed|total)\b.*)$"),
     lambda m: "failed" if re.search(r"\d+ failed", m.group(1)) else "passed"),
    (LazyPattern(r"^\s*Tests\s+(.*\d+ (?:passed|failed).*)$"),
     lambda m: "failed" if re.search(r"\d+ failed", m.group(1)) else "passed"),
    (LazyPattern(r"^\s*(\d+) failing\b"), lambda m: "failed"),
    (LazyPattern(r"^\s*(\d+) passing\b"), lambda m: "passed"),
    (LazyPattern(r"^(?:OK|OK \(.*\))$"), lambda m: "passed"),
    (LazyPattern(r"^FAILED \((?:failures|errors)=.*\)$"), lambda m: "failed"),
    (LazyPattern(r"^\s*congratulations :\)"), lambda m: "passed"),
    (LazyPattern(r"^\s*evaluation failed :\(|^ERROR: .*(?:commands failed|InvocationError)"), lambda m: "failed"),
    (LazyPattern(r"^nox > Session .* was successful"), lambda m: "passed"),
    (LazyPattern(r"^nox > Session .* (?:failed|aborted)"), lambda m: "failed"),
    (LazyPattern(r"^\S*make(?:\[\d+\])?: \*\*\* .*Error \d+"), lambda m: "failed"),
    (LazyPattern(r"^BUILD (SUCCESSFUL|FAILED)\b"), lambda m: "passed" if m.group(1) == "SUCCESSFUL" else "failed"),
    (LazyPattern(r"^\[INFO\] BUILD (SUCCESS|FAILURE)"), lambda m: "passed" if m.group(1) == "SUCCESS" else "failed"),
    (LazyPattern(r"^error(?:\[E\d+\])?: (?:could not compile|aborting due to)"), lambda m: "failed"),
    (LazyPattern(r"^npm (?:ERR!|error) (?:Test failed|code E?LIFECYCLE|code 1)"), lambda m: "failed"),
    (LazyPattern(r"^Found \d+ errors?\b"), lambda m: "failed"),
)
_EXIT_CODE = LazyPattern(r"\bexit(?:ed)?(?:\s+with)?(?:\s+non-zero)?(?:\s+status)?(?:\s+code)?\s*[:=]?\s*(-?\d+)\b",
                        re.IGNORECASE)
_NOT_AN_OUTCOME = LazyPattern(r"\b(?:interrupted|timed out|timeout|cancell?ed|aborted by user|permission denied|"
                             r"was blocked|rejected)\b", re.IGNORECASE)
_ANSI = LazyPattern(r"\x1b\[[0-9;?]*[A-Za-z]")


def summarise(output: str) -> tuple[str | None, str]:
    """(passed/failed/None, the summary line) from a run's output: the last line a known runner prints as its
    verdict (pytest, unittest, cargo, go, jest, vitest, mocha, tox, nox, make, gradle, maven, tsc...). A
    failure line anywhere in the tail wins over a later pass (several crates, packages or sessions)."""
    lines = [" ".join(_ANSI.sub("", line).split()) for line in output.splitlines()[-200:]]
    verdicts = []
    for line in lines:
        if not line:
            continue
        for pattern, verdict in _SUMMARIES:
            match = pattern.search(line)
            if match:
                outcome = verdict(match)
                if outcome:
                    verdicts.append((outcome, line))
                break
    if verdicts:
        failed = [line for outcome, line in verdicts if outcome == "failed"]
        return ("failed", failed[-1]) if failed else ("passed", verdicts[-1][1])
    tail = [line for line in lines if line]
    return None, tail[-1] if tail else ""


def _response_text(response: Any) -> str:
    if isinstance(response, Mapping):
        parts = [response.get(key) for key in ("stdout", "stderr", "output", "result", "content")]
        return "\n".join(part for part in parts if isinstance(part, str))
    if isinstance(response, list):  # content blocks
        return "\n".join(block.get("text", "") for block in response if isinstance(block, Mapping)
                         and isinstance(block.get("text"), str))
    return response if isinstance(response, str) else ""


def _exit_code(response: Any, error: str) -> int | None:
    if isinstance(response, Mapping):
        for key in ("exit_code", "exitCode", "returncode", "return_code", "returnCode", "code"):
            value = response.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                return max(min(value, 2**31 - 1), -(2**31))
    for text in (error, response if isinstance(response, str) else ""):
        match = _EXIT_CODE.search(text[:300]) if text else None
        if match:
            return int(match.group(1)) if abs(int(match.group(1))) < 2**31 else None
    return None


def judge_run(test: TestCommand, failed_event: bool, response: Any, error: str = "") -> RunOutcome | None:
    """Passed or failed, from the runner's summary line when there is one, else from the exit status where the
    command's status is the run's (detect_test_command). None when the run tells nothing: interrupted, timed
    out, blocked, or the status belongs to another command and no summary says."""
    if isinstance(response, Mapping) and response.get("interrupted"):
        return None
    text = "\n".join(part for part in (_response_text(response), error) if part)
    code = _exit_code(response, error)
    verdict, line = summarise(text)
    if verdict is None:
        if failed_event and code is None and _NOT_AN_OUTCOME.search(error or text[-500:]):
            return None
        failed = failed_event or (code is not None and code != 0)
        if (failed and not test.failure_is_its) or (not failed and not test.success_is_its):
            return None
        verdict = "failed" if failed else "passed"
    return RunOutcome(test.kind, verdict, code, clip(line, 300))
