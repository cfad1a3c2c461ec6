"""Rust paths followed through the project's crates and modules: what `use` and `a::b::f()` reach.

A crate is a folder holding `lib.rs` or `main.rs` (its root file, `lib.rs` when both are there); a file belongs to
the nearest such folder above it, and its module path is its place below: `src/value/de.rs` is `value::de`,
`src/value/mod.rs` is `value`. A file with no crate root above it (`tests/*.rs`, `examples/*.rs`) is a crate by
itself, its `mod x;` files beside it.

A path is read as rustc reads it, as far as the files say:
- its head: `crate` (the root), `self` (the file's module), `super` (its parent, repeatable), a name the file's
  `use` binds (its path put in its place), a module below the file's own, or a crate of the project by the name
  other crates use for it (`use serde_json::Value` in `tests/`);
- then as many modules as its segments name, then the item in that module's file: `f` or `Type::method`;
- an item the module's file does not define, it may import (`pub use self::inner::Type;`, `pub use inner::*;`):
  those imports are followed in turn (at most eight steps: re-export cycles end);
- `Type::method` where `impl Type` is in another file of the crate (`impl From<i64> for Value` in `value/from.rs`)
  reaches it when the crate defines one type of that name and one method of that qualified name.

Not followed: `use` inside functions and inline `mod` blocks, `#[path]` attributes, macros, external crates and
the standard library, and anything reached through a value's type (`x.method()`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import PurePosixPath

from learnmem.code.model import ParsedFile

_MAX_STEPS = 8
_ROOT_FILES = ("lib.rs", "main.rs")
_LANGUAGE_ROOTS = frozenset({"std", "core", "alloc", "crate", "self", "super"})

Place = tuple[str, str]  # (module, qualified name) of a unit


class RustCrates:
    """The Rust files of a project as crates and modules, to follow paths through (see the module docstring)."""

    def __init__(self, files: list[ParsedFile], visible: dict[str, dict[str, Place]]) -> None:
        rust = [parsed for parsed in files if parsed.language == "rust"]
        self.paths = {parsed.path for parsed in rust}
        self.visible = visible
        self.crate_of: dict[str, str] = {}  # file -> its crate's root file
        self.module_of: dict[str, tuple[str, ...]] = {}
        self.uses: dict[str, dict[str, list[str]]] = {}  # file -> local name -> the path it stands for
        self.globs: dict[str, list[list[str]]] = defaultdict(list)
        for parsed in rust:
            root = self._root_file(parsed.path)
            self.crate_of[parsed.path] = root
            self.module_of[parsed.path] = _module_path(parsed.path, root)
            self.uses[parsed.path] = {}
            for record in parsed.imports:
                path = [*(record.module.split("::") if record.module else ()), record.name]
                if record.local == "*":
                    self.globs[parsed.path].append(path[:-1])
                else:
                    self.uses[parsed.path][record.local] = path
        # One type and one method of a name in the crate: an `impl` in another file of it can be told.
        self.crate_types: dict[str, Counter[str]] = defaultdict(Counter)
        self.crate_methods: dict[str, dict[str, list[Place]]] = defaultdict(lambda: defaultdict(list))
        for parsed in rust:
            root = self.crate_of[parsed.path]
            for unit in parsed.units:
                if unit.unit_type == "class":
                    self.crate_types[root][unit.qualified_name] += 1
                elif unit.unit_type == "method":
                    self.crate_methods[root][unit.qualified_name].append((parsed.module, unit.qualified_name))
        self.crate_names = self._crate_names()

    def resolve(self, path: str, callee: str) -> Place | None:
        """The unit a call of `callee` (`f`, `Type::new`, `crate::a::f`) in file `path` reaches, or None."""
        segments = callee.split("::")
        if path not in self.crate_of or not all(part.isidentifier() for part in segments):
            return None
        return self._follow(path, segments, 0)

    def _follow(self, path: str, segments: list[str], steps: int) -> Place | None:
        """Read `segments` as written in file `path`: find its module, then the item there."""
        if steps > _MAX_STEPS:
            return None
        start = self._start(path, segments, steps)
        if start is None:
            return None
        root, module, rest = start
        while rest and self._module_file(root, (*module, rest[0])):
            module, rest = (*module, rest[0]), rest[1:]
        if not rest:
            return None  # a module names nothing to call
        return self._item(root, module, rest, steps)

    def _start(self, path: str, segments: list[str], steps: int) -> tuple[str, tuple[str, ...], list[str]] | None:
        """(crate root file, module path, the segments left) that a path's head names, from file `path`."""
        root, module = self.crate_of[path], self.module_of[path]
        head, rest = segments[0], segments[1:]
        if head == "crate":
            return root, (), rest
        if head == "self":
            return root, module, rest
        if head == "super":
            while head == "super" and module:
                module, head, rest = module[:-1], rest[0] if rest else "", rest[1:]
            return (root, module, [head, *rest]) if head and head != "super" else None
        used = self.uses[path].get(head)
        if used is not None and used != [head]:  # `use serde_json;` binds the name to what it already is
            return self._start(path, used + rest, steps + 1) if steps < _MAX_STEPS else None
        if self._module_file(root, (*module, head)):
            return root, (*module, head), rest
        other = self.crate_names.get(head)
        if other is not None:
            return other, (), rest
        return None

    def _item(self, root: str, module: tuple[str, ...], rest: list[str], steps: int) -> Place | None:
        """The unit `rest` (`f`, `Type.method`) names in a module: defined in its file, imported there, or a
        method of the crate's one type of that name."""
        file = self._module_file(root, module)
        if file is None:
            return None
        found = self.visible.get(file, {}).get(".".join(rest))
        if found is not None:
            return found
        if rest[0] in self.uses.get(file, {}):
            return self._follow(file, rest, steps + 1)
        for glob in self.globs.get(file, ()):
            found = self._follow(file, [*glob, *rest], steps + 1)
            if found is not None:
                return found
        if len(rest) == 2 and self.crate_types[root][rest[0]] == 1:
            places = self.crate_methods[root].get(".".join(rest), [])
            return places[0] if len(places) == 1 else None
        return None

    def _module_file(self, root: str, module: tuple[str, ...]) -> str | None:
        """The file of a module of the crate whose root file is `root`."""
        if not module:
            return root
        base = PurePosixPath(root).parent.joinpath(*module)
        for candidate in (f"{base}.rs", f"{base}/mod.rs"):
            # a crate without a root folder (`tests/a.rs`) owns the rootless files beside it
            if candidate in self.paths and self.crate_of.get(candidate) in (root, candidate):
                return candidate
        return None

    def _root_file(self, path: str) -> str:
        """The root file of the crate a file belongs to: `lib.rs` or `main.rs` in the nearest folder above it
        that has one, else the file itself."""
        for folder in PurePosixPath(path).parents:
            for name in _ROOT_FILES:
                candidate = str(folder / name)
                if candidate in self.paths:
                    return candidate
        return path

    def _crate_names(self) -> dict[str, str]:
        """The name each crate is used by, as the project's own `use` paths say: `use serde_json::de::Deserializer`
        names a crate with a module `de` and a name `Deserializer`; the crate most such paths agree on (two at
        least) gets the name."""
        roots = set(self.crate_of.values())
        votes: dict[str, Counter[str]] = defaultdict(Counter)
        for path, uses in self.uses.items():
            for used in [*uses.values(), *self.globs.get(path, ())]:
                if len(used) < 2 or used[0] in _LANGUAGE_ROOTS or uses.get(used[0], [used[0]]) != [used[0]]:
                    continue
                for root in roots - {self.crate_of[path]}:  # a crate does not name itself
                    if self._module_file(root, (used[1],)) or used[1] in self.visible.get(root, {}) or used[
                            1] in self.uses.get(root, {}):
                        votes[used[0]][root] += 1
        names = {}
        for name, counts in votes.items():
            ranked = counts.most_common(2)
            if ranked[0][1] >= 2 and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
                names[name] = ranked[0][0]
        return names


def _module_path(path: str, root: str) -> tuple[str, ...]:
    """`src/value/de.rs` -> ("value", "de") below root `src/lib.rs`; the root file itself -> ()."""
    if path == root:
        return ()
    relative = PurePosixPath(path).relative_to(PurePosixPath(root).parent).with_suffix("")
    parts = relative.parts
    return parts[:-1] if parts[-1] == "mod" else parts
