"""Keep pandas out of a learnmem process that never uses it: the `learnmem` command and the MCP server.

DuckDB's Python client tries `import pandas` the first time a query binds a parameter (to recognise DataFrame
values): ~430-570 ms, plus numpy, on every `learnmem` call that passes one (a first bind measured 630-710 ms
with pandas installed, 15-26 ms without), and in the MCP server's boot, before its first tool call can run.
Neither program hands DataFrames to DuckDB nor returns them. A finder (rather than `sys.modules["pandas"] =
None`) keeps pyarrow's own optional-pandas checks working. A meta path finder needs only `find_spec`;
subclassing importlib.abc.MetaPathFinder would import importlib.resources and friends (~10 ms) on every CLI
call, and `typing` (~8 ms) is left out for the same reason.
"""

from __future__ import annotations

import sys


class _WithoutPandas:
    """Makes `import pandas` fail, as if pandas were not installed."""

    def __init__(self, program: str) -> None:
        self.program = program

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError(f"No module named {name!r} ({self.program} does not load pandas)", name=name)
        return None


def skip_pandas(program: str) -> None:
    """From now on this process imports no pandas (`program` names who decided, in the error); a program that
    has already imported pandas keeps it."""
    if "pandas" not in sys.modules and not any(isinstance(finder, _WithoutPandas) for finder in sys.meta_path):
        sys.meta_path.insert(0, _WithoutPandas(program))
