"""Python call sites and imports from a tree-sitter tree (no resolution: see resolve.py).

Each `call` node becomes a CallSite attributed to its innermost enclosing def/class; each
name an import statement binds becomes an Import with an absolute module. Resolution needs
the whole project, so it happens later, in `resolve.resolve_calls`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from learnmem.code.model import CallSite, Import, Unit

_MAX_CALLEE = 200  # long callee texts (lambdas called in place...) are never resolvable
_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
_SCOPE_NODES = ("function_definition", "class_definition")
_CALLER_TYPES = ("function", "method", "class")


@dataclass
class _Walk:
    """State of one walk over a file."""

    source: bytes
    module: str
    is_package: bool
    unit_names: set[str]
    spans: list[tuple[int, int, str]]  # (start, end, qualified_name) of def/class units
    calls: list[CallSite] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    # scope (qualified name) -> local variable -> constructor expression, "" when of unknown type
    receivers: dict[str, dict[str, str]] = field(default_factory=dict)


# CallSite.receiver_type for a call through a local variable (or parameter) of unknown type:
# the name shadows any def or import of the same name, so resolution must not look further.
UNKNOWN_RECEIVER = "?"


def python_calls_and_imports(
    root_node, source: bytes, units: list[Unit], module: str, is_package: bool
) -> tuple[list[CallSite], list[Import]]:
    """Every call site and every imported name of one Python file, in source order."""
    callers = [u for u in units if u.unit_type in _CALLER_TYPES]
    walk = _Walk(
        source=source,
        module=module,
        is_package=is_package,
        unit_names={u.qualified_name for u in callers},
        spans=[(u.start_line, u.end_line, u.qualified_name) for u in callers],
    )
    _visit(walk, root_node, ())
    return walk.calls, walk.imports


def _visit(walk: _Walk, node, scope: tuple[str, ...]) -> None:
    # Iterative would be faster, but recursion mirrors scopes; Python nests far less than the limit.
    kind = node.type
    if kind == "call":
        _visit_children(walk, node, scope)
        # `super()` in `super().m()` is part of the callee text, not a call worth an edge.
        if not (
            is_super_call(walk.source, node)
            and node.parent is not None
            and node.parent.type == "attribute"
        ):
            walk.calls.append(_call_site(walk, node, scope))
        return
    if kind in _SCOPE_NODES:
        _visit_scope(walk, node, scope)
        return
    if kind == "lambda" and _named_lambda(walk, node, scope):
        # `f = lambda ...: g()` is the unit `f`: the calls in its body are its own.
        _visit_children(walk, node, scope + (_named_lambda(walk, node, scope),))
        return
    if kind in ("import_statement", "import_from_statement"):
        found = (
            _plain_imports(node)
            if kind == "import_statement"
            else _from_imports(walk, node)
        )
        walk.imports.extend(found)
        _unbind_imports(walk, found, scope)
    elif kind == "global_statement" or kind == "nonlocal_statement":
        for child in node.named_children:
            _unbind(walk, scope, _text(walk, child))
    elif kind in ("assignment", "named_expression"):
        # The right side runs before the binding: `x = x.m()` uses the old x.
        _visit_children(walk, node, scope)
        _record_assignment(walk, node, scope)
        return
    elif kind in ("for_statement", "as_pattern_target", "for_in_clause"):
        _forget_targets(walk, node, scope)
    _visit_children(walk, node, scope)


def _named_lambda(walk: _Walk, node, scope: tuple[str, ...]) -> str:
    """The name a lambda is bound to when it is a unit of its own (`f = lambda ...`), else ""."""
    parent = node.parent
    left = parent.child_by_field_name("left") if parent is not None and parent.type == "assignment" else None
    if left is None or left.type != "identifier":
        return ""
    name = _text(walk, left)
    return name if ".".join(scope + (name,)) in walk.unit_names else ""


def _visit_children(walk: _Walk, node, scope: tuple[str, ...]) -> None:
    for child in node.children:
        _visit(walk, child, scope)


def _visit_scope(walk: _Walk, node, scope: tuple[str, ...]) -> None:
    """A def/class: decorators, defaults and bases run in the outer scope, the body in its own."""
    name_node = node.child_by_field_name("name")
    inner = scope + (_text(walk, name_node),) if name_node is not None else scope
    # The def's own name is a binding that resolution can follow: no longer a variable.
    if name_node is not None:
        _unbind(walk, scope, _text(walk, name_node))
    parameters = node.child_by_field_name("parameters")
    if parameters is not None:
        _forget_targets(walk, parameters, inner)
    body = node.child_by_field_name("body")
    for child in node.children:
        _visit(walk, child, inner if child == body else scope)


# ---------------------------------------------------------------- calls


def _call_site(walk: _Walk, node, scope: tuple[str, ...]) -> CallSite:
    function = node.child_by_field_name("function")
    callee = callee_text(walk.source, function)
    receiver = ""
    parts = callee.split(".")
    variables = walk.receivers.get(".".join(scope), {})
    if _DOTTED.match(callee) and parts[0] in variables:
        constructor = variables[parts[0]]
        receiver = constructor if constructor and len(parts) == 2 else UNKNOWN_RECEIVER
    return CallSite(
        caller=_caller(walk, scope, node.start_point[0] + 1),
        callee=callee,
        name=_last_identifier(walk, function),
        line=node.start_point[0] + 1,
        receiver_type=receiver,
    )


def _caller(walk: _Walk, scope: tuple[str, ...], line: int) -> str:
    """The enclosing unit's qualified name: by tree position when the units agree, else by line span."""
    qualified = ".".join(scope)
    if not qualified or qualified in walk.unit_names:
        return qualified
    inside = [
        (end - start, -start, name)
        for start, end, name in walk.spans
        if start <= line <= end
    ]
    return min(inside)[2] if inside else ""


def callee_text(source: bytes, node) -> str:
    """A callee as call sites write it: `f`, `a.b.f`, `self.m`, `super().m`; any other expression as its
    whitespace-collapsed text (learnmem.code.pyfacts keys its calls by the same text)."""
    if node.type == "identifier":
        return _source_text(source, node)
    if node.type == "attribute":
        obj = node.child_by_field_name("object")
        attr = node.child_by_field_name("attribute")
        if is_super_call(source, obj):
            base = "super()"
        elif obj.type in ("identifier", "attribute"):
            base = callee_text(source, obj)
        else:
            base = " ".join(_source_text(source, obj).split())
        return f"{base}.{_source_text(source, attr)}"[:_MAX_CALLEE]
    return " ".join(_source_text(source, node).split())[:_MAX_CALLEE]


def is_super_call(source: bytes, node) -> bool:
    """Whether `node` is the call `super()`."""
    if node.type != "call":
        return False
    function = node.child_by_field_name("function")
    return function.type == "identifier" and _source_text(source, function) == "super"


def _last_identifier(walk: _Walk, node) -> str:
    if node.type == "identifier":
        return _text(walk, node)
    if node.type == "attribute":
        return _text(walk, node.child_by_field_name("attribute"))
    return ""


# ---------------------------------------------------------------- receivers


def _record_assignment(walk: _Walk, node, scope: tuple[str, ...]) -> None:
    """`x = Foo(...)` remembers x -> "Foo"; any other assignment to x forgets it."""
    left = node.child_by_field_name("left") or node.child_by_field_name("name")
    right = node.child_by_field_name("right") or node.child_by_field_name("value")
    if left is None:
        return
    if left.type != "identifier":
        _forget_targets(walk, left, scope)
        return
    constructor = ""
    if right is not None and right.type == "call":
        callee = callee_text(walk.source, right.child_by_field_name("function"))
        if _DOTTED.match(callee) and callee.split(".")[0] not in ("self", "cls"):
            constructor = callee
    _bind(walk, scope, _text(walk, left), constructor)


def _forget_targets(walk: _Walk, node, scope: tuple[str, ...]) -> None:
    """Loop, `with ... as`, tuple targets: names rebound to something of unknown type."""
    target = (
        node.child_by_field_name("left")
        if node.type in ("for_statement", "for_in_clause")
        else node
    )
    if target is None:
        return
    stack = [target]
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            _bind(walk, scope, _text(walk, current), "")
        elif current.type in (
            "pattern_list",
            "tuple_pattern",
            "list_pattern",
            "tuple",
            "list",
            "as_pattern_target",
            "parenthesized_expression",
            "list_splat_pattern",
            "parameters",
            "typed_parameter",
            "dictionary_splat_pattern",
        ):
            stack.extend(current.children)
        elif current.type in ("default_parameter", "typed_default_parameter"):
            stack.append(current.child_by_field_name("name"))


def _bind(walk: _Walk, scope: tuple[str, ...], name: str, constructor: str) -> None:
    walk.receivers.setdefault(".".join(scope), {})[name] = constructor


def _unbind(walk: _Walk, scope: tuple[str, ...], name: str) -> None:
    walk.receivers.get(".".join(scope), {}).pop(name, None)


def _unbind_imports(walk: _Walk, imports: list[Import], scope: tuple[str, ...]) -> None:
    """An import rebinds its local names to something resolution can follow."""
    for imported in imports:
        _unbind(walk, scope, imported.local.split(".")[0])


# ---------------------------------------------------------------- imports


def _plain_imports(node) -> list[Import]:
    """`import a.b` binds "a" (and makes "a.b" reachable); `import a.b as c` binds "c" -> a.b."""
    found: list[Import] = []
    line = node.start_point[0] + 1
    for child in node.children_by_field_name("name"):
        if child.type == "aliased_import":
            dotted = child.child_by_field_name("name").text.decode()
            alias = child.child_by_field_name("alias").text.decode()
            found.append(Import(local=alias, module=dotted, name="", line=line))
            continue
        dotted = child.text.decode()
        parts = dotted.split(".")
        # One Import per prefix: "a" binds the package, "a.b" records that a.b.f() is reachable.
        for end in range(1, len(parts) + 1):
            prefix = ".".join(parts[:end])
            found.append(Import(local=prefix, module=prefix, name="", line=line))
    return found


def _from_imports(walk: _Walk, node) -> list[Import]:
    """`from m import x as y` binds y -> (m, x); `from m import *` is recorded as local "*"."""
    line = node.start_point[0] + 1
    module = _absolute_module(walk, node.child_by_field_name("module_name"))
    if module is None:
        return []
    found: list[Import] = []
    if any(child.type == "wildcard_import" for child in node.children):
        return [Import(local="*", module=module, name="*", line=line)]
    for child in node.children_by_field_name("name"):
        if child.type == "aliased_import":
            name = child.child_by_field_name("name").text.decode()
            local = child.child_by_field_name("alias").text.decode()
        else:
            name = local = child.text.decode()
        found.append(Import(local=local, module=module, name=name, line=line))
    return found


def _absolute_module(walk: _Walk, node) -> str | None:
    """Resolve leading dots against the importing module; None when they climb above the root."""
    if node is None:
        return None
    if node.type != "relative_import":
        return node.text.decode()
    dots = 0
    rest = ""
    for child in node.children:
        if child.type == "import_prefix":
            dots = child.text.decode().count(".")
        elif child.type == "dotted_name":
            rest = child.text.decode()
    # A package's own name is its package; a plain module's package drops its last part.
    package = walk.module.split(".") if walk.is_package else walk.module.split(".")[:-1]
    if dots - 1 > len(package) or (dots - 1 == len(package) and not rest):
        return None
    base = package[: len(package) - (dots - 1)]
    return ".".join(base + ([rest] if rest else []))


# ---------------------------------------------------------------- text


def _text(walk: _Walk, node) -> str:
    return _source_text(walk.source, node)


def _source_text(source: bytes, node) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")
