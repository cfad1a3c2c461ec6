"""Calls of Go, Java, Rust and Lua resolved by what the caller's file, package or imports give (learnmem.code.localresolve)."""

from __future__ import annotations

from tests.code.projects import edges, indexed


GO_PACKAGE = {
    "router/group.go": """
        package router

        type Group struct{ prefix string }

        func (g *Group) Handle(path string) {
        	g.combine(path)
        	full := join(g.prefix, path)
        	other.combine(full)
        }

        func (grp Group) combine(p string) string { return grp.trim(p) }

        func (Group) trim(p string) string { return p }
        """,
    "router/util.go": """
        package router

        func join(a, b string) string { return a + b }

        func setup() { join("a", "b"); render.JSON() }
        """,
    "router/os_linux.go": "package router\n\nfunc home() string { return \"/\" }\n",
    "router/os_darwin.go": "package router\n\nfunc home() string { return \"/Users\" }\n",
    "router/use.go": "package router\n\nfunc root() string { return home() }\n",
    "other/util.go": "package other\n\nfunc elsewhere() { join(\"a\", \"b\") }\n",
}


def test_go_calls_through_any_receiver_name_and_across_the_files_of_a_package():
    found = edges(GO_PACKAGE)
    # the receiver is `g` in one method and `grp` in another: both are the Group
    assert found[("router/group.go", "g.combine", 6)] == ("router.group", "Group.combine")
    assert found[("router/group.go", "grp.trim", 11)] == ("router.group", "Group.trim")
    assert found[("router/group.go", "join", 7)] == ("router.util", "join")  # another file of the package
    assert found[("router/group.go", "other.combine", 8)] == (None, None)  # not the receiver
    assert found[("router/util.go", "render.JSON", 5)] == (None, None)  # another package: imports are not read
    assert found[("router/use.go", "home", 3)] == (None, None)  # one per build target: which is unknown
    assert found[("other/util.go", "join", 3)] == (None, None)  # another folder is another package


def test_java_implicit_this_nested_classes_constructors_and_the_package():
    found = edges({
        "src/a/Thing.java": """
            package a;

            public class Thing {
                int count(int x) { return helper(x) + this.helper(x) + Util.twice(x); }
                private int helper(int x) { return x; }
                Thing() { Listener l = new Listener(); Other o = new Other(); }
                static class Listener {
                    Listener() {}
                    void on() { helper(1); off(); }
                    void off() {}
                }
            }
            """,
        "src/a/Util.java": "package a;\n\nclass Util {\n    static int twice(int x) { return x * 2; }\n}\n",
        "src/a/Other.java": "package a;\n\nclass Other {}\n",
    })
    assert found[("src/a/Thing.java", "helper", 4)] == ("src.a.Thing", "Thing.helper")
    assert found[("src/a/Thing.java", "this.helper", 4)] == ("src.a.Thing", "Thing.helper")
    assert found[("src/a/Thing.java", "Util.twice", 4)] == ("src.a.Util", "Util.twice")  # same package
    assert found[("src/a/Thing.java", "Listener", 6)] == ("src.a.Thing", "Thing.Listener.Listener")  # constructor
    assert found[("src/a/Thing.java", "Other", 6)] == ("src.a.Other", "Other")  # no constructor: the class
    # inside the nested class: its own method first, then the enclosing class's
    assert found[("src/a/Thing.java", "off", 9)] == ("src.a.Thing", "Thing.Listener.off")
    assert found[("src/a/Thing.java", "helper", 9)] == ("src.a.Thing", "Thing.helper")


def test_rust_self_and_type_paths_and_lua_module_tables_resolve_in_their_file():
    found = edges({
        "src/geo.rs": """
            struct Point { x: i32 }

            impl Point {
                fn new() -> Self { Point { x: 0 } }
                fn origin() -> Self { Self::new() }
                fn twin() -> Self { Point::new() }
            }

            fn make() -> Point { Point::new(); std::mem::take(&mut 1); Vec::new() }
            """,
        "lua/m.lua": """
            local M = {}
            function M.util() return 1 end
            function M:scale(n) return n end
            function M.run() return M.util() + string.len("a") + M:scale(2) end
            return M
            """,
    })
    assert found[("src/geo.rs", "Self::new", 5)] == ("src.geo", "Point.new")
    assert found[("src/geo.rs", "Point::new", 6)] == ("src.geo", "Point.new")
    assert found[("src/geo.rs", "Point::new", 9)] == ("src.geo", "Point.new")
    assert found[("src/geo.rs", "std::mem::take", 9)] == (None, None)
    assert found[("src/geo.rs", "Vec::new", 9)] == (None, None)
    assert found[("lua/m.lua", "M.util", 4)] == ("lua.m", "M.util")
    assert found[("lua/m.lua", "M:scale", 4)] == ("lua.m", "M.scale")
    assert found[("lua/m.lua", "string.len", 4)] == (None, None)


def test_an_index_stores_the_same_go_edges_as_resolving_the_parsed_files(tmp_path):
    """The indexer resolves from what it stored, not from the parse: the receiver must survive the round trip."""
    lm = indexed(tmp_path, GO_PACKAGE, "router")
    stored = {(e.callee_name, e.line): (e.callee_module, e.callee_qualified_name)
              for e in lm.find_callees("router.group.Group.Handle", project="router")}
    lm.close()
    assert stored == {("combine", 6): ("router.group", "Group.combine"), ("join", 7): ("router.util", "join"),
                      ("combine", 8): (None, None)}  # `g.combine` and `other.combine`, as find_callees names them


def test_go_imports_of_the_project_s_own_packages_reach_them_and_nothing_else():
    found = edges({
        "gin.go": """
            package gin

            import (
            	"encoding/json"
            	"github.com/acme/gin/binding"
            	b2 "github.com/acme/gin/internal/json"
            )

            func New() { binding.Default(); b2.Marshal(); json.Marshal(); binding.Missing() }
            """,
        "binding/binding.go": "package binding\n\nfunc Default() {}\n",
        "internal/json/json.go": "package json\n\nfunc Marshal() {}\n",
        "json/json.go": "package json\n\nfunc Marshal() {}\n",  # a folder named like the standard library's
        "binding/use_test.go": """
            package binding_test

            import "github.com/acme/gin"

            func TestNew() { gin.New() }
            """,
    })
    assert found[("gin.go", "binding.Default", 9)] == ("binding.binding", "Default")
    assert found[("gin.go", "b2.Marshal", 9)] == ("internal.json.json", "Marshal")  # an alias
    assert found[("gin.go", "json.Marshal", 9)] == (None, None)  # encoding/json is not the project's json/
    assert found[("gin.go", "binding.Missing", 9)] == (None, None)
    # the module's own path, as its imports spell it, names the root package
    assert found[("binding/use_test.go", "gin.New", 5)] == ("gin", "New")


def test_java_imports_of_classes_and_static_members_reach_their_files():
    found = edges({
        "src/main/java/a/app/Main.java": """
            package a.app;

            import a.util.Strings;
            import static a.util.Checks.checkNotNull;
            import java.util.List;
            import a.model.*;

            class Main {
                void run() { Strings.trim("x"); new Strings(); checkNotNull(this); List.of(); new Thing(); }
            }
            """,
        "src/main/java/a/util/Strings.java": """
            package a.util;

            public class Strings {
                public Strings() {}
                public static String trim(String s) { return s; }
            }
            """,
        "src/main/java/a/util/Checks.java": "package a.util;\n\npublic class Checks {\n"
                                            "    public static <T> T checkNotNull(T t) { return t; }\n}\n",
        "src/main/java/a/model/Thing.java": "package a.model;\n\npublic class Thing {}\n",
    })
    main = "src/main/java/a/app/Main.java"
    assert found[(main, "Strings.trim", 9)] == ("src.main.java.a.util.Strings", "Strings.trim")
    assert found[(main, "Strings", 9)] == ("src.main.java.a.util.Strings", "Strings.Strings")  # the constructor
    assert found[(main, "checkNotNull", 9)] == ("src.main.java.a.util.Checks", "Checks.checkNotNull")  # static
    assert found[(main, "List.of", 9)] == (None, None)  # the JDK
    assert found[(main, "Thing", 9)] == (None, None)  # a wildcard import names no class


RUST_CRATE = {
    "Cargo.toml": "[package]\nname = \"shapes\"\n",
    "src/lib.rs": """
        pub mod geo;
        mod util;
        pub use crate::geo::Point;
        pub use util::*;

        pub fn parse(s: &str) -> Point { Point::new() }
        """,
    "src/geo/mod.rs": """
        mod convert;

        pub struct Point { x: i32 }

        impl Point {
            pub fn new() -> Point { Point { x: 0 } }
        }

        pub struct Writer;

        impl Writer {
            fn write(&self) {}
        }

        impl<'a> std::io::Write for &'a mut Writer {
            fn flush(&mut self) { self.write() }
        }
        """,
    "src/geo/convert.rs": """
        use super::Point;

        impl From<i32> for Point {
            fn from(x: i32) -> Point { Point::new() }
        }
        """,
    "src/util.rs": """
        pub fn round(x: f64) -> f64 { x }
        """,
    "src/draw.rs": """
        use crate::geo::{self, Point as P};
        use super::parse as read;
        use serde::Serialize;

        fn draw() {
            P::new();
            geo::Point::new();
            read("1");
            crate::parse("2");
            crate::round(1.0);
            Point::from(3);
            str::parse::<u8>("4");
            Serialize::serialize();
            geo::missing();
        }
        """,
    "tests/api.rs": """
        use shapes::{parse, Point};
        use shapes::geo;

        #[test]
        fn it_parses() {
            parse("1");
            Point::new();
            geo::Point::from(1);
            shapes::round(2.0);
        }
        """,
}


def test_rust_use_paths_crate_super_self_and_the_crate_s_own_name_reach_their_files():
    found = edges({path: code for path, code in RUST_CRATE.items() if path.endswith(".rs")})
    assert found[("src/lib.rs", "Point::new", 6)] == ("src.geo.mod", "Point.new")  # a `pub use` in the root file
    assert found[("src/geo/convert.rs", "Point::new", 4)] == ("src.geo.mod", "Point.new")  # `use super::Point`
    # `impl Trait for &'a mut Writer` names its methods `Writer.m`, so `self.write()` reaches `Writer.write`
    assert found[("src/geo/mod.rs", "self.write", 16)] == ("src.geo.mod", "Writer.write")
    assert found[("src/draw.rs", "P::new", 6)] == ("src.geo.mod", "Point.new")  # imported under another name
    assert found[("src/draw.rs", "geo::Point::new", 7)] == ("src.geo.mod", "Point.new")  # `{self}`: the module
    assert found[("src/draw.rs", "read", 8)] == ("src.lib", "parse")  # `super::` of a file below the root
    assert found[("src/draw.rs", "crate::parse", 9)] == ("src.lib", "parse")
    assert found[("src/draw.rs", "crate::round", 10)] == ("src.util", "round")  # through `pub use util::*`
    assert found[("src/draw.rs", "Point::from", 11)] == (None, None)  # `Point` is not imported in draw.rs
    assert found[("src/draw.rs", "str::parse", 12)] == (None, None)  # the turbofish is no part of the name
    assert found[("src/draw.rs", "Serialize::serialize", 13)] == (None, None)  # another crate
    assert found[("src/draw.rs", "geo::missing", 14)] == (None, None)
    # tests/ is a crate of its own, using this one by the name its `use` paths agree on
    assert found[("tests/api.rs", "parse", 6)] == ("src.lib", "parse")
    assert found[("tests/api.rs", "Point::new", 7)] == ("src.geo.mod", "Point.new")
    # the crate's one `Point` has its one `from` in another file of the crate (`impl From<i32> for Point`)
    assert found[("tests/api.rs", "geo::Point::from", 8)] == ("src.geo.convert", "Point.from")
    assert found[("tests/api.rs", "shapes::round", 9)] == ("src.util", "round")


def test_rust_and_lua_imports_are_stored_and_followed_by_an_index(tmp_path):
    lm = indexed(tmp_path, {**RUST_CRATE, **LUA_PROJECT}, "p")
    rust = {e.line: (e.callee_module, e.callee_qualified_name) for e in lm.find_callees("tests.api.it_parses", project="p")}
    lua = {(e.callee_module, e.callee_qualified_name) for e in lm.find_callees("lua.app.App.run", project="p")}
    lm.close()
    assert rust == {6: ("src.lib", "parse"), 7: ("src.geo.mod", "Point.new"), 8: ("src.geo.convert", "Point.from"),
                    9: ("src.util", "round")}
    assert lua == {("lua.mylib.util", "M.split"), ("lua.mylib.path.init", "Path.new"),
                   ("lua.mylib.path.init", "Path.join"), (None, None)}


LUA_PROJECT = {
    "lua/mylib/util.lua": """
        local M = {}
        function M.split(s) return s end
        return M
        """,
    "lua/mylib/path/init.lua": """
        local Path = {}
        function Path:new(s) return s end
        function Path.join(a, b) return a .. b end
        return Path
        """,
    "lua/a/log.lua": "local L = {}\nfunction L.write() end\nreturn L\n",
    "lua/b/log.lua": "local L = {}\nfunction L.write() end\nreturn L\n",
    "lua/app.lua": """
        local util = require("mylib.util")
        local Path = require "mylib.path"
        local log = require("log")
        local App = {}
        function App.run() util.split("a")
            return Path:new("b"), Path.join("c", "d"), log.write(), util.missing(), string.len("e")
        end
        return App
        """,
}


def test_lua_require_reaches_the_module_s_file_and_the_table_it_returns():
    found = edges(LUA_PROJECT)
    assert found[("lua/app.lua", "util.split", 5)] == ("lua.mylib.util", "M.split")  # the file's table is `M`
    assert found[("lua/app.lua", "Path:new", 6)] == ("lua.mylib.path.init", "Path.new")  # `path/init.lua`
    assert found[("lua/app.lua", "Path.join", 6)] == ("lua.mylib.path.init", "Path.join")
    assert found[("lua/app.lua", "log.write", 6)] == (None, None)  # two files are `log`: which is unknown
    assert found[("lua/app.lua", "util.missing", 6)] == (None, None)
    assert found[("lua/app.lua", "string.len", 6)] == (None, None)
