"""What a prompt refers to: earlier work ("why did we", "last time", "remind me") or code by name (paths,
snake_case, CamelCase, calls). The UserPromptSubmit hook (learnmem.agents.hooks) brings rich context only for
such prompts; any other prompt costs it no database and no model.

Standard library only: the hook process imports it before anything else.
"""

from __future__ import annotations

import re

from learnmem.text import LazyPattern

# Phrases that point at earlier work: the agent's memory is what can answer them.
EARLIER_WORK = LazyPattern(
    r"\b(?:"
    r"why (?:did|do|were|was|have|had) (?:we|you|i)\b|why (?:we|you) (?:chose|picked|went|used|decided)"
    r"|last (?:time|session|week|run|attempt)|previous(?:ly| session| attempt| approach)?"
    r"|earlier (?:today|session|attempt|approach|we|you)|before,? (?:we|you) (?:tried|had|used|decided)"
    r"|remind me|do you remember|(?:you|we) remember|remember (?:when|that|what|how|why)"
    r"|the plan\b|our plan|what was the (?:plan|idea|decision|reason|issue|problem|fix)"
    r"|we (?:decided|agreed|discussed|talked about|tried|chose|settled on|used to)"
    r"|(?:did|have) (?:we|you) (?:decide|agree|try|tried|discuss|see|seen|fix|fixed|change|changed)"
    r"|as (?:discussed|agreed|decided|planned|before)|(?:same|similar) (?:issue|error|bug|problem|failure) "
    r"(?:as|again|before)|happened (?:before|last time)|again\?|the (?:last|previous) (?:fix|change|attempt)"
    r"|what did we|where did we (?:leave|stop)|pick up where|continue (?:where|from)|history of"
    r")", re.IGNORECASE)
# Words in a prompt that look like code: a path or file name, snake_case, camelCase, PascalCase with two
# humps, a dotted name, a call, or anything in backticks. Only these are looked up in the index.
_BACKTICKED = LazyPattern(r"`([^`\n]{1,200})`")
_CODE_WORD = LazyPattern(
    r"(?<![\w/.:-])("
    r"(?:\.{0,2}/)?[\w.-]+(?:/[\w.-]+)+"  # a path: a/b, ./a/b.py
    r"|[\w-]+\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|scala|sql|sh|md|rst"
    r"|toml|ya?ml|json|ini|cfg|lua|ex|exs|dart|vue|svelte)"  # a file name
    r"|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?"  # dotted: Config.load, os.path.join
    r"|[A-Za-z]\w*_\w*[A-Za-z0-9](?:\(\))?"  # snake_case
    r"|[a-z]+[A-Z]\w*(?:\(\))?"  # camelCase
    r"|[A-Z][a-z0-9]+[A-Z]\w*(?:\(\))?"  # PascalCase, two humps or more
    r"|[A-Za-z_]\w*\(\)"  # a call: load()
    r")")
_NOT_CODE = LazyPattern(r"^(?:https?|ftp|file)$|^(?:e\.g|i\.e|etc|vs|a\.k\.a)$", re.IGNORECASE)
MAX_NAMES = 20


def refers_to_earlier_work(prompt: str) -> bool:
    """Whether the prompt asks about earlier work: "why did we", "last time", "remind me", "the plan"..."""
    return EARLIER_WORK.search(prompt) is not None


def code_name_candidates(prompt: str) -> list[str]:
    """The words of `prompt` that look like code names or paths (at most MAX_NAMES, first seen first)."""
    found: list[str] = []
    pieces = [match.group(1) for match in _BACKTICKED.finditer(prompt)]
    pieces += [match.group(1) for match in _CODE_WORD.finditer(_BACKTICKED.sub(" ", prompt))]
    for piece in pieces:
        name = piece.strip().strip(".,;:!?'\"()[]{}<>")
        name = re.sub(r"\(\)$", "", name)
        name = re.sub(r":\d+(?:[-:]\d+)?$", "", name)  # store.py:120
        name = re.sub(r"^\./", "", name)
        if not name or "://" in piece or _NOT_CODE.match(name) or not re.search(r"[A-Za-z]", name):
            continue
        if " " in name:  # a backticked snippet: its code-looking words
            found += [word for word in code_name_candidates(name) if word not in found]
            continue
        if name not in found:
            found.append(name)
    return found[:MAX_NAMES]


def known_code_names(store, names: list[str]) -> list[tuple[str, str]]:
    """(name, where) for each of `names` that the code index holds as a unit or a file."""
    from learnmem.storage import sql

    with store.read() as con:
        return con.execute(sql.query("known_code_names"), {"names": names}).fetchall()
