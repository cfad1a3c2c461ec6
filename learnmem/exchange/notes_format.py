"""The text of a learnmem git note: one document per memory or value, YAML front matter then markdown.

    ---
    id: mem_20261123_031500_5f2a9c01de
    category: decision
    importance: 0.8
    tags: [db]
    created_at: '2026-11-23T03:15:00.123456Z'
    commit_sha: 9c1e...
    sources: [docs/adr/007.md]
    ---
    Money is stored as integer cents, never floats.

Documents follow one another in one note (a blank line between them). A
document starts at a `---` line followed by an `id:` line; its front matter
ends at the next `---` line; the markdown after it, up to the next document,
is the memory's content (a value's text). The front matter holds the export
fields of learnmem.exchange.portable (a memory's `state` flattened to `superseded_by`
and `superseded_at`; forgotten memories are not shared). A content that
would read back differently (one holding a `---` line followed by an `id:`
line) is written in the front matter as `content:` instead, so a note always
reads back to what was written. Hand-written YAML is read too: unquoted
times become ISO strings again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

import yaml

from learnmem.errors import ValidationError

_START = "---"


def render(documents: Sequence[tuple[Mapping[str, Any], str]]) -> str:
    """A note's text: one (front matter, body) document after another."""
    return "\n".join(_document(front, body) for front, body in documents)


def _document(front: Mapping[str, Any], body: str) -> str:
    if not front or next(iter(front)) != "id":
        raise ValueError("a note document's front matter starts with its id")
    text = _START + "\n" + _dump(front) + _START + "\n" + body + "\n"
    try:
        if parse(text) == [(dict(front), body)]:
            return text
    except ValidationError:
        pass
    # Its body would be misread (it holds a document start): carry it in the front matter instead.
    text = _START + "\n" + _dump(dict(front) | {"content": body}) + _START + "\n"
    if parse(text) != [(dict(front), body)]:  # never write a note that reads back otherwise
        raise ValueError(f"note: memory {front['id']!r} cannot be written so that it reads back the same")
    return text


class _Dumper(yaml.SafeDumper):
    """Block style for the fields, flow style for lists (`tags: [db, money]`)."""

    def represent_list(self, data):
        return self.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


    def represent_text(self, data):
        # YAML reads NEL, LS, PS and CR as line breaks: only an escaped, double-quoted string keeps them.
        style = '"' if any(char in data for char in "\x85\u2028\u2029\r") else None
        return self.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _Dumper.represent_text)
_Dumper.add_representer(list, _Dumper.represent_list)
_Dumper.add_representer(tuple, _Dumper.represent_list)


def _dump(front: Mapping[str, Any]) -> str:
    return yaml.dump(dict(front), Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=10_000)


def parse(text: str) -> list[tuple[dict[str, Any], str]]:
    """The (front matter, body) documents of a note; ValidationError naming the document and the line when
    a front matter is not valid YAML, not a mapping, or not closed."""
    lines = text.split("\n")
    starts = [n for n in range(len(lines) - 1) if lines[n] == _START and lines[n + 1].startswith("id:")]
    if not starts or any(line.strip() for line in lines[: starts[0]]):
        raise ValidationError("note: expected documents starting with a '---' line and an 'id:' line")
    documents = []
    for number, (start, end) in enumerate(zip(starts, starts[1:] + [len(lines)]), 1):
        try:
            close = lines.index(_START, start + 1, end)
        except ValueError:
            raise ValidationError(f"note: document {number} (line {start + 1}): its front matter has no closing "
                                  "'---' line") from None
        front = _load("\n".join(lines[start + 1 : close]), number, start + 1)
        body = "\n".join(lines[close + 1 : end]).strip()
        if "content" in front:
            if body:
                raise ValidationError(f"note: document {number} (line {start + 1}): a 'content:' field and a body "
                                      "below the front matter; give one")
            body = front.pop("content")
        documents.append((front, body))
    return documents


def _load(text: str, number: int, line: int) -> dict[str, Any]:
    try:
        front = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {line + 1 + mark.line}" if mark is not None else f"line {line}"
        problem = getattr(error, "problem", None) or str(error).split("\n")[0]
        raise ValidationError(f"note: document {number} ({where}): the front matter is not valid YAML: {problem}") from None
    if not isinstance(front, dict):
        raise ValidationError(f"note: document {number} (line {line}): the front matter is not a mapping of "
                              f"fields (got {type(front).__name__})")
    return {str(key): _plain(value) for key, value in front.items()}


def _plain(value: Any) -> Any:
    """YAML's own types back to export data: times and dates as ISO strings."""
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(UTC).replace(tzinfo=None)
        return value.isoformat() + "Z"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    return value
