"""JavaScript and TypeScript calls resolved across files, through the imports and exports of
learnmem.code.jsmodules: ES modules (named, default, namespace imports; `export { }`, `export default`,
re-exports and `export *`), CommonJS (`require`, destructured or not, `module.exports`, `exports.x`), and class
methods reached through `this` and `super` up an `extends` chain that may cross files.

A specifier names a file of the project by its path, with or without its extension, or a folder's index file;
anything else (a package, a Node built-in) is outside the project and its calls stay unresolved. Not followed:
values passed around (a function given as an argument, returned, or stored), dynamic `import()`, computed
members (`obj[name]()`), and TypeScript path aliases (`paths` in tsconfig.json).
"""

from __future__ import annotations

import posixpath

from learnmem.code.model import ParsedFile

_EXTENSIONS = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts")
_MAX_DEPTH = 12


class JsProject:
    """The JavaScript and TypeScript files of a project, by path, with their module facts."""

    def __init__(self, files: list[ParsedFile]) -> None:
        self.files = {f.path: f for f in files if f.flow is not None}
        self.by_stem: dict[str, str] = {}
        for path in sorted(self.files):
            stem, extension = posixpath.splitext(path)
            self.by_stem.setdefault(stem, path)
            if posixpath.basename(stem) == "index":
                self.by_stem.setdefault(posixpath.dirname(stem), path)
        self.units = {(f.path, u.qualified_name): u for f in self.files.values() for u in f.units}

    def file_of(self, specifier: str) -> str | None:
        """The project file a relative specifier (already joined to its importer's folder) names."""
        if specifier in self.files:
            return specifier
        stem, extension = posixpath.splitext(specifier)
        if extension in _EXTENSIONS and stem in self.by_stem:
            return self.by_stem[stem]
        return self.by_stem.get(specifier)

    def resolve(self, parsed: ParsedFile, caller: str, callee: str) -> tuple[str, str] | None:
        """(path, qualified name) of the unit a call in `parsed` reaches, when imports, exports and classes say."""
        if parsed.path not in self.files:
            return None
        if callee == "super":  # super(...) in a constructor
            return self._method_call(parsed.path, caller, "super", "constructor")
        parts = callee.split(".")
        if parts[0] in ("this", "super") and len(parts) == 2:
            return self._method_call(parsed.path, caller, parts[0], parts[1])
        made = self.files[parsed.path].flow.get("instances", {}).get(parts[0])
        if made is not None and len(parts) == 2:
            cls = self._class(parsed.path, made)
            return self._method(cls, parts[1]) if cls is not None else None
        imported = self._imported(parsed.path, parts[0])
        if imported is None or len(parts) > 2:
            return None
        path, name = imported
        if len(parts) == 2:
            if name:  # `x.f()` on a named or default import: the export's own member (an object's method...)
                found = self._export(path, name)
                return self._member(found, parts[1]) if found else None
            found = self._export(path, parts[1])
        else:
            found = self._export(path, name or "default")
        return self._callable(found) if found else None

    def _imported(self, path: str, local: str) -> tuple[str, str] | None:
        for name, specifier, imported, _ in self.files[path].flow.get("imports", ()):
            if name == local:
                target = self.file_of(specifier)
                return (target, imported) if target is not None else None
        return None

    def _export(self, path: str, exported: str, depth: int = 0) -> tuple[str, str] | None:
        """The unit the module `path` exports as `exported`."""
        facts = self.files[path].flow
        if depth > _MAX_DEPTH:
            return None
        for name, local in facts.get("exports", ()):
            if name == exported:
                imported = self._imported(path, local)
                if imported is not None:
                    return self._export(imported[0], imported[1] or "default", depth + 1)
                if (path, local) in self.units:
                    return path, local
                return (path, "default") if (path, "default") in self.units and name == "default" else None
        for name, specifier, imported in facts.get("reexports", ()):
            target = self.file_of(specifier)
            if name == exported and target is not None:
                return self._export(target, imported or "default", depth + 1)
        if exported != "default":
            for specifier in facts.get("stars", ()):
                target = self.file_of(specifier)
                found = self._export(target, exported, depth + 1) if target is not None else None
                if found:
                    return found
            # `module.exports = { f() {} }` or a default-exported object: its member.
            default = next((local for name, local in facts.get("exports", ()) if name == "default"), None)
            if default is not None and (path, f"{default}.{exported}") in self.units:
                return path, f"{default}.{exported}"
        return None

    def _member(self, owner: tuple[str, str], member: str) -> tuple[str, str] | None:
        path, qualified = owner
        if (path, f"{qualified}.{member}") in self.units:
            return path, f"{qualified}.{member}"
        return None

    def _callable(self, target: tuple[str, str]) -> tuple[str, str]:
        """A class is called through its constructor, its own or (a class that declares none runs its base's)
        the nearest base's; the class itself when none has one."""
        unit = self.units.get(target)
        if unit is not None and unit.unit_type == "class":
            return self._method(target, "constructor") or target
        return target

    def _method_call(self, path: str, caller: str, receiver: str, method: str) -> tuple[str, str] | None:
        """`this.m()` from a method: the class's own m, else the nearest base's; `super.m()`: the bases' only."""
        if "." not in caller:
            return None
        cls = (path, caller.rsplit(".", 1)[0])
        if cls not in self.units:
            return None
        if receiver == "this":
            return self._method(cls, method)
        base = self._base(cls)
        return self._method(base, method) if base is not None else None

    def _method(self, cls: tuple[str, str], method: str) -> tuple[str, str] | None:
        """The method `method` of the class `cls` or of its nearest base that has one."""
        seen = set()
        current: tuple[str, str] | None = cls
        while current is not None and current not in seen and len(seen) < _MAX_DEPTH:
            seen.add(current)
            if (current[0], f"{current[1]}.{method}") in self.units:
                return current[0], f"{current[1]}.{method}"
            current = self._base(current)
        return None

    def _base(self, cls: tuple[str, str]) -> tuple[str, str] | None:
        """The class `cls` extends, in this file or imported; None when outside the project."""
        path, qualified = cls
        base = self.files[path].flow.get("bases", {}).get(qualified) if path in self.files else None
        return self._class(path, base) if base is not None else None

    def _class(self, path: str, base: str) -> tuple[str, str] | None:
        """The class a name or `module.Name` written in `path` means: its own, or imported."""
        if "." not in base and (path, base) in self.units:
            return path, base
        parts = base.split(".")
        imported = self._imported(path, parts[0])
        if imported is None:
            return None
        target, name = imported
        if len(parts) == 2 and not name:
            return self._export(target, parts[1])
        return self._export(target, name or "default") if len(parts) == 1 else None
