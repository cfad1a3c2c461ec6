"""Backup and portability (learnmem/exchange/portable.py) on real files.

- backup: a consistent copy that opens with learnmem and holds the same rows, also while another process writes;
- JSON lines: export -> import into a fresh file -> export gives the same bytes and the same rows (Hypothesis,
  random memories, GHAP entries and values); columns a later migration adds flow through;
- an imported memory is embedded with the importing file's model and found by retrieval (the real model);
- markdown: the agent-learning layout, read from another tool's file and written back, merging by id;
- bad input: a missing file, a file of neither format, bad lines named by number and field, nothing half-applied.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import learnmem
from learnmem.exchange import ghap_io
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import NotFoundError, ValidationError
from learnmem.memory.items import MEMORY_CATEGORIES, PHASES
from learnmem.memory.memories import MEMORY_TABLES
from learnmem.exchange.portable import RejectedImport

ROOT = Path(__file__).resolve().parents[2]
DOMAINS = ("debugging", "refactoring", "feature", "testing", "configuration", "documentation", "performance",
           "security", "integration")
STRATEGIES = ("systematic-elimination", "trial-and-error", "research-first", "divide-and-conquer",
              "root-cause-analysis", "copy-from-similar", "check-assumptions", "read-the-error", "ask-user")
CAUSES = ("wrong-assumption", "missing-knowledge", "oversight", "environment-issue", "misleading-symptom",
          "incomplete-fix", "wrong-scope", "test-isolation", "timing-issue")
AXES = ("full", "strategy", "surprise", "root_cause")


def _open(path: Path, **kwargs) -> learnmem.Learnmem:
    return learnmem.open(path, embedder=HashingEmbedder(), **kwargs)


def _export(lm: learnmem.Learnmem, format: str = "jsonl") -> str:
    out = io.StringIO()
    lm.export_data(out, format)
    return out.getvalue()


def _iso(moment: datetime) -> str:
    return moment.isoformat() + "Z"


def _header(memories: int = 0, entries: int = 0, values: int = 0) -> dict:
    return {"kind": "header", "format": "learnmem-export", "format_version": 1, "learnmem_version": "0",
            "embedding_model": "hashing-384", "embedding_dim": 384,
            "counts": {"memory": memories, "ghap_entry": entries, "value": values}}


def _write(path: Path, records: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in records),
                    encoding="utf-8")
    return path


def _memory(number: int, content: str, category: str = "fact", **extra) -> dict:
    return {"kind": "memory", "id": f"mem_20260101_000000_{number:010x}", "content": content, "category": category,
            "importance": 0.5, "tags": [], "created_at": f"2026-01-0{1 + number % 9}T10:00:00.{number:06d}Z", **extra}


def _rows(lm: learnmem.Learnmem) -> dict[str, list]:
    """Every row a user owns, derived columns included (the same embedder gives the same vectors)."""
    return {
        "memories": lm.sql("SELECT * EXCLUDE (seq) FROM memories ORDER BY id").fetchall(),
        "states": lm.sql("SELECT * FROM memory_states ORDER BY memory_id").fetchall(),
        "ghap": lm.sql("SELECT * FROM ghap_entries ORDER BY id").fetchall(),
        "axes": lm.sql("SELECT ghap_id, axis, text, terms FROM experience_axes ORDER BY ALL").fetchall(),
        "values": lm.sql("SELECT * FROM learned_values ORDER BY id").fetchall(),
    }


# -- backup --------------------------------------------------------------------------------


def test_backup_is_a_copy_that_opens_with_the_same_rows(hashed_lm, tmp_path):
    hashed_lm.store_memories([{"content": f"Fact number {i} about the deploy pipeline", "category": "fact"}
                              for i in range(50)])
    hashed_lm.start_ghap("testing", "read-the-error", "Fix the flaky order test", "Two tests share a tmp dir",
                         "Give each test its own dir", "The order test passes 20 of 20 runs")
    first = hashed_lm.backup()
    assert first.parent == hashed_lm.path.parent
    assert first.name.startswith("learnmem.backup-") and first.suffix == ".duckdb"
    datetime.strptime(first.name[len("learnmem.backup-"):-len(".duckdb")], "%Y%m%d-%H%M%S")
    second = hashed_lm.backup(tmp_path / "elsewhere" / "deeper")  # the folder is created
    assert second.parent == tmp_path / "elsewhere" / "deeper" and second.is_file()
    third = hashed_lm.backup()  # within the same second: another name, never an overwrite
    assert third != first and third.is_file()
    assert not list(tmp_path.rglob("*.partial"))
    for path in (first, second, third):
        copy = _open(path, read_only=True)
        assert _rows(copy) == _rows(hashed_lm)
        assert copy.get_active_ghap().has_active
        assert copy.info().counts == hashed_lm.info().counts


def test_backup_refuses_what_it_cannot_do(tmp_path):
    lm = _open(tmp_path / "x.duckdb")
    (tmp_path / "plain").write_text("not a folder")
    with pytest.raises(ValidationError, match="directory: .*plain is a file"):
        lm.backup(tmp_path / "plain")
    lm.path.unlink()
    with pytest.raises(NotFoundError, match="no learnmem file at .*x.duckdb to back up"):
        lm.backup()
    assert not list(tmp_path.glob("*.backup-*"))


_WRITER = """
import sys, time
import learnmem
from learnmem.embedding.embed import HashingEmbedder
lm = learnmem.open(sys.argv[1], embedder=HashingEmbedder())
deadline = time.monotonic() + float(sys.argv[2])
batch = 0
while time.monotonic() < deadline:
    lm.store_memories([{"content": f"writer batch {batch} item {i}", "category": "progress"} for i in range(20)])
    batch += 1
print(batch)
"""


def test_backup_while_another_process_writes(tmp_path):
    path = tmp_path / "busy.duckdb"
    lm = _open(path)
    lm.store_memory("seed", "fact")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(path), "4"], env=env, stdout=subprocess.PIPE,
                              text=True)
    try:
        time.sleep(1.0)  # the writer is running
        copies = [lm.backup(tmp_path / "backups") for _ in range(3)]
    finally:
        out, _ = writer.communicate(timeout=60)
    assert writer.returncode == 0 and int(out) > 0
    counts = []
    for copy in copies:
        rows = _open(copy, read_only=True).sql(
            "SELECT count(*), count(DISTINCT id), count(embedding) FROM memories").fetchone()
        assert rows[0] == rows[1] == rows[2]  # whole commits only: no torn or missing rows
        assert (rows[0] - 1) % 20 == 0  # the seed plus whole batches of 20
        counts.append(rows[0])
    assert counts == sorted(counts), counts
    assert lm.sql("SELECT count(*) FROM memories").fetchone()[0] >= counts[-1]


# -- JSON lines round trip -----------------------------------------------------------------

_TEXT = st.text(st.characters(codec="utf-8"), min_size=1, max_size=120).filter(lambda s: s.strip())
_SHORT = st.text(st.characters(codec="utf-8"), min_size=1, max_size=40).filter(lambda s: s.strip())
_SOURCE = _SHORT.filter(lambda s: "\n" not in s and "\r" not in s)
_MOMENTS = st.datetimes(datetime(2020, 1, 1), datetime(2030, 12, 31))


def _clean(text: str) -> str:
    from learnmem.validate import clean_text

    return clean_text(text).strip()


@st.composite
def _memories(draw) -> list[dict]:
    count = draw(st.integers(0, 6))
    numbers = draw(st.lists(st.integers(0, 2**40), min_size=count, max_size=count, unique=True))
    return [{"kind": "memory", "id": f"mem_{number:012x}", "content": draw(_TEXT),
             "category": draw(st.sampled_from(MEMORY_CATEGORIES)),
             "importance": draw(st.floats(0.0, 1.0, allow_nan=False)),
             "tags": draw(st.lists(_SHORT, max_size=3)), "created_at": _iso(draw(_MOMENTS)),
             "commit_sha": draw(st.one_of(st.none(), st.text("0123456789abcdef", min_size=40, max_size=40))),
             "sources": draw(st.one_of(st.none(), st.lists(_SOURCE, min_size=1, max_size=3, unique=True))),
             "spec": draw(st.one_of(st.none(), st.from_regex(r"[a-z0-9][a-z0-9._-]{0,20}", fullmatch=True))),
             "phase": draw(st.one_of(st.none(), st.sampled_from(PHASES)))}
            for number in numbers]


@st.composite
def _entry(draw, entry_id: str, active: bool) -> dict:
    created = draw(_MOMENTS)
    history = [{"timestamp": _iso(draw(_MOMENTS)), "hypothesis": draw(_TEXT), "action": draw(_TEXT),
                "prediction": draw(_TEXT)} for _ in range(draw(st.integers(0, 2)))]
    entry = {"kind": "ghap_entry", "id": entry_id, "session_id": f"session_{draw(st.integers(0, 10**6))}",
             "created_at": _iso(created), "domain": draw(st.sampled_from(DOMAINS)),
             "strategy": draw(st.sampled_from(STRATEGIES)), "goal": draw(_TEXT), "hypothesis": draw(_TEXT),
             "action": draw(_TEXT), "prediction": draw(_TEXT), "history": history,
             "iteration_count": len(history) + 1, "notes": draw(st.lists(_TEXT, max_size=2)),
             "revised_at": _iso(draw(_MOMENTS))}
    if active:
        return entry
    status = draw(st.sampled_from(("confirmed", "falsified", "abandoned")))
    entry["outcome"] = {"status": status, "result": draw(_TEXT), "auto_captured": draw(st.booleans()),
                        "captured_at": _iso(created + draw(st.timedeltas(timedelta(0), timedelta(days=9))))}
    if status == "falsified" or draw(st.booleans()):
        entry["surprise"] = draw(_TEXT)
        entry["root_cause"] = {"category": draw(st.sampled_from(CAUSES)), "description": draw(_TEXT)}
    if draw(st.booleans()):
        entry["lesson"] = {"what_worked": draw(_TEXT), "takeaway": draw(st.one_of(st.none(), _TEXT))}
    entry["confidence_tier"] = "abandoned" if status == "abandoned" else draw(st.sampled_from(("gold", "silver",
                                                                                                 "bronze")))
    return entry


@st.composite
def _entries(draw) -> list[dict]:
    count = draw(st.integers(0, 4))
    numbers = draw(st.lists(st.integers(0, 2**24), min_size=count, max_size=count, unique=True))
    active = draw(st.one_of(st.none(), st.integers(0, max(count - 1, 0))))
    return [draw(_entry(f"ghap_20260101_000000_{number:06x}", position == active))
            for position, number in enumerate(numbers)]


@st.composite
def _values(draw) -> list[dict]:
    count = draw(st.integers(0, 3))
    numbers = draw(st.lists(st.integers(0, 2**24), min_size=count, max_size=count, unique=True))
    values = []
    for number in numbers:
        axis = draw(st.sampled_from(AXES))
        dissolved = draw(st.one_of(st.none(), _MOMENTS))
        values.append({"kind": "value", "id": f"value_20260101_000000_{number:06x}", "text": draw(_TEXT),
                       "axis": axis, "cluster_id": f"{axis}-{draw(st.integers(1, 99))}",
                       "cluster_size": draw(st.integers(0, 500)),
                       "similarity_to_centroid": draw(st.floats(-1.0, 1.0)),
                       "centroid_distance": draw(st.floats(0.0, 2.0)),
                       "threshold_distance": draw(st.floats(0.0, 2.0)),
                       "created_at": _iso(draw(_MOMENTS)),
                       "dissolved_at": None if dissolved is None else _iso(dissolved)})
    return values


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(memories=_memories(), entries=_entries(), values=_values())
def test_random_data_round_trips_byte_identical(memories, entries, values):
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        seed = _write(folder / "seed.jsonl", [_header(len(memories), len(entries), len(values)),
                                             *memories, *entries, *values])
        first = _open(folder / "a.duckdb")
        result = first.import_data(seed, progress=False)
        texts = {_clean(m["content"]) for m in memories}
        assert result.imported == {"memories": len(texts), "ghap_entries": len(entries), "values": len(values)}
        exported = _export(first)
        second = _open(folder / "b.duckdb")
        (folder / "e1.jsonl").write_text(exported, encoding="utf-8")
        again = second.import_data(folder / "e1.jsonl", progress=False)
        assert again.skipped == {"memories": 0, "ghap_entries": 0, "values": 0} and again.warnings == ()
        assert _export(second) == exported
        assert _rows(second) == _rows(first)
        # What went in is what came out (texts cleaned and stripped as store_memory does).
        lines = [json.loads(line) for line in exported.splitlines()]
        got = {(m["content"], m["category"], m["importance"], tuple(m["tags"])) for m in lines if m["kind"] == "memory"}
        assert {m[0] for m in got} == texts
        for memory in memories:
            if memory["id"] in {m["id"] for m in lines if m["kind"] == "memory"}:
                assert (_clean(memory["content"]), memory["category"], memory["importance"],
                        tuple(dict.fromkeys(_clean(t) for t in memory["tags"]))) in got
        assert [line for line in lines if line["kind"] == "value"] == sorted(
            ({**value, "text": _clean(value["text"])} for value in values),
            key=lambda value: (datetime.fromisoformat(value["created_at"][:-1]), value["id"]))
        assert second.import_data(folder / "e1.jsonl", progress=False).imported == {
            "memories": 0, "ghap_entries": 0, "values": 0}


def test_ghap_entries_made_through_the_api_round_trip(hashed_lm, tmp_path):
    lm = hashed_lm
    lm.start_ghap("debugging", "systematic-elimination", "Fix the flaky cache test",
                  "Two tests share the cache directory", "Give each test its own tmp dir", "20 of 20 runs pass")
    lm.update_ghap(hypothesis="The tests share one Redis database and race on its keys", note="saw key reuse")
    lm.resolve_ghap("falsified", "Still failed 3 of 20 runs", surprise="The tmp dirs were unique already",
                    root_cause={"category": "wrong-assumption", "description": "The race is in the shared Redis"},
                    lesson={"what_worked": "Flushing Redis per test", "takeaway": "Check shared services first"})
    lm.start_ghap("feature", "research-first", "Add a portable export", "Users move between machines",
                  "Write JSON lines with a header", "An export imports into a new file unchanged")
    lm.store_memory("Use ruff, not black", "preference", importance=0.8, tags=["style", "tooling"])
    exported = _export(lm)
    path = tmp_path / "e.jsonl"
    path.write_text(exported, encoding="utf-8")
    other = _open(tmp_path / "other.duckdb")
    assert other.import_data(path).imported == {"memories": 1, "ghap_entries": 2, "values": 0}
    assert _export(other) == exported
    assert _rows(other) == _rows(lm)
    assert other.get_active_ghap().goal == "Add a portable export"
    pending = other.sql("SELECT count(*) FROM experience_axes WHERE embedding IS NULL").fetchone()[0]
    assert pending == 0  # embedded right after the commit, as after a resolve


def test_memory_states_round_trip(hashed_lm, tmp_path):
    seed = _write(tmp_path / "s.jsonl", [
        _header(3),
        _memory(1, "Old: deploys on Fridays"),
        _memory(2, "Deploys happen on Tuesdays", state=None),
        _memory(3, "A mistaken note", category="context",
                state={"superseded_by": None, "forgotten_at": "2026-02-01T00:00:00.5Z",
                       "changed_at": "2026-02-01T00:00:00.5Z"}),
    ])
    lines = seed.read_text().splitlines()
    first = json.loads(lines[1])
    first["state"] = {"superseded_by": "mem_20260101_000000_0000000002", "forgotten_at": None,
                      "changed_at": "2026-01-05T09:00:00Z"}
    lines[1] = json.dumps(first)
    seed.write_text("\n".join(lines) + "\n")
    assert hashed_lm.import_data(seed).imported["memories"] == 3
    states = hashed_lm.sql("SELECT memory_id, superseded_by, forgotten_at IS NOT NULL FROM memory_states "
                           "ORDER BY memory_id").fetchall()
    assert states == [("mem_20260101_000000_0000000001", "mem_20260101_000000_0000000002", False),
                      ("mem_20260101_000000_0000000003", None, True)]
    exported = _export(hashed_lm)
    assert '"state": {"superseded_by": "mem_20260101_000000_0000000002"' in exported
    (tmp_path / "e.jsonl").write_text(exported)
    other = _open(tmp_path / "o.duckdb")
    other.import_data(tmp_path / "e.jsonl")
    assert _export(other) == exported and _rows(other) == _rows(hashed_lm)


def _add_column(path: Path) -> None:
    """What a later migration might do: a new user column on memories (on both of its tables, migration 014; a
    migration's views are then made again, as views.sql does)."""
    con = duckdb.connect(str(path))
    for table in MEMORY_TABLES:
        con.execute(f"ALTER TABLE {table} ADD COLUMN source VARCHAR")
    con.execute("CREATE OR REPLACE VIEW memories AS SELECT * FROM memories_stored UNION ALL SELECT * FROM memories_recent")
    con.close()


def test_columns_added_later_flow_through(tmp_path):
    source = _open(tmp_path / "a.duckdb")
    stored = source.store_memory("Imported from the team wiki", "fact").id
    source.close()  # the store reaches the file (learnmem.memory.pending) before the file is changed behind its back
    _add_column(source.path)
    con = duckdb.connect(str(source.path))
    for table in MEMORY_TABLES:
        con.execute(f"UPDATE {table} SET source = 'wiki' WHERE id = ?", [stored])
    con.close()
    exported = _export(source)
    assert json.loads(exported.splitlines()[1])["source"] == "wiki"
    path = tmp_path / "e.jsonl"
    path.write_text(exported)
    target = _open(tmp_path / "b.duckdb")
    _add_column(target.path)
    target.import_data(path)
    assert target.sql("SELECT source FROM memories").fetchall() == [("wiki",)]
    assert _export(target) == exported
    # A file without the column refuses the line, naming it, rather than dropping the value.
    with pytest.raises(RejectedImport, match=r"line 2: memory\.source: unknown field"):
        _open(tmp_path / "c.duckdb").import_data(path)


def test_an_imported_memory_is_embedded_with_this_files_model(lm, tmp_path):
    source = _open(tmp_path / "hashed.duckdb")
    source.store_memories([
        {"content": "Format Python with ruff, never black.", "category": "preference", "tags": ["style"]},
        {"content": "Releases are cut on Tuesdays after the staging sign-off.", "category": "fact"},
        {"content": "The CI runners have two cores; keep test runs short.", "category": "fact"},
    ])
    path = tmp_path / "e.jsonl"
    source.export_data(path)
    result = lm.import_data(path, progress=False)
    assert result.imported["memories"] == 3 and result.source_model == "hashing-384"
    hits = lm.retrieve_memories("which code formatter should I use?", limit=1)
    assert hits[0].content == "Format Python with ruff, never black." and hits[0].tags == ("style",)
    assert lm.info().embedding_model == "all-MiniLM-L6-v2"


# -- markdown -----------------------------------------------------------------------------

FOREIGN = """# Project memory

## Consolidated Learnings

**User Corrections:**
- Tests use `MyApp.DataCase`, not `ExUnit.Case`, for database tests

**Fresh Discoveries:**
- The `UserCache` module must be warmed before the first request

---

## Recent Sessions

## 2025-09-14 16:27 BST - Auth refactor
**Project**: demo
**Documentation Seen**: README.md, lib/auth.ex

### Learnings

**New Requirements:**
- All API responses include a `request_id` field
- Background jobs need `max_retries: 3`
  (set in config/jobs.exs)

**Preference Clarifications:**
* User prefers `with` over nested `case`

**Database Migration Strategy:**
- Migrations run in a separate deploy step

---

## 2025-09-10 09:00 - Setup
- A bullet with no category heading
### Updated Conventions
Prose where bullets belong
- Use `Task.async_stream/3` instead of `Enum.map` for IO <!-- learnmem {"importance": 7} -->
- Use `Auth.V2`, never `LegacyAuth`
"""


def test_another_tools_memory_file_imports_and_exports_back(hashed_lm, tmp_path):
    path = tmp_path / "project-memory.md"
    path.write_text(FOREIGN, encoding="utf-8")
    result = hashed_lm.import_data(path)
    assert result.format == "markdown" and result.imported["memories"] == 7
    problems = "\n".join(result.problems)
    assert len(result.problems) == 3, problems
    assert "line 35 (## 2025-09-10 09:00 - Setup): category: the bullet is under no category heading" in problems
    assert "line 37 (## 2025-09-10 09:00 - Setup > ### Updated Conventions): not a bullet" in problems
    assert "line 38 (## 2025-09-10 09:00 - Setup > ### Updated Conventions): importance: 7" in problems
    memories = {m.content: m for m in hashed_lm.list_memories(limit=100)}
    assert memories["Tests use `MyApp.DataCase`, not `ExUnit.Case`, for database tests"].category == "correction"
    assert memories["Tests use `MyApp.DataCase`, not `ExUnit.Case`, for database tests"].importance == 0.8
    assert memories["Background jobs need `max_retries: 3`\n(set in config/jobs.exs)"].category == "requirement"
    assert memories["User prefers `with` over nested `case`"].category == "preference"
    custom = memories["Migrations run in a separate deploy step"]
    assert (custom.category, custom.tags) == ("context", ("section:Database Migration Strategy",))
    assert memories["Use `Auth.V2`, never `LegacyAuth`"].category == "convention"
    assert memories["All API responses include a `request_id` field"].created_at.startswith("2025-09-14T16:27:00")

    exported = _export(hashed_lm, "markdown")
    assert exported.startswith("# Project memory\n")
    assert exported.index("## Consolidated Learnings") < exported.index("## Session 2025-09-14") < exported.index(
        "## Session 2025-09-10")
    session = exported[exported.index("## Session 2025-09-14"):exported.index("## Session 2025-09-10")]
    order = ["### New Requirements", "### Preference Clarifications", "### Database Migration Strategy"]
    assert [session.index(heading) for heading in order] == sorted(session.index(heading) for heading in order)
    out = tmp_path / "out.md"
    out.write_text(exported, encoding="utf-8")
    fresh = _open(tmp_path / "fresh.duckdb")
    again = fresh.import_data(out)
    assert again.problems == () and again.imported["memories"] == 7

    def pairs(lm):
        return {(m.content, m.category, m.importance, m.tags, m.created_at) for m in lm.list_memories(limit=100)}

    assert pairs(fresh) == pairs(hashed_lm)
    assert {(m.content, m.category) for m in fresh.list_memories(limit=100)} == {
        (m.content, m.category) for m in hashed_lm.list_memories(limit=100)}
    assert _export(fresh, "markdown") == exported  # ids and times ride in the comments
    assert hashed_lm.import_data(out).skipped["memories"] == 7  # merged by id: nothing new


def test_markdown_export_groups_by_priority_and_keeps_every_category(hashed_lm, tmp_path):
    items = [{"content": f"A {category} about the billing service, number {i}", "category": category,
              "importance": 0.9 if i else 0.3, "tags": ["billing", "--dash-->"] if i else []}
             for category in MEMORY_CATEGORIES for i in range(2)]
    items.append({"content": "Line one\n\n    indented code\n## not a heading\n- not a bullet", "category": "fact"})
    hashed_lm.store_memories(items)
    text = _export(hashed_lm, "markdown")
    consolidated = text[text.index("## Consolidated Learnings"):text.index("## Session")]
    headings = [line[4:] for line in consolidated.splitlines() if line.startswith("### ")]
    assert headings == ["User Corrections", "New Requirements", "Fresh Discoveries", "Updated Conventions",
                        "Preference Clarifications", "Context", "Decisions", "Elicitation",
                        "Inception"]  # progress, blockers and conversation turns: sessions only
    path = tmp_path / "m.md"
    path.write_text(text, encoding="utf-8")
    fresh = _open(tmp_path / "f.duckdb")
    assert fresh.import_data(path).problems == ()
    assert {(m.id, m.content, m.category, m.tags) for m in fresh.list_memories(limit=100)} == {
        (m.id, m.content, m.category, m.tags) for m in hashed_lm.list_memories(limit=100)}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(memories=_memories())
def test_random_memories_survive_markdown(memories):
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        first = _open(folder / "a.duckdb")
        first.import_data(_write(folder / "seed.jsonl", [_header(len(memories)), *memories]), progress=False)
        (folder / "m.md").write_text(_export(first, "markdown"), encoding="utf-8")
        second = _open(folder / "b.duckdb")
        assert second.import_data(folder / "m.md", progress=False).problems == ()  # an empty export too
        assert {(m.id, " ".join(m.content.split()), m.category, m.importance, m.tags, m.created_at)
                for m in second.list_memories(limit=100)} == {
            (m.id, " ".join(m.content.split()), m.category, m.importance, m.tags, m.created_at)
            for m in first.list_memories(limit=100)}


# -- bad input ----------------------------------------------------------------------------


def test_a_missing_file_or_neither_format_is_refused(hashed_lm, tmp_path):
    with pytest.raises(NotFoundError, match="nowhere.jsonl does not exist"):
        hashed_lm.import_data(tmp_path / "nowhere.jsonl")
    (tmp_path / "script.py").write_text("import os\nprint(os.getcwd())\n")
    (tmp_path / "README.md").write_text("# Tool\n\n## Install\n\n- pip install tool\n")
    (tmp_path / "binary.bin").write_bytes(b"ok\n\x89PNG\x00\xff\xfe")
    for name in ("script.py", "README.md"):
        with pytest.raises(ValidationError, match="neither a learnmem JSONL export"):
            hashed_lm.import_data(tmp_path / name)
    with pytest.raises(ValidationError, match=r"not UTF-8 text \(line 2"):
        hashed_lm.import_data(tmp_path / "binary.bin")
    with pytest.raises(ValidationError, match="folder"):
        hashed_lm.import_data(tmp_path)
    hashed_lm.start_ghap("testing", "read-the-error", "Goal text here", "Shared tmp dir races",
                         "Separate the dirs", "All runs pass")
    hashed_lm.export_ghap(tmp_path / "ghap.jsonl", include_active=True)
    with pytest.raises(ValidationError, match="learnmem ghap import"):
        hashed_lm.import_data(tmp_path / "ghap.jsonl")
    with pytest.raises(ValidationError, match="format: 'csv' is not one of: jsonl, markdown"):
        hashed_lm.export_data(tmp_path / "x.csv", "csv")
    assert hashed_lm.list_memories() == []


def test_bad_lines_are_named_and_nothing_is_imported(hashed_lm, tmp_path):
    hashed_lm.store_memory("Already here", "fact")
    before = _rows(hashed_lm)
    path = _write(tmp_path / "bad.jsonl", [
        _header(3, 1, 1),
        _memory(1, "A good memory"),
        {"kind": "note", "text": "what is this"},
        _memory(2, "Bad category", category="gossip"),
        _memory(3, "Unknown field", colour="red"),
        "{not json",
        {"kind": "ghap_entry", "id": "ghap_1", "session_id": "s", "created_at": "2026-01-01T00:00:00Z",
         "domain": "astrology", "strategy": "ask-user", "goal": "g", "hypothesis": "h", "action": "a",
         "prediction": "p"},
        {"kind": "value", "id": "value_1", "text": "t", "axis": "full", "cluster_id": "surprise-1",
         "cluster_size": 3, "similarity_to_centroid": 0.5, "centroid_distance": 0.5, "threshold_distance": 0.6,
         "created_at": "2026-01-01T00:00:00Z"},
        _memory(1, "Same id again"),
    ])
    with pytest.raises(RejectedImport) as refused:
        hashed_lm.import_data(path)
    problems = refused.value.problems
    assert problems == (
        "line 3: kind: 'note' is not one of: memory, ghap_entry, value",
        "line 4: memory.category: 'gossip' is not one of: " + ", ".join(MEMORY_CATEGORIES),
        "line 5: memory.colour: unknown field; a memory has: id, content, category, importance, tags, created_at, "
        "commit_sha, sources, spec, phase, session, speaker, said_at, state",
        "line 6: not valid JSON (Expecting property name enclosed in double quotes at column 2)",
        "line 7: ghap_entry.domain: 'astrology' is not one of: " + ", ".join(DOMAINS),
        "line 8: value.cluster_id: 'surprise-1' is not a cluster of axis 'full'",
        "line 9: memory.id: 'mem_20260101_000000_0000000001' repeats line 2",
        "line 1: header.counts.memory: the header announces 3, the file holds 4 (cut short or edited?)",
    )
    assert "nothing was imported" in str(refused.value) and "line 3: kind" in str(refused.value)
    assert _rows(hashed_lm) == before


def test_a_file_cut_short_is_refused(hashed_lm, tmp_path):
    hashed_lm.store_memories([{"content": f"memory {i}", "category": "fact"} for i in range(5)])
    lines = _export(hashed_lm).splitlines(keepends=True)
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(lines[:-2]))
    other = _open(tmp_path / "o.duckdb")
    with pytest.raises(RejectedImport, match="header.counts.memory: the header announces 5, the file holds 3"):
        other.import_data(path)
    path.write_text("".join(lines[1:]))  # no header
    with pytest.raises(ValidationError, match="line 1: not a learnmem export"):
        other.import_data(path)
    assert other.list_memories() == []


def test_a_failure_while_writing_applies_nothing(hashed_lm, tmp_path, monkeypatch):
    path = _write(tmp_path / "ok.jsonl", [_header(2, 1), _memory(1, "First"), _memory(2, "Second"),
                                         {"kind": "ghap_entry", "id": "ghap_x", "session_id": "session_1",
                                          "created_at": "2026-01-01T00:00:00Z", "domain": "testing",
                                          "strategy": "ask-user", "goal": "A goal", "hypothesis": "A belief",
                                          "action": "An action", "prediction": "A result"}])

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(ghap_io, "insert_entries", broken)  # after the memories went in
    with pytest.raises(RuntimeError, match="disk full"):
        hashed_lm.import_data(path)
    assert hashed_lm.list_memories() == [] and not hashed_lm.get_active_ghap().has_active
    monkeypatch.undo()
    assert hashed_lm.import_data(path).imported == {"memories": 2, "ghap_entries": 1, "values": 0}


def test_same_text_under_another_id_is_skipped_with_a_warning(hashed_lm, tmp_path):
    stored = hashed_lm.store_memory("Deploys happen on Tuesdays", "fact").id
    path = _write(tmp_path / "dup.jsonl", [_header(1), _memory(7, "Deploys   happen on Tuesdays")])
    result = hashed_lm.import_data(path)
    assert result.imported["memories"] == 0 and result.skipped["memories"] == 1
    assert result.warnings == (f"line 2: memory mem_20260101_000000_0000000007: the same text is stored as {stored}; "
                               f"skipped",)


# -- command line -------------------------------------------------------------------------


def _cli(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("LEARNMEM_DB", "LEARNMEM_DEBUG")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run([sys.executable, "-m", "learnmem.cli", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=300, check=False)
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_backup_export_and_import_commands(tmp_path):
    db = tmp_path / "cli.duckdb"
    source = learnmem.open(db)  # the real model, as the CLI uses
    source.store_memory("Format Python with ruff, never black.", "preference", importance=0.9, tags=["style"])
    source.store_memory("The CI runners have two cores.", "fact")
    backup = json.loads(_cli("backup", "--out", str(tmp_path / "b"), "--db", str(db), "--json").stdout)
    assert Path(backup["path"]).parent == tmp_path / "b" and backup["bytes"] == Path(backup["path"]).stat().st_size
    assert _cli("backup", "--db", str(db)).stdout.strip().endswith(".duckdb")
    exported = json.loads(_cli("export", str(tmp_path / "e.jsonl"), "--db", str(db), "--json").stdout)
    assert (exported["format"], exported["memories"]) == ("jsonl", 2)
    assert _cli("export", "-", "--db", str(db)).stdout == (tmp_path / "e.jsonl").read_text()
    assert "Exported 2 memories" in _cli("export", str(tmp_path / "m.md"), "--db", str(db)).stdout
    assert "## Consolidated Learnings" in (tmp_path / "m.md").read_text()
    result = json.loads(_cli("import", str(tmp_path / "e.jsonl"), "--db", str(tmp_path / "new.duckdb"),
                             "--json").stdout)
    assert result["imported"] == {"memories": 2, "ghap_entries": 0, "values": 0}
    text = _cli("import", str(tmp_path / "m.md"), "--db", str(tmp_path / "new.duckdb")).stdout
    assert text.startswith("Imported 0 memories") and "skipped: 2 memories" in text
    (tmp_path / "bad.jsonl").write_text(json.dumps(_header(1)) + '\n{"kind": "memo"}\n')
    failed = _cli("import", str(tmp_path / "bad.jsonl"), "--db", str(tmp_path / "new.duckdb"), ok=False)
    assert failed.returncode == 2 and "Traceback" not in failed.stderr
    assert failed.stderr.count("\n") == 1 and "line 2: kind: 'memo' is not one of" in failed.stderr
    missing = _cli("backup", "--db", str(tmp_path / "absent.duckdb"), ok=False)
    assert missing.returncode == 2 and "no learnmem file" in missing.stderr
