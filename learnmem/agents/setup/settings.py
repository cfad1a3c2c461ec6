"""learnmem's entries in the agents' JSON settings files: Claude Code hooks and the MCP server.

claude    `.claude/settings.json`   one hook per event (SessionStart, UserPromptSubmit, PreToolUse,
                                    PostToolUse, PostToolUseFailure, Stop, SessionEnd) running
                                    `learnmem hook <event>`
          `.mcp.json`               the MCP server `learnmem` (`learnmem-mcp`, stdio)
opencode  `opencode.json`           the MCP server under "mcp" (type local); opencode has no shell hooks

- Ours is recognised by content, not by position: a hook whose command is `learnmem ... hook <event>`,
  a server entry named `learnmem` whose command is `learnmem-mcp`. Whatever already matches is left
  as it is (a user who tuned our hook's timeout keeps it), so a second run changes nothing and
  nothing of ours is ever duplicated.
- JSON files we change are written back with an indent of 2 (their values and key order kept,
  their original whitespace not); JSON files we do not change are not rewritten.
- Neither the hooks nor the MCP server get a database path: both find `.learnmem/learnmem.duckdb`
  under the git top level of their working directory (the agent starts them in the project), or
  `$LEARNMEM_DB`; so the files hold no absolute path of ours unless learnmem is not on PATH.
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


# --------------------------------------------------------------------------- hooks (Claude Code)


def install_hooks(plan: Plan, rel: str, learnmem_command: str) -> None:
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
    added = []
    for event, slug, matcher, timeout in HOOK_EVENTS:
        groups = hooks.get(event)
        if groups is None:
            groups = hooks[event] = []
            new_keys.append(("hooks", event))
        elif not isinstance(groups, list):
            raise LearnmemError(f'{rel}: "hooks.{event}" must be a list of matcher groups, found '
                                f"{json_type(groups)}; nothing was written")
        if any(_is_our_hook(hook, slug) for group in groups for hook in _group_hooks(group)):
            continue
        group: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
        group["hooks"] = [{"type": "command", "command": f"{_shell_word(learnmem_command)} hook {slug}",
                           "timeout": timeout}]
        groups.append(group)
        added.append(event)
    command = f"{_shell_word(learnmem_command)} hook <event>"
    if not added:
        plan.note(rel, "unchanged", f"hooks already run `{command}`")
        return
    for key in new_keys:
        plan.manifest.created_key(rel, key)
    if created:
        plan.manifest.files.add(rel)
    plan.write(rel, dump_json(settings), "created" if created else "updated",
               f"hooks {', '.join(added)} run `{command}`")


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
    """A command hook running `learnmem [options] hook <slug>` (bare name or any path to it)."""
    if not isinstance(hook, dict) or not isinstance(hook.get("command"), str):
        return False
    words = _split(hook["command"])
    return len(words) >= 3 and _is_script(words[0], "learnmem") and words[-2:] == ["hook", slug]


# --------------------------------------------------------------------------- MCP server entries


def claude_server(mcp_command: str) -> dict[str, Any]:
    # No --db and no env: the server finds `<git root of its working directory>/.learnmem/learnmem.duckdb`
    # (or $LEARNMEM_DB), and Claude Code starts project servers in the project, so the file stays
    # shareable (no absolute paths in it).
    return {"type": "stdio", "command": mcp_command, "args": []}


def opencode_server(mcp_command: str) -> dict[str, Any]:
    return {"type": "local", "command": [mcp_command], "enabled": True}


def opencode_config(plan: Plan) -> str:
    """opencode.json, or an existing opencode.jsonc when that is the project's config file."""
    if not plan.exists("opencode.json") and plan.exists("opencode.jsonc"):
        return "opencode.jsonc"
    return "opencode.json"


def install_server(plan: Plan, rel: str, key: str, entry: dict[str, Any], mcp_command: str) -> None:
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
    existing = servers.get(SERVER_NAME)
    if existing is not None:
        if _is_our_server(existing):
            plan.note(rel, "unchanged", f'MCP server "{SERVER_NAME}" already registered')
        else:
            plan.note(rel, "kept", f'a server named "{SERVER_NAME}" that does not run learnmem-mcp is there: '
                                   "left as it is, learnmem's was not added")
        return
    servers[SERVER_NAME] = entry
    if new_container:
        plan.manifest.created_key(rel, (key,))
    if created:
        plan.manifest.files.add(rel)
    plan.write(rel, dump_json(doc), "created" if created else "updated",
               f'MCP server "{SERVER_NAME}" runs `{mcp_command}`')


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


def _is_our_server(entry: Any) -> bool:
    """A server entry whose command is learnmem-mcp (Claude: "command" string; opencode: a list)."""
    if not isinstance(entry, dict):
        return False
    command = entry.get("command")
    if isinstance(command, list):
        command = command[0] if command and isinstance(command[0], str) else None
    if not isinstance(command, str):
        return False
    words = _split(command)
    return bool(words) and _is_script(words[0], "learnmem-mcp")


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


def _shell_word(command: str) -> str:
    """A path with spaces, quoted for the shell Claude Code runs hooks with."""
    return command if re.fullmatch(r"[\w@%+=:,./\\-]+", command) else shlex.quote(command)


__all__ = [
    "HOOK_EVENTS", "OPENCODE_SCHEMA", "SERVER_NAME",
    "claude_server", "install_hooks", "install_server", "opencode_config", "opencode_server",
    "uninstall_hooks", "uninstall_server",
]
