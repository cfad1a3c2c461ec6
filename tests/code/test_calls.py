"""The Python call graph: call sites and imports (pycalls), resolution across a project (resolve)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from tree_sitter_language_pack import get_parser

from learnmem.code.model import Import, ParsedFile, Unit
from learnmem.code.pycalls import python_calls_and_imports
from learnmem.code.resolve import Edge, resolve_calls

_PARSER = get_parser("python")


# ---------------------------------------------------------------- helpers


def _units(root, source: bytes) -> list[Unit]:
    """Minimal def/class units (independent of parse.py): names, spans, types, bases."""
    units = [Unit("mod", "", "module", "", "", "", 1, root.end_point[0] + 1, 1)]

    def visit(node, prefix: tuple[str, ...], in_class: bool) -> None:
        for child in node.children:
            if child.type in ("function_definition", "class_definition"):
                name = child.child_by_field_name("name").text.decode()
                qualified = prefix + (name,)
                is_class = child.type == "class_definition"
                bases: tuple[str, ...] = ()
                superclasses = child.child_by_field_name("superclasses")
                if superclasses is not None:
                    bases = tuple(c.text.decode() for c in superclasses.named_children)
                unit_type = (
                    "class" if is_class else ("method" if in_class else "function")
                )
                units.append(
                    Unit(
                        name,
                        ".".join(qualified),
                        unit_type,
                        "",
                        "",
                        "",
                        child.start_point[0] + 1,
                        child.end_point[0] + 1,
                        1,
                        bases,
                    )
                )
                visit(child.child_by_field_name("body"), qualified, is_class)
            else:
                visit(child, prefix, in_class)

    visit(root, (), False)
    return units


def _module_of(path: str) -> tuple[str, bool]:
    parts = path[: -len(".py")].split("/")
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def parse(path: str, text: str) -> ParsedFile:
    source = textwrap.dedent(text).encode()
    root = _PARSER.parse(source).root_node
    module, is_package = _module_of(path)
    units = _units(root, source)
    calls, imports = python_calls_and_imports(root, source, units, module, is_package)
    return ParsedFile(path, "python", module, units, calls, imports)


def project(files: dict[str, str]) -> list[ParsedFile]:
    return [parse(path, text) for path, text in files.items()]


def edges(files: dict[str, str]) -> set[tuple]:
    """(caller module, caller, callee as written, callee module, callee qualified name)."""
    return {
        (
            e.caller_module,
            e.caller_qualified_name,
            e.callee_name,
            e.callee_module,
            e.callee_qualified_name,
        )
        for e in resolve_calls(project(files))
    }


# ---------------------------------------------------------------- pycalls


def test_call_sites_callers_and_callee_texts():
    parsed = parse(
        "m.py",
        """\
        import os
        print("top")
        @decorate(1)
        def f(x=default()):
            g()
            self.a.b()
            super().m()
            super(C, self).n()
            x[0]()
            def inner():
                os.path.join("a")
        class C(Base):
            attr = field()
            def m(self):
                return self.n()
        """,
    )
    seen = [(c.caller, c.callee, c.name, c.line) for c in parsed.calls]
    assert seen == [
        ("", "print", "print", 2),
        (
            "",
            "decorate",
            "decorate",
            3,
        ),  # decorators and defaults run in the enclosing scope
        ("", "default", "default", 4),
        ("f", "g", "g", 5),
        ("f", "self.a.b", "b", 6),
        ("f", "super().m", "m", 7),
        ("f", "super().n", "n", 8),
        ("f", "x[0]", "", 9),
        ("f.inner", "os.path.join", "join", 11),
        ("C", "field", "field", 13),
        ("C.m", "self.n", "n", 15),
    ]


def test_receiver_types_follow_assignments_in_the_same_scope():
    parsed = parse(
        "m.py",
        """\
        x = Foo(1)
        x.run()
        def f():
            x.run()
            y = mod.Bar()
            y.go()
            y = make()  # recorded: resolve.py checks it names a class
            y.go()
            for z in items:
                pass
            z = Baz()
            for z in items:
                z.go()
        """,
    )
    seen = [
        (c.callee, c.receiver_type)
        for c in parsed.calls
        if c.callee.endswith((".run", ".go"))
    ]
    assert seen == [
        ("x.run", "Foo"),
        ("x.run", ""),
        ("y.go", "mod.Bar"),
        ("y.go", "make"),
        ("z.go", "?"),
    ]


def test_imports_absolute_relative_aliased_and_local():
    parsed = parse(
        "pkg/sub/mod.py",
        """\
        import a.b as c
        import d.e
        from . import x
        from .. import y as yy
        from .sib import (f, g as h)
        from m import *
        def fn():
            from ..other import k
        """,
    )
    assert parsed.imports == [
        Import("c", "a.b", "", 1),
        Import("d", "d", "", 2),
        Import("d.e", "d.e", "", 2),
        Import("x", "pkg.sub", "x", 3),
        Import("yy", "pkg", "y", 4),
        Import("f", "pkg.sub.sib", "f", 5),
        Import("h", "pkg.sub.sib", "g", 5),
        Import("*", "m", "*", 6),
        Import("k", "pkg.other", "k", 8),
    ]
    init = parse("pkg/__init__.py", "from . import x\nfrom .core import y\n")
    assert init.imports == [Import("x", "pkg", "x", 1), Import("y", "pkg.core", "y", 2)]


# ---------------------------------------------------------------- resolution


def test_same_scope_nested_and_module_level_calls():
    got = edges(
        {
            "app.py": """\
        def helper():
            pass
        def outer():
            def inner():
                helper()
            inner()
            return len([])
        outer()
        """
        }
    )
    assert got == {
        ("app", "outer.inner", "helper", "app", "helper"),
        ("app", "outer", "inner", "app", "outer.inner"),
        ("app", "outer", "len", None, None),  # builtins stay unresolved
        ("app", "", "outer", "app", "outer"),
    }


def test_same_named_functions_in_two_modules_are_not_confused():
    got = edges(
        {
            "a.py": "def load():\n    pass\ndef run():\n    load()\n",
            "b.py": "def load():\n    pass\ndef run():\n    load()\n",
            "c.py": "from b import load\ndef go():\n    load()\n",
            "d.py": "def go():\n    load()\n",  # no import: a bare name must not match another module
        }
    )
    assert got == {
        ("a", "run", "load", "a", "load"),
        ("b", "run", "load", "b", "load"),
        ("c", "go", "load", "b", "load"),
        ("d", "go", "load", None, None),
    }


def test_imports_aliases_relative_and_init_reexports():
    got = edges(
        {
            "pkg/__init__.py": "from .core import load\nfrom . import util\n",
            "pkg/core.py": "def load():\n    pass\n",
            "pkg/util.py": "def tidy():\n    pass\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/deep.py": """\
            from .. import load as ld
            from ..util import tidy
            def run():
                ld()
                tidy()
            """,
            "main.py": """\
            import pkg
            import pkg.core as pc
            import pkg.util
            from pkg import load, util as u
            import json
            def main():
                pkg.load()
                pc.load()
                pkg.util.tidy()
                load()
                u.tidy()
                json.dumps({})
            """,
        }
    )
    assert got == {
        ("pkg.sub.deep", "run", "ld", "pkg.core", "load"),
        ("pkg.sub.deep", "run", "tidy", "pkg.util", "tidy"),
        ("main", "main", "pkg.load", "pkg.core", "load"),
        ("main", "main", "pc.load", "pkg.core", "load"),
        ("main", "main", "pkg.util.tidy", "pkg.util", "tidy"),
        ("main", "main", "load", "pkg.core", "load"),
        ("main", "main", "u.tidy", "pkg.util", "tidy"),
        ("main", "main", "json.dumps", None, None),
    }


def test_self_cls_super_and_inheritance_across_modules():
    got = edges(
        {
            "base.py": """\
            class Base:
                def __init__(self):
                    self.setup()
                def setup(self):
                    pass
                def save(self):
                    pass
            """,
            "child.py": """\
            from base import Base
            class Child(Base):
                def __init__(self):
                    super().__init__()
                    self.save()
                    self.missing()
                def setup(self):
                    super().setup()
                @classmethod
                def make(cls):
                    return cls.build()
                @classmethod
                def build(cls):
                    return cls()
            """,
        }
    )
    assert got == {
        ("base", "Base.__init__", "self.setup", "base", "Base.setup"),
        ("child", "Child.__init__", "super().__init__", "base", "Base.__init__"),
        ("child", "Child.__init__", "self.save", "base", "Base.save"),
        ("child", "Child.__init__", "self.missing", None, None),
        ("child", "Child.setup", "super().setup", "base", "Base.setup"),
        ("child", "Child.make", "cls.build", "child", "Child.build"),
        (
            "child",
            "Child.build",
            "cls",
            None,
            None,
        ),  # cls() alone: the subclass is unknown
    }


def test_external_bases_stop_method_lookup_before_later_bases():
    got = edges(
        {
            "m.py": """\
            from abc import ABC
            class Mixin:
                def get(self):
                    pass
            class A(dict, Mixin):
                def f(self):
                    self.get()
            class B(Mixin, dict):
                def f(self):
                    self.get()
            class C(ABC, Mixin):
                def f(self):
                    self.get()
            class E(Exception):
                pass
            E()
            """,
        }
    )
    assert got == {
        ("m", "A.f", "self.get", None, None),  # dict.get comes first in the MRO
        ("m", "B.f", "self.get", "m", "Mixin.get"),
        ("m", "C.f", "self.get", "m", "Mixin.get"),
        ("m", "", "E", "m", "E"),
    }


def test_constructors_and_methods_on_local_objects():
    got = edges(
        {
            "shapes.py": """\
            class WithInit:
                def __init__(self):
                    pass
                def area(self):
                    pass
            class NoInit:
                def area(self):
                    pass
            class Derived(WithInit):
                pass
            """,
            "use.py": """\
            import shapes
            from shapes import NoInit
            def build():
                a = shapes.WithInit()
                b = NoInit()
                c = shapes.Derived()
                a.area()
                b.area()
                c.area()
                b.nothing()
            """,
        }
    )
    assert got == {
        ("use", "build", "shapes.WithInit", "shapes", "WithInit.__init__"),
        ("use", "build", "NoInit", "shapes", "NoInit"),
        ("use", "build", "shapes.Derived", "shapes", "WithInit.__init__"),
        ("use", "build", "a.area", "shapes", "WithInit.area"),
        ("use", "build", "b.area", "shapes", "NoInit.area"),
        ("use", "build", "c.area", "shapes", "WithInit.area"),
        ("use", "build", "b.nothing", None, None),
    }


def test_local_imports_shadowing_and_ambiguity_stay_conservative():
    got = edges(
        {
            "lib.py": "def f():\n    pass\n",
            "other.py": "def f():\n    pass\n",
            "app.py": """\
            from other import f
            def local_import():
                from lib import f
                f()
            def uses_module_level():
                f()
            try:
                from lib import g
            except ImportError:
                from other import g
            g()
            """,
        }
    )
    assert got == {
        ("app", "local_import", "f", "lib", "f"),
        ("app", "uses_module_level", "f", "other", "f"),
        (
            "app",
            "",
            "g",
            None,
            None,
        ),  # bound to two different things: unknowable statically
    }


def test_parameters_and_local_variables_shadow_defs_and_imports():
    got = edges(
        {
            "pkg/__init__.py": "",
            "pkg/config.py": "def get():\n    pass\ndef load():\n    pass\n",
            "app.py": """\
            from pkg import config
            def callback():
                pass
            def run(callback, items):
                callback()
                config.get()
                for config in items:
                    config.get()
            def other():
                config = config.load()
                config.get()
            def again():
                config.get()
            """,
        }
    )
    assert got == {
        ("app", "run", "callback", None, None),  # the parameter, not the module's def
        ("app", "run", "config.get", "pkg.config", "get"),
        ("app", "run", "config.get", None, None),  # after the loop rebound it
        (
            "app",
            "other",
            "config.load",
            "pkg.config",
            "load",
        ),  # seen before the binding (sequential)
        ("app", "other", "config.get", None, None),
        ("app", "again", "config.get", "pkg.config", "get"),
    }


def test_star_imports_and_class_body_scoping():
    got = edges(
        {
            "tools.py": "def helper():\n    pass\ndef _private():\n    pass\n",
            "app.py": """\
            from tools import *
            class K:
                def m(self):
                    pass
                def n(self):
                    m()
                    helper()
                    _private()
            """,
        }
    )
    assert got == {
        (
            "app",
            "K.n",
            "m",
            None,
            None,
        ),  # class attributes are not in scope inside methods
        ("app", "K.n", "helper", "tools", "helper"),
        ("app", "K.n", "_private", None, None),
    }


def test_unresolved_edges_keep_the_callee_and_null_columns():
    (edge,) = resolve_calls([parse("x.py", "unknown.thing(1)\n")])
    assert edge == Edge("x", "", None, None, "unknown.thing", "x.py", 1)


# ---------------------------------------------------------------- a real package


def _real_package(name: str) -> list[ParsedFile]:
    site = next(
        Path(__file__).resolve().parents[2].glob(".venv/lib/python3*/site-packages"),
        None,
    )
    if site is None or not (site / name).is_dir():
        pytest.skip(f"{name} not installed in .venv")
    files = []
    for path in sorted((site / name).rglob("*.py")):
        relative = path.relative_to(site).as_posix()
        files.append(parse(relative, path.read_text(encoding="utf-8")))
    return files


@pytest.mark.parametrize("package", ["filelock", "mcp"])
def test_real_package_edges_point_at_existing_units(package):
    files = _real_package(package)
    units = {(f.module, u.qualified_name): u for f in files for u in f.units}
    found = resolve_calls(files)
    resolved = [e for e in found if e.callee_module is not None]
    assert found and resolved
    for edge in resolved:
        assert (edge.callee_module, edge.callee_qualified_name) in units, edge
        assert (edge.caller_module, edge.caller_qualified_name) in units, edge
        # The unit has the name the call was written with, unless it is a constructor or an alias.
        callee = units[(edge.callee_module, edge.callee_qualified_name)]
        written = edge.callee_name.rpartition(".")[2]
        is_constructor = callee.name == "__init__" or callee.unit_type == "class"
        assert (
            callee.name == written or is_constructor or "." not in edge.callee_name
        ), edge
    print(
        f"{package}: {len(resolved)}/{len(found)} call sites resolved ({len(resolved) / len(found):.0%})"
    )
