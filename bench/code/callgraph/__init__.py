"""The Python call graph scored against ground truth written by others (issue 23, item 2).

    python -m bench.code.callgraph [SUITE_DIR ...] [--json OUT] [--misses N]

A suite is a folder of cases, one folder each with its Python files and a `callgraph.json` (PyCG's format:
every function, as `module.qualified.name`, mapped to the functions it calls; `main` is main.py's top level).
Two suites are kept here: `pycg/`, PyCG's micro-benchmark (vitsalis/PyCG at 8d5dc40, Apache-2.0, its LICENCE
beside it), and `heldout/` and `heldout2/`, cases written for this project by helpers who never saw learnmem's
code (heldout2 was scored once, after the analysis was done: nothing was changed for it). Each
case is parsed and resolved as `index_codebase` does (learnmem.code.indexer's parse, then resolve_calls), with
no embedding, and its edges compared with the truth's: precision and recall over caller -> callee pairs
between the case's own functions (calls into builtins, the standard library and outside packages are in
neither set).

learnmem's edges are mapped to PyCG's naming: a call to a class is a call to the `__init__` it runs (its own
or the first in its bases, found in the case), and no edge when none is defined; a lambda bound to a name is
the unit of that name (the held-out suite's naming), and in the PyCG suite, whose lambdas are `<lambdaN>`
(numbered per scope), learnmem's lambda units take the number of the lambda on their line.
"""

from __future__ import annotations

import argparse
import ast
import json
import posixpath
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
SUITES = (HERE / "pycg", HERE / "heldout", HERE / "heldout2", HERE / "js")
_SCRIPTS = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts")


@dataclass
class Score:
    """Edges found, expected and both, over a case or a category."""

    found: set = field(default_factory=set)
    expected: set = field(default_factory=set)

    @property
    def hits(self) -> int:
        return len(self.found & self.expected)

    @property
    def precision(self) -> float:
        return self.hits / len(self.found) if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.hits / len(self.expected) if self.expected else 1.0


def cases(suite: Path) -> list[Path]:
    """Every folder under `suite` holding a callgraph.json, sorted."""
    return sorted(path.parent for path in suite.rglob("callgraph.json"))


def learnmem_edges(case: Path, pycg_lambdas: bool = False) -> set[tuple[str, str]]:
    """caller -> callee pairs of the case as learnmem resolves them, in PyCG's naming."""
    from learnmem.code.indexer import _parse
    from learnmem.code.resolve import resolve_calls

    files = [_parse(path.relative_to(case).as_posix(), path.read_bytes()) for path in sorted(case.rglob("*.py"))]
    units = {(f.module, u.qualified_name): u for f in files for u in f.units}
    lambdas = _lambda_names(case) if pycg_lambdas else {}
    names = {(f.module, u.qualified_name): _pycg_name(f.module, u, lambdas) for f in files for u in f.units}
    edges = set()
    for edge in resolve_calls(files):
        if edge.callee_module is None:
            continue
        callee_key = (edge.callee_module, edge.callee_qualified_name)
        unit = units.get(callee_key)
        if unit is not None and unit.unit_type == "class":
            callee_key = _init_of(callee_key, units)
            if callee_key is None:
                continue
        caller = names.get((edge.caller_module, edge.caller_qualified_name), edge.caller_module)
        callee = names.get(callee_key)
        if callee is None:  # a module called? not a function of PyCG's
            continue
        edges.add((caller, callee))
    return edges


def script_edges(case: Path) -> set[tuple[str, str]]:
    """caller -> callee pairs of a JavaScript/TypeScript case as learnmem resolves them, named `path:qualified`
    (`lib/util:helper`; a file's top level is its path without extension); a call to a class without a
    constructor is no edge."""
    from learnmem.code.indexer import _parse
    from learnmem.code.resolve import resolve_calls

    paths = sorted(p for p in case.rglob("*") if p.suffix in _SCRIPTS and "node_modules" not in p.parts)
    files = [_parse(path.relative_to(case).as_posix(), path.read_bytes()) for path in paths]
    stem = {f.module: posixpath.splitext(f.path)[0] for f in files}
    units = {(f.module, u.qualified_name): u for f in files for u in f.units}

    def name(module: str, qualified: str) -> str:
        return f"{stem[module]}:{qualified}" if qualified else stem[module]

    edges = set()
    for edge in resolve_calls(files):
        if edge.callee_module is None or edge.caller_module not in stem:
            continue
        unit = units.get((edge.callee_module, edge.callee_qualified_name))
        if unit is not None and unit.unit_type == "class":
            continue
        edges.add((name(edge.caller_module, edge.caller_qualified_name),
                   name(edge.callee_module, edge.callee_qualified_name)))
    return edges


def _init_of(key: tuple[str, str], units: dict) -> tuple[str, str] | None:
    """The `__init__` a call to the class runs: its own, else the first of its bases' (in the case), else None."""
    seen = set()
    queue = [key]
    while queue:
        module, qualified = queue.pop(0)
        if (module, qualified) in seen:
            continue
        seen.add((module, qualified))
        if (module, f"{qualified}.__init__") in units:
            return module, f"{qualified}.__init__"
        unit = units.get((module, qualified))
        for base in unit.bases if unit is not None else ():
            name = base.split(".")[-1]
            queue.extend(k for k, u in units.items() if u.unit_type == "class" and k[1].split(".")[-1] == name)
    return None


def _lambda_names(case: Path) -> dict[tuple[str, int], str]:
    """(module, line) -> PyCG's name of the lambda there (`scope.<lambdaN>`, N counted per enclosing scope)."""
    found = {}
    for path in case.rglob("*.py"):
        module = ".".join(path.relative_to(case).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        counters: dict[str, int] = defaultdict(int)

        def visit(node, scope: str) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    visit(child, f"{scope}.{child.name}")
                elif isinstance(child, ast.Lambda):
                    counters[scope] += 1
                    name = f"{scope}.<lambda{counters[scope]}>"
                    found.setdefault((module, child.lineno), name)
                    visit(child, name)
                else:
                    visit(child, scope)

        visit(tree, module)
    return found


def _pycg_name(module: str, unit, lambdas: dict) -> str:
    if not unit.qualified_name:
        return module
    if unit.content.split("=", 1)[-1].lstrip().startswith("lambda") and (module, unit.start_line) in lambdas:
        return lambdas[(module, unit.start_line)]
    return f"{module}.{unit.qualified_name}"


def truth(case: Path) -> set[tuple[str, str]]:
    """The case's ground-truth pairs between its own functions (builtins and outside code left out)."""
    graph = json.loads((case / "callgraph.json").read_text(encoding="utf-8"))
    if any(p.suffix in _SCRIPTS for p in case.iterdir()):
        return {(caller, callee) for caller, callees in graph.items() for callee in callees if callee in graph}
    modules = {".".join(p.relative_to(case).with_suffix("").parts).removesuffix(".__init__") for p in case.rglob("*.py")}

    def own(name: str) -> bool:
        return any(name == m or name.startswith(m + ".") for m in modules)

    return {(caller, callee) for caller, callees in graph.items() for callee in callees if own(caller) and own(callee)}


def score(suite: Path) -> dict[str, tuple[Score, list]]:
    """category -> (its score, its cases' misses and extras)."""
    by_category: dict[str, tuple[Score, list]] = {}
    for case in cases(suite):
        category = _category(case.relative_to(suite).parts[0]) if suite.name != "pycg" else case.parent.name
        scripts = any(p.suffix in _SCRIPTS for p in case.iterdir())
        found = script_edges(case) if scripts else learnmem_edges(case, pycg_lambdas=suite.name == "pycg")
        expected = truth(case)
        total, notes = by_category.setdefault(category, (Score(), []))
        name = case.relative_to(suite).as_posix()
        total.found |= {(name, *e) for e in found}
        total.expected |= {(name, *e) for e in expected}
        notes.append((name, sorted(expected - found), sorted(found - expected)))
    return by_category


HELDOUT_CATEGORIES = ("esm_named", "esm_default", "esm_namespace", "esm_reexport", "cjs_exports", "cjs_module_exports",
                      "cjs_require_destructure", "mixed_interop", "class_this", "class_extends", "ts_types",
                      "alias_import", "direct", "assign", "params", "returns", "containers", "lambdas", "decorators",
                      "partial", "classattr", "instattr", "properties", "mro", "super", "staticclass", "callbacks",
                      "closures", "nested", "reexport", "negative")


def _category(folder: str) -> str:
    """A held-out case's category: the prefix of its folder's name (heldout/README.md)."""
    return next((c for c in HELDOUT_CATEGORIES if folder.startswith(c + "_")), folder)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.code.callgraph", description=__doc__.split("\n\n")[0])
    parser.add_argument("suites", nargs="*", type=Path, default=[s for s in SUITES if s.exists()])
    parser.add_argument("--misses", type=int, default=0, help="cases to show with their missed and extra edges")
    parser.add_argument("--json", type=Path, help="also write every result here")
    args = parser.parse_args(argv)
    report = {}
    for suite in args.suites:
        categories = score(suite)
        overall = Score()
        print(f"\n{suite.name}: category | edges expected | found | precision | recall")
        for category, (total, notes) in sorted(categories.items()):
            overall.found |= total.found
            overall.expected |= total.expected
            print(f"  {category:14s} {len(total.expected):4d} {len(total.found):4d} {total.precision:6.3f} {total.recall:6.3f}")
        print(f"  {'all':14s} {len(overall.expected):4d} {len(overall.found):4d} {overall.precision:6.3f} {overall.recall:6.3f}")
        shown = 0
        for category, (_, notes) in sorted(categories.items()):
            for name, missed, extra in notes:
                if (missed or extra) and shown < args.misses:
                    shown += 1
                    print(f"    {name}: missed {missed} extra {extra}")
        report[suite.name] = {"precision": overall.precision, "recall": overall.recall,
                              "expected": len(overall.expected), "found": len(overall.found),
                              "categories": {c: {"precision": t.precision, "recall": t.recall,
                                                 "expected": len(t.expected), "found": len(t.found)}
                                             for c, (t, _) in categories.items()}}
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0
