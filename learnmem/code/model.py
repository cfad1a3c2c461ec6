"""What parsing a source file yields: units, call sites, imports. Plain values, no I/O.

`parse.py` fills these from tree-sitter trees; `pycalls.py` adds Python's
imports, class bases and call sites; `resolve.py` turns call sites into edges
between units; the indexer stores them (tables `code_files`, `code_units`,
`calls`).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Unit:
    """A named piece of code: a function, method, class, a module (one per file) or a config key."""

    name: str  # "load"; for the module unit: the module's last part ("config"), or the file name
    qualified_name: str  # dotted path inside the file: "Config.load", "outer.inner"; "" for the module unit
    unit_type: str  # "module" | "class" | "function" | "method" | "key"
    signature: str  # "def load(self, path: str) -> Config" (first line(s) up to the body); "" when none
    docstring: str  # "" when none
    content: str  # the unit's full source text
    start_line: int  # 1-based, inclusive
    end_line: int  # 1-based, inclusive
    complexity: int  # cyclomatic complexity: 1 + decision points (if/elif/for/while/except/case/and/or/?:...)
    bases: tuple[str, ...] = ()  # for classes: base class expressions as written ("Base", "pkg.Base")


@dataclass(frozen=True)
class Import:
    """One name bound by an import statement (Python): `local` refers to `module` or `module.name`."""

    local: str  # the name bound in the importing scope: "c" for `import a.b as c`, "a" for `import a.b`
    module: str  # absolute dotted module after resolving relative dots: "pkg.sub.x"
    name: str  # the imported attribute for `from m import name` ("" for `import m`)
    line: int


@dataclass(frozen=True)
class CallSite:
    """A call expression as written, inside its innermost enclosing unit."""

    caller: str  # qualified_name of the enclosing unit ("" = module top level)
    callee: str  # the called expression's text, normalised: "load", "self.load", "a.b.load", "super().load", "Config"
    name: str  # the last identifier of `callee`: "load"
    line: int  # 1-based
    # For `x = Foo(...)` assignments seen earlier in the same scope: local variable -> constructor expression,
    # so that `x.m()` can resolve to Foo.m. Filled by language analysers that track it (Python).
    receiver_type: str = ""


@dataclass
class ParsedFile:
    """Everything learned from one file."""

    path: str  # relative to the indexed root, POSIX separators
    language: str  # "python", "typescript", "tsx", "javascript", "lua", "yaml", "json", "go", "rust", "java", ...
    module: str  # dotted module path for Python/JS/TS ("pkg.sub.mod", "pkg" for pkg/__init__.py); path-derived otherwise
    units: list[Unit] = field(default_factory=list)
    calls: list[CallSite] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    syntax_errors: int = 0  # ERROR / MISSING nodes tree-sitter recovered from
    # Python: where values flow (learnmem.code.pyfacts); JavaScript/TypeScript: module facts (jsmodules); Go and
    # Java: the declared types of names (typedvars)
    flow: dict | None = None
