"""learnmem.code.parse / languages: real tree-sitter grammars on small realistic snippets."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from learnmem.code.languages import (
    LANGUAGES,
    is_probably_binary,
    language_of,
    module_path,
)
from learnmem.code.parse import MAX_PARSE_BYTES, parse_source


def parse(path: str, code: str, language: str | None = None):
    language = language or language_of(path)
    assert language is not None
    return parse_source(path, textwrap.dedent(code).lstrip("\n").encode(), language)


def by_qualified(parsed):
    return {u.qualified_name: u for u in parsed.units}


# --- languages.py -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("a/b.py", "python"),
        ("x.ts", "typescript"),
        ("x.d.ts", "typescript"),
        ("X.TSX", "tsx"),
        ("x.js", "javascript"),
        ("x.mjs", "javascript"),
        ("x.cjs", "javascript"),
        ("x.jsx", "javascript"),
        ("x.lua", "lua"),
        ("x.yaml", "yaml"),
        ("x.yml", "yaml"),
        ("x.json", "json"),
        ("x.go", "go"),
        ("x.rs", "rust"),
        ("x.java", "java"),
        ("README.md", None),
        ("Makefile", None),
        (".py", None),
        ("archive.tar.gz", None),
    ],
)
def test_language_of(path, language):
    assert language_of(path) == language


def test_every_language_has_a_parser():
    from tree_sitter_language_pack import get_parser

    for language in set(LANGUAGES.values()):
        assert get_parser(language) is not None


@pytest.mark.parametrize(
    ("path", "language", "module"),
    [
        ("pkg/sub/mod.py", "python", "pkg.sub.mod"),
        ("pkg/__init__.py", "python", "pkg"),
        ("__init__.py", "python", ""),
        ("./setup.py", "python", "setup"),
        ("pkg\\win\\mod.py", "python", "pkg.win.mod"),
        ("src/app/index.ts", "typescript", "src.app.index"),
        ("src/types.d.ts", "typescript", "src.types"),
        ("web/App.tsx", "tsx", "web.App"),
        ("lib/util.mjs", "javascript", "lib.util"),
        ("cmd/srv/main.go", "go", "cmd.srv.main"),
        ("src/lib.rs", "rust", "src.lib"),
        ("conf/app.yaml", "yaml", "conf.app"),
    ],
)
def test_module_path(path, language, module):
    assert module_path(path, language) == module


def test_is_probably_binary():
    assert is_probably_binary(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert not is_probably_binary("def f():\n    return 'é'\n".encode())
    assert not is_probably_binary(b"")
    assert not is_probably_binary(b"a" * 8192 + b"\x00")  # only the first 8 KiB are looked at


# --- Python -----------------------------------------------------------------------------------------

PYTHON = '''
"""Configuration loading."""
import os


@dataclass(frozen=True)
class Config(Base, pkg.Mixin, metaclass=Meta):
    """A config.

        Indented detail.
    """

    def load(self, path: str) -> "Config":  # trailing comment
        """Load it."""
        if path and os.path.exists(path) or self.force:
            return [line for line in open(path) if line]
        elif path is None:
            pass

        def helper(x):
            while x:
                x -= 1
            return x

        return helper(1) if path else None


def main(argv=None):
    try:
        Config().load(argv[0])
    except (IndexError, KeyError):
        return 2
    match argv:
        case []:
            return 1
        case _:
            return 0


if __name__ == "__main__":
    main()
'''


def test_python_units():
    parsed = parse("pkg/config.py", PYTHON)
    assert parsed.language == "python" and parsed.module == "pkg.config"
    assert parsed.syntax_errors == 0
    assert [u.qualified_name for u in parsed.units] == ["", "Config", "Config.load", "Config.load.helper", "main"]
    units = by_qualified(parsed)

    module = parsed.units[0]
    assert (module.name, module.unit_type, module.start_line) == ("config", "module", 1)
    assert module.end_line == len(textwrap.dedent(PYTHON).lstrip("\n").splitlines())
    assert module.docstring == "Configuration loading."
    assert module.content.startswith('"""Configuration loading."""')
    assert module.complexity == 2  # the `if __name__` at top level only

    config = units["Config"]
    assert config.unit_type == "class"
    assert config.start_line == 5  # the decorator line
    assert config.content.startswith("@dataclass(frozen=True)\nclass Config")
    assert config.signature == "class Config(Base, pkg.Mixin, metaclass=Meta)"
    assert config.bases == ("Base", "pkg.Mixin")
    assert config.docstring == "A config.\n\nIndented detail."
    assert config.complexity == 1

    load = units["Config.load"]
    assert (load.name, load.unit_type) == ("load", "method")
    assert load.signature == 'def load(self, path: str) -> "Config"'
    assert load.docstring == "Load it."
    assert (load.start_line, load.end_line) == (12, 24)
    # if, and, or, comprehension for, comprehension if, elif, conditional expression; not helper's while
    assert load.complexity == 8

    helper = units["Config.load.helper"]
    assert (helper.name, helper.unit_type, helper.complexity) == ("helper", "function", 2)
    assert helper.docstring == ""

    main = units["main"]
    assert main.complexity == 4  # except + two case clauses
    assert main.signature == "def main(argv=None)"
    assert parsed.calls == [] and parsed.imports == []  # Python's come from pycalls.py


def test_python_package_init_is_named_after_the_package():
    parsed = parse("pkg/sub/__init__.py", "x = 1\n")
    assert parsed.module == "pkg.sub"
    assert parsed.units[0].name == "sub"
    assert parsed.units[0].docstring == ""


# --- TypeScript / JavaScript ------------------------------------------------------------------------

TYPESCRIPT = """
// Services for the app.

/**
 * Base service.
 * Does things.
 */
export class Service extends Base {
  // Load it.
  async load(path: string): Promise<void> {
    if (path && this.ok || retry) {
      this.fetch(path);
    }
    return path ? ok : fail;
  }
  static make = (n: number) => new Service(n);
}

/** Handles requests. */
export const handler = async (req: Request) => {
  for (const x of req.items) {
    helper(x);
  }
};

function helper(x: number) {
  function inner() { return 1; }
  return [x].map((y) => y ?? inner());
}

interface Shape { area(): number }

helper(1);
"""


def test_typescript_units_and_calls():
    parsed = parse("src/app/index.ts", TYPESCRIPT)
    assert parsed.module == "src.app.index" and parsed.syntax_errors == 0
    units = by_qualified(parsed)
    assert list(units) == ["", "Service", "Service.load", "Service.make", "handler", "helper", "helper.inner", "Shape",
                           "Shape.area"]  # an interface's method signatures are its methods
    assert parsed.units[0].name == "index"
    assert parsed.units[0].docstring == "Services for the app."

    service = units["Service"]
    assert service.unit_type == "class"
    assert service.signature == "class Service extends Base"
    assert service.docstring == "Base service.\nDoes things."
    assert (service.start_line, service.end_line) == (7, 16)
    assert service.content.startswith("export class Service")

    load = units["Service.load"]
    assert load.unit_type == "method"
    assert load.signature == "async load(path: string): Promise<void>"
    assert load.docstring == "Load it."
    assert load.complexity == 5  # if, &&, ||, ?:

    assert units["Service.make"].unit_type == "method"
    handler = units["handler"]
    assert handler.unit_type == "function"
    assert handler.signature == "const handler = async (req: Request) =>"
    assert handler.docstring == "Handles requests."
    assert handler.complexity == 2
    assert units["helper"].complexity == 2  # ?? inside the arrow callback; inner() is its own unit
    assert units["helper.inner"].unit_type == "function"
    assert units["Shape"].unit_type == "class"

    calls = {(c.caller, c.callee, c.name, c.line) for c in parsed.calls}
    assert ("Service.load", "this.fetch", "fetch", 11) in calls
    assert ("Service.make", "Service", "Service", 15) in calls  # `new Service(n)`
    assert ("handler", "helper", "helper", 21) in calls
    assert ("helper", "[x].map", "map", 27) in calls
    assert ("helper", "inner", "inner", 27) in calls
    assert ("", "helper", "helper", 32) in calls


def test_tsx_and_javascript():
    tsx = parse("web/App.tsx", """
        export function App({ items }: Props) {
          return <ul>{items.map((i) => <li key={i}>{format(i)}</li>)}</ul>;
        }
    """)
    assert tsx.syntax_errors == 0
    assert [u.qualified_name for u in tsx.units] == ["", "App"]
    assert {c.callee for c in tsx.calls} == {"items.map", "format"}

    js = parse("lib/util.js", """
        module.exports = { run };
        /** Runs. */
        function run(a, b) {
          const o = { k() { return a || b; } };
          return o.k();
        }
        class A { constructor() { this.x = run(1, 2); } }
    """)
    units = by_qualified(js)
    assert list(units) == ["", "run", "run.o.k", "A", "A.constructor"]
    assert units["run"].docstring == "Runs."
    assert units["run.o.k"].unit_type == "function"  # an object literal's method is not a class method
    assert units["run.o.k"].complexity == 2
    assert units["A.constructor"].unit_type == "method"
    assert {(c.caller, c.callee) for c in js.calls} == {("run", "o.k"), ("A.constructor", "run")}


# --- Go, Rust, Java, Lua ----------------------------------------------------------------------------

GO = """
// Package srv serves requests.
package srv

// Srv is a server.
type Srv struct {
	Addr string
}

type ID int

// Run runs the server.
// It blocks.
func (s *Srv) Run(port int) error {
	if port > 0 && s.Addr != "" {
		log.Printf("port %d", port)
	}
	switch port {
	case 80:
	case 443:
	default:
	}
	return nil
}

func New[T any](x T) *Srv {
	return &Srv{}
}

// Binder binds requests.
type Binder interface {
	fmt.Stringer
	// Bind binds one.
	Bind(*http.Request, any) error
}
"""


def test_go():
    parsed = parse("cmd/srv/srv.go", GO)
    assert parsed.module == "cmd.srv.srv" and parsed.syntax_errors == 0
    units = by_qualified(parsed)
    assert list(units) == ["", "Srv", "Srv.Run", "New", "Binder", "Binder.Bind"]
    assert parsed.units[0].docstring == "Package srv serves requests."
    assert units["Srv"].unit_type == "class"
    assert units["Srv"].signature == "type Srv struct"
    assert units["Srv"].docstring == "Srv is a server."
    run = units["Srv.Run"]
    assert (run.name, run.unit_type) == ("Run", "method")
    assert run.signature == "func (s *Srv) Run(port int) error"
    assert run.docstring == "Run runs the server.\nIt blocks."
    assert (run.start_line, run.end_line) == (13, 23)
    assert run.complexity == 5  # if, &&, two cases
    assert units["New"].signature == "func New[T any](x T) *Srv"
    bind = units["Binder.Bind"]  # what an interface declares is a method of it, as in Rust traits and Java
    assert (bind.unit_type, bind.signature, bind.docstring) == ("method", "Bind(*http.Request, any) error", "Bind binds one.")
    assert (bind.start_line, bind.end_line) == (33, 33)
    assert [(c.caller, c.callee, c.name, c.line) for c in parsed.calls] == [("Srv.Run", "log.Printf", "Printf", 15)]


RUST = """
//! Geometry.

/// A point.
#[derive(Debug, Clone)]
pub struct Point {
    x: i32,
}

impl<T> Shape<T> for Point {
    /// Area of it.
    fn area(&self) -> i32 {
        match self.x {
            0 => 1,
            _ => if a || b { 2 } else { 3 },
        }
    }
}

mod tests {
    fn helper() {
        std::mem::drop(Point::new());
    }
}

trait Draw {
    fn draw(&self) -> bool;
}
"""


def test_rust():
    parsed = parse("src/geo.rs", RUST)
    assert parsed.syntax_errors == 0
    units = by_qualified(parsed)
    assert list(units) == ["", "Point", "Point.area", "tests.helper", "Draw", "Draw.draw"]
    assert parsed.units[0].docstring == "Geometry."
    assert units["Point"].docstring == "A point."  # across the attribute
    assert units["Point"].signature == "pub struct Point"
    area = units["Point.area"]
    assert area.unit_type == "method"
    assert area.signature == "fn area(&self) -> i32"
    assert area.docstring == "Area of it."
    assert area.complexity == 5  # two arms, if, ||
    assert units["tests.helper"].unit_type == "function"
    assert units["Draw.draw"].signature == "fn draw(&self) -> bool"
    calls = [(c.caller, c.callee, c.name) for c in parsed.calls]
    assert calls == [("tests.helper", "std::mem::drop", "drop"), ("tests.helper", "Point::new", "new")]


JAVA = """
package a.b;

/**
 * A thing.
 */
@Entity
public class Thing extends Base implements Runnable {
    // Counts.
    @Override
    public int count(int x) throws IOException {
        switch (x) { case 1: break; default: }
        try { repo.save(x); } catch (IOException e) { log(e); }
        return x > 0 && ok ? 1 : new Counter().next();
    }

    Thing() { super(); }

    interface Listener { void on(); }

    @interface Limit { int size() default 5; }
}
"""


def test_java():
    parsed = parse("src/a/b/Thing.java", JAVA)
    assert parsed.syntax_errors == 0
    units = by_qualified(parsed)
    assert list(units) == ["", "Thing", "Thing.count", "Thing.Thing", "Thing.Listener", "Thing.Listener.on",
                          "Thing.Limit", "Thing.Limit.size"]
    thing = units["Thing"]
    assert thing.docstring == "A thing."
    assert thing.signature == "@Entity public class Thing extends Base implements Runnable"
    assert thing.start_line == 6
    count = units["Thing.count"]
    assert count.unit_type == "method"
    assert count.docstring == "Counts."
    assert count.signature == "@Override public int count(int x) throws IOException"
    assert count.complexity == 5  # case 1 (not default), catch, &&, ?:
    assert units["Thing.Thing"].unit_type == "method"
    assert units["Thing.Listener.on"].signature == "void on()"
    assert (units["Thing.Limit.size"].unit_type, units["Thing.Limit.size"].signature) == ("method", "int size() default 5")
    calls = {(c.caller, c.callee, c.name) for c in parsed.calls}
    assert calls == {
        ("Thing.count", "repo.save", "save"),
        ("Thing.count", "log", "log"),
        ("Thing.count", "newCounter().next", "next"),
        ("Thing.count", "Counter", "Counter"),
    }


LUA = """
-- Module M.
local M = {}

--- Adds two numbers.
local function add(a, b)
  if a and b then return a + b elseif a then return a end
  return helper(a)
end

function M.util.noop() end

function M:scale(n)
  for i = 1, n do self:grow(i) end
end

return M
"""


def test_lua():
    parsed = parse("lua/m.lua", LUA)
    assert parsed.syntax_errors == 0
    units = by_qualified(parsed)
    assert list(units) == ["", "add", "M.util.noop", "M.scale"]
    assert parsed.units[0].docstring == "Module M."
    add = units["add"]
    assert (add.unit_type, add.signature, add.docstring) == ("function", "local function add(a, b)", "Adds two numbers.")
    assert add.complexity == 4  # if, and, elseif
    assert (add.start_line, add.end_line) == (5, 8)
    assert units["M.util.noop"].name == "noop"
    assert units["M.util.noop"].signature == "function M.util.noop()"
    scale = units["M.scale"]
    assert (scale.name, scale.unit_type, scale.complexity) == ("scale", "method", 2)
    calls = {(c.caller, c.callee, c.name) for c in parsed.calls}
    assert calls == {("add", "helper", "helper"), ("M.scale", "self:grow", "grow")}


# --- YAML / JSON ------------------------------------------------------------------------------------


def test_yaml_top_level_keys():
    parsed = parse("conf/app.yaml", """
        name: app
        "services":
          web:
            port: 80
        ---
        second: doc
    """)
    assert parsed.module == "conf.app"
    assert [(u.name, u.unit_type) for u in parsed.units] == [
        ("app", "module"), ("name", "key"), ("services", "key"), ("second", "key")]
    services = parsed.units[2]
    assert services.qualified_name == "services"
    assert services.content == '"services":\n  web:\n    port: 80'
    assert (services.start_line, services.end_line) == (2, 4)
    assert parsed.calls == []


def test_json_top_level_keys():
    parsed = parse("package.json", '{\n  "name": "x",\n  "scripts": {"test": "jest"}\n}\n')
    assert [(u.qualified_name, u.unit_type) for u in parsed.units] == [
        ("", "module"), ("name", "key"), ("scripts", "key")]
    assert parsed.units[2].content == '"scripts": {"test": "jest"}'
    assert parsed.units[2].start_line == 3


# --- robustness -------------------------------------------------------------------------------------


def test_syntax_errors_are_recovered_and_counted():
    parsed = parse("broken.py", """
        def broken(:
            return 1

        class Fine:
            def ok(self):
                return 2
    """)
    assert parsed.syntax_errors >= 1
    assert "Fine.ok" in by_qualified(parsed)

    js = parse("broken.js", "function f( { if (a) }\nfunction g() { h() }\n")
    assert js.syntax_errors >= 1
    assert js.units[0].unit_type == "module"
    assert "if" not in by_qualified(js)  # recovery's invented `if() {...}` method is not a unit
    assert [c.callee for c in js.calls] == ["h"]


def test_undecodable_bytes_and_empty_files():
    parsed = parse_source("x.py", b"def f():\n    return '\xff\xfe'\n", "python")
    assert "\ufffd" in parsed.units[1].content
    empty = parse_source("e.ts", b"", "typescript")
    assert [(u.unit_type, u.start_line, u.end_line) for u in empty.units] == [("module", 1, 1)]


def test_huge_files_keep_only_the_module_unit():
    source = b"var a=1;" * (MAX_PARSE_BYTES // 8 + 10) + b"function f(){g()}"
    parsed = parse_source("dist/bundle.min.js", source, "javascript")
    assert [u.unit_type for u in parsed.units] == ["module"]
    assert parsed.calls == []


def test_deep_nesting_does_not_recurse():
    source = "x = " + "[" * 3000 + "]" * 3000 + "\n"
    parsed = parse("deep.py", source)
    assert parsed.units[0].unit_type == "module"


def test_real_third_party_files_parse():
    import json
    import logging

    files = [Path(logging.__file__), Path(json.__file__).with_name("decoder.py")]
    import tree_sitter_language_pack

    files += sorted(Path(tree_sitter_language_pack.__file__).parent.glob("*.py*"))[:5]
    for path in files:
        language = language_of(path.name)
        if language is None:
            continue
        parsed = parse_source(path.name, path.read_bytes(), language)
        assert parsed.units[0].unit_type == "module"
        for unit in parsed.units[1:]:
            assert 1 <= unit.start_line <= unit.end_line <= parsed.units[0].end_line
            assert unit.complexity >= 1 and unit.name
    assert any(u.qualified_name == "Logger.info" for u in parse_source(
        "logging/__init__.py", files[0].read_bytes(), "python").units)


def test_parse_source_with_tree_hands_back_the_tree():
    from learnmem.code.parse import parse_source_with_tree

    parsed, tree = parse_source_with_tree("m.py", b"def f():\n    g()\n", "python")
    assert tree is not None and tree.root_node.type == "module"
    assert [u.qualified_name for u in parsed.units] == ["", "f"]
    big, none = parse_source_with_tree("big.py", b"x = 1\n" * (MAX_PARSE_BYTES // 6 + 1), "python")
    assert none is None and len(big.units) == 1


# --- definitions a reader would call one (issue 23) -------------------------------------------------


def test_javascript_functions_defined_by_assignment_are_units_named_as_readers_call_them():
    units = by_qualified(parse("lib/app.js", """
        /** Mounts middleware. */
        app.use = function use(fn) { return fn; };
        req.accepts = function () { return 1; };
        Route.prototype._handles_method = function _handles_method(method) { return true; };
        exports.compileETag = function (val) { return val; };
        module.exports.parse = function (s) { return s; };
        function Counter() { this.tick = function () { return 1; }; }
    """))
    assert list(units) == ["", "app.use", "req.accepts", "Route._handles_method", "compileETag", "parse",
                           "Counter", "Counter.tick"]
    assert units["app.use"].docstring == "Mounts middleware."
    assert units["app.use"].start_line == 2 and units["app.use"].signature == "app.use = function use(fn)"
    assert units["Route._handles_method"].unit_type == "method"
    assert units["Counter.tick"].unit_type == "method"


@pytest.mark.parametrize("code, expected", [
    ("module.exports = function () { return 2; };", ["", "default"]),
    ("module.exports = function createApplication() {};", ["", "createApplication"]),
    ("exports = module.exports = function createApplication() {};", ["", "createApplication"]),
    ("export default function () {}", ["", "default"]),
    ("export default class { run() {} }", ["", "default", "default.run"]),
])
def test_what_a_module_exports_as_itself_is_named_by_its_own_name_or_default(code, expected):
    assert list(by_qualified(parse("lib/x.js", code))) == expected


def test_javascript_function_expressions_passed_returned_run_or_handed_to_a_call_are_units():
    units = by_qualified(parse("lib/x.js", """
        settle(function _resolve(value) { return value; });
        function outer() { return function wrap() { return 1; }; }
        var f = (function () { function inner() {} return inner; })();
        var camelCase = createCompounder(function (result, word) { return result + word; });
        var plain = compute(1, 2);
        items.forEach(function () {});
    """))
    assert list(units) == ["", "_resolve", "outer", "outer.wrap", "f", "f.inner", "camelCase"]
    assert units["camelCase"].start_line == 4 and units["camelCase"].unit_type == "function"


def test_object_literal_members_and_class_expressions_are_qualified_by_the_name_they_are_bound_to():
    units = by_qualified(parse("lib/x.js", """
        var obj = { trim(s) { return s; }, pad: function () {}, f: () => {}, size: 3, nested: { deep() {} } };
        const K = class { m() {} };
        const L = class Named { n() {} };
    """))
    assert list(units) == ["", "obj.trim", "obj.pad", "obj.f", "obj.nested.deep", "K", "K.m", "L", "L.n"]
    assert units["K"].unit_type == "class" and units["K.m"].unit_type == "method"


def test_qualified_names_are_unique_within_a_file_by_a_documented_rule():
    units = by_qualified(parse("lib/x.js", """
        class AxiosHeaders {
          concat() {}
          static concat() {}
          get x() { return 1; }
          set x(v) {}
          [Symbol.iterator]() {}
          ['quoted']() {}
        }
        function twice() {}
        function twice() {}
    """))
    assert list(units) == ["", "AxiosHeaders", "AxiosHeaders.concat", "AxiosHeaders.concat:static",
                           "AxiosHeaders.x", "AxiosHeaders.x:set", "AxiosHeaders.@@iterator",
                           "AxiosHeaders.quoted", "twice", "twice:2"]
    assert units["AxiosHeaders.@@iterator"].name == "@@iterator"


def test_typescript_namespaces_qualify_and_enums_are_classes():
    units = by_qualified(parse("src/geo.ts", """
        namespace Geo {
          export function area(r: number) { return r; }
          export namespace Inner { export class P {} }
        }
        enum Color { Red, Green }
    """))
    assert list(units) == ["", "Geo.area", "Geo.Inner.P", "Color"]
    assert units["Color"].unit_type == "class"


def test_lua_functions_defined_by_value_and_in_tables_are_units():
    units = by_qualified(parse("m.lua", """
        local M = {}
        local mt = { __index = function (t, k) return k end, name = "x" }
        M.f = function (a) return a end
        local g = function (b) return b end
        M.sub = { deep = function () end }
        return M
    """))
    assert list(units) == ["", "mt.__index", "M.f", "g", "M.sub.deep"]
    assert units["g"].signature == "local g = function (b)"


def test_python_lambdas_bound_to_a_name_are_units():
    units = by_qualified(parse("m.py", """
        square = lambda x: x * x
        class K:
            key = lambda self: 1
            def __init__(self):
                self.hook = lambda: 0
    """))
    assert list(units) == ["", "square", "K", "K.key", "K.__init__"]
    assert units["K.key"].unit_type == "method"


def test_a_doc_block_documents_the_next_definition_across_blank_lines():
    # mongoose leaves a blank line under each JSDoc block; JSDoc, TypeScript and Javadoc still attach it.
    source = """/**
 * Saves this document.
 *
 * @param {Object} options
 */

Model.prototype.save = async function save(options) {};

// A line comment above a blank line documents nothing.

function helper() {}

/** Finds documents. */
// Matching the filter.

Model.find = function find(conditions) {};
"""
    units = by_qualified(parse("lib/model.js", source))
    assert units["Model.save"].docstring == "Saves this document.\n\n@param {Object} options"
    assert units["helper"].docstring == ""
    assert units["Model.find"].docstring == ""  # the nearest comment is not a doc block
