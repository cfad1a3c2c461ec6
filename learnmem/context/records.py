"""The frozen dataclasses context assembly returns: what reaches the agent, and why it fit the budget."""

from __future__ import annotations

from dataclasses import dataclass

from learnmem.learning.ghap_records import Experience
from learnmem.learning.records import Value


@dataclass(frozen=True)
class ContextItem:
    """One piece of context: `kind` is value, experience, memory, pattern, commit, hotspot or code;
    `id` lets the agent drill down (get_memory, search_experiences, get_file_history, ...);
    `text` is its markdown line; `tokens` what it cost in the budget (the embedder's tokenizer)."""

    kind: str
    id: str
    text: str
    score: float
    tokens: int


@dataclass(frozen=True)
class Context:
    """get_context: compact markdown for the agent, the items in it (in order), and what the budget cut."""

    depth: str
    situation: str | None
    markdown: str
    tokens: int
    max_tokens: int
    items: tuple[ContextItem, ...]
    omitted: int  # items found but left out to fit max_tokens


@dataclass(frozen=True)
class PatternCount:
    """A recurring surprise or root cause among past failures: its text, how often, and an example entry."""

    text: str
    count: int
    example_ghap_id: str


@dataclass(frozen=True)
class Premortem:
    """get_premortem: how past work of this domain and strategy went, before trying it again."""

    domain: str
    strategy: str
    situation: str | None
    total: int  # resolved entries with this domain and strategy
    confirmed: int
    falsified: int
    abandoned: int
    failures: tuple[Experience, ...]  # falsified (then abandoned) ones, most relevant first
    surprises: tuple[PatternCount, ...]
    root_causes: tuple[PatternCount, ...]  # by category, most frequent first
    values: tuple[Value, ...]
    markdown: str
