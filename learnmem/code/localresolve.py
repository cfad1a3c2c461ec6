"""Calls of Go, Rust, Java, Lua and JavaScript/TypeScript resolved by the names their file, package or imports give.

Python has its own resolver (learnmem.code.resolve with the flow analysis), and JavaScript and TypeScript add
imports and exports (learnmem.code.jsresolve) to what is found here. For the others:

- What the caller sees without an import: in Go the package, that is every Go file of the caller's folder; in
  Java the caller's file and the other Java files of its folder (its package, by the language's convention);
  in Rust and Lua the file.
- A call on the method's own object (`this.m()`, `self.m()`, `self:m()`, Rust `Self::m()`, Go's receiver by
  whatever name the method gives it: `func (g *Group) handle()` calling `g.combine()`) reaches the method of the
  caller's class or type.
- A Java method called without an object reaches the method of that name of the innermost enclosing class that
  has one; elsewhere a name reaches a top-level definition. `new Foo()` reaches Foo's constructor (`Foo.Foo` in
  Java, `Foo.constructor` in JavaScript), else the class.
- A qualified name as written (`Util.helper()`, Rust `Point::new()`, Lua `M.util()` and `M:scale()`) reaches the
  unit of that qualified name, in Go, Rust, Java and Lua.
- Imports (learnmem.code.pkgimports) of the project's own code: Go `binding.Default()` after `import
  "<module>/binding"` reaches the package in folder `binding/`, the module's path being what the project's imports
  of its own folders share (as go.mod would say); Java `C.m()`, `new C()` after `import a.b.C;` and `m()` after
  `import static a.b.C.m;` reach the class in the one file whose path ends `a/b/C.java` (so does a class of the
  package the file declares that its folder does not hold: a test under `src/test/java/a/b/`); Lua `util.f()` after
  `local util = require("a.util")` reaches `T.f` in the one file whose path ends `a/util.lua` (or
  `a/util/init.lua`), T being the one table there that defines `f`.
- Rust paths and `use` (`crate::`, `super::`, aliases, re-exports, the crate's own name in its tests) are followed
  through the crates and modules of the project by learnmem.code.rustmodules.
- Go and Java: a call on a name or field whose type is written out (learnmem.code.typedvars: `c *Context`,
  `Gson gson = ...`, a struct's or class's fields) reaches that type's method, found as above (`c.Next()` ->
  `Context.Next`; `c.engine.handle()` through the receiver's field; `out.flush()` with `Out` imported); in Go also
  the type a function's signature returns for `x := NewFoo()` and the element type for `for _, v := range x`. A
  declared name's type is final: when its method is not found (a library type), the call stays unresolved; a name
  declared twice in a unit is followed where the types that can be told agree. A method a type does not define is
  looked for in its supertypes (Java `extends` and `implements`) or embedded structs (Go), as
  learnmem.code.typedvars recorded them.

A name defined twice in what the caller sees (Go files for different build tags, overloads in different files)
stays unresolved, like everything else nothing defines there (other modules' code, the standard library).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import PurePosixPath

from learnmem.code.languages import SCRIPT_LANGUAGES
from learnmem.code.model import Import, ParsedFile
from learnmem.code.rustmodules import RustCrates
from learnmem.code.typedvars import result_types

# Languages whose package is the folder: every file of it sees the others' definitions without an import.
_FOLDER_PACKAGES = ("go", "java")
_SELF_RECEIVERS = ("this.", "self.", "self:", "this->", "Self.")
# Go: `func (g *Group[T]) handle(...)` -> "g"
_GO_RECEIVER = re.compile(r"func\s*\(\s*([A-Za-z_]\w*)\s")
_UNIT_TYPES = ("function", "method", "class")
_TYPED = ("go", "java")  # languages whose declared types learnmem.code.typedvars records
_MAX_BASES = 8  # supertypes followed up from a class: deep enough for real hierarchies, and cycles end
_MAX_CALLS = 4  # `a := b.M()` where b came from `b := c.N()`...: enough for builders, and cycles end


class Names:
    """What each file's calls can reach: (module, qualified name) by qualified name, unique ones only, for what
    it sees without an import and for the Go packages and Java classes of the project it imports."""

    def __init__(self, files: list[ParsedFile]) -> None:
        groups: dict[tuple, list[ParsedFile]] = defaultdict(list)
        for parsed in files:
            groups[_scope_of(parsed)].append(parsed)
        self.visible: dict[str, dict[str, tuple[str, str]]] = {}
        self.receivers: dict[str, dict[str, str]] = {}
        self.imports: dict[str, dict[str, Import]] = {}
        # Go: folder -> its package's names; Java: a file's path without ".java" -> what its folder sees
        self.folders: dict[str, dict[str, tuple[str, str]]] = {}
        self.classes: dict[str, dict[str, tuple[str, str]]] = {}
        self._class_paths: dict[str, list[dict[str, tuple[str, str]]]] | None = None
        # Lua: a file's module path (`lua/pl/path.lua` and `pl/path/init.lua` -> "pl/path") -> what it defines
        self.lua_modules: dict[str, dict[str, tuple[str, str]]] = {}
        self._lua_paths: dict[str, list[dict[str, tuple[str, str]]]] | None = None
        for group in groups.values():
            defined: dict[str, list[tuple[str, str]]] = defaultdict(list)
            for parsed in group:
                for unit in parsed.units:
                    if unit.unit_type in _UNIT_TYPES and unit.qualified_name:
                        defined[unit.qualified_name].append((parsed.module, unit.qualified_name))
            unique = {name: places[0] for name, places in defined.items() if len(places) == 1}
            for parsed in group:
                self.visible[parsed.path] = unique
                self.imports[parsed.path] = {record.local: record for record in parsed.imports}
                if parsed.language == "java":
                    self.classes[parsed.path.removesuffix(".java")] = unique
                if parsed.language == "lua":
                    self.lua_modules[parsed.path.removesuffix(".lua").removesuffix("/init")] = unique
                if parsed.language == "go":
                    self.folders[str(PurePosixPath(parsed.path).parent)] = unique
                    self.receivers[parsed.path] = {
                        unit.qualified_name: match.group(1)
                        for unit in parsed.units if unit.unit_type == "method"
                        for match in [_GO_RECEIVER.match(unit.signature)] if match
                    }
        # Go and Java files by module, to read a type's facts where it is defined; Go signatures, for what a
        # function returns (`x := NewFoo()`, learnmem.code.typedvars.result_types)
        self.typed_files = {parsed.module: parsed for parsed in files if parsed.language in _TYPED}
        self.go_signatures = {(parsed.module, unit.qualified_name): unit.signature for parsed in files
                              if parsed.language == "go" for unit in parsed.units if unit.signature}
        self.rust = RustCrates(files, self.visible)
        self.go_module = _go_module_path(set(self.folders), [record.module for parsed in files
                                                             if parsed.language == "go" for record in parsed.imports])

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
                member = callee_dotted[len(prefix):]
                found = unique.get(f"{owner}.{member}")
                if found is None and language in _TYPED and member.count(".") == 1:  # `this.field.m()`
                    field, method = member.split(".")
                    declared = _declared(parsed, owner, field)
                    return self._member(parsed, caller, declared, method) if declared else None
                if found is None and language in _TYPED and "." not in member:  # a supertype's or embedded one's
                    return self._inherited(parsed, owner, member, 0)
                return found
        if language == "rust":
            return unique.get(callee_dotted) or self.rust.resolve(parsed.path, callee)
        if "." in callee_dotted:
            if language in SCRIPT_LANGUAGES:
                return None
            if language in _TYPED and callee_dotted.count(".") == 1:  # a declared name's type decides
                name, method = callee_dotted.split(".")
                declared = _declared(parsed, caller, name)
                if declared is not None:
                    return self._member(parsed, caller, declared, method)
            head, _, rest = callee_dotted.partition(".")
            return unique.get(callee_dotted) or self._imported(parsed, head, rest) or self._in_package(
                parsed, head, callee_dotted)
        if language == "java":  # a method of the caller's class, or of a class it is inside; a nested class
            scopes = [owner]
            while scopes[-1]:
                scopes.append(scopes[-1].rpartition(".")[0])
            for found in (_class_or_constructor(unique, f"{scope}.{callee}", language) for scope in scopes[:-1]):
                if found:
                    return found
            for found in (self._inherited(parsed, scope, callee, 0) for scope in scopes[:-1]):
                if found:  # a supertype's, once no enclosing class has one
                    return found
        found = _class_or_constructor(unique, callee, language)
        if found is None and language == "java":
            return self._imported(parsed, callee, "") or self._in_package(parsed, callee, callee)
        return found

    def _member(self, parsed: ParsedFile, caller: str, declared: str | list[str], method: str,
                steps: int = 0) -> tuple[str, str] | None:
        """Method `method` of what a name is declared as: one type, or several (a name declared twice in a
        unit) that must agree where they are known (`x := F()` of a function outside the project is not)."""
        reached = set()
        for candidate in declared if isinstance(declared, list) else [declared]:
            typed = self._concrete(parsed, caller, candidate, steps)
            if typed is not None:
                reached.add(self._method_of(*typed, method))
        return reached.pop() if len(reached) == 1 else None

    def _concrete(self, parsed: ParsedFile, caller: str, declared: str,
                  steps: int) -> tuple[ParsedFile, str, str] | None:
        """(the file a type name is read in, the caller there, the type name) for a declared type; for Go's
        `x := F()` the type F's signature returns, read in F's file; None when F is not the project's."""
        if steps >= _MAX_CALLS:
            return None
        if declared.startswith("range "):  # Go `for _, v := range x`: what x holds
            holder = self._typed_expression(parsed, caller, declared.removeprefix("range "), steps + 1)
            return (holder[0], holder[1], holder[2][2:]) if holder and holder[2].startswith("[]") else None
        if "()" not in declared:
            return parsed, caller, declared
        returned = self._go_result(parsed, caller, declared, steps)
        return (returned[0], "", returned[1]) if returned is not None else None

    def _typed_expression(self, parsed: ParsedFile, caller: str, expression: str,
                          steps: int) -> tuple[ParsedFile, str, str] | None:
        """Like `_concrete`, for a Go name (`hs`) or a field of one (`c.commands`, the field's declared type read in
        the file of the struct that declares it)."""
        head, _, field = expression.rpartition(".")
        if not head:
            declared = _declared(parsed, caller, expression)
            return self._concrete(parsed, caller, declared, steps) if isinstance(declared, str) else None
        holder = self._typed_expression(parsed, caller, head, steps + 1) if steps < _MAX_CALLS else None
        place = self._type_place(*holder) if holder is not None else None
        if place is None:
            return None
        declared = (place[0].flow or {}).get("types", {}).get(place[1], {}).get(field)
        return (place[0], "", declared) if isinstance(declared, str) else None

    def _method_of(self, parsed: ParsedFile, caller: str, type_name: str, method: str,
                   depth: int = 0) -> tuple[str, str] | None:
        """Method `method` of the project's type `type_name`, its own or one of its supertypes' (Java) or embedded
        types' (Go), up to _MAX_BASES levels."""
        found = self._own_method(parsed, caller, type_name, method)
        if found is None and depth < _MAX_BASES:
            place = self._type_place(parsed, caller, type_name)
            if place is not None:
                return self._inherited(*place, method, depth)
        return found

    def _inherited(self, parsed: ParsedFile, class_name: str, method: str, depth: int) -> tuple[str, str] | None:
        """Method `method` of a supertype of class (or struct) `class_name` of file `parsed`, the first that has
        it in declaration order (`extends` before `implements`), each read as the class's file sees it."""
        for base in (parsed.flow or {}).get("bases", {}).get(class_name, ()):
            found = self._method_of(parsed, f"{class_name}.{method}", base, method, depth + 1)
            if found is not None:
                return found
        return None

    def _type_place(self, parsed: ParsedFile, caller: str, type_name: str) -> tuple[ParsedFile, str] | None:
        """(its file, its qualified name) of the project's class or struct `type_name` as the caller sees it."""
        unique = self.visible.get(parsed.path, {})
        place = None
        scope = caller.rpartition(".")[0] if parsed.language == "java" else ""
        while scope and place is None:
            place = unique.get(f"{scope}.{type_name}")
            scope = scope.rpartition(".")[0]
        head, _, rest = type_name.partition(".")
        record = self.imports.get(parsed.path, {}).get(head)
        if place is None and record is not None:
            names = self._go_package(record.module) if parsed.language == "go" else self._java_class(
                f"{record.module}.{record.name}".replace(".", "/"))
            place = names.get(rest if parsed.language == "go" else type_name) if names is not None else None
        if place is None and parsed.language == "java":
            names = self._package_class(parsed, head)
            place = names.get(type_name) if names is not None else None
        place = place or unique.get(type_name)
        defining = self.typed_files.get(place[0]) if place is not None else None
        return (defining, place[1]) if defining is not None else None

    def _own_method(self, parsed: ParsedFile, caller: str, type_name: str, method: str) -> tuple[str, str] | None:
        """Method `method` of the project's type `type_name` as the caller's file sees it: its package or file
        (Java: a class nested in the caller's enclosing classes too), else through an import (`gin.Context`).
        Looked up by the method's own qualified name, not through `_type_place`: a Go type that is no struct
        (`type FieldMap map[string]string`) has methods but no class unit to find first."""
        owner = caller.rpartition(".")[0]
        unique = self.visible.get(parsed.path, {})
        if "." in type_name:
            local, _, rest = type_name.partition(".")
            return unique.get(f"{type_name}.{method}") or self._imported(parsed, local, f"{rest}.{method}") or \
                self._in_package(parsed, local, f"{type_name}.{method}")
        scope = owner if parsed.language == "java" else ""
        while scope:
            found = unique.get(f"{scope}.{type_name}.{method}")
            if found:
                return found
            scope = scope.rpartition(".")[0]
        found = unique.get(f"{type_name}.{method}")
        if found is None and parsed.language == "java":
            return self._imported(parsed, type_name, method) or self._in_package(
                parsed, type_name, f"{type_name}.{method}")
        return found

    def _go_result(self, parsed: ParsedFile, caller: str, called: str, steps: int) -> tuple[ParsedFile, str] | None:
        """(the file defining the function, the type it returns) for a Go name declared as `x := F()` (`F()`),
        `x, err := pkg.F()` (`pkg.F()#0`) or `y := x.M()` (x's type's method M), when the function is the
        project's and its signature names a type there."""
        function, _, position = called.partition("()")
        local, _, rest = function.partition(".")
        declared = _declared(parsed, caller, local) if rest else None
        if declared is not None:  # a method of a declared name's type: `cmd := c.findNext(arg)`
            place = self._member(parsed, caller, declared, rest, steps + 1)
        else:
            place = self.visible.get(parsed.path, {}).get(function) or (
                self._imported(parsed, local, rest) if rest else None)
        defining = self.typed_files.get(place[0]) if place is not None else None
        if defining is None:
            return None
        results = result_types(self.go_signatures.get(place, ""))
        index = int(position[1:]) if position else 0
        found = results[index] if index < len(results) else None
        return (defining, found) if found else None

    def _in_package(self, parsed: ParsedFile, class_name: str, qualified: str) -> tuple[str, str] | None:
        """Java: `qualified` (`C`, `C.m`) in class C of the package the caller's file declares, kept in another
        folder (`src/test/java/a/b/T.java` using `src/main/java/a/b/C.java` without an import): the one file
        whose path ends `a/b/C.java`."""
        names = self._package_class(parsed, class_name)
        if names is None:
            return None
        return _class_or_constructor(names, qualified, "java") if qualified == class_name else names.get(qualified)

    def _package_class(self, parsed: ParsedFile, class_name: str) -> dict[str, tuple[str, str]] | None:
        """What the file of class `class_name` of the caller's declared Java package sees, wherever it is kept."""
        package = (parsed.flow or {}).get("package")
        if parsed.language != "java" or not package:
            return None
        return self._java_class(f"{package.replace('.', '/')}/{class_name}")

    def _imported(self, parsed: ParsedFile, local: str, rest: str) -> tuple[str, str] | None:
        """What `local.rest` (`rest` "" for a bare name) reaches through the file's Go or Java imports, when the
        imported package or class is one of the project's."""
        record = self.imports.get(parsed.path, {}).get(local)
        if record is None:
            return None
        if parsed.language == "go":
            names = self._go_package(record.module)
            return names.get(rest) if names is not None and rest else None
        if parsed.language == "lua":
            return self._lua_member(record.module, rest) if rest else None
        # Java: `import a.b.C` (the class: `C.m()`, `new C()`) or `import static a.b.C.m` (a member: `m()`)
        class_path = f"{record.module}.{record.name}".replace(".", "/")
        names = self._java_class(class_path)
        if names is not None:
            return names.get(f"{record.name}.{rest}") if rest else _class_or_constructor(names, record.name, "java")
        names = self._java_class(record.module.replace(".", "/"))
        owner = record.module.rsplit(".", 1)[-1]
        return names.get(f"{owner}.{record.name}") if names is not None and not rest else None

    def _go_package(self, import_path: str) -> dict[str, tuple[str, str]] | None:
        """The names of the project's folder an import path names: `<module path>/<folder>`, the module path
        being what the project's own imports share (`github.com/gin-gonic/gin`, as go.mod would say)."""
        if self.go_module is None:
            return None
        if import_path == self.go_module:
            return self.folders.get(".")
        return self.folders.get(import_path.removeprefix(self.go_module + "/")) if import_path.startswith(
            self.go_module + "/") else None

    def _java_class(self, class_path: str) -> dict[str, tuple[str, str]] | None:
        """What the file of a class sees (`a/b/C` -> the names of `src/main/java/a/b/C.java`'s package), when one
        file of the project ends so."""
        if self._class_paths is None:
            self._class_paths = _tails(self.classes)
        found = self._class_paths.get(class_path, ())
        return found[0] if len(found) == 1 else None

    def _lua_member(self, module: str, member: str) -> tuple[str, str] | None:
        """What `x.member` reaches after `local x = require("module")`: in the one file whose path ends with the
        module's (`a.b` -> `a/b.lua` or `a/b/init.lua`), the unit `T.member` of the one table T defining it (the
        table the file returns, by whatever name the file gives it)."""
        if self._lua_paths is None:
            self._lua_paths = _tails(self.lua_modules)
        found = self._lua_paths.get(module.replace(".", "/"), ())
        if len(found) != 1:
            return None
        places = [place for name, place in found[0].items() if name.partition(".")[2] == member]
        return places[0] if len(places) == 1 else None


def _tails(files: dict[str, dict[str, tuple[str, str]]]) -> dict[str, list[dict[str, tuple[str, str]]]]:
    """Every tail of every path (`C`, `b/C`, `a/b/C` for `a/b/C`) -> the names of the files it ends."""
    tails: dict[str, list[dict[str, tuple[str, str]]]] = defaultdict(list)
    for path, names in files.items():
        parts = path.split("/")
        for cut in range(len(parts)):
            tails["/".join(parts[cut:])].append(names)
    return tails


def _declared(parsed: ParsedFile, scope: str, name: str) -> str | None:
    """The type `name` is declared with in `scope` or the units around it (a Java class's fields), as
    learnmem.code.typedvars recorded it; None when no declaration writes one."""
    types = (parsed.flow or {}).get("types", {})
    while scope:
        found = types.get(scope, {}).get(name)
        if found or parsed.language == "go":  # Go reaches a struct's fields only through the receiver
            return found
        scope = scope.rpartition(".")[0]
    return None


def _class_or_constructor(names: dict[str, tuple[str, str]], qualified: str, language: str) -> tuple[str, str] | None:
    """What a call of `qualified` by itself reaches: the constructor of a class that has one (`Foo.Foo` in Java,
    `Foo.constructor` in JavaScript), else the unit of that name."""
    found = names.get(qualified)
    if found is None:
        return None
    own = "constructor" if language in SCRIPT_LANGUAGES else qualified.rsplit(".", 1)[-1]
    return names.get(f"{qualified}.{own}") or found


def _scope_of(parsed: ParsedFile) -> tuple:
    """The files whose definitions a file sees: its folder's files of its language (Go, Java), else itself."""
    if parsed.language in _FOLDER_PACKAGES:
        return parsed.language, str(PurePosixPath(parsed.path).parent)
    return "file", parsed.path


def _go_module_path(folders: set[str], import_paths: list[str]) -> str | None:
    """The Go module's own path, as the project's imports of its own folders spell it: for each import path
    that ends with one of the project's folders (`github.com/gin-gonic/gin/binding`, folder `binding`), what
    comes before is a candidate; the one most imports agree on (None without any)."""
    votes: Counter[str] = Counter()
    for path in import_paths:
        parts = path.split("/")
        for cut in range(1, len(parts)):
            if "/".join(parts[cut:]) in folders:
                votes["/".join(parts[:cut])] += 1
    return votes.most_common(1)[0][0] if votes else None
