"""Calls of Go, Rust, Java, Lua and JavaScript/TypeScript resolved by the names their file (or package) defines.

Python has its own resolver (learnmem.code.resolve with the flow analysis), and JavaScript and TypeScript add
imports and exports (learnmem.code.jsresolve) to what is found here. The other languages' imports are not read,
so a call resolves only to a definition the caller can see without one:

- Go: the package, that is every Go file of the caller's folder. Java: the caller's file and the other Java files
  of its folder (its package, by the language's convention). Rust and Lua: the file.
- A call on the method's own object (`this.m()`, `self.m()`, `self:m()`, Rust `Self::m()`, Go's receiver by
  whatever name the method gives it: `func (g *Group) handle()` calling `g.combine()`) reaches the method of the
  caller's class or type.
- A Java method called without an object reaches the method of that name of the innermost enclosing class that
  has one; elsewhere a name reaches a top-level definition. `new Foo()` reaches Foo's constructor (`Foo.Foo` in
  Java, `Foo.constructor` in JavaScript), else the class.
- A qualified name as written (`Util.helper()`, Rust `Point::new()`, Lua `M.util()` and `M:scale()`) reaches the
  unit of that qualified name, in Go, Rust, Java and Lua.

A name defined twice in what the caller sees (Go files for different build tags, overloads in different files)
stays unresolved, like everything else nothing defines there.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import PurePosixPath

from learnmem.code.model import ParsedFile

_SCRIPTS = ("javascript", "typescript", "tsx")
# Languages whose package is the folder: every file of it sees the others' definitions without an import.
_FOLDER_PACKAGES = ("go", "java")
_SELF_RECEIVERS = ("this.", "self.", "self:", "this->", "Self.")
# Go: `func (g *Group[T]) handle(...)` -> "g"
_GO_RECEIVER = re.compile(r"func\s*\(\s*([A-Za-z_]\w*)\s")
_UNIT_TYPES = ("function", "method", "class")


class Names:
    """What each file can call without an import: (module, qualified name) by qualified name, unique ones only."""

    def __init__(self, files: list[ParsedFile]) -> None:
        groups: dict[tuple, list[ParsedFile]] = defaultdict(list)
        for parsed in files:
            groups[_scope_of(parsed)].append(parsed)
        self.visible: dict[str, dict[str, tuple[str, str]]] = {}
        self.receivers: dict[str, dict[str, str]] = {}
        for group in groups.values():
            defined: dict[str, list[tuple[str, str]]] = defaultdict(list)
            for parsed in group:
                for unit in parsed.units:
                    if unit.unit_type in _UNIT_TYPES and unit.qualified_name:
                        defined[unit.qualified_name].append((parsed.module, unit.qualified_name))
            unique = {name: places[0] for name, places in defined.items() if len(places) == 1}
            for parsed in group:
                self.visible[parsed.path] = unique
                if parsed.language == "go":
                    self.receivers[parsed.path] = {
                        unit.qualified_name: match.group(1)
                        for unit in parsed.units if unit.unit_type == "method"
                        for match in [_GO_RECEIVER.match(unit.signature)] if match
                    }

    def resolve(self, parsed: ParsedFile, caller: str, callee: str) -> tuple[str, str] | None:
        """(module, qualified name) of the unit a call reaches by the rules of the module docstring, or None."""
        unique = self.visible.get(parsed.path, {})
        language = parsed.language
        owner = caller.rsplit(".", 1)[0] if "." in caller else ""
        receiver = self.receivers.get(parsed.path, {}).get(caller)
        prefixes = _SELF_RECEIVERS + ((f"{receiver}.",) if receiver else ())
        callee_dotted = callee.replace("::", ".").replace(":", ".")  # Rust paths, Lua's `obj:method()`
        for prefix in prefixes:
            if callee_dotted.startswith(prefix) and owner:
                return unique.get(f"{owner}.{callee_dotted[len(prefix):]}")
        if "." in callee_dotted:
            return None if language in _SCRIPTS else unique.get(callee_dotted)
        if language == "java":  # a method of the caller's class, or of a class it is inside; a nested class
            scope = owner
            while scope:
                found = unique.get(f"{scope}.{callee}.{callee}") or unique.get(f"{scope}.{callee}")
                if found:
                    return found
                scope = scope.rpartition(".")[0]
        found = unique.get(callee)
        if found is None:
            return None
        constructor = unique.get(f"{callee}.{'constructor' if language in _SCRIPTS else callee}")
        return constructor or found


def _scope_of(parsed: ParsedFile) -> tuple:
    """The files whose definitions a file sees: its folder's files of its language (Go, Java), else itself."""
    if parsed.language in _FOLDER_PACKAGES:
        return parsed.language, str(PurePosixPath(parsed.path).parent)
    return "file", parsed.path
