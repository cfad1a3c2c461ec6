"""What a code unit is searched by: the text its vector is embedded from, and the text BM25 indexes.

The embedded text is a digest of the unit, not its source. The model (all-MiniLM-L6-v2) reads words, and a
query is a sentence, so a unit is described in words: its kind and name, the name split into words
(`differenceInHours` -> "difference in hours"), its module likewise, its signature, the names it calls and
the other names it uses (split the same way, in the order they first appear), and its docstring. Measured
against the unit's leading source on docs-stripped libraries (bench/code/RESULTS.md, "Search by meaning per
language"), the digest ranks the right unit higher on both libraries the choice was made on and on the mean
of the held-out ones in both Python and JavaScript/TypeScript; raw code and string literals in the text made
it worse. BM25 keeps what words alone miss: it indexes the whole source, names split by
`learnmem.search.keywords`.
"""

from __future__ import annotations

import re

from learnmem.code.model import Unit
from learnmem.code.names import IDENTIFIER
from learnmem.search.keywords import identifier_parts

# How many distinct names (beyond those called) a digest lists: the first 20 name what a body is about; 10 to 40
# ranked about as well on the tuning libraries, none (0.60/0.53 MRR@10) and 80 (0.60/0.53) worse than 20 (0.61/0.54).
USED_NAMES = 20
CALLED_NAMES = 12

_CALL = re.compile(rf"({IDENTIFIER.pattern})\s*\(")
# Words that are syntax in the indexed languages, not names a reader would search by.
_SYNTAX = frozenset(
    """if else elif for while do switch case return function func fn catch try finally typeof instanceof await new
    super def class with not and or in is lambda yield async const let var this self true false null none nil
    undefined void export import from default pass raise throw throws break continue static public private
    protected readonly type interface extends implements of as get set cls local end then package struct enum
    impl pub mut match go defer chan select range final abstract""".split()
)


def words(identifier_text: str) -> str:
    """The words of the identifiers in a text, lower case: "date_fns.differenceInHours" -> "date fns difference in hours"."""
    found: list[str] = []
    for token in IDENTIFIER.findall(identifier_text):
        token = token.strip("_$")
        if token:
            found.extend(part.lower() for part in identifier_parts(token) or [token])
    return " ".join(found)


def called_names(body: str, own_name: str) -> list[str]:
    """The names called in a body, first appearance first, at most CALLED_NAMES, the unit's own left out."""
    called: list[str] = []
    for match in _CALL.finditer(body):
        name = match.group(1)
        if name.lower() in _SYNTAX or name == own_name or name in called:
            continue
        called.append(name)
        if len(called) == CALLED_NAMES:
            break
    return called


def used_names(body: str, skip: list[str]) -> list[str]:
    """The other names a body uses, first appearance first, at most USED_NAMES (one-letter names left out)."""
    seen: dict[str, None] = {}
    skipped = set(skip)
    for name in IDENTIFIER.findall(body):
        if len(name) > 1 and name.lower() not in _SYNTAX and name not in skipped:
            seen.setdefault(name)
            if len(seen) == USED_NAMES:
                break
    return list(seen)


def embed_text(unit: Unit, module: str) -> str:
    """The digest a unit's vector is embedded from (see the module's docstring)."""
    name = unit.qualified_name or unit.name
    at = unit.content.find(unit.signature) if unit.signature else -1
    body = unit.content[at + len(unit.signature):] if at >= 0 else unit.content
    called = called_names(body, unit.name)
    used = used_names(body, [unit.name, *called])
    parts = [
        f"{unit.unit_type} {name} ({words(name)}) in {module} ({words(module)})",
        unit.signature,
        "calls " + ", ".join(words(n) for n in called) if called else "",
        "uses " + ", ".join(words(n) for n in used) if used else "",
        unit.docstring,
    ]
    return "\n".join(part for part in parts if part)


def keyword_text(unit: Unit) -> str:
    """What BM25 indexes: the names, the signature, the docstring and the whole body."""
    return "\n".join((unit.qualified_name or unit.name, unit.signature, unit.docstring, unit.content))
