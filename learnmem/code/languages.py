"""Which files are indexed, in which tree-sitter language, and under which module path.

Pure functions of a path or a few bytes; no I/O.
"""

from __future__ import annotations

import posixpath

# File extension -> language name as `tree_sitter_language_pack.get_parser` knows it.
LANGUAGES: dict[str, str] = {
    ".py": "python",
    ".ts": "typescript",
    ".tsx": "tsx",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",  # the javascript grammar parses JSX
    ".lua": "lua",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
}

# JavaScript and its dialects: module paths are dotted import paths from the project root, and calls resolve
# through ES module and CommonJS imports and exports (learnmem.code.jsresolve).
SCRIPT_LANGUAGES = frozenset({"typescript", "tsx", "javascript"})

# How many leading bytes `is_probably_binary` looks at.
BINARY_SNIFF_BYTES = 8192


def _extension(path: str) -> str:
    base = posixpath.basename(path.replace("\\", "/"))
    dot = base.rfind(".")
    return base[dot:].lower() if dot > 0 else ""


def language_of(path: str) -> str | None:
    """The language of `path` by its extension ("src/a.ts" -> "typescript"); None = not indexed."""
    return LANGUAGES.get(_extension(path))


def module_path(relative_path: str, language: str) -> str:
    """The dotted module path of a file relative to the project root.

    Python: "pkg/sub/mod.py" -> "pkg.sub.mod"; "pkg/__init__.py" -> "pkg" (a root
    "__init__.py" -> "").
    JS/TS: the extension is stripped ("src/app/index.ts" -> "src.app.index";
    "types.d.ts" -> "types"). A trailing "index" is kept: the module path names
    the file, not the directory an import of "src/app" would resolve to.
    Other languages: the path without its extension, "/" -> ".".
    """
    path = relative_path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    path = path.strip("/")
    ext = _extension(path)
    stem = path[: -len(ext)] if ext else path
    if language in SCRIPT_LANGUAGES and stem.endswith(".d") and ext in (".ts", ".tsx"):
        stem = stem[:-2]
    parts = [p for p in stem.split("/") if p]
    if language == "python" and parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_probably_binary(data: bytes) -> bool:
    """True when a NUL byte occurs in the first 8 KiB (what git and grep use to call a file binary)."""
    return b"\x00" in data[:BINARY_SNIFF_BYTES]
