"""What a JavaScript or TypeScript file imports and exports: the facts that resolve its calls across files.

One walk over the file's top level records, in a small JSON-able form that the index stores with the file
(code_files.flow, as Python's flow facts):

- `imports`: [local name, specifier path, imported name, line]: `import d from './a'` (name "default"),
  `import { x as y } from './a'`, `import * as ns from './a'` and `const m = require('./a')` (name "": the
  module itself), `const { a, b: c } = require('./a')`, `const f = require('./a').f`;
- `exports`: [exported name, local name]: `export function f`, `export const f = ...`, `export class C`,
  `export { a as b }`, `export default function g` / `class` / an identifier (exported "default"),
  `module.exports = f` or `= function named() {}` ("default"), `module.exports = { a, b: c }`,
  `exports.x = ...` and `module.exports.x = ...`;
- `reexports`: [exported name, specifier path, imported name]: `export { x as y } from './b'`,
  `export { default as Foo } from './foo'`; `stars`: the paths of `export * from './b'`;
- `bases`: class -> the name it extends;
- `instances`: variable -> the class it is made from (`const q = new QueryBuilder()`), for the variables of
  the file bound so once and to nothing else, so that `q.where()` is the class's method.

Only relative specifiers (`./`, `../`) are kept, joined to the file's folder and normalised, without their
extension: packages and Node's built-ins are outside the project. learnmem.code.jsresolve resolves them.
"""

from __future__ import annotations

import posixpath

from learnmem.code.model import Unit

_DECLARATIONS = ("function_declaration", "generator_function_declaration", "class_declaration",
                 "abstract_class_declaration", "lexical_declaration", "variable_declaration", "enum_declaration",
                 "interface_declaration", "type_alias_declaration", "module", "internal_module")


class _Facts:
    def __init__(self, source: bytes, path: str) -> None:
        self.source = source
        self.folder = posixpath.dirname(path)
        self.imports: list = []
        self.exports: list = []
        self.reexports: list = []
        self.stars: list = []
        self.bases: dict[str, str] = {}

    def text(self, node) -> str:
        return self.source[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def specifier(self, node) -> str | None:
        """A string node's relative module path, joined to this file's folder; None for a package."""
        if node is None or node.type != "string":
            return None
        value = self.text(node)[1:-1]
        if not value.startswith(("./", "../")) and value not in (".", ".."):
            return None
        joined = posixpath.normpath(posixpath.join(self.folder, value))
        return None if joined.startswith("..") else joined


def js_module_facts(root_node, source: bytes, path: str, units: list[Unit]) -> dict:
    """The imports, exports and class bases of one JavaScript/TypeScript file (see the module's docstring)."""
    facts = _Facts(source, path)
    for node in root_node.named_children:
        _top_level(facts, node)
    for node in _classes(root_node):
        name = node.child_by_field_name("name")
        heritage = next((c for c in node.named_children if c.type == "class_heritage"), None)
        if name is not None and heritage is not None:
            extends = next((c for c in heritage.named_children if c.type == "extends_clause"), heritage)
            base = extends.child_by_field_name("value") or (extends.named_children[0] if extends.named_children
                                                              else None)
            if base is not None and base.type in ("identifier", "member_expression"):
                facts.bases[facts.text(name)] = facts.text(base)
    return {"imports": facts.imports, "exports": facts.exports, "reexports": facts.reexports,
            "stars": facts.stars, "bases": facts.bases, "instances": _instances(facts, root_node)}


def _instances(facts: _Facts, root_node) -> dict[str, str]:
    """variable -> class, for the variables declared once in the file, as `new Class(...)`."""
    made: dict[str, set] = {}
    stack = [root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type != "variable_declarator":
            continue
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name is None or name.type != "identifier":
            continue
        while value is not None and value.type in ("await_expression", "parenthesized_expression") \
                and value.named_children:
            value = value.named_children[0]
        constructor = value.child_by_field_name("constructor") if value is not None \
            and value.type == "new_expression" else None
        made.setdefault(facts.text(name), set()).add(
            facts.text(constructor) if constructor is not None and constructor.type in ("identifier",
                                                                                         "member_expression")
            else None)
    return {name: next(iter(classes)) for name, classes in made.items() if len(classes) == 1 and None not in classes}


def _classes(root_node) -> list:
    found, stack = [], [root_node]
    while stack:
        node = stack.pop()
        if node.type in ("class_declaration", "abstract_class_declaration", "class"):
            found.append(node)
        stack.extend(node.named_children)
    return found


def _top_level(facts: _Facts, node) -> None:
    kind = node.type
    if kind == "import_statement":
        _import(facts, node)
    elif kind == "export_statement":
        _export(facts, node)
    elif kind in ("lexical_declaration", "variable_declaration"):
        for declarator in node.named_children:
            if declarator.type == "variable_declarator":
                _require(facts, declarator)
    elif kind == "expression_statement" and node.named_children:
        expression = node.named_children[0]
        if expression.type == "assignment_expression":
            _commonjs_export(facts, expression)


def _import(facts: _Facts, node) -> None:
    path = facts.specifier(node.child_by_field_name("source"))
    line = node.start_point[0] + 1
    clause = next((c for c in node.named_children if c.type == "import_clause"), None)
    if path is None or clause is None:
        return
    for part in clause.named_children:
        if part.type == "identifier":
            facts.imports.append([facts.text(part), path, "default", line])
        elif part.type == "namespace_import":
            local = next((c for c in part.named_children if c.type == "identifier"), None)
            if local is not None:
                facts.imports.append([facts.text(local), path, "", line])
        elif part.type == "named_imports":
            for specifier in part.named_children:
                if specifier.type == "import_specifier":
                    name = specifier.child_by_field_name("name")
                    alias = specifier.child_by_field_name("alias") or name
                    facts.imports.append([facts.text(alias), path, facts.text(name), line])


def _require(facts: _Facts, declarator) -> None:
    """`const m = require('./a')`, `const { a, b: c } = require('./a')`, `const f = require('./a').f`."""
    name, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
    if name is None or value is None:
        return
    attribute = ""
    if value.type == "member_expression":
        attribute = facts.text(value.child_by_field_name("property"))
        value = value.child_by_field_name("object")
    if value is None or value.type != "call_expression":
        return
    function, arguments = value.child_by_field_name("function"), value.child_by_field_name("arguments")
    if function is None or facts.text(function) != "require" or arguments is None or not arguments.named_children:
        return
    path = facts.specifier(arguments.named_children[0])
    if path is None:
        return
    line = declarator.start_point[0] + 1
    if name.type == "identifier":
        facts.imports.append([facts.text(name), path, attribute, line])
    elif name.type == "object_pattern" and not attribute:
        for part in name.named_children:
            if part.type == "shorthand_property_identifier_pattern":
                facts.imports.append([facts.text(part), path, facts.text(part), line])
            elif part.type == "pair_pattern":
                key, local = part.child_by_field_name("key"), part.child_by_field_name("value")
                if local is not None and local.type == "identifier":
                    facts.imports.append([facts.text(local), path, facts.text(key), line])


def _export(facts: _Facts, node) -> None:
    source = node.child_by_field_name("source")
    path = facts.specifier(source) if source is not None else None
    is_default = any(c.type == "default" for c in node.children)
    declaration = node.child_by_field_name("declaration")
    value = node.child_by_field_name("value")
    clause = next((c for c in node.named_children if c.type == "export_clause"), None)
    if source is not None:
        if path is None:
            return
        if clause is None:
            namespace = next((c for c in node.named_children if c.type == "namespace_export"), None)
            if namespace is None:
                facts.stars.append(path)
            else:
                facts.reexports.append([facts.text(namespace.named_children[-1]), path, ""])
            return
        for specifier in clause.named_children:
            name = specifier.child_by_field_name("name")
            alias = specifier.child_by_field_name("alias") or name
            facts.reexports.append([facts.text(alias), path, facts.text(name)])
        return
    if clause is not None:
        for specifier in clause.named_children:
            name = specifier.child_by_field_name("name")
            alias = specifier.child_by_field_name("alias") or name
            facts.exports.append([facts.text(alias), facts.text(name)])
        return
    if declaration is not None:
        for name in _declared(facts, declaration):
            facts.exports.append(["default" if is_default else name, name])
        if declaration.type in ("lexical_declaration", "variable_declaration"):
            for declarator in declaration.named_children:
                if declarator.type == "variable_declarator":
                    _require(facts, declarator)
        return
    if is_default and value is not None:
        name = value.child_by_field_name("name")
        if value.type == "identifier":
            facts.exports.append(["default", facts.text(value)])
        elif name is not None:
            facts.exports.append(["default", facts.text(name)])
        else:
            facts.exports.append(["default", "default"])


def _declared(facts: _Facts, declaration) -> list[str]:
    if declaration.type in ("lexical_declaration", "variable_declaration"):
        return [facts.text(d.child_by_field_name("name")) for d in declaration.named_children
                if d.type == "variable_declarator" and d.child_by_field_name("name") is not None
                and d.child_by_field_name("name").type == "identifier"]
    name = declaration.child_by_field_name("name")
    return [facts.text(name)] if name is not None else ["default"]


def _commonjs_export(facts: _Facts, assignment) -> None:
    """`module.exports = ...`, `module.exports.x = ...`, `exports.x = ...`."""
    left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
    if left is None or right is None:
        return
    target = facts.text(left).replace(" ", "")
    if target == "module.exports":
        if right.type == "identifier":
            facts.exports.append(["default", facts.text(right)])
        elif right.type == "object":
            for part in right.named_children:
                if part.type == "shorthand_property_identifier":
                    facts.exports.append([facts.text(part), facts.text(part)])
                elif part.type == "pair":
                    key, value = part.child_by_field_name("key"), part.child_by_field_name("value")
                    local = value.child_by_field_name("name") if value is not None and value.type != "identifier" \
                        else value
                    if key is not None and local is not None:
                        facts.exports.append([facts.text(key).strip("'\""), facts.text(local)])
                elif part.type == "method_definition":
                    name = part.child_by_field_name("name")
                    facts.exports.append([facts.text(name), facts.text(name)])
        else:
            name = right.child_by_field_name("name")
            facts.exports.append(["default", facts.text(name) if name is not None else "default"])
        return
    for prefix in ("module.exports.", "exports."):
        if target.startswith(prefix) and target[len(prefix):].isidentifier():
            exported = target[len(prefix):]
            name = right.child_by_field_name("name") if right.type != "identifier" else right
            facts.exports.append([exported, facts.text(name) if name is not None else exported])
