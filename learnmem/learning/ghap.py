"""GHAP tracking: the Goal-Hypothesis-Action-Prediction state machine, sessions, orphans, check-ins.

The contract (enums, transitions, limits, outputs) is ../shared/GHAP.md. The
entry being worked on lives in `ghap_active` (at most one row), resolved ones
in `ghap_resolved` (appended, never changed: a small table takes the updates,
so a checkpoint never rewrites the history); the view `ghap_entries` shows
both. The session and its tool counter live in `sessions`. Each transition is
one write transaction that reads the state it changes inside that
transaction, so two processes (an MCP server and a
hook) never lose each other's updates. A resolution also records the entry's
experience axes (experiences.py) in the same transaction, with their
embeddings pending; they are embedded just after the commit, and if that
fails, on the next resolve or search (or `learnmem reembed`): a resolved entry
is never lost.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from learnmem.storage import sql
from learnmem import validate
from learnmem.errors import NotFoundError, ValidationError
from learnmem.learning.ghap_records import ActiveGhap, GhapSummary, ResolveResult, SessionEnd, StartResult, UpdateResult
from learnmem.learning.terms import DOMAINS, STRATEGIES, ROOT_CAUSE_CATEGORIES, STATUSES
from learnmem.storage.store import Store, iso, utc_now

MAX_START_CHARS = 1_000  # start/update text fields
MAX_RESOLVE_CHARS = 2_000  # resolve text fields
MAX_LIST = 100


def new_id(prefix: str, moment: datetime) -> str:
    """`<prefix>_YYYYMMDD_HHMMSS_` + 6 random hex digits (UTC)."""
    return f"{prefix}_{moment:%Y%m%d_%H%M%S}_{os.urandom(3).hex()}"  # os, not secrets: ~4 ms less per CLI call


# -- sessions ------------------------------------------------------------------


def _current_session(con, now: datetime | None = None) -> tuple[str, int]:
    """(id, tool_count) of the current session; one is started when there is none (needs a write connection)."""
    row = con.execute(sql.query("current_session")).fetchone()
    if row is not None:
        return row[0], row[1]
    session_id = new_id("session", now or utc_now())
    con.execute(sql.query("insert_session"), {"id": session_id, "now": now or utc_now()})
    return session_id, 0


def _session_or_none(store: Store) -> str | None:
    with store.read() as con:
        row = con.execute(sql.query("current_session")).fetchone()
    return row[0] if row else None


def start_session(store: Store) -> str:
    """Start a new session and make it current (earlier ones are not ended); returns its id."""
    with store.write() as con:
        now = utc_now()
        session_id = new_id("session", now)
        con.execute(sql.query("insert_session"), {"id": session_id, "now": now})
    return session_id


def get_session_id(store: Store) -> str:
    """The current session's id, starting one if there is none."""
    current = _session_or_none(store)
    if current is not None:
        return current
    with store.write() as con:
        return _current_session(con)[0]


def end_session(store: Store) -> SessionEnd:
    """End the current session; an active entry is abandoned with reason `session ended`."""
    with store.write() as con:
        now = utc_now()
        session_id, _ = _current_session(con, now)
        return _end_session(con, session_id, now)


def close_session(store: Store, pending_tool_calls: int = 0) -> SessionEnd | None:
    """The SessionEnd hook's end of a session: end_session's, except that it starts none to end it, and that a
    session in which nothing happened (no tool call, counted or `pending_tool_calls`; no GHAP entry or
    observation) is deleted rather than kept. None when no session was ended."""
    with store.write() as con:
        row = con.execute(sql.query("current_session")).fetchone()
        if row is None:
            return None
        if not pending_tool_calls:
            con.execute(sql.query("delete_session_if_empty"), {"id": row[0]})
            if not con.execute(sql.query("session_exists"), {"id": row[0]}).fetchone()[0]:
                return None
        return _end_session(con, row[0], utc_now())


def _end_session(con, session_id: str, now: datetime) -> SessionEnd:
    """End `session_id` on a write connection, abandoning the active entry as `session ended`."""
    active = _active_row(con)
    abandoned = None
    if active is not None:
        _resolve(con, active["id"], now, "abandoned", "session ended")
        abandoned = active["id"]
    con.execute(sql.query("end_session"), {"id": session_id, "now": now})
    return SessionEnd(session_id=session_id, abandoned_ghap_id=abandoned)


# -- check-ins -------------------------------------------------------------------


def increment_tool_count(store: Store) -> int:
    """Count one tool call in the current session; returns the count since the last check-in."""
    with store.write() as con:
        session_id, _ = _current_session(con)
        con.execute(sql.query("add_tool_call"), {"id": session_id})
        return con.execute(sql.query("session_tool_count"), {"id": session_id}).fetchone()[0]


def should_check_in(store: Store, frequency: int = 10) -> bool:
    """True when `frequency` tool calls have passed since the last check-in and an entry is active."""
    validate.integer("frequency", frequency, low=1, high=10_000)
    with store.read() as con:
        session = con.execute(sql.query("current_session")).fetchone()
        active = con.execute(sql.query("active_ghap")).fetchone()
    return session is not None and active is not None and session[1] >= frequency


def hand_over_tool_calls(store: Store, calls: int, frequency: int, upcoming: int = 0
                         ) -> tuple[int, ActiveGhap] | None:
    """Add `calls` counted elsewhere (the hooks count in a file, see learnmem.agents.hooks) to the current session's
    counter. When it reaches `frequency`, counting `upcoming` calls not made yet, it is zeroed and
    (count, the active entry) returned in the same transaction: a check-in, or a nudge when none is active,
    is due. None when it is not."""
    validate.integer("calls", calls, low=0)
    validate.integer("frequency", frequency, low=1, high=10_000)
    with store.write() as con:
        session_id, _ = _current_session(con)
        con.execute(sql.query("add_tool_calls"), {"id": session_id, "calls": calls})
        count = con.execute(sql.query("session_tool_count"), {"id": session_id}).fetchone()[0]
        count += upcoming
        if count < frequency:
            return None
        active = _active(_active_row(con))
        con.execute(sql.query("reset_tool_calls"), {"id": session_id})
    return count, active


def reset_tool_count(store: Store) -> int:
    """Zero the current session's tool counter (after a check-in was shown); returns 0."""
    with store.write() as con:
        session_id, _ = _current_session(con)
        con.execute(sql.query("reset_tool_calls"), {"id": session_id})
    return 0


# -- entries ---------------------------------------------------------------------

_ACTIVE_COLUMNS = ("id", "session_id", "domain", "strategy", "goal", "hypothesis", "action", "prediction",
                   "iteration_count", "created_at")


def _active_row(con) -> dict[str, Any] | None:
    row = con.execute(sql.query("active_ghap")).fetchone()
    return dict(zip(_ACTIVE_COLUMNS, row)) if row else None


def _active(row: dict[str, Any] | None) -> ActiveGhap:
    if row is None:
        return ActiveGhap(has_active=False)
    values = dict(row, created_at=iso(row["created_at"]))
    return ActiveGhap(has_active=True, **values)


def start_ghap(store: Store, domain: str, strategy: str, goal: str, hypothesis: str, action: str,
               prediction: str) -> StartResult:
    """Start tracking an entry. An active one is abandoned (`superseded by <new id>`) and the result warns."""
    fields = {
        "domain": validate.choice("domain", domain, DOMAINS),
        "strategy": validate.choice("strategy", strategy, STRATEGIES),
        **{name: validate.text(name, value, max_chars=MAX_START_CHARS)
           for name, value in (("goal", goal), ("hypothesis", hypothesis), ("action", action),
                               ("prediction", prediction))},
    }
    warning = None
    with store.write() as con:
        now = utc_now()  # taken under the lock, so that times follow the order the transitions happened in
        entry_id = new_id("ghap", now)
        session_id, _ = _current_session(con, now)
        previous = _active_row(con)
        if previous is not None:
            _resolve(con, previous["id"], now, "abandoned", f"superseded by {entry_id}")
            warning = f"entry {previous['id']} was still active: abandoned as superseded by {entry_id}"
        con.execute(sql.query("insert_ghap_entry"), {"id": entry_id, "session_id": session_id, "now": now, **fields})
    return StartResult(id=entry_id, created_at=iso(now), warning=warning, **fields)


def update_ghap(store: Store, hypothesis: str | None = None, action: str | None = None,
                prediction: str | None = None, strategy: str | None = None, note: str | None = None) -> UpdateResult:
    """Revise the active entry. A changed hypothesis/action/prediction is a new iteration (the old triple goes
    to history); a note is appended; a strategy is replaced without a new iteration."""
    triple = {name: validate.text(name, value, max_chars=MAX_START_CHARS)
              for name, value in (("hypothesis", hypothesis), ("action", action), ("prediction", prediction))
              if value is not None}
    if strategy is not None:
        validate.choice("strategy", strategy, STRATEGIES)
    if note is not None:
        note = validate.text("note", note, max_chars=MAX_START_CHARS)
    if not triple and strategy is None and note is None:
        raise ValidationError("update_ghap: give at least one of hypothesis, action, prediction, strategy, note")
    with store.write() as con:
        now = utc_now()
        active = _active_row(con)
        if active is None:
            raise NotFoundError("no active GHAP entry to update: start one with start_ghap")
        revised = {name: triple.get(name, active[name]) for name in ("hypothesis", "action", "prediction")}
        count = active["iteration_count"]
        if any(revised[name] != active[name] for name in revised):
            con.execute(sql.query("revise_ghap"), {"id": active["id"], "now": now, **revised})
            count += 1  # what revise_ghap stored: nothing else writes while this transaction holds the lock
        if strategy is not None and strategy != active["strategy"]:
            con.execute(sql.query("set_ghap_strategy"), {"id": active["id"], "now": now, "strategy": strategy})
        if note is not None:
            con.execute(sql.query("add_ghap_note"), {"id": active["id"], "now": now, "note": note})
    return UpdateResult(success=True, iteration_count=count)


def _mapping(field: str, value: Any, keys: tuple[str, ...], required: tuple[str, ...]) -> dict[str, str | None]:
    if not isinstance(value, Mapping):
        raise ValidationError(f"{field}: expected an object with {', '.join(keys)}, got {type(value).__name__}")
    unknown = sorted(set(value) - set(keys))
    if unknown:
        raise ValidationError(f"{field}.{unknown[0]}: unknown field; allowed: {', '.join(keys)}")
    missing = [key for key in required if value.get(key) is None]
    if missing:
        raise ValidationError(f"{field}.{missing[0]}: required")
    return dict(value)


def resolve_ghap(store: Store, embedder, status: str, result: str, surprise: str | None = None,
                 root_cause: Mapping[str, str] | None = None, lesson: Mapping[str, str] | None = None,
                 auto_captured: bool = False) -> ResolveResult:
    """Resolve the active entry: confirmed, falsified (needs surprise and root_cause {category, description})
    or abandoned. The tier is abandoned, gold (auto-captured from a test/build run), silver, or bronze when
    the hypothesis is poor (experiences.bronze_reason). The entry is then never changed again.

    `auto_captured` is True when the caller says the outcome came from a test/build run, and becomes True by
    itself when the hooks observed one (record_observation) since the entry's current hypothesis, action and
    prediction were set, and the latest such run agrees with `status`: passed -> confirmed, failed ->
    falsified. A resolution that contradicts the run stays silver: the run did not decide it."""
    status = validate.choice("status", status, STATUSES)
    result = validate.text("result", result, max_chars=MAX_RESOLVE_CHARS)
    if not isinstance(auto_captured, bool):
        raise ValidationError(f"auto_captured: expected true or false, got {auto_captured!r}")
    if surprise is not None:
        surprise = validate.text("surprise", surprise, max_chars=MAX_RESOLVE_CHARS)
    cause = None
    if root_cause is not None:
        cause = _mapping("root_cause", root_cause, ("category", "description"), ("category", "description"))
        cause["category"] = validate.choice("root_cause.category", cause["category"], ROOT_CAUSE_CATEGORIES)
        cause["description"] = validate.text("root_cause.description", cause["description"],
                                             max_chars=MAX_RESOLVE_CHARS)
    learned = None
    if lesson is not None:
        learned = _mapping("lesson", lesson, ("what_worked", "takeaway"), ("what_worked",))
        learned["what_worked"] = validate.text("lesson.what_worked", learned["what_worked"],
                                               max_chars=MAX_RESOLVE_CHARS)
        if learned.get("takeaway") is not None:
            learned["takeaway"] = validate.text("lesson.takeaway", learned["takeaway"], max_chars=MAX_RESOLVE_CHARS)
    if status == "falsified" and (surprise is None or cause is None):
        missing = "surprise" if surprise is None else "root_cause"
        raise ValidationError(f"{missing}: required when status is 'falsified' (what surprised you, and why)")
    # On a lake the axes are embedded before the transaction and written embedded: filling them in afterwards is
    # an UPDATE of a table every agent's resolve writes, and concurrent DuckLake updates conflict.
    embedded = _embedded_ahead(store, embedder, status, result, surprise, cause, learned) \
        if store.kind == "lake" else None
    with store.write() as con:
        now = utc_now()
        active = _active_row(con)
        if active is None:
            raise NotFoundError("no active GHAP entry to resolve: start one with start_ghap")
        if not auto_captured and status != "abandoned":
            auto_captured = _observation_agrees(con, active["id"], status)
        tier = _resolve(con, active["id"], now, status, result, surprise, cause, learned, auto_captured, embedded)
        from learnmem.learning import experiences

        pending = experiences.pending_axes(con)  # read here, it saves the embedding step a file open
    embed_pending_quietly(store, embedder, pending)
    return ResolveResult(id=active["id"], status=status, confidence_tier=tier, resolved_at=iso(now))


# -- observed outcomes (the PostToolUse hook) ----------------------------------------

OBSERVATION_KINDS = ("test", "build")
OBSERVATION_OUTCOMES = ("passed", "failed")
# An observed run decides a resolution that agrees with it: the tests passed and the prediction held, or
# they failed and it did not. (A prediction that the tests fail, confirmed by a failing run, stays silver:
# the rule cannot tell which way a prediction pointed.)
_AGREEING = {("passed", "confirmed"), ("failed", "falsified")}


def record_observation(store: Store, tool: str, command: str, kind: str, outcome: str, exit_code: int | None,
                       summary: str) -> ActiveGhap:
    """Record a test/build run's outcome against the active entry (table ghap_observations); returns that
    entry, or has_active false (nothing recorded) when none is active. resolve_ghap reads it back."""
    kind = validate.choice("kind", kind, OBSERVATION_KINDS)
    outcome = validate.choice("outcome", outcome, OBSERVATION_OUTCOMES)
    if exit_code is not None and (isinstance(exit_code, bool) or not isinstance(exit_code, int)):
        raise ValidationError(f"exit_code: expected an integer or null, got {exit_code!r}")
    params = {"tool": validate.text("tool", tool, max_chars=200),
              "command": validate.text("command", _cut(command, MAX_RESOLVE_CHARS), max_chars=MAX_RESOLVE_CHARS),
              "summary": validate.text("summary", _cut(summary, MAX_START_CHARS), max_chars=MAX_START_CHARS,
                                       allow_empty=True),
              "kind": kind, "outcome": outcome, "exit_code": exit_code}
    with store.write() as con:
        active = _active_row(con)
        if active is not None:
            con.execute(sql.query("insert_ghap_observation"), {"now": utc_now(), **params})
    return _active(active)


def _cut(value: Any, max_chars: int) -> Any:
    """A long command or output line is kept cut, not refused: the run happened either way."""
    return value[:max_chars - 1] + "…" if isinstance(value, str) and len(value) > max_chars else value


def _observation_agrees(con, entry_id: str, status: str) -> bool:
    """Whether the latest run observed since the entry's current triple was set agrees with `status`."""
    row = con.execute(sql.query("ghap_observed_outcome"), {"id": entry_id}).fetchone()
    return row is not None and (row[0], status) in _AGREEING


def abandon_ghap(store: Store, embedder, reason: str) -> ResolveResult:
    """Resolve the active entry as abandoned, with `reason` as its result."""
    return resolve_ghap(store, embedder, "abandoned", reason)


def _embedded_ahead(store: Store, embedder, status: str, result: str, surprise: str | None,
                    cause: Mapping[str, str] | None, lesson: Mapping[str, str | None] | None) -> dict | None:
    """The axis texts the active entry will have once resolved so, embedded now: {(axis, text): vector}. None when
    there is no active entry or the model fails (the axes are then recorded pending, as on a file)."""
    from learnmem.learning import experiences

    with store.read() as con:
        active = _active_row(con)
        if active is None:
            return None
        cursor = con.execute(sql.query("active_ghap_entry"), {"id": active["id"]})
        entry = dict(zip([column[0] for column in cursor.description], cursor.fetchone()))
    _with_outcome(entry, utc_now(), status, result, surprise, cause, lesson, False)
    try:
        model = embedder if hasattr(embedder, "embed") else embedder()
        return experiences.embedded_axes(entry, model)
    except Exception:  # noqa: BLE001 - a model that fails leaves the axes pending, as on a file
        return None


def _with_outcome(entry: dict, now: datetime, status: str, result: str, surprise: str | None,
                  cause: Mapping[str, str] | None, lesson: Mapping[str, str | None] | None,
                  auto_captured: bool) -> dict[str, Any]:
    """Add the resolution to an active entry's row (in place); returns the outcome columns resolve_ghap sets."""
    outcome = {
        "status": status, "result": result, "auto_captured": auto_captured, "surprise": surprise,
        "root_cause_category": cause["category"] if cause else None,
        "root_cause_description": cause["description"] if cause else None,
        "lesson_what_worked": lesson["what_worked"] if lesson else None,
        "lesson_takeaway": lesson.get("takeaway") if lesson else None,
    }
    entry.update({"outcome_status": status, "outcome_result": result, "captured_at": now,
                  "auto_captured": auto_captured, "surprise": surprise,
                  "root_cause_category": outcome["root_cause_category"],
                  "root_cause_description": outcome["root_cause_description"],
                  "lesson_what_worked": outcome["lesson_what_worked"], "lesson_takeaway": outcome["lesson_takeaway"]})
    return outcome


def _resolve(con, entry_id: str, now: datetime, status: str, result: str, surprise: str | None = None,
             cause: Mapping[str, str] | None = None, lesson: Mapping[str, str | None] | None = None,
             auto_captured: bool = False, embedded: dict | None = None) -> str:
    """Resolve one active entry inside the caller's transaction and record its experience axes (those in
    `embedded` with their vectors: _embedded_ahead); the tier."""
    cursor = con.execute(sql.query("active_ghap_entry"), {"id": entry_id})
    entry = dict(zip([column[0] for column in cursor.description], cursor.fetchone()))
    outcome = _with_outcome(entry, now, status, result, surprise, cause, lesson, auto_captured)
    from learnmem.learning import experiences  # numpy and pyarrow load only when an entry is resolved

    tier = "abandoned" if status == "abandoned" else "gold" if auto_captured else "silver"
    if tier != "abandoned" and experiences.bronze_reason(entry) is not None:
        tier = "bronze"
    entry["confidence_tier"] = tier
    con.execute(sql.query("resolve_ghap"), {"id": entry_id, "now": now, "confidence_tier": tier, **outcome})
    con.execute(sql.query("remove_active_ghap"), {"id": entry_id})
    experiences.record_axes(con, [entry], now, embedded)
    return tier


def embed_pending_quietly(store: Store, embedder, pending: list[tuple[str, str, str]] | None = None) -> None:
    """Embed pending axes (`pending`, or those the file holds); a failure leaves them pending for the next
    resolve, search or reembed."""
    if embedder is None:
        return
    from learnmem.learning import experiences

    try:
        if pending is None:
            with store.read() as con:
                pending = experiences.pending_axes(con)
        if not pending:
            return
        if not hasattr(embedder, "embed"):  # a factory: the model loads only now, after the commit
            embedder = embedder()
        experiences.embed_pending(store, embedder, pending)
    except Exception:  # noqa: BLE001 - the resolution is committed; embedding is retried later
        pass


def get_active_ghap(store: Store) -> ActiveGhap:
    """The active entry (of any session), or has_active false."""
    with store.read() as con:
        return _active(_active_row(con))


def list_ghap_entries(store: Store, limit: int = 20, domain: str | None = None, outcome: str | None = None,
                      since=None) -> list[GhapSummary]:
    """Entries newest first; `outcome` is confirmed, falsified, abandoned or active; `since` an ISO time."""
    validate.integer("limit", limit, low=1, high=MAX_LIST)
    if domain is not None:
        validate.choice("domain", domain, DOMAINS)
    if outcome is not None:
        validate.choice("outcome", outcome, (*STATUSES, "active"))
    params = {"limit": limit, "domain": domain, "outcome": outcome, "since": validate.moment("since", since)}
    with store.read() as con:
        rows = con.execute(sql.query("list_ghap_entries"), params).fetchall()
    return [
        GhapSummary(id=id_, domain=domain_, strategy=strategy, goal=goal, outcome_status=status,
                    confidence_tier=tier, created_at=iso(created), resolved_at=iso(resolved) if resolved else None)
        for id_, domain_, strategy, goal, status, tier, created, resolved in rows
    ]


# -- orphans ---------------------------------------------------------------------


def _orphan(con) -> dict[str, Any] | None:
    active = _active_row(con)
    if active is None:
        return None
    session = con.execute(sql.query("current_session")).fetchone()
    return active if session is None or session[0] != active["session_id"] else None


def get_orphaned_entry(store: Store) -> ActiveGhap:
    """The active entry if it belongs to an earlier session (has_active false otherwise)."""
    with store.read() as con:
        return _active(_orphan(con))


def adopt_orphan(store: Store) -> ActiveGhap:
    """Move the orphaned entry into the current session, keeping everything else."""
    with store.write() as con:
        now = utc_now()
        orphan = _orphan(con)
        if orphan is None:
            raise NotFoundError("no orphaned GHAP entry: the active entry (if any) belongs to this session")
        session_id, _ = _current_session(con, now)
        con.execute(sql.query("adopt_ghap"), {"id": orphan["id"], "session_id": session_id, "now": now})
        return _active(_active_row(con))


def abandon_orphan(store: Store, embedder, reason: str) -> ResolveResult:
    """Abandon the orphaned entry with `reason`."""
    reason = validate.text("reason", reason, max_chars=MAX_RESOLVE_CHARS)
    with store.write() as con:
        now = utc_now()
        orphan = _orphan(con)
        if orphan is None:
            raise NotFoundError("no orphaned GHAP entry: the active entry (if any) belongs to this session")
        tier = _resolve(con, orphan["id"], now, "abandoned", reason)
    embed_pending_quietly(store, embedder)
    return ResolveResult(id=orphan["id"], status="abandoned", confidence_tier=tier, resolved_at=iso(now))
