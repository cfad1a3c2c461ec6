"""Learnable moments in tool output: what the PostToolUse hook queues as candidate memories.

Precision comes before recall: a junk memory is read at the start of every later session, a missed one
costs one lesson. So only these are taken, each with its context, cut to MAX_CONTENT_CHARS:

- **A failure that was then fixed**, and **a blocker**: a failure still unfixed when the agent stops whose
  error is an outside condition (a rate limit, a quota, access denied). learnmem.agents.capture.failures follows
  Bash commands across calls for these. The words "blocked by/on/until", "Blocked:", "cannot proceed
  until" in the agent's own words make a blocker too.
- **Lessons in the agent's own words.** In a subagent's (Task's) report, in the comments an Edit or Write
  adds to code, in the markdown it writes and in its commit messages: "turns out", "the issue/cause/problem
  was", "was caused by", "root cause", "fixed by", "the fix was", "workaround", "gotcha", "caveat"; in code
  comments also a `NOTE:` or `IMPORTANT:` that opens the comment; in markdown, the items under a heading
  such as Gotchas, Pitfalls, Caveats, Known issues or Troubleshooting. A comment or paragraph written while
  a failure is pending that names what the error named (a package, a setting) explains the fix: it is taken
  too, and then the failure is not taken again as a second memory of the same lesson. Text the agent only
  read (Read, Grep, `cat`, `git log`) is never taken: reading an old note teaches nothing new.
- **Deprecations in command output** raised at a source location of the project's own code (`file:line`,
  not in site-packages, node_modules or vendored trees, not in its tests, which exercise deprecations on
  purpose) that name the replacement ("use X instead", "in favour of Y"). Banners, `npm WARN deprecated`
  lines about transitive packages and deprecation notices in files the agent reads are left alone.

Standard library only: this runs inside the PostToolUse hook, before any database is opened.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from learnmem.agents.capture.failures import PendingFailures, edit_action, failures_and_fixes
from learnmem.agents.capture.candidates import (
    ANSI,
    MAX_CONTENT_CHARS,
    Candidate,
    added_lines,
    distinctive,
    enough,
    flat,
    moment_key,
    reads_only,
    response_text,
    scan_window,
)
from learnmem.agents.test_runs import simple_commands
from learnmem.text import LazyPattern, clip

SHORT_WORDS = 12  # a paragraph shorter than this that carries a marker announces the next one
LOCATION_LINES = 6  # how far after a deprecation warning its source location may be printed
CODE_SUFFIXES = {".py", ".pyi", ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".go", ".rs", ".java", ".kt", ".rb",
                 ".php", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".swift", ".scala", ".sql", ".sh", ".bash",
                 ".zsh", ".lua", ".ex", ".exs", ".dart", ".vue", ".svelte", ".toml", ".yaml", ".yml", ".ini",
                 ".cfg", ".conf", ".tf", ".hcl", ".dockerfile", ".gradle", ".kts", ".r", ".jl", ".pl", ".css",
                 ".scss", ".env", ".properties", ".nix", ".bzl", ".proto", ".graphql"}
PROSE_SUFFIXES = {".md", ".markdown", ".rst", ".txt", ".adoc"}
_CODE_NAMES = LazyPattern(r"^(?:dockerfile.*|makefile|justfile|rakefile|gemfile|procfile|vagrantfile|\.env.*"
                          r"|(?:requirements|constraints)[\w.-]*\.(?:txt|in)|\.\w+rc)$", re.IGNORECASE)


# -- markers -----------------------------------------------------------------------------------------------

_LESSON = LazyPattern(
    r"\b(?:turns? out|it turned out|turned out (?:that|to be)"
    r"|the (?:real |actual |underlying )?(?:root cause|cause|issue|problem|bug|culprit|reason) (?:was|is|turned out)"
    r"|(?:was|were|is|are) caused by|root cause\b|found (?:it|the (?:cause|culprit|problem|bug))\b"
    r"|fixed (?:it |this |that )?by\b|the fix (?:was|is)\b|resolved by\b"
    r"|work(?:ed)?[- ]?around\b|workaround\b|gotcha\b|caveat\b|pitfall\b|lesson learned)",
    re.IGNORECASE)
_NOTE = LazyPattern(r"^(?:note|important|nb|n\.b\.|heads[- ]up|warning|caution)\s*:", re.IGNORECASE)
_BLOCKER = LazyPattern(
    r"(?:^|\W)blocked\s*[:.—-]|\b(?:blocked (?:by|on|until)|blocker\s*:"
    r"|can(?:no|')t (?:proceed|continue|deploy|merge|release|finish|reproduce|run the \w+)"
    r"(?: \w+){0,6} (?:until|without)"
    r"|waiting (?:on|for) (?:\w+ ){0,4}(?:access|approval|credentials|permissions?|a fix|the fix|review))",
    re.IGNORECASE)
_LESSON_HEADING = LazyPattern(r"^#+\s*(?:\W*\s*)?(?:gotchas?|pitfalls?|caveats?|known (?:issues|problems)"
                              r"|troubleshooting|lessons(?: learned)?|learnings|things to know)\b", re.IGNORECASE)
_DEPRECATION = LazyPattern(r"\bdeprecat(?:ed|ion)\b", re.IGNORECASE)
_REPLACEMENT = LazyPattern(r"\buse\b(?! or\b)|\binstead\b|\breplaced (?:by|with)\b|\bin favou?r of\b|\bmigrate to\b"
                           r"|\bsuperseded by\b|\bmoved to\b|\brenamed to\b", re.IGNORECASE)
_SOURCE_LOCATION = LazyPattern(r"(?:file://)?[\w./\\~-]+\.\w+:\d+")
_THIRD_PARTY = LazyPattern(r"(?:site|dist)-packages|node_modules|(?:^|[\s/])(?:vendor|deps|third_party|Pods)/"
                           r"|_build/|\.cargo/registry|/go/pkg/mod/|/\.gradle/|/\.m2/|<frozen |/usr/lib/|/lib/python\d")
_TEST_CODE = LazyPattern(r"(?:^|[/\\])(?:tests?|spec|__tests__)[/\\]|test_\w+\.py|_test\.\w+:|\.(?:test|spec)\.\w+:")
_COMMENT = LazyPattern(r"^\s*(?:#+|//+|/\*+|\*+(?!\*)|--|;+|<!--|%|')\s?(.*?)(?:\*/|-->)?\s*$")
_TRAILING_COMMENT = LazyPattern(r"\s(?:#|//|--)\s+(.*\S)\s*$")




def _file_kind(path: Any) -> str | None:
    """code, prose or None (a file type whose text is neither: data, lock files...)."""
    if not isinstance(path, str) or not path:
        return None
    name = Path(path).name
    if _CODE_NAMES.match(name):
        return "code"
    suffix = Path(name).suffix.lower()
    return "prose" if suffix in PROSE_SUFFIXES else "code" if suffix in CODE_SUFFIXES else None


# -- lessons in the agent's own words ----------------------------------------------------------------------


def _comment_blocks(lines: list[str]) -> list[str]:
    """Runs of consecutive comment lines (and trailing comments), each joined into one text."""
    blocks, current = [], []
    for line in lines:
        whole = _COMMENT.match(line)
        trailing = None if whole else _TRAILING_COMMENT.search(line)
        body = whole.group(1) if whole else (trailing.group(1) if trailing else None)
        if body is not None and body.strip():
            current.append(body.strip())
            continue
        if current:
            blocks.append(" ".join(current))
            current = []
    if current:
        blocks.append(" ".join(current))
    return blocks


def _paragraphs(lines: list[str]) -> list[tuple[str, bool]]:
    """(paragraph or list item, whether it sits under a lesson heading such as Gotchas) of markdown;
    headings and code fences left out."""
    out: list[tuple[str, bool]] = []
    current: list[str] = []
    fenced = under_lessons = False

    def close() -> None:
        if current:
            out.append((" ".join(current), under_lessons))
            current.clear()

    for line in lines:
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            close()
            continue
        if fenced:
            continue
        item = re.match(r"^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?", stripped)
        if not stripped or stripped.startswith("#") or item:
            close()
            if stripped.startswith("#"):
                under_lessons = bool(_LESSON_HEADING.match(stripped))
            if item:
                current.append(stripped[item.end():])
            continue
        current.append(stripped)
    close()
    return out


def _lesson(text: str, *, note_opens_it: bool = False, under_lessons: bool = False,
            explains: set[str] | None = None) -> Candidate | None:
    """A paragraph or comment as a candidate: when it carries a marker, sits under a lesson heading, or
    names what a pending failure's error named (`explains`); and says enough."""
    line = flat(ANSI.sub("", text))
    if not enough(line):
        return None
    if _BLOCKER.search(line):
        category = "blocker"
    elif (_LESSON.search(line) or (note_opens_it and _NOTE.search(line)) or under_lessons
          or (explains and explains & distinctive(line))):
        category = "learning"
    else:
        return None
    return Candidate(category, clip(_sentences_around(line), MAX_CONTENT_CHARS), "", moment_key(line))


def _sentences_around(text: str) -> str:
    """A long paragraph cut to the sentences around its marker."""
    if len(text) <= MAX_CONTENT_CHARS:
        return text
    sentences = re.split(r"(?<=[.!?])\s+", text)
    for number, sentence in enumerate(sentences):
        if _LESSON.search(sentence) or _BLOCKER.search(sentence) or _NOTE.search(sentence):
            return " ".join(sentences[max(number - 1, 0):number + 3])
    return text


def lessons_in_prose(text: str, explains: set[str] | None = None) -> list[Candidate]:
    """The moments of a report, a markdown document or a commit message, paragraph by paragraph. A short
    paragraph that announces what follows ("Blocked: I could not reproduce it.") is read with the next."""
    paragraphs = _paragraphs(scan_window(text).splitlines())
    found, number = [], 0
    while number < len(paragraphs):
        paragraph, under = paragraphs[number]
        number += 1
        announces = _LESSON.search(paragraph) or _BLOCKER.search(paragraph)
        if number < len(paragraphs) and announces and (paragraph.endswith(":") or
                                                       len(paragraph.split()) < SHORT_WORDS):
            paragraph = f"{paragraph} {paragraphs[number][0]}"
            number += 1
        found.append(_lesson(paragraph, under_lessons=under, explains=explains))
    return [candidate for candidate in found if candidate is not None]


def lessons_in_code(lines: list[str], explains: set[str] | None = None) -> list[Candidate]:
    """The moments of the comments in code."""
    found = [_lesson(comment, note_opens_it=True, explains=explains) for comment in _comment_blocks(lines)]
    return [candidate for candidate in found if candidate is not None]


def _commit_messages(command: str) -> str:
    """The messages of the `git commit -m` commands in a command line (the agent's own words)."""
    if "commit" not in command:
        return ""
    try:
        words = shlex.split(command)  # not simple_commands: a message's line breaks are not separators
    except ValueError:
        return ""
    messages, committing = [], False
    for number, word in enumerate(words[:-1]):
        if word in ("&&", "||", ";", "|"):
            committing = False
        elif word == "commit" and number and os.path.basename(words[number - 1]) == "git":
            committing = True
        elif committing and (word in ("-m", "--message") or re.fullmatch(r"-[a-zA-Z]*m", word)):
            messages.append(words[number + 1])
    return "\n\n".join(messages)


# -- deprecations in command output ------------------------------------------------------------------------


def deprecations(output: str, command: str) -> list[Candidate]:
    """Deprecation warnings of the project's own code that name a replacement (module docstring). The source
    location may stand on the warning's line, the line before it, or the few after it (rustc's `-->`,
    Elixir's `└─`, a stack trace's `at file://`)."""
    lines = [ANSI.sub("", line) for line in scan_window(output).splitlines()]
    found: dict[str, Candidate] = {}
    for number, line in enumerate(lines):
        if not _DEPRECATION.search(line):
            continue
        nearby = lines[max(number - 1, 0):number + 1 + LOCATION_LINES]
        located = next((other for other in nearby if _SOURCE_LOCATION.search(other)), None)
        if located is None or _THIRD_PARTY.search(located) or _TEST_CODE.search(located):
            continue
        text = flat(line)
        following = [flat(other) for other in lines[number + 1:number + 1 + LOCATION_LINES] if other.strip()]
        if not _REPLACEMENT.search(text):
            text = " ".join([text, next((other for other in following if _REPLACEMENT.search(other)), "")]).strip()
        if not _REPLACEMENT.search(text) or not enough(text):
            continue
        where = _SOURCE_LOCATION.search(located).group(0)
        key = moment_key(re.sub(r"^\S*:\d+(?::\d+)?:?", "", text))  # the same warning elsewhere is the same
        found.setdefault(key, Candidate("learning", clip(f"Deprecated (seen running `{clip(command, 120)}`, at "
                                                         f"{where}): {text}", MAX_CONTENT_CHARS), "Bash", key))
    return list(found.values())


# -- one tool call -----------------------------------------------------------------------------------------


def candidates(payload: Mapping[str, Any], pending: PendingFailures, failed_event: bool = False) -> list[Candidate]:
    """The candidate memories of one PostToolUse (or PostToolUseFailure) payload, de-duplicated by key."""
    tool = payload.get("tool_name")
    if not isinstance(tool, str):
        return []
    tool_input = payload.get("tool_input") if isinstance(payload.get("tool_input"), Mapping) else {}
    found: list[Candidate] = []
    if tool == "Bash" and isinstance(tool_input.get("command"), str) and tool_input["command"].strip():
        command = tool_input["command"]
        found += failures_and_fixes(command, payload, pending, failed_event)
        found += lessons_in_prose(_commit_messages(command))
        segments = simple_commands(command)
        output = response_text(payload.get("tool_response"))
        if output and segments and not all(reads_only(words) for words in segments):
            found += deprecations(output, command)
    elif tool in ("Edit", "MultiEdit", "Write"):
        kind = _file_kind(tool_input.get("file_path"))
        lines = added_lines(tool_input)
        explains = pending.error_words()
        if kind == "code":
            found += lessons_in_code(lines, explains)
        elif kind == "prose":
            found += lessons_in_prose("\n".join(lines), explains)
        pending.act(edit_action(tool_input), explained=bool(found))
    elif tool in ("Task", "Agent"):
        found += lessons_in_prose(response_text(payload.get("tool_response")))
    unique: dict[str, Candidate] = {}
    for candidate in found:
        unique.setdefault(candidate.key, Candidate(candidate.category, candidate.content, tool, candidate.key))
    return list(unique.values())
