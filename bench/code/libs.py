"""Real third-party code for the benchmarks, copied (optionally without its docs) to a temp dir.

Python libraries are the pip-installed packages: only their `.py` files are
copied, into `<dest>/<package>/...`, so the modules learnmem derives from the
paths are the real import paths (`hypothesis.strategies._internal.core`).
JavaScript and TypeScript libraries are npm packages pinned in
bench/code/npm/package.json (`make bench-libs` installs them): the source
folder `NPM_LIBRARIES` names is copied into `<dest>/<package>/...`.
"""

from __future__ import annotations

import ast
import random
import re
import sysconfig
from dataclasses import dataclass
from pathlib import Path

SITE_PACKAGES = Path(sysconfig.get_paths()["purelib"])
NPM_ROOT = Path(__file__).resolve().parent / "npm" / "node_modules"
MIN_QUERY_WORDS = 4

# npm package -> (its source folder, "" = the package's top level only; the extension of its source files)
NPM_LIBRARIES: dict[str, tuple[str, str]] = {
    "mongoose": ("lib", ".js"),
    "lodash": ("", ".js"),
    "axios": ("lib", ".js"),
    "date-fns": ("", ".js"),
    "rxjs": ("src", ".ts"),
    "effect": ("src", ".ts"),
    "luxon": ("src", ".js"),
    "ramda": ("src", ".js"),
    "@tanstack/query-core": ("src", ".ts"),
    "zod": ("src", ".ts"),
    "commander": ("lib", ".js"),
    "yjs": ("src", ".js"),
    "three": ("src", ".js"),
    "@reduxjs/toolkit": ("src", ".ts"),
    "ws": ("lib", ".js"),
    "express": ("lib", ".js"),
    "koa": ("lib", ".js"),
}


def package_files(package: str) -> list[Path]:
    """The package's source files (sorted): .py outside __pycache__, or an npm library's sources (no tests, no .d.ts)."""
    if package in NPM_LIBRARIES:
        folder, ext = NPM_LIBRARIES[package]
        root = NPM_ROOT / package / folder
        if not root.is_dir():
            raise FileNotFoundError(f"{root} is missing: run `make bench-libs` to install the npm libraries")
        found = root.glob(f"*{ext}") if not folder else root.rglob(f"*{ext}")
        return sorted(p for p in found if not _test_or_declaration(p.relative_to(root)) and not _bundle(p))
    root = SITE_PACKAGES / package
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def _bundle(path: Path) -> bool:
    """A file built from the library's other files, which has a source map beside it (date-fns's cdn.js copies
    every function of the package): not the library's source, and not in its repository."""
    return path.with_name(path.name + ".map").exists()


def package_base(package: str) -> Path:
    """The folder the package's files are copied relative to (so its modules keep their import paths)."""
    return NPM_ROOT if package in NPM_LIBRARIES else SITE_PACKAGES


def _test_or_declaration(relative: Path) -> bool:
    name = relative.name
    return (name.endswith((".d.ts", ".test.ts", ".spec.ts", ".test.js", ".spec.js"))
            or any(part in ("test", "tests", "__tests__") for part in relative.parts))


def loc(files: list[Path]) -> int:
    """Physical lines of the files."""
    return sum(p.read_bytes().count(b"\n") for p in files)


def copy_package(package: str, dest: Path, files: list[Path] | None = None, strip: bool = False) -> list[str]:
    """Copy the package's source files (or the given subset) under `dest`; returns the relative paths written."""
    written = []
    base = package_base(package)
    for path in files if files is not None else package_files(package):
        relative = path.relative_to(base)
        data = path.read_bytes()
        if strip:
            data = strip_docs(data, relative.as_posix())
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


def strip_docs(source: bytes, path: str) -> bytes:
    """The source with its docstrings (Python) and every comment removed, line numbers preserved.

    Comments are tree-sitter's comment nodes of the file's language, each
    replaced by spaces (its newlines kept); Python docstrings as in
    `strip_docstrings`. What is left is the code a reader sees with no prose.
    """
    from tree_sitter_language_pack import get_parser

    from learnmem.code.langspec import SPECS
    from learnmem.code.languages import language_of

    language = language_of(path)
    if language == "python":
        source = strip_docstrings(source)
    comment_types = SPECS[language].comments
    tree = get_parser(language).parse(source)
    spans, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type in comment_types:
            spans.append((node.start_byte, node.end_byte))
        else:
            stack.extend(node.children)
    out = bytearray(source)
    for start, end in spans:
        out[start:end] = bytes(b if b == 0x0A else 0x20 for b in source[start:end])
    return bytes(out)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


_JSDOC_LINK = re.compile(r"\{@link(?:code|plain)?\s+([^}|\s]+)[^}]*\}")
_JSDOC_TAG = re.compile(r"^@(\w+)\s*(.*)$")


def first_sentence(docstring: str) -> str:
    """The first sentence of a docstring's first paragraph, on one line.

    JSDoc: `{@link x}` reads as `x`; block tags (`@param`...) end the prose,
    and a doc that is all tags uses its `@summary` or `@description` text.
    """
    docstring = _JSDOC_LINK.sub(r"\1", docstring)
    prose, tagged = [], {}
    current = None
    for line in docstring.strip().splitlines():
        tag = _JSDOC_TAG.match(line.strip())
        if tag:
            current = tag.group(1)
            tagged.setdefault(current, []).append(tag.group(2))
        elif current is None:
            prose.append(line)
        else:
            tagged[current].append(line)
    text = "\n".join(prose).strip() or "\n".join(tagged.get("summary") or tagged.get("description") or []).strip()
    paragraph = re.split(r"\n\s*\n", text, maxsplit=1)[0]
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
    from learnmem.code.languages import language_of
    from learnmem.code.parse import parse_source

    files = package_files(package)
    base = package_base(package)
    random.Random(seed).shuffle(files)
    chosen, units, skipped = [], 0, 0
    candidates: list[Query] = []
    for path in files:
        data = path.read_bytes()
        relative = path.relative_to(base).as_posix()
        language = language_of(relative)
        if language == "python":
            try:
                ast.parse(data)
            except (SyntaxError, ValueError):
                skipped += 1
                continue
        parsed = parse_source(relative, data, language)
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
