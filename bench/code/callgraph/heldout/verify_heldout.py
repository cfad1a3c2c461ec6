"""Checker for the held-out call-graph cases (not a case itself).

    python verify_heldout.py [HELDOUT_DIR]

For every case folder: runs `python main.py`, checks that the keys of callgraph.json are
exactly the functions, named lambdas and module top levels found in the case's .py files,
that the lists are sorted and only name known keys, and runs main.py under sys.setprofile
(`--trace` mode) to check that every observed caller->callee edge between the case's own
functions is in callgraph.json. Ground-truth edges not seen in the run are listed as
"untraced". Needs CPython >= 3.11 (uses co_qualname).
"""
import ast, json, os, runpy, subprocess, sys, tempfile
from collections import defaultdict


def trace_main():
    CASE = os.path.realpath(sys.argv[2])
    OUT = sys.argv[3]

    MODS = {}
    for root, dirs, files in os.walk(CASE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if f.endswith(".py"):
                p = os.path.realpath(os.path.join(root, f))
                rel = os.path.relpath(p, CASE)[:-3].replace(os.sep, ".")
                if rel.endswith(".__init__"):
                    rel = rel[: -len(".__init__")]
                MODS[p] = rel

    LAMBDAS = {}  # (path, lineno) -> bound name
    for p in MODS:
        tree = ast.parse(open(p).read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda) \
                    and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                key = (p, node.value.lineno)
                assert key not in LAMBDAS, key
                LAMBDAS[key] = node.targets[0].id

    CO_OPTIMIZED = 0x1
    COMPS = {"<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>"}
    _cache = {}

    def clean(qn):
        return qn.replace(".<locals>", "")

    def parent(mod, qn):
        parts = clean(qn).split(".")[:-1]
        return mod + ("." + ".".join(parts) if parts else "")

    def classify(co):
        r = _cache.get(co)
        if r is not None:
            return r
        p = os.path.realpath(co.co_filename)
        mod = MODS.get(p)
        if mod is None:
            r = ("external", None)
        elif co.co_name == "<module>":
            r = ("module", mod)
        elif not co.co_flags & CO_OPTIMIZED:
            r = ("classbody", None)
        elif co.co_name in COMPS:
            r = ("lexical", parent(mod, co.co_qualname))
        elif co.co_name == "<lambda>":
            name = LAMBDAS.get((p, co.co_firstlineno))
            if name is None:
                r = ("lexical", parent(mod, co.co_qualname))
            else:
                r = ("function", parent(mod, co.co_qualname) + "." + name)
        else:
            r = ("function", mod + "." + clean(co.co_qualname))
        _cache[co] = r
        return r

    def caller_of(frame):
        f = frame.f_back
        while f is not None:
            kind, name = classify(f.f_code)
            if kind in ("external", "classbody"):
                f = f.f_back
                continue
            return name
        return None

    EDGES = set()
    ANON = set()

    def prof(frame, event, arg):
        if event != "call":
            return
        kind, name = classify(frame.f_code)
        if kind == "lexical" and frame.f_code.co_name == "<lambda>":
            ANON.add(frame.f_code.co_qualname)
        if kind != "function":
            return
        c = caller_of(frame)
        if c is not None:
            EDGES.add((c, name))

    sys.path.insert(0, CASE)
    os.chdir(CASE)
    sys.argv = [os.path.join(CASE, "main.py")]
    sys.setprofile(prof)
    try:
        runpy.run_path(os.path.join(CASE, "main.py"), run_name="__main__")
    finally:
        sys.setprofile(None)
        with open(OUT, "w") as fh:
            json.dump({"edges": sorted(EDGES), "anon_lambdas_called": sorted(ANON)}, fh)


def check_main():

    HELD = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    CATS = "direct assign alias_import params returns containers lambdas decorators partial classattr instattr properties mro super staticclass callbacks closures nested reexport negative".split()

    def ast_keys(case):
        keys = set()
        for root, dirs, files in os.walk(case):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for f in files:
                if not f.endswith(".py"):
                    continue
                p = os.path.join(root, f)
                mod = os.path.relpath(p, case)[:-3].replace(os.sep, ".")
                if mod.endswith(".__init__"):
                    mod = mod[: -len(".__init__")]
                keys.add(mod)
                def visit(node, prefix):
                    for ch in ast.iter_child_nodes(node):
                        if isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef)):
                            keys.add(prefix + "." + ch.name)
                            visit(ch, prefix + "." + ch.name)
                        elif isinstance(ch, ast.ClassDef):
                            visit(ch, prefix + "." + ch.name)
                        elif isinstance(ch, ast.Assign) and isinstance(ch.value, ast.Lambda) and len(ch.targets) == 1 and isinstance(ch.targets[0], ast.Name):
                            keys.add(prefix + "." + ch.targets[0].id)
                            visit(ch, prefix)
                        else:
                            visit(ch, prefix)
                visit(ast.parse(open(p).read()), mod)
        return keys

    stats = defaultdict(lambda: [0, 0])
    ok = True
    for name in sorted(os.listdir(HELD)):
        case = os.path.join(HELD, name)
        if not os.path.isdir(case):
            continue
        cat = next((c for c in sorted(CATS, key=len, reverse=True) if name.startswith(c + "_")), None)
        probs = []
        if cat is None:
            probs.append("bad category")
        for f in ("main.py", "callgraph.json", "README.md"):
            if not os.path.exists(os.path.join(case, f)):
                probs.append("missing " + f)
        r = subprocess.run([sys.executable, "main.py"], cwd=case, capture_output=True, text=True)
        if r.returncode != 0:
            probs.append("run failed: " + r.stderr[-500:])
        truth = json.load(open(os.path.join(case, "callgraph.json")))
        keys = ast_keys(case)
        if set(truth) != keys:
            probs.append(f"keys: missing {sorted(keys - set(truth))} extra {sorted(set(truth) - keys)}")
        nedges = 0
        for k, v in truth.items():
            nedges += len(v)
            if v != sorted(set(v)):
                probs.append(f"unsorted/dup list for {k}")
            for t in v:
                if t not in truth:
                    probs.append(f"unknown target {k}->{t}")
        with tempfile.NamedTemporaryFile(suffix=".json") as tf:
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--trace", case, tf.name], capture_output=True, text=True)
            if r.returncode != 0:
                probs.append("trace failed: " + r.stderr[-500:])
                traced = {"edges": [], "anon_lambdas_called": []}
            else:
                traced = json.load(open(tf.name))
        tedges = {tuple(e) for e in traced["edges"]}
        tset = {(k, t) for k, v in truth.items() for t in v}
        missing = tedges - tset
        if missing:
            probs.append(f"traced but not in truth: {sorted(missing)}")
        if traced["anon_lambdas_called"]:
            probs.append(f"anonymous lambdas called: {traced['anon_lambdas_called']}")
        untraced = sorted(tset - tedges)
        # clean pycache
        subprocess.run(["find", case, "-name", "__pycache__", "-type", "d", "-prune", "-exec", "rm", "-rf", "{}", "+"])
        stats[cat][0] += 1
        stats[cat][1] += nedges
        status = "OK " if not probs else "ERR"
        if probs:
            ok = False
        print(f"{status} {name}: {nedges} edges, {len(tedges)} traced" + (f", untraced: {untraced}" if untraced else ""))
        for p in probs:
            print("    " + p)
    print()
    tot_c = tot_e = 0
    for c in CATS:
        n, e = stats.get(c, [0, 0])
        tot_c += n; tot_e += e
        print(f"{c:14s} cases={n} edges={e}")
    print(f"{'TOTAL':14s} cases={tot_c} edges={tot_e}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--trace":
        trace_main()
    else:
        check_main()
