"""Small source trees for the call-graph tests: resolved as parsed, or written out and indexed."""

from __future__ import annotations

import textwrap

import learnmem
from learnmem.code.indexer import _parse
from learnmem.code.resolve import resolve_calls
from learnmem.embedding.embed import HashingEmbedder


def edges(files: dict[str, str]) -> dict[tuple[str, str, int], tuple[str | None, str | None]]:
    """(file, callee as written, line) -> (callee module, callee qualified name) over a project of sources."""
    parsed = [_parse(path, textwrap.dedent(code).lstrip("\n").encode()) for path, code in files.items()]
    return {(e.file_path, e.callee_name, e.line): (e.callee_module, e.callee_qualified_name)
            for e in resolve_calls(parsed)}


def indexed(tmp_path, files: dict[str, str], project: str):
    """A database with the sources written out as a tree and indexed as `project` (open: the caller closes it)."""
    for relative, text in files.items():
        path = tmp_path / "tree" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    lm = learnmem.open(tmp_path / "a.duckdb", embedder=HashingEmbedder())
    lm.index_codebase(tmp_path / "tree", project=project, progress=False)
    return lm
