"""The Python call graph follows the data (issue 23, item 2): learnmem.code.pyfacts and learnmem.code.pyflow,
through `index_codebase`, `find_callees` and `find_callers` on a real file.

One small project holds each pattern the issue names, written as libraries write it; each test asks where one
function's calls go. Beside them, what the analysis must not claim (computed getattr, eval, values of unknown
origin), and the facts surviving the store: a call graph rebuilt from what is stored (after a file is removed)
equals the one a clean index makes.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import learnmem
from learnmem.embedding.embed import HashingEmbedder

PROJECT = "flow"

FILES = {
    "app/__init__.py": """
        from .registry import register, COMMANDS
        from .util import slugify as make_slug
        """,
    "app/util.py": """
        import functools


        def slugify(text):
            return text.lower()


        def shout(text):
            return text.upper()


        def pick(loud):
            return shout if loud else slugify


        def apply(transform, text):
            return transform(text)


        def logged(fn):
            @functools.wraps(fn)
            def wrapper(*args):
                return fn(*args)
            return wrapper


        def tagged(fn):
            fn.tagged = True
            return fn
        """,
    "app/registry.py": """
        COMMANDS = {}


        def register(name):
            def decorate(fn):
                COMMANDS[name] = fn
                return fn
            return decorate


        def run(name, *args):
            return COMMANDS[name](*args)
        """,
    "app/commands.py": """
        import functools

        from app import register, make_slug
        from app.util import apply, logged, pick, shout, tagged


        @register("add")
        def add(a, b):
            return a + b


        @logged
        def greet(name):
            return "hi " + name


        @tagged
        def plain():
            return 1


        @tagged
        def other():
            return 2


        def aliases():
            s = make_slug
            t = s
            return t("A B")


        def through_parameter():
            return apply(shout, "x")


        def through_return():
            return pick(True)("x")


        def through_containers():
            steps = [make_slug, shout]
            table = {"slug": make_slug, "loud": shout}
            first = steps[0]("a")
            loud = table["loud"]("b")
            for step in steps:
                step("c")
            return first, loud


        def through_lambda():
            twice = lambda text: shout(shout(text))
            return twice("x")


        def through_partial():
            loud = functools.partial(apply, shout)
            return loud("x")


        def decorated():
            return greet("x"), plain(), add(1, 2)


        def computed(name):
            getattr(shout, name)()
            return eval("plain()")
        """,
    "app/shapes.py": """
        class Base:
            def __init__(self, scale):
                self.scale = scale

            def area(self):
                return 0

            def describe(self):
                return self.area()

            def chain(self):
                return self


        class Square(Base):
            def __init__(self, side, printer):
                super().__init__(1)
                self.side = side
                self.printer = printer

            def area(self):
                return self.side * self.side

            @property
            def label(self):
                return "square"

            @classmethod
            def unit(cls):
                return cls(1, None)

            @staticmethod
            def sides():
                return 4

            def show(self):
                return self.printer(self.label)


        class Mixin:
            def describe(self):
                return "mixed"


        class Fancy(Mixin, Square):
            pass


        def use_shapes():
            square = Square(2, print)
            square.describe()
            Square.unit().area()
            Square.sides()
            Fancy(1, None).describe()
            return square.label


        def printer_of(text):
            return text


        def fluent():
            Fancy(1, None).chain()
            return Square(1, None).chain().describe()


        def show_with_printer():
            return Square(1, printer_of).show()
        """,
}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory) -> learnmem.Learnmem:
    root = tmp_path_factory.mktemp("flow")
    tree = root / "tree"
    for relative, text in FILES.items():
        path = tree / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    lm = learnmem.open(root / "a.duckdb", embedder=HashingEmbedder())
    lm.index_codebase(tree, project=PROJECT, progress=False)
    return lm


def callees(lm: learnmem.Learnmem, unit: str) -> set[str]:
    return {f"{e.callee_module}.{e.callee_qualified_name}" for e in lm.find_callees(unit, project=PROJECT)
            if e.callee_module is not None}


@pytest.mark.parametrize(("caller", "expected"), [
    ("app.commands.aliases", {"app.util.slugify"}),  # an import alias, then two local aliases
    ("app.commands.through_parameter", {"app.util.apply"}),
    ("app.util.apply", {"app.util.shout"}),  # the parameter bound at the call site
    ("app.commands.through_return", {"app.util.pick", "app.util.shout", "app.util.slugify"}),
    ("app.commands.through_containers", {"app.util.slugify", "app.util.shout"}),
    ("app.commands.through_lambda", {"app.commands.through_lambda.twice"}),
    ("app.commands.through_lambda.twice", {"app.util.shout"}),
    ("app.commands.through_partial", {"app.util.apply"}),
    # a wrapping decorator calls its wrapper; a registering or tagging one leaves the def itself (each name its
    # own def: `tagged` returns what it is given, so plain() is not also other())
    ("app.commands.decorated", {"app.util.logged.wrapper", "app.commands.plain", "app.commands.add"}),
    ("app.util.logged.wrapper", {"app.commands.greet"}),
    ("app.registry.run", {"app.commands.add"}),  # stored in a dict by a decorator, called by key
])
def test_calls_follow_values(indexed, caller, expected):
    assert callees(indexed, caller) == expected


def test_decorators_are_called_by_the_scope_that_applies_them(indexed):
    top_level = indexed.sql("SELECT callee_module || '.' || callee_qualified_name FROM calls WHERE caller_module = "
                            "'app.commands' AND caller_qualified_name = '' AND callee_module IS NOT NULL").fetchall()
    assert {name for (name,) in top_level} == {"app.registry.register", "app.registry.register.decorate",
                                               "app.util.logged", "app.util.tagged"}


def test_classes_instances_and_the_mro(indexed):
    # Square(...) runs Square.__init__, Fancy(...) the __init__ its MRO finds (Square's); describe() inherited from
    # Base calls the instance's own area(); Fancy's MRO puts Mixin.describe first; a classmethod makes an instance
    # of cls; a property read calls its getter.
    assert callees(indexed, "app.shapes.use_shapes") == {
        "app.shapes.Square.__init__", "app.shapes.Base.describe", "app.shapes.Square.unit", "app.shapes.Square.area",
        "app.shapes.Square.sides", "app.shapes.Mixin.describe", "app.shapes.Square.label"}
    # Only Squares (and Fancies) are ever made: self.area() in Base.describe is Square.area, not Base.area.
    assert callees(indexed, "app.shapes.Base.describe") == {"app.shapes.Square.area"}
    assert callees(indexed, "app.shapes.Square.unit") == {"app.shapes.Square.__init__"}
    assert callees(indexed, "app.shapes.Square.__init__") == {"app.shapes.Base.__init__"}


def test_an_instance_attribute_set_in_init_is_followed(indexed):
    assert callees(indexed, "app.shapes.Square.show") == {"app.shapes.Square.label", "app.shapes.printer_of"}
    assert "app.shapes.Square.show" in {f"{e.caller_module}.{e.caller_qualified_name}"
                                         for e in indexed.find_callers("app.shapes.printer_of", project=PROJECT)}


def test_a_def_returning_its_parameter_gives_each_call_its_own_argument(indexed):
    # `chain` returns self: the Square's chain() is a Square, whose describe() is Base's, never the Fancy's
    # (Mixin.describe), though a Fancy reaches chain() too.
    assert callees(indexed, "app.shapes.fluent") == {"app.shapes.Square.__init__", "app.shapes.Base.chain",
                                                     "app.shapes.Base.describe"}


def test_what_cannot_be_known_is_not_claimed(indexed):
    # getattr with a computed name, and eval: neither is an edge.
    assert callees(indexed, "app.commands.computed") == set()


def test_the_flow_is_stored_with_the_files_and_a_rebuild_equals_a_clean_index(hashed_lm, tmp_path):
    """Removing a file rebuilds the graph from what is stored: the flow's edges must come back from the file
    (or lake), and equal those of a clean index of the same tree."""
    tree = tmp_path / "tree"
    for relative, text in {**FILES, "app/extra.py": "def unused():\n    return 1\n"}.items():
        path = tree / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    hashed_lm.index_codebase(tree, project=PROJECT, progress=False)
    (tree / "app/extra.py").unlink()
    hashed_lm.remove_file("app/extra.py", project=PROJECT)
    clean = learnmem.open(tmp_path / "clean.duckdb", embedder=HashingEmbedder())
    clean.index_codebase(tree, project=PROJECT, progress=False)
    query = ("SELECT caller_module, caller_qualified_name, callee_module, callee_qualified_name, line FROM calls "
             "ORDER BY ALL")
    assert hashed_lm.sql(query).fetchall() == clean.sql(query).fetchall()
    assert callees(hashed_lm, "app.registry.run") == {"app.commands.add"}


def test_a_file_nested_deeper_than_the_walks_keeps_its_units(tmp_path):
    """Generated code: an expression of 3,000 terms is deeper than the call and flow walks recurse; the index
    keeps the file's units (without its call sites) and the other files' calls."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "table.py").write_text("def f(x):\n    return x\n\n\nTOTAL = " + " + ".join(["f(1)"] * 3000) + "\n")
    (tree / "main.py").write_text("from table import f\n\n\ndef g():\n    return f(2)\n")
    lm = learnmem.open(tmp_path / "a.duckdb", embedder=HashingEmbedder())
    result = lm.index_codebase(tree, project=PROJECT, progress=False)
    assert result.files_indexed == 2 and result.files_failed == 0
    assert callees(lm, "main.g") == {"table.f"}


DYNAMIC = """
def call(fn):
    return fn()


{defs}

HANDLERS = [{names}]
for handler in HANDLERS:
    call(handler)
"""

EDGES_OF_CALL = """
import sys
import learnmem
from learnmem.embedding.embed import HashingEmbedder
lm = learnmem.open(sys.argv[1], embedder=HashingEmbedder())
lm.index_codebase(sys.argv[2], project="flow", progress=False)
print(sorted(e.callee_qualified_name for e in lm.find_callees("table.call", project="flow") if e.callee_module))
"""


def test_the_call_graph_does_not_depend_on_string_hashing(tmp_path):
    """A name holding more values than a set keeps (pyflow.MAX_VALUES) keeps the same ones in every process:
    two processes with different hash seeds index the same tree and store the same edges."""
    from learnmem.code.pyflow import MAX_VALUES

    count = MAX_VALUES + 20
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "table.py").write_text(DYNAMIC.format(
        defs="\n\n".join(f"def handler_{i}():\n    return {i}\n" for i in range(count)),
        names=", ".join(f"handler_{i}" for i in range(count))))
    runs = []
    for seed in ("1", "2", "3"):
        done = subprocess.run([sys.executable, "-c", EDGES_OF_CALL, str(tmp_path / f"{seed}.duckdb"), str(tree)],
                              capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": seed}, check=True)
        runs.append(done.stdout)
    assert len(ast.literal_eval(runs[0])) == MAX_VALUES
    assert runs[0] == runs[1] == runs[2]


def test_a_data_table_in_code_adds_no_facts_for_its_literals():
    """Libraries keep tables of literals in code (pip's vendored idna: tens of thousands of items); only the
    items the analysis follows are facts, so the stored flow and its solving do not grow with the table."""
    from learnmem.code.indexer import _parse

    source = "def f():\n    return 1\n\n\nTABLE = [1, 'a', (2, 3), {'k': 4}, f]\n"
    slots = [assign for assign in _parse("table.py", source.encode()).flow["assigns"] if assign[1][0] == "slot"]
    # The tuple and the dict are containers the list holds, and f a def; 1, 'a', 2, 3 and 4 are nothing.
    assert [assign[2][0] for assign in slots] == ["union", "cont", "name"]
