"""How a definition is named: quoted and computed names as readers write them, and qualified names made
unique within a file by a documented rule (docs/code.md)."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the indexer imports this module (through describe.py) before any tree-sitter is needed
    from tree_sitter import Node

IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


def strip_quotes(key: str) -> str:
    """A quoted key or name as its text (`"a b"` -> `a b`); anything else as it is."""
    if len(key) >= 2 and key[0] == key[-1] and key[0] in "\"'":
        try:
            value = ast.literal_eval(key)
            return value if isinstance(value, str) else key[1:-1]
        except (ValueError, SyntaxError):
            return key[1:-1]
    return key


def computed_name(expression: str) -> str:
    """A computed member name as readers write it: `Symbol.iterator` -> `@@iterator` (the spec's notation),
    a quoted string -> its text, anything else -> the expression."""
    expression = expression.strip()
    if expression.startswith("Symbol.") and IDENTIFIER.fullmatch(expression[7:]):
        return "@@" + expression[7:]
    if len(expression) >= 2 and expression[0] == expression[-1] and expression[0] in "\"'`":
        return strip_quotes(expression) if expression[0] != "`" else expression[1:-1]
    return expression


def literal_name(node_type: str, text: str) -> str | None:
    """The name a quoted (`"quoted name"`, `'k'`), numeric or computed (`[Symbol.iterator]`) name node says;
    None for any other kind of node."""
    if node_type in ("string", "number"):
        return strip_quotes(text)
    if node_type == "computed_property_name":
        return computed_name(text[1:-1])
    return None


def flavour(node: Node) -> str:
    """What tells a member apart from another of its name: "static", "get", "set", or ""."""
    keywords = {c.type for c in node.children if not c.is_named}
    for word in ("static", "get", "set"):
        if word in keywords:
            return word
    return ""


def make_unique(units: list[dict], flavours: list[str]) -> None:
    """Qualified names unique within a file: the first definition keeps its name; a later one that would
    share it gets a suffix that says why it differs (`:static` beside an instance member, `:set` beside a
    getter, `:get` beside a setter) or, when nothing does (redefinitions, overloads), its rank (`:2`, `:3`)."""
    seen: dict[str, int] = {}
    for index, unit in enumerate(units):
        name = unit["qualified_name"]
        if not name or name not in seen:
            seen[name] = 1
            continue
        seen[name] += 1
        differs = flavours[index]
        candidate = f"{name}:{differs}" if differs else f"{name}:{seen[name]}"
        rank = seen[name]
        while candidate in seen:
            rank += 1
            candidate = f"{name}:{rank}"
        seen[candidate] = 1
        unit["qualified_name"] = candidate
