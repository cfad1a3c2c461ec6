"""Questions about the call graph: who calls this function, what does it call."""

from __future__ import annotations

from dataclasses import dataclass

from learnmem.storage import sql
from learnmem import validate
from learnmem.storage.store import Store


@dataclass(frozen=True)
class CallEdge:
    """One call site: the calling unit, the called unit (None where unresolved), where the call is."""

    project: str
    caller_module: str
    caller_qualified_name: str
    callee_module: str | None
    callee_qualified_name: str | None
    callee_name: str
    file_path: str
    line: int


def _edges(store: Store, query: str, function_name: str, project: str | None) -> list[CallEdge]:
    params = {
        "name": validate.text("function_name", function_name, max_chars=500),
        "project": None if project is None else validate.text("project", project, max_chars=200),
    }
    with store.read() as con:
        return [CallEdge(*row) for row in con.execute(query, params).fetchall()]


def find_callers(store: Store, function_name: str, project: str | None = None) -> list[CallEdge]:
    """Every call site calling `function_name` (bare, qualified or module-qualified); a bare name matches all."""
    return _edges(store, sql.query("find_callers"), function_name, project)


def find_callees(store: Store, function_name: str, project: str | None = None) -> list[CallEdge]:
    """Every call made inside `function_name` (bare, qualified or module-qualified)."""
    return _edges(store, sql.query("find_callees"), function_name, project)
