"""The launcher: the one command the agents' files run, so that they work wherever the agent starts.

An agent runs hooks and MCP servers from its own environment: a new terminal, an IDE, a teammate's machine,
where learnmem's virtual environment is not on PATH. So the files `learnmem init` writes never name
`learnmem` or a path: they run `sh <project>/.claude/learnmem hook <event>` and `sh .../learnmem mcp`, a
small POSIX script (the template `agent_files/launcher.sh`) that is committed with them and finds this
machine's learnmem at run time: $LEARNMEM_BIN, the folder `learnmem init` recorded on this machine in
`.learnmem/scripts-path` (inside the ignored `.learnmem/` folder: personal, never committed), PATH, then
~/.local/bin (pipx, uv tool). Where none has it, the launcher says so once, at the session's start, and
every other hook exits quietly: one clear message, not an error per hook.

claude    `.claude/learnmem`       the launcher (Claude Code's hooks and `.mcp.json` run it)
opencode  `.opencode/learnmem`     the same launcher (`opencode.json` runs it)
both      `.learnmem/scripts-path` the folder of this machine's `learnmem` and `learnmem-mcp`

Standard library only: `learnmem init --uninstall` must not load DuckDB.
"""

from __future__ import annotations

import shutil
import sys
from importlib import resources
from pathlib import Path

from learnmem.agents.setup.plan import Plan
from learnmem.agents.setup.settings import CLAUDE_LAUNCHER, OPENCODE_LAUNCHER
from learnmem.errors import LearnmemError

LAUNCHERS = {"claude": CLAUDE_LAUNCHER, "opencode": OPENCODE_LAUNCHER}
SCRIPTS_PATH = ".learnmem/scripts-path"
# The launcher's second line: how a file at a launcher's path is known to be ours.
_SIGNATURE = "# learnmem's launcher, written by `learnmem init`"


def launcher_text() -> str:
    return resources.files("learnmem.agents").joinpath("agent_files", "launcher.sh").read_text(encoding="utf-8")


def scripts_folder() -> str | None:
    """The folder of the `learnmem` and `learnmem-mcp` scripts of this installation: beside this interpreter
    (a venv, pipx's or uv's environment), else where PATH finds them; None when neither has them."""
    for folder in (Path(sys.executable).parent, *_path_folders()):
        if (folder / "learnmem").is_file() and (folder / "learnmem-mcp").is_file():
            return str(folder.absolute())
    return None


def _path_folders() -> list[Path]:
    found = shutil.which("learnmem")
    return [Path(found).parent] if found else []


def install_launcher(plan: Plan, target: str) -> None:
    rel = LAUNCHERS[target]
    text = plan.read(rel)
    wanted = launcher_text()
    if text == wanted:
        plan.note(rel, "unchanged", "the launcher")
        return
    if text is not None and _SIGNATURE not in text:
        raise LearnmemError(f"{rel}: exists and is not learnmem's launcher; move it away and run `learnmem init` "
                            "again (nothing was written)")
    if text is None:
        plan.manifest.files.add(rel)
    plan.write(rel, wanted, "created" if text is None else "updated",
               "the launcher the hooks and the MCP server run (commit it: it holds no machine's path)")


def uninstall_launcher(plan: Plan, target: str) -> None:
    rel = LAUNCHERS[target]
    text = plan.read(rel)
    if text is not None and _SIGNATURE in text:
        plan.delete(rel, "the launcher")


def install_scripts_path(plan: Plan, folder: str | None) -> None:
    """Record where this machine's learnmem is, for the launcher; nothing when it is not known."""
    if folder is None:
        plan.note(SCRIPTS_PATH, "kept", "this learnmem's scripts were not found: the launcher looks on PATH and "
                                        "in ~/.local/bin")
        return
    text = plan.read(SCRIPTS_PATH)
    if text is not None and text.strip() == folder:
        plan.note(SCRIPTS_PATH, "unchanged", f"learnmem on this machine: {folder}")
        return
    if text is None:
        plan.manifest.files.add(SCRIPTS_PATH)
    plan.write(SCRIPTS_PATH, folder + "\n", "created" if text is None else "updated",
               f"learnmem on this machine: {folder} (personal: .learnmem/ is not committed)")


def uninstall_scripts_path(plan: Plan) -> None:
    if plan.exists(SCRIPTS_PATH):
        plan.delete(SCRIPTS_PATH, "where learnmem is on this machine")


__all__ = ["LAUNCHERS", "SCRIPTS_PATH", "install_launcher", "install_scripts_path", "launcher_text",
           "scripts_folder", "uninstall_launcher", "uninstall_scripts_path"]
