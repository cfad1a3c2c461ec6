"""Calls of Go, Java, Rust and Lua resolved by what the caller's file, package or imports give (learnmem.code.localresolve)."""

from __future__ import annotations

import textwrap

import learnmem
from learnmem.code.indexer import _parse
from learnmem.code.resolve import resolve_calls
from learnmem.embedding.embed import HashingEmbedder


def edges(files: dict[str, str]) -> dict[tuple[str, str, int], tuple[str | None, str | None]]:
    """(file, callee as written, line) -> (callee module, callee qualified name) over a project of sources."""
    parsed = [_parse(path, textwrap.dedent(code).lstrip("\n").encode()) for path, code in files.items()]
    return {(e.file_path, e.callee_name, e.line): (e.callee_module, e.callee_qualified_name)
            for e in resolve_calls(parsed)}


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
    for relative, text in GO_PACKAGE.items():
        path = tmp_path / "tree" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    lm = learnmem.open(tmp_path / "a.duckdb", embedder=HashingEmbedder())
    lm.index_codebase(tmp_path / "tree", project="router", progress=False)
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
