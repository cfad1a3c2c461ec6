"""Parse one source file into code units (and, outside Python, call sites) with tree-sitter.

`parse_source` never raises on bad code: tree-sitter recovers what it can, and
the ERROR / MISSING nodes it had to invent are counted in `syntax_errors`.
One iterative pass over the tree (a `TreeCursor`, no recursion) collects the
units, their complexity and the call sites; per-language node types live in
`langspec.py`. Python's calls and imports come from `pycalls.py`, not here.
"""

from __future__ import annotations

import ast
import inspect
import re
from dataclasses import dataclass
from functools import cache

from tree_sitter import Node, Parser, Tree

from learnmem.code.langspec import CONFIG_LANGUAGES, SPECS, LangSpec
from learnmem.code.languages import module_path
from learnmem.code.model import CallSite, ParsedFile, Unit
from learnmem.code.names import IDENTIFIER as _IDENTIFIER
from learnmem.code.names import flavour, literal_name, make_unique, strip_quotes

# Files larger than this get only their module unit: no tree, no units, no calls.
# (A minified 50 MB bundle would otherwise cost seconds and gigabytes for nothing useful.)
MAX_PARSE_BYTES = 2_000_000
SIGNATURE_MAX_CHARS = 300
CALLEE_MAX_CHARS = 200

_UNIT_KINDS = ("function", "class")  # definition kinds that become units
# Wrappers whose keyword belongs in the signature (`export` and decorators do not).
_DECLARATION_WRAPPERS = frozenset({"lexical_declaration", "variable_declaration", "type_declaration"})
# What a Rust impl's type may start with that is no part of its name: `&'a mut Type`, `*const Type`, `dyn Trait`.
_RUST_TYPE_PREFIX = re.compile(r"^(?:&|\*|'\w+\s*|(?:mut|const|dyn)\s+)*")


@cache
def _parser(language: str) -> Parser:
    from tree_sitter_language_pack import get_parser

    return get_parser(language)  # type: ignore[arg-type]


def is_too_large(source: bytes) -> bool:
    """True when `parse_source` keeps only the module unit of `source` (see MAX_PARSE_BYTES)."""
    return len(source) > MAX_PARSE_BYTES


def parse_source(relative_path: str, source: bytes, language: str) -> ParsedFile:
    """Units (module unit first), syntax error count and, except for Python, call sites of one file."""
    return parse_source_with_tree(relative_path, source, language)[0]


def parse_source_with_tree(relative_path: str, source: bytes, language: str) -> tuple[ParsedFile, Tree | None]:
    """`parse_source`, plus the tree-sitter tree it walked (None when the file was not parsed:
    too large, or a language without a grammar), so that Python's call/import pass need not parse again."""
    module = module_path(relative_path, language)
    parsed = ParsedFile(path=relative_path, language=language, module=module)
    stem = relative_path.replace("\\", "/").rsplit("/", 1)[-1]
    name = module.rsplit(".", 1)[-1] if module else stem
    text = source.decode("utf-8", errors="replace")
    last_line = max(1, text.count("\n") + (0 if text.endswith("\n") else 1))
    module_unit = dict(name=name, qualified_name="", unit_type="module", signature="", docstring="",
                       content=text, start_line=1, end_line=last_line)
    if is_too_large(source) or (language not in SPECS and language not in CONFIG_LANGUAGES):
        parsed.units.append(Unit(**module_unit, complexity=1))
        return parsed, None
    tree = _parser(language).parse(source)
    root = tree.root_node
    if root.has_error:
        parsed.syntax_errors = _count_errors(tree)
    if language in CONFIG_LANGUAGES:
        parsed.units.append(Unit(**module_unit, complexity=1))
        parsed.units.extend(_config_units(root, source))
        return parsed, tree
    _Walker(SPECS[language], source, module_unit, parsed).run(tree)
    return parsed, tree


def _count_errors(tree: Tree) -> int:
    count = 0
    cursor = tree.walk()
    while True:
        node = cursor.node
        if node.type == "ERROR" or node.is_missing:
            count += 1
        if node.has_error and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return count


# --- text helpers -----------------------------------------------------------------------------------


def _text(source: bytes, start: int, end: int) -> str:
    return source[start:end].decode("utf-8", errors="replace")


def _node_text(source: bytes, node: Node) -> str:
    return _text(source, node.start_byte, node.end_byte)


def _collapse(text: str, limit: int) -> str:
    return " ".join(text.split())[:limit]


def _end_line(node: Node) -> int:
    row, column = node.end_point
    if column == 0 and row > node.start_point.row:
        return row  # the node ends with a newline: its last line is the previous one
    return row + 1


# --- config files (YAML / JSON) ---------------------------------------------------------------------

_YAML_PAIRS = ("block_mapping_pair", "flow_pair")
_CONFIG_CONTAINERS = ("document", "block_node", "flow_node", "block_mapping", "flow_mapping", "object")


def _config_units(root: Node, source: bytes) -> list[Unit]:
    """One "key" unit per top-level key of each document (nested keys are part of their value)."""
    units: list[Unit] = []
    pending = list(root.named_children)
    while pending:
        node = pending.pop(0)
        if node.type in _CONFIG_CONTAINERS:
            pending[:0] = node.named_children
        elif node.type in _YAML_PAIRS or node.type == "pair":
            key_node = node.child_by_field_name("key")
            if key_node is None:
                continue
            key = strip_quotes(_node_text(source, key_node).strip())
            units.append(Unit(name=key, qualified_name=key, unit_type="key", signature="", docstring="",
                              content=_node_text(source, node), start_line=node.start_point.row + 1,
                              end_line=_end_line(node), complexity=1))
    return units


# --- docstrings -------------------------------------------------------------------------------------

_COMMENT_OPENERS = re.compile(r"^\s*(//[/!]?|--+|#+|/\*+!?)")


def _clean_comment(comment: str) -> str:
    """Strip comment markers: /** ... */, ///, //, --, --[[ ]], #."""
    text = comment.strip()
    if text.startswith(("--[[", "--[=[")):
        text = re.sub(r"^--\[=*\[|\]=*\]$", "", text)
        return text
    if text.startswith("/*"):
        text = re.sub(r"^/\*+!?|\*+/$", "", text)
        lines = [re.sub(r"^\s*\* ?", "", line) for line in text.splitlines()]
        return "\n".join(lines)
    lines = [_COMMENT_OPENERS.sub("", line, count=1) for line in text.splitlines()]
    return "\n".join(line.removeprefix(" ") for line in lines)


def _is_doc_block(source: bytes, node: Node) -> bool:
    text = source[node.start_byte:node.start_byte + 4]
    return text.startswith(b"/**") and not text.startswith(b"/**/")


def _cleandoc(blocks) -> str:
    return inspect.cleandoc("\n".join(line.rstrip() for block in blocks for line in block.splitlines()))


def _preceding_comments(anchor: Node, source: bytes, spec: LangSpec) -> str:
    """The comment block right above `anchor`, markers stripped.

    Comments belong to it when no blank line separates them from it, except a `/** ... */`
    block nearest the definition, which documents it across blank lines (as JSDoc, TypeScript
    and Javadoc read it: mongoose leaves a blank line under every doc comment).
    """
    comments: list[str] = []
    next_row = anchor.start_point.row
    sibling = anchor.prev_sibling
    while sibling is not None:
        if sibling.type in spec.doc_skip:
            next_row = sibling.start_point.row
        elif sibling.type in spec.comments and (
            _end_line(sibling) >= next_row  # 1-based end = 0-based row above
            or (not comments and _is_doc_block(source, sibling))
        ):
            comments.append(_clean_comment(_node_text(source, sibling)))
            next_row = sibling.start_point.row
        else:
            break
        sibling = sibling.prev_sibling
    return _cleandoc(reversed(comments)) if comments else ""


def _python_docstring(body: Node | None, source: bytes) -> str:
    """The first statement of `body` when it is a string literal, cleaned with inspect.cleandoc."""
    if body is None:
        return ""
    for statement in body.named_children:
        if statement.type == "comment":
            continue
        literal = statement  # this grammar has no expression_statement around a lone string
        if statement.type == "expression_statement" and statement.named_child_count == 1:
            literal = statement.named_children[0]
        if literal.type not in ("string", "concatenated_string"):
            return ""
        raw = _node_text(source, literal)
        try:
            value = ast.literal_eval(raw)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            value = "".join(_node_text(source, c) for c in _descendants(literal, "string_content"))
        if isinstance(value, bytes):
            value = value.decode("utf-8", errors="replace")
        return inspect.cleandoc(value) if isinstance(value, str) else ""
    return ""


def _descendants(node: Node, node_type: str) -> list[Node]:
    found, pending = [], [node]
    while pending:
        current = pending.pop()
        if current.type == node_type:
            found.append(current)
        pending.extend(reversed(current.children))
    return found


# --- the walk ---------------------------------------------------------------------------------------


@dataclass
class _Scope:
    qualified: str  # prefix for names defined inside ("" at module level)
    kind: str  # "module" | "class" | "function" | "impl" | "namespace" | "object" (an object literal's members)
    depth: int  # cursor depth of the defining node; -1 for the module
    unit: int | None  # index into _Walker.units; None for scopes that are not units
    owner: _Scope | None = None  # the innermost enclosing unit scope (self for units)


class _Walker:
    def __init__(self, spec: LangSpec, source: bytes, module_unit: dict, parsed: ParsedFile):
        self.spec = spec
        self.source = source
        self.parsed = parsed
        self.units: list[dict] = [module_unit]
        self.flavours: list[str] = [""]  # "static", "get", "set" or "" per unit: what tells duplicates apart
        self.branches: list[int] = [0]
        self.claimed: set[int] = set()  # ids of the values that definitions by value have named
        self.stack: list[_Scope] = []
        self.collect_calls = bool(spec.calls)

    def run(self, tree: Tree) -> None:
        spec, source = self.spec, self.source
        root = tree.root_node
        if spec.python_style:
            self.units[0]["docstring"] = _python_docstring(root, source)
        else:
            self.units[0]["docstring"] = self._file_comment(root)
        module = _Scope("", "module", -1, 0)
        module.owner = module
        stack = self.stack = [module]
        definitions, value_definitions = spec.definitions, spec.value_definitions
        branches, bool_ops, calls = spec.branches, spec.bool_ops, spec.calls
        cursor = tree.walk()
        depth = 0
        while True:
            node = cursor.node
            while stack[-1].depth >= depth:
                stack.pop()
            kind = node.type
            if kind in branches:
                if kind not in spec.branch_prefix or _node_text(source, node).startswith(spec.branch_prefix[kind]):
                    self.branches[stack[-1].owner.unit] += 1  # type: ignore[union-attr,index]
            elif kind in bool_ops:
                if any(not c.is_named and c.type in bool_ops[kind] for c in node.children):
                    self.branches[stack[-1].owner.unit] += 1  # type: ignore[union-attr,index]
            if kind in definitions or kind in value_definitions:
                scope = self._define(node, stack[-1], depth)
                if scope is not None:
                    stack.append(scope)
            if kind in calls and self.collect_calls:
                self._call(node, calls[kind], stack[-1].owner)  # type: ignore[arg-type]
            if cursor.goto_first_child():
                depth += 1
                continue
            while not cursor.goto_next_sibling():
                if not cursor.goto_parent():
                    self._finish()
                    return
                depth -= 1

    def _finish(self) -> None:
        make_unique(self.units, self.flavours)
        self.parsed.units.extend(
            Unit(**fields, complexity=1 + count) for fields, count in zip(self.units, self.branches)
        )

    # -- definitions --

    def _define(self, node: Node, parent: _Scope, depth: int) -> _Scope | None:
        spec = self.spec
        if node.id in self.claimed:
            return None  # a value that a definition by value has already named
        if node.type in spec.value_definitions:
            return self._define_value(node, parent, depth)
        name_node, kind, holder = node.child_by_field_name("name"), spec.definitions[node.type], node
        named = self._name(node, name_node)
        if named is None or (node.has_error and any(c.type == "ERROR" for c in node.children)):
            return None  # anonymous, or a definition tree-sitter had to invent around broken code
        name, prefix_parts, is_method = named
        return self._unit(node, holder, parent, depth, kind, name, prefix_parts, is_method)

    def _define_value(self, node: Node, parent: _Scope, depth: int) -> _Scope | None:
        """A definition by value (langspec's docstring): what the value is decides what is defined."""
        name_node, value, kind = self._named_value(node)
        if value is None:
            return None
        if name_node is None:  # `export default class {}`, `export default function () {}`
            if kind == "namespace" or not any(c.type == "default" for c in node.children):
                return None
            parts: list[str] | None = [self._own_name(value)]
        else:
            parts = self._target(name_node)
        if not parts:
            return None
        is_method = False
        if "prototype" in parts[:-1]:  # `Route.prototype.handle = function`: a method of Route
            parts = [p for p in parts if p != "prototype"]
            is_method = True
        if parts in (["module", "exports"], ["exports"]):  # the module itself: the function's own name
            parts = [self._own_name(value)]
        elif parts[:2] == ["module", "exports"]:
            parts = parts[2:]
        elif parts[0] == "exports" and len(parts) > 1:
            parts = parts[1:]
        elif parts[0] in ("this", "self") and len(parts) > 1:
            if self.spec.python_style:
                return None  # `self.x = lambda: ...` is state, not a definition a reader calls
            # `this.f = function` belongs to the enclosing class, or to the constructor function it runs in
            home = next((s for s in reversed(self.stack) if s.kind == "class"), parent.owner)
            parent, parts = home, parts[1:]  # type: ignore[assignment]
            is_method = True
        self.claimed.add(value.id)
        if kind == "namespace":  # an object literal: its members are `name.member` (functions, not methods)
            scope = _Scope(".".join(p for p in (parent.qualified, *parts) if p), "object", depth, None)
            scope.owner = parent.owner
            return scope
        return self._unit(node, value, parent, depth, kind, parts[-1], tuple(parts[:-1]), is_method)

    def _own_name(self, value: Node) -> str:
        """What a module exports as itself is called: the function's or class's own name, else `default`."""
        own = value.child_by_field_name("name")
        return _node_text(self.source, own) if own is not None else "default"

    def _named_value(self, node: Node) -> tuple[Node | None, Node | None, str]:
        """(name node, value, what it defines: "function" | "class" | "namespace") of a definition by value;
        a None value when it defines nothing (`x = 1`), a None name for `export default`."""
        spec = self.spec
        name_field, value_field = spec.value_definitions[node.type]
        if node.type == "assignment_statement":  # Lua: `a, b = x, y` holds its names and values in two lists
            names = [c for c in node.named_children if c.type == "variable_list"]
            values = [c for c in node.named_children if c.type == "expression_list"]
            if not names or not values:
                return None, None, ""
            name_node = names[0].child_by_field_name(name_field)
            value = values[0].child_by_field_name(value_field)
        else:
            name_node = node.child_by_field_name(name_field) if name_field else None
            value = node.child_by_field_name(value_field)
        if value is None or (name_node is None and name_field):
            return None, None, ""
        while value.type == "parenthesized_expression" and value.named_child_count == 1:  # `(function () {}())`
            value = value.named_children[0]
        if value.type == "binary_expression":  # `setfenv = setfenv or function (f, t) ... end`, `a || function`
            right = value.child_by_field_name("right")
            if right is not None and right.type in spec.function_values:
                value = right
        if value.type in spec.function_values:
            return name_node, value, "function"
        if value.type in spec.class_values:
            return name_node, value, "class"
        if value.type in spec.object_values:
            return name_node, value, "namespace"
        if value.type in spec.call_values and self._defines_by_call(value):
            return name_node, value, "function"
        return None, None, ""

    def _defines_by_call(self, call: Node) -> bool:
        """`(function () {...})()` runs a function literal; `make(function () {...})` is handed one."""
        callee = call.child_by_field_name(self.spec.calls.get(call.type) or "function")
        while callee is not None and callee.type == "parenthesized_expression" and callee.named_child_count == 1:
            callee = callee.named_children[0]
        if callee is not None and callee.type in self.spec.function_values:
            return True
        arguments = call.child_by_field_name("arguments")
        return arguments is not None and any(c.type in self.spec.function_values for c in arguments.named_children)

    def _target(self, name_node: Node) -> list[str] | None:
        """The parts of the name a value is assigned to (`a.b.c`, `a["b"]`, `{ "k": ... }`, `a[key]` with the
        run-time key kept as `[key]`); None for anything else (`const { a } = ...`, `f().x`)."""
        text = "".join(_node_text(self.source, name_node).split())
        literal = literal_name(name_node.type, text)
        if literal is not None:
            return [literal]
        keys: list[str] = []  # a["b c"] -> a, "b c": a quoted key is a part whatever it holds

        def keep(match: re.Match) -> str:
            keys.append(match.group(2))
            return f".\0{len(keys) - 1}"

        text = re.sub(r"""\[(['"])(.*?)\1\]""", keep, text)
        computed = re.fullmatch(r"(.+?)(\[[^\[\]]+\])", text)  # `_.prototype[name] = function`: a name
        tail = [computed.group(2)] if computed else []             # known only at run time, kept as `[name]`
        parts = re.split(r"[.:]", computed.group(1) if computed else text)
        if not all(_IDENTIFIER.fullmatch(part) or part.startswith("\0") for part in parts):
            return None
        return [keys[int(part[1:])] if part.startswith("\0") else part for part in parts] + tail

    def _unit(self, node: Node, holder: Node, parent: _Scope, depth: int, kind: str, name: str,
              prefix_parts: tuple[str, ...], is_method: bool) -> _Scope:
        prefix = ".".join(p for p in (parent.qualified, *prefix_parts) if p)
        qualified = (f"{prefix}{name}" if name.startswith("[") else f"{prefix}.{name}") if prefix else name
        if kind not in _UNIT_KINDS:
            scope = _Scope(qualified, kind, depth, None)
            scope.owner = parent.owner
            return scope
        unit_type = kind
        if kind == "function" and (is_method or parent.kind in ("class", "impl")):
            unit_type = "method"
        anchor = self._anchor(node)
        body = holder.child_by_field_name("body")
        self.units.append(
            dict(
                name=name,
                qualified_name=qualified,
                unit_type=unit_type,
                signature=self._signature(node, holder, body),
                docstring=self._docstring(anchor, body),
                content=_node_text(self.source, anchor),
                start_line=anchor.start_point.row + 1,
                end_line=_end_line(anchor),
                bases=self._bases(node) if kind == "class" else (),
            )
        )
        self.flavours.append(flavour(node))
        self.branches.append(0)
        scope = _Scope(qualified, kind, depth, len(self.units) - 1)
        scope.owner = scope
        return scope

    def _name(self, node: Node, name_node: Node | None) -> tuple[str, tuple[str, ...], bool] | None:
        """(name, extra qualifier parts, is a method) or None for anonymous definitions."""
        kind = node.type
        if kind == "impl_item":  # Rust: impl<T> path::Type<T>, impl<'a> Trait for &'a mut Type -> "Type"
            type_node = node.child_by_field_name("type")
            if type_node is None:
                return None
            text = re.sub(r"<.*", "", _node_text(self.source, type_node), flags=re.DOTALL)
            text = _RUST_TYPE_PREFIX.sub("", text.strip())
            return text.rsplit("::", 1)[-1].strip(), (), False
        if name_node is None:
            return None
        text = "".join(_node_text(self.source, name_node).split())
        if kind == "method_declaration" and node.child_by_field_name("receiver") is not None:  # Go
            receiver = _IDENTIFIER.findall(re.sub(r"\[.*", "", self._receiver_type(node)))
            return text, tuple(receiver[-1:]), True
        if kind == "type_spec":  # Go: only structs and interfaces are class units
            type_node = node.child_by_field_name("type")
            if type_node is None or type_node.type not in ("struct_type", "interface_type"):
                return None
        literal = literal_name(name_node.type, text)  # `[Symbol.iterator]() {}`, `"quoted name"() {}`
        if literal is not None:
            return literal, (), False
        if name_node.type in ("dot_index_expression", "method_index_expression"):  # Lua: a.b.c / M:m
            parts = re.split(r"[.:]", text)
            return parts[-1], tuple(parts[:-1]), ":" in text
        return text, (), False

    def _receiver_type(self, node: Node) -> str:
        receiver = node.child_by_field_name("receiver")
        for parameter in receiver.named_children if receiver is not None else ():
            type_node = parameter.child_by_field_name("type")
            if type_node is not None:
                return _node_text(self.source, type_node)
        return ""

    def _anchor(self, node: Node) -> Node:
        """The node whose text is the definition's content: with decorators, `export`, `const x =`."""
        wrappers, skip = self.spec.wrappers, self.spec.comments | {"decorator"}
        anchor = node
        while anchor.parent is not None and anchor.parent.type in wrappers:
            parent = anchor.parent
            if parent.type != "decorated_definition":
                if sum(1 for c in parent.named_children if c.type not in skip) != 1:
                    break
            anchor = parent
        return anchor

    def _signature(self, node: Node, holder: Node, body: Node | None) -> str:
        start, current = node.start_byte, node
        while current.parent is not None and current.parent.type in _DECLARATION_WRAPPERS:
            current = current.parent
            start = current.start_byte  # `const f = (...) =>`, Go `type T struct`
        if body is not None:
            end = body.start_byte
            if self.spec.python_style:
                colons = [c for c in node.children if c.type == ":" and c.end_byte <= end]
                end = colons[-1].start_byte if colons else end
            return _collapse(_text(self.source, start, end), SIGNATURE_MAX_CHARS)
        end = node.end_byte
        if node.child_count and node.children[-1].type == "end":  # Lua `function f() end`
            end = node.children[-1].start_byte
        text = _text(self.source, start, end)
        brace = text.find("{")
        return _collapse(text[:brace] if brace > 0 else text, SIGNATURE_MAX_CHARS).rstrip(";").rstrip()

    def _docstring(self, anchor: Node, body: Node | None) -> str:
        if self.spec.python_style:
            return _python_docstring(body, self.source)
        return _preceding_comments(anchor, self.source, self.spec)

    def _file_comment(self, root: Node) -> str:
        """Non-Python module docstring: the file's leading comment block, unless it documents the first definition."""
        first = root.children[0] if root.child_count else None
        if first is None or first.type not in self.spec.comments:
            return ""
        node = first
        while node.next_sibling is not None and node.next_sibling.type in self.spec.comments:
            if node.next_sibling.start_point.row > _end_line(node):  # a blank line ends the block
                break
            node = node.next_sibling
        following = node.next_sibling
        if following is not None and following.start_point.row <= _end_line(node):  # no blank line: a doc comment
            if self._anchor_of_definition(following):
                return ""
        comments, current = [], first
        while True:
            comments.append(_clean_comment(_node_text(self.source, current)))
            if current == node:
                break
            current = current.next_sibling  # type: ignore[assignment]
        return _cleandoc(comments)

    def _anchor_of_definition(self, node: Node) -> bool:
        """Whether `node` is (or wraps) a definition, so that a comment right above it documents it."""
        spec, pending = self.spec, [node]
        while pending:
            current = pending.pop()
            if current.type in spec.definitions:
                return True
            if current.type in spec.value_definitions and self._named_value(current)[2] in _UNIT_KINDS:
                return True
            if current.type in spec.wrappers:
                pending.extend(current.named_children)
        return False

    def _bases(self, node: Node) -> tuple[str, ...]:
        if not self.spec.python_style:
            return ()
        arguments = node.child_by_field_name("superclasses")
        if arguments is None:
            return ()
        return tuple(
            " ".join(_node_text(self.source, c).split())
            for c in arguments.named_children
            if c.type not in ("keyword_argument", "comment", "dictionary_splat", "list_splat")
        )

    # -- calls --

    def _call(self, node: Node, field_name: str, owner: _Scope) -> None:
        if field_name:
            callee_node = node.child_by_field_name(field_name)
            if callee_node is None or callee_node.type in self.spec.function_values:
                return
            if callee_node.type == "generic_function":  # Rust `parse::<T>(x)`: the function without its turbofish
                callee_node = callee_node.child_by_field_name("function") or callee_node
            if callee_node.type == "parenthesized_expression":
                return
            start, end = callee_node.start_byte, callee_node.end_byte
        else:  # Java method_invocation: `a.b(x)` -> text before the arguments
            arguments = node.child_by_field_name("arguments")
            start, end = node.start_byte, arguments.start_byte if arguments is not None else node.end_byte
        if end - start > CALLEE_MAX_CHARS * 4:
            return
        callee = "".join(_text(self.source, start, end).split())[:CALLEE_MAX_CHARS]
        names = _IDENTIFIER.findall(callee)
        if not names:
            return
        caller = self.units[owner.unit]["qualified_name"]  # type: ignore[index]
        self.parsed.calls.append(CallSite(caller=caller, callee=callee, name=names[-1], line=node.start_point.row + 1))
