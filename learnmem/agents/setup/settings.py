"""learnmem's entries in the agents' JSON settings files: Claude Code hooks and the MCP server.

claude    `.claude/settings.json`   one hook per event (SessionStart, UserPromptSubmit, PreToolUse,
                                    PostToolUse, PostToolUseFailure, Stop, SessionEnd) running
                                    `sh "$CLAUDE_PROJECT_DIR/.claude/learnmem" hook <event>`
          `.mcp.json`               the MCP server `learnmem` (stdio): `sh .claude/learnmem mcp`
opencode  `opencode.json`           the MCP server under "mcp" (type local): `sh .opencode/learnmem mcp`;
                                    opencode has no shell hooks

Every command runs the launcher (`learnmem.agents.setup.launcher`), which finds this machine's learnmem:
the files hold no path, and work with no virtual environment on PATH.

- Ours is recognised by content, not by position: a hook whose command runs the launcher (or, as
  earlier versions wrote it, `learnmem ... hook <event>`), a server entry named `learnmem` that runs the
  launcher or `learnmem-mcp`. An entry of ours in an earlier form is brought to today's, keeping what
  the user tuned (a hook's timeout, a server's env); one already in today's form is left as it is, so a
  second run changes nothing and nothing of ours is ever duplicated.
- JSON files we change are written back with an indent of 2 (their values and key order kept,
  their original whitespace not); JSON files we do not change are not rewritten.
- Neither the hooks nor the MCP server get a database path: both find `.learnmem/learnmem.duckdb`
  under the git top level of their working directory (the agent starts them in the project), or
  `$LEARNMEM_DB`.
- The keys and files created here are recorded in the manifest (`learnmem.agents.setup.manifest`);
  uninstall removes a container or file only when the manifest allows it.

Standard library only: `learnmem init --uninstall` must not load DuckDB.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from learnmem.agents.setup.plan import Plan, dump_json, json_type
from learnmem.errors import LearnmemError

SERVER_NAME = "learnmem"
OPENCODE_SCHEMA = "https://opencode.ai/config.json"
_SCRIPT_NAMES = {"learnmem": ("learnmem", "learnmem.exe"), "learnmem-mcp": ("learnmem-mcp", "learnmem-mcp.exe")}

# (Claude Code event, `learnmem hook` argument, matcher or None, timeout in seconds). The tool events
# match every tool ("*"); the others take no matcher (SessionStart then fires on startup, resume,
# clear and compact). Timeouts are caps, not expectations: a hook that overruns is cancelled.
HOOK_EVENTS = (
    ("SessionStart", "session-start", None, 30),
    ("UserPromptSubmit", "user-prompt-submit", None, 15),
    ("PreToolUse", "pre-tool-use", "*", 10),
    ("PostToolUse", "post-tool-use", "*", 10),
    ("PostToolUseFailure", "post-tool-use-failure", "*", 10),
    ("Stop", "stop", None, 60),  # flushes the capture queue: the model may load
    ("SessionEnd", "session-end", None, 60),
)


# What the agents' files run (see learnmem.agents.setup.launcher). Claude Code gives hooks the project's
# folder in $CLAUDE_PROJECT_DIR, and expands ${VAR:-default} in `.mcp.json`; opencode starts its servers in
# the project.
CLAUDE_LAUNCHER = ".claude/learnmem"
OPENCODE_LAUNCHER = ".opencode/learnmem"


def hook_command(slug: str) -> str:
    return f'sh "$CLAUDE_PROJECT_DIR/{CLAUDE_LAUNCHER}" hook {slug}'


# --------------------------------------------------------------------------- hooks (Claude Code)


def install_hooks(plan: Plan, rel: str) -> None:
    settings = plan.read_json(rel)
    created = settings is None
    settings = {} if settings is None else settings
    new_keys: list[tuple[str, ...]] = []
    hooks = settings.get("hooks")
    if hooks is None:
        hooks = settings["hooks"] = {}
        new_keys.append(("hooks",))
    elif not isinstance(hooks, dict):
        raise LearnmemError(f'{rel}: "hooks" must be an object of event names, found {json_type(hooks)}; '
                            "nothing was written")
    added, brought = [], []
    for event, slug, matcher, timeout in HOOK_EVENTS:
        groups = hooks.get(event)
        if groups is None:
            groups = hooks[event] = []
            new_keys.append(("hooks", event))
        elif not isinstance(groups, list):
            raise LearnmemError(f'{rel}: "hooks.{event}" must be a list of matcher groups, found '
                                f"{json_type(groups)}; nothing was written")
        ours = [hook for group in groups for hook in _group_hooks(group) if _is_our_hook(hook, slug)]
        if any(hook["command"] == hook_command(slug) for hook in ours):
            continue
        if ours:  # an earlier form (`learnmem hook <event>`, or a path to it): today's, its timeout kept
            ours[0]["command"] = hook_command(slug)
            brought.append(event)
            continue
        group: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
        group["hooks"] = [{"type": "command", "command": hook_command(slug), "timeout": timeout}]
        groups.append(group)
        added.append(event)
    command = hook_command("<event>")
    if not added and not brought:
        plan.note(rel, "unchanged", f"hooks already run `{command}`")
        return
    for key in new_keys:
        plan.manifest.created_key(rel, key)
    if created:
        plan.manifest.files.add(rel)
    what = [f"hooks {', '.join(added)} run `{command}`"] if added else []
    what += [f"hooks {', '.join(brought)} now run `{command}`"] if brought else []
    plan.write(rel, dump_json(settings), "created" if created else "updated", "; ".join(what))


def uninstall_hooks(plan: Plan, rel: str) -> None:
    settings = plan.read_json(rel)
    if settings is None or not isinstance(settings.get("hooks"), dict):
        return
    hooks = settings["hooks"]
    removed_from = []
    for event, slug, _, _ in HOOK_EVENTS:
        groups = hooks.get(event)
        if not isinstance(groups, list):
            continue
        kept_groups = []
        for group in groups:
            members = _group_hooks(group)
            ours = [hook for hook in members if _is_our_hook(hook, slug)]
            if not ours:
                kept_groups.append(group)
                continue
            rest = [hook for hook in members if not _is_our_hook(hook, slug)]
            if rest:
                kept_groups.append({**group, "hooks": rest})
        if len(kept_groups) == len(groups) and kept_groups == groups:
            continue
        removed_from.append(event)
        hooks[event] = kept_groups
        if not kept_groups and plan.manifest.may_remove_key(rel, ("hooks", event)):
            del hooks[event]
    if not removed_from:
        return
    if not hooks and plan.manifest.may_remove_key(rel, ("hooks",)):
        del settings["hooks"]
    _write_or_remove_json(plan, rel, settings, f"hooks {', '.join(removed_from)} (learnmem hook)")


def _group_hooks(group: Any) -> list[Any]:
    if isinstance(group, dict) and isinstance(group.get("hooks"), list):
        return group["hooks"]
    return []


def _is_our_hook(hook: Any, slug: str) -> bool:
    """A command hook running the launcher's `hook <slug>`, or `learnmem [options] hook <slug>` (bare name or
    any path to it), as earlier versions wrote it."""
    if not isinstance(hook, dict) or not isinstance(hook.get("command"), str):
        return False
    words = _split(hook["command"])
    return len(words) >= 3 and words[-2:] == ["hook", slug] and (
        _is_script(words[0], "learnmem") or _runs_launcher(words, CLAUDE_LAUNCHER))


# --------------------------------------------------------------------------- MCP server entries


def claude_server() -> dict[str, Any]:
    # No --db and no env: the server finds `<git root of its working directory>/.learnmem/learnmem.duckdb`
    # (or $LEARNMEM_DB), and Claude Code starts project servers in the project, so the file stays
    # shareable (no absolute paths in it).
    return {"type": "stdio", "command": "sh", "args": [f"${{CLAUDE_PROJECT_DIR:-.}}/{CLAUDE_LAUNCHER}", "mcp"]}


# opencode waits this long (ms) for a server's tool list; its default, 5 s, is short for a busy machine.
OPENCODE_TIMEOUT_MS = 30_000


def opencode_server() -> dict[str, Any]:
    return {"type": "local", "command": ["sh", OPENCODE_LAUNCHER, "mcp"], "enabled": True,
            "timeout": OPENCODE_TIMEOUT_MS}


def opencode_config(plan: Plan) -> str:
    """opencode.json, or an existing opencode.jsonc when that is the project's config file."""
    if not plan.exists("opencode.json") and plan.exists("opencode.jsonc"):
        return "opencode.jsonc"
    return "opencode.json"


def install_server(plan: Plan, rel: str, key: str, entry: dict[str, Any]) -> None:
    try:
        doc = plan.read_json(rel)
    except LearnmemError:
        if rel.endswith(".jsonc"):
            snippet = json.dumps({SERVER_NAME: entry})
            raise LearnmemError(
                f"{rel}: has comments or trailing commas, which learnmem cannot rewrite without losing them; "
                f'add {snippet} to its "{key}" object by hand (nothing was written)'
            ) from None
        raise
    created = doc is None
    if doc is None:
        doc = {"$schema": OPENCODE_SCHEMA} if key == "mcp" else {}
        if key == "mcp":
            plan.manifest.created_key(rel, ("$schema",))
    servers = doc.get(key)
    new_container = servers is None
    if servers is None:
        servers = doc[key] = {}
    elif not isinstance(servers, dict):
        raise LearnmemError(f'{rel}: "{key}" must be an object of server names, found {json_type(servers)}; '
                            "nothing was written")
    command = " ".join(_command_words(entry))
    existing = servers.get(SERVER_NAME)
    if existing is not None:
        if not _is_our_server(existing):
            plan.note(rel, "kept", f'a server named "{SERVER_NAME}" that does not run learnmem-mcp is there: '
                                   "left as it is, learnmem's was not added")
        elif _command_words(existing) == _command_words(entry):
            plan.note(rel, "unchanged", f'MCP server "{SERVER_NAME}" already registered')
        else:  # an earlier form (`learnmem-mcp`, or a path to it): today's command, the rest kept
            servers[SERVER_NAME] = {**entry, **{k: v for k, v in existing.items() if k not in ("command", "args")}}
            plan.write(rel, dump_json(doc), "updated", f'MCP server "{SERVER_NAME}" now runs `{command}`')
        return
    servers[SERVER_NAME] = entry
    if new_container:
        plan.manifest.created_key(rel, (key,))
    if created:
        plan.manifest.files.add(rel)
    plan.write(rel, dump_json(doc), "created" if created else "updated",
               f'MCP server "{SERVER_NAME}" runs `{command}`')


def uninstall_server(plan: Plan, rel: str, key: str) -> None:
    try:
        doc = plan.read_json(rel)
    except LearnmemError:
        if rel.endswith(".jsonc"):
            if "learnmem-mcp" in (plan.read(rel) or ""):
                plan.note(rel, "kept", f'not plain JSON (comments?): remove the "{SERVER_NAME}" server '
                                       f'from "{key}" by hand')
            return
        raise
    if doc is None or not isinstance(doc.get(key), dict) or not _is_our_server(doc[key].get(SERVER_NAME)):
        return
    servers = doc[key]
    del servers[SERVER_NAME]
    if not servers and plan.manifest.may_remove_key(rel, (key,)):
        del doc[key]
    if set(doc) == {"$schema"} and plan.manifest.may_remove_key(rel, ("$schema",)):
        del doc["$schema"]
    _write_or_remove_json(plan, rel, doc, f'MCP server "{SERVER_NAME}"')


# --------------------------------------------------------------------------- approving the project's server

# Claude Code starts a project's `.mcp.json` servers only once the user approved them; `init --approve` records
# that approval where Claude Code reads it, in the personal (not committed) settings file.
APPROVAL_FILE = ".claude/settings.local.json"
_APPROVED = "enabledMcpjsonServers"


def approve_server(plan: Plan) -> None:
    settings = plan.read_json(APPROVAL_FILE)
    created = settings is None
    settings = {} if settings is None else settings
    approved = settings.get(_APPROVED)
    if approved is not None and not isinstance(approved, list):
        raise LearnmemError(f'{APPROVAL_FILE}: "{_APPROVED}" must be a list of server names, found '
                            f"{json_type(approved)}; nothing was written")
    if approved is not None and SERVER_NAME in approved:
        plan.note(APPROVAL_FILE, "unchanged", f'the "{SERVER_NAME}" server already approved')
        return
    if approved is None:
        settings[_APPROVED] = approved = []
        plan.manifest.created_key(APPROVAL_FILE, (_APPROVED,))
    approved.append(SERVER_NAME)
    if created:
        plan.manifest.files.add(APPROVAL_FILE)
        _ignore(plan, APPROVAL_FILE)
    plan.write(APPROVAL_FILE, dump_json(settings), "created" if created else "updated",
               f'the "{SERVER_NAME}" server approved for Claude Code (personal: not committed)')


def _ignore(plan: Plan, rel: str) -> None:
    """Add `rel` to the project's .gitignore unless a line names it already: a personal file."""
    text = plan.read(".gitignore") or ""
    if any(line.strip().lstrip("/") == rel for line in text.splitlines()):
        return
    prefix = "" if not text or text.endswith("\n") else "\n"
    plan.write(".gitignore", f"{text}{prefix}{rel}\n", "updated" if text else "created", f"ignores {rel}")


def unapprove_server(plan: Plan) -> None:
    settings = plan.read_json(APPROVAL_FILE)
    if settings is None or not isinstance(settings.get(_APPROVED), list) or SERVER_NAME not in settings[_APPROVED]:
        return
    settings[_APPROVED] = [name for name in settings[_APPROVED] if name != SERVER_NAME]
    if not settings[_APPROVED] and plan.manifest.may_remove_key(APPROVAL_FILE, (_APPROVED,)):
        del settings[_APPROVED]
    _write_or_remove_json(plan, APPROVAL_FILE, settings, f'the "{SERVER_NAME}" server\'s approval')


def _is_our_server(entry: Any) -> bool:
    """A server entry that runs a launcher's `mcp`, or learnmem-mcp (Claude: "command" string and "args";
    opencode: a "command" list)."""
    if not isinstance(entry, dict):
        return False
    words = _command_words(entry)
    return bool(words) and (_is_script(words[0], "learnmem-mcp") or any(
        _runs_launcher(words, launcher) and words[2:3] == ["mcp"] for launcher in (CLAUDE_LAUNCHER, OPENCODE_LAUNCHER)))


def _command_words(entry: dict[str, Any]) -> list[str]:
    """A server entry's command line as words: a list (opencode) as it is, a string split, then its args."""
    command = entry.get("command")
    if isinstance(command, list):
        words = list(command) if all(isinstance(word, str) for word in command) else []
    else:
        words = _split(command) if isinstance(command, str) else []
    args = entry.get("args")
    return words + (list(args) if isinstance(args, list) and all(isinstance(a, str) for a in args) else [])


def _write_or_remove_json(plan: Plan, rel: str, doc: dict[str, Any], what: str) -> None:
    if not doc and plan.manifest.may_remove_file(rel):
        plan.delete(rel, f"{what} (the file held nothing else)")
    else:
        plan.write(rel, dump_json(doc), "removed", what)


# --------------------------------------------------------------------------- command lines


def _split(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _is_script(word: str, name: str) -> bool:
    return re.split(r"[\\/]", word)[-1] in _SCRIPT_NAMES[name]


def _runs_launcher(words: list[str], launcher: str) -> bool:
    """`sh <...>/<launcher> ...`: the launcher at any path (a project folder, $CLAUDE_PROJECT_DIR, .)."""
    return len(words) >= 2 and words[0] == "sh" and (words[1] == launcher or words[1].endswith("/" + launcher))


__all__ = [
    "APPROVAL_FILE", "CLAUDE_LAUNCHER", "HOOK_EVENTS", "OPENCODE_LAUNCHER", "OPENCODE_SCHEMA", "OPENCODE_TIMEOUT_MS", "SERVER_NAME",
    "approve_server", "claude_server", "hook_command", "install_hooks", "install_server", "opencode_config", "opencode_server",
    "unapprove_server", "uninstall_hooks", "uninstall_server",
]
