"""`learnmem doctor`: the whole set-up checked end to end, as the agents will run it, with what to fix.

Each check runs the real thing, in the environment an agent started from an IDE or a new terminal has
(PATH=/usr/bin:/bin and HOME, no virtual environment): the file opens; the model is present; each agent's
launcher finds learnmem; every hook command of `.claude/settings.json` answers a sample event through a
shell, as Claude Code runs it; each MCP server entry (`.mcp.json`, `opencode.json`) starts and answers
`initialize` and `tools/list`; Claude Code has approved the project's server. Hooks and servers run against a
scratch file ($LEARNMEM_DB in a temporary folder), so the check changes nothing in the project's file.

A check is "ok", "todo" (a step the user still has to take, such as approving the server in Claude Code) or
"fault"; the set-up is healthy when nothing is a fault. Every todo and fault says how to fix it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from learnmem.agents.setup.launcher import LAUNCHERS, launcher_text
from learnmem.agents.setup.settings import HOOK_EVENTS, SERVER_NAME, hook_command
from learnmem.embedding.embed import DEFAULT_MODEL, resolve_model_dir
from learnmem.storage.lake_store import open_store
from learnmem.storage.paths import database_path, project_root

# The PATH of an agent started outside any shell set-up.
BARE_PATH = "/usr/bin:/bin"
# Generous: a server on a busy machine loads the SDK and the library before it lists its tools.
PROCESS_TIMEOUT_S = 60
_SAMPLE_EVENTS: dict[str, dict[str, Any]] = {
    "session-start": {"source": "startup"},
    "user-prompt-submit": {"prompt": "hello"},
    "pre-tool-use": {"tool_name": "Read", "tool_input": {"file_path": "README.md"}},
    "post-tool-use": {"tool_name": "Read", "tool_input": {"file_path": "README.md"}, "tool_response": {}},
    "post-tool-use-failure": {"tool_name": "Bash", "tool_input": {"command": "false"}, "error": "Exit code 1"},
    "stop": {"stop_hook_active": False},
    "session-end": {"reason": "other"},
}
_INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "learnmem-doctor", "version": "0"}}}


@dataclass(frozen=True)
class Check:
    """One thing checked: its name, "ok" / "todo" / "fault", what was found, and how to fix it."""

    name: str
    status: str
    detail: str
    fix: str | None = None


@dataclass(frozen=True)
class DoctorReport:
    """Every check of one project's set-up; healthy when none is a fault."""

    root: str
    healthy: bool
    checks: tuple[Check, ...]


def diagnose(directory: str | os.PathLike[str] = ".", db: str | None = None) -> DoctorReport:
    """Check the set-up of the project holding `directory` (its git top level); `db`: the file (else
    $LEARNMEM_DB, else the project's)."""
    root = project_root(Path(directory))
    home = os.environ.get("HOME", str(Path.home()))
    checks = [_check_file(root, db), _check_model()]
    with tempfile.TemporaryDirectory(prefix="learnmem-doctor-") as scratch:
        env = {"PATH": BARE_PATH, "HOME": home, "LEARNMEM_DB": str(Path(scratch) / "doctor.duckdb"),
               **{key: os.environ[key] for key in ("LEARNMEM_CACHE_DIR", "LEARNMEM_MODEL", "LEARNMEM_BIN")
                  if key in os.environ}}
        configured = [target for target, rel in LAUNCHERS.items() if (root / rel).exists()
                      or (root / _agent_file(target)).exists()]
        if not configured:
            checks.append(Check("agents", "todo", "no agent is set up in this project",
                                "run `learnmem init --claude` (Claude Code) or `learnmem init --opencode`"))
        for target in configured:
            launcher = _check_launcher(root, target, env)
            checks.append(launcher)
            if launcher.status == "fault":
                continue
            if target == "claude":
                checks += _check_hooks(root, env)
                checks.append(_check_server(root, ".mcp.json", _claude_argv(root, env), env))
                checks.append(_check_approval(root, Path(home)))
            else:
                checks.append(_check_server(root, "opencode.json", _opencode_argv(root), env))
    return DoctorReport(str(root), all(check.status != "fault" for check in checks), tuple(checks))


def _agent_file(target: str) -> str:
    return ".mcp.json" if target == "claude" else "opencode.json"


# --------------------------------------------------------------------------- the file and the model


def _check_file(root: Path, db: str | None) -> Check:
    target = db or os.environ.get("LEARNMEM_DB") or str(database_path(root))
    try:
        described = open_store(target, True, DEFAULT_MODEL, 0).describe()
    except Exception as exc:  # noqa: BLE001 - any failure to open is the finding
        return Check("file", "fault", f"{target}: {exc}", "run `learnmem init` in the project (it creates the file)")
    counts = described["counts"]
    return Check("file", "ok", f"{described['path']}: {counts.get('memories', 0)} memories, "
                               f"{counts.get('code_units', 0)} code units, {counts.get('commits', 0)} commits")


def _check_model() -> Check:
    try:
        return Check("model", "ok", str(resolve_model_dir()))
    except Exception as exc:  # noqa: BLE001
        return Check("model", "fault", str(exc), "install the weights (see the message), then run doctor again")


# --------------------------------------------------------------------------- the launcher and the hooks


def _check_launcher(root: Path, target: str, env: dict[str, str]) -> Check:
    rel = LAUNCHERS[target]
    name = f"launcher {rel}"
    if not (root / rel).is_file():
        return Check(name, "fault", "missing: the agent's files run it", f"run `learnmem init --{target}`")
    if (root / rel).read_text(encoding="utf-8") != launcher_text():
        return Check(name, "fault", "not the launcher this learnmem writes (older, or edited)",
                     f"run `learnmem init --{target}` (it rewrites the launcher)")
    found = subprocess.run(["sh", rel, "where"], cwd=root, env=env, capture_output=True, text=True,
                           timeout=PROCESS_TIMEOUT_S)
    if found.returncode == 0:
        return Check(name, "ok", f"runs {found.stdout.strip()}")
    return Check(name, "fault", "finds no learnmem with PATH=/usr/bin:/bin, as an agent started from an IDE "
                                f"may have: {found.stderr.strip()}",
                 f"run `learnmem init --{target}` from the environment that has learnmem (it records where), "
                 "or install it with `pipx install .` / `uv tool install .` from a clone of learnmem")


def _check_hooks(root: Path, env: dict[str, str]) -> list[Check]:
    try:
        settings = json.loads((root / ".claude" / "settings.json").read_text(encoding="utf-8"))
        groups = settings.get("hooks", {})
    except (OSError, ValueError, AttributeError) as exc:
        return [Check("hooks", "fault", f".claude/settings.json: {exc}", "run `learnmem init --claude`")]
    checks = []
    for event, slug, _, _ in HOOK_EVENTS:
        commands = [hook.get("command") for group in groups.get(event, []) if isinstance(group, dict)
                    for hook in group.get("hooks", []) if isinstance(hook, dict)]
        ours = [command for command in commands if isinstance(command, str) and command.endswith(f" hook {slug}")]
        name = f"hook {event}"
        if not ours:
            checks.append(Check(name, "fault", "not in .claude/settings.json", "run `learnmem init --claude`"))
            continue
        event_json = json.dumps({"session_id": "learnmem-doctor", "transcript_path": os.devnull, "cwd": str(root),
                                 "hook_event_name": event, **_SAMPLE_EVENTS[slug]})
        ran = subprocess.run(["sh", "-c", ours[0]], input=event_json, cwd=root, capture_output=True, text=True,
                             env={**env, "CLAUDE_PROJECT_DIR": str(root)}, timeout=PROCESS_TIMEOUT_S)
        problem = _hook_problem(ran)
        if problem:
            checks.append(Check(name, "fault", f"`{ours[0]}`: {problem}",
                                "run `learnmem init --claude`; if it persists, run the command by hand"))
        elif ours[0] != hook_command(slug):
            checks.append(Check(name, "fault", f"`{ours[0]}` answers, but is not the launcher's command",
                                "run `learnmem init --claude` (it brings the hook to the launcher)"))
        else:
            checks.append(Check(name, "ok", "answers a sample event"))
    return checks


def _hook_problem(ran: subprocess.CompletedProcess[str]) -> str | None:
    if ran.returncode != 0:
        return f"exit {ran.returncode}: {(ran.stderr or ran.stdout).strip()[-300:]}"
    if ran.stdout.strip():
        try:
            answer = json.loads(ran.stdout)
        except ValueError:
            return "its output is not JSON"
        if "systemMessage" in answer and "not installed" in answer["systemMessage"]:
            return answer["systemMessage"]
    return None


# --------------------------------------------------------------------------- the MCP servers


def _expand(text: str, env: dict[str, str]) -> str:
    """Claude Code's expansion in `.mcp.json`: ${VAR} and ${VAR:-default}."""
    return re.sub(r"\$\{(\w+)(?::-([^}]*))?\}", lambda m: env.get(m.group(1)) or (m.group(2) or ""), text)


def _claude_argv(root: Path, env: dict[str, str]) -> list[str] | str:
    try:
        entry = json.loads((root / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"][SERVER_NAME]
        return [_expand(word, env) for word in [entry["command"], *entry.get("args", [])]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f".mcp.json has no learnmem server ({type(exc).__name__}: {exc})"


def _opencode_argv(root: Path) -> list[str] | str:
    try:
        command = json.loads((root / "opencode.json").read_text(encoding="utf-8"))["mcp"][SERVER_NAME]["command"]
        return [str(word) for word in command]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"opencode.json has no learnmem server ({type(exc).__name__}: {exc})"


def _check_server(root: Path, rel: str, argv: list[str] | str, env: dict[str, str]) -> Check:
    name = f"MCP server ({rel})"
    target = "claude" if rel == ".mcp.json" else "opencode"
    if isinstance(argv, str):
        return Check(name, "fault", argv, f"run `learnmem init --{target}`")
    if not argv or shutil.which(argv[0], path=BARE_PATH) is None and not Path(root, argv[0]).is_file():
        return Check(name, "fault", f"`{' '.join(argv)}`: the command is not found", f"run `learnmem init --{target}`")
    requests = [_INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    try:
        ran = subprocess.run(argv, input=b"".join(json.dumps(r).encode() + b"\n" for r in requests), cwd=root,
                             env=env, capture_output=True, timeout=PROCESS_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return Check(name, "fault", f"`{' '.join(argv)}` did not answer within {PROCESS_TIMEOUT_S} s",
                     "run it by hand and look at its messages on stderr")
    answers = {}
    for line in ran.stdout.splitlines():
        try:
            answer = json.loads(line)
        except ValueError:
            continue
        if isinstance(answer, dict):
            answers[answer.get("id")] = answer
    tools = answers.get(2, {}).get("result", {}).get("tools")
    if 1 not in answers or not isinstance(tools, list):
        said = ran.stderr.decode("utf-8", errors="replace").strip()[-300:]
        return Check(name, "fault", f"`{' '.join(argv)}` exit {ran.returncode}: {said or 'no answer'}",
                     f"run `learnmem init --{target}`; if it persists, run the command by hand")
    return Check(name, "ok", f"`{' '.join(argv)}` answers initialize and lists {len(tools)} tools")


def _check_approval(root: Path, home: Path) -> Check:
    """Claude Code asks the user to approve a project's `.mcp.json` servers; where it recorded the answer."""
    name = "Claude Code approval"
    places = [(root / ".claude" / "settings.local.json", None), (root / ".claude" / "settings.json", None),
              (home / ".claude" / "settings.json", None), (home / ".claude.json", str(root))]
    for path, project in places:
        settings = _read_json(path)
        if project is not None:
            settings = settings.get("projects", {}).get(project, {}) if isinstance(settings, dict) else {}
        if not isinstance(settings, dict):
            continue
        where = str(path) if project is None else f"{path} (this project)"
        if SERVER_NAME in _names(settings.get("disabledMcpjsonServers")):
            return Check(name, "fault", f"the learnmem server is turned down in {where}",
                         f'remove "learnmem" from "disabledMcpjsonServers" there, or approve it in Claude Code (/mcp)')
        if settings.get("enableAllProjectMcpServers") is True or SERVER_NAME in _names(
                settings.get("enabledMcpjsonServers")):
            return Check(name, "ok", f"approved in {where}")
    return Check(name, "todo", "the project's learnmem server is not approved yet: Claude Code will not start it "
                               "until it is",
                 "start `claude` in the project and accept the learnmem server when asked (or /mcp), or run "
                 "`learnmem init --claude --approve` (it adds it to .claude/settings.local.json)")


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _names(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


__all__ = ["BARE_PATH", "Check", "DoctorReport", "diagnose"]
