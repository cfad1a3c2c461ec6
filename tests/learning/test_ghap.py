"""GHAP tracking against its contract (../shared/GHAP.md): the state machine, validation, durability, concurrency.

- a Hypothesis state machine drives random sequences of every transition (two handles on one real file) against
  a Python model and checks the contract's invariants after every step;
- every validation error names its field and lists the valid options (enums) or the limit;
- kill -9 between a resolve's commit and its embedding loses nothing: the axes stay pending and the next call
  embeds them;
- processes counting tool calls and adding notes at once lose no update.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import learnmem
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import NotFoundError, ValidationError

# The contract tests: each test that opens a store runs on a file and on a lake (tests/conftest.py).
BOTH_BACKENDS = True

# -- the contract's enums, copied from GHAP.md (not imported: the test checks the code against the contract) ------

DOMAINS = ("debugging", "refactoring", "feature", "testing", "configuration", "documentation", "performance",
           "security", "integration")
STRATEGIES = ("systematic-elimination", "trial-and-error", "research-first", "divide-and-conquer",
              "root-cause-analysis", "copy-from-similar", "check-assumptions", "read-the-error", "ask-user")
CATEGORIES = ("wrong-assumption", "missing-knowledge", "oversight", "environment-issue", "misleading-symptom",
              "incomplete-fix", "wrong-scope", "test-isolation", "timing-issue")
STATUSES = ("confirmed", "falsified", "abandoned")
AXES = {"full", "strategy", "surprise", "root_cause"}

GHAP_ID = re.compile(r"^ghap_(\d{8}_\d{6})_[0-9a-f]{6}$")
SESSION_ID = re.compile(r"^session_(\d{8}_\d{6})_[0-9a-f]{6}$")
ISO_Z = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")
SURROGATES = re.compile("[\ud800-\udfff]")

GOOD = {
    "goal": "Fix the auth timeout bug",
    "hypothesis": "Slow network responses exceed the 30 s timeout",
    "action": "Raise the timeout to 60 s",
    "prediction": "Auth failures stop",
}
BAD = {
    "goal": "Run the tests",
    "hypothesis": "The tests will tell me what's wrong",
    "action": "Running pytest",
    "prediction": "Tests fail",
}
START_TEXTS = ("goal", "hypothesis", "action", "prediction")


def start_args(**overrides) -> dict:
    return {"domain": "debugging", "strategy": "systematic-elimination", **GOOD, **overrides}


def rows(lm: learnmem.Learnmem, query: str, params=None) -> list[dict]:
    """Every row of a read-only query as dicts (a plain read connection: what another process would see)."""
    with lm.store.read() as con:
        cursor = con.execute(query, params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]


def clean(text: str) -> str:
    """What the contract says is stored for a text: invalid UTF-8 (lone surrogates) replaced by U+FFFD."""
    return SURROGATES.sub("\ufffd", text)


def id_moment(pattern: re.Pattern, value: str) -> datetime:
    match = pattern.match(value)
    assert match, f"{value!r} does not match {pattern.pattern}"
    return datetime.strptime(match.group(1), "%Y%m%d_%H%M%S")


# ==================================================================================================================
# 1. The state machine against a model
# ==================================================================================================================

WORDS = ("cache", "timeout", "retry", "the", "flaky", "test", "fixture", "auth", "token", "expires", "config",
         "parser", "null", "index", "race", "lock", "import", "path", "encoding", "slow", "query", "memory",
         "leak", "build", "fails", "after", "upgrade", "because", "of", "missing", "env", "var", "on", "CI",
         "ünïcode", "日本語", "émoji🙂", "x=1;", "'quoted'", '"double"', "a\\b", "tab\there")


def _text_pool() -> tuple[str, ...]:
    """A fixed pool of texts (one draw each, so that long runs stay cheap to generate): the GHAP.md examples,
    word salads with and without specific terms (bronze or not), and some with lone surrogates."""
    import random

    pick = random.Random(20251202)
    salads = [" ".join(pick.choices(WORDS, k=pick.randint(1, 10))) for _ in range(40)]
    halves = ("\ud800", "\udfff", "\udbff\ud7ff")  # lone surrogates: invalid UTF-8
    broken = [f"{salad} {pick.choice(halves)}{pick.choice(WORDS)}" for salad in salads[:8]]
    return (*GOOD.values(), *BAD.values(), *salads, *broken)


TEXTS = st.sampled_from(_text_pool())


def sometimes_none(strategy):
    return st.one_of(strategy, strategy, strategy, st.none())


ROOT_CAUSES = st.builds(lambda category, description: {"category": category, "description": description},
                        st.sampled_from(CATEGORIES), TEXTS)
LESSONS = st.one_of(
    st.builds(lambda worked: {"what_worked": worked}, TEXTS),
    st.builds(lambda worked, takeaway: {"what_worked": worked, "takeaway": takeaway}, TEXTS, TEXTS),
)
# An update: each field left out (None), given its current value again (SAME), or given a new value.
class _Same:
    def __repr__(self) -> str:
        return "SAME"


SAME = _Same()
UPDATE_PLANS = st.fixed_dictionaries({
    **{name: st.sampled_from((None, None, SAME)) | TEXTS for name in ("hypothesis", "action", "prediction")},
    "strategy": st.sampled_from((None, None, SAME)) | st.sampled_from(STRATEGIES),
    "note": st.none() | TEXTS,
})


@dataclass
class ModelEntry:
    id: str
    session_id: str
    domain: str
    strategy: str
    goal: str
    hypothesis: str
    action: str
    prediction: str
    history: list = field(default_factory=list)  # (hypothesis, action, prediction), oldest first
    notes: list = field(default_factory=list)
    active: bool = True
    status: str | None = None
    result: str | None = None
    auto_captured: bool | None = None
    surprise: str | None = None
    cause: dict | None = None
    lesson: dict | None = None

    @property
    def triple(self) -> tuple[str, str, str]:
        return (self.hypothesis, self.action, self.prediction)


@dataclass
class ModelSession:
    id: str
    ended: bool = False
    count: int = 0


class GhapMachine(RuleBasedStateMachine):
    """Two handles on one file (two views, as two processes would have) and the model of what it must hold."""

    def __init__(self):
        super().__init__()
        # tmpfs where there is one: the same DuckDB file, WAL and locks, without the disk's fsync (~1.5x faster)
        self.dir = tempfile.mkdtemp(prefix="ghap-machine-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
        self.path = Path(self.dir) / "learnmem.duckdb"
        self.handles = [learnmem.open(self.path, embedder=HashingEmbedder()),
                        learnmem.open(self.path, embedder=HashingEmbedder())]
        self.entries: dict[str, ModelEntry] = {}  # in creation order
        self.sessions: list[ModelSession] = []  # in creation order
        self.snapshots: dict[str, dict] = {}  # resolved rows as they were when resolved
        # Entries abandoned by a start (superseded) or end_session: those calls stay model-free (hooks call
        # them), so the axes wait for the next resolve, abandon or search, which embeds every pending one.
        self.pending: set[str] = set()
        self.steps = 0

    def teardown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    # -- the model -------------------------------------------------------------------------------------------

    @property
    def active(self) -> ModelEntry | None:
        actives = [entry for entry in self.entries.values() if entry.active]
        assert len(actives) <= 1
        return actives[0] if actives else None

    @property
    def current(self) -> ModelSession | None:
        """The newest session not ended (the schema's rule)."""
        open_ = [session for session in self.sessions if not session.ended]
        return open_[-1] if open_ else None

    @property
    def orphan(self) -> ModelEntry | None:
        active, current = self.active, self.current
        if active is None:
            return None
        return active if current is None or current.id != active.session_id else None

    def lm(self, other: bool) -> learnmem.Learnmem:
        return self.handles[1 if other else 0]

    def sync_sessions(self, may_create: bool) -> ModelSession | None:
        """Learn the id of a session the call started implicitly (only calls that need one may start one)."""
        known = {session.id for session in self.sessions}
        new = [row["id"] for row in rows(self.handles[0], "SELECT id FROM sessions ORDER BY started_at")
               if row["id"] not in known]
        assert len(new) <= (1 if may_create else 0), new
        if new:
            self.sessions.append(ModelSession(new[0]))
            return self.sessions[-1]
        return None

    def session_for_write(self) -> None:
        """A call that needs a current session starts one when there is none."""
        if self.current is None:
            self.sync_sessions(may_create=True)
            assert self.current is not None

    def resolve_model(self, entry: ModelEntry, status, result, surprise=None, cause=None, lesson=None,
                      auto_captured=False) -> None:
        entry.active = False
        entry.status, entry.result, entry.auto_captured = status, result, auto_captured
        entry.surprise, entry.cause, entry.lesson = surprise, cause, lesson
        row = rows(self.handles[0], "SELECT * FROM ghap_entries WHERE id = $id", {"id": entry.id})
        assert len(row) == 1
        self.snapshots[entry.id] = row[0]

    def embedded_everything(self) -> None:
        """A resolve, abandon or search embeds every pending axis."""
        self.pending.clear()

    # -- rules -----------------------------------------------------------------------------------------------

    @rule(domain=st.sampled_from(DOMAINS), strategy=st.sampled_from(STRATEGIES), goal=TEXTS, hypothesis=TEXTS,
          action=TEXTS, prediction=TEXTS, other=st.booleans())
    def start(self, domain, strategy, goal, hypothesis, action, prediction, other):
        previous = self.active
        started = self.lm(other).start_ghap(domain, strategy, goal, hypothesis, action, prediction)
        self.session_for_write()
        assert GHAP_ID.match(started.id), started.id
        assert ISO_Z.match(started.created_at), started.created_at
        assert id_moment(GHAP_ID, started.id) == datetime.fromisoformat(started.created_at[:19])
        expected = (domain, strategy, clean(goal), clean(hypothesis), clean(action), clean(prediction))
        assert (started.domain, started.strategy, started.goal, started.hypothesis, started.action,
                started.prediction) == expected
        event(f"start: {'superseding' if previous else 'nothing active'}")
        if previous is None:
            assert started.warning is None
        else:
            assert started.warning and previous.id in started.warning
            self.resolve_model(previous, "abandoned", f"superseded by {started.id}")
            self.pending.add(previous.id)
        self.entries[started.id] = ModelEntry(started.id, self.current.id, *expected)

    @rule(plan=UPDATE_PLANS, other=st.booleans())
    def update(self, plan, other):
        self._update(plan, other)

    def _update(self, plan, other):
        """update_ghap with the plan's fields: left out (None), the current value again (SAME), or a new one."""
        active = self.active
        given = {}
        for name, value in plan.items():
            if value is SAME:
                if active is not None:
                    given[name] = getattr(active, name)
            elif value is not None:
                given[name] = value
        note = given.get("note")
        state = "no active entry" if active is None else "active"
        event(f"update: {state}, given {'+'.join(sorted(given)) or 'nothing'}" if len(given) <= 1
              else f"update: {state}, several")
        if not given:
            with pytest.raises(ValidationError) as error:
                self.lm(other).update_ghap()
            assert all(name in str(error.value) for name in ("hypothesis", "action", "prediction", "strategy", "note"))
            return
        if active is None:
            with pytest.raises(NotFoundError, match="start_ghap"):
                self.lm(other).update_ghap(**given)
            return
        updated = self.lm(other).update_ghap(**given)
        revised = tuple(clean(given.get(name, getattr(active, name)))
                        for name in ("hypothesis", "action", "prediction"))
        if revised != active.triple:
            active.history.append(active.triple)
            active.hypothesis, active.action, active.prediction = revised
        if "strategy" in given:
            active.strategy = given["strategy"]
        if note is not None:
            active.notes.append(clean(note))
        assert updated.success is True
        assert updated.iteration_count == len(active.history) + 1

    @rule(status=st.sampled_from(("confirmed", "falsified", "falsified", "abandoned")), result=TEXTS,
          surprise=sometimes_none(TEXTS),
          cause=sometimes_none(ROOT_CAUSES), lesson=st.none() | LESSONS, auto_captured=st.booleans(),
          via_abandon=st.booleans(), other=st.booleans())
    def resolve(self, status, result, surprise, cause, lesson, auto_captured, via_abandon, other):
        if status == "abandoned" and via_abandon:
            event(f"abandon_ghap: {'an' if self.active else 'no'} active entry")
            self._abandon(result, other)
            return
        active = self.active
        call = lambda: self.lm(other).resolve_ghap(status, result, surprise=surprise, root_cause=cause,
                                                   lesson=lesson, auto_captured=auto_captured)
        if status == "falsified" and (surprise is None or cause is None):
            event("resolve: falsified without surprise or root_cause")
            with pytest.raises(ValidationError) as error:
                call()
            assert ("surprise" if surprise is None else "root_cause") in str(error.value)
            return
        if active is None:
            event("resolve: no active entry")
            with pytest.raises(NotFoundError, match="start_ghap"):
                call()
            return
        resolved = call()
        event(f"resolve: {status} -> {resolved.confidence_tier}")
        assert resolved.id == active.id and resolved.status == status
        assert ISO_Z.match(resolved.resolved_at)
        self.resolve_model(
            active, status, clean(result), clean(surprise) if surprise is not None else None,
            {key: clean(value) for key, value in cause.items()} if cause is not None else None,
            {key: clean(value) for key, value in lesson.items()} if lesson is not None else None, auto_captured)
        assert resolved.confidence_tier == self.snapshots[active.id]["confidence_tier"]
        self.embedded_everything()

    def _abandon(self, reason, other):
        active = self.active
        if active is None:
            with pytest.raises(NotFoundError, match="start_ghap"):
                self.lm(other).abandon_ghap(reason)
            return
        resolved = self.lm(other).abandon_ghap(reason)
        assert (resolved.id, resolved.status, resolved.confidence_tier) == (active.id, "abandoned", "abandoned")
        self.resolve_model(active, "abandoned", clean(reason))
        self.embedded_everything()

    def _start_session(self, other):
        session_id = self.lm(other).start_session()
        assert SESSION_ID.match(session_id), session_id
        created = self.sync_sessions(may_create=True)
        assert created is not None and created.id == session_id
        assert self.current.id == session_id

    def _end_session(self, other):
        active = self.active
        ended = self.lm(other).end_session()
        self.session_for_write()
        current = self.current
        assert ended.session_id == current.id
        assert ended.abandoned_ghap_id == (active.id if active else None)
        current.ended = True
        if active is not None:
            self.resolve_model(active, "abandoned", "session ended")
            self.pending.add(active.id)

    def _get_session_id(self, other):
        session_id = self.lm(other).get_session_id()
        self.session_for_write()
        assert session_id == self.current.id

    def _adopt_orphan(self, other):
        orphan = self.orphan
        event(f"adopt_orphan: {'an' if orphan else 'no'} orphan")
        if orphan is None:
            with pytest.raises(NotFoundError):
                self.lm(other).adopt_orphan()
            return
        before = rows(self.handles[0], "SELECT * FROM ghap_entries WHERE id = $id", {"id": orphan.id})[0]
        adopted = self.lm(other).adopt_orphan()
        self.session_for_write()
        after = rows(self.handles[0], "SELECT * FROM ghap_entries WHERE id = $id", {"id": orphan.id})[0]
        assert adopted.has_active and adopted.id == orphan.id
        assert after["session_id"] == self.current.id != before["session_id"]
        unchanged = set(before) - {"session_id", "updated_at"}
        assert {k: after[k] for k in unchanged} == {k: before[k] for k in unchanged}
        orphan.session_id = self.current.id
        assert self.orphan is None

    def _abandon_orphan(self, reason, other):
        orphan = self.orphan
        event(f"abandon_orphan: {'an' if orphan else 'no'} orphan")
        if orphan is None:
            with pytest.raises(NotFoundError):
                self.lm(other).abandon_orphan(reason)
            return
        resolved = self.lm(other).abandon_orphan(reason)
        assert (resolved.id, resolved.status, resolved.confidence_tier) == (orphan.id, "abandoned", "abandoned")
        self.resolve_model(orphan, "abandoned", clean(reason))
        self.embedded_everything()

    def _increment_tool_count(self, times, other):
        for _ in range(times):
            count = self.lm(other).increment_tool_count()
            self.session_for_write()
            self.current.count += 1
            assert count == self.current.count

    def _should_check_in(self, frequency, other):
        count = self.current.count if self.current else 0
        expected = count >= frequency and self.active is not None
        event(f"should_check_in: count {'>=' if count >= frequency else '<'} frequency, "
              f"{'an' if self.active else 'no'} active entry")
        assert self.lm(other).should_check_in(frequency) == expected

    def _reset_tool_count(self, other):
        assert self.lm(other).reset_tool_count() == 0
        self.session_for_write()
        self.current.count = 0

    def check_active(self, lm) -> None:
        active = self.active
        shown = lm.get_active_ghap()
        assert shown.has_active == (active is not None)
        if active is not None:
            assert (shown.id, shown.session_id, shown.domain, shown.strategy, shown.goal, shown.hypothesis,
                    shown.action, shown.prediction, shown.iteration_count) == (
                active.id, active.session_id, active.domain, active.strategy, active.goal, active.hypothesis,
                active.action, active.prediction, len(active.history) + 1)
            assert ISO_Z.match(shown.created_at)
        else:
            assert shown == type(shown)(has_active=False)

    def _observe(self, other):
        """The read calls: the active entry, the orphan, the list (newest first, every filter)."""
        lm = self.lm(other)
        self.check_active(lm)
        orphan = lm.get_orphaned_entry()
        expected = self.orphan
        assert orphan.has_active == (expected is not None) and orphan.id == (expected.id if expected else None)
        listed = lm.list_ghap_entries(limit=100)
        newest_first = list(reversed(self.entries.values()))[:100]
        assert [item.id for item in listed] == [entry.id for entry in newest_first]
        for item, entry in zip(listed, newest_first):
            assert (item.domain, item.strategy, item.goal, item.outcome_status) == (
                entry.domain, entry.strategy, entry.goal, entry.status)
            assert (item.resolved_at is None) == entry.active and (item.confidence_tier is None) == entry.active
            assert ISO_Z.match(item.created_at) and (item.resolved_at is None or ISO_Z.match(item.resolved_at))
        status = "active" if self.active is not None and other else STATUSES[len(self.entries) % 3]
        wanted = [entry.id for entry in newest_first if (entry.status or "active") == status]
        assert [item.id for item in lm.list_ghap_entries(limit=100, outcome=status)] == wanted

    def _search(self, query, axis, other):
        """A search embeds what is pending and finds only resolved entries, each at most once per axis."""
        hits = self.lm(other).search_experiences(query, axis=axis, limit=50)
        self.embedded_everything()
        resolved = {entry.id for entry in self.entries.values() if not entry.active}
        assert {hit.ghap_id for hit in hits} <= resolved
        assert len({hit.ghap_id for hit in hits}) == len(hits)
        if axis in ("surprise", "root_cause"):
            assert all(self.entries[hit.ghap_id].status == "falsified" for hit in hits)
        for hit in hits:
            entry = self.entries[hit.ghap_id]
            assert (hit.goal, hit.outcome_status, hit.outcome_result) == (entry.goal, entry.status, entry.result)

    def _reopen(self, which):
        """A fresh open of the same file (another process's view) sees the same counter and entry."""
        self.handles[1 if which else 0] = fresh = learnmem.open(self.path, embedder=HashingEmbedder())
        count = self.current.count if self.current else 0
        active = self.active
        assert fresh.should_check_in(max(count, 1)) == (count >= 1 and active is not None)
        assert fresh.should_check_in(count + 1) is False
        assert fresh.get_active_ghap().id == (active.id if active else None)


    # -- the other calls, grouped so that each group is drawn as often as start, update or resolve ------------

    @initialize(begin=st.booleans(), domain=st.sampled_from(DOMAINS), strategy=st.sampled_from(STRATEGIES),
                goal=TEXTS, hypothesis=TEXTS, action=TEXTS, prediction=TEXTS)
    def maybe_begin(self, begin, domain, strategy, goal, hypothesis, action, prediction):
        if begin:
            self.start(domain, strategy, goal, hypothesis, action, prediction, other=False)

    @rule(action=st.sampled_from(("start", "start", "end", "get")), then=st.sampled_from((None, "adopt", "abandon")),
          reason=TEXTS, other=st.booleans())
    def session(self, action, then, reason, other):
        """A session call, sometimes followed at once by an orphan call (an orphan needs both in a row)."""
        event(f"session: {action}{' while an entry is active' if self.active else ''}")
        {"start": self._start_session, "end": self._end_session, "get": self._get_session_id}[action](other)
        if then is not None:
            self.orphan_call(then == "adopt", reason, not other)

    @rule(then=st.sampled_from(("adopt", "abandon", "end", "start")), reason=TEXTS,
          domain=st.sampled_from(DOMAINS), strategy=st.sampled_from(STRATEGIES), goal=TEXTS, hypothesis=TEXTS,
          action=TEXTS, prediction=TEXTS, other=st.booleans())
    def interrupted_session(self, then, reason, domain, strategy, goal, hypothesis, action, prediction, other):
        """The orphan story in one step (random steps rarely line it up): an entry is active, a new session
        starts, then the orphan is adopted, abandoned, abandoned by end_session, or superseded by a start."""
        if self.active is None:
            self.start(domain, strategy, goal, hypothesis, action, prediction, other)
        self._start_session(not other)
        assert self.orphan is not None
        event(f"interrupted session, then {then}")
        if then == "adopt":
            self._adopt_orphan(other)
        elif then == "abandon":
            self._abandon_orphan(reason, other)
        elif then == "end":
            self._end_session(other)
        else:
            self.start(domain, strategy, goal, hypothesis, action, prediction, other)

    @rule(domain=st.sampled_from(DOMAINS), strategy=st.sampled_from(STRATEGIES), goal=TEXTS, hypothesis=TEXTS,
          action=TEXTS, prediction=TEXTS, plans=st.lists(UPDATE_PLANS, max_size=3),
          status=st.sampled_from(STATUSES), result=TEXTS, surprise=TEXTS, cause=ROOT_CAUSES,
          lesson=st.none() | LESSONS, auto_captured=st.booleans(), other=st.booleans())
    def episode(self, domain, strategy, goal, hypothesis, action, prediction, plans, status, result, surprise,
                cause, lesson, auto_captured, other):
        """A whole entry in one step (start, a few updates, a valid resolution), so that every run resolves
        entries of each tier although swarm testing disables a random subset of the rules in each run."""
        self.start(domain, strategy, goal, hypothesis, action, prediction, other)
        for plan in plans:
            self._update(plan, other)
        falsified = status == "falsified"
        self.resolve(status, result, surprise if falsified else None, cause if falsified else None, lesson,
                     auto_captured, False, not other)

    @rule(adopt=st.booleans(), reason=TEXTS, other=st.booleans())
    def orphan_call(self, adopt, reason, other):
        if adopt:
            self._adopt_orphan(other)
        else:
            self._abandon_orphan(reason, other)

    @rule(action=st.sampled_from(("increment", "increment", "check", "reset")), times=st.integers(1, 3),
          frequency=st.integers(1, 6), other=st.booleans())
    def tool_calls(self, action, times, frequency, other):
        if action == "increment":
            self._increment_tool_count(times, other)
        elif action == "check":
            self._should_check_in(frequency, other)
        else:
            self._reset_tool_count(other)

    @rule(action=st.sampled_from(("observe", "search", "reopen")), query=st.one_of(TEXTS, st.sampled_from(WORDS)),
          axis=st.sampled_from(sorted(AXES)), other=st.booleans())
    def look(self, action, query, axis, other):
        if action == "observe":
            self._observe(other)
        elif action == "search":
            self._search(query, axis, other)
        else:
            self._reopen(other)

    @precondition(lambda self: self.active is not None)
    @rule(data=st.data())
    def rejected_calls_change_nothing(self, data):
        """Invalid arguments raise ValidationError and leave the active entry as it was (the invariants check)."""
        lm = self.handles[0]
        call = data.draw(st.sampled_from((
            lambda: lm.start_ghap(**start_args(domain="Debugging")),
            lambda: lm.start_ghap(**start_args(goal="   ")),
            lambda: lm.update_ghap(hypothesis="x" * 1001),
            lambda: lm.update_ghap(note="ok", strategy="guess"),
            lambda: lm.resolve_ghap("falsified", "it failed", surprise="odd"),
            lambda: lm.resolve_ghap("confirmed", "x" * 2001),
            lambda: lm.resolve_ghap("confirmed", "ok", lesson={"takeaway": "no what_worked"}),
        )))
        with pytest.raises(ValidationError):
            call()

    # -- invariants ------------------------------------------------------------------------------------------

    @invariant()
    def matches_the_model(self):
        lm = self.handles[0]
        with lm.store.read() as con:  # one connection for the raw reads (each costs ~20 ms)
            def query(text):
                cursor = con.execute(text)
                names = [column[0] for column in cursor.description]
                return [dict(zip(names, row)) for row in cursor.fetchall()]

            stored = {row["id"]: row for row in query("SELECT * FROM ghap_entries")}
            axis_rows = query("SELECT ghap_id, axis, embedding IS NULL AS pending FROM experience_axes")
            sessions = query("SELECT id, ended_at IS NOT NULL AS ended, tool_count, started_at FROM sessions "
                             "ORDER BY started_at")
        assert sum(row["active"] for row in stored.values()) <= 1, "more than one active entry"
        assert set(stored) == set(self.entries)
        axes: dict[str, dict[str, object]] = {}
        for row in axis_rows:
            assert row["axis"] not in axes.setdefault(row["ghap_id"], {}), "an axis recorded twice"
            axes[row["ghap_id"]][row["axis"]] = row["pending"]
        from learnmem.learning import experiences

        for entry_id, entry in self.entries.items():
            row = stored[entry_id]
            assert GHAP_ID.match(entry_id) and SESSION_ID.match(row["session_id"])
            assert id_moment(GHAP_ID, entry_id) == row["created_at"].replace(microsecond=0)
            expected = {"session_id": entry.session_id, "active": entry.active, "domain": entry.domain,
                        "strategy": entry.strategy, "goal": entry.goal, "hypothesis": entry.hypothesis,
                        "action": entry.action, "prediction": entry.prediction, "notes": entry.notes,
                        "iteration_count": len(entry.history) + 1}
            assert {key: row[key] for key in expected} == expected
            history = row["history"]
            assert len(history) == row["iteration_count"] - 1
            assert [(h["hypothesis"], h["action"], h["prediction"]) for h in history] == entry.history
            times = [h["timestamp"] for h in history] + [row["revised_at"]]  # when each triple was set
            assert times[0] == row["created_at"] and all(a < b for a, b in pairwise(times)), times
            if entry.active:
                assert row["outcome_status"] is None and row["confidence_tier"] is None
                assert row["captured_at"] is None and entry_id not in axes
                continue
            # Resolved: never modified again, and as resolved.
            assert row == self.snapshots[entry_id], f"resolved entry {entry_id} changed"
            cause, lesson = entry.cause or {}, entry.lesson or {}
            assert (row["outcome_status"], row["outcome_result"], row["auto_captured"], row["surprise"],
                    row["root_cause_category"], row["root_cause_description"], row["lesson_what_worked"],
                    row["lesson_takeaway"]) == (
                entry.status, entry.result, entry.auto_captured, entry.surprise, cause.get("category"),
                cause.get("description"), lesson.get("what_worked"), lesson.get("takeaway"))
            if entry.status == "abandoned":
                tier = "abandoned"
            elif experiences.bronze_reason(dict(row)) is not None:
                tier = "bronze"
            else:
                tier = "gold" if entry.auto_captured else "silver"
            assert row["confidence_tier"] == tier, (entry, row)
            expected_axes = {"full", "strategy"} | (
                {"surprise", "root_cause"} if entry.status == "falsified" else set())
            assert set(axes.get(entry_id, {})) == expected_axes
            assert any(axes[entry_id].values()) == (entry_id in self.pending), "pending axes"

        # The facade's view, through one handle or the other (each read is a connection: ~25 ms).
        self.steps += 1
        lm = self.handles[self.steps % 2]
        if self.steps % 4 < 2:
            self.check_active(lm)
        else:
            count = self.current.count if self.current else 0
            assert lm.should_check_in(max(count, 1)) == (count >= 1 and self.active is not None)

        assert [(s["id"], s["ended"], s["tool_count"]) for s in sessions] == [
            (s.id, s.ended, s.count) for s in self.sessions]
        for session in sessions:
            assert id_moment(SESSION_ID, session["id"]) == session["started_at"].replace(microsecond=0)


# Each step costs a few connections (~25 ms each): 12 runs of 30 steps take ~30 s on 2 idle cores. Deterministic
# (derandomize); GHAP_MACHINE_EXAMPLES=500 explores further.
GhapMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("GHAP_MACHINE_EXAMPLES", "12")), stateful_step_count=30, deadline=None,
    derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestGhapStateMachine = GhapMachine.TestCase


# ==================================================================================================================
# 2. Validation: each error names its field and lists the options or the limit
# ==================================================================================================================
# Each test checks many bad values on one file (a rejected call changes nothing, and a fresh file costs ~0.1 s).


def rejected(function, *args, error_type=ValidationError, **kwargs) -> str:
    """Call something that must be rejected with `error_type`; the message."""
    with pytest.raises(error_type) as error:
        function(*args, **kwargs)
    return str(error.value)


def assert_names(message: str, field_name: str, *also: str, case: object = None) -> None:
    assert field_name in message, f"{field_name!r} not named in {message!r} ({case!r})"
    for text in also:
        assert text in message, f"{text!r} not in {message!r} ({case!r})"


def limit_pattern(limit: int) -> re.Pattern:
    """1000 or 1,000."""
    return re.compile(f"{limit // 1000},?{limit % 1000:03d}")


def assert_nothing_started(lm) -> None:
    assert lm.get_active_ghap().has_active is False
    assert lm.list_ghap_entries() == []


@pytest.fixture
def started(hashed_lm):
    hashed_lm.start_ghap(**start_args())
    return hashed_lm


def assert_untouched(lm) -> None:
    """The entry `started` made is still active, as it was started: no iteration, note or strategy change."""
    active = lm.get_active_ghap()
    assert active.has_active and active.iteration_count == 1 and active.hypothesis == GOOD["hypothesis"]
    assert lm.sql("SELECT notes, strategy, outcome_status FROM ghap_entries").fetchall() == [
        ([], "systematic-elimination", None)]


def test_start_rejects_unknown_enums_listing_the_options(hashed_lm):
    for name, options in (("domain", DOMAINS), ("strategy", STRATEGIES)):
        for value in ("Debugging", "guessing", "", " debugging", None, 3):
            message = rejected(hashed_lm.start_ghap, **start_args(**{name: value}))
            assert_names(message, name, *options, case=value)
    assert_nothing_started(hashed_lm)


def test_update_and_resolve_reject_unknown_enums_listing_the_options(started):
    for value in ("wing-it", "Trial-and-error", ""):
        assert_names(rejected(started.update_ghap, strategy=value), "strategy", *STRATEGIES, case=value)
        assert_names(rejected(started.update_ghap, note="valid", strategy=value), "strategy", case=value)
    for status in ("Confirmed", "success", "active", "", None):
        assert_names(rejected(started.resolve_ghap, status, "it worked"), "status", *STATUSES, case=status)
    for category in ("bad-luck", "Oversight", ""):
        message = rejected(started.resolve_ghap, "falsified", "still failing",
                           surprise="the timeout was not the cause",
                           root_cause={"category": category, "description": "DNS was slow"})
        assert_names(message, "root_cause.category", *CATEGORIES, case=category)
    assert_untouched(started)


def test_list_filters_reject_unknown_enums_listing_the_options(hashed_lm):
    assert_names(rejected(hashed_lm.list_ghap_entries, domain="cooking"), "domain", *DOMAINS)
    assert_names(rejected(hashed_lm.list_ghap_entries, outcome="won"), "outcome", *STATUSES)


def test_start_text_fields_are_limited_to_1000_chars(hashed_lm):
    for name in START_TEXTS:
        message = rejected(hashed_lm.start_ghap, **start_args(**{name: "x" * 1001}))
        assert_names(message, name, case=name)
        assert limit_pattern(1000).search(message), message
    assert_nothing_started(hashed_lm)
    hashed_lm.start_ghap(**start_args(**{name: f"{name[0]}" * 1000 for name in START_TEXTS}))  # at the limit: fine
    active = hashed_lm.get_active_ghap()
    assert [getattr(active, name) for name in START_TEXTS] == [name[0] * 1000 for name in START_TEXTS]


def test_update_text_fields_are_limited_to_1000_chars(started):
    for name in ("hypothesis", "action", "prediction", "note"):
        message = rejected(started.update_ghap, **{name: "x" * 1001})
        assert_names(message, name, case=name)
        assert limit_pattern(1000).search(message), message
    assert_untouched(started)
    assert started.update_ghap(hypothesis="h" * 1000, action="a" * 1000, prediction="p" * 1000,
                               note="n" * 1000).iteration_count == 2


RESOLVE_FIELDS = {
    "result": lambda text: {"status": "confirmed", "result": text},
    "surprise": lambda text: {"status": "falsified", "result": "failed", "surprise": text,
                              "root_cause": {"category": "oversight", "description": "missed it"}},
    "root_cause.description": lambda text: {"status": "falsified", "result": "failed", "surprise": "odd",
                                            "root_cause": {"category": "oversight", "description": text}},
    "lesson.what_worked": lambda text: {"status": "confirmed", "result": "ok", "lesson": {"what_worked": text}},
    "lesson.takeaway": lambda text: {"status": "confirmed", "result": "ok",
                                     "lesson": {"what_worked": "bisecting", "takeaway": text}},
}


def test_resolve_text_fields_are_limited_to_2000_chars(started):
    for name, args in RESOLVE_FIELDS.items():
        message = rejected(started.resolve_ghap, **args("x" * 2001))
        assert_names(message, name, case=name)
        assert limit_pattern(2000).search(message), message
    assert limit_pattern(2000).search(rejected(started.abandon_ghap, "x" * 2001))
    assert_untouched(started)
    long = {"result": "r" * 2000, "surprise": "s" * 2000,
            "root_cause": {"category": "oversight", "description": "d" * 2000},
            "lesson": {"what_worked": "w" * 2000, "takeaway": "t" * 2000}}
    resolved = started.resolve_ghap("falsified", **long)  # every field at the limit: fine
    assert started.sql("SELECT outcome_result, surprise, root_cause_description, lesson_what_worked, lesson_takeaway "
                       "FROM ghap_entries WHERE id = ?", [resolved.id]).fetchone() == (
        "r" * 2000, "s" * 2000, "d" * 2000, "w" * 2000, "t" * 2000)


def test_abandon_orphan_reason_is_limited_to_2000_chars(started):
    started.start_session()
    message = rejected(started.abandon_orphan, "x" * 2001)
    assert_names(message, "reason")
    assert limit_pattern(2000).search(message), message
    assert_names(rejected(started.abandon_orphan, " "), "reason", "empty")
    assert started.get_orphaned_entry().has_active
    assert started.abandon_orphan("y" * 2000).status == "abandoned"


def test_empty_fields_are_rejected(started):
    for blank in ("", "   ", "\n\t"):
        for name in START_TEXTS:
            assert_names(rejected(started.start_ghap, **start_args(**{name: blank})), name, "empty",
                         case=(name, blank))
        for name in ("hypothesis", "action", "prediction", "note"):
            assert_names(rejected(started.update_ghap, **{name: blank}), name, "empty", case=(name, blank))
        for name, args in RESOLVE_FIELDS.items():
            assert_names(rejected(started.resolve_ghap, **args(blank)), name, "empty", case=(name, blank))
        assert "empty" in rejected(started.abandon_ghap, blank)
    assert_untouched(started)


def test_falsified_requires_surprise_and_root_cause(started):
    full = {"surprise": "the timeout was never reached",
            "root_cause": {"category": "wrong-assumption", "description": "DNS, not the network"}}
    for missing, named in (("surprise", "surprise"), ("root_cause", "root_cause"), ("both", "surprise")):
        args = {} if missing == "both" else {key: value for key, value in full.items() if key != missing}
        message = rejected(started.resolve_ghap, "falsified", "auth still fails", **args)
        assert_names(message, named, "falsified", case=missing)
    assert_untouched(started)
    assert started.resolve_ghap("falsified", "auth still fails", **full).status == "falsified"


def test_root_cause_and_lesson_of_the_wrong_shape_are_rejected(started):
    for root_cause, named in (
        ("wrong-assumption: DNS", "root_cause"),
        (["wrong-assumption", "DNS"], "root_cause"),
        ({"category": "wrong-assumption"}, "root_cause.description"),
        ({"description": "DNS"}, "root_cause.category"),
        ({"category": "wrong-assumption", "description": "DNS", "severity": "high"}, "root_cause"),
        ({"category": "wrong-assumption", "description": 42}, "root_cause.description"),
    ):
        message = rejected(started.resolve_ghap, "falsified", "failed", surprise="odd", root_cause=root_cause)
        assert_names(message, named, case=root_cause)
    for lesson, named in (
        ("bisect first", "lesson"),
        ({}, "lesson.what_worked"),
        ({"takeaway": "bisect first"}, "lesson.what_worked"),
        ({"what_worked": "bisecting", "moral": "x"}, "lesson"),
        ({"what_worked": ["bisecting"]}, "lesson.what_worked"),
    ):
        assert_names(rejected(started.resolve_ghap, "confirmed", "works", lesson=lesson), named, case=lesson)
    for value in ("yes", 1, None):
        assert_names(rejected(started.resolve_ghap, "confirmed", "works", auto_captured=value),
                     "auto_captured", case=value)
    assert_untouched(started)


def test_list_limit_is_1_to_100_and_since_is_iso(hashed_lm):
    for limit in (0, 101, -1, 1000):
        assert_names(rejected(hashed_lm.list_ghap_entries, limit=limit), "limit", "100", case=limit)
    for since in ("yesterday", "2025-13-01", "12/01/2025", 20250101, ""):
        assert_names(rejected(hashed_lm.list_ghap_entries, since=since), "since", case=since)
    ids = [hashed_lm.start_ghap(**start_args(goal=f"goal number {number}")).id for number in range(3)]
    assert [item.id for item in hashed_lm.list_ghap_entries(limit=1)] == [ids[-1]]
    assert [item.id for item in hashed_lm.list_ghap_entries(limit=100)] == ids[::-1]
    assert [item.id for item in hashed_lm.list_ghap_entries()] == ids[::-1]
    assert len(hashed_lm.list_ghap_entries(since="2000-01-01")) == 3
    assert len(hashed_lm.list_ghap_entries(since=datetime(2000, 1, 1))) == 3
    assert hashed_lm.list_ghap_entries(since="2999-01-01T00:00:00Z") == []
    assert [i.id for i in hashed_lm.list_ghap_entries(outcome="abandoned")] == ids[1::-1]  # both superseded
    assert [i.id for i in hashed_lm.list_ghap_entries(outcome="active")] == [ids[-1]]
    assert hashed_lm.list_ghap_entries(domain="security") == []


def test_update_with_nothing_given_is_rejected_naming_the_fields(started):
    message = rejected(started.update_ghap)
    assert_names(message, "hypothesis", "action", "prediction", "strategy", "note")
    message = rejected(started.update_ghap, None, None, None, None, None)
    assert_names(message, "hypothesis", "note")
    assert_untouched(started)


NEEDS_AN_ACTIVE_ENTRY = (
    lambda lm: lm.update_ghap(note="a note"),
    lambda lm: lm.update_ghap(hypothesis="a new belief"),
    lambda lm: lm.update_ghap(strategy="ask-user"),
    lambda lm: lm.resolve_ghap("confirmed", "it works"),
    lambda lm: lm.resolve_ghap("falsified", "no", surprise="x", root_cause={"category": "oversight",
                                                                             "description": "y"}),
    lambda lm: lm.abandon_ghap("changed my mind"),
)


def test_without_an_active_entry_calls_say_to_start_one(hashed_lm):
    for call in NEEDS_AN_ACTIVE_ENTRY:
        assert "start_ghap" in rejected(call, hashed_lm, error_type=NotFoundError)
    hashed_lm.start_ghap(**start_args())
    hashed_lm.resolve_ghap("confirmed", "auth failures stopped in 3 runs")
    for call in NEEDS_AN_ACTIVE_ENTRY:
        assert "start_ghap" in rejected(call, hashed_lm, error_type=NotFoundError)
    assert [item.outcome_status for item in hashed_lm.list_ghap_entries()] == ["confirmed"]


def test_orphan_calls_without_an_orphan_are_not_found(hashed_lm):
    for _ in range(2):
        rejected(hashed_lm.adopt_orphan, error_type=NotFoundError)
        rejected(hashed_lm.abandon_orphan, "gone", error_type=NotFoundError)
        assert hashed_lm.get_orphaned_entry().has_active is False
        hashed_lm.start_ghap(**start_args())  # active, but in the current session: not an orphan
    assert hashed_lm.get_active_ghap().has_active


def test_should_check_in_rejects_a_frequency_below_1(hashed_lm):
    for frequency in (0, -3, "10", 2.5):
        assert_names(rejected(hashed_lm.should_check_in, frequency), "frequency", case=frequency)


def test_lone_surrogates_are_replaced_with_u_fffd(hashed_lm):
    hashed_lm.start_ghap(**start_args(goal="fix the \ud800 bug", hypothesis="bad \udfff bytes in the header"))
    active = hashed_lm.get_active_ghap()
    assert active.goal == "fix the \ufffd bug" and active.hypothesis == "bad \ufffd bytes in the header"
    hashed_lm.update_ghap(note="saw \udc80 again", action="decode with \udbff replace")
    resolved = hashed_lm.resolve_ghap("falsified", "still \ud834 broken", surprise="\udfffsurprise",
                                      root_cause={"category": "oversight", "description": "lone \ud800 half"},
                                      lesson={"what_worked": "look \udc00", "takeaway": "\ud800"})
    row = hashed_lm.sql("SELECT goal, hypothesis, action, notes, outcome_result, surprise, root_cause_description, "
                        "lesson_what_worked, lesson_takeaway FROM ghap_entries WHERE id = ?", [resolved.id]).fetchone()
    assert row == ("fix the \ufffd bug", "bad \ufffd bytes in the header", "decode with \ufffd replace",
                   ["saw \ufffd again"], "still \ufffd broken", "\ufffdsurprise", "lone \ufffd half",
                   "look \ufffd", "\ufffd")
    # The axis texts were embeddable, and the entry is found (it is bronze, its result saying nothing specific:
    # cold storage keeps it out of default search).
    assert hashed_lm.sql("SELECT count(*) FROM experience_axes WHERE embedding IS NULL").fetchone() == (0,)
    assert [hit.ghap_id for hit in hashed_lm.search_experiences("bad bytes in the header", include_cold=True)] == \
        [resolved.id]


# -- a few transitions the machine covers at random, pinned down once ----------------------------------------------


def test_supersede_end_session_orphans_and_tiers(hashed_lm):
    lm = hashed_lm
    first = lm.start_ghap(**start_args())
    assert first.warning is None
    second = lm.start_ghap(**start_args(goal="Fix the flaky cache test"))
    assert second.warning and first.id in second.warning
    row = lm.sql("SELECT active, outcome_status, outcome_result, confidence_tier FROM ghap_entries WHERE id = ?",
                 [first.id]).fetchone()
    assert row == (False, "abandoned", f"superseded by {second.id}", "abandoned")
    ended = lm.end_session()
    assert ended.abandoned_ghap_id == second.id
    assert lm.sql("SELECT outcome_result FROM ghap_entries WHERE id = ?", [second.id]).fetchone() == ("session ended",)
    assert lm.get_session_id() != ended.session_id

    third = lm.start_ghap(**start_args())
    old_session = lm.get_session_id()
    new_session = lm.start_session()
    assert new_session != old_session and SESSION_ID.match(new_session)
    orphan = lm.get_orphaned_entry()
    assert orphan.id == third.id and orphan.session_id == old_session
    adopted = lm.adopt_orphan()
    assert adopted.id == third.id and adopted.session_id == new_session
    assert lm.get_orphaned_entry().has_active is False
    resolved = lm.resolve_ghap("confirmed", "auth failures stopped for 3 runs", auto_captured=True)
    assert resolved.confidence_tier == "gold"
    lm.start_ghap(**start_args())
    assert lm.resolve_ghap("confirmed", "auth failures stopped for 3 runs").confidence_tier == "silver"


def test_update_iterates_only_when_the_triple_changes(started):
    lm = started
    assert lm.update_ghap(hypothesis=GOOD["hypothesis"], prediction=GOOD["prediction"]).iteration_count == 1
    assert lm.update_ghap(strategy="read-the-error").iteration_count == 1  # a strategy alone: no iteration
    assert lm.update_ghap(strategy="read-the-error", note="first note").iteration_count == 1
    assert lm.update_ghap(action="Raise the timeout to 90 s").iteration_count == 2
    assert lm.update_ghap(hypothesis="DNS lookups, not responses, take 30 s", action="Raise the timeout to 90 s",
                          note="second note").iteration_count == 3
    (row,) = rows(lm, "SELECT * FROM ghap_entries")
    assert [(h["hypothesis"], h["action"], h["prediction"]) for h in row["history"]] == [
        (GOOD["hypothesis"], GOOD["action"], GOOD["prediction"]),
        (GOOD["hypothesis"], "Raise the timeout to 90 s", GOOD["prediction"])]
    assert (row["hypothesis"], row["action"], row["prediction"]) == (
        "DNS lookups, not responses, take 30 s", "Raise the timeout to 90 s", GOOD["prediction"])
    assert row["notes"] == ["first note", "second note"] and row["strategy"] == "read-the-error"
    assert row["history"][0]["timestamp"] == row["created_at"] < row["history"][1]["timestamp"] < row["revised_at"]


def test_a_poor_hypothesis_is_bronze(hashed_lm):
    """GHAP.md's own bad example (a hypothesis that cannot be falsified) is what bronze is for."""
    from learnmem.learning import experiences

    hashed_lm.start_ghap(**start_args(**BAD))
    resolved = hashed_lm.resolve_ghap("confirmed", "tests pass")
    (row,) = rows(hashed_lm, "SELECT * FROM ghap_entries")
    assert experiences.bronze_reason(row) is not None
    assert resolved.confidence_tier == "bronze"


def test_the_tool_counter_and_check_ins(hashed_lm, open_again):
    lm = hashed_lm
    assert lm.should_check_in(1) is False
    assert [lm.increment_tool_count() for _ in range(3)] == [1, 2, 3]
    assert lm.should_check_in(3) is False  # no active entry
    lm.start_ghap(**start_args())
    assert lm.should_check_in(3) is True and lm.should_check_in(4) is False
    other = open_again(embedder=HashingEmbedder())  # another process's view of the same file
    assert other.should_check_in(3) is True
    assert other.increment_tool_count() == 4
    assert lm.should_check_in(4) is True
    assert other.reset_tool_count() == 0
    assert lm.should_check_in(1) is False
    assert lm.increment_tool_count() == 1
    lm.start_session()  # a new session counts from zero
    assert lm.should_check_in(1) is False and lm.increment_tool_count() == 1


# ==================================================================================================================
# 3. kill -9 between a resolve's commit and its embedding
# ==================================================================================================================

RESOLVE_THEN_STALL = textwrap.dedent(
    """
    import os, pathlib, signal, sys, time
    import learnmem
    from learnmem.embedding.embed import HashingEmbedder

    path, flag, mode = sys.argv[1:4]

    class Stalling(HashingEmbedder):  # same name and dim as HashingEmbedder: the file accepts it
        def embed(self, texts, batch_size=32):
            pathlib.Path(flag).write_text("\\n".join(texts))
            if mode == "die":
                os.kill(os.getpid(), signal.SIGKILL)
            time.sleep(600)

    lm = learnmem.open(path, embedder=Stalling())
    started = lm.start_ghap("debugging", "systematic-elimination", "Fix the zeppelin mooring crash",
                            "The mooring winch overflows its counter", "Widen the winch counter to 64 bits",
                            "The mooring crash stops")
    print(started.id, flush=True)
    lm.resolve_ghap("falsified", "The zeppelin still crashes at mooring", surprise="The counter never overflowed",
                    root_cause={"category": "wrong-assumption", "description": "The crash is in the ballast pump"},
                    lesson={"what_worked": "Reading the core dump"})
    print("resolve returned", flush=True)
    """
)


def _resolve_and_die(db_path: Path, tmp_path: Path, mode: str) -> str:
    flag = tmp_path / "embedding-started"
    proc = subprocess.Popen([sys.executable, "-c", RESOLVE_THEN_STALL, str(db_path), str(flag), mode],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        entry_id = proc.stdout.readline().strip()
        assert GHAP_ID.match(entry_id), (entry_id, proc.stderr.read() if proc.poll() is not None else "")
        deadline = time.monotonic() + 60
        while not flag.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert flag.exists(), "the resolve never reached its embedding"
        if mode == "stall":
            # While the resolver is stuck embedding, the file is not held: others read and write.
            other = learnmem.open(db_path, embedder=HashingEmbedder())
            assert other.get_active_ghap().has_active is False
            started = time.monotonic()
            assert other.increment_tool_count() >= 1
            assert time.monotonic() - started < 5, "the stalled embedding held the write lock"
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        assert "resolve returned" not in proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return entry_id


@pytest.mark.parametrize("mode, recovery", [("stall", "search"), ("die", "resolve"), ("die", "reembed")])
def test_kill_9_after_the_resolve_committed_leaves_pending_axes_that_the_next_call_embeds(db_path, tmp_path, mode,
                                                                                           recovery):
    learnmem.open(db_path, embedder=HashingEmbedder())
    entry_id = _resolve_and_die(db_path, tmp_path, mode)

    lm = learnmem.open(db_path, embedder=HashingEmbedder())
    assert lm.get_active_ghap().has_active is False
    assert lm.sql("SELECT active, outcome_status, confidence_tier FROM ghap_entries WHERE id = ?",
                  [entry_id]).fetchone() == (False, "falsified", "silver")
    axes = lm.sql("SELECT axis, embedding IS NULL FROM experience_axes WHERE ghap_id = ? ORDER BY axis",
                  [entry_id]).fetchall()
    assert sorted(axes) == [("full", True), ("root_cause", True), ("strategy", True), ("surprise", True)]

    if recovery == "search":
        hits = lm.search_experiences("zeppelin mooring crash")
    else:
        if recovery == "resolve":
            lm.start_ghap(**start_args())
            lm.resolve_ghap("confirmed", "Auth failures stopped in 3 runs")
        else:
            lm.reembed()
        assert lm.sql("SELECT count(*) FROM experience_axes WHERE embedding IS NULL").fetchone() == (0,)
        hits = lm.search_experiences("zeppelin mooring crash")
    assert lm.sql("SELECT count(*) FROM experience_axes WHERE embedding IS NULL").fetchone() == (0,)
    assert hits and hits[0].ghap_id == entry_id
    for axis in ("surprise", "root_cause"):
        assert entry_id in {hit.ghap_id for hit in lm.search_experiences("ballast pump counter overflowed", axis=axis)}


def test_an_embedder_that_fails_leaves_the_resolution_committed_and_pending(db_path):
    class Failing(HashingEmbedder):
        def embed(self, texts, batch_size=32):
            raise RuntimeError("the model crashed")

    lm = learnmem.open(db_path, embedder=Failing())
    lm.start_ghap(**start_args())
    resolved = lm.resolve_ghap("confirmed", "Auth failures stopped in 3 runs")
    assert resolved.status == "confirmed" and lm.get_active_ghap().has_active is False
    assert lm.sql("SELECT count(*), count(embedding) FROM experience_axes").fetchone() == (2, 0)
    healthy = learnmem.open(db_path, embedder=HashingEmbedder())
    assert [hit.ghap_id for hit in healthy.search_experiences("auth timeout")] == [resolved.id]
    assert healthy.sql("SELECT count(*), count(embedding) FROM experience_axes").fetchone() == (2, 2)


# ==================================================================================================================
# 4. Processes at once: no lost update
# ==================================================================================================================

COUNT_AND_NOTE = textwrap.dedent(
    """
    import json, os, sys, time
    import learnmem
    from learnmem.embedding.embed import HashingEmbedder

    target, tag, go, increments, notes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    lm = learnmem.open(**json.loads(target), embedder=HashingEmbedder())
    print("ready", flush=True)
    while not os.path.exists(go):
        time.sleep(0.002)
    counts = []
    for i in range(max(increments, notes)):
        if i < increments:
            counts.append(lm.increment_tool_count())
        if i < notes:
            assert lm.update_ghap(note=f"{tag} note {i}").iteration_count == 1
    print(json.dumps(counts), flush=True)
    """
)

START_MANY = textwrap.dedent(
    """
    import json, os, sys, time
    import learnmem
    from learnmem.embedding.embed import HashingEmbedder

    target, tag, go, starts = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    lm = learnmem.open(**json.loads(target), embedder=HashingEmbedder())
    print("ready", flush=True)
    while not os.path.exists(go):
        time.sleep(0.002)
    for i in range(starts):
        print(lm.start_ghap("testing", "trial-and-error", f"{tag} goal {i}", "a belief", "an act",
                            "an observation").id, flush=True)
    """
)


def _run_together(script: str, tmp_path: Path, args_by_worker: list[list[str]]) -> tuple[list[subprocess.Popen], Path]:
    go = tmp_path / "go"
    workers = [subprocess.Popen([sys.executable, "-c", script, args[0], args[1], str(go), *args[2:]],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for args in args_by_worker]
    for worker in workers:
        assert worker.stdout.readline().strip() == "ready", worker.stderr.read()
    go.touch()
    return workers, go


def _as_argument(target: dict) -> str:
    """learnmem.open's arguments (tests/conftest.py target) as one command-line argument for a worker."""
    return json.dumps({key: str(value) for key, value in target.items()})


def test_processes_counting_and_noting_at_once_lose_no_update(hashed_lm, target, open_again, tmp_path):
    workers_n, increments, notes = 2, 20, 8
    hashed_lm.start_ghap(**start_args())
    session = hashed_lm.get_session_id()
    workers, _ = _run_together(COUNT_AND_NOTE, tmp_path,
                               [[_as_argument(target), f"w{n}", str(increments), str(notes)] for n in range(workers_n)])
    own_counts = []
    try:
        for i in range(increments):  # the test process takes part too
            own_counts.append(hashed_lm.increment_tool_count())
            if i < notes:
                hashed_lm.update_ghap(note=f"main note {i}")
        outputs = [worker.communicate(timeout=60) for worker in workers]
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    assert [worker.returncode for worker in workers] == [0] * workers_n, [err for _, err in outputs]
    counts = own_counts + [count for out, _ in outputs for count in json.loads(out.strip().splitlines()[-1])]
    total = increments * (workers_n + 1)
    # Every increment saw its own value: none was lost, none counted twice.
    assert sorted(counts) == list(range(1, total + 1))
    assert hashed_lm.sql("SELECT id, tool_count FROM sessions").fetchall() == [(session, total)]
    fresh = open_again(embedder=HashingEmbedder())
    assert fresh.should_check_in(total) is True and fresh.should_check_in(total + 1) is False

    (stored_notes,) = fresh.sql("SELECT notes FROM ghap_entries WHERE active").fetchone()
    tags = ["main"] + [f"w{n}" for n in range(workers_n)]
    expected = Counter(f"{tag} note {i}" for tag in tags for i in range(notes))
    assert Counter(stored_notes) == expected  # every note exactly once
    for tag in tags:  # and each process's notes in the order it added them
        mine = [note for note in stored_notes if note.startswith(f"{tag} ")]
        assert mine == [f"{tag} note {i}" for i in range(notes)]
    assert fresh.get_active_ghap().iteration_count == 1


def test_processes_starting_at_once_leave_exactly_one_active_entry(hashed_lm, target, tmp_path):
    starts = 8
    hashed_lm.get_session_id()
    workers, _ = _run_together(START_MANY, tmp_path,
                               [[_as_argument(target), tag, str(starts)] for tag in ("left", "right")])
    try:
        outputs = [worker.communicate(timeout=60) for worker in workers]
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    assert [worker.returncode for worker in workers] == [0, 0], [err for _, err in outputs]
    ids = [line for out, _ in outputs for line in out.split()]
    assert len(set(ids)) == 2 * starts
    entries = {row["id"]: row for row in rows(hashed_lm, "SELECT * FROM ghap_entries")}
    assert set(entries) == set(ids)
    assert sum(row["active"] for row in entries.values()) == 1
    # Each entry was superseded by the one started next, whichever process started it: one chain.
    successor = {}
    for row in entries.values():
        if not row["active"]:
            match = re.fullmatch(r"superseded by (ghap_\S+)", row["outcome_result"])
            assert match, row["outcome_result"]
            successor[row["id"]] = match.group(1)
    assert len(set(successor.values())) == len(successor)  # nobody superseded twice
    (first,) = set(entries) - set(successor.values())
    chain = [first]
    while chain[-1] in successor:
        chain.append(successor[chain[-1]])
    assert len(chain) == 2 * starts and entries[chain[-1]]["active"]
    # (Whether the times follow that chain depends on the race; the next test pins it down.)


WAITING_WRITER = textwrap.dedent(
    """
    import sys
    import learnmem
    from learnmem.embedding.embed import HashingEmbedder

    lm = learnmem.open(sys.argv[1], embedder=HashingEmbedder())
    print("calling", flush=True)
    if sys.argv[2] == "start":
        print(lm.start_ghap("testing", "trial-and-error", "The goal of the waiting process",
                            "Its hypothesis about the lock", "Wait for the lock", "It commits second").id, flush=True)
    else:
        print(lm.update_ghap(hypothesis="The waiting process's hypothesis").iteration_count, flush=True)
    """
)


@pytest.mark.file_only  # it holds the file's writer lock
@pytest.mark.parametrize("call", ["start", "update"])
def test_times_follow_the_order_in_which_writes_commit(hashed_lm, db_path, call):
    """A call that waits for another process's write must take its time after the wait: otherwise an entry
    that supersedes another is older than it, is listed below it, and the superseded one is resolved before
    it was created; a revision is dated before the one it replaced."""
    lm = hashed_lm
    if call == "update":
        lm.start_ghap(**start_args())
    else:
        lm.get_session_id()
    with lm.store._file_lock:  # the writer lock each process takes (reentrant for this handle)
        waiter = subprocess.Popen([sys.executable, "-c", WAITING_WRITER, str(db_path), call],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert waiter.stdout.readline().strip() == "calling", waiter.stderr.read()
        time.sleep(0.5)  # the waiter is now blocked on the lock
        if call == "start":
            mine = lm.start_ghap(**start_args(goal="The goal that commits first")).id
        else:
            lm.update_ghap(hypothesis="The revision that commits first")
    out, err = waiter.communicate(timeout=60)
    assert waiter.returncode == 0, err
    (row,) = rows(lm, "SELECT * FROM ghap_entries WHERE active")
    if call == "start":
        theirs = out.split()[-1]
        (superseded,) = rows(lm, "SELECT * FROM ghap_entries WHERE id = $id", {"id": mine})
        assert row["id"] == theirs and superseded["outcome_result"] == f"superseded by {theirs}"
        assert [item.id for item in lm.list_ghap_entries()] == [theirs, mine], "newest first"
        assert superseded["captured_at"] >= superseded["created_at"], "resolved before it was created"
        assert row["created_at"] >= superseded["created_at"]
    else:
        assert out.split()[-1] == "3"
        assert [h["hypothesis"] for h in row["history"]] == [GOOD["hypothesis"], "The revision that commits first"]
        times = [h["timestamp"] for h in row["history"]] + [row["revised_at"]]
        assert times == sorted(times), "a revision is dated before the one it replaced"


def test_a_file_from_before_the_active_table_keeps_its_entries(db_path):
    """Migration 005 moves the active row to ghap_active and resolved rows to ghap_resolved, losing nothing."""
    import duckdb

    from learnmem.storage import sql
    from learnmem.storage.store import utc_now

    con = duckdb.connect(str(db_path))
    con.execute(sql.query("create_ledger"))
    for version, name, text in sql.migrations()[:4]:  # the schema of the release that had one table
        con.execute(text)
        con.execute(sql.query("record_migration"), {"version": version, "name": name, "applied_at": utc_now()})
    con.execute("""
        INSERT INTO sessions VALUES ('session_20250101_000000_aaaaaa', TIMESTAMP '2025-01-01 00:00:00', NULL, 3);
        INSERT INTO ghap_entries VALUES
          ('ghap_20250101_000001_bbbbbb', 'session_20250101_000000_aaaaaa', TIMESTAMP '2025-01-01 00:00:01',
           TIMESTAMP '2025-01-01 00:00:09', TIMESTAMP '2025-01-01 00:00:05', false, 'debugging', 'trial-and-error',
           'fix the flaky test', 'shared state leaks', 'isolate the fixture', 'it passes alone',
           [{'timestamp': TIMESTAMP '2025-01-01 00:00:01', 'hypothesis': 'a race', 'action': 'add a sleep',
             'prediction': 'it passes'}], 2, ['tried twice'], 'falsified', 'still flaky', TIMESTAMP '2025-01-01 00:00:09',
           false, 'it failed alone too', 'wrong-assumption', 'the clock was mocked', 'read the fixture', NULL, 'silver'),
          ('ghap_20250101_000010_cccccc', 'session_20250101_000000_aaaaaa', TIMESTAMP '2025-01-01 00:00:10',
           TIMESTAMP '2025-01-01 00:00:11', TIMESTAMP '2025-01-01 00:00:10', true, 'testing', 'read-the-error',
           'make CI green', 'the cache is stale', 'clear the cache', 'the build passes', [], 1, ['a note'],
           NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    """)
    con.execute("""
        INSERT INTO experience_axes VALUES
          ('ghap_20250101_000001_bbbbbb', 'full', 'the whole story', ['whole', 'stori'],
           list_transform(range(384), i -> (i / 384)::FLOAT), TIMESTAMP '2025-01-01 00:00:09'),
          ('ghap_20250101_000001_bbbbbb', 'strategy', 'trial and error', ['trial', 'error'], NULL,
           TIMESTAMP '2025-01-01 00:00:09');
    """)
    before = con.execute("SELECT * FROM ghap_entries ORDER BY id").fetchall()
    axes_before = con.execute("SELECT * FROM experience_axes ORDER BY axis").fetchall()
    con.close()

    lm = learnmem.open(db_path, embedder=HashingEmbedder())
    assert lm.sql("SELECT * FROM ghap_entries ORDER BY id").fetchall() == before
    assert lm.sql("SELECT * FROM experience_axes ORDER BY axis").fetchall() == axes_before
    assert lm.sql("SELECT pending_axes FROM experiences").fetchall() == [(1,)]
    assert lm.sql("SELECT count(*) FROM ghap_active").fetchone() == (1,)
    assert lm.get_active_ghap().id == "ghap_20250101_000010_cccccc"
    assert [entry.id for entry in lm.list_ghap_entries()] == ["ghap_20250101_000010_cccccc",
                                                              "ghap_20250101_000001_bbbbbb"]
    assert lm.update_ghap(note="after the upgrade").iteration_count == 1
    resolved = lm.resolve_ghap("confirmed", "cleared the cache; green")
    assert lm.sql("SELECT notes, outcome_status FROM ghap_entries WHERE id = ?", [resolved.id]).fetchone() == (
        ["a note", "after the upgrade"], "confirmed")
    assert lm.sql("SELECT count(*) FROM ghap_active").fetchone() == (0,)
    assert lm.sql("SELECT count(*) FROM experience_axes WHERE embedding IS NULL").fetchone() == (0,)  # all embedded
