"""Go and Java calls on typed names, fields, call results and supertypes (learnmem.code.typedvars, localresolve)."""

from __future__ import annotations

from tests.code.projects import edges, indexed


TYPED_GO = {
    "web/context.go": """
        package web

        type Context struct{ engine *Engine; handlers []*Context }

        func (c *Context) Next() {}

        func (c *Context) Run() { c.engine.handle() }

        func NewContext() (*Context, error) { return &Context{}, nil }

        func (c *Context) all() { for _, h := range c.handlers { h.Next() } }
        """,
    "web/engine.go": """
        package web

        import (
        	"bytes"

        	"example.com/web/render"
        )

        type Engine struct{ OnError func(engine string) }

        func (e *Engine) handle() {}

        func (e *Engine) find() *Context { return nil }

        func New(page render.JSON, list []Context, byName map[string]*Engine) *Engine {
        	engine := &Engine{}
        	engine.handle()
        	var ctx Context
        	ctx.Next()
        	fresh := new(Context)
        	fresh.Next()
        	page.Render()
        	list.Next()
        	byName.handle()
        	made, err := NewContext()
        	made.Next()
        	found := engine.find()
        	found.Next()
        	buf := bytes.NewBuffer(nil)
        	buf.Next(1)
        	return engine
        }

        func twice() {
        	if true {
        		x := &Engine{}
        		x.handle()
        	} else {
        		var x Context
        		x.Next()
        	}
        	c := &Context{}
        	go func() {
        		c, _ := NewContext()
        		c.Next()
        	}()
        	c.Next()
        }

        func (e *Engine) each(all []*Context, byName map[string]*Engine) {
        	for _, c := range all {
        		c.Next()
        	}
        	for _, other := range byName {
        		other.handle()
        	}
        	for i := range all {
        		i.Next()
        	}
        }
        """,
    "web/render/json.go": "package render\n\ntype JSON struct{}\n\nfunc (r JSON) Render() {}\n",
}


def test_go_calls_on_declared_names_and_fields_reach_their_type_s_method():
    found = edges(TYPED_GO)
    assert found[("web/context.go", "c.engine.handle", 7)] == ("web.engine", "Engine.handle")  # a struct field
    assert found[("web/engine.go", "engine.handle", 17)] == ("web.engine", "Engine.handle")  # `x := &T{}`
    assert found[("web/engine.go", "ctx.Next", 19)] == ("web.context", "Context.Next")  # `var x T`
    assert found[("web/engine.go", "fresh.Next", 21)] == ("web.context", "Context.Next")  # `new(T)`
    assert found[("web/engine.go", "page.Render", 22)] == ("web.render.json", "JSON.Render")  # an imported type
    assert found[("web/engine.go", "list.Next", 23)] == (None, None)  # a slice has no methods of the project's
    assert found[("web/engine.go", "byName.handle", 24)] == (None, None)  # nor has a map
    # what a function or a method of the project returns, read from its signature: `(*Context, error)`
    assert found[("web/engine.go", "made.Next", 26)] == ("web.context", "Context.Next")
    assert found[("web/engine.go", "found.Next", 28)] == ("web.context", "Context.Next")
    assert found[("web/engine.go", "buf.Next", 30)] == (None, None)  # bytes.NewBuffer is not the project's
    assert found[("web/engine.go", "x.handle", 37)] == (None, None)  # two types for one name in one function
    assert found[("web/engine.go", "x.Next", 40)] == (None, None)
    # twice declared, once `&Context{}` and once NewContext()'s: the same type, so followed
    assert found[("web/engine.go", "c.Next", 45)] == ("web.context", "Context.Next")
    assert found[("web/engine.go", "c.Next", 47)] == ("web.context", "Context.Next")
    # `for _, v := range x`: what a slice or map of the project's type holds, x a name or a field
    assert found[("web/engine.go", "c.Next", 52)] == ("web.context", "Context.Next")
    assert found[("web/engine.go", "other.handle", 55)] == ("web.engine", "Engine.handle")
    assert found[("web/engine.go", "i.Next", 58)] == (None, None)  # the index
    assert found[("web/context.go", "h.Next", 11)] == ("web.context", "Context.Next")  # a struct field's slice


TYPED_JAVA = {
    "src/a/Gson.java": """
        package a;

        public class Gson {
            public String toJson(Object o) { return ""; }

            static class Inner { void go() {} }
        }
        """,
    "src/a/Writer.java": """
        package a;

        import b.Out;
        import java.util.List;

        public class Writer {
            private final Gson gson = new Gson();
            private Out out;

            void write(Gson g, List<Gson> all, Gson[] many) {
                g.toJson(1);
                gson.toJson(2);
                this.gson.toJson(3);
                out.flush();
                all.add(g);
                var v = new Gson();
                v.toJson(4);
                Gson.Inner i = null;
                i.go();
                for (Gson each : all) {
                    each.toJson(5);
                }
                many.clone();
            }
        }
        """,
    "src/b/Out.java": "package b;\n\npublic class Out {\n    public void flush() {}\n}\n",
    "test/a/GsonTest.java": """
        package a;

        class GsonTest {
            void roundTrip() {
                Gson gson = new Gson();
                gson.toJson(1);
                Out.flush();
            }
        }
        """,
}


def test_java_calls_on_parameters_locals_and_fields_reach_their_class_s_method():
    found = edges(TYPED_JAVA)
    assert found[("src/a/Writer.java", "g.toJson", 11)] == ("src.a.Gson", "Gson.toJson")  # a parameter
    assert found[("src/a/Writer.java", "gson.toJson", 12)] == ("src.a.Gson", "Gson.toJson")  # a field
    assert found[("src/a/Writer.java", "this.gson.toJson", 13)] == ("src.a.Gson", "Gson.toJson")
    assert found[("src/a/Writer.java", "out.flush", 14)] == ("src.b.Out", "Out.flush")  # an imported class
    assert found[("src/a/Writer.java", "all.add", 15)] == (None, None)  # java.util.List: not the project's
    assert found[("src/a/Writer.java", "v.toJson", 17)] == ("src.a.Gson", "Gson.toJson")  # `var v = new Gson()`
    assert found[("src/a/Writer.java", "i.go", 19)] == ("src.a.Gson", "Gson.Inner.go")  # a nested class
    assert found[("src/a/Writer.java", "each.toJson", 21)] == ("src.a.Gson", "Gson.toJson")  # a for-each variable
    assert found[("src/a/Writer.java", "many.clone", 23)] == (None, None)  # an array
    # a test of package `a` in another folder sees the package's classes without an import, not other packages'
    assert found[("test/a/GsonTest.java", "Gson", 5)] == ("src.a.Gson", "Gson")
    assert found[("test/a/GsonTest.java", "gson.toJson", 6)] == ("src.a.Gson", "Gson.toJson")
    assert found[("test/a/GsonTest.java", "Out.flush", 7)] == (None, None)


def test_declared_types_are_stored_and_followed_by_an_index(tmp_path):
    lm = indexed(tmp_path, {**TYPED_GO, **TYPED_JAVA}, "t")
    go = {e.line: e.callee_qualified_name for e in lm.find_callees("web.engine.New", project="t")}
    java = {e.line: e.callee_qualified_name for e in lm.find_callees("src.a.Writer.Writer.write", project="t")}
    other_folder = {e.line: e.callee_qualified_name
                    for e in lm.find_callees("test.a.GsonTest.GsonTest.roundTrip", project="t")}
    lm.close()
    assert (go[17], go[19], go[22], go[26], go[30]) == ("Engine.handle", "Context.Next", "JSON.Render",
                                                         "Context.Next", None)
    assert (java[12], java[14], java[19]) == ("Gson.toJson", "Out.flush", "Gson.Inner.go")
    assert other_folder == {5: "Gson", 6: "Gson.toJson", 7: None}  # the package declared, stored with the file


INHERITED = {
    "src/a/Base.java": """
        package a;

        public abstract class Base {
            protected void bind(Object o) {}
            public String describe() { return ""; }
        }
        """,
    "src/a/Module.java": """
        package a;

        public class Module extends Base implements Named {
            void configure() {
                bind(1);
                this.bind(2);
                name();
            }

            static class Cache {
                void update() { new Always(); }
            }

            static class Always extends Cache {}
        }
        """,
    "src/a/Named.java": "package a;\n\npublic interface Named {\n    default String name() { return \"\"; }\n}\n",
    "src/a/Use.java": """
        package a;

        class Use {
            void run(Module m) {
                m.describe();
                m.configure();
                m.missing();
            }
        }
        """,
    "web/group.go": """
        package web

        type Group struct{ prefix string }

        func (g *Group) GET(path string) {}
        """,
    "web/engine.go": """
        package web

        type Engine struct {
        	*Group
        	trees int
        }

        func (e *Engine) Run() { e.GET("/") }

        func serve() {
        	engine := &Engine{}
        	engine.GET("/")
        	engine.Missing()
        }
        """,
}


def test_methods_of_java_supertypes_and_go_embedded_structs_are_reached():
    found = edges(INHERITED)
    assert found[("src/a/Module.java", "bind", 5)] == ("src.a.Base", "Base.bind")  # implicit `this`, a superclass
    assert found[("src/a/Module.java", "this.bind", 6)] == ("src.a.Base", "Base.bind")
    assert found[("src/a/Module.java", "name", 7)] == ("src.a.Named", "Named.name")  # an interface's default
    # an enclosing class's member class comes before what a supertype has: the constructor of `Module.Always`
    assert found[("src/a/Module.java", "Always", 11)] == ("src.a.Module", "Module.Always")
    assert found[("src/a/Use.java", "m.describe", 5)] == ("src.a.Base", "Base.describe")
    assert found[("src/a/Use.java", "m.configure", 6)] == ("src.a.Module", "Module.configure")
    assert found[("src/a/Use.java", "m.missing", 7)] == (None, None)
    assert found[("web/engine.go", "e.GET", 8)] == ("web.group", "Group.GET")  # an embedded struct's, receiver
    assert found[("web/engine.go", "engine.GET", 12)] == ("web.group", "Group.GET")
    assert found[("web/engine.go", "engine.Missing", 13)] == (None, None)


def test_supertypes_are_stored_and_followed_by_an_index(tmp_path):
    lm = indexed(tmp_path, INHERITED, "i")
    java = {e.line: e.callee_qualified_name for e in lm.find_callees("src.a.Module.Module.configure", project="i")}
    go = {e.line: e.callee_qualified_name for e in lm.find_callees("web.engine.serve", project="i")}
    lm.close()
    assert java == {5: "Base.bind", 6: "Base.bind", 7: "Named.name"}
    assert go[12] == "Group.GET" and go[13] is None
