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
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from learnmem.agents.setup.commands import (
    COMMAND_NAMES,
    install_commands,
    render_command,
    uninstall_commands,
    with_generated_line,
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
    HOOK_EVENTS,
    OPENCODE_SCHEMA,
    SERVER_NAME,
    claude_server,
    install_hooks,
    install_server,
    opencode_config,
    opencode_server,
    uninstall_hooks,
    uninstall_server,
)
from learnmem.errors import ValidationError
from learnmem.storage.paths import database_path, project_root

# The tests write an "older" learnmem command file with it.
_with_generated_line = with_generated_line


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
    plan = Plan(project_root(Path(directory)), dry_run)
    learnmem_command = learnmem_command or console_script("learnmem")
    mcp_command = mcp_command or console_script("learnmem-mcp")
    for target in chosen:
        if target == "claude":
            install_hooks(plan, ".claude/settings.json", learnmem_command)
            install_server(plan, ".mcp.json", "mcpServers", claude_server(mcp_command), mcp_command)
            install_commands(plan, "claude", ".claude/commands")
            install_section(plan, "CLAUDE.md")
        else:
            install_server(plan, opencode_config(plan), "mcp", opencode_server(mcp_command), mcp_command)
            install_commands(plan, "opencode", ".opencode/commands")
            install_section(plan, "AGENTS.md")
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
        if target == "claude":
            uninstall_hooks(plan, ".claude/settings.json")
            uninstall_server(plan, ".mcp.json", "mcpServers")
            uninstall_commands(plan, ".claude/commands")
            uninstall_section(plan, "CLAUDE.md")
            plan.remove_empty_dirs([".claude/commands", ".claude"])
        else:
            for name in ("opencode.json", "opencode.jsonc"):
                uninstall_server(plan, name, "mcp")
            uninstall_commands(plan, ".opencode/commands")
            uninstall_section(plan, "AGENTS.md")
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
            rels += [".claude/settings.json", ".mcp.json", "CLAUDE.md", ".claude/commands", ".claude"]
            rels += [f".claude/commands/{name}.md" for name in COMMAND_NAMES]
        else:
            rels += ["opencode.json", "opencode.jsonc", "AGENTS.md", ".opencode/commands", ".opencode"]
            rels += [f".opencode/commands/{name}.md" for name in COMMAND_NAMES]
    return rels


# BEGIN_MARKER, END_MARKER, MANIFEST, OPENCODE_SCHEMA and SERVER_NAME are re-exported from the modules that own them.
__all__ = [
    "BEGIN_MARKER", "COMMAND_NAMES", "END_MARKER", "HOOK_EVENTS", "MANIFEST", "OPENCODE_SCHEMA", "SERVER_NAME",
    "TARGETS", "Action", "SetupReport",
    "console_script", "database_path", "format_report", "install", "project_root",
    "render_command", "section_text", "uninstall",
]
