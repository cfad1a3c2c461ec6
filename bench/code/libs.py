"""Real third-party code for the benchmarks: pip-installed libraries, copied (optionally docstring-free) to a temp dir.

Only the `.py` files of a package are copied, into `<dest>/<package>/...`, so
the modules learnmem derives from the paths are the real import paths
(`hypothesis.strategies._internal.core`).
"""

from __future__ import annotations

import ast
import random
import re
import sysconfig
from dataclasses import dataclass
from pathlib import Path

SITE_PACKAGES = Path(sysconfig.get_paths()["purelib"])
MIN_QUERY_WORDS = 4


def package_files(package: str) -> list[Path]:
    """The package's .py files (sorted), outside __pycache__."""
    root = SITE_PACKAGES / package
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def loc(files: list[Path]) -> int:
    """Physical lines of the files."""
    return sum(p.read_bytes().count(b"\n") for p in files)


def copy_package(package: str, dest: Path, files: list[Path] | None = None, strip: bool = False) -> list[str]:
    """Copy the package's .py files (or the given subset) under `dest`; returns the relative paths written."""
    written = []
    for path in files if files is not None else package_files(package):
        relative = path.relative_to(SITE_PACKAGES)
        data = path.read_bytes()
        if strip:
            data = strip_docstrings(data)
        target = dest / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written.append(relative.as_posix())
    return written


def strip_docstrings(source: bytes) -> bytes:
    """The source with every module, class and function docstring replaced by `pass`, line numbers preserved.

    Docstrings are found with `ast` (first statement of a body that is a string
    constant); each is replaced by `pass` followed by the newlines it spanned,
    so every other line keeps its number. Raises SyntaxError if `ast` cannot parse.
    """
    tree = ast.parse(source)
    line_starts = [0]
    for line in source.splitlines(keepends=True):
        line_starts.append(line_starts[-1] + len(line))
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                start = line_starts[first.lineno - 1] + first.col_offset  # ast offsets are UTF-8 byte offsets
                end = line_starts[first.end_lineno - 1] + first.end_col_offset
                spans.append((start, end, first.end_lineno - first.lineno))
    out = source
    for start, end, newlines in sorted(spans, reverse=True):
        out = out[:start] + b"pass" + b"\n" * newlines + out[end:]
    return out


_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def first_sentence(docstring: str) -> str:
    """The first sentence of a docstring's first paragraph, on one line."""
    paragraph = re.split(r"\n\s*\n", docstring.strip(), maxsplit=1)[0]
    paragraph = " ".join(paragraph.split())
    return _SENTENCE_END.split(paragraph, maxsplit=1)[0].strip()


@dataclass(frozen=True)
class Query:
    text: str
    module: str
    qualified_name: str


@dataclass
class Sample:
    """One library prepared for the quality benchmark."""

    package: str
    files: list[Path]
    units: int
    queries: list[Query]
    skipped_files: int


def sample_library(package: str, max_units: int, max_queries: int, seed: int = 7) -> Sample:
    """Pick files at random (seeded) until about `max_units` units; queries from their function/method docstrings.

    Units and docstrings come from learnmem's own parser run on the original
    files, so the answer (module, qualified_name) is named exactly as the index
    of the stripped copy names it. Files `ast` cannot parse are skipped (they
    could not be stripped). A query text shared by several functions is dropped
    (no single right answer); a function counts as found under any unit of that name.
    """
    from learnmem.code.parse import parse_source

    files = package_files(package)
    random.Random(seed).shuffle(files)
    chosen, units, skipped = [], 0, 0
    candidates: list[Query] = []
    for path in files:
        data = path.read_bytes()
        try:
            ast.parse(data)
        except (SyntaxError, ValueError):
            skipped += 1
            continue
        parsed = parse_source(path.relative_to(SITE_PACKAGES).as_posix(), data, "python")
        if units + len(parsed.units) > max_units:
            continue
        chosen.append(path)
        units += len(parsed.units)
        for unit in parsed.units:
            if unit.unit_type in ("function", "method") and unit.docstring:
                text = first_sentence(unit.docstring)
                if len(text.split()) >= MIN_QUERY_WORDS:
                    candidates.append(Query(text, parsed.module, unit.qualified_name))
    by_text: dict[str, set] = {}
    for q in candidates:
        by_text.setdefault(q.text, set()).add((q.module, q.qualified_name))
    unique = [q for q in candidates if len(by_text[q.text]) == 1]
    unique = list({q.text: q for q in unique}.values())
    random.Random(seed).shuffle(unique)
    return Sample(package, sorted(chosen), units, unique[:max_queries], skipped)
