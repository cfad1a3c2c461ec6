"""The GHAP section learnmem adds to `CLAUDE.md` (claude) and `AGENTS.md` (opencode).

The section lies between `<!-- learnmem:begin` and `<!-- learnmem:end -->`; its body is the
template learnmem/agent_files/section.md.

- The text between the section markers is ours: a re-install replaces it when it differs,
  uninstall removes it. Markdown files keep every byte outside our section.
- The blank line install puts before an appended section is recorded in the manifest
  (`learnmem.agents.setup.manifest`) so that uninstall removes exactly that.

Standard library only: `learnmem init --uninstall` must not load DuckDB.
"""

from __future__ import annotations

from learnmem.agents.setup.commands import template
from learnmem.agents.setup.plan import Plan
from learnmem.errors import LearnmemError

BEGIN_MARKER = "<!-- learnmem:begin"
END_MARKER = "<!-- learnmem:end -->"


def section_text() -> str:
    """The CLAUDE.md / AGENTS.md section, markers included, ending with a newline."""
    body = template("section.md").strip("\n")
    begin = (f"{BEGIN_MARKER}: written by `learnmem init`, removed by `learnmem init --uninstall`; "
             "edit outside the markers -->")
    return f"{begin}\n{body}\n{END_MARKER}\n"


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


def install_section(plan: Plan, rel: str) -> None:
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


def uninstall_section(plan: Plan, rel: str) -> None:
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


__all__ = ["BEGIN_MARKER", "END_MARKER", "install_section", "section_text", "uninstall_section"]
