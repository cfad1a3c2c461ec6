"""The public surface, pinned: what users and agents call must not move when the code inside does.

Pinned in `tests/surface/` (JSON, one file per door):
- `python.json`: `learnmem.__all__`, every public `Learnmem` method and property with its signature, the
  error types with their bases, and every record type those signatures name, with its fields;
- `cli.json`: `learnmem --help` and the help of every command and sub-command;
- `mcp.json`: the full tool list (`--tools all`: name, description, input schema, annotations), the `sql` tool
  included; `mcp-lean.json`: the default (lean) list;
- `sql.json`: the tables and the public views of a new file, with their columns.

A change of surface is a decision, not an accident: after making it on purpose, rewrite the pins with
`LEARNMEM_PIN_SURFACE=1 pytest tests/test_surface.py` and commit the diff with the change.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import json
import os
import re
from pathlib import Path
from typing import Any

import anyio
import pytest

import learnmem
from learnmem import errors

PINS = Path(__file__).resolve().parent / "surface"
REWRITE = os.environ.get("LEARNMEM_PIN_SURFACE") == "1"


def _check(name: str, actual: Any) -> None:
    path = PINS / f"{name}.json"
    text = json.dumps(actual, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if REWRITE:
        PINS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    pinned = json.loads(path.read_text(encoding="utf-8"))
    assert json.loads(text) == pinned, f"the public surface in {path.name} moved; see this module's docstring"


def _record_fields(cls: type) -> dict[str, str]:
    return {field.name: str(field.type) for field in dataclasses.fields(cls)}


def _python_surface() -> dict[str, Any]:
    api = learnmem.Learnmem
    # The facade and the classes of methods it is made of (learnmem.api.ghap), with the names their modules import.
    members: dict[str, Any] = {}
    namespace: dict[str, Any] = {}
    for cls in reversed(api.__mro__[:-1]):
        members.update(vars(cls))
        namespace.update(vars(inspect.getmodule(cls)))
    methods: dict[str, str] = {}
    named: dict[str, type] = {}
    for name, member in sorted(members.items()):
        if name.startswith("_") and name != "__init__":
            continue
        if isinstance(member, property):
            signature = "property -> " + str(inspect.signature(member.fget).return_annotation)
        elif callable(member):
            signature = str(inspect.signature(member))
        else:
            continue
        # A record named through its module (`compaction.CompactResult`) is pinned by its own name: the
        # module that holds it is not the surface.
        methods[name] = re.sub(r"\b[a-z_]\w*\.(?=[A-Z])", "", signature)
        for module, record in re.findall(r"(?:\b([a-z_]\w*)\.)?\b([A-Z]\w*)", signature):
            holder = namespace.get(module) if module else None
            found = getattr(holder, record, None) if module else namespace.get(record)
            if isinstance(found, type) and dataclasses.is_dataclass(found):
                named[record] = found
    records = {name: _record_fields(cls) for name, cls in sorted(named.items())}
    exported = {name: _record_fields(getattr(learnmem, name)) for name in learnmem.__all__
                if dataclasses.is_dataclass(getattr(learnmem, name))}
    error_types = {name: [base.__name__ for base in cls.__bases__] for name, cls in sorted(vars(errors).items())
                   if isinstance(cls, type) and issubclass(cls, Exception) and cls.__module__ == errors.__name__}
    return {"all": sorted(learnmem.__all__), "Learnmem": methods, "records": {**records, **exported},
            "errors": error_types, "open": str(inspect.signature(learnmem.open)),
            "init_project": str(inspect.signature(learnmem.init_project))}


def _cli_helps() -> dict[str, str]:
    from learnmem.cli import build_parser

    helps: dict[str, str] = {}

    def walk(parser: argparse.ArgumentParser, words: tuple[str, ...]) -> None:
        helps[" ".join(words)] = parser.format_help()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    walk(child, (*words, name))

    walk(build_parser(), ("learnmem",))
    return helps


def _served_tools(profile: str) -> dict[str, Any]:
    from mcp_adapter.server import build_server

    server = build_server(object(), allow_sql=True, tools=profile)
    tools = anyio.run(server.list_tools)
    return {tool.name: {"description": tool.description, "input_schema": tool.input_schema,
                        "annotations": tool.annotations.model_dump(mode="json") if tool.annotations else None}
            for tool in tools}


def test_python_surface() -> None:
    _check("python", _python_surface())


def test_cli_surface(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")  # argparse wraps help to the terminal's width
    _check("cli", _cli_helps())


def test_mcp_surface() -> None:
    _check("mcp", _served_tools("all"))  # every tool under the library's names (`--tools all`)
    _check("mcp-lean", _served_tools("lean"))  # what a client is served by default


def test_sql_surface(tmp_path: Path) -> None:
    with learnmem.open(tmp_path / "surface.duckdb") as lm:
        rows = lm.sql("SELECT c.table_name, c.column_name, c.data_type, v.view_name IS NOT NULL AS is_view "
                      "FROM duckdb_columns() c LEFT JOIN duckdb_views() v "
                      "ON v.view_name = c.table_name AND v.schema_name = c.schema_name "
                      "WHERE c.schema_name = 'main' AND NOT c.internal ORDER BY c.table_name, c.column_index").fetchall()
    surface: dict[str, dict[str, Any]] = {}
    for table, column, data_type, is_view in rows:
        entry = surface.setdefault(table, {"view": bool(is_view), "columns": {}})
        entry["columns"][column] = data_type
    _check("sql", surface)


def test_the_pins_cover_every_door() -> None:
    # Guards against a pin file that went empty and so pins nothing.
    for name, least in {"python": 4, "cli": 20, "mcp": 20, "mcp-lean": 10, "sql": 10}.items():
        pinned = json.loads((PINS / f"{name}.json").read_text(encoding="utf-8"))
        assert len(pinned) >= least, f"{name}.json pins only {len(pinned)} entries"
