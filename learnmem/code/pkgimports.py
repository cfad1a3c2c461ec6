"""The imports of Go, Java, Rust and Lua files, as Import records, for learnmem.code.localresolve to follow.

Go: `import r "github.com/gin-gonic/gin/render"` binds `r` (else the path's last part, `render`) to the package
of that path: Import(local="r", module="github.com/gin-gonic/gin/render", name=""). Blank (`_`) and dot (`.`)
imports bind no name and are skipped.

Java: `import a.b.C;` binds `C` to the class: Import(local="C", module="a.b", name="C"); `import static a.b.C.m;`
binds `m` to the member: Import(local="m", module="a.b.C", name="m"). Wildcard imports (`a.b.*`) name nothing
and are skipped. The package a file declares (`java_package`) is kept in its flow facts beside its declared types
(learnmem.code.typedvars), for the classes of its package in other folders.

Rust: each name a top-level `use` binds, its path written out: `use crate::a::{self, b::C, d as e};` gives
Import("a", "crate", "a"), Import("C", "crate::a::b", "C"), Import("e", "crate::a", "d"); `use a::b::*;` gives
Import("*", "a::b", "*"). Paths stay as written (`super::x`, `self::x`): the module they start from is the
resolver's to know. `use` inside a function or an inline `mod` is not read.

Lua: `local x = require("a.b")` (or `x = require "a.b"`) at the top of a file: Import("x", "a.b", "").
"""

from __future__ import annotations

from tree_sitter import Node

from learnmem.code.model import Import


def package_imports(root: Node, language: str) -> list[Import]:
    """Every name a Go, Java, Rust or Lua file's imports bind (see the module docstring); [] for other languages."""
    if language == "go":
        return [found for spec in _go_specs(root) for found in [_go_import(spec)] if found]
    if language == "java":
        return [found for node in root.named_children if node.type == "import_declaration"
                for found in [_java_import(node)] if found]
    if language == "rust":
        return [found for node in root.named_children if node.type == "use_declaration"
                for found in _rust_uses(node.child_by_field_name("argument"), [], node.start_point.row + 1)]
    if language == "lua":
        return [found for node in root.named_children for found in [_lua_require(node)] if found]
    return []


def java_package(root: Node) -> str:
    """The package a Java file declares (`package a.b;` -> "a.b"), "" for the default package."""
    declaration = next((node for node in root.named_children if node.type == "package_declaration"), None)
    return _dotted_name(declaration) if declaration is not None else ""


def _rust_uses(node: Node | None, prefix: list[str], line: int) -> list[Import]:
    """The names one `use` tree binds, under the path written before it (`prefix`)."""
    if node is None:
        return []
    kind = node.type
    if kind == "use_as_clause":
        path = prefix + _rust_path(node.child_by_field_name("path"))
        path = path[:-1] if path[-1:] == ["self"] else path
        alias = node.child_by_field_name("alias")
        return [Import(_text(alias), "::".join(path[:-1]), path[-1], line)] if alias is not None and path else []
    if kind == "scoped_use_list":
        path = prefix + _rust_path(node.child_by_field_name("path"))
        return _rust_uses(node.child_by_field_name("list"), path, line)
    if kind == "use_list":
        return [found for child in node.named_children for found in _rust_uses(child, prefix, line)]
    if kind == "use_wildcard":
        path = prefix + [part for child in node.named_children for part in _rust_path(child)]
        return [Import("*", "::".join(path), "*", line)] if path else []
    path = prefix + _rust_path(node)
    if path[-1:] == ["self"]:  # `use a::b::{self}` binds `b` to the module a::b
        path = path[:-1]
    return [Import(path[-1], "::".join(path[:-1]), path[-1], line)] if path else []


def _rust_path(node: Node | None) -> list[str]:
    """`crate::a::b` -> ["crate", "a", "b"] (a leading `::` dropped)."""
    return [part for part in _text(node).split("::") if part] if node is not None else []


def _lua_require(node: Node) -> Import | None:
    """`local x = require("a.b")` or `x = require "a.b"` -> Import("x", "a.b", "")."""
    if node.type == "variable_declaration":
        node = next((child for child in node.named_children if child.type == "assignment_statement"), node)
    if node.type != "assignment_statement" or node.named_child_count != 2:
        return None
    names, values = node.named_children
    if names.named_child_count != 1 or values.named_child_count != 1:
        return None
    target, call = names.named_children[0], values.named_children[0]
    if target.type != "identifier" or call.type != "function_call":
        return None
    function, arguments = call.child_by_field_name("name"), call.child_by_field_name("arguments")
    if function is None or _text(function) != "require" or arguments is None:
        return None
    strings = [child for child in arguments.named_children if child.type == "string"]
    content = strings[0].child_by_field_name("content") if len(strings) == 1 else None
    return Import(_text(target), _text(content), "", node.start_point.row + 1) if content is not None else None


def _go_specs(root: Node) -> list[Node]:
    """A Go file's import specs: its import declarations sit at the top, one spec or a list of them each."""
    found = []
    for declaration in root.named_children:
        if declaration.type == "import_declaration":
            for child in declaration.named_children:
                specs = child.named_children if child.type == "import_spec_list" else [child]
                found.extend(spec for spec in specs if spec.type == "import_spec")
    return found


def _go_import(spec: Node) -> Import | None:
    path_node, name_node = spec.child_by_field_name("path"), spec.child_by_field_name("name")
    if path_node is None:
        return None
    path = _text(path_node).strip('"`')
    if name_node is not None:
        local = _text(name_node)
        if local in ("_", "."):
            return None
    else:
        local = path.rsplit("/", 1)[-1]
    return Import(local, path, "", spec.start_point.row + 1)


def _java_import(declaration: Node) -> Import | None:
    if any(child.type == "asterisk" for child in declaration.named_children):
        return None
    scope, _, name = _dotted_name(declaration).rpartition(".")
    if not scope:
        return None
    return Import(name, scope, name, declaration.start_point.row + 1)


def _dotted_name(declaration: Node) -> str:
    """The dotted name a Java `package` or `import` declaration writes (`a.b.C`), "" when it has none."""
    named = [child for child in declaration.named_children if child.type in ("scoped_identifier", "identifier")]
    return _text(named[0]) if named else ""


def _text(node: Node) -> str:
    return "".join(node.text.decode("utf-8", errors="replace").split())
