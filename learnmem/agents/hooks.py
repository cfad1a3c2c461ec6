"""Claude Code hooks: `learnmem hook <event>` reads the event's JSON on stdin and answers on stdout.

Events (kebab-case or Claude Code's own names):

- session-start (SessionStart): a new learnmem session (on `startup` and `clear`; `resume` and `compact`
  keep the current one), a word about an entry an earlier session left active (an orphan) and how to keep
  or drop it, and light context (`get_context(depth="light")`), for the newest active spec when the
  project has one (learnmem.context.specs: `docs/spec/active/` by default).
- user-prompt-submit (UserPromptSubmit): when the prompt refers to earlier work ("why did we", "last
  time", "remind me", "the plan", ...) or names a file or function the code index knows, rich context for
  it (`get_context(situation=prompt, depth="rich", include_code=False)`: similar experiences, values,
  patterns, memories). Any other prompt costs no database and no model: nothing is printed.
- pre-tool-use (PreToolUse): counts the tool call; every LEARNMEM_CHECKIN_EVERY calls (default 10) it shows
  the active GHAP entry and asks for an update, or, with none active, nudges in one line to start one.
- post-tool-use (PostToolUse) and post-tool-use-failure (PostToolUseFailure): when a Bash command was a
  test or build run and an entry is active, the run's outcome is recorded against it
  (`ghap.record_observation`) and the agent is asked to resolve or revise the entry. A resolution that
  agrees with the latest run since the entry's prediction was set (passed -> confirmed, failed ->
  falsified) is auto-captured, hence gold (`ghap.resolve_ghap`).
- session-end (SessionEnd): ends the session (`end_session`, which abandons an active entry).

Output is Claude Code's hook JSON, `{"hookSpecificOutput": {"hookEventName": ..., "additionalContext":
...}}`, or nothing. The file is the project's default one (`--db`, else `$LEARNMEM_DB`, else
`<git root of the hook's cwd>/.learnmem/learnmem.duckdb`, then of `$CLAUDE_PROJECT_DIR`); where there is
none, a hook does nothing and creates nothing.

A hook never fails the agent's action: whatever goes wrong (malformed stdin, an unknown event, a locked
or broken file) it prints nothing and exits 0, and the error goes to `hooks.log` beside the file (cut to
its newest half past LOG_MAX_BYTES), or to stderr when that folder does not exist.

The tool counter. PreToolUse runs before every tool call, so its process must stay near 100 ms, and
`import duckdb` alone takes 80-140 ms on a small machine. So the counting happens in a small file beside
the database (`<file>.tool-calls`, one integer, updated under an exclusive lock). When the next call will
be due, the PostToolUse before it moves the pending calls into `sessions.tool_count` and decides the
check-in from the database in one transaction (`ghap.hand_over_tool_calls`), writing it to
`<file>.check-in`; the due PreToolUse prints and removes it without opening the database. Without that
PostToolUse (a denied tool), the due PreToolUse does the hand-over itself. There is one count: every call
is in exactly one of the two places, `sessions.tool_count` (what `should_check_in` and the other doors
read) plus at most LEARNMEM_CHECKIN_EVERY - 1 calls not yet handed over. Starting or ending a session, and
the agent's own GHAP calls (start/update/resolve, MCP or CLI), zero the pending count.

Observed outcomes. Claude Code reports a Bash command that exited 0 as PostToolUse (`tool_response`:
stdout, stderr, interrupted) and one that failed as PostToolUseFailure (`error`: "Exit code N" and the
output). learnmem.agents.test_runs tells whether the command was a test or build run and what it came to.
Observations live in `ghap_observations` (migration 007), appended and kept: they are the evidence behind
a gold tier.

Context. Hooks are one-shot processes: the facade's in-memory indexes and its imports (numpy, pyarrow)
would cost more than the budget, so `context.get_context` runs over `learnmem.context.oneshot.OneShotView`, which
answers the same calls with exact cosine similarity computed in SQL (hooks.sql) on one connection.

Served. While the agent's MCP server runs, `learnmem hook` asks it first (learnmem.agents.hook_socket) and
the server answers through `serve`: the same handlers, with its facade's store, warm model and indexes
(learnmem.agents.hook_views). Without a server the process answers itself, as described above.

Only the standard library is imported at module level; DuckDB, the facade and the model load inside the
handlers that need them.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from learnmem.agents.hook_paths import HookPaths, locate
from learnmem.agents.hook_socket import MAX_STDIN_BYTES  # noqa: F401 - re-exported: the hook's input limit
from learnmem.agents import hook_views
from learnmem.context.oneshot import EMBEDDING_DIM
from learnmem.storage.paths import project_root
from learnmem.agents.prompt_refs import (
    code_name_candidates,
    known_code_names,
    refers_to_earlier_work,
)
from learnmem.context.specs import active_specs
from learnmem.agents.test_runs import detect_test_command, judge_run
from learnmem.text import LazyPattern, clip
from learnmem.agents.tool_counter import (
    count_tool_call,
    pending_tool_calls,
    reset_counter,
    take_prepared,
    update_counter,
)

# Claude Code's event names, by the kebab-case names the command accepts.
EVENTS = {
    "session-start": "SessionStart",
    "user-prompt-submit": "UserPromptSubmit",
    "pre-tool-use": "PreToolUse",
    "post-tool-use": "PostToolUse",
    "post-tool-use-failure": "PostToolUseFailure",
    "stop": "Stop",
    "session-end": "SessionEnd",
}
# Events whose answer reaches the agent as hookSpecificOutput.additionalContext; the others' answer is a
# systemMessage, shown to the user.
CONTEXT_EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure")
MESSAGE_EVENTS = ("Stop", "SessionEnd")

DEFAULT_CHECKIN_EVERY = 10
DEFAULT_SESSION_TOKENS = 1500  # light context at session start
DEFAULT_PROMPT_TOKENS = 800  # rich context for a prompt about earlier work
MIN_TOKENS, MAX_TOKENS = 100, 32_000  # context.get_context's range
MAX_CONTEXT_CHARS = 9_500  # Claude Code caps a hook's additionalContext at 10,000 characters
MAX_SITUATION_CHARS = 2_000  # context.get_context's limit on `situation`
LOG_MAX_BYTES = 256 * 1024
# How long a `learnmem hook` process waits for a file another process holds (a notebook, a long write),
# instead of the library's 10 s: the agent is waiting. Past it the hook logs StoreBusyError and says nothing.
LOCK_DEADLINE_S = 2.0
_wait_s: float | None = None  # handle's wait_s, applied when the store is first imported (_store)


# -- events and paths ----------------------------------------------------------------------------------


def canonical_event(name: Any) -> str | None:
    """Claude Code's name for `name` (session-start, SessionStart, session_start, SESSION-START), or None."""
    if not isinstance(name, str):
        return None
    key = re.sub(r"(?<=[a-z])(?=[A-Z])", "-", name.strip()).replace("_", "-").lower()
    return EVENTS.get(key)


# -- the entry point ---------------------------------------------------------------------------------------


def handle(event: str | None, raw: bytes | str, db: str | None = None,
           environ: Mapping[str, str] | None = None, wait_s: float | None = None,
           paths: HookPaths | None = None) -> str:
    """Answer one hook event: the text to print (Claude Code's hook JSON), or "" for nothing. Never raises:
    every failure is logged (see the module docstring). `wait_s`: how long this process may wait for a file
    another process holds (the `learnmem hook` process passes LOCK_DEADLINE_S; None keeps the library's).
    `paths`: where the hook works, when the caller has located it already (else from `db` and the payload)."""
    global _wait_s
    environ = os.environ if environ is None else environ
    _wait_s = wait_s
    started = time.perf_counter()
    payload: dict[str, Any] = {}
    problem = None
    try:
        text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
        value = json.loads(text)
        if isinstance(value, dict):
            payload = value
        else:
            problem = f"stdin: expected a JSON object, got {type(value).__name__}"
    except ValueError as error:
        problem = f"stdin: not JSON ({error}); got {_preview(raw)}"
    name = canonical_event(event if event else payload.get("hook_event_name"))
    try:
        paths = paths or locate(db, payload, environ)
        if name is None:
            allowed = ", ".join(EVENTS)
            _log(paths, "hook", f"event: {event or payload.get('hook_event_name')!r} is not one of: {allowed} "
                                f"(or their Claude Code names, e.g. SessionStart)")
            return ""
        if problem is not None:
            _log(paths, name, problem)
            return ""
        if not paths.set_up:  # learnmem is not set up here: do nothing, create nothing
            return ""
        paths.folder.mkdir(exist_ok=True)  # a lake's: the hooks' small files go there
        context = HANDLERS[name](payload, paths, environ)
        if environ.get("LEARNMEM_DEBUG"):
            _log(paths, name, f"answered in {(time.perf_counter() - started) * 1000:.0f} ms "
                              f"({len(context or '')} characters)")
        return render(name, context)
    except Exception as error:  # noqa: BLE001 - a hook must never fail the agent's action
        _log(paths, name or "hook", f"{type(error).__name__}: {error}", _traceback())
        return ""


def serve(facade: Any, paths: HookPaths, event: str | None, raw: bytes, environ: Mapping[str, str]) -> str:
    """Answer one hook event in a long-lived process that holds `facade`, open on the file of `paths` (the
    MCP server, through learnmem.agents.hook_server): as handle, with the facade's store, warm model and
    indexes (hook_views). Not reentrant: the caller answers one event at a time."""
    with hook_views.serving(facade):
        return handle(event, raw, environ=environ, paths=paths)


def render(event: str, context: str | None) -> str:
    """Claude Code's hook output for `event` carrying `context` ("" when there is nothing to say)."""
    if context and event in MESSAGE_EVENTS:
        return json.dumps({"systemMessage": clip(context, MAX_CONTEXT_CHARS)}, ensure_ascii=False)
    if not context or event not in CONTEXT_EVENTS:
        return ""
    if len(context) > MAX_CONTEXT_CHARS:
        context = context[:MAX_CONTEXT_CHARS - 1] + "…"
    return json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}},
                      ensure_ascii=False)


def _traceback() -> str:
    import traceback  # only when something failed

    return traceback.format_exc()


def _preview(raw: bytes | str, width: int = 80) -> str:
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else str(raw)
    return repr(text[:width] + ("…" if len(text) > width else "")) if text else "nothing"


def _log(paths: HookPaths | None, event: str, message: str, details: str | None = None) -> None:
    """One line (plus `details`) in hooks.log beside the file; stderr when that folder does not exist."""
    line = f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} {event} pid={os.getpid()} {message}\n"
    if details:
        line += "".join(f"    {row}\n" for row in details.rstrip().splitlines()[-12:])
    try:
        if paths is None or not paths.folder.is_dir():
            sys.stderr.write(f"learnmem hook: {message}\n")
            return
        log = paths.log
        if log.exists() and log.stat().st_size > LOG_MAX_BYTES:
            kept = log.read_bytes()[-LOG_MAX_BYTES // 2:]
            kept = kept[kept.find(b"\n") + 1:]
            tmp = log.with_name(f"{log.name}.{os.getpid()}.tmp")
            tmp.write_bytes(kept)
            os.replace(tmp, log)
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(line)
    except OSError:
        pass


def _int_setting(environ: Mapping[str, str], name: str, default: int, low: int, high: int,
                 paths: HookPaths) -> int:
    raw = environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        _log(paths, "settings", f"{name}: {raw!r} is not an integer in [{low}, {high}]; using {default}")
        return default
    return value


def _store(paths: HookPaths, read_only: bool = False):
    """The file (or lake) without the facade: DuckDB only, no numpy, pyarrow or model (as `learnmem ghap status`).
    Served (see serve): the server's own store."""
    served = hook_views.served()
    if served is not None:
        return served.store
    from learnmem.storage import store
    from learnmem.embedding.embed import DEFAULT_MODEL

    if _wait_s is not None:  # this process is a hook: the agent waits while it does
        store.LOCK_DEADLINE_S = min(store.LOCK_DEADLINE_S, _wait_s)
    if paths.lake is None:  # the usual case: a file, without the lake's modules
        return store.Store(paths.db, read_only=read_only, embedding_model=DEFAULT_MODEL, embedding_dim=EMBEDDING_DIM)
    from learnmem.storage.lake_store import LakeStore

    return LakeStore(paths.lake, data_path=os.environ.get("LEARNMEM_LAKE_DATA_PATH") or None, read_only=read_only,
                     embedding_model=DEFAULT_MODEL, embedding_dim=EMBEDDING_DIM)


def _entry_lines(entry: Any) -> str:
    """An active entry (ActiveGhap, or a row dict) as the lines the agent reads."""
    get = entry.get if isinstance(entry, Mapping) else lambda key: getattr(entry, key)
    return "\n".join([
        f"{get('id')} ({get('domain')}, {get('strategy')}, iteration {get('iteration_count')})",
        f"  goal: {clip(get('goal'), 300)}",
        f"  hypothesis: {clip(get('hypothesis'), 300)}",
        f"  action: {clip(get('action'), 300)}",
        f"  prediction: {clip(get('prediction'), 300)}",
    ])


# -- SessionStart ------------------------------------------------------------------------------------------

ORPHAN_HELP = (
    "If you are continuing that work, adopt it into this session: adopt_orphan (CLI: `learnmem ghap adopt`); "
    "update_ghap and resolve_ghap act on it either way. If not, close it with your reason: abandon_orphan "
    "(CLI: `learnmem ghap abandon \"<reason>\"`).")


def session_start(payload: Mapping[str, Any], paths: HookPaths, environ: Mapping[str, str]) -> str | None:
    """Start (or, on resume/compact, keep) the session; report an orphan; light context."""
    from learnmem.learning import ghap

    tokens = _int_setting(environ, "LEARNMEM_HOOK_CONTEXT_TOKENS", DEFAULT_SESSION_TOKENS, MIN_TOKENS, MAX_TOKENS,
                          paths)
    store = _store(paths)
    if payload.get("source") in ("resume", "compact"):
        ghap.get_session_id(store)  # the same conversation goes on: its session (a new one if it was ended)
    else:
        ghap.start_session(store)
        reset_counter(paths)
    parts = [line for line in (take_flushed(paths),) if line]
    view = hook_views.view(store)  # from here on the hook only reads: one connection
    try:
        orphan = ghap.get_orphaned_entry(view.store)
        if orphan.has_active:
            parts.append(f"learnmem: an earlier session left a GHAP entry active (created {orphan.created_at}):\n"
                         f"{_entry_lines(orphan)}\n{ORPHAN_HELP}")
        specs = active_specs(_project_dir(payload, paths, environ), environ)
        if len(specs) > 1:
            parts.append(f"learnmem: active specs {', '.join(specs)}; the context below is for {specs[0]}, the "
                         "most recently changed (`learnmem context --spec SLUG` shows another's).")
        try:
            context = get_context(paths, view, "SessionStart", depth="light", max_tokens=tokens,
                                  spec=specs[0] if specs else None)
        except Exception as error:  # noqa: BLE001 - the session and the orphan notice stand without it
            _log(paths, "SessionStart", f"light context failed: {type(error).__name__}: {error}", _traceback())
        else:
            if context.items:
                parts.append(context.markdown)
    finally:
        view.close()
    return "\n\n".join(parts) or None


def _project_dir(payload: Mapping[str, Any], paths: HookPaths, environ: Mapping[str, str]) -> Path:
    """The project the agent works in: the root of the payload's cwd, else of $CLAUDE_PROJECT_DIR, else of
    the folder that holds the file's .learnmem/."""
    for folder in (payload.get("cwd"), environ.get("CLAUDE_PROJECT_DIR")):
        if isinstance(folder, str) and folder and Path(folder).is_dir():
            return project_root(Path(folder))
    return project_root(paths.folder.parent)


# -- UserPromptSubmit --------------------------------------------------------------------------------------

def user_prompt_submit(payload: Mapping[str, Any], paths: HookPaths, environ: Mapping[str, str]) -> str | None:
    """Rich context when the prompt refers to earlier work or names indexed code; otherwise nothing. The
    line of the last capture flush comes first, once."""
    flushed = take_flushed(paths)
    context = _prompt_context(payload, paths, environ)
    return "\n\n".join(part for part in (flushed, context) if part) or None


def _prompt_context(payload: Mapping[str, Any], paths: HookPaths, environ: Mapping[str, str]) -> str | None:
    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return None
    earlier = refers_to_earlier_work(prompt)
    names = code_name_candidates(prompt)
    if not earlier and not names:
        return None  # the fast path: no database, no model
    view = hook_views.view(_store(paths, read_only=True))
    try:
        known = known_code_names(view.store, names) if names else []
        if not earlier and not known:
            return None
        tokens = _int_setting(environ, "LEARNMEM_HOOK_PROMPT_TOKENS", DEFAULT_PROMPT_TOKENS, MIN_TOKENS,
                              MAX_TOKENS, paths)
        context = get_context(paths, view, "UserPromptSubmit", situation=clip(prompt, MAX_SITUATION_CHARS),
                              depth="rich", max_tokens=tokens, include_code=False)
    finally:
        view.close()
    if not context.items:
        return None
    lines = [context.markdown]
    if known:
        lines.append("Indexed code the prompt names: " + ", ".join(f"`{name}` ({where})" for name, where in known))
    return "\n\n".join(lines)


# -- context ------------------------------------------------------------------------------------------------


def get_context(paths: HookPaths, view: Any, event: str, **arguments: Any):
    """context.get_context for a hook, over `view` (hook_views.view); the caller closes the view."""
    return hook_views.get_context(paths, view, lambda message: _log(paths, event, message), **arguments)


# -- PreToolUse --------------------------------------------------------------------------------------------

# The agent's own GHAP calls: a check-in right after one would ask for what was just given.
_GHAP_TOOL = LazyPattern(r"(?:^|__)(?:start|update|resolve)_ghap$")
_GHAP_COMMAND = LazyPattern(r"\blearnmem\s+ghap\s+(?:start|update|resolve|abandon)\b")


def hand_over(paths: HookPaths, calls: int, every: int, upcoming: int = 0) -> tuple[int, Any] | None:
    """The counted calls handed to the session's counter (ghap.hand_over_tool_calls)."""
    from learnmem.learning import ghap

    return ghap.hand_over_tool_calls(_store(paths), calls, every, upcoming)


def pre_tool_use(payload: Mapping[str, Any], paths: HookPaths, environ: Mapping[str, str]) -> str | None:
    """Count the call; every N calls, a check-in on the active entry, or a nudge to start one.

    Counting is a few bytes in a file (no DuckDB: ~70-100 ms as a process). A check-in needs the file
    (the session's counter, the active entry) and DuckDB's import alone costs 80-140 ms, so the PostToolUse
    of the call before a due one prepares it (prepare_check_in) and this hook only prints it; nothing can
    change the active entry in between but the due call itself, which runs after this hook. When that
    PostToolUse did not run (a denied tool, hooks installed mid-session), the check-in is made here.
    """
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input") if isinstance(payload.get("tool_input"), Mapping) else {}
    command = tool_input.get("command")
    if (isinstance(tool, str) and _GHAP_TOOL.search(tool)) or (
            tool == "Bash" and isinstance(command, str) and _GHAP_COMMAND.search(command)):
        reset_counter(paths)
        return None
    prepared = take_prepared(paths)
    if prepared is not None:  # this call was counted when the check-in was prepared
        return prepared
    every = _int_setting(environ, "LEARNMEM_CHECKIN_EVERY", DEFAULT_CHECKIN_EVERY, 1, 10_000, paths)
    calls = count_tool_call(paths, every)
    if not calls:
        return None
    try:
        due = hand_over(paths, calls, every)
    except Exception:
        update_counter(paths.counter, lambda count: count + calls)  # not lost: handed over with the next ones
        raise
    return None if due is None else _check_in_message(*due)


def prepare_check_in(paths: HookPaths, environ: Mapping[str, str]) -> None:
    """After a call that leaves the next one due, hand the pending calls over and write the check-in that
    the next PreToolUse prints (see pre_tool_use)."""
    every = _int_setting(environ, "LEARNMEM_CHECKIN_EVERY", DEFAULT_CHECKIN_EVERY, 1, 10_000, paths)
    if pending_tool_calls(paths) != every - 1 or paths.prepared.exists():
        return
    calls = update_counter(paths.counter, lambda count: 0 if count == every - 1 else count)
    if calls != every - 1:  # another hook counted in between
        return
    try:
        due = hand_over(paths, calls, every, upcoming=1)
    except Exception:
        update_counter(paths.counter, lambda count: count + calls)
        raise
    if due is not None:
        temporary = paths.prepared.with_name(paths.prepared.name + f".{os.getpid()}")
        temporary.write_text(_check_in_message(*due), encoding="utf-8")
        os.replace(temporary, paths.prepared)


def _check_in_message(count: int, active: Any) -> str:
    if not active.has_active:
        return (f"learnmem: {count} tool calls without a GHAP entry. For non-trivial work, state your goal, "
                f"hypothesis, action and prediction first: start_ghap (CLI: `learnmem ghap start`).")
    return (f"learnmem check-in ({count} tool calls since the last one). Your active GHAP entry:\n"
            f"{_entry_lines(active)}\n"
            "Is this still what you are doing? If the hypothesis, action or prediction changed, revise it with "
            "update_ghap (CLI: `learnmem ghap update`); if the outcome is known, resolve it with resolve_ghap "
            "(CLI: `learnmem ghap resolve`).")


# -- PostToolUse: test and build runs ----------------------------------------------------------------------

def post_tool_use(payload: Mapping[str, Any], paths: HookPaths, environ: Mapping[str, str],
                  failed_event: bool = False) -> str | None:
    """A test/build run's outcome, recorded against the active entry, and the question to resolve it;
    then the next call's check-in prepared when it will be due; learnable moments queued (learnmem.agents.capture.tool_output)."""
    message = _test_run(payload, paths, failed_event)
    try:
        _capture(payload, paths, failed_event)
    except Exception as error:  # noqa: BLE001 - the run's message stands without the capture
        _log(paths, "PostToolUse", f"capture failed: {type(error).__name__}: {error}", _traceback())
    try:
        prepare_check_in(paths, environ)
    except Exception as error:  # noqa: BLE001 - the run's message stands; the check-in is made at PreToolUse
        _log(paths, "PostToolUse", f"preparing the check-in failed: {type(error).__name__}: {error}", _traceback())
    return message


def _test_run(payload: Mapping[str, Any], paths: HookPaths, failed_event: bool) -> str | None:
    if payload.get("tool_name") != "Bash" or payload.get("is_interrupt"):
        return None
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, Mapping) or tool_input.get("run_in_background"):
        return None
    command = tool_input.get("command")
    test = detect_test_command(command) if isinstance(command, str) and command.strip() else None
    if test is None:
        return None
    error = payload.get("error") if isinstance(payload.get("error"), str) else ""
    run = judge_run(test, failed_event, payload.get("tool_response"), error)
    if run is None:
        return None
    from learnmem.learning import ghap

    active = ghap.record_observation(_store(paths), "Bash", command, run.kind, run.outcome, run.exit_code,
                                     run.summary)
    if not active.has_active:
        return None
    code = f", exit code {run.exit_code}" if run.exit_code is not None else ""
    summary = f": {run.summary}" if run.summary else ""
    return (f"learnmem recorded this {run.kind} run against your active GHAP entry {active.id}: "
            f"{run.outcome}{code}{summary}\n"
            f"The entry predicted: {clip(active.prediction, 300)}\n"
            "Compare the outcome with the prediction. If the question is settled, resolve the entry with "
            "resolve_ghap (CLI: `learnmem ghap resolve`): confirmed if the prediction held, falsified (with the "
            "surprise and the root cause) if it did not. If you are still iterating, revise the hypothesis, "
            "action or prediction with update_ghap.")


def _capture(payload: Mapping[str, Any], paths: HookPaths, failed_event: bool) -> None:
    from learnmem.agents.capture.tool_output import candidates
    from learnmem.agents.capture.failures import PendingFailures

    found = candidates(payload, PendingFailures(paths.pending_failures), failed_event)
    if found:
        _enqueue(paths, found, payload.get("session_id"))


def _enqueue(paths: HookPaths, found: list, session_id: Any) -> None:
    """Queue captures; the marker goes first, so a queue that holds something always has it."""
    from learnmem.agents.capture import queue as capture_queue

    paths.queued.touch()
    capture_queue.enqueue(_store(paths), found, session_id)


def post_tool_use_failure(payload: Mapping[str, Any], paths: HookPaths,
                          environ: Mapping[str, str]) -> str | None:
    """Claude Code reports a command that exited non-zero as PostToolUseFailure: a failed run."""
    return post_tool_use(payload, paths, environ, failed_event=True)


# -- SessionEnd --------------------------------------------------------------------------------------------


def stop(payload: Mapping[str, Any], paths: HookPaths, environ: Mapping[str, str]) -> str | None:
    """The agent finished its turn: failures left unfixed by an outside condition become blockers, then the
    capture queue is flushed; one line on what was kept (module docstring)."""
    from learnmem.agents.capture.failures import PendingFailures, unresolved_blockers

    blockers = unresolved_blockers(PendingFailures(paths.pending_failures))
    if blockers:
        _enqueue(paths, blockers, payload.get("session_id"))
    if not paths.queued.exists():  # the usual turn: nothing captured, no database opened
        return None
    return _flush(paths)


def _flush(paths: HookPaths) -> str | None:
    """Flush the capture queue (the model loads only when it holds something). The line goes to the user
    now and, through a file beside the database, to the agent with its next prompt or session."""
    from learnmem.agents.capture import queue as capture_queue

    paths.queued.unlink(missing_ok=True)  # before reading the queue: a capture queued meanwhile sets it again
    try:
        if capture_queue.count(_store(paths)) == 0:
            return None
        result = hook_views.facade(paths).flush_queued_memories()
    except Exception:
        paths.queued.touch()  # not flushed: the next Stop tries again
        raise
    temporary = paths.flushed.with_name(f"{paths.flushed.name}.{os.getpid()}")
    temporary.write_text(result.message, encoding="utf-8")
    os.replace(temporary, paths.flushed)
    return result.message


def take_flushed(paths: HookPaths) -> str | None:
    """The line the last flush left for the agent, once (the file is removed)."""
    try:
        text = paths.flushed.read_text(encoding="utf-8")
        os.unlink(paths.flushed)
    except OSError:
        return None
    return text.strip() or None


def session_end(payload: Mapping[str, Any], paths: HookPaths, environ: Mapping[str, str]) -> str | None:
    """Flush the capture queue, then end the session (its active entry is abandoned as `session ended`);
    the pending tool calls go. A session in which nothing happened is not kept (`ghap.close_session`):
    `claude mcp list` and `claude doctor` fire SessionEnd too."""
    from learnmem.learning import ghap

    try:
        message = _flush(paths)
    finally:
        pending = pending_tool_calls(paths)
        reset_counter(paths)
        ghap.close_session(_store(paths), pending)
    return message


HANDLERS: dict[str, Callable[[Mapping[str, Any], HookPaths, Mapping[str, str]], str | None]] = {
    "SessionStart": session_start,
    "UserPromptSubmit": user_prompt_submit,
    "PreToolUse": pre_tool_use,
    "PostToolUse": post_tool_use,
    "PostToolUseFailure": post_tool_use_failure,
    "Stop": stop,
    "SessionEnd": session_end,
}
