"""What every `learnmem` command shares: opening the library, printing results as text or `--json`, and the
one-line error a user's mistake becomes. Standard library only at import time (hooks run the CLI often)."""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Sequence
from typing import Any

# Widest a cell may be in the human `sql` table: long text and vectors are cut.
MAX_CELL = 60


class UserError(Exception):
    """A mistake in the user's input found by something other than the library (exit status 2)."""


def emit_json(value: Any) -> None:
    """Print a value as JSON; values JSON lacks (datetimes, decimals, UUIDs) become strings."""
    print(json.dumps(value, ensure_ascii=False, indent=2, default=str))


def as_json(result: Any) -> Any:
    """A library result as JSON data: a dataclass, or a list of them as {"results", "count"}."""
    if isinstance(result, list):
        items = [dataclasses.asdict(item) for item in result]
        return {"results": items, "count": len(items)}
    return dataclasses.asdict(result)


def one_line(text: str, width: int | None = None) -> str:
    """Collapse whitespace so a memory fits on one line; cut it to `width` with an ellipsis."""
    flat = " ".join(str(text).split())
    if width is not None and len(flat) > width:
        return flat[: width - 1] + "…"
    return flat


def format_memory(memory: Any, score: float | None = None) -> str:
    """One memory as a line: [score] id  category  importance  content  #tags."""
    parts = []
    if score is not None:
        parts.append(f"{score:.3f}")
    parts += [memory.id, f"{memory.category:<11}", f"{memory.importance:.2f}"]
    if getattr(memory, "said_at", None):  # a turn of a conversation
        parts.append(f"said {memory.said_at} in {memory.session}")
    parts.append(one_line(memory.content))
    if memory.tags:
        parts.append(" ".join(f"#{tag}" for tag in memory.tags))
    return "  ".join(parts)


def cell(value: Any) -> str:
    """A SQL value as table text: NULL shown, floats short, long values cut."""
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return f"{value:.6g}"
    return one_line(str(value), MAX_CELL)


def format_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Rows as an aligned text table: header, rule, rows, then a row count."""
    cells = [[cell(value) for value in row] for row in rows]
    widths = [len(name) for name in columns]
    for row in cells:
        widths = [max(width, len(text)) for width, text in zip(widths, row, strict=True)]
    lines = [
        "  ".join(name.ljust(width) for name, width in zip(columns, widths, strict=True)).rstrip(),
        "  ".join("-" * width for width in widths),
    ]
    # Right-align numbers so digits line up.
    numeric = [
        all(isinstance(row[i], int | float) and not isinstance(row[i], bool) for row in rows if row[i] is not None)
        for i in range(len(columns))
    ]
    for row in cells:
        lines.append(
            "  ".join(
                text.rjust(width) if is_num else text.ljust(width)
                for text, width, is_num in zip(row, widths, numeric, strict=True)
            ).rstrip()
        )
    lines.append(f"({len(rows)} row{'' if len(rows) == 1 else 's'})")
    return "\n".join(lines)


def human_bytes(size: int) -> str:
    """1536 -> '1.5 KiB'."""
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{int(value)} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def open_learnmem(args: argparse.Namespace, *, read_only: bool = False) -> Any:
    """Open the library on --db (or its default file). Imported here to keep startup light.

    Commands that only read open read-only: they then run beside a notebook or
    the DuckDB CLI holding the file, and never create a `.learnmem/` where none was.
    """
    import learnmem

    return learnmem.open(args.db, read_only=read_only)
