"""Wire learnmem into a coding agent's project files, and unwire it.

`learnmem init --claude / --opencode / --uninstall` calls `install` and `uninstall`.

What `install` adds to the project root (the git top level of the directory):

claude    `.claude/settings.json`   one hook per event (SessionStart, UserPromptSubmit, PreToolUse,
                                    PostToolUse, PostToolUseFailure, Stop, SessionEnd) running
                                    `learnmem hook <event>`
          `.mcp.json`               the MCP server `learnmem` (`learnmem-mcp`, stdio)
          `.claude/commands/*.md`   the slash commands (/retro, /remember, /recall, /learning-*)
          `CLAUDE.md`               a GHAP section between `<!-- learnmem:begin` and `<!-- learnmem:end -->`
opencode  `opencode.json`           the MCP server under "mcp" (type local); opencode has no shell hooks
          `.opencode/commands/*.md` the same slash commands
          `AGENTS.md`               the same section

Rules (the contract `uninstall` relies on):
- Everything is planned (every file read and parsed) before anything is written, so a malformed
  settings file stops the run with an error naming it and nothing changes. Writes are atomic.
- Ours is recognised by content, not by position: a hook whose command is `learnmem ... hook <event>`,
  a server entry named `learnmem` whose command is `learnmem-mcp`, a command file whose front matter
  carries our `# learnmem:generated sha256=...` line, the text between the section markers.
  Whatever already matches is left as it is (a user who tuned our hook's timeout keeps it), so a
  second run changes nothing and nothing of ours is ever duplicated.
- JSON files we change are written back with an indent of 2 (their values and key order kept,
  their original whitespace not); JSON files we do not change are not rewritten. Markdown files
  keep every byte outside our section.
- A command file we wrote and the user then edited is kept by both a re-install and `uninstall`
  (the hash no longer matches); a same-named file we did not write is never touched. The text
  between the section markers is ours: a re-install replaces it when it differs, uninstall removes it.
- Neither the hooks nor the MCP server get a database path: both find `.learnmem/learnmem.duckdb`
  under the git top level of their working directory (the agent starts them in the project), or
  `$LEARNMEM_DB`; so the files hold no absolute path of ours unless learnmem is not on PATH.
- `.learnmem/agent_setup.json` records what `install` created (files, folders, JSON keys such as
  "hooks", the blank line put before the section) so that `uninstall` removes exactly that: a
  container or file is removed only if we created it and it is empty once ours is gone. Without
  that record (another clone, `.learnmem/` deleted) `uninstall` removes a container or file that
  became empty by removing ours.
- `uninstall` never touches the database.

Standard library only: `learnmem init --uninstall` must not load DuckDB.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from learnmem.errors import LearnmemError, ValidationError
from learnmem.paths import database_path, project_root

TARGETS = ("claude", "opencode")
SERVER_NAME = "learnmem"

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

COMMAND_NAMES = (
    "retro", "remember", "recall",
    "learning-summarise", "learning-store", "learning-recall",
    "learning-compact", "learning-improve-docs", "learning-forget",
)

MANIFEST = ".learnmem/agent_setup.json"
OPENCODE_SCHEMA = "https://opencode.ai/config.json"
BEGIN_MARKER = "<!-- learnmem:begin"
END_MARKER = "<!-- learnmem:end -->"
_GENERATED = re.compile(r"^# learnmem:generated sha256=([0-9a-f]{16})[^\n]*\n", re.MULTILINE)
_SCRIPT_NAMES = {"learnmem": ("learnmem", "learnmem.exe"), "learnmem-mcp": ("learnmem-mcp", "learnmem-mcp.exe")}


@dataclass(frozen=True)
class Action:
    """One thing done (or, in a dry run, to be done) to one file.

    action: created, updated, removed (the file or our part of it), unchanged, or kept (something
    that looks like ours but was changed by the user, or is in our way: left as it is).
    """

    path: str  # relative to the project root, with forward slashes
    action: str
    detail: str


@dataclass(frozen=True)
class SetupReport:
    """What `install` / `uninstall` did: the project root, the targets, and one action per file touched."""

    root: str
    targets: tuple[str, ...]
    dry_run: bool
    changed: bool
    actions: tuple[Action, ...]


# --------------------------------------------------------------------------- public entry points


def install(
    directory: str | os.PathLike[str] = ".",
    targets: Sequence[str] = ("claude",),
    *,
    dry_run: bool = False,
    learnmem_command: str | None = None,
    mcp_command: str | None = None,
) -> SetupReport:
    """Add hooks, the MCP server, slash commands and the GHAP section for each target; idempotent.

    `learnmem_command` / `mcp_command` are how the agent will start learnmem (default: the bare
    console-script name when it is on PATH, else its absolute path in this Python environment).
    Does not create the database: `learnmem init` does that first (see `learnmem.init_project`).
    """
    chosen = _targets(targets)
    plan = _Plan(project_root(Path(directory)), dry_run)
    learnmem_command = learnmem_command or console_script("learnmem")
    mcp_command = mcp_command or console_script("learnmem-mcp")
    for target in chosen:
        if target == "claude":
            _install_hooks(plan, ".claude/settings.json", learnmem_command)
            _install_server(plan, ".mcp.json", "mcpServers", _claude_server(mcp_command), mcp_command)
            _install_commands(plan, "claude", ".claude/commands")
            _install_section(plan, "CLAUDE.md")
        else:
            _install_server(plan, _opencode_config(plan), "mcp", _opencode_server(mcp_command), mcp_command)
            _install_commands(plan, "opencode", ".opencode/commands")
            _install_section(plan, "AGENTS.md")
    plan.record_created_dirs()
    return plan.finish(chosen, keep_record=True)


def uninstall(
    directory: str | os.PathLike[str] = ".",
    targets: Sequence[str] = TARGETS,
    *,
    dry_run: bool = False,
) -> SetupReport:
    """Remove what `install` added for each target, and nothing else; the database stays."""
    chosen = _targets(targets)
    plan = _Plan(project_root(Path(directory)), dry_run)
    for target in chosen:
        if target == "claude":
            _uninstall_hooks(plan, ".claude/settings.json")
            _uninstall_server(plan, ".mcp.json", "mcpServers")
            _uninstall_commands(plan, ".claude/commands")
            _uninstall_section(plan, "CLAUDE.md")
            plan.remove_empty_dirs([".claude/commands", ".claude"])
        else:
            for name in ("opencode.json", "opencode.jsonc"):
                _uninstall_server(plan, name, "mcp")
            _uninstall_commands(plan, ".opencode/commands")
            _uninstall_section(plan, "AGENTS.md")
            plan.remove_empty_dirs([".opencode/commands", ".opencode"])
    plan.forget(_paths_of(chosen))
    return plan.finish(chosen, keep_record=False)


def console_script(name: str) -> str:
    """How to start a learnmem console script: its bare name when PATH finds it, else its absolute
    path next to this interpreter (a venv that is not activated), else the bare name."""
    if shutil.which(name):
        return name
    folder = Path(sys.executable).parent
    for candidate in (folder / name, folder / f"{name}.exe"):
        if candidate.is_file():
            return str(candidate)
    return name


def format_report(report: SetupReport) -> str:
    """The report as aligned lines for people; the command files of one folder share a line."""
    if not report.actions:
        return "Nothing to do." if report.dry_run else "Nothing of learnmem's found."
    verbs = {"created": "would create", "updated": "would update", "removed": "would remove"}
    rows: list[list[str]] = []
    grouped: dict[tuple[str, str], list[str]] = {}  # (action, folder) -> its row
    for a in report.actions:
        action = verbs.get(a.action, a.action) if report.dry_run else a.action
        folder, _, name = a.path.rpartition("/")
        if folder.endswith("commands") and name and a.detail == f"/{name.removesuffix('.md')}":
            key = (action, folder + "/")
            if key not in grouped:
                grouped[key] = [action, folder + "/", "commands"]
                rows.append(grouped[key])
            grouped[key][2] += " " + a.detail
            continue
        rows.append([action, a.path, a.detail])
    width_action = max(len(row[0]) for row in rows)
    width_path = max(len(row[1]) for row in rows)
    return "\n".join(f"{act.ljust(width_action)}  {path.ljust(width_path)}  {detail}".rstrip()
                     for act, path, detail in rows)


def render_command(target: str, name: str) -> str:
    """The slash command file `name` for `target` (claude or opencode), as `install` writes it."""
    if name not in COMMAND_NAMES:
        raise ValidationError(f"command: {name!r} is not one of: {', '.join(COMMAND_NAMES)}")
    meta = _command_meta()[name]
    lines = ["---", f"description: {_yaml_str(meta['description'])}"]
    if target == "claude":
        if meta.get("argument-hint"):
            lines.append(f"argument-hint: {_yaml_str(meta['argument-hint'])}")
        if meta.get("allowed-tools"):
            # Pre-approved tools: ours that read or add; deleting (delete_memory) still asks the user.
            lines.append("allowed-tools: " + ", ".join(f"mcp__{SERVER_NAME}__{tool}" for tool in meta["allowed-tools"]))
    elif target != "opencode":
        raise ValidationError(f"target: {target!r} is not one of: {', '.join(TARGETS)}")
    body = _template(f"commands/{name}.md").strip("\n") + "\n"
    text = "\n".join(lines) + "\n---\n\n" + body
    return _with_generated_line(text)


def section_text() -> str:
    """The CLAUDE.md / AGENTS.md section, markers included, ending with a newline."""
    body = _template("section.md").strip("\n")
    begin = (f"{BEGIN_MARKER}: written by `learnmem init`, removed by `learnmem init --uninstall`; "
             "edit outside the markers -->")
    return f"{begin}\n{body}\n{END_MARKER}\n"


# --------------------------------------------------------------------------- the plan


class _Plan:
    """Reads files, collects the writes and actions, and applies them all at the end (unless a dry run)."""

    def __init__(self, root: Path, dry_run: bool) -> None:
        self.root = root
        self.dry_run = dry_run
        self.writes: dict[str, str | None] = {}  # rel path -> new text, None = delete
        self.dirs_to_remove: list[str] = []
        self.actions: list[Action] = []
        self.manifest = _Manifest.load(root / MANIFEST)

    # ---- files

    def path(self, rel: str) -> Path:
        return self.root / rel

    def exists(self, rel: str) -> bool:
        if rel in self.writes:
            return self.writes[rel] is not None
        return self.path(rel).is_file()

    def read(self, rel: str) -> str | None:
        """The file's text (pending writes first), None when it does not exist."""
        if rel in self.writes:
            return self.writes[rel]
        path = self.path(rel)
        if not path.is_file():
            if path.exists():
                raise LearnmemError(f"{rel}: exists but is not a file; move it away and run `learnmem init` again")
            return None
        try:
            return path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LearnmemError(f"{rel}: not UTF-8 text ({exc.reason} at byte {exc.start}); "
                                "nothing was written") from None

    def write(self, rel: str, text: str, action: str, detail: str) -> None:
        self.writes[rel] = text
        self.actions.append(Action(rel, action, detail))

    def delete(self, rel: str, detail: str) -> None:
        self.writes[rel] = None
        self.actions.append(Action(rel, "removed", detail))

    def note(self, rel: str, action: str, detail: str) -> None:
        self.actions.append(Action(rel, action, detail))

    def read_json(self, rel: str) -> dict[str, Any] | None:
        """A JSON object file, None when missing; an error naming the file when it is not a JSON object."""
        text = self.read(rel)
        if text is None:
            return None
        if not text.strip():
            return {}
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LearnmemError(
                f"{rel}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); fix it and run "
                "`learnmem init` again (nothing was written)"
            ) from None
        if not isinstance(value, dict):
            raise LearnmemError(f"{rel}: expected a JSON object at the top level, found {_json_type(value)}; "
                                "nothing was written")
        return value

    # ---- folders

    def record_created_dirs(self) -> None:
        """Remember the folders the pending writes will create, so that uninstall may remove them."""
        for rel, text in self.writes.items():
            if text is None:
                continue
            parent = Path(rel).parent
            while parent != Path(".") and not self.path(parent.as_posix()).exists():
                self.manifest.dirs.add(parent.as_posix())
                parent = parent.parent

    def remove_empty_dirs(self, rels: Iterable[str]) -> None:
        """Remove these folders (give the deepest first) when the run leaves them empty and they are ours:
        created by install (the manifest says so), or, without a manifest, emptied by this run."""
        for rel in rels:
            folder = self.path(rel)
            if not folder.is_dir():
                continue
            gone = {key for key, text in self.writes.items() if text is None} | set(self.dirs_to_remove)
            if any(f"{rel}/{child.name}" not in gone for child in folder.iterdir()):
                continue
            emptied_now = any(key.startswith(f"{rel}/") for key in gone)
            if rel in self.manifest.dirs if self.manifest.present else emptied_now:
                self.dirs_to_remove.append(rel)
                self.actions.append(Action(f"{rel}/", "removed", "empty folder"))

    # ---- manifest

    def forget(self, rels: Iterable[str]) -> None:
        """Drop what the manifest says about these paths (after uninstalling them)."""
        self.manifest.forget(rels)

    def finish(self, targets: Sequence[str], *, keep_record: bool) -> SetupReport:
        """Write the manifest (install keeps it even when empty: "created nothing" is worth knowing;
        uninstall deletes it once it records nothing), then apply every write unless a dry run."""
        manifest_text = self.manifest.dump(keep_empty=keep_record)
        if manifest_text != self.read(MANIFEST):
            self.writes[MANIFEST] = manifest_text
        changed = any(a.action in ("created", "updated", "removed") for a in self.actions)
        if not self.dry_run:
            self._apply()
        return SetupReport(str(self.root), tuple(targets), self.dry_run, changed, tuple(self.actions))

    def _apply(self) -> None:
        for rel, text in self.writes.items():
            path = self.path(rel)
            if text is None:
                if path.is_file():
                    path.unlink()
            else:
                _atomic_write(path, text)
        for rel in self.dirs_to_remove:
            folder = self.path(rel)
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()


class _Manifest:
    """`.learnmem/agent_setup.json`: what install created, so that uninstall removes exactly that."""

    def __init__(self, data: dict[str, Any] | None) -> None:
        self.present = isinstance(data, dict)
        data = data if isinstance(data, dict) else {}
        self.files: set[str] = set(data.get("created_files", []))
        self.dirs: set[str] = set(data.get("created_dirs", []))
        self.keys: dict[str, set[tuple[str, ...]]] = {
            rel: {tuple(path.split("/")) for path in paths} for rel, paths in data.get("created_keys", {}).items()
        }
        self.separators: dict[str, str] = dict(data.get("separators", {}))

    @classmethod
    def load(cls, path: Path) -> _Manifest:
        try:
            return cls(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError, AttributeError):
            return cls(None)  # missing or damaged: uninstall falls back on "remove what became empty"

    def created_key(self, rel: str, key: tuple[str, ...]) -> None:
        self.keys.setdefault(rel, set()).add(key)

    def may_remove_key(self, rel: str, key: tuple[str, ...]) -> bool:
        return key in self.keys.get(rel, set()) if self.present else True

    def may_remove_file(self, rel: str) -> bool:
        return rel in self.files if self.present else True

    def forget(self, rels: Iterable[str]) -> None:
        for rel in rels:
            self.files.discard(rel)
            self.keys.pop(rel, None)
            self.separators.pop(rel, None)
            self.dirs.discard(rel)

    def dump(self, *, keep_empty: bool) -> str | None:
        if not keep_empty and not (self.files or self.dirs or any(self.keys.values()) or self.separators):
            return None
        data = {
            "about": "What `learnmem init --claude/--opencode` created; `learnmem init --uninstall` reads it.",
            "created_files": sorted(self.files),
            "created_dirs": sorted(self.dirs),
            # JSON keys as paths ("hooks/SessionStart"): Claude Code's event names hold no "/".
            "created_keys": {rel: sorted("/".join(key) for key in keys)
                             for rel, keys in sorted(self.keys.items()) if keys},
            "separators": dict(sorted(self.separators.items())),
        }
        return _dump_json(data)


def _paths_of(targets: Sequence[str]) -> list[str]:
    """Every path a target may create (for forgetting them in the manifest)."""
    rels: list[str] = []
    for target in targets:
        if target == "claude":
            rels += [".claude/settings.json", ".mcp.json", "CLAUDE.md", ".claude/commands", ".claude"]
            rels += [f".claude/commands/{name}.md" for name in COMMAND_NAMES]
        else:
            rels += ["opencode.json", "opencode.jsonc", "AGENTS.md", ".opencode/commands", ".opencode"]
            rels += [f".opencode/commands/{name}.md" for name in COMMAND_NAMES]
    return rels


# --------------------------------------------------------------------------- hooks (Claude Code)


def _install_hooks(plan: _Plan, rel: str, learnmem_command: str) -> None:
    settings = plan.read_json(rel)
    created = settings is None
    settings = {} if settings is None else settings
    new_keys: list[tuple[str, ...]] = []
    hooks = settings.get("hooks")
    if hooks is None:
        hooks = settings["hooks"] = {}
        new_keys.append(("hooks",))
    elif not isinstance(hooks, dict):
        raise LearnmemError(f'{rel}: "hooks" must be an object of event names, found {_json_type(hooks)}; '
                            "nothing was written")
    added = []
    for event, slug, matcher, timeout in HOOK_EVENTS:
        groups = hooks.get(event)
        if groups is None:
            groups = hooks[event] = []
            new_keys.append(("hooks", event))
        elif not isinstance(groups, list):
            raise LearnmemError(f'{rel}: "hooks.{event}" must be a list of matcher groups, found '
                                f"{_json_type(groups)}; nothing was written")
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
    plan.write(rel, _dump_json(settings), "created" if created else "updated",
               f"hooks {', '.join(added)} run `{command}`")


def _uninstall_hooks(plan: _Plan, rel: str) -> None:
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


def _claude_server(mcp_command: str) -> dict[str, Any]:
    # No --db and no env: the server finds `<git root of its working directory>/.learnmem/learnmem.duckdb`
    # (or $LEARNMEM_DB), and Claude Code starts project servers in the project, so the file stays
    # shareable (no absolute paths in it).
    return {"type": "stdio", "command": mcp_command, "args": []}


def _opencode_server(mcp_command: str) -> dict[str, Any]:
    return {"type": "local", "command": [mcp_command], "enabled": True}


def _opencode_config(plan: _Plan) -> str:
    """opencode.json, or an existing opencode.jsonc when that is the project's config file."""
    if not plan.exists("opencode.json") and plan.exists("opencode.jsonc"):
        return "opencode.jsonc"
    return "opencode.json"


def _install_server(plan: _Plan, rel: str, key: str, entry: dict[str, Any], mcp_command: str) -> None:
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
        raise LearnmemError(f'{rel}: "{key}" must be an object of server names, found {_json_type(servers)}; '
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
    plan.write(rel, _dump_json(doc), "created" if created else "updated",
               f'MCP server "{SERVER_NAME}" runs `{mcp_command}`')


def _uninstall_server(plan: _Plan, rel: str, key: str) -> None:
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


def _write_or_remove_json(plan: _Plan, rel: str, doc: dict[str, Any], what: str) -> None:
    if not doc and plan.manifest.may_remove_file(rel):
        plan.delete(rel, f"{what} (the file held nothing else)")
    else:
        plan.write(rel, _dump_json(doc), "removed", what)


# --------------------------------------------------------------------------- slash commands


def _install_commands(plan: _Plan, target: str, folder: str) -> None:
    for name in COMMAND_NAMES:
        rel = f"{folder}/{name}.md"
        wanted = render_command(target, name)
        text = plan.read(rel)
        if text is None:
            plan.manifest.files.add(rel)
            plan.write(rel, wanted, "created", f"/{name}")
        elif text == wanted:
            plan.note(rel, "unchanged", f"/{name}")
        elif _generated_state(text) == "ours":
            plan.write(rel, wanted, "updated", f"/{name} (new version of learnmem's text)")
        elif _generated_state(text) == "edited":
            plan.note(rel, "kept", f"/{name}: edited since learnmem wrote it, left as it is")
        else:
            plan.note(rel, "kept", f"/{name}: not written by learnmem, left as it is")


def _uninstall_commands(plan: _Plan, folder: str) -> None:
    for name in COMMAND_NAMES:
        rel = f"{folder}/{name}.md"
        text = plan.read(rel)
        if text is None:
            continue
        state = _generated_state(text)
        if state == "ours":
            plan.delete(rel, f"/{name}")
        elif state == "edited":
            plan.note(rel, "kept", f"/{name}: edited since learnmem wrote it; delete it yourself if unwanted")


def _with_generated_line(text: str) -> str:
    """Add `# learnmem:generated sha256=<hash of the rest>` as the front matter's last line (a YAML comment)."""
    digest = _digest(text)
    head, sep, rest = text.partition("\n---\n")
    return f"{head}\n# learnmem:generated sha256={digest} (edit freely: an edited file is kept){sep}{rest}"


def _generated_state(text: str) -> str:
    """"ours" (written by learnmem, unchanged), "edited" (written by learnmem, then changed), or "foreign"."""
    match = _GENERATED.search(text)
    if match is None:
        return "foreign"
    rest = text[: match.start()] + text[match.end():]
    return "ours" if _digest(rest) == match.group(1) else "edited"


def _digest(text: str) -> str:
    # Line endings normalised: a checkout that turned \n into \r\n has not edited the file.
    return hashlib.sha256(text.replace("\r\n", "\n").encode("utf-8")).hexdigest()[:16]


# --------------------------------------------------------------------------- CLAUDE.md / AGENTS.md section


def _find_section(rel: str, text: str) -> tuple[int, int] | None:
    """(start, end) of our section in `text`, end just past the end marker's line; None when absent."""
    begin = _line_start(text, BEGIN_MARKER)
    if begin is None:
        return None
    end_at = text.find(END_MARKER, begin)
    if end_at < 0:
        raise LearnmemError(f"{rel}: has `{BEGIN_MARKER} ...` but no `{END_MARKER}` after it; restore the end "
                            "marker or delete the partial section, then run `learnmem init` again")
    end = end_at + len(END_MARKER)
    if text.startswith("\r\n", end):
        end += 2
    elif text.startswith("\n", end):
        end += 1
    return begin, end


def _line_start(text: str, marker: str) -> int | None:
    at = 0
    while True:
        found = text.find(marker, at)
        if found < 0:
            return None
        if found == 0 or text[found - 1] == "\n":
            return found
        at = found + 1


def _install_section(plan: _Plan, rel: str) -> None:
    wanted = section_text()
    text = plan.read(rel)
    if text is None:
        plan.manifest.files.add(rel)
        plan.write(rel, wanted, "created", "GHAP section")
        return
    found = _find_section(rel, text)
    if found is not None:
        start, end = found
        current = text[start:end]
        if current.replace("\r\n", "\n").rstrip("\n") == wanted.rstrip("\n"):
            plan.note(rel, "unchanged", "GHAP section")
        else:
            plan.write(rel, text[:start] + wanted + text[end:], "updated",
                       "GHAP section (replaced between the markers)")
        return
    separator = "" if not text else ("\n" if text.endswith("\n") else "\n\n")
    plan.manifest.separators[rel] = separator
    plan.write(rel, text + separator + wanted, "updated", "GHAP section (appended)")


def _uninstall_section(plan: _Plan, rel: str) -> None:
    text = plan.read(rel)
    if text is None:
        return
    found = _find_section(rel, text)
    if found is None:
        return
    start, end = found
    before, after = text[:start], text[end:]
    if plan.manifest.present:
        separator = plan.manifest.separators.get(rel, "")
    else:
        separator = "\n" if before.endswith("\n\n") else ""  # the blank line install puts before the section
    if separator and before.endswith(separator):
        before = before[: -len(separator)]
    remaining = before + after
    if not remaining and plan.manifest.may_remove_file(rel):
        plan.delete(rel, "GHAP section (the file held nothing else)")
    else:
        plan.write(rel, remaining, "removed", "GHAP section")


# --------------------------------------------------------------------------- helpers


def _targets(targets: Sequence[str]) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(targets))
    for target in chosen:
        if target not in TARGETS:
            raise ValidationError(f"target: {target!r} is not one of: {', '.join(TARGETS)}")
    if not chosen:
        raise ValidationError(f"targets: give at least one of: {', '.join(TARGETS)}")
    return chosen


def _template(name: str) -> str:
    return resources.files("learnmem").joinpath("agent_files", *name.split("/")).read_text(encoding="utf-8")


def _command_meta() -> dict[str, dict[str, Any]]:
    return json.loads(_template("commands.json"))


def _yaml_str(text: str) -> str:
    # A JSON string is a valid YAML double-quoted scalar: safe for colons, '#', brackets and quotes.
    return json.dumps(text, ensure_ascii=False)


def _dump_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


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


def _atomic_write(path: Path, text: str) -> None:
    """Write via a temporary file in the same folder and rename it over: never a half-written settings file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False)
    try:
        with handle:
            handle.write(text.encode("utf-8"))
        if path.exists():
            shutil.copymode(path, handle.name)
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


__all__ = [
    "COMMAND_NAMES", "HOOK_EVENTS", "TARGETS", "Action", "SetupReport",
    "console_script", "database_path", "format_report", "install", "project_root",
    "render_command", "section_text", "uninstall",
]
