"""The `learnmem` command: a thin argparse layer over the library, one module per command group.

`main` answers `learnmem hook [EVENT]` without building the parser of every command: the hooks run around
every tool call, and with the MCP server answering them (learnmem.agents.hook_socket) what the hook process
imports is most of its time.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # `typing` costs a hook process ~8 ms
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


class _WithoutPandas:
    """Makes `import pandas` fail in this short-lived process, as if pandas were not installed.

    DuckDB's Python client tries `import pandas` the first time a query binds a
    parameter (to recognise DataFrame values): ~430 ms, plus numpy, on every
    `learnmem` call that passes one (measured: a first bind costs 630 ms with
    pandas installed, 15-26 ms without). The CLI never hands DataFrames to
    DuckDB nor returns them. A finder (rather than `sys.modules["pandas"] = None`)
    keeps pyarrow's own optional-pandas checks working. A meta path finder needs
    only `find_spec`; subclassing importlib.abc.MetaPathFinder would import
    importlib.resources and friends (~10 ms) on every CLI call.
    """

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError(f"No module named {name!r} (the learnmem CLI does not load pandas)", name=name)
        return None


def _skip_pandas() -> None:
    if "pandas" not in sys.modules:  # a program that already uses pandas keeps it
        sys.meta_path.insert(0, _WithoutPandas())


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the `learnmem` command."""
    _skip_pandas()
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
