"""What a Python file says about where values flow: the facts learnmem.code.pyflow solves for the call graph.

One walk over a file's tree-sitter tree records, per scope (a def, a class body, a named lambda, or the module
top level, ""), in a small JSON-able form that the index stores with the file (code_files.flow):

- `defs`: every def, class and named lambda as [qualified name, kind, enclosing scope, parameters], parameters
  as [name, "" | "*" | "**"];
- `bases`: a class's base expressions;
- `assigns`: [scope, target, expression]: `x = e`, `x.a = e`, `x[k] = e`, loop and `with` targets, a def's
  name bound to the def (through its decorators), parameter defaults, and the items of container literals
  (a literal becomes a container whose slots are assigned its items);
- `returns` and `yields`: [function, expression];
- `reads`: [scope, line, text, attribute expression] of every attribute read (`obj.name`), which calls a
  getter when the attribute is a property;
- `calls`: [scope, line, callee text (as learnmem.code.pycalls writes it), callee expression, positional
  arguments, keyword arguments], one per call expression, plus one per decorator applied to a def (with a
  seventh item, 1: a decorator the analysis cannot see into is taken to return the def it decorates).

Expressions: ["name", n], ["attr", e, a], ["call", index into calls], ["sub", e, key or None], ["def", q],
["cont", id], ["iter", e] (the items of e), ["union", [e, ...]], ["super", class, self expression], or None
for anything the analysis does not follow (literals, arithmetic, comprehensions, unnamed lambdas, eval...).
"""

from __future__ import annotations

from learnmem.code.model import Unit
from learnmem.code.pycalls import callee_text, is_super_call

_CONTAINERS = {"list", "tuple", "expression_list", "set", "dictionary"}
_TRANSPARENT = ("parenthesized_expression", "await", "expression_statement")
_PARAM_KINDS = {"list_splat_pattern": "*", "dictionary_splat_pattern": "**"}


class _Facts:
    """The state of one walk."""

    def __init__(self, source: bytes, units: list[Unit]) -> None:
        self.source = source
        self.unit_at = {(u.start_line, u.name): u.qualified_name for u in units if u.qualified_name}
        self.defs: list = []
        self.bases: dict[str, list] = {}
        self.assigns: list = []
        self.returns: list = []
        self.yields: list = []
        self.calls: list = []
        self.reads: list = []
        self.containers = 0

    def text(self, node) -> str:
        return self.source[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def as_dict(self) -> dict:
        return {"defs": self.defs, "bases": self.bases, "assigns": self.assigns, "returns": self.returns,
                "yields": self.yields, "calls": self.calls, "reads": self.reads}


def python_flow_facts(root_node, source: bytes, units: list[Unit]) -> dict:
    """The flow facts of one Python file (see the module's docstring)."""
    facts = _Facts(source, units)
    _statements(facts, root_node, "", None)
    return facts.as_dict()


def _statements(facts: _Facts, node, scope: str, function: str | None) -> None:
    """Walk a block: `scope` is where names bind, `function` the def whose returns and yields these are."""
    for child in node.named_children:
        _statement(facts, child, scope, function)


def _statement(facts: _Facts, node, scope: str, function: str | None) -> None:
    kind = node.type
    if kind == "decorated_definition":
        definition = node.child_by_field_name("definition")
        decorators = [d.named_children[0] for d in node.named_children if d.type == "decorator" and d.named_children]
        _definition(facts, definition, scope, function, decorators)
    elif kind in ("function_definition", "class_definition"):
        _definition(facts, node, scope, function, [])
    elif kind == "return_statement":
        value = node.named_children[0] if node.named_children else None
        if function is not None and value is not None:
            facts.returns.append([function, _expression(facts, value, scope, function)])
    elif kind in ("for_statement", "for_in_clause"):
        iterated = _expression(facts, node.child_by_field_name("right"), scope, function)
        _assign(facts, node.child_by_field_name("left"), ["iter", iterated], scope, function)
        for child in node.named_children:
            if child.type in ("block", "else_clause"):
                _statements(facts, child, scope, function)
    elif kind == "with_statement":
        for item in (n for clause in node.named_children if clause.type == "with_clause" for n in clause.named_children):
            value = item.child_by_field_name("value")
            if value is not None and value.type == "as_pattern":
                entered = _expression(facts, value.named_children[0], scope, function)
                target = value.child_by_field_name("alias")
                _assign(facts, target, ["call", _call(facts, scope, value.start_point[0] + 1, "",
                                                      ["attr", entered, "__enter__"], [entered], {})], scope, function)
            elif value is not None:
                _expression(facts, value, scope, function)
        for child in node.named_children:
            if child.type == "block":
                _statements(facts, child, scope, function)
    elif kind == "raise_statement" and node.named_children and node.named_children[0].type in ("identifier", "attribute"):
        # `raise Error` instantiates the class as `raise Error()` does.
        raised = node.named_children[0]
        _call(facts, scope, raised.start_point[0] + 1, callee_text(facts.source, raised),
              _expression(facts, raised, scope, function), [], {})
    elif kind in ("block", "if_statement", "elif_clause", "else_clause", "while_statement", "try_statement",
                  "except_clause", "except_group_clause", "finally_clause", "match_statement", "case_clause",
                  "expression_statement", "delete_statement", "raise_statement", "assert_statement",
                  "print_statement", "exec_statement"):
        for child in node.named_children:
            _statement(facts, child, scope, function)
    elif not kind.endswith("statement"):
        _expression(facts, node, scope, function)


def _definition(facts: _Facts, node, scope: str, function: str | None, decorators: list) -> None:
    name_node = node.child_by_field_name("name")
    if name_node is None:
        return
    name = facts.text(name_node)
    line = node.start_point[0] + 1
    qualified = facts.unit_at.get((line, name)) or facts.unit_at.get(
        (decorators[0].start_point[0] + 1 if decorators else line, name)) or (f"{scope}.{name}" if scope else name)
    # Decorators run in the enclosing scope, innermost (last written) first.
    value: list = ["def", qualified]
    decorator_values = [_expression(facts, d, scope, function) for d in decorators]
    for decorator, expression in zip(reversed(decorators), reversed(decorator_values)):
        value = ["call", _call(facts, scope, decorator.start_point[0] + 1, callee_text(facts.source, decorator),
                               expression, [value], {}, decorator=True)]
    facts.assigns.append([scope, ["name", name], value])
    if node.type == "class_definition":
        facts.defs.append([qualified, "class", scope, []])
        bases = node.child_by_field_name("superclasses")
        facts.bases[qualified] = [_expression(facts, b, scope, function) for b in (bases.named_children if bases else ())
                                  if b.type != "keyword_argument"]
        _statements(facts, node.child_by_field_name("body"), qualified, None)
        return
    parameters = _parameters(facts, node.child_by_field_name("parameters"), qualified, scope, function)
    facts.defs.append([qualified, "function", scope, parameters])
    _statements(facts, node.child_by_field_name("body"), qualified, qualified)


def _parameters(facts: _Facts, node, qualified: str, scope: str, function: str | None) -> list:
    found = []
    for child in node.named_children if node is not None else ():
        kind = _PARAM_KINDS.get(child.type, "")
        name_node = child if child.type == "identifier" else child.child_by_field_name("name")
        if name_node is None and child.named_children:
            name_node = child.named_children[0]
        if name_node is None or name_node.type != "identifier":
            continue
        name = facts.text(name_node)
        found.append([name, kind])
        default = child.child_by_field_name("value")
        if default is not None:
            facts.assigns.append([qualified, ["name", name], _expression(facts, default, scope, function)])
    return found


def _assign(facts: _Facts, target, value, scope: str, function: str | None) -> None:
    """Bind `target` (a name, attribute, subscript, or a tuple of them) to the expression `value`."""
    if target is None:
        return
    kind = target.type
    if kind in ("pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "as_pattern_target",
                "parenthesized_expression"):
        parts = [c for c in target.named_children]
        for index, part in enumerate(parts):
            if part.type in ("list_splat_pattern", "list_splat"):
                inner = part.named_children[0] if part.named_children else None
                _assign(facts, inner, ["iter", value], scope, function) if inner is not None else None
                continue
            item = value[2][index] if value and value[0] == "union" and value[1] == "tuple" and index < len(value[2]) \
                else (["sub", value, str(index)] if kind != "as_pattern_target" else value)
            _assign(facts, part, item, scope, function)
        return
    if kind == "identifier":
        facts.assigns.append([scope, ["name", facts.text(target)], value])
    elif kind == "attribute":
        obj = _expression(facts, target.child_by_field_name("object"), scope, function)
        facts.assigns.append([scope, ["attr", obj, facts.text(target.child_by_field_name("attribute"))], value])
    elif kind == "subscript":
        obj = _expression(facts, target.child_by_field_name("value"), scope, function)
        facts.assigns.append([scope, ["sub", obj, _key(facts, target.child_by_field_name("subscript"))], value])


def _key(facts: _Facts, node) -> str | None:
    """A subscript's key when it is a literal string or integer, as text; else None (any slot)."""
    if node is None:
        return None
    if node.type == "integer":
        return facts.text(node)
    if node.type == "string" and not any(c.type == "interpolation" for c in node.named_children):
        content = [c for c in node.named_children if c.type == "string_content"]
        return facts.text(content[0]) if content else ""
    return None


def _expression(facts: _Facts, node, scope: str, function: str | None):
    """The expression's form (see the module's docstring), recording the calls, containers and assignments
    inside it."""
    if node is None:
        return None
    kind = node.type
    if kind in _TRANSPARENT:
        return _expression(facts, node.named_children[0], scope, function) if node.named_children else None
    if kind == "identifier":
        return ["name", facts.text(node)]
    if kind == "attribute":
        obj = node.child_by_field_name("object")
        if is_super_call(facts.source, obj):
            return ["attr", ["super", _enclosing_class(facts, scope), ["name", _first_parameter(facts, scope)]],
                    facts.text(node.child_by_field_name("attribute"))]
        expression = ["attr", _expression(facts, obj, scope, function), facts.text(node.child_by_field_name("attribute"))]
        facts.reads.append([scope, node.start_point[0] + 1, callee_text(facts.source, node), expression])
        return expression
    if kind == "call":
        callee_node = node.child_by_field_name("function")
        callee = _expression(facts, callee_node, scope, function)
        args, kwargs = [], {}
        arguments = node.child_by_field_name("arguments")
        for argument in arguments.named_children if arguments is not None else ():
            if argument.type == "keyword_argument":
                kwargs[facts.text(argument.child_by_field_name("name"))] = _expression(
                    facts, argument.child_by_field_name("value"), scope, function)
            elif argument.type in ("list_splat", "dictionary_splat"):
                _expression(facts, argument.named_children[0] if argument.named_children else None, scope, function)
                args.append(None)
            else:
                args.append(_expression(facts, argument, scope, function))
        return ["call", _call(facts, scope, node.start_point[0] + 1, callee_text(facts.source, callee_node), callee,
                              args, kwargs)]
    if kind in ("assignment", "augmented_assignment", "named_expression"):
        right = node.child_by_field_name("right") or node.child_by_field_name("value")
        value = _expression(facts, right, scope, function)
        if kind == "augmented_assignment":
            return None
        left = node.child_by_field_name("left") or node.child_by_field_name("name")
        _assign(facts, left, value, scope, function)
        return value
    if kind in _CONTAINERS:
        return _container(facts, node, scope, function)
    if kind == "subscript":
        return ["sub", _expression(facts, node.child_by_field_name("value"), scope, function),
                _key(facts, node.child_by_field_name("subscript"))]
    if kind == "lambda":
        return _lambda(facts, node, scope, function)
    if kind == "conditional_expression":
        parts = node.named_children
        _expression(facts, parts[1], scope, function) if len(parts) > 1 else None
        return ["union", "or", [_expression(facts, parts[0], scope, function),
                                _expression(facts, parts[2], scope, function) if len(parts) > 2 else None]]
    if kind == "boolean_operator":
        return ["union", "or", [_expression(facts, c, scope, function) for c in node.named_children]]
    if kind in ("yield",):
        value = node.named_children[0] if node.named_children else None
        if value is not None and function is not None:
            if any(c.type == "from" for c in node.children):
                facts.yields.append([function, ["iter", _expression(facts, value, scope, function)]])
            else:
                facts.yields.append([function, _expression(facts, value, scope, function)])
        return None
    if kind in ("list_comprehension", "generator_expression", "set_comprehension", "dictionary_comprehension"):
        for child in node.named_children:
            if child.type == "for_in_clause":
                _statement(facts, child, scope, function)
        body = node.named_children[0] if node.named_children else None
        item = _expression(facts, body, scope, function)
        for child in node.named_children[1:]:
            if child.type == "if_clause":
                _expression(facts, child, scope, function)
        if item is None or kind == "dictionary_comprehension":
            return None
        facts.containers += 1
        facts.assigns.append([scope, ["slot", facts.containers, "*"], item])
        return ["cont", facts.containers]
    for child in node.named_children:
        _expression(facts, child, scope, function)
    return None


def _container(facts: _Facts, node, scope: str, function: str | None):
    facts.containers += 1
    identity = facts.containers
    items = []
    # An item the analysis does not follow (a literal: most items of the data tables libraries keep in code) is
    # no fact: it could never add a value.
    for index, child in enumerate(node.named_children):
        if child.type == "pair":
            key = _key(facts, child.child_by_field_name("key"))
            value = _expression(facts, child.child_by_field_name("value"), scope, function)
            if value is not None:
                facts.assigns.append([scope, ["slot", identity, key if key is not None else "*"], value])
        elif child.type in ("list_splat", "dictionary_splat"):
            inner = _expression(facts, child.named_children[0] if child.named_children else None, scope, function)
            if inner is not None:
                facts.assigns.append([scope, ["slot", identity, "*"], ["iter", inner]])
        else:
            value = _expression(facts, child, scope, function)
            items.append(value)
            if value is not None:
                facts.assigns.append([scope, ["slot", identity, str(index)], value])
    if node.type in ("tuple", "expression_list"):
        # A tuple literal keeps its items by position so that `a, b = f, g` binds each alone.
        return ["union", "tuple", items, ["cont", identity]]
    return ["cont", identity]


def _lambda(facts: _Facts, node, scope: str, function: str | None):
    line = node.start_point[0] + 1
    named = node.parent is not None and node.parent.type == "assignment" \
        and node.parent.child_by_field_name("left") is not None \
        and node.parent.child_by_field_name("left").type == "identifier"
    name = facts.text(node.parent.child_by_field_name("left")) if named else ""
    qualified = facts.unit_at.get((node.parent.start_point[0] + 1, name)) if named else None
    if qualified is None:
        qualified = f"{scope}.<lambda:{line}:{node.start_point[1]}>" if scope else f"<lambda:{line}:{node.start_point[1]}>"
    parameters = _parameters(facts, node.child_by_field_name("parameters"), qualified, scope, function)
    facts.defs.append([qualified, "function", scope, parameters])
    facts.returns.append([qualified, _expression(facts, node.child_by_field_name("body"), qualified, qualified)])
    return ["def", qualified]


def _call(facts: _Facts, scope: str, line: int, text: str, callee, args: list, kwargs: dict,
          decorator: bool = False) -> int:
    facts.calls.append([scope, line, text, callee, args, kwargs] + ([1] if decorator else []))
    return len(facts.calls) - 1


def _enclosing_class(facts: _Facts, scope: str) -> str:
    """The class whose method `scope` is ("" when none): the scope's parent, when that is a class."""
    classes = {d[0] for d in facts.defs if d[1] == "class"}
    parent = scope.rsplit(".", 1)[0] if "." in scope else ""
    return parent if parent in classes else ""


def _first_parameter(facts: _Facts, scope: str) -> str:
    for qualified, _, _, parameters in reversed(facts.defs):
        if qualified == scope:
            return parameters[0][0] if parameters else "self"
    return "self"
