"""Small text helpers, standard library only (the hook paths import them): a regular expression compiled on
first use, and a text cut to one line."""

from __future__ import annotations

import re
from typing import Any


class LazyPattern:
    """A regular expression compiled on first use: the prompt and test-run patterns cost ~20 ms to compile,
    which the PreToolUse path (run before every tool call) never needs."""

    __slots__ = ("_args", "_compiled")

    def __init__(self, pattern: str, flags: int = 0):
        self._args = (pattern, flags)
        self._compiled: re.Pattern | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = re.compile(*self._args)
        return getattr(self._compiled, name)


def clip(text: Any, limit: int) -> str:
    """`text` on one line (whitespace runs become one space) of at most `limit` characters; an ellipsis
    marks a cut. None is the empty string."""
    flat = " ".join(str(text if text is not None else "").split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
