#!/usr/bin/env python3
"""Check every heldout2 case against a runtime trace.

For each case folder (a subfolder holding main.py and callgraph.json) this:

1. runs ``python main.py`` from inside the folder and requires exit status 0;
2. re-runs main.py in a child process under ``sys.setprofile`` and records
   caller -> callee for every Python-level call whose callee is a function
   defined in the case's own files;
3. derives the set of function keys from the case's source with ``ast`` and
   requires it to equal the keys of callgraph.json;
4. requires the traced edges to equal callgraph.json exactly, and every
   function key to have been entered at least once (so no edge is unchecked).

Naming and attribution rules (same as README.md):

* key = dotted module path (``pkg/__init__.py`` -> ``pkg``) + qualified name
  without ``<locals>``; a module's top level is the module key itself;
* ``f = lambda ...`` is named ``f`` in its scope; other lambdas,
  comprehensions and generator expressions are never targets, and the calls
  they make are attributed to the scope that defines them;
* class bodies are attributed to the scope running the ``class`` statement;
* when stdlib Python code (contextlib, functools, dataclass-generated code,
  ...) or a builtin calls a case function, the caller is the nearest case
  frame below it on the stack;
* module top levels are never targets (importing is not an edge).

Usage:  python verify.py [CASE ...]      (default: all cases)
"""
from __future__ import annotations

import ast
import json
import os
import runpy
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


# --------------------------------------------------------------------------
# static side: which functions exist and how code objects map to keys
# --------------------------------------------------------------------------

def module_key(case: Path, path: Path) -> str:
    rel = path.relative_to(case).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class FileTable:
    """Maps the code objects of one file (by co_qualname) to keys."""

    def __init__(self, mod: str, source: str):
        self.mod = mod
        self.funcs: dict[str, str] = {}      # python qualname -> key
        self.classes: dict[str, str] = {}    # python qualname -> enclosing key
        self.lambdas: dict[tuple[int, str], str] = {}  # (lineno, qualname) -> key
        self.keys: set[str] = {mod}
        self._walk(ast.parse(source), "", mod, mod)

    def _walk(self, node, pyprefix: str, keyprefix: str, scope_key: str) -> None:
        for child in ast.iter_child_nodes(node):
            self._visit(child, pyprefix, keyprefix, scope_key)

    def _visit(self, node, pyprefix: str, keyprefix: str, scope_key: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            qn = pyprefix + node.name
            key = keyprefix + "." + node.name
            self.funcs[qn] = key
            self.keys.add(key)
            for sub in node.decorator_list + [node.args]:
                self._visit(sub, pyprefix, keyprefix, scope_key)
            for stmt in node.body:
                self._visit(stmt, qn + ".<locals>.", key, key)
        elif isinstance(node, ast.ClassDef):
            qn = pyprefix + node.name
            self.classes[qn] = scope_key
            for sub in node.decorator_list + node.bases + node.keywords:
                self._visit(sub, pyprefix, keyprefix, scope_key)
            for stmt in node.body:
                self._visit(stmt, qn + ".", keyprefix + "." + node.name, scope_key)
        elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda)
              and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            qn = pyprefix + "<lambda>"
            key = keyprefix + "." + node.targets[0].id
            slot = (node.value.lineno, qn)
            if slot in self.lambdas:
                raise ValueError(f"{self.mod}: two named lambdas at {slot}")
            self.lambdas[slot] = key
            self.keys.add(key)
            self._walk(node.value, qn + ".<locals>.", key, key)
        else:
            self._walk(node, pyprefix, keyprefix, scope_key)

    def enclosing(self, qn: str) -> str:
        """Key of the scope that defines the thing whose qualname is qn."""
        parts = qn.split(".")[:-1]
        if parts and parts[-1] == "<locals>":
            parts.pop()
        return self.scope(".".join(parts))

    def scope(self, qn: str) -> str:
        if not qn:
            return self.mod
        if qn in self.funcs:
            return self.funcs[qn]
        if qn in self.classes:
            return self.classes[qn]
        named = {k for (_, q), k in self.lambdas.items() if q == qn}
        if len(named) == 1:
            return named.pop()
        return self.enclosing(qn)

    def resolve(self, code) -> tuple[str, bool]:
        """-> (key of the scope the code belongs to, whether it is a call target)"""
        qn = code.co_qualname
        if code.co_name == "<module>":
            return self.mod, False
        if code.co_name == "<lambda>":
            key = self.lambdas.get((code.co_firstlineno, qn))
            if key:
                return key, True
            return self.enclosing(qn), False
        if qn in self.funcs:
            return self.funcs[qn], True
        if qn in self.classes:
            return self.classes[qn], False
        return self.enclosing(qn), False  # comprehension, generator expression


def case_tables(case: Path) -> dict[str, FileTable]:
    tables = {}
    for path in sorted(case.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        tables[os.path.realpath(path)] = FileTable(
            module_key(case, path), path.read_text())
    return tables


# --------------------------------------------------------------------------
# dynamic side (runs in a child process)
# --------------------------------------------------------------------------

def trace_case(case: Path, out: Path) -> None:
    tables = case_tables(case)
    edges: dict[str, set[str]] = {}
    entered: set[str] = set()
    cache = {}

    def lookup(code):
        r = cache.get(code)
        if r is None:
            table = tables.get(os.path.realpath(code.co_filename))
            r = table.resolve(code) if table else (None, False)
            cache[code] = r
        return r

    def prof(frame, event, arg):
        if event != "call":
            return
        callee, is_target = lookup(frame.f_code)
        if callee is None or not is_target:
            return
        entered.add(callee)
        caller_frame = frame.f_back
        while caller_frame is not None and lookup(caller_frame.f_code)[0] is None:
            caller_frame = caller_frame.f_back
        if caller_frame is None:
            return
        caller = lookup(caller_frame.f_code)[0]
        edges.setdefault(caller, set()).add(callee)

    os.chdir(case)
    sys.path.insert(0, str(case))
    sys.argv = ["main.py"]
    status = 0
    sys.setprofile(prof)
    try:
        runpy.run_path(str(case / "main.py"), run_name="__main__")
    except SystemExit as exc:
        status = exc.code or 0
    finally:
        sys.setprofile(None)
    out.write_text(json.dumps({
        "status": status,
        "edges": {k: sorted(v) for k, v in edges.items()},
        "entered": sorted(entered),
    }))


# --------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------

def check_case(case: Path) -> tuple[list[str], int]:
    problems: list[str] = []
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    run = subprocess.run([sys.executable, "main.py"], cwd=case, env=env,
                         capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        problems.append(f"python main.py exited {run.returncode}: {run.stderr[-500:]}")

    gt_path = case / "callgraph.json"
    gt = json.loads(gt_path.read_text())
    if not (case / "README.md").is_file():
        problems.append("missing README.md")

    keys = set()
    for table in case_tables(case).values():
        keys |= table.keys
    if set(gt) != keys:
        problems.append(f"keys missing from callgraph.json: {sorted(keys - set(gt))}; "
                        f"extra keys: {sorted(set(gt) - keys)}")
    for k, v in gt.items():
        if v != sorted(set(v)):
            problems.append(f"{k}: list not sorted/unique")
        for t in v:
            if t not in keys:
                problems.append(f"{k} -> {t}: target is not a function of the case")

    out = case / ".trace.json"
    child = subprocess.run([sys.executable, str(Path(__file__).resolve()),
                            "--trace", str(case), str(out)],
                           env=env, capture_output=True, text=True, timeout=60)
    if child.returncode != 0:
        problems.append(f"tracer failed: {child.stderr[-800:]}")
        return problems, 0
    data = json.loads(out.read_text())
    out.unlink()
    if data["status"] != 0:
        problems.append(f"traced run exited {data['status']}")
    traced = {(a, b) for a, bs in data["edges"].items() for b in bs}
    truth = {(a, b) for a, bs in gt.items() for b in bs}
    for a, b in sorted(truth - traced):
        problems.append(f"in callgraph.json, not traced: {a} -> {b}")
    for a, b in sorted(traced - truth):
        problems.append(f"traced, not in callgraph.json: {a} -> {b}")
    modules = {t.mod for t in case_tables(case).values()}
    never = sorted(keys - modules - set(data["entered"]))
    if never:
        problems.append(f"functions never entered (unchecked): {never}")
    return problems, len(truth)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--trace"]:
        trace_case(Path(argv[1]).resolve(), Path(argv[2]))
        return 0
    cases = [HERE / a for a in argv] if argv else sorted(
        p for p in HERE.iterdir() if (p / "callgraph.json").is_file())
    failed = 0
    total = 0
    for case in cases:
        problems, n = check_case(case)
        total += n
        if problems:
            failed += 1
            print(f"FAIL {case.name}")
            for p in problems:
                print(f"     {p}")
        else:
            print(f"ok   {case.name}  ({n} edges)")
    print(f"\n{len(cases) - failed}/{len(cases)} cases ok, {total} edges")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
