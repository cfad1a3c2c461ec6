"""Memories as the markdown file agent-learning tools keep (`.context/project-memory.md`): export and import.

The layout (`export_data(path, "markdown")`): `# Project memory`, then
`## Consolidated Learnings` (the values, and memories of importance >=
CONSOLIDATED_IMPORTANCE that are not progress or blockers), then one
`## Session YYYY-MM-DD` per day (UTC) a memory was stored, newest first, each
with its categories in priority order: `### User Corrections` (correction),
`### New Requirements` (requirement), `### Fresh Discoveries` (learning,
research, fact), `### Updated Conventions` (convention, pattern),
`### Preference Clarifications` (preference), then the others alphabetically
(`### Blockers`, `### Context`, `### Decisions`, `### Progress`). One bullet
per memory (continuation lines indented two spaces), ending with
`<!-- learnmem {"id": ..., "category": ..., "importance": ..., "tags": [...], "created_at": ...} -->`
so that an import merges by id and restores the category. Forgotten and
superseded memories and dissolved values are left out.

Importing markdown reads that layout and the one other tools write: `##`
sections (`## Consolidated Learnings`; `## Recent Sessions` as a container;
any other `##` heading is a session, dated by the first `YYYY-MM-DD[ HH:MM]`
in it), categories as `###` headings or bold labels (`**User Corrections:**`),
`-`/`*`/`+` bullets. A heading that names no category (`### Database
Migration Strategy`) is a custom section: its bullets become `context`
memories tagged `section:<heading>`, and an export puts them back under that
heading. Bullets without a learnmem comment get importance 0.8 under
Consolidated Learnings, 0.5 in a session, the session's date (else the import
time) and a new id. A bullet outside a category, prose where bullets were
expected, a bad learnmem comment or an over-long text is skipped and reported
(`line N (section): why`), the rest imported in one transaction. Value
bullets are not imported (values come back from JSON lines only).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from learnmem.storage import sql
from learnmem import validate
from learnmem.errors import ValidationError
from learnmem.memory.items import MAX_CONTENT_CHARS, MEMORY_CATEGORIES, validate_phase, validate_spec
from learnmem.exchange.import_batch import Batch, ImportedMemory, check_time
from learnmem.exchange.rows import iso_z, rows_of

CONSOLIDATED_IMPORTANCE = 0.7
EPHEMERAL = ("progress", "blocker", "conversation")  # never consolidated: they describe a moment
MARKDOWN_CONSOLIDATED_IMPORTANCE = 0.8  # of a foreign bullet under Consolidated Learnings
MARKDOWN_SESSION_IMPORTANCE = 0.5
SECTION_TAG = "section:"


# -- markdown export ---------------------------------------------------------------------

# (heading, categories) in the priority order of the agent-learning layout; the other categories follow,
# alphabetically by heading.
PRIORITY_SECTIONS = (
    ("User Corrections", ("correction",)),
    ("New Requirements", ("requirement",)),
    ("Fresh Discoveries", ("learning", "research", "fact")),
    ("Updated Conventions", ("convention", "pattern")),
    ("Preference Clarifications", ("preference",)),
)
CUSTOM_HEADINGS = {"blocker": "Blockers", "context": "Context", "decision": "Decisions", "progress": "Progress"}
_HEADING_OF = {category: heading for heading, categories in PRIORITY_SECTIONS for category in categories}
_MARKDOWN_NOTE = ("<!-- Written by `learnmem export --format markdown`. The comment ending each bullet holds the "
                  "memory's id, category, importance, tags and time: `learnmem import` merges by id. -->")


def _comment(meta: Mapping[str, Any]) -> str:
    # "--" may not appear inside an HTML comment; \u002d is "-" to JSON.
    return "<!-- learnmem " + json.dumps(meta, ensure_ascii=False).replace("--", "-\\u002d") + " -->"


def _bullet(text: str, meta: Mapping[str, Any]) -> list[str]:
    """A bullet: the first line after `- `, the others indented two spaces, the comment at the end."""
    first, *rest = text.split("\n")
    lines = [f"- {first}"] + [f"  {line}" if line.strip() else "" for line in rest]
    lines[-1] += " " + _comment(meta)
    return lines


def _heading(memory: Mapping[str, Any]) -> str:
    category = memory["category"]
    if category in _HEADING_OF:
        return _HEADING_OF[category]
    custom = [tag[len(SECTION_TAG):] for tag in memory["tags"] if tag.startswith(SECTION_TAG)]
    if custom and custom[0].strip():
        return custom[0].strip()
    return CUSTOM_HEADINGS.get(category, category.replace("_", " ").capitalize())


def _sections(memories: Sequence[Mapping[str, Any]]) -> list[str]:
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for memory in memories:
        groups.setdefault(_heading(memory), []).append(memory)
    standard = [heading for heading, _ in PRIORITY_SECTIONS if heading in groups]
    custom = sorted((heading for heading in groups if heading not in standard), key=lambda h: (h.lower(), h))
    out: list[str] = []
    for heading in standard + custom:
        out += [f"### {heading}", ""]
        for memory in groups[heading]:
            meta = {"id": memory["id"], "category": memory["category"], "importance": memory["importance"],
                    "tags": list(memory["tags"]), "created_at": iso_z(memory["created_at"])}
            out += _bullet(memory["content"], meta | {key: memory[key] for key in ("spec", "phase")
                                                      if memory.get(key) is not None})
        out.append("")
    return out


def _consolidated(memory: Mapping[str, Any]) -> bool:
    return memory["importance"] >= CONSOLIDATED_IMPORTANCE and memory["category"] not in EPHEMERAL


def markdown_text(con) -> tuple[str, dict[str, int]]:
    memories = rows_of(con.execute(sql.query("markdown_memories")))
    values = rows_of(con.execute(sql.query("markdown_values")))
    out = ["# Project memory", "", _MARKDOWN_NOTE, ""]
    consolidated = [memory for memory in memories if _consolidated(memory)]
    if consolidated or values:
        out += ["## Consolidated Learnings", ""]
        if values:
            out += ["### Values", ""]
            for value in values:
                out += _bullet(value["text"], {"kind": "value", "id": value["id"], "axis": value["axis"],
                                               "cluster_id": value["cluster_id"]})
            out.append("")
        out += _sections(consolidated) + ["---", ""]
    days: dict[date, list[Mapping[str, Any]]] = {}
    for memory in memories:
        if not _consolidated(memory):
            days.setdefault(memory["created_at"].date(), []).append(memory)
    for day in sorted(days, reverse=True):
        out += [f"## Session {day.isoformat()}", ""] + _sections(days[day]) + ["---", ""]
    text = "\n".join(out).rstrip("\n") + "\n"
    return text, {"memory": len(memories), "ghap_entry": 0, "value": len(values)}


# -- markdown import ---------------------------------------------------------------------

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^ ?([-*+])\s+(.*)$")
_LABEL = re.compile(r"^\*\*(.+?)\*\*\s*:?\s*(.*)$")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_COMMENT_LINE = re.compile(r"^\s*<!--.*-->\s*$")
_TRAILER = re.compile(r"<!--\s*learnmem\s+(\{.*\})\s*-->\s*$", re.DOTALL)
_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}:\d{2}(?::\d{2})?))?\s*(Z\b|UTC\b|GMT\b|[+-]\d{2}:?\d{2})?")
_CONTAINERS = ("recent sessions", "sessions")
_MEMORY_META = ("id", "category", "importance", "tags", "created_at", "spec", "phase")


def _heading_categories() -> dict[str, str]:
    names = {"user corrections": "correction", "corrections": "correction", "new requirements": "requirement",
             "requirements": "requirement", "fresh discoveries": "learning", "discoveries": "learning",
             "learnings": "learning", "updated conventions": "convention", "conventions": "convention",
             "preference clarifications": "preference", "preferences": "preference"}
    for category in MEMORY_CATEGORIES:
        names.setdefault(category, category)
        names.setdefault(category + "s", category)
    for category, heading in CUSTOM_HEADINGS.items():
        names.setdefault(heading.lower(), category)
    return names


_CATEGORY_OF_HEADING = _heading_categories()
# The headings that make a file the agent-learning layout (a README with `### Decisions` is not one).
_LAYOUT_HEADINGS = {"consolidated learnings"} | {heading.lower() for heading, _ in PRIORITY_SECTIONS}


def _name(heading: str) -> str:
    return " ".join(heading.strip().strip("*").strip().rstrip(":").split())


def markdown_layout(text: str) -> bool:
    for line in text.split("\n"):
        line = line.rstrip("\r")
        heading = _HEADING.match(line)
        label = _LABEL.match(line)
        if heading and _name(heading.group(2)).lower() in _LAYOUT_HEADINGS | {"project memory"}:
            return True
        if label and not label.group(2) and _name(label.group(1)).lower() in _LAYOUT_HEADINGS:
            return True
        if "<!-- learnmem {" in line:
            return True
    return False


def _session_time(heading: str) -> datetime | None:
    """The first `YYYY-MM-DD[ HH:MM[:SS]][ Z|UTC|+hh:mm]` of a session heading, as naive UTC (a zone name
    such as BST, which cannot be resolved, is read as UTC)."""
    match = _DATE.search(heading)
    if not match:
        return None
    day, clock, zone = match.groups()
    try:
        moment = datetime.fromisoformat(f"{day}T{clock or '00:00'}")
    except ValueError:
        return None
    if zone and zone[0] in "+-":
        sign = 1 if zone[0] == "+" else -1
        digits = zone[1:].replace(":", "")
        moment -= sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
    return moment


class _MarkdownReader:
    """Reads the layout line by line: sections, categories, bullets (with continuation lines)."""

    def __init__(self, now: datetime):
        self.batch = Batch()
        self.now = now
        self.section: str | None = None  # the `##` heading, as written
        self.consolidated = False
        self.session_time: datetime | None = None
        self.category: str | None = None
        self.custom: str | None = None  # a custom category's heading
        self.category_heading: str | None = None
        self.item: list[str] = []
        self.item_line = 0
        self.blank_lines = 0
        self.position = 0  # bullets read: keeps the file's order among bullets of one time

    def where(self, number: int) -> str:
        parts = [part for part in (self.section and f"## {self.section}",
                                   self.category_heading and f"### {self.category_heading}") if part]
        return f"line {number}" + (f" ({' > '.join(parts)})" if parts else "")

    def read(self, text: str) -> Batch:
        number = 0
        for number, line in enumerate(text.split("\n"), 1):
            self.line(number, line.rstrip("\r"))
        self.finish()
        return self.batch

    def line(self, number: int, line: str) -> None:
        if self.item:
            if not line.strip():
                self.blank_lines += 1
                return
            if line.startswith(("  ", "\t")):
                self.item += [""] * self.blank_lines + [line[2:] if line.startswith("  ") else line[1:]]
                self.blank_lines = 0
                return
            self.finish()
        if not line.strip() or _COMMENT_LINE.match(line):
            return
        heading = _HEADING.match(line)
        if heading:
            self.heading(len(heading.group(1)), _name(heading.group(2)))
            return
        label = _LABEL.match(line)
        if label and not label.group(2):
            self.set_category(_name(label.group(1)))
            return
        if label or _RULE.match(line):
            return  # `**Project**: name`, `**Documentation Seen**: ...`, `---`: not memories
        bullet = _BULLET.match(line)
        if bullet:
            self.item, self.item_line, self.blank_lines = [bullet.group(2)], number, 0
            return
        if self.category is not None:
            self.batch.problems.append(f"{self.where(number)}: not a bullet (`- ...`): {line.strip()[:60]!r}; skipped")

    def heading(self, level: int, name: str) -> None:
        if level == 1:
            return
        if level == 2:
            self.section, self.category, self.custom, self.category_heading = name, None, None, None
            self.consolidated = name.lower() == "consolidated learnings"
            self.session_time = None
            if name.lower() in _CONTAINERS:
                self.section = None
            elif not self.consolidated:
                self.session_time = _session_time(name)
            return
        self.set_category(name)

    def set_category(self, name: str) -> None:
        self.category_heading = name
        category = _CATEGORY_OF_HEADING.get(name.lower())
        self.category, self.custom = (category, None) if category else ("context", name)

    def finish(self) -> None:
        if not self.item:
            return
        lines, number = self.item, self.item_line
        self.item, self.blank_lines = [], 0
        self.position += 1
        where = self.where(number)
        text = "\n".join(lines)
        meta: dict[str, Any] = {}
        start = text.rfind("<!-- learnmem ")
        if start >= 0 and _TRAILER.fullmatch(text[start:].rstrip()):
            try:
                meta = json.loads(_TRAILER.fullmatch(text[start:].rstrip()).group(1))
                if not isinstance(meta, dict):
                    raise ValueError("not an object")
            except ValueError as error:
                self.batch.problems.append(f"{where}: the learnmem comment is not a JSON object ({error}); skipped")
                return
            text = text[:start]
        if meta.get("kind") == "value":
            self.batch.skipped_values += 1
            return
        try:
            unknown = sorted(set(meta) - set(_MEMORY_META))
            if unknown:
                raise ValidationError(f"{unknown[0]}: unknown field in the learnmem comment; allowed: "
                                      f"{', '.join(_MEMORY_META)}")
            category = meta.get("category", self.category)
            if category is None:
                raise ValidationError("category: the bullet is under no category heading (such as "
                                      "`### User Corrections`)")
            tags = meta["tags"] if "tags" in meta else ([SECTION_TAG + self.custom] if self.custom else [])
            importance = meta.get("importance", MARKDOWN_CONSOLIDATED_IMPORTANCE if self.consolidated
                                  else MARKDOWN_SESSION_IMPORTANCE)
            if "created_at" in meta:
                created = check_time("created_at", meta["created_at"])
            else:  # the session's time (else now), a microsecond per bullet: the file's order is kept
                created = (self.session_time or self.now) + timedelta(microseconds=self.position)
            row = {
                "id": validate.identifier("id", meta["id"]) if "id" in meta else None,
                "content": validate.text("content", text, max_chars=MAX_CONTENT_CHARS),
                "category": validate.choice("category", category, MEMORY_CATEGORIES),
                "importance": validate.number("importance", importance, low=0.0, high=1.0),
                "tags": list(validate.tags("tags", tags)),
                "created_at": created,
                "spec": validate_spec("spec", meta.get("spec")),
                "phase": validate_phase("phase", meta.get("phase")),
            }
        except ValidationError as error:
            self.batch.problems.append(f"{where}: {error}; skipped")
            return
        self.batch.memories.append(ImportedMemory(where, row))


def parse_markdown(text: str, source: Path, now: datetime) -> Batch:
    if not markdown_layout(text):
        raise ValidationError(f"path: {source} is not markdown in the agent-learning layout (no `# Project memory` "
                              f"title, no `## Consolidated Learnings` section and no category heading such as "
                              f"`### User Corrections`)")
    batch = _MarkdownReader(now).read(text)
    seen: dict[str, str] = {}
    unique = []
    for memory in batch.memories:
        memory_id = memory.row["id"]
        if memory_id is not None and memory_id in seen:
            batch.problems.append(f"{memory.where}: id {memory_id!r} repeats {seen[memory_id]}; skipped")
            continue
        if memory_id is not None:
            seen[memory_id] = memory.where
        unique.append(memory)
    batch.memories = unique
    if batch.skipped_values:
        batch.warnings.append(f"{batch.skipped_values} value bullet(s) not imported: values come back from JSON "
                              f"lines exports only (`learnmem export --format jsonl`)")
    return batch
