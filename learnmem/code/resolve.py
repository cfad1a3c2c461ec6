"""Resolve Python call sites to the units they call, across a whole project.

Static and conservative: a call resolves only when scopes, imports, classes and bases
say exactly where the callee is defined; anything else (builtins, external libraries,
dynamic attributes, ambiguous names) stays unresolved with its callee text kept.
Names are never matched across modules by spelling alone.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

from learnmem.code.languages import SCRIPT_LANGUAGES
from learnmem.code.localresolve import Names
from learnmem.code.model import CallSite, Import, ParsedFile, Unit
from learnmem.code.pycalls import UNKNOWN_RECEIVER

_MAX_DEPTH = (
    12  # re-export chains, base-class chains: deep enough for real code, stops cycles
)
_CALLER_TYPES = ("function", "method", "class")


@dataclass(frozen=True)
class Edge:
    caller_module: str
    caller_qualified_name: str  # "" = module top level
    callee_module: str | None  # None when unresolved
    callee_qualified_name: str | None  # "" = the module unit; None when unresolved
    callee_name: (
        str  # the callee as written, normalised: "load", "self.load", "a.b.load"
    )
    file_path: str
    line: int


# Stands in an MRO for a base class outside the project: lookups stop there, not knowing its members.
_UNKNOWN_CLASS = ("unknown",)
# Bases that add no methods a call could mean (beyond object's dunders): skipped, not unknown.
_TRANSPARENT_BASES = frozenset({"object", "ABC", "Generic", "Protocol"})

# A resolved name is either a unit ("unit", module, qualified_name) or a module ("module", name).
_Target = tuple


def resolve_calls(files: list[ParsedFile]) -> list[Edge]:
    """One edge per call site of every file, resolved where static analysis can.

    Python files get the full treatment (scopes, imports, classes, the flow analysis); other languages resolve
    to what their file or package defines (learnmem.code.localresolve), and JavaScript and TypeScript through
    their imports and exports too (learnmem.code.jsresolve).
    """
    project = _Project([f for f in files if f.language == "python"])
    from learnmem.code.jsresolve import JsProject

    others = [f for f in files if f.language != "python"]
    scripts = JsProject([f for f in others if f.language in SCRIPT_LANGUAGES])
    names = Names(others)
    edges: list[Edge] = [edge for f in others for edge in _file_edges(f, names, scripts)]
    flowed, flow_callers = _flow_targets(project)
    for parsed in project.files.values():
        sites = set()
        for call in parsed.calls:
            sites.add((call.line, call.callee))
            # What the flow reaches, else what the names say (the flow follows decorators and C3's order).
            reached = sorted(flowed.get((parsed.module, call.line, call.callee), ()))
            if not reached:
                target = project.resolve_call(parsed.module, call)
                reached = [(target[1], target[2]) if target else (None, None)]
            for callee_module, callee_qualified in reached:
                edges.append(Edge(parsed.module, call.caller, callee_module, callee_qualified, call.callee,
                                  parsed.path, call.line))
        # Decorators applied without a call of their own (`@dec`) and property reads: the flow's calls that are
        # no call site.
        for (line, callee), caller in flow_callers.get(parsed.module, {}).items():
            if (line, callee) not in sites:
                reached = flowed[(parsed.module, line, callee)]
                edges.extend(Edge(parsed.module, caller, m, q, callee, parsed.path, line) for m, q in sorted(reached))
    return edges


def _flow_targets(project: _Project) -> tuple[dict[tuple, set], dict[str, dict[tuple, str]]]:
    """(module, line, callee text) -> the units the flow analysis (learnmem.code.pyflow) says the call or
    property read there reaches; and module -> (line, callee text) -> the unit it is made in."""
    from learnmem.code.pyflow import Flow

    reached: dict[tuple, set] = {}
    callers: dict[str, dict[tuple, str]] = {}
    modules = {m: f.flow for m, f in project.files.items() if f.flow is not None}
    if not modules:
        return reached, callers
    flow = Flow(modules, {m: project.files[m].imports for m in modules})
    for module, facts in modules.items():
        reads = [(scope, line, text, flow.properties(module, scope, expression))
                 for scope, line, text, expression in facts.get("reads", ())]
        calls = [(scope, line, callee, flow.targets(module, index))
                 for index, (scope, line, callee, *_) in enumerate(facts["calls"])]
        for scope, line, callee, targets in calls + reads:
            units = {t for t in targets if t in project.units}
            if units:
                reached.setdefault((module, line, callee), set()).update(units)
                callers.setdefault(module, {})[(line, callee)] = _innermost_unit(project, module, scope)
    return reached, callers


def _innermost_unit(project: _Project, module: str, scope: str) -> str:
    """`scope` when it is a unit, else the nearest enclosing one ("" for the module's top level)."""
    while scope and (module, scope) not in project.units:
        scope = scope.rpartition(".")[0]
    return scope


def _file_edges(parsed: ParsedFile, names: Names, scripts) -> list[Edge]:
    """Edges of a file in a language other than Python: what its file or package defines (`Names`), then for
    JavaScript and TypeScript what its imports, exports and `extends` reach (learnmem.code.jsresolve)."""
    edges = []
    for call in parsed.calls:
        found = names.resolve(parsed, call.caller, call.callee)
        if found is None:
            reached = scripts.resolve(parsed, call.caller, call.callee)
            found = (scripts.files[reached[0]].module, reached[1]) if reached else None
        edges.append(Edge(parsed.module, call.caller, found[0] if found else None, found[1] if found else None,
                          call.callee, parsed.path, call.line))
    return edges


class _Project:
    """Symbol tables of all modules, and the lookups resolution is made of."""

    def __init__(self, files: list[ParsedFile]) -> None:
        self.files: dict[str, ParsedFile] = {}
        for parsed in files:
            self.files.setdefault(
                parsed.module, parsed
            )  # a duplicate module name: first file wins
        self.units: dict[tuple[str, str], Unit] = {}
        # (module, scope qualified name) -> local name -> bindings (a name bound twice stays ambiguous)
        self.scopes: dict[tuple[str, str], dict[str, list[tuple]]] = {}
        self.stars: dict[
            str, list[str]
        ] = {}  # module -> modules it star-imports at top level
        for module, parsed in self.files.items():
            self._index(module, parsed)

    # ---------------------------------------------------------------- symbol tables

    def _index(self, module: str, parsed: ParsedFile) -> None:
        spans = []
        for unit in parsed.units:
            if unit.unit_type not in _CALLER_TYPES:
                continue
            self.units.setdefault((module, unit.qualified_name), unit)
            parent, _, name = unit.qualified_name.rpartition(".")
            self._bind(module, parent, name, ("unit", module, unit.qualified_name))
            spans.append((unit.start_line, unit.end_line, unit.qualified_name))
        spans.sort(key=lambda span: (span[0], -span[1]))
        for imported in parsed.imports:
            scope = _innermost(spans, imported.line)
            if imported.local == "*":
                if scope == "":
                    self.stars.setdefault(module, []).append(imported.module)
                continue
            self._bind(module, scope, imported.local, ("import", imported))

    def _bind(self, module: str, scope: str, name: str, binding: tuple) -> None:
        bindings = self.scopes.setdefault((module, scope), {}).setdefault(name, [])
        if binding not in bindings:
            bindings.append(binding)

    # ---------------------------------------------------------------- calls

    def resolve_call(self, module: str, call: CallSite) -> _Target | None:
        callee = call.callee
        if callee.startswith("super()."):
            return self._resolve_super(module, call.caller, callee[len("super().") :])
        parts = callee.split(".")
        if not all(part.isidentifier() for part in parts):
            return None
        if (
            parts[0] in ("self", "cls")
            and self._enclosing_class(module, call.caller) is not None
        ):
            return self._resolve_self(module, call.caller, parts)
        if call.receiver_type:
            # A local variable or parameter shadows every outer binding of its name: only a
            # constructor assigned to it in this very scope tells what it is.
            if call.receiver_type == UNKNOWN_RECEIVER or len(parts) != 2:
                return None
            return self._resolve_receiver(
                module, call.caller, call.receiver_type, parts[1]
            )
        target = self._resolve_dotted(module, call.caller, parts)
        return self._callable(target)

    def _resolve_self(
        self, module: str, caller: str, parts: list[str]
    ) -> _Target | None:
        if len(parts) != 2:
            return None  # self.attr.m(): the attribute's type is unknown
        cls = self._enclosing_class(module, caller)
        return self._method(cls, parts[1]) if cls else None

    def _resolve_super(self, module: str, caller: str, method: str) -> _Target | None:
        cls = self._enclosing_class(module, caller)
        if cls is None or not method.isidentifier():
            return None
        for base in self._mro(cls)[1:]:
            if base == _UNKNOWN_CLASS:
                return None  # an external base may define it first
            found = self._own_member(base, method)
            if found:
                return self._callable(found)
        return None

    def _resolve_receiver(
        self, module: str, caller: str, constructor: str, method: str
    ) -> _Target | None:
        parts = constructor.split(".")
        if not all(part.isidentifier() for part in parts):
            return None
        cls = self._resolve_dotted(module, caller, parts)
        if not self._is_class(cls):
            return None
        return self._method(cls, method)

    def _callable(self, target: _Target | None) -> _Target | None:
        """What calling `target` runs: a function itself; a class's __init__ (or the class); never a module."""
        if target is None or target[0] != "unit":
            return None
        if self._is_class(target):
            init = self._method(target, "__init__")
            return init if init is not None else target
        return target

    # ---------------------------------------------------------------- names

    def _resolve_dotted(
        self, module: str, caller: str, parts: list[str]
    ) -> _Target | None:
        """`a.b.c` seen from `caller`: the longest bound prefix, then attribute steps."""
        for end in range(len(parts), 0, -1):
            bound, head = self._lookup(module, caller, ".".join(parts[:end]))
            if bound:
                return self._walk_attributes(head, parts[end:])
        return None

    def _lookup(
        self, module: str, caller: str, name: str
    ) -> tuple[bool, _Target | None]:
        """A name in the caller's scope chain: own scope, enclosing defs (not classes), module.

        Returns (bound, target): a name bound to something unknown (an external import)
        still shadows outer scopes, so it is not looked up any further.
        """
        for scope in self._scope_chain(module, caller):
            bindings = self.scopes.get((module, scope), {}).get(name)
            if bindings:
                return True, self._binding_target(bindings, 0)
        if "." not in name:
            found = self._star_lookup(module, name, 0)
            return found is not None, found
        return False, None

    def _scope_chain(self, module: str, caller: str) -> list[str]:
        chain = [caller]
        scope = caller
        while scope:
            scope = scope.rpartition(".")[0]
            unit = self.units.get((module, scope))
            if scope and unit is not None and unit.unit_type == "class":
                continue  # class bodies are not visible from their methods
            chain.append(scope)
        return chain

    def _binding_target(self, bindings: list[tuple], depth: int) -> _Target | None:
        targets = {self._follow(binding, depth) for binding in bindings}
        # Bound twice to different things (try/except imports, redefinition): we cannot tell which.
        return targets.pop() if len(targets) == 1 else None

    def _follow(self, binding: tuple, depth: int) -> _Target | None:
        if binding[0] == "unit":
            return binding
        imported: Import = binding[1]
        if not imported.name:
            return (
                ("module", imported.module) if imported.module in self.files else None
            )
        found = self._module_member(imported.module, imported.name, depth + 1)
        submodule = f"{imported.module}.{imported.name}"
        # `from . import util` inside pkg/__init__ binds the submodule, not a name of pkg itself.
        if found is None and submodule in self.files:
            return ("module", submodule)
        return found

    def _module_member(self, module: str, name: str, depth: int) -> _Target | None:
        """`module.name`: a top-level def, a re-exported import (followed), or a submodule."""
        if depth > _MAX_DEPTH:
            return None
        if module in self.files:
            bindings = self.scopes.get((module, ""), {}).get(name)
            if bindings:
                return self._binding_target(bindings, depth)
            found = self._star_lookup(module, name, depth)
            if found is not None:
                return found
        submodule = f"{module}.{name}"
        return ("module", submodule) if submodule in self.files else None

    def _star_lookup(self, module: str, name: str, depth: int) -> _Target | None:
        if name.startswith("_"):
            return None  # `import *` skips private names (no __all__ tracking)
        for source in reversed(self.stars.get(module, [])):  # a later `import *` rebinds the names it defines
            if source in self.files and depth < _MAX_DEPTH:
                found = self._module_member(source, name, depth + 1)
                if found is not None and found[0] == "unit":
                    return found
        return None

    def _walk_attributes(
        self, target: _Target | None, rest: list[str]
    ) -> _Target | None:
        for attribute in rest:
            if target is None:
                return None
            if target[0] == "module":
                target = self._module_member(target[1], attribute, 0)
            elif self._is_class(target):
                target = self._member(target, attribute)
            else:
                return None  # an attribute of a function (or of an instance): unknown
        return target

    # ---------------------------------------------------------------- classes

    def _is_class(self, target: _Target | None) -> bool:
        if target is None or target[0] != "unit":
            return False
        unit = self.units.get((target[1], target[2]))
        return unit is not None and unit.unit_type == "class"

    def _enclosing_class(self, module: str, caller: str) -> _Target | None:
        """The class whose method (or a closure inside it) `caller` is."""
        parts = caller.split(".") if caller else []
        for end in range(len(parts) - 1, 0, -1):
            target = ("unit", module, ".".join(parts[:end]))
            if self._is_class(target):
                return target
        return None

    def _method(self, cls: _Target, name: str) -> _Target | None:
        found = self._member(cls, name)
        return found if found is not None and not self._is_class(found) else None

    def _member(self, cls: _Target, name: str) -> _Target | None:
        """`name` looked up on a class: its own body first, then its bases in MRO order."""
        for klass in self._mro(cls):
            if klass == _UNKNOWN_CLASS:
                return None  # an external base comes first: it may define `name` itself
            found = self._own_member(klass, name)
            if found is not None:
                return found
        return None

    def _own_member(self, cls: _Target, name: str) -> _Target | None:
        qualified = f"{cls[2]}.{name}"
        return (
            ("unit", cls[1], qualified) if (cls[1], qualified) in self.units else None
        )

    def _mro(self, cls: _Target, depth: int = 0) -> list[_Target]:
        """The class, then its bases depth-first, left to right, each once; unknown bases as a marker."""
        order: list[_Target] = [cls]
        if depth > _MAX_DEPTH:
            return order + [_UNKNOWN_CLASS]
        for base in self._bases(cls):
            for klass in (
                self._mro(base, depth + 1) if base != _UNKNOWN_CLASS else [base]
            ):
                if klass not in order:
                    order.append(klass)
        return order

    def _bases(self, cls: _Target) -> list[_Target]:
        """Project classes a class derives from, `_UNKNOWN_CLASS` for each base defined elsewhere."""
        module, qualified = cls[1], cls[2]
        unit = self.units[(module, qualified)]
        scope = qualified.rpartition(".")[
            0
        ]  # bases are evaluated where the class statement is
        found = []
        for written in unit.bases:
            expression = written.split("[", 1)[0].strip()  # Generic[T] -> Generic
            if "=" in expression or expression.startswith("*"):
                continue  # metaclass=..., keyword arguments
            parts = expression.split(".")
            if parts[-1] in _TRANSPARENT_BASES:
                continue
            target = None
            if all(part.isidentifier() for part in parts):
                target = self._resolve_dotted(module, scope, parts)
            found.append(
                target if self._is_class(target) and target != cls else _UNKNOWN_CLASS
            )
        return found


def _innermost(spans: list[tuple[int, int, str]], line: int) -> str:
    """The qualified name of the innermost def/class spanning `line`; "" at module level. `spans` are
    (start, end, name) sorted by start, the longer first where two start on one line: nested spans start later
    than what holds them, so the last span starting at or before `line` that still spans it is the innermost."""
    for start, end, name in reversed(spans[:bisect.bisect_right(spans, (line, math.inf))]):
        if end >= line:
            return name
    return ""
