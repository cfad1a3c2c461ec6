"""The slash commands learnmem adds: `.claude/commands/*.md` and `.opencode/commands/*.md`.

/retro, /remember, /recall and /learning-*, rendered from the templates in learnmem/agent_files/
(`commands/<name>.md` bodies, `commands.json` front matter).

- Ours is recognised by content: a command file whose front matter carries our
  `# learnmem:generated sha256=...` line (the hash of the rest of the file).
- A command file we wrote and the user then edited is kept by both a re-install and `uninstall`
  (the hash no longer matches); a same-named file we did not write is never touched.

Standard library only: `learnmem init --uninstall` must not load DuckDB.
"""

from __future__ import annotations

import hashlib
import json
import re
from importlib import resources
from typing import Any

from learnmem.agents.setup.plan import TARGETS, Plan
from learnmem.agents.setup.settings import SERVER_NAME
from learnmem.errors import ValidationError

COMMAND_NAMES = (
    "retro", "remember", "recall",
    "learning-summarise", "learning-store", "learning-recall",
    "learning-compact", "learning-improve-docs", "learning-forget",
)
_GENERATED = re.compile(r"^# learnmem:generated sha256=([0-9a-f]{16})[^\n]*\n", re.MULTILINE)


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
    body = template(f"commands/{name}.md").strip("\n") + "\n"
    text = "\n".join(lines) + "\n---\n\n" + body
    return with_generated_line(text)


def install_commands(plan: Plan, target: str, folder: str) -> None:
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


def uninstall_commands(plan: Plan, folder: str) -> None:
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


def with_generated_line(text: str) -> str:
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


def template(name: str) -> str:
    return resources.files("learnmem.agents").joinpath("agent_files", *name.split("/")).read_text(encoding="utf-8")


def _command_meta() -> dict[str, dict[str, Any]]:
    return json.loads(template("commands.json"))


def _yaml_str(text: str) -> str:
    # A JSON string is a valid YAML double-quoted scalar: safe for colons, '#', brackets and quotes.
    return json.dumps(text, ensure_ascii=False)


__all__ = ["COMMAND_NAMES", "install_commands", "render_command", "template", "uninstall_commands",
           "with_generated_line"]
