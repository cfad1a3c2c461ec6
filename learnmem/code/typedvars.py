"""The declared types of Go and Java names, so that learnmem.code.localresolve can follow `x.m()` to `T.m`.

For each unit, the names declared in it with a type the code writes out: Java parameters, locals
(`Foo x = ...`, `var x = new Foo()`), `for (Foo x : xs)`, try resources, a single catch type, and a class's fields;
Go parameters, `var x T`, `x := T{...}`, `x := &T{...}`, `x := new(T)`, and a struct's named fields. They are kept as
`{"types": {unit qualified name: {name: type}}}` in the file's flow facts (code_files.flow), the type as written
without pointers and type arguments (`*gin.Context` -> `gin.Context`, `List<Foo>` -> `List`). Slices, maps, arrays,
functions and primitives have no methods of the project's and are left out, as is anything else inferred (Java
lambdas' parameters, `var x = foo()`). A name declared more than once in a unit keeps each type (a list): the
resolver follows it only where those it can tell agree.

`type_facts` also gives, per class (Java `extends` and `implements`, an interface's `extends`) or struct (Go's embedded
fields, `struct{ *Engine; pkg.Base }`), the types whose methods it has too: `{"bases": {qualified name: [types]}}`.

Go's `x := NewFoo()` and `x, err := pkg.NewFoo()` are kept as what they call, `NewFoo()` and `pkg.NewFoo()#0` (the
position among the results after `#`): the resolver reads the type from that function's signature
(`result_types`). A Go slice, array or map is kept as what it holds (`[]*Command` -> `[]Command`, `map[string]*E` ->
`[]E`) and `for _, v := range x` as `range x` (x a name or `recv.field`): the resolver takes x's element type.
"""

from __future__ import annotations

import re
from functools import cache

from tree_sitter import Node, Query, QueryCursor

from learnmem.code.model import Unit

_TYPE_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
# Go types whose values have no methods of the project's: slices, arrays, maps, channels, functions, literals.
_NO_METHODS = re.compile(r"\[|map\[|chan\b|<-|func\b|struct\b|interface\b")
_NAMED_RESULT = re.compile(r"[A-Za-z_]\w*\s+\S")  # Go `(c *Context, err error)`: a name, then its type
_JAVA_PRIMITIVES = frozenset({"var", "int", "long", "short", "byte", "char", "boolean", "float", "double", "void"})
# Java: declaration node -> whether its names are in declarators (`Foo a = x, b;`) or its own `name` field
_JAVA_DECLARATIONS = {
    "formal_parameter": False, "spread_parameter": False, "enhanced_for_statement": False, "resource": False,
    "catch_formal_parameter": False, "local_variable_declaration": True, "field_declaration": True,
}
_GO_DECLARATIONS = ("parameter_declaration", "var_spec", "field_declaration")
_JAVA_CLASSES = ("class_declaration", "interface_declaration", "enum_declaration", "record_declaration")
_CLASS_NODES = frozenset({*_JAVA_CLASSES, "type_spec"})
_JAVA_SUPERTYPES = ("superclass", "super_interfaces", "extends_interfaces")
# Go containers whose values `for _, v := range x` yields: node type -> the field holding the values' type
_GO_CONTAINERS = {"slice_type": "element", "array_type": "element", "map_type": "value"}
_GO_FUNCTIONS = ("function_declaration", "method_declaration", "func_literal")


def type_facts(root: Node, language: str, units: list[Unit]) -> dict:
    """{"types": unit qualified name -> {declared name: its type, or its types when declared more than once},
    "bases": class or struct qualified name -> the types it extends, implements or embeds} for a Go or Java file
    (see the module docstring); empty parts left out."""
    types: dict[str, dict[str, list[str]]] = {}
    bases: dict[str, list[str]] = {}
    spans = sorted(((u.start_line, u.end_line, u.qualified_name) for u in units if u.qualified_name),
                   key=lambda span: (span[1] - span[0], -span[2].count(".")))  # innermost first
    classes = {(unit.start_line, unit.name): unit.qualified_name for unit in units if unit.unit_type == "class"}
    for node in _declarations(root, language):
        if node.type in _CLASS_NODES:
            qualified = classes.get((node.start_point.row + 1, _text(node.child_by_field_name("name"))))
            supers = [found for type_node in _supertype_nodes(node, language)
                      if (found := _type_of(type_node, language))]
            if qualified and supers:
                bases[qualified] = supers
            continue
        pairs = _java_pairs(node) if language == "java" else _go_pairs(node)
        line = node.start_point.row + 1
        scope = next((name for start, end, name in spans if start <= line <= end), None) if pairs else None
        if scope is None:
            continue
        names = types.setdefault(scope, {})
        for name, type_name in pairs:
            if type_name is not None and type_name not in names.setdefault(name, []):
                names[name].append(type_name)
    facts = {"types": {scope: {name: found[0] if len(found) == 1 else found for name, found in names.items()}
                       for scope, names in types.items()},
             "bases": bases}
    return {key: value for key, value in facts.items() if value}


def _declarations(root: Node, language: str) -> list[Node]:
    """The nodes of a file that declare a typed name or a class with supertypes, found by a tree-sitter query (in
    C: walking every node in Python cost jackson-core's parse 0.7 s more)."""
    return QueryCursor(_query(language)).captures(root).get("node", [])


@cache
def _query(language: str) -> Query:
    from tree_sitter_language_pack import get_language

    kinds = [*_JAVA_DECLARATIONS, *_JAVA_CLASSES] if language == "java" else [
        *_GO_DECLARATIONS, "short_var_declaration", "range_clause", "type_spec"]
    return Query(get_language(language), "[" + " ".join(f"({kind})" for kind in kinds) + "] @node")


def _supertype_nodes(node: Node, language: str) -> list[Node]:
    """Java: the types after `extends` and `implements`; Go: a struct's embedded (unnamed) fields' types."""
    if language == "java":
        return [child for part in node.named_children if part.type in _JAVA_SUPERTYPES
                for child in (part.named_children[0].named_children if part.named_children and
                              part.named_children[0].type == "type_list" else part.named_children)]
    struct = node.child_by_field_name("type")
    if struct is None or struct.type != "struct_type":
        return []
    return [field.child_by_field_name("type") for child in struct.named_children
            if child.type == "field_declaration_list" for field in child.named_children
            if field.type == "field_declaration" and field.child_by_field_name("name") is None]


def _java_pairs(node: Node) -> list[tuple[str, str | None]]:
    in_declarators = _JAVA_DECLARATIONS.get(node.type)
    if in_declarators is None:
        return []
    type_node = node.child_by_field_name("type")
    if node.type == "catch_formal_parameter":  # `catch (A e)`; a multi-catch `A | B` has no single type
        catch = next((child for child in node.named_children if child.type == "catch_type"), None)
        type_node = catch.named_children[0] if catch is not None and catch.named_child_count == 1 else None
    if not in_declarators:
        name = node.child_by_field_name("name")
        return [(_text(name), _type_of(type_node, "java"))] if name is not None else []
    pairs = []
    for declarator in node.children_by_field_name("declarator"):
        name, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
        declared = type_node
        if type_node is not None and _text(type_node) == "var" and value is not None and \
                value.type == "object_creation_expression":
            declared = value.child_by_field_name("type")
        if name is not None:
            pairs.append((_text(name), _type_of(declared, "java")))
    return pairs


def _go_pairs(node: Node) -> list[tuple[str, str | None]]:
    if node.type == "parameter_declaration" and (node.parent is None or node.parent.parent is None or
                                                 node.parent.parent.type not in _GO_FUNCTIONS):
        return []  # a parameter of a function type (`OnError func(err error)`) declares nothing in scope
    if node.type in _GO_DECLARATIONS:
        type_node = node.child_by_field_name("type")
        if type_node is None and node.type == "var_spec":
            values = node.child_by_field_name("value")
            type_node = _go_constructed(values.named_children[0]) if values is not None and \
                values.named_child_count == 1 else None
        names = node.children_by_field_name("name")
        return [(_text(name), _type_of(type_node, "go")) for name in names] if type_node is not None else []
    if node.type == "range_clause":  # `for _, v := range x`: v is kept as "range x", x's element type later
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        names = left.named_children if left is not None else []
        ranged = "".join(_text(right).split())
        if len(names) != 2 or names[1].type != "identifier" or not _TYPE_NAME.fullmatch(ranged):
            return []
        return [(_text(names[1]), f"range {ranged}")]
    if node.type == "short_var_declaration":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return []
        names, values = left.named_children, right.named_children
        if len(values) == 1 and values[0].type == "call_expression" and _text(
                values[0].child_by_field_name("function")) != "new":
            called = "".join(_text(values[0].child_by_field_name("function")).split())
            if not _TYPE_NAME.fullmatch(called):
                return []
            return [(_text(name), f"{called}()" + (f"#{index}" if len(names) > 1 else ""))
                    for index, name in enumerate(names) if name.type == "identifier"]
        if len(names) != len(values):
            return []
        return [(_text(name), _type_of(_go_constructed(value), "go"))
                for name, value in zip(names, values) if name.type == "identifier"]
    return []


def result_types(signature: str) -> list[str | None]:
    """The types a Go function's signature returns, as names (`func F() (*Context, error)` -> ["Context",
    "error"]; a named result `(c *Context)` -> ["Context"]); [] when it returns nothing or cannot be read."""
    rest = signature.removeprefix("func").lstrip()
    if rest.startswith("("):  # a method's receiver
        rest = rest[_closing(rest) + 1:].lstrip()
    opening = rest.find("(")
    if opening < 0:
        return []
    results = rest[opening + _closing(rest[opening:]) + 1:].strip()
    if results.startswith("("):
        results = results[1:-1]
    parts = [part.strip() for part in _top_level_commas(results) if part.strip()]
    return [type_name(part.split()[-1] if _NAMED_RESULT.match(part) else part, "go") for part in parts]


def _closing(text: str) -> int:
    """Index of the parenthesis closing the one `text` starts with (len(text) when unbalanced)."""
    depth = 0
    for index, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return index
    return len(text)


def _top_level_commas(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    return [*parts, text[start:]]


def _go_constructed(value: Node) -> Node | None:
    """The type node of `T{...}`, `&T{...}` or `new(T)`; None for anything else."""
    if value.type == "unary_expression" and value.child_by_field_name("operator") is not None and \
            _text(value.child_by_field_name("operator")) == "&":
        value = value.child_by_field_name("operand") or value
    if value.type == "composite_literal":
        return value.child_by_field_name("type")
    if value.type == "call_expression" and _text(value.child_by_field_name("function")) == "new":
        arguments = value.child_by_field_name("arguments")
        return arguments.named_children[0] if arguments is not None and arguments.named_child_count == 1 else None
    return None


def _type_of(node: Node | None, language: str) -> str | None:
    """A declared type node as a name (see `type_name`)."""
    if node is None or node.type == "array_type" and language == "java":
        return None
    if language == "go" and node.type in _GO_CONTAINERS:  # `[]*Command` -> "[]Command": what `range` yields
        element = _type_of(node.child_by_field_name(_GO_CONTAINERS[node.type]), language)
        return f"[]{element}" if element and not element.startswith("[]") else None
    return type_name(_text(node), language)


def type_name(text: str, language: str) -> str | None:
    """A type as written, as a name (`pkg.T`, `a.b.C`) without pointers and type arguments; None when it has no
    methods the project could define (primitives, arrays, slices, maps, functions)."""
    text = text.strip().lstrip("*&")
    if _NO_METHODS.match(text):
        return None
    text = re.sub(r"\s*[<\[].*", "", text, flags=re.DOTALL)  # type arguments: `List<Foo>`, Go's `Set[T]`
    if not _TYPE_NAME.fullmatch(text) or (language == "java" and text in _JAVA_PRIMITIVES):
        return None
    return text


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", errors="replace") if node is not None else ""
