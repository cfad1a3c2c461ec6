"""The `learnmem` command: a thin argparse layer over the library, one module per command group.

`main` answers `learnmem hook [EVENT]` without building the parser of every command: the hooks run around
every tool call, and with the MCP server answering them (learnmem.agents.hook_socket) what the hook process
imports is most of its time.
"""

from __future__ import annotations

import sys

from learnmem.without_pandas import skip_pandas

TYPE_CHECKING = False  # `typing` costs a hook process ~8 ms
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the `learnmem` command."""
    skip_pandas("the learnmem CLI")
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["hook"] and len(words) <= 2 and not any(word.startswith("-") for word in words):
        from types import SimpleNamespace

        from learnmem.cli import hooks

        hooks.run(SimpleNamespace(event=words[1] if len(words) == 2 else None, db=None))
        return
    from learnmem.cli.app import main as full_main

    full_main(argv)


def __getattr__(name: str) -> Any:
    if name == "build_parser":
        from learnmem.cli.app import build_parser

        return build_parser
    raise AttributeError(f"module 'learnmem.cli' has no attribute {name!r}")


__all__ = ["build_parser", "main"]
