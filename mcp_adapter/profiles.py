"""Which tools the server lists: a lean default that costs a client ~3,000 tokens, or the full set by name.

A client sends the whole tool list with every model request, so fifty tools with their descriptions (~51 KB of
JSON) cost every request ~13,000 tokens. The default profile, `lean`, lists fourteen tools (~10 KB):
- the calls an agent makes in every task, under their own names, with a short description and a compact
  input schema (the same parameters, without their descriptions): `store_memory`, `retrieve_memories`,
  `search_code`, `get_context` and the GHAP cycle (`start_ghap`, `update_ghap`, `resolve_ghap`,
  `abandon_ghap`), which the CLAUDE.md section and the slash commands teach by name;
- six broader tools (`memories` to read, `memory_lifecycle` to change, `code`, `git`, `ghap`, `learning`),
  each taking an `action` and that action's `args` (reading and changing memories are apart so that a client
  may allow the one without the other: a slash command's allowed tools never include deleting); an action is one of the full tools, called with those arguments (so it answers,
  and refuses bad arguments, exactly as the full tool does).

Every tool of the full set stays callable by its name in every profile (a client or prompt written for it
keeps working); `learnmem-mcp --tools all` lists them all, and `--tools memories,git` lists those groups'.
"""

from __future__ import annotations

from typing import Any

# The groups of the full set (the `tools_*` modules), as `--tools` names them.
GROUPS = ("memories", "code", "git", "ghap", "learning", "context", "file", "jobs")
PROFILES = ("lean", "all")

# Listed in the lean profile under their own names: (name, description).
DIRECT = {
    "store_memory": "Store one memory (fact, decision, preference, correction...) for later sessions. A restatement "
                    "of a stored memory is not stored again; a credential is refused.",
    "retrieve_memories": "Find memories relevant to a query, by meaning and keywords, best first.",
    "search_code": "Find code units (functions, classes, methods) by meaning. Index first: code, action index.",
    "get_context": "What matters now: light at a task's start; rich, with your situation, after a failure or "
                   "before a risky change.",
    "start_ghap": "Start tracking an attempt: goal, hypothesis, action, prediction. One entry is active at a time.",
    "update_ghap": "Revise the active attempt as your belief changes, or add a note.",
    "resolve_ghap": "Close the active attempt with its outcome: confirmed, falsified (say the surprise and root "
                    "cause) or abandoned, and the lesson.",
    "abandon_ghap": "Give up the active attempt, saying why.",
}

# The broader tools: name -> (description, {action: the full tool it calls}).
ROUTERS: dict[str, tuple[str, dict[str, str]]] = {
    "memories": ("Read memories beyond retrieve: one whole, a filtered list, the capture queue, the documents "
                 "lessons name, the file's counts.", {
                     "get": "get_memory", "list": "list_memories", "queued": "list_queued_memories",
                     "docs_gaps": "docs_gaps", "info": "info"}),
    "memory_lifecycle": ("Change memories: store many, supersede (replace, keeping history), forget (hide; hard: "
                         "delete), restore, delete, compact near-duplicates, touch, review the stale ones (it "
                         "writes the counted use first), store the capture queue.", {
                             "store_many": "store_memories", "stale": "list_stale_memories",
                             "supersede": "supersede_memory", "forget": "forget",
                             "restore": "restore_memory", "delete": "delete_memory", "compact": "compact_memories",
                             "touch": "touch_memory", "flush_queued": "flush_queued_memories"}),
    "code": ("The code index: index a folder (incremental; a long run answers with a job to follow), similar code, "
             "callers and callees, what is indexed.", {
        "index": "index_codebase", "job": "job_status", "similar": "find_similar_code", "callers": "find_callers",
        "callees": "find_callees", "stats": "get_indexing_stats", "remove_file": "remove_file"}),
    "git": ("The git history: why code is as it is. Index first (action index), then search commits, a file's "
            "history, blame, hotspots, authors, a function's history.", {
                "index": "index_commits", "job": "job_status", "search": "search_commits",
                "file_history": "get_file_history",
                "blame": "get_blame", "hotspots": "get_churn_hotspots", "authors": "get_code_authors",
                "unit_history": "get_unit_history"}),
    "ghap": ("GHAP entries besides the cycle: the active one, past ones, an orphan an earlier session left "
             "active (adopt or abandon it), export and import.", {
                 "active": "get_active_ghap", "list": "list_ghap_entries", "orphan": "get_orphaned_entry",
                 "adopt_orphan": "adopt_orphan", "abandon_orphan": "abandon_orphan", "export": "export_ghap",
                 "import": "import_ghap"}),
    "learning": ("What earlier attempts taught: similar experiences, a premortem before a strategy, and the values "
                 "ritual (clusters, members, validate, store).", {
                     "experiences": "search_experiences", "premortem": "get_premortem", "clusters": "get_clusters",
                     "members": "get_cluster_members", "validate": "validate_value", "store_value": "store_value",
                     "values": "list_values", "search_values": "search_values"}),
}
# An action's argument under a clearer name than its full tool's: {(full tool, name in args): the tool's name}.
# export_ghap's `path_or_stream` is the library's (a Python caller may pass a stream); over MCP it is a path.
ARG_NAMES = {("export_ghap", "path"): "path_or_stream"}
ROUTED = {full: (router, action) for router, (_, actions) in ROUTERS.items() for action, full in actions.items()}


def parse(text: str) -> tuple[str, ...]:
    """The `--tools` value as a tuple: ("lean",), ("all",) or group names; a ValueError names what is allowed."""
    names = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    if names in (("lean",), ("all",)):
        return names
    unknown = [name for name in names if name not in GROUPS]
    if not names or unknown:
        raise ValueError(f"--tools {text!r}: give lean (the default), all, or groups among: {', '.join(GROUPS)}")
    return names


def compact_schema(node: Any) -> Any:
    """An input schema without titles and parameter descriptions, an optional value's `anyOf [T, null]` as T."""
    if isinstance(node, list):
        return [compact_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    options = node.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
        (kept,) = [option for option in options if option != {"type": "null"}]
        node = {**{k: v for k, v in node.items() if k != "anyOf"}, **kept}
        if node.get("default", ...) is None:
            del node["default"]
    return {key: compact_schema(value) for key, value in node.items()
            if key not in ("title", "description") or not isinstance(value, str)}


def router_description(description: str, actions: dict[str, str], schemas: dict[str, dict[str, Any]]) -> str:
    """The router's description: what it is for, then each action with its parameters (`?`: optional)."""
    listed = []
    for action, full in actions.items():
        schema = schemas[full]
        required = set(schema.get("required", []))
        shown = {tool_name: arg for (tool, arg), tool_name in ARG_NAMES.items() if tool == full}
        params = [shown.get(name, name) + ("" if name in required else "?") for name in schema.get("properties", {})]
        listed.append(f"{action}({', '.join(params)})")
    return f"{description} Actions, with their args: {'; '.join(listed)}."


def router_schema(actions: dict[str, str]) -> dict[str, Any]:
    return {"type": "object", "properties": {"action": {"type": "string", "enum": list(actions)},
                                             "args": {"type": "object"}}, "required": ["action"]}


def router_annotations(annotations: list[dict[str, Any]]) -> dict[str, Any]:
    """One tool's hints for many: read-only and idempotent only if every action is; destructive if any is."""
    return {"readOnlyHint": all(a.get("readOnlyHint") is True for a in annotations),
            "destructiveHint": any(a.get("destructiveHint") is True for a in annotations),
            "idempotentHint": all(a.get("idempotentHint") is True for a in annotations),
            "openWorldHint": False}


def action_arguments(full: str, args: dict[str, Any]) -> dict[str, Any]:
    """An action's args under its full tool's parameter names (ARG_NAMES)."""
    return {ARG_NAMES.get((full, name), name): value for name, value in args.items()}


__all__ = ["ARG_NAMES", "DIRECT", "action_arguments", "GROUPS", "PROFILES", "ROUTED", "ROUTERS", "compact_schema", "parse", "router_annotations",
           "router_description", "router_schema"]
