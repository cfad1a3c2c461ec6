"""cProfile results as markdown tables, shared by the area benchmarks (bench.git, bench.ghap)."""

from __future__ import annotations


def profile_markdown(prof: dict, top_own: int) -> list[str]:
    """Two tables of one profile: its rows by cumulative time, then the `top_own` by own time."""
    lines = ["| cumulative s | own s | calls | function |", "|---|---|---|---|"]
    for row in prof["cumulative"]:
        lines.append(f"| {row['cumtime']:.3f} | {row['tottime']:.3f} | {row['calls']:,} | `{row['function']}` |")
    lines += ["", "| own s | cumulative s | calls | function (by own time) |", "|---|---|---|---|"]
    for row in prof["tottime"][:top_own]:
        lines.append(f"| {row['tottime']:.3f} | {row['cumtime']:.3f} | {row['calls']:,} | `{row['function']}` |")
    lines.append("")
    return lines
