"""What the capture modules (learnmem.agents.capture.tool_output, learnmem.agents.capture.failures) share: the candidate they make and
the small text helpers they read tool output with. Standard library only: the PostToolUse hook imports it."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from learnmem.text import LazyPattern

MAX_CONTENT_CHARS = 600
MAX_SCAN_CHARS = 200_000  # of one tool's output: a huge log is read from both ends
MIN_WORDS = 6  # a moment shorter than this says too little to be a memory

ANSI = LazyPattern(r"\x1b\[[0-9;?]*[A-Za-z]")
_WORD = LazyPattern(r"[A-Za-z][\w.-]{3,}")
# Commands that only read: a failure's rerun after them alone is a flaky pass, and output they print was
# written by someone else.
_READERS = {"ls", "cat", "head", "tail", "less", "more", "grep", "rg", "ag", "ack", "find", "fd", "tree", "stat",
            "file", "wc", "du", "df", "id", "whoami", "pwd", "echo", "printf", "which", "type", "env", "printenv",
            "sed", "awk", "jq", "yq", "bat", "diff", "cmp", "ps", "top", "uname", "date", "true", "sleep", "cd",
            "history", "man", "tldr", "curl", "wget", "open", "xdg-open", "git-log", "git-show", "git-diff",
            "git-status", "git-blame", "git-branch", "git-remote", "gh-run", "gh-pr", "gh-issue", "kubectl-get",
            "kubectl-describe", "kubectl-logs", "docker-ps", "docker-logs", "docker-images", "docker-inspect"}
_COMMON = {"error", "errors", "failed", "failure", "warning", "with", "from", "that", "this", "there", "when",
           "which", "would", "could", "should", "because", "module", "file", "line", "test", "tests", "value",
           "found", "named", "only", "into", "must", "have", "will", "your", "does", "were", "been", "than",
           "then", "also", "just", "like", "same", "some", "more", "here", "what", "need", "needs", "make",
           "true", "false", "none", "null", "return", "import", "self", "path", "name", "type", "string"}


@dataclass(frozen=True)
class Candidate:
    """A candidate memory: its category (learning or blocker), text, the tool it came from, and the key that
    makes two candidates the same (a warning repeated in every run is queued once)."""

    category: str
    content: str
    tool: str
    key: str


def flat(text: str) -> str:
    """`text` on one line, whitespace runs made one space."""
    return " ".join(text.split())


def enough(text: str) -> bool:
    """Whether `text` has at least MIN_WORDS words."""
    return len(re.findall(r"[A-Za-z0-9_.'-]+", text)) >= MIN_WORDS


def moment_key(text: str) -> str:
    """Two moments that differ only in numbers, paths, hex ids or quotes are the same moment."""
    text = re.sub(r"0x[0-9a-f]+|\b[0-9a-f]{7,40}\b|\d+(?:\.\d+)*", "#", text.lower())
    text = re.sub(r"(?:[\w.-]*/)+([\w.-]+)", r"\1", text)
    return " ".join(re.findall(r"[a-z#_]+", text))[:300]


def distinctive(text: str) -> set[str]:
    """The words of `text` that name things (packages, settings, identifiers), lowercased."""
    return {word.lower().strip(".-") for word in _WORD.findall(text)} - _COMMON


# -- the texts of a tool call ------------------------------------------------------------------------------


def scan_window(text: str) -> str:
    """At most MAX_SCAN_CHARS of `text`: its two ends when it is longer."""
    if len(text) <= MAX_SCAN_CHARS:
        return text
    half = MAX_SCAN_CHARS // 2
    return text[:half] + "\n" + text[-half:]


def response_text(response: Any) -> str:
    """A tool response's text: Bash's stdout and stderr, a Task's content blocks, or a plain string."""
    if isinstance(response, str):
        return response
    if isinstance(response, list):
        return "\n".join(block.get("text", "") for block in response
                         if isinstance(block, Mapping) and isinstance(block.get("text"), str))
    if isinstance(response, Mapping):
        if isinstance(response.get("content"), list):
            return response_text(response["content"])
        parts = [response.get(key) for key in ("stdout", "stderr", "output", "result")]
        return "\n".join(part for part in parts if isinstance(part, str))
    return ""


def added_lines(tool_input: Mapping[str, Any]) -> list[str]:
    """The lines an Edit, MultiEdit or Write adds (lines already in the replaced text are not new)."""
    if isinstance(tool_input.get("content"), str):
        return tool_input["content"].splitlines()
    edits = tool_input.get("edits") if isinstance(tool_input.get("edits"), list) else [tool_input]
    added = []
    for edit in edits:
        if not isinstance(edit, Mapping) or not isinstance(edit.get("new_string"), str):
            continue
        old = {line.strip() for line in edit["old_string"].splitlines()} \
            if isinstance(edit.get("old_string"), str) else set()
        added += [line for line in edit["new_string"].splitlines() if line.strip() not in old]
    return added


def program_of(words: list[str]) -> str:
    """A simple command's program, with the subcommand of git, gh, kubectl and docker (`git-status`)."""
    program = os.path.basename(words[0]).lower()
    if program in ("git", "gh", "kubectl", "docker") and len(words) > 1:
        sub = next((word for word in words[1:] if not word.startswith("-")), "")
        return f"{program}-{sub}"
    return program


def reads_only(words: list[str]) -> bool:
    """Whether a simple command only reads (ls, cat, grep, git status...)."""
    return program_of(words) in _READERS
