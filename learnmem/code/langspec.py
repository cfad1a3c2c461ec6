"""Per-language tree-sitter node types that `parse.py` walks: one table, no logic.

Node type names are those of the grammars bundled by tree-sitter-language-pack 0.13.0.
Definition kinds:
  "function"  a function unit; "method" when its enclosing scope is a "class" or an "impl"
  "class"     a class unit (also interfaces, structs, enums, traits); functions inside are methods
  "impl"      not a unit, but names the scope of the functions inside (Rust `impl Type`): `Type.method`
  "namespace" not a unit, but qualifies names inside (Rust `mod m`: `m.f`, TypeScript `namespace N`)

A definition by value (`value_definitions`) names what it holds: `const f = () => {}`, `app.use = function
() {}`, `{ pad: function () {} }`, Lua `M.f = function () end`, Python `square = lambda x: ...`. The value
decides what it is: a function literal (`function_values`) makes a function, a class expression
(`class_values`) a class, an object or table literal (`object_values`) a namespace for its members, and in
JavaScript a call that runs a function literal (`(function () {...})()`) or is handed one
(`createCompounder(function () {...})`) a function (`call_values`, JavaScript and Lua).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class LangSpec:
    definitions: Mapping[str, str]  # node type -> definition kind (see module docstring)
    branches: frozenset[str]  # node types that each add 1 to cyclomatic complexity
    # node type -> operator tokens that make it a decision point (binary_expression -> {"&&", "||"})
    bool_ops: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # node type -> text its source must start with to count (Java `switch_label`: "case", not "default")
    branch_prefix: Mapping[str, str] = field(default_factory=dict)
    # call node type -> field holding the callee; "" = the text before the "arguments" field
    calls: Mapping[str, str] = field(default_factory=dict)
    comments: frozenset[str] = frozenset()  # comment node types (doc comments precede a definition)
    doc_skip: frozenset[str] = frozenset()  # siblings allowed between a doc comment and its definition
    # parents that belong to a definition: decorators, `export`, `const x = ...`, Go `type (...)`
    wrappers: frozenset[str] = frozenset()
    # definitions by value (see the module docstring): node type -> (name field, value field); a name field
    # of "" names the value `default` (`export default class {}`)
    value_definitions: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    function_values: frozenset[str] = frozenset()  # function literal node types (arrow_function, ...)
    class_values: frozenset[str] = frozenset()  # class expression node types
    object_values: frozenset[str] = frozenset()  # object / table literal node types
    call_values: frozenset[str] = frozenset()  # call node types that define by value (JavaScript, Lua)
    python_style: bool = False  # docstring = first string statement; header ends at ":"; class bases


def _m(**kwargs: str) -> Mapping[str, str]:
    return MappingProxyType(dict(kwargs))


_AND_OR = frozenset({"&&", "||"})
_C_COMMENTS = frozenset({"comment"})

PYTHON = LangSpec(
    definitions=_m(function_definition="function", class_definition="class"),
    branches=frozenset(
        {
            "if_statement",
            "elif_clause",
            "for_statement",
            "while_statement",
            "except_clause",
            "case_clause",
            "conditional_expression",
            "boolean_operator",
            "for_in_clause",
            "if_clause",
        }
    ),
    comments=frozenset({"comment"}),
    wrappers=frozenset({"decorated_definition"}),
    value_definitions=MappingProxyType({"assignment": ("left", "right")}),
    function_values=frozenset({"lambda"}),
    python_style=True,
)

_JS_DEFINITIONS = {
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "method_definition": "function",
    "class_declaration": "class",
    "class": "class",
    # named function expressions passed or returned (`settle(function _resolve() {})`); anonymous ones
    # and those a value definition names are not definitions of their own
    "function_expression": "function",
    "function": "function",
    "generator_function": "function",
}
_JS_BRANCHES = frozenset(
    {
        "if_statement",
        "for_statement",
        "for_in_statement",
        "while_statement",
        "do_statement",
        "switch_case",
        "catch_clause",
        "ternary_expression",
    }
)
_JS_COMMON = dict(
    branches=_JS_BRANCHES,
    bool_ops=MappingProxyType({"binary_expression": frozenset({"&&", "||", "??"})}),
    calls=_m(call_expression="function", new_expression="constructor"),
    comments=_C_COMMENTS,
    wrappers=frozenset({"export_statement", "lexical_declaration", "variable_declaration", "expression_statement"}),
    value_definitions=MappingProxyType(
        {
            "variable_declarator": ("name", "value"),
            "public_field_definition": ("name", "value"),
            "field_definition": ("property", "value"),
            "assignment_expression": ("left", "right"),
            "pair": ("key", "value"),
            "export_statement": ("", "value"),
        }
    ),
    function_values=frozenset({"arrow_function", "function_expression", "function", "generator_function"}),
    class_values=frozenset({"class"}),
    object_values=frozenset({"object"}),
    call_values=frozenset({"call_expression"}),
)

JAVASCRIPT = LangSpec(definitions=MappingProxyType(_JS_DEFINITIONS), **_JS_COMMON)
TYPESCRIPT = LangSpec(
    definitions=MappingProxyType(
        {
            **_JS_DEFINITIONS,
            "abstract_class_declaration": "class",
            "interface_declaration": "class",
            "enum_declaration": "class",
            # declarations without a body: an interface's methods, `declare function`, overloads, .d.ts files
            "method_signature": "function",
            "abstract_method_signature": "function",
            "function_signature": "function",
            "internal_module": "namespace",
            "module": "namespace",
        }
    ),
    **_JS_COMMON,
)

GO = LangSpec(
    # method_elem: a method an interface declares (`type Binding interface { Bind(*http.Request, any) error }`),
    # a unit like a Rust trait's `fn draw(&self);` or a Java interface's `void on();`
    definitions=_m(
        function_declaration="function", method_declaration="function", type_spec="class", method_elem="function"
    ),
    branches=frozenset(
        {"if_statement", "for_statement", "expression_case", "type_case", "communication_case"}
    ),
    bool_ops=MappingProxyType({"binary_expression": _AND_OR}),
    calls=_m(call_expression="function"),
    comments=_C_COMMENTS,
    wrappers=frozenset({"type_declaration"}),
    function_values=frozenset({"func_literal"}),
)

RUST = LangSpec(
    definitions=_m(
        function_item="function",
        function_signature_item="function",
        struct_item="class",
        enum_item="class",
        union_item="class",
        trait_item="class",
        impl_item="impl",
        mod_item="namespace",
    ),
    branches=frozenset({"if_expression", "for_expression", "while_expression", "match_arm"}),
    bool_ops=MappingProxyType({"binary_expression": _AND_OR}),
    calls=_m(call_expression="function"),
    comments=frozenset({"line_comment", "block_comment"}),
    doc_skip=frozenset({"attribute_item"}),
    function_values=frozenset({"closure_expression"}),
)

JAVA = LangSpec(
    definitions=_m(
        class_declaration="class",
        interface_declaration="class",
        enum_declaration="class",
        record_declaration="class",
        annotation_type_declaration="class",
        method_declaration="function",
        constructor_declaration="function",
        compact_constructor_declaration="function",
        annotation_type_element_declaration="function",  # `@interface H { int size() default 5; }`
    ),
    branches=frozenset(
        {
            "if_statement",
            "for_statement",
            "enhanced_for_statement",
            "while_statement",
            "do_statement",
            "catch_clause",
            "ternary_expression",
            "switch_label",
        }
    ),
    branch_prefix=_m(switch_label="case"),
    bool_ops=MappingProxyType({"binary_expression": _AND_OR}),
    calls=_m(method_invocation="", object_creation_expression="type"),
    comments=frozenset({"line_comment", "block_comment"}),
)

LUA = LangSpec(
    definitions=_m(function_declaration="function"),
    # `M.f = function () end`, `local f = function () end` (names and values are in lists), table fields
    value_definitions=MappingProxyType({"assignment_statement": ("name", "value"), "field": ("name", "value")}),
    function_values=frozenset({"function_definition"}),
    object_values=frozenset({"table_constructor"}),
    call_values=frozenset({"function_call"}),  # `local f = lume.fn(function (a, b) ... end, 10)`
    wrappers=frozenset({"variable_declaration"}),
    branches=frozenset(
        {"if_statement", "elseif_statement", "for_statement", "while_statement", "repeat_statement"}
    ),
    bool_ops=MappingProxyType({"binary_expression": frozenset({"and", "or"})}),
    calls=_m(function_call="name"),
    comments=_C_COMMENTS,
)

SPECS: Mapping[str, LangSpec] = MappingProxyType(
    {
        "python": PYTHON,
        "javascript": JAVASCRIPT,
        "typescript": TYPESCRIPT,
        "tsx": TYPESCRIPT,
        "go": GO,
        "rust": RUST,
        "java": JAVA,
        "lua": LUA,
    }
)

# Languages whose units are their top-level keys.
CONFIG_LANGUAGES = frozenset({"yaml", "json"})
