"""Spec-aware memories (issue 10 item 2): spec and phase on memories, the filters, the planning kinds, the
active spec a project declares, and the session-start context for it. Real files, the real model, real
hook processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

import pytest

import learnmem
from learnmem.context import specs
from learnmem.errors import ValidationError
from learnmem.memory.items import MEMORY_CATEGORIES, PHASES
from learnmem.exchange.portable import RejectedImport
from tests.gitrepo import GitRepo, run_git
from tests.agents.test_hooks import Project, context_of

CHECKOUT = [
    ("3-D Secure challenges fail in the staging iframe; test cards only pass with the redirect flow", "blocker"),
    ("Checkout v2 charges through Stripe payment intents, never the legacy charges API", "decision"),
    ("Cart totals must be integer cents: float sums drifted by a cent on 3-item carts", "learning"),
    ("The product owner wants saved cards shown first on the payment step", "elicitation"),
]


@pytest.fixture
def planned(lm) -> learnmem.Learnmem:
    for content, category in CHECKOUT:
        lm.store_memory(content, category, spec="checkout-v2",
                        phase="planning" if category == "elicitation" else "implementation")
    lm.store_memory("Search ranks exact SKU matches above fuzzy ones", "decision", spec="search-revamp",
                    phase="review")
    lm.store_memory("Feature flags are named <team>.<feature>, e.g. payments.saved_cards", "convention")
    return lm


def test_memories_carry_spec_and_phase_and_filter_on_them(planned):
    listed = planned.list_memories(spec="checkout-v2")
    assert sorted(m.category for m in listed) == ["blocker", "decision", "elicitation", "learning"]
    assert {m.spec for m in listed} == {"checkout-v2"}
    assert [m.content for m in planned.list_memories(phase="planning")] == [CHECKOUT[3][0]]
    assert [m.content for m in planned.list_memories(spec="checkout-v2", category="decision")] == [CHECKOUT[1][0]]
    convention = planned.list_memories(category="convention")[0]
    assert convention.spec is None and convention.phase is None
    hits = planned.retrieve_memories("which payment API do we charge through", spec="search-revamp")
    assert [hit.spec for hit in hits] == ["search-revamp"]  # the filter is exact: the better match is excluded
    hits = planned.retrieve_memories("which payment API do we charge through", spec="checkout-v2",
                                     phase="implementation", limit=1)
    assert hits[0].content == CHECKOUT[1][0] and hits[0].phase == "implementation"
    assert planned.retrieve_memories("payments", phase="close-out") == []
    assert planned.list_memories(spec="no-such-spec") == []


def test_since_takes_dates_datetimes_and_ages(planned):
    everything = len(planned.list_memories())
    assert len(planned.list_memories(since="1h")) == everything
    assert len(planned.retrieve_memories("payments", since="2d", limit=100)) == len(
        planned.retrieve_memories("payments", limit=100))
    tomorrow = datetime.now(timezone.utc) + timedelta(days=1)
    assert planned.list_memories(since=tomorrow) == []
    assert planned.retrieve_memories("payments", since=tomorrow.date().isoformat()) == []
    assert len(planned.list_memories(since="2000-01-01T00:00:00Z")) == everything
    with pytest.raises(ValidationError, match=r"since: 'yesterday' is not an ISO date .* nor an age \(e\.g\. '12h'"):
        planned.list_memories(since="yesterday")


def test_spec_is_a_slug_stored_lowercase_and_phase_one_of_the_phases(lm):
    stored = lm.store_memory("Billing retries run hourly", "decision", spec="Billing-V2.Q1", phase="close-out")
    memory = lm.get_memory(stored.id)
    assert memory.spec == "billing-v2.q1" and memory.phase == "close-out"
    assert [m.id for m in lm.list_memories(spec="BILLING-v2.q1")] == [stored.id]
    for bad in ("checkout v2", "-leading-dash", "", "x" * 101, "naïve"):
        with pytest.raises(ValidationError, match=r"^spec: "):
            lm.store_memory("Anything at all", "fact", spec=bad)
    with pytest.raises(ValidationError, match=r"^spec: expected a string, got int"):
        lm.list_memories(spec=7)
    with pytest.raises(ValidationError, match=r"^phase: 'done' is not one of: planning, implementation, review, "
                                              r"close-out"):
        lm.retrieve_memories("billing", phase="done")
    with pytest.raises(ValidationError, match=r"^memories\[1\]\.phase: 'later' is not one of"):
        lm.store_memories([{"content": "One", "category": "fact"},
                           {"content": "Two", "category": "fact", "phase": "later"}])
    assert len(lm.list_memories()) == 1  # nothing of the refused batch was written


def test_planning_kinds_and_supersede_keeps_spec_and_phase(lm):
    assert {"inception", "elicitation"} <= set(MEMORY_CATEGORIES) and PHASES[0] == "planning"
    old = lm.store_memory("The spec exists because checkout abandonment is 70 % on mobile", "inception",
                          spec="checkout-v2", phase="planning")
    new = lm.supersede_memory(old.id, "The spec exists because checkout abandonment is 74 % on mobile")
    replacement = lm.get_memory(new.id)
    assert (replacement.category, replacement.spec, replacement.phase) == ("inception", "checkout-v2", "planning")


def test_export_and_import_keep_spec_and_phase(planned, tmp_path, embedder):
    expected = {(m.content, m.spec, m.phase) for m in planned.list_memories()}
    for fmt in ("jsonl", "markdown"):
        out = tmp_path / f"export.{fmt}"
        planned.export_data(out, format=fmt)
        fresh = learnmem.open(tmp_path / f"{fmt}.duckdb", embedder=embedder)
        fresh.import_data(out, progress=False)
        assert {(m.content, m.spec, m.phase) for m in fresh.list_memories()} == expected, fmt
    lines = (tmp_path / "export.jsonl").read_text(encoding="utf-8").splitlines()
    bad = [line.replace('"phase": "review"', '"phase": "someday"') for line in lines]
    (tmp_path / "bad.jsonl").write_text("\n".join(bad) + "\n", encoding="utf-8")
    with pytest.raises(RejectedImport, match=r"memory\.phase: 'someday' is not one of"):
        learnmem.open(tmp_path / "bad.duckdb", embedder=embedder).import_data(tmp_path / "bad.jsonl")


def test_git_notes_carry_spec_and_phase(tmp_path, embedder):
    repo = GitRepo.init(tmp_path / "work")
    repo.write("app.py", "print('hi')\n")
    repo.commit("first")
    lm = learnmem.open(repo.path / ".learnmem" / "learnmem.duckdb", embedder=embedder)
    stored = lm.store_memory("Checkout v2 keeps the old receipt emails", "decision", spec="checkout-v2",
                             phase="review")
    lm.export_notes()
    note = run_git(repo.path, repo.home, "notes", "--ref=learnmem/decision", "show", "HEAD").stdout.decode()
    assert "spec: checkout-v2" in note and "phase: review" in note
    again = learnmem.open(tmp_path / "again.duckdb", embedder=embedder)
    again.import_notes(repo.path, progress=False)
    memory = again.get_memory(stored.id)
    assert (memory.spec, memory.phase) == ("checkout-v2", "review")


def test_recall_and_memories_commands_filter_by_spec_phase_and_since(planned):
    env = {**os.environ, "LEARNMEM_DB": str(planned.path)}

    def cli(*args: str) -> list[dict]:
        done = subprocess.run([sys.executable, "-m", "learnmem.cli", *args, "--json"], capture_output=True,
                              text=True, env=env, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)["results"]

    hits = cli("recall", "how do we charge cards", "--spec", "checkout-v2", "--category", "decision")
    assert [hit["content"] for hit in hits] == [CHECKOUT[1][0]]
    listed = cli("memories", "--phase", "review", "--since", "7d")
    assert [(m["spec"], m["phase"]) for m in listed] == [("search-revamp", "review")]
    stored = subprocess.run([sys.executable, "-m", "learnmem.cli", "remember", "Keep the old receipt emails",
                             "-c", "decision", "--spec", "checkout-v2", "--phase", "wrap-up"],
                            capture_output=True, text=True, env=env, timeout=120, check=False)
    assert stored.returncode != 0 and "phase: 'wrap-up' is not one of" in stored.stderr


# -- active specs ------------------------------------------------------------------------------------------


def test_active_specs_are_the_folders_and_documents_of_the_active_folder(tmp_path):
    folder = tmp_path / "docs" / "spec" / "active"
    assert specs.active_specs(tmp_path, {}) == []  # no folder: none
    (folder / "Checkout V2").mkdir(parents=True)
    for name in ("search-revamp.md", "README.md", "notes.json", ".hidden.md"):
        (folder / name).write_text("# spec\n", encoding="utf-8")
    (folder / "linked").symlink_to(tmp_path, target_is_directory=True)
    past = time.time() - 3600
    os.utime(folder / "Checkout V2", (past, past))
    assert specs.active_specs(tmp_path, {}) == ["search-revamp", "checkout-v2"]  # newest first
    os.utime(folder / "search-revamp.md", (past - 60, past - 60))
    assert specs.active_specs(tmp_path, {}) == ["checkout-v2", "search-revamp"]
    elsewhere = tmp_path / "plans" / "now"
    (elsewhere / "billing").mkdir(parents=True)
    assert specs.active_specs(tmp_path, {specs.ACTIVE_DIR_VARIABLE: "plans/now"}) == ["billing"]
    assert specs.active_specs(tmp_path, {specs.ACTIVE_DIR_VARIABLE: str(elsewhere)}) == ["billing"]


def test_light_context_for_a_spec_leads_with_its_blockers_decisions_and_learnings(planned):
    planned.store_memory("Retries with jittered backoff keep recurring across services", "pattern")
    text = planned.get_context(spec="checkout-v2").markdown
    section = text[text.index("## Spec checkout-v2"):]
    section = section[:section.index("\n## ") if "\n## " in section else len(section)]
    assert [line for line in section.splitlines()[1:] if line] and all(
        kind in section for kind in ("(blocker)", "(decision)", "(learning)"))
    assert section.index("3-D Secure") < section.index("Stripe payment intents") < section.index("integer cents")
    assert "Search ranks" not in section and "saved cards shown first" not in section
    assert "## Recent patterns" not in text
    without = planned.get_context().markdown
    assert "## Spec" not in without and "## Recent patterns" in without and "jittered backoff" in without
    with pytest.raises(ValidationError, match=r"^spec: "):
        planned.get_context(spec="not a slug")


def test_session_start_injects_the_active_spec(tmp_path, embedder):
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    project = Project(root, root / ".learnmem" / "learnmem.duckdb",
                      learnmem.open(root / ".learnmem" / "learnmem.duckdb", embedder=embedder))
    for content, category in CHECKOUT:
        project.lm.store_memory(content, category, spec="checkout-v2")
    project.lm.store_memory("Search ranks exact SKU matches above fuzzy ones", "decision", spec="search-revamp")
    project.lm.store_memory("Every service retries with jittered backoff", "pattern")
    text = context_of(project.hook("session-start", source="startup"), "SessionStart")
    assert "## Spec" not in text and "## Recent patterns" in text and "jittered backoff" in text
    (root / "docs" / "spec" / "active" / "checkout-v2").mkdir(parents=True)
    text = context_of(project.hook("session-start", source="startup"), "SessionStart")
    assert "# learnmem context (light) for spec checkout-v2" in text
    assert "3-D Secure" in text and "Stripe payment intents" in text and "integer cents" in text
    assert "## Recent patterns" not in text
    (root / "docs" / "spec" / "active" / "search-revamp.md").write_text("# Search\n", encoding="utf-8")
    past = time.time() - 3600
    os.utime(root / "docs" / "spec" / "active" / "checkout-v2", (past, past))
    text = context_of(project.hook("session-start", source="startup"), "SessionStart")
    assert text.startswith("learnmem: active specs search-revamp, checkout-v2; the context below is for "
                           "search-revamp")
    assert "Search ranks exact SKU" in text
    text = context_of(project.hook("session-start", env={specs.ACTIVE_DIR_VARIABLE: "nowhere"}, source="startup"),
                      "SessionStart")
    assert "## Spec" not in text and "## Recent patterns" in text
