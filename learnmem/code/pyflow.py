"""Where Python values flow, solved over a whole project: the targets of calls the names alone do not tell.

An inclusion-based points-to analysis (Andersen's, context- and flow-insensitive) over the facts of
learnmem.code.pyfacts. Every variable (a name in a scope), attribute (of a module, a class or a class's
instances), container slot, return and yield holds a set of values; a value is a def (function, method,
named lambda or class), a module, an instance of a class, a method bound to an instance, a container, or a
generator. Assignments, calls (arguments bound to parameters, return values to the call), decorators,
`super()` and attribute lookups through the MRO add to those sets until nothing changes; a call's targets are
then the defs its callee can hold. So `a = func; a()`, a function passed as an argument, returned, stored in a
dict or a list, wrapped by a decorator, bound by `functools.partial`, kept on `self` in `__init__`, or
inherited, is followed to its def. A def that returns a parameter as it was given it (`return fn`, `return self`)
gives each call back its own argument rather than every value any call passed (a summary standing in for
context sensitivity: registering decorators and fluent methods are everywhere).

The answer depends on the facts alone: each fact reads the sets as they were before it ran, the facts run in
a fixed order, and a set that cannot take all its new values keeps the first in a fixed order, so two
processes (whose string hashing, and so set iteration, differ) store the same call graph.

Not followed (the call then stays as names alone resolve it): `eval`/`exec`, `getattr`/`setattr` with computed
names, monkey-patching from outside the project, `__getattr__`, metaclasses, descriptors other than
`staticmethod`, `classmethod` and `property`, iteration protocols (`__iter__`, `__next__`), values made by
outside libraries and by builtins other than those that call or keep what they are given (`map`, `sorted`,
`list`... below) and `functools.partial`, and anything past MAX_VALUES values a set or MAX_ROUNDS rounds.
"""

from __future__ import annotations

from collections import defaultdict

MAX_VALUES = 48  # values a set may hold: past it, more are dropped (a very dynamic name is not a call graph)
MAX_ROUNDS = 200  # worklist rounds (each runs only the facts whose inputs changed)
_NOTHING: frozenset = frozenset()

_DESCRIPTORS = {"staticmethod": "staticmethod", "classmethod": "classmethod", "property": "property",
                "cached_property": "property"}
# Builtins and standard functions that call the functions they are given (map(f, xs), sorted(key=f)...).
_CALLING_BUILTINS = {"map", "filter", "sorted", "min", "max", "reduce", "functools.reduce", "itertools.starmap",
                     "functools.cmp_to_key", "itertools.filterfalse", "itertools.takewhile", "itertools.dropwhile",
                     "itertools.groupby", "itertools.accumulate"}
# Builtins whose result holds the items of their first argument.
_ITEM_KEEPING_BUILTINS = {"list", "tuple", "set", "frozenset", "sorted", "reversed", "iter", "filter",
                          "itertools.chain", "copy.copy"}
_ADDING_METHODS = {"append", "add", "insert", "appendleft", "put"}
_EXTENDING_METHODS = {"extend", "update", "extendleft"}
_GETTING_METHODS = {"get", "pop", "setdefault", "popleft", "popitem", "__getitem__"}


class Flow:
    """The solved flow of a project: `targets(module, call index)` are the defs a call can reach."""

    def __init__(self, modules: dict[str, dict], imports: dict[str, list]) -> None:
        """`modules`: module -> its facts (learnmem.code.pyfacts); `imports`: module -> its Import records."""
        self.facts = modules
        self.kind: dict[tuple, str] = {}
        self.params: dict[tuple, list] = {}
        self.parent: dict[tuple, str] = {}
        self.bound_names: dict[tuple, set] = defaultdict(set)
        for module, facts in modules.items():
            for qualified, kind, scope, parameters in facts["defs"]:
                key = (module, qualified)
                self.kind[key] = kind
                self.params[key] = parameters
                self.parent[key] = scope
                self.bound_names[key].update(name for name, _ in parameters)
            for scope, target, _ in facts["assigns"]:
                if target[0] == "name":
                    self.bound_names[(module, scope)].add(target[1])
        self.passes = self._passes()
        self.imports: dict[tuple, tuple] = {}
        for module, records in imports.items():
            for record in records:
                if record.local != "*":
                    self.imports[(module, record.local)] = (record.module, record.name)
                    self.bound_names[(module, "")].add(record.local.split(".")[0])
        self.stars = {module: [r.module for r in records if r.local == "*"] for module, records in imports.items()}
        self.sets: dict[tuple, set] = defaultdict(set)
        self.slot_keys: dict[tuple, set] = defaultdict(set)  # (module, container) -> its slots' keys
        self.reading: set | None = None
        self.changed_keys: set = set()
        self.scopes: dict[tuple, tuple] = {}  # (module, scope, name) -> where it is bound (_binding_scope)
        self.mros: dict[tuple, tuple] = {}  # (module, class) -> (its MRO, the keys read to find it)
        self.mro_reads: set = set()  # every key a cached MRO was found from: when one changes, the cache goes
        self.adding: dict[tuple, set] = {}  # what the fact being run adds, applied when it ends (see _flush)
        self.bound: dict[tuple, tuple] = {}  # (call, def, receiver) -> the argument values last bound there
        self.returned: dict[tuple, int] = {}  # (call, def) -> how many return values the call last took
        self.called: dict[tuple, set] = defaultdict(set)
        self.generators = {(m, f) for m, facts in modules.items() for f, _ in facts["yields"]}
        # (module, def) -> "staticmethod" | "classmethod" | "property", from the decorators it is written with
        self.descriptors: dict[tuple, str] = {}
        for module, facts in modules.items():
            for scope, _, _, callee, args, _, *decorator in facts["calls"]:
                if decorator and callee and callee[0] == "name" and callee[1] in _DESCRIPTORS and args \
                        and args[0] and args[0][0] == "def":
                    self.descriptors[(module, args[0][1])] = _DESCRIPTORS[callee[1]]
        self.property_names = {qualified.rpartition(".")[2] for (_, qualified), kind in self.descriptors.items()
                               if kind == "property"}
        self._solve()

    def targets(self, module: str, index: int) -> set[tuple[str, str]]:
        """(module, qualified name) of every def call `index` of `module` can reach."""
        return {value[1:] for value in self.called.get((module, index), ())}

    # ------------------------------------------------------------------ solving

    def _solve(self) -> None:
        """Run every fact once, then again only those whose inputs changed (a worklist), until nothing does.

        A decorator the analysis cannot see into is taken to return the def it decorates; which decorators
        those are is only known once the rest has settled, so they are decided then, and the worklist runs on
        (never before: the answer would depend on the order the files came in)."""
        jobs = [(module, kind, item) for module, facts in self.facts.items()
                for kind in ("assigns", "returns", "yields", "calls") for item in enumerate(facts[kind])
                if kind != "assigns" or item[1][2]]  # an assignment of what is not followed (`x = 1`) adds nothing
        decorators = [(number, module, index, fact) for number, (module, kind, (index, fact)) in enumerate(jobs)
                      if kind == "calls" and len(fact) > 6]
        self.passing: set[tuple] = set()  # the decorator calls taken to return their def
        readers: dict[tuple, set[int]] = defaultdict(set)
        pending = set(range(len(jobs)))
        for _ in range(MAX_ROUNDS):
            self.changed_keys: set = set()
            for number in sorted(pending):
                self.reading = set()
                self._run(*jobs[number])
                self._flush()
                for key in self.reading:
                    readers[key].add(number)
            self.reading = None
            pending = {number for key in self.changed_keys for number in readers.get(key, ())}
            if not pending:
                opaque = {(module, index): number for number, module, index, (scope, _, _, callee, *_rest) in decorators
                          if (module, index) not in self.passing
                          and not any(v[0] in ("def", "bound", "inst") for v in self.eval(module, scope, callee))}
                self.passing.update(opaque)
                pending = set(opaque.values())
            if not pending:
                return

    def _run(self, module: str, kind: str, item: tuple) -> None:
        index, fact = item
        if kind == "assigns":
            scope, target, expression = fact
            values = self.eval(module, scope, expression)
            if values:
                self._store(module, scope, target, values)
        elif kind == "returns":
            if not (fact[1] and fact[1][0] == "name" and fact[1][1] in self.passes.get((module, fact[0]), ())):
                self._add(("ret", module, fact[0]), self.eval(module, fact[0], fact[1]))
        elif kind == "yields":
            self._add(("yield", module, fact[0]), self.eval(module, fact[0], fact[1]))
        else:
            scope, _, _, callee, args, kwargs, *decorator = fact
            self._call(module, scope, index, callee, args, kwargs, bool(decorator))

    def _get(self, key: tuple):
        """The values held at `key`, noted as read by the fact being run."""
        if self.reading is not None:
            self.reading.add(key)
        return self.sets.get(key, _NOTHING)

    def _add(self, key: tuple, values) -> None:
        """Note that `values` flow into `key`; they are added when the fact being run ends."""
        if not values:
            return
        held = self.sets.get(key)
        if held is not None and (len(held) >= MAX_VALUES or values <= held):
            return
        adding = self.adding.get(key)
        if adding is None:
            self.adding[key] = set(values)
        else:
            adding |= values

    def _flush(self) -> None:
        """Add what the fact just run found. A fact reads the sets as they were before it ran, and a set that
        cannot take every new value keeps the first in a fixed order, so that what is solved depends on the
        facts alone, never on the order sets happen to iterate in (string hashing differs per process)."""
        for key, values in self.adding.items():
            if key[0] == "slot" and key not in self.sets:
                self.slot_keys[key[1:3]].add(key[3])
                self.changed_keys.add(("slots", key[1], key[2]))
            held = self.sets[key]
            new = values - held
            room = MAX_VALUES - len(held)
            if not new or room <= 0:
                continue
            held.update(new if len(new) <= room else sorted(new, key=repr)[:room])
            self.changed_keys.add(key)
            if key in self.mro_reads:
                self.mros, self.mro_reads = {}, set()
        self.adding = {}

    def _store(self, module: str, scope: str, target: list, values: set) -> None:
        kind = target[0]
        if kind == "name":
            self._add(("var", module, scope, target[1]), values)
        elif kind == "slot":
            self._add(("slot", module, target[1], target[2]), values)
        elif kind == "attr":
            for owner in self.eval(module, scope, target[1]):
                if owner[0] == "inst":
                    self._add(("iattr", owner[1], owner[2], target[2]), values)
                elif owner[0] == "def" and self.kind.get(owner[1:]) == "class":
                    self._add(("var", owner[1], owner[2], target[2]), values)
                elif owner[0] == "mod":
                    self._add(("var", owner[1], "", target[2]), values)
        elif kind == "sub":
            for owner in self.eval(module, scope, target[1]):
                if owner[0] == "cont":
                    self._add(("slot", owner[1], owner[2], target[2] if target[2] is not None else "*"), values)

    def _call(self, module: str, scope: str, index: int, callee, args: list, kwargs: dict, decorator: bool) -> None:
        key = (module, index)
        values = self.eval(module, scope, callee)
        if callee and callee[0] == "attr":
            self._container_method(key, module, scope, callee, args)
        builtin = self._builtin(module, scope, callee, values)
        if builtin in _CALLING_BUILTINS:
            for argument in [*args, *kwargs.values()]:
                for value in self.eval(module, scope, argument):
                    if value[0] in ("def", "bound", "inst"):
                        self._call_value(key, value, module, scope, [], ([], {}))
        if builtin in _ITEM_KEEPING_BUILTINS and args:
            self._result(key, {v for v in self.eval(module, scope, args[0]) if v[0] in ("cont", "gen")})
        if builtin == "next" and args:
            self._result(key, self.eval(module, scope, ["iter", args[0]]))
        if decorator and key in self.passing:
            # staticmethod, classmethod, property, functools.wraps(f), a library's registering decorator: the
            # name keeps the def (a wrapping decorator of the project is followed instead).
            self._result(key, self.eval(module, scope, args[0]))
        if values:
            arguments = ([self.eval(module, scope, arg) for arg in args],
                         {name: self.eval(module, scope, expression) for name, expression in kwargs.items()})
            for value in values:
                self._call_value(key, value, module, scope, args, arguments)

    def _call_value(self, key: tuple, value: tuple, module: str, scope: str, args: list, arguments: tuple) -> None:
        """The call `key` reaching `value` (a def, a bound method, an instance...) with `arguments`: the values of
        its positional and keyword arguments (`args` are their expressions)."""
        kind = value[0]
        if kind == "def" and self.kind.get(value[1:]) == "function":
            self._reach(key, value, None, arguments)
        elif kind == "def" and self.kind.get(value[1:]) == "class":
            instance = ("inst", value[1], value[2])
            self._result(key, {instance})
            inits = [init for init in self._lookup_class(value[1], value[2], "__init__")
                     if init[0] == "def" and self.kind.get(init[1:]) == "function"]
            # Calling a class calls the __init__ it runs (its own or a base's), as learnmem.code.resolve says; the
            # class itself when none is defined in the project.
            self.called[key].update(inits or [value])
            for init in inits:
                self._bind(key, init, instance, arguments)
        elif kind == "bound":
            self._reach(key, ("def", value[1], value[2]), value[3], arguments)
        elif kind == "inst":
            for method in self._lookup_class(value[1], value[2], "__call__"):
                if method[0] == "def":
                    self._reach(key, method, value, arguments)
        elif kind == "ext" and value[1] == "functools.partial" and args:
            self._result(key, self.eval(module, scope, args[0]))

    def _builtin(self, module: str, scope: str, callee, values: set) -> str:
        """The builtin or outside function a callee names ("" when it may name anything of the project): a name
        bound nowhere in its scopes nor imported, or an outside module's attribute."""
        if callee and callee[0] == "name":
            return "" if values or self._binds(module, scope, callee[1]) else callee[1]
        if values and all(v[0] == "ext" for v in values):
            return next(iter(values))[1] if len(values) == 1 else ""
        return ""

    def _binds(self, module: str, scope: str, name: str) -> bool:
        """Whether `name` is bound in `scope`, an enclosing def, the module, or by an import or `import *`."""
        current = scope
        while True:
            if name in self.bound_names.get((module, current), ()):
                return True
            if current == "":
                return (module, name) in self.imports or bool(self.stars.get(module))
            current = self.parent.get((module, current), "")

    def _container_method(self, key: tuple, module: str, scope: str, callee: list, args: list) -> None:
        """`xs.append(f)`, `d.setdefault(k, [])`, `d.get(k, default)`, `d.values()`...: what flows in and out
        of a container through its methods."""
        method = callee[2]
        for owner in self.eval(module, scope, callee[1]):
            if owner[0] != "cont":
                continue
            slot = ("slot", owner[1], owner[2], "*")
            if method in _ADDING_METHODS and args:
                self._add(slot, self.eval(module, scope, args[-1]))
            elif method in _EXTENDING_METHODS and args:
                self._add(slot, self.eval(module, scope, ["iter", args[0]]))
            elif method in _GETTING_METHODS:
                if method == "setdefault" and len(args) > 1:
                    self._add(slot, self.eval(module, scope, args[1]))
                self._result(key, self._slots(owner, None))
                if len(args) > 1:
                    self._result(key, self.eval(module, scope, args[1]))
            elif method in ("values", "copy"):
                self._result(key, {owner})
            elif method == "items":
                self._result(key, {("items", owner[1], owner[2])})

    def _reach(self, key: tuple, function: tuple, receiver, arguments: tuple) -> None:
        called = self.called[key]
        if function not in called:
            called.add(function)
            if function[1:] in self.generators:
                self._result(key, {("gen", function[1], function[2])})
        self._bind(key, function, receiver, arguments)
        passed = self.passes.get(function[1:])
        if passed:
            for name, held in self._parameter_values(function, receiver, arguments):
                if name in passed:
                    self._result(key, held)
        returned = self._get(("ret", function[1], function[2]))
        # Sets only grow, so one of the size the call last took is the same set: nothing new to take.
        if returned and self.returned.get((key, function)) != len(returned):
            self.returned[(key, function)] = len(returned)
            self._result(key, returned)

    def _result(self, key: tuple, values) -> None:
        self._add(("result", *key), values)

    def _bind(self, key: tuple, function: tuple, receiver, arguments: tuple) -> None:
        """The call `key`'s arguments (and receiver) bound to the parameters of `function`."""
        if self.bound.get((key, function, receiver)) == arguments:
            return  # bound already with these very values (a call reached again when something else changed)
        self.bound[(key, function, receiver)] = arguments
        for name, held in self._parameter_values(function, receiver, arguments):
            self._add(("var", function[1], function[2], name), held)

    def _parameter_values(self, function: tuple, receiver, arguments: tuple) -> list[tuple[str, set]]:
        """(parameter, values) for each named parameter of `function` a call gives a value."""
        positional = [name for name, kind in self.params.get(function[1:], []) if not kind]
        args, kwargs = arguments
        values = [{receiver}, *args] if receiver is not None else args
        return [*zip(positional, values), *((name, held) for name, held in kwargs.items() if name in positional)]

    def _passes(self) -> dict[tuple, set]:
        """(module, def) -> the parameters it returns as it was given them (`return fn`, `return self`), each
        assigned nowhere in the def. A call of such a def gets back what it passed there, not every value any
        call passed (a decorator that registers its function and returns it leaves each name its own def)."""
        passes: dict[tuple, set] = {}
        for module, facts in self.facts.items():
            assigned = {(scope, target[1]) for scope, target, expression in facts["assigns"]
                        if target[0] == "name" and expression}
            for function, expression in facts["returns"]:
                if not expression or expression[0] != "name" or (function, expression[1]) in assigned:
                    continue
                if any(name == expression[1] and not kind for name, kind in self.params.get((module, function), ())):
                    passes.setdefault((module, function), set()).add(expression[1])
        return passes

    # ------------------------------------------------------------------ evaluating

    def eval(self, module: str, scope: str, expression) -> set:
        """The values `expression` (in `scope` of `module`) can hold, as solved so far."""
        if not expression:
            return set()
        kind = expression[0]
        if kind == "name":
            return self._name(module, scope, expression[1])
        if kind == "def":
            return {("def", module, expression[1])}
        if kind == "cont":
            return {("cont", module, expression[1])}
        if kind == "call":
            return set(self._get(("result", module, expression[1])))
        if kind == "attr":
            found: set = set()
            for owner in self.eval(module, scope, expression[1]):
                found |= self._attribute(owner, expression[2])
            return found
        if kind == "sub":
            found = set()
            for owner in self.eval(module, scope, expression[1]):
                if owner[0] == "cont":
                    found |= self._slots(owner, expression[2])
                elif owner[0] == "pair" and expression[2] != "0":  # (key, value) of items(): the value
                    found |= self._slots(owner, None)
            return found
        if kind == "iter":
            found = set()
            for owner in self.eval(module, scope, expression[1]):
                if owner[0] == "cont":
                    found |= self._slots(owner, None)
                elif owner[0] == "gen":
                    found |= self._get(("yield", owner[1], owner[2]))
                elif owner[0] == "items":
                    found.add(("pair", owner[1], owner[2]))
            return found
        if kind == "union":
            if expression[1] == "tuple":
                return self.eval(module, scope, expression[3])
            found = set()
            for part in expression[2]:
                found |= self.eval(module, scope, part)
            return found
        if kind == "super":
            return {("super", module, expression[1], value) for value in self.eval(module, scope, expression[2])
                    if value[0] == "inst"} if expression[1] else set()
        return set()

    def _slots(self, container: tuple, key) -> set:
        if key is not None:
            return set(self._get(("slot", container[1], container[2], key))) | \
                set(self._get(("slot", container[1], container[2], "*")))
        found: set = set()
        self._get(("slots", container[1], container[2]))
        for slot in self.slot_keys.get(container[1:], ()):
            found |= self._get(("slot", container[1], container[2], slot))
        return found

    def _name(self, module: str, scope: str, name: str) -> set:
        """A name as Python looks it up: the scope, its enclosing defs (not class bodies), the module, its
        imports; nothing for a builtin."""
        where = self.scopes.get((module, scope, name))
        if where is None:
            where = self.scopes[(module, scope, name)] = self._binding_scope(module, scope, name)
        if where[0] == "var":
            return set(self._get(where[1]))
        if where[0] == "import":  # the module binds it by an import, and may assign it too
            held = self._get(("var", module, "", name))
            return set(held) if held else self._imported(module, name)
        if where[0] == "imported":
            return self._imported(module, name)
        for star in reversed(self.stars.get(module, ())):  # the later `import *` binds the name
            if star in self.facts:
                found = self._module_attribute(star, name)
                if found:
                    return found
        return set()

    def _binding_scope(self, module: str, scope: str, name: str) -> tuple:
        """Where `name` read in `scope` is bound, which the facts alone decide: ("var", its key), ("import",)
        (bound at the module's top level, by an import among others), ("imported",) or ("unbound",)."""
        current = scope
        first = True
        while True:
            is_class = self.kind.get((module, current)) == "class"
            if (first or not is_class) and name in self.bound_names.get((module, current), ()):
                if current == "" and (module, name) in self.imports:
                    return ("import",)
                return ("var", ("var", module, current, name))
            if current == "":
                break
            first = False
            current = self.parent.get((module, current), "")
        return ("imported",) if (module, name) in self.imports else ("unbound",)

    def _imported(self, module: str, local: str) -> set:
        source, name = self.imports[(module, local)]
        if not name:
            return {self._module(source)}
        return self._module_attribute(source, name) or ({self._module(f"{source}.{name}")}
                                                        if f"{source}.{name}" in self.facts else
                                                        ({("ext", f"{source}.{name}")} if source not in self.facts
                                                         else set()))

    def _module(self, name: str) -> tuple:
        return ("mod", name) if name in self.facts else ("ext", name)

    def _module_attribute(self, module: str, name: str, depth: int = 0) -> set:
        if module not in self.facts or depth > 8:
            return set()
        held = set(self._get(("var", module, "", name)))
        if held:
            return held
        if (module, name) in self.imports:
            source, imported = self.imports[(module, name)]
            if not imported:
                return {self._module(source)}
            return self._module_attribute(source, imported, depth + 1) or (
                {("mod", f"{source}.{imported}")} if f"{source}.{imported}" in self.facts else set())
        for star in reversed(self.stars.get(module, ())):
            found = self._module_attribute(star, name, depth + 1)
            if found:
                return found
        return {("mod", f"{module}.{name}")} if f"{module}.{name}" in self.facts else set()

    def _attribute(self, owner: tuple, name: str) -> set:
        kind = owner[0]
        if kind == "mod":
            return self._module_attribute(owner[1], name)
        if kind == "ext":
            return {("ext", f"{owner[1]}.{name}")}
        if kind == "def" and self.kind.get(owner[1:]) == "class":
            return {("bound", *value[1:], owner) if self.descriptors.get(value[1:]) == "classmethod" else value
                    for value in self._lookup_class(owner[1], owner[2], name)}
        if kind == "inst":
            for cls in self._mro(owner[1], owner[2]):
                held = self._get(("iattr", cls[0], cls[1], name))
                if held:
                    return set(held)
            found = set()
            for value in self._lookup_class(owner[1], owner[2], name):
                if self.descriptors.get(value[1:]) == "property":
                    found |= self._get(("ret", value[1], value[2]))
                else:
                    found.add(self._bound(value, owner))
            return found
        if kind == "super":
            mro = self._mro(owner[1], owner[2])
            for cls in mro[1:]:
                held = self._get(("var", cls[0], cls[1], name))
                if held:
                    return {self._bound(value, owner[3]) for value in held}
        return set()

    def properties(self, module: str, scope: str, expression) -> set[tuple[str, str]]:
        """The property getters reading the attribute `expression` (["attr", object, name]) runs."""
        if expression[2] not in self.property_names:
            return set()
        found = set()
        for owner in self.eval(module, scope, expression[1]):
            if owner[0] == "inst":
                found |= {value[1:] for value in self._lookup_class(owner[1], owner[2], expression[2])
                          if self.descriptors.get(value[1:]) == "property"}
            elif owner[0] == "super":
                for cls in self._mro(owner[1], owner[2])[1:]:
                    held = self._get(("var", cls[0], cls[1], expression[2]))
                    if held:
                        found |= {v[1:] for v in held if self.descriptors.get(v[1:]) == "property"}
                        break
        return found

    def _bound(self, value: tuple, instance: tuple) -> tuple:
        descriptor = self.descriptors.get(value[1:])
        if descriptor == "staticmethod":
            return value
        if descriptor == "classmethod" and instance[0] == "inst":
            return ("bound", value[1], value[2], ("def", instance[1], instance[2]))
        if value[0] == "def" and self.kind.get(value[1:]) == "function" and self.parent.get(value[1:]) \
                and self.kind.get((value[1], self.parent[value[1:]])) == "class":
            return ("bound", value[1], value[2], instance)
        return value

    def _lookup_class(self, module: str, qualified: str, name: str) -> set:
        for cls in self._mro(module, qualified):
            held = self._get(("var", cls[0], cls[1], name))
            if held:
                return set(held)
        return set()

    def _mro(self, module: str, qualified: str) -> list[tuple]:
        """The class and its bases in the project, in C3 order (a plain left-to-right walk where C3 fails);
        kept until a set it was found from changes."""
        cached = self.mros.get((module, qualified))
        if cached is None:
            outer, self.reading = self.reading, set()
            try:
                cached = self.mros[(module, qualified)] = (self._linearise(module, qualified), self.reading)
            finally:
                self.reading = outer
            self.mro_reads |= cached[1]
        if self.reading is not None:
            self.reading |= cached[1]
        return cached[0]

    def _linearise(self, module: str, qualified: str, depth: int = 0) -> list[tuple]:
        if depth > 12:
            return [(module, qualified)]
        bases = []
        for expression in self.facts.get(module, {}).get("bases", {}).get(qualified, []):
            values = self.eval(module, self.parent.get((module, qualified), ""), expression)
            for value in (sorted(values, key=repr) if len(values) > 1 else values):  # a fixed order, as in _flush
                if value[0] == "def" and self.kind.get(value[1:]) == "class" and value[1:] not in bases:
                    bases.append(value[1:])
        return [(module, qualified)] + _merge([self._linearise(m, q, depth + 1) for m, q in bases] + [bases])


def _merge(sequences: list[list]) -> list:
    """C3 linearisation's merge; a plain concatenation without repeats where no consistent order exists."""
    sequences = [list(s) for s in sequences if s]
    merged: list = []
    while sequences:
        for sequence in sequences:
            head = sequence[0]
            if not any(head in other[1:] for other in sequences):
                break
        else:
            rest = [c for s in sequences for c in s]
            return merged + [c for i, c in enumerate(rest) if c not in rest[:i] and c not in merged]
        merged.append(head)
        sequences = [[c for c in s if c != head] for s in sequences]
        sequences = [s for s in sequences if s]
    return merged
