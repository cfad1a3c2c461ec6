"""The numbers the README and the benchmarks page show come from the benchmark reports (issue 25, item 3): every
figure in README.md's Numbers table and in docs/benchmarks.md's tables is found, at the precision shown, in
bench/RESULTS.md or a bench/*/RESULTS.md. A figure typed by hand, or left behind when a benchmark is run again,
fails here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")


def numbers(text: str) -> list[str]:
    return NUMBER.findall(text)


def value(figure: str) -> float:
    return float(figure.replace(",", ""))


def headline_figures() -> list[tuple[str, str]]:
    """(measure, figure) for every number in the result column of README.md's Numbers table."""
    section = ROOT.joinpath("README.md").read_text(encoding="utf-8").split("\n## Numbers", 1)[1].split("\n## ")[0]
    rows = [line.strip("|").split("|") for line in section.splitlines() if line.startswith("|")]
    return [(measure.strip(), figure) for measure, result in rows[2:] for figure in numbers(result)]


def page_figures() -> list[tuple[str, str]]:
    """(row, figure) for every number in docs/benchmarks.md's tables, first column aside."""
    figures = []
    for line in ROOT.joinpath("docs", "benchmarks.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("|") and not set(line) <= set("|-: "):
            cells = line.strip("|").split("|")
            figures += [(cells[0].strip(), figure) for cell in cells[1:] for figure in numbers(cell)]
    return figures


def reported() -> list[float]:
    reports = [ROOT / "bench" / "RESULTS.md", *sorted(ROOT.glob("bench/*/RESULTS.md"))]
    return [value(figure) for report in reports for figure in numbers(report.read_text(encoding="utf-8"))]


def test_every_headline_figure_is_in_a_benchmark_report():
    known = reported()
    figures = headline_figures() + page_figures()
    assert len(headline_figures()) >= 10 and len(page_figures()) >= 100  # the tables were found and read
    missing = []
    for measure, figure in figures:
        places = len(figure.split(".")[1]) if "." in figure else 0
        if not any(round(candidate, places) == value(figure) for candidate in known):
            missing.append(f"{figure} ({measure})")
    assert not missing, f"README.md or docs/benchmarks.md shows figures no bench report holds: {missing}"

