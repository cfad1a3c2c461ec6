"""Wire learnmem into a coding agent's project files, and unwire it.

`learnmem init --claude / --opencode / --uninstall` calls `install` and `uninstall`.

What `install` adds to the project root (the git top level of the directory):

claude    `.claude/settings.json`   one hook per event (SessionStart, UserPromptSubmit, PreToolUse,
                                    PostToolUse, PostToolUseFailure, Stop, SessionEnd) running
                                    `sh "$CLAUDE_PROJECT_DIR/.claude/learnmem" hook <event>`
          `.mcp.json`               the MCP server `learnmem` (stdio): `sh .claude/learnmem mcp`
          `.claude/learnmem`        the launcher both run: it finds this machine's learnmem
          `.claude/commands/*.md`   the slash commands (/retro, /remember, /recall, /learning-*)
          `CLAUDE.md`               a GHAP section between `<!-- learnmem:begin` and `<!-- learnmem:end -->`
opencode  `opencode.json`           the MCP server under "mcp" (type local): `sh .opencode/learnmem mcp`;
                                    opencode has no shell hooks
          `.opencode/learnmem`      the launcher
          `.opencode/commands/*.md` the same slash commands
          `AGENTS.md`               the same section
both      `.learnmem/scripts-path`  where learnmem is on this machine (personal: `.learnmem/` is ignored)

All of it but `.learnmem/` is meant to be committed: no file holds a path of this machine, and every command
works with no virtual environment on PATH (`learnmem.agents.setup.launcher`).

Rules (the contract `uninstall` relies on), each stated in full beside its code:
- Everything is planned (every file read and parsed) before anything is written, so a malformed
  settings file stops the run with an error naming it and nothing changes. Writes are atomic.
  (`learnmem.agents.setup.plan`)
- Ours is recognised by content, not by position, and whatever already matches is left as it is, so
  a second run changes nothing and nothing of ours is ever duplicated: hooks and server entries
  (`learnmem.agents.setup.settings`, which also says how JSON files are written back), command files
  (`learnmem.agents.setup.commands`), the text between the section markers
  (`learnmem.agents.setup.section`, whose Markdown files keep every byte outside the section).
- `.learnmem/agent_setup.json` records what `install` created so that `uninstall` removes exactly
  that (`learnmem.agents.setup.manifest`).
- `uninstall` never touches the database.

Standard library only: `learnmem init --uninstall` must not load DuckDB.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from learnmem.agents.setup.commands import (
    COMMAND_NAMES,
    install_commands,
    render_command,
    uninstall_commands,
    with_generated_line,
)
from learnmem.agents.setup.launcher import (
    LAUNCHERS,
    SCRIPTS_PATH,
    install_launcher,
    install_scripts_path,
    scripts_folder,
    uninstall_launcher,
    uninstall_scripts_path,
)
from learnmem.agents.setup.manifest import MANIFEST
from learnmem.agents.setup.plan import TARGETS, Action, Plan, SetupReport
from learnmem.agents.setup.section import (
    BEGIN_MARKER,
    END_MARKER,
    install_section,
    section_text,
    uninstall_section,
)
from learnmem.agents.setup.settings import (
    APPROVAL_FILE,
    HOOK_EVENTS,
    OPENCODE_SCHEMA,
    SERVER_NAME,
    approve_server,
    claude_server,
    install_hooks,
    install_server,
    opencode_config,
    opencode_server,
    unapprove_server,
    uninstall_hooks,
    uninstall_server,
)
from learnmem.errors import ValidationError
from learnmem.storage.paths import database_path, learnmem_folder_ignored, project_root

# The tests write an "older" learnmem command file with it.
_with_generated_line = with_generated_line


# --------------------------------------------------------------------------- public entry points


def install(
    directory: str | os.PathLike[str] = ".",
    targets: Sequence[str] = ("claude",),
    *,
    dry_run: bool = False,
    scripts: str | os.PathLike[str] | None = None,
    approve: bool = False,
) -> SetupReport:
    """Add hooks, the MCP server, the launcher they run, slash commands and the GHAP section for each target;
    idempotent.

    `scripts` is the folder of the `learnmem` and `learnmem-mcp` the launcher runs on this machine (default:
    this installation's, `launcher.scripts_folder()`). `approve`: also approve the project's MCP server for
    Claude Code, in the personal `.claude/settings.local.json` (Claude Code otherwise asks the user once).
    Does not create the database: `learnmem init` does that first (see `learnmem.init_project`).
    """
    chosen = _targets(targets)
    plan = Plan(project_root(Path(directory)), dry_run)
    for target in chosen:
        install_launcher(plan, target)
        if target == "claude":
            install_hooks(plan, ".claude/settings.json")
            install_server(plan, ".mcp.json", "mcpServers", claude_server())
            install_commands(plan, "claude", ".claude/commands")
            install_section(plan, "CLAUDE.md")
            if approve:
                approve_server(plan)
        else:
            install_server(plan, opencode_config(plan), "mcp", opencode_server())
            install_commands(plan, "opencode", ".opencode/commands")
            install_section(plan, "AGENTS.md")
    install_scripts_path(plan, str(Path(scripts).absolute()) if scripts is not None else scripts_folder())
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
    plan = Plan(project_root(Path(directory)), dry_run)
    for target in chosen:
        uninstall_launcher(plan, target)
        if target == "claude":
            uninstall_hooks(plan, ".claude/settings.json")
            uninstall_server(plan, ".mcp.json", "mcpServers")
            unapprove_server(plan)
            uninstall_commands(plan, ".claude/commands")
            uninstall_section(plan, "CLAUDE.md")
            plan.remove_empty_dirs([".claude/commands", ".claude"])
        else:
            for name in ("opencode.json", "opencode.jsonc"):
                uninstall_server(plan, name, "mcp")
            uninstall_commands(plan, ".opencode/commands")
            uninstall_section(plan, "AGENTS.md")
            plan.remove_empty_dirs([".opencode/commands", ".opencode"])
    forgotten = _paths_of(chosen)
    if not any(plan.exists(rel) for rel in LAUNCHERS.values()):  # no agent's file runs a launcher any more
        uninstall_scripts_path(plan)
        forgotten.append(SCRIPTS_PATH)
    plan.forget(forgotten)
    return plan.finish(chosen, keep_record=False)


def gitignore_action(directory: str | os.PathLike[str] = ".") -> Action:
    """What `learnmem init` does (or did) to `.gitignore`: it ignores `.learnmem/`, the personal memory file."""
    ignored = learnmem_folder_ignored(project_root(Path(directory)))
    action = "unchanged" if ignored else "created" if ignored is None else "updated"
    return Action(".gitignore", action, "ignores .learnmem/ (the memory file and this machine's records)")


def closing_words(targets: Sequence[str]) -> list[str]:
    """What to do after `init` wired these agents in."""
    words = []
    if "claude" in targets:
        words.append("Restart Claude Code (or open a new session) to load the hooks, the MCP server and the "
                     "commands. Claude Code asks once to approve the project's learnmem server (`learnmem init "
                     "--claude --approve` approves it now).")
    if "opencode" in targets:
        words.append("Restart opencode to load the MCP server and the commands (opencode has no hooks).")
    return words + ["`learnmem doctor` checks the whole set-up."]


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


# --------------------------------------------------------------------------- helpers


def _targets(targets: Sequence[str]) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(targets))
    for target in chosen:
        if target not in TARGETS:
            raise ValidationError(f"target: {target!r} is not one of: {', '.join(TARGETS)}")
    if not chosen:
        raise ValidationError(f"targets: give at least one of: {', '.join(TARGETS)}")
    return chosen


def _paths_of(targets: Sequence[str]) -> list[str]:
    """Every path a target may create (for forgetting them in the manifest)."""
    rels: list[str] = []
    for target in targets:
        if target == "claude":
            rels += [".claude/settings.json", ".mcp.json", "CLAUDE.md", LAUNCHERS["claude"], APPROVAL_FILE,
                     ".claude/commands", ".claude"]
            rels += [f".claude/commands/{name}.md" for name in COMMAND_NAMES]
        else:
            rels += ["opencode.json", "opencode.jsonc", "AGENTS.md", LAUNCHERS["opencode"], ".opencode/commands",
                     ".opencode"]
            rels += [f".opencode/commands/{name}.md" for name in COMMAND_NAMES]
    return rels


# BEGIN_MARKER, END_MARKER, MANIFEST, OPENCODE_SCHEMA and SERVER_NAME are re-exported from the modules that own them.
__all__ = [
    "BEGIN_MARKER", "COMMAND_NAMES", "END_MARKER", "HOOK_EVENTS", "LAUNCHERS", "MANIFEST", "OPENCODE_SCHEMA",
    "SCRIPTS_PATH", "SERVER_NAME", "TARGETS", "Action", "SetupReport",
    "closing_words", "database_path", "format_report", "gitignore_action", "install", "project_root",
    "scripts_folder",
    "render_command", "section_text", "uninstall",
]
