"""GHAP export and import (learnmem/exchange/ghap_io.py) on real files.

- export -> import into a fresh file -> export gives back every field exactly, and the experience axes;
- a Hypothesis round trip of random valid entries in the entry format (GHAP.md "Entry format");
- the original journal layout (archive/, session_entries.jsonl, current_ghap.json) in both shapes;
- corrupt lines are skipped and reported as file:line, ids already stored are skipped and counted;
- an imported active entry is active only when no entry is.
"""

from __future__ import annotations

import io
import json
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import learnmem
from learnmem.learning import experiences
from learnmem.exchange import ghap_io
from learnmem.embedding.embed import HashingEmbedder
from learnmem.errors import NotFoundError, ValidationError

KEYS = ["id", "session_id", "created_at", "domain", "strategy", "goal", "hypothesis", "action", "prediction",
        "history", "iteration_count", "notes", "outcome", "surprise", "root_cause", "lesson", "confidence_tier"]
DOMAINS = ("debugging", "refactoring", "feature", "testing", "configuration", "documentation", "performance",
           "security", "integration")
STRATEGIES = ("systematic-elimination", "trial-and-error", "research-first", "divide-and-conquer",
              "root-cause-analysis", "copy-from-similar", "check-assumptions", "read-the-error", "ask-user")
CATEGORIES = ("wrong-assumption", "missing-knowledge", "oversight", "environment-issue", "misleading-symptom",
              "incomplete-fix", "wrong-scope", "test-isolation", "timing-issue")


def _open(path: Path) -> learnmem.Learnmem:
    return learnmem.open(path, embedder=HashingEmbedder())


def _export(lm: learnmem.Learnmem, include_active: bool = True) -> str:
    out = io.StringIO()
    lm.export_ghap(out, include_active=include_active)
    return out.getvalue()


def _entries(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def _write_jsonl(path: Path, entries: list) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join((json.dumps(e, ensure_ascii=False) if not isinstance(e, str) else e) + "\n"
                            for e in entries), encoding="utf-8")
    return path


def _axes(lm: learnmem.Learnmem) -> list[tuple]:
    return lm.sql("SELECT ghap_id, axis, text, embedding IS NULL FROM experience_axes ORDER BY ALL").fetchall()


def _populate(lm: learnmem.Learnmem) -> None:
    """Entries of every kind: falsified with history and notes, gold, bronze, abandoned, superseded, active."""
    lm.start_ghap("testing", "systematic-elimination", "Fix the flaky cache test in test_cache.py",
                  "The cache TTL expires between the two assertions under CI load",
                  "Freeze the clock with a fixture", "test_cache passes 20 of 20 runs")
    lm.update_ghap(note="fails only on CI, never locally")
    lm.update_ghap(hypothesis="Two tests share the cache directory and race on its cleanup",
                   action="Give each test its own tmp_path cache directory")
    lm.update_ghap(strategy="divide-and-conquer", note="ran the two tests alone: they pass")
    lm.resolve_ghap("falsified", "Still failed 3 of 20 runs with separate directories",
                    surprise="The directories were already separate; the race is in the shared Redis",
                    root_cause={"category": "wrong-assumption", "description": "Redis is shared between workers"},
                    lesson={"what_worked": "Flushing Redis per test", "takeaway": "Check shared services first"})
    lm.start_ghap("performance", "research-first", "Cut the cold start of the CLI under 200 ms",
                  "Importing pyarrow at module level costs 170 ms", "Import pyarrow lazily in store.py",
                  "python -X importtime shows no pyarrow on the status path")
    lm.resolve_ghap("confirmed", "importtime shows pyarrow gone; p50 dropped from 390 ms to 180 ms",
                    lesson={"what_worked": "python -X importtime"}, auto_captured=True)
    lm.start_ghap("debugging", "trial-and-error", "Fix it", "The tests will tell me what's wrong", "Run pytest",
                  "Tests fail")
    lm.resolve_ghap("confirmed", "done")
    lm.start_ghap("feature", "copy-from-similar", "Add CSV export to reports",
                  "The JSON exporter's streaming writer can be reused for CSV", "Copy the JSON exporter",
                  "A 1 GB report exports in constant memory")
    lm.start_ghap("feature", "research-first", "Add CSV export to reports",
                  "Python's csv module quotes embedded commas correctly", "Use csv.writer with QUOTE_MINIMAL",
                  "Cells with commas open intact in LibreOffice")  # supersedes the previous one
    lm.abandon_ghap("the product owner dropped CSV export")
    lm.start_ghap("security", "read-the-error", "Stop the TLS handshake failures to the billing API",
                  "The billing API dropped TLS 1.1 and our client pins it", "Allow TLS 1.2 in the client config",
                  "Handshakes to billing succeed")


# -- round trips -------------------------------------------------------------------


def test_export_then_import_into_a_fresh_file_round_trips_every_field(tmp_path: Path) -> None:
    source = _open(tmp_path / "a.duckdb")
    _populate(source)
    exported = _export(source)
    entries = _entries(exported)
    assert len(entries) == 6
    assert all(list(entry) == KEYS for entry in entries)  # every key, in the contract's order
    assert [e["created_at"] for e in entries] == sorted(e["created_at"] for e in entries)  # oldest first
    assert all(e["created_at"].endswith("Z") for e in entries)
    tiers = {e["goal"]: (e["outcome"] or {}).get("status") and e["confidence_tier"] for e in entries}
    assert tiers["Fix the flaky cache test in test_cache.py"] == "silver"
    assert tiers["Cut the cold start of the CLI under 200 ms"] == "gold"
    assert tiers["Fix it"] == "bronze"
    falsified = entries[0]
    assert falsified["iteration_count"] == 2 and len(falsified["history"]) == 1
    assert falsified["notes"] == ["fails only on CI, never locally", "ran the two tests alone: they pass"]
    assert falsified["strategy"] == "divide-and-conquer"
    assert falsified["root_cause"] == {"category": "wrong-assumption", "description": "Redis is shared between workers"}
    assert entries[-1]["outcome"] is None and entries[-1]["confidence_tier"] is None
    # Without include_active the active entry stays out.
    assert [e["id"] for e in _entries(_export(source, include_active=False))] == [e["id"] for e in entries[:-1]]

    path = tmp_path / "ghap.jsonl"
    assert source.export_ghap(path, include_active=True) == 6
    assert path.read_text(encoding="utf-8") == exported  # a path and a stream get the same bytes

    target = _open(tmp_path / "b.duckdb")
    result = target.import_ghap(path)
    assert result == ghap_io.ImportResult(imported=6, skipped_duplicates=0, errors=(), warnings=())
    assert _export(target) == exported
    # The experience axes were recorded with the same texts, and embedded after the commit.
    assert [row[:3] for row in _axes(target)] == [row[:3] for row in _axes(source)]
    assert all(not pending for *_, pending in _axes(target))
    # The active entry is the active one of the new file; the library works on it as usual.
    assert target.get_active_ghap().id == entries[-1]["id"]
    assert target.update_ghap(hypothesis="The client pins TLS 1.1 in its ssl context").iteration_count == 2
    listed = target.list_ghap_entries(outcome="falsified")
    assert [s.id for s in listed] == [falsified["id"]]
    assert target.search_experiences("Redis shared between workers", axis="root_cause")[0].ghap_id == falsified["id"]


# Texts as the library stores them: no lone surrogates or NUL, no surrounding whitespace, not empty.
_TEXT = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), min_size=1, max_size=40).map(
    str.strip).filter(bool)
_LONG = st.sampled_from(["x" * 1000, "é" * 999 + "z"])
_START_TEXT = st.one_of(_TEXT, _TEXT, _TEXT, _LONG)
_RESOLVE_TEXT = st.one_of(_TEXT, _TEXT, _TEXT, st.just("y" * 2000))
_MOMENTS = st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2099, 12, 31))


def _iso(moment: datetime) -> str:
    return moment.isoformat() + "Z"


@st.composite
def _entry(draw, entry_id: str, active: bool) -> dict:
    created = draw(_MOMENTS)
    history = [{"timestamp": _iso(draw(_MOMENTS)), "hypothesis": draw(_START_TEXT), "action": draw(_START_TEXT),
                "prediction": draw(_START_TEXT)} for _ in range(draw(st.integers(0, 3)))]
    entry = {
        "id": entry_id, "session_id": f"session_{draw(st.integers(10**5, 10**6 - 1))}",
        "created_at": _iso(created), "domain": draw(st.sampled_from(DOMAINS)),
        "strategy": draw(st.sampled_from(STRATEGIES)), "goal": draw(_START_TEXT),
        "hypothesis": draw(_START_TEXT), "action": draw(_START_TEXT), "prediction": draw(_START_TEXT),
        "history": history, "iteration_count": len(history) + 1, "notes": draw(st.lists(_START_TEXT, max_size=3)),
        "outcome": None, "surprise": None, "root_cause": None, "lesson": None, "confidence_tier": None,
    }
    if active:
        return entry
    status = draw(st.sampled_from(("confirmed", "falsified", "abandoned")))
    auto = draw(st.booleans())
    entry["outcome"] = {"status": status, "result": draw(_RESOLVE_TEXT),
                        "captured_at": _iso(created + draw(st.timedeltas(timedelta(0), timedelta(days=30)))),
                        "auto_captured": auto}
    falsified = status == "falsified"
    entry["surprise"] = draw(_RESOLVE_TEXT) if falsified or draw(st.booleans()) else None
    if falsified or draw(st.booleans()):
        entry["root_cause"] = {"category": draw(st.sampled_from(CATEGORIES)), "description": draw(_RESOLVE_TEXT)}
    if draw(st.booleans()):
        entry["lesson"] = {"what_worked": draw(_RESOLVE_TEXT), "takeaway": draw(st.one_of(st.none(), _RESOLVE_TEXT))}
    entry["confidence_tier"] = ("abandoned" if status == "abandoned"
                                else draw(st.sampled_from(("gold", "silver", "bronze"))))
    return entry


@st.composite
def _entries_strategy(draw) -> list[dict]:
    count = draw(st.integers(1, 6))
    ids = draw(st.lists(st.from_regex(r"ghap_20[0-9]{6}_[0-9]{6}_[0-9a-f]{6}", fullmatch=True), min_size=count,
                        max_size=count, unique=True))
    active = draw(st.one_of(st.none(), st.integers(0, count - 1)))  # at most one active entry
    return [draw(_entry(entry_id, position == active)) for position, entry_id in enumerate(ids)]


def _expected_tier(entry: dict) -> str | None:
    """The bronze rule applies on import as at resolve time: a gold or silver entry saying too little is bronze."""
    tier = entry["confidence_tier"]
    if tier in ("gold", "silver") and experiences.bronze_reason({
        "outcome_status": entry["outcome"]["status"], "outcome_result": entry["outcome"]["result"],
        **{key: entry[key] for key in ("goal", "hypothesis", "action", "prediction")},
    }):
        return "bronze"
    return tier


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_entries_strategy())
def test_random_valid_entries_round_trip_exactly(entries: list[dict]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = _write_jsonl(Path(folder) / "in.jsonl", entries)
        lm = _open(Path(folder) / "x.duckdb")
        result = lm.import_ghap(path)
        assert (result.imported, result.skipped_duplicates, result.errors, result.warnings) == (len(entries), 0, (), ())
        expected = sorted((dict(entry, confidence_tier=_expected_tier(entry)) for entry in entries),
                          key=lambda e: (datetime.fromisoformat(e["created_at"][:-1]), e["id"]))
        exported = _export(lm)
        assert _entries(exported) == expected
        # And the export itself imports back byte for byte.
        again = _open(Path(folder) / "y.duckdb")
        assert again.import_ghap(_write_jsonl(Path(folder) / "out.jsonl", _entries(exported))).imported == len(entries)
        assert _export(again) == exported


# -- the journal layout and its shapes ----------------------------------------------

FLAT = {
    "id": "ghap_20251201_091500_a1b2c3", "session_id": "session_20251201_090000_aaaaaa",
    "created_at": "2025-12-01T09:15:00.123456Z", "domain": "debugging", "strategy": "read-the-error",
    "goal": "Fix the ImportError in CI", "hypothesis": "The CI image lacks the libffi headers that cffi compiles against",
    "action": "Add libffi-dev to the Dockerfile", "prediction": "pip install cffi succeeds in the CI build",
    "history": [], "iteration_count": 1, "notes": [],
    "outcome": {"status": "confirmed", "result": "The CI build installs cffi and the test job is green",
                "captured_at": "2025-12-01T09:40:00+00:00", "auto_captured": True},
    "confidence_tier": "gold",
}


def _journal(root: Path) -> Path:
    """A journal directory as the original tools left it, mixing the flat and the older shape."""
    archive_flat_no_session = dict(FLAT, id="ghap_20251201_093000_d4e5f6", goal="Speed up the CI test job",
                                   domain="performance", strategy="divide-and-conquer",
                                   hypothesis="Half of the job's time is spent building the wheel cache",
                                   action="Cache ~/.cache/pip between runs", prediction="The test job takes under 5 min",
                                   outcome={"status": "confirmed", "result": "The job now takes 4 min 10 s",
                                            "captured_at": "2025-12-01T10:00:00Z"})
    del archive_flat_no_session["session_id"], archive_flat_no_session["confidence_tier"]
    _write_jsonl(root / "archive" / "20251201_session_20251201_090000_aaaaaa.jsonl", [FLAT, archive_flat_no_session])
    older_falsified = {
        "id": "ghap_20251202_140000_0a0b0c", "session_id": "session_20251202_135500_bbbbbb",
        "created_at": "2025-12-02T15:00:00+01:00", "domain": "testing", "strategy": "check-assumptions",
        "goal": "Make the order tests deterministic",
        "current": {"hypothesis": "The tests depend on dict ordering of the fixtures",
                    "action": "Sort the fixtures by id", "prediction": "The order tests pass under -p random-order",
                    "timestamp": "2025-12-02T14:10:00Z"},
        "history": [{"timestamp": "2025-12-02T14:00:00Z", "hypothesis": "The random seed leaks between tests",
                     "action": "Reset the seed in a fixture", "prediction": "The order tests pass 10 of 10 runs"}],
        "iteration_count": 2, "notes": "seed reset changed nothing",
        "resolution": {"status": "falsified", "result": "Still failing under random order after sorting fixtures",
                       "resolved_at": "2025-12-02T14:30:00Z", "auto_captured": False,
                       "surprise": "The failures came from a module-level cache, not the fixtures",
                       "root_cause": {"category": "misleading-symptom",
                                      "description": "A module-level lru_cache kept results across tests"},
                       "lesson": "Clear module caches in an autouse fixture"},
    }
    older_poor = {
        "id": "ghap_20251202_150000_111111", "session_id": "session_20251202_135500_bbbbbb",
        "created_at": "2025-12-02T15:00:00Z", "domain": "debugging", "strategy": "trial-and-error", "goal": "Fix it",
        "current": {"hypothesis": "The tests will tell me what's wrong", "action": "Run pytest",
                    "prediction": "Tests fail"},
        "resolution": {"outcome": {"status": "confirmed", "result": "done", "captured_at": "2025-12-02T15:05:00Z",
                                   "auto_captured": False}, "confidence_tier": "silver"},
    }
    _write_jsonl(root / "session_entries.jsonl", [older_falsified, older_poor])
    active = {"id": "ghap_20251202_160000_222222", "session_id": "session_20251202_135500_bbbbbb",
              "created_at": "2025-12-02T16:00:00Z", "domain": "feature", "strategy": "research-first",
              "goal": "Add retries to the webhook sender",
              "current": {"hypothesis": "Webhook receivers time out under load and succeed on a second try",
                          "action": "Retry with exponential backoff", "prediction": "Delivery failures drop by 90 %"},
              "history": [], "iteration_count": 1, "notes": ["asked the on-call about timeouts"]}
    (root / "current_ghap.json").write_text(json.dumps(active, indent=2), encoding="utf-8")
    return root


def test_a_journal_directory_in_both_shapes_imports_with_the_tolerant_mapping(tmp_path: Path) -> None:
    lm = _open(tmp_path / "j.duckdb")
    result = lm.import_ghap(_journal(tmp_path / "journal"))
    assert result == ghap_io.ImportResult(imported=5, skipped_duplicates=0, errors=(), warnings=())
    entries = {e["id"]: e for e in _entries(_export(lm))}
    assert list(entries) == ["ghap_20251201_091500_a1b2c3", "ghap_20251201_093000_d4e5f6",
                             "ghap_20251202_140000_0a0b0c", "ghap_20251202_150000_111111",
                             "ghap_20251202_160000_222222"]
    flat = entries["ghap_20251201_091500_a1b2c3"]
    assert flat["created_at"] == "2025-12-01T09:15:00.123456Z"  # microseconds kept
    assert flat["outcome"] == dict(FLAT["outcome"], captured_at="2025-12-01T09:40:00Z")  # +00:00 -> Z
    # No session id in the line: the archive file's name gives it; no tier: silver, as a resolve would give.
    archived = entries["ghap_20251201_093000_d4e5f6"]
    assert archived["session_id"] == "session_20251201_090000_aaaaaa"
    assert archived["confidence_tier"] == "silver" and archived["outcome"]["auto_captured"] is False
    # The older shape: the triple under `current`, the resolution under `resolution`.
    older = entries["ghap_20251202_140000_0a0b0c"]
    assert older["created_at"] == "2025-12-02T14:00:00Z"  # +01:00 converted to UTC
    assert (older["hypothesis"], older["action"]) == ("The tests depend on dict ordering of the fixtures",
                                                      "Sort the fixtures by id")
    assert older["history"][0]["hypothesis"] == "The random seed leaks between tests"
    assert older["notes"] == ["seed reset changed nothing"]
    assert older["outcome"] == {"status": "falsified", "result": "Still failing under random order after sorting fixtures",
                                "captured_at": "2025-12-02T14:30:00Z", "auto_captured": False}
    assert older["root_cause"]["category"] == "misleading-symptom"
    assert older["lesson"] == {"what_worked": "Clear module caches in an autouse fixture", "takeaway": None}
    assert older["confidence_tier"] == "silver"
    # The old tools assigned bronze only when persisting: the import applies the rule.
    assert entries["ghap_20251202_150000_111111"]["confidence_tier"] == "bronze"
    # current_ghap.json is the active entry, since none was active.
    active = lm.get_active_ghap()
    assert active.id == "ghap_20251202_160000_222222" and active.goal == "Add retries to the webhook sender"
    assert entries[active.id]["notes"] == ["asked the on-call about timeouts"]
    # Axes: full and strategy for each resolved entry, surprise and root_cause for the falsified one; embedded.
    axes = _axes(lm)
    assert {(g, a) for g, a, _, _ in axes if g == older["id"]} == {(older["id"], axis) for axis in experiences.AXES}
    assert len(axes) == 4 * 2 + 2 and not any(pending for *_, pending in axes)
    # Importing the directory again adds nothing.
    again = lm.import_ghap(tmp_path / "journal")
    assert (again.imported, again.skipped_duplicates, again.errors) == (0, 5, ())


def test_a_single_json_entry_file_imports(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_text(json.dumps(FLAT, indent=2), encoding="utf-8")
    lm = _open(tmp_path / "x.duckdb")
    assert lm.import_ghap(path).imported == 1
    assert _entries(_export(lm))[0]["id"] == FLAT["id"]


# -- corrupt lines, duplicates -------------------------------------------------------


def test_corrupt_lines_are_skipped_and_reported_with_file_and_line(tmp_path: Path) -> None:
    second = dict(FLAT, id="ghap_20251201_100000_bbbbbb")
    lines = [
        FLAT,                                                               # 1 fine
        '{"id": "ghap_20251201_100000_cccccc", "domain": ',                 # 2 truncated JSON
        "[1, 2, 3]",                                                        # 3 not an object
        {k: v for k, v in FLAT.items() if k != "goal"} | {"id": "ghap_x1"},  # 4 missing goal
        dict(FLAT, id="ghap_x2", domain="astrology"),                       # 5 bad enum
        dict(FLAT, id="ghap_x3", hypothesis="h" * 1001),                    # 6 over the start limit
        dict(FLAT, id="ghap_x4", outcome=dict(FLAT["outcome"], result="r" * 2001)),  # 7 over the resolve limit
        dict(FLAT, id="ghap_x5", outcome=dict(FLAT["outcome"], status="falsified")),  # 8 no surprise
        dict(FLAT, id="ghap_x6", confidence_tier="platinum"),               # 9 bad tier
        dict(FLAT, id="ghap_x7", created_at="yesterday"),                   # 10 bad time
        dict(FLAT, id="ghap_x8", outcome=dict(FLAT["outcome"], status="abandoned")),  # 11 tier contradicts status
        dict(FLAT, id="ghap_x9", root_cause={"category": "bad-luck", "description": "?"}),  # 12 bad category
        "",                                                                 # 13 blank: ignored
        second,                                                             # 14 fine
        dict(FLAT, id="ghap_x10", history=[{"hypothesis": "h", "action": "a", "prediction": "p"}]),  # 15 no timestamp
    ]
    path = _write_jsonl(tmp_path / "mixed.jsonl", lines)
    lm = _open(tmp_path / "x.duckdb")
    result = lm.import_ghap(path)
    assert result.imported == 2 and result.skipped_duplicates == 0
    reported = {int(error.split(":")[len(str(path).split(":"))]): error for error in result.errors}
    assert sorted(reported) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15], result.errors
    assert all(error.startswith(f"{path}:") for error in result.errors)
    for line, fragment in {2: "not valid JSON", 3: "JSON object", 4: "goal: required", 5: "astrology",
                           6: "hypothesis: 1001 characters is over the limit of 1000",
                           7: "outcome.result: 2001 characters is over the limit of 2000", 8: "surprise: required",
                           9: "platinum", 10: "created_at", 11: "confidence_tier", 12: "bad-luck",
                           15: "history[0].timestamp: required"}.items():
        assert fragment in reported[line], (line, reported[line])
    assert "debugging" in reported[5]  # the valid options are listed
    assert [e["id"] for e in _entries(_export(lm))] == [FLAT["id"], second["id"]]


def test_duplicates_are_skipped_and_counted(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "dupes.jsonl", [FLAT, dict(FLAT, goal="Another goal, same id")])
    lm = _open(tmp_path / "x.duckdb")
    first = lm.import_ghap(path)
    assert (first.imported, first.skipped_duplicates) == (1, 1)  # the first line of an id wins
    assert _entries(_export(lm))[0]["goal"] == FLAT["goal"]
    second = lm.import_ghap(path)
    assert (second.imported, second.skipped_duplicates, second.errors) == (0, 2, ())
    assert lm.sql("SELECT count(*) FROM ghap_entries").fetchone() == (1,)
    assert lm.sql("SELECT count(*) FROM experience_axes").fetchone() == (2,)


def test_a_source_that_is_missing_or_holds_no_journal_is_an_error(tmp_path: Path) -> None:
    lm = _open(tmp_path / "x.duckdb")
    with pytest.raises(NotFoundError, match="source"):
        lm.import_ghap(tmp_path / "nope.jsonl")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValidationError, match="current_ghap.json"):
        lm.import_ghap(tmp_path / "empty")


# -- the active entry ------------------------------------------------------------------

ACTIVE = {k: v for k, v in FLAT.items() if k not in ("outcome", "confidence_tier")} | {
    "id": "ghap_20251203_080000_333333", "goal": "Migrate the settings to pydantic v2"}


def test_an_imported_active_entry_is_abandoned_while_another_is_active(tmp_path: Path) -> None:
    lm = _open(tmp_path / "x.duckdb")
    mine = lm.start_ghap("refactoring", "divide-and-conquer", "Split the god module cli.py",
                         "The parser and the commands only share formatting helpers",
                         "Move the git commands into cli_git.py", "cli.py shrinks by a third and tests pass")
    path = _write_jsonl(tmp_path / "active.jsonl", [ACTIVE])
    result = lm.import_ghap(path)
    assert (result.imported, result.errors) == (1, ())
    assert len(result.warnings) == 1
    assert result.warnings[0].startswith(f"{path}:1: ") and ACTIVE["id"] in result.warnings[0]
    assert ghap_io.IMPORTED_WHILE_ACTIVE in result.warnings[0]
    assert lm.get_active_ghap().id == mine.id  # the active entry stays
    stored = _entries(_export(lm, include_active=False))
    assert [e["id"] for e in stored] == [ACTIVE["id"]]
    assert stored[0]["outcome"]["status"] == "abandoned"
    assert stored[0]["outcome"]["result"] == "imported while another entry was active"
    assert stored[0]["confidence_tier"] == "abandoned"
    assert {axis for g, axis, _, _ in _axes(lm) if g == ACTIVE["id"]} == {"full", "strategy"}


def test_only_the_first_imported_active_entry_becomes_active(tmp_path: Path) -> None:
    lm = _open(tmp_path / "x.duckdb")
    other = dict(ACTIVE, id="ghap_20251203_090000_444444", goal="Another active goal")
    result = lm.import_ghap(_write_jsonl(tmp_path / "two.jsonl", [ACTIVE, other]))
    assert result.imported == 2 and len(result.warnings) == 1 and other["id"] in result.warnings[0]
    assert lm.get_active_ghap().id == ACTIVE["id"]
    assert lm.list_ghap_entries(outcome="abandoned")[0].id == other["id"]
    # The imported active entry resolves like any other.
    assert lm.resolve_ghap("confirmed", "Settings load with pydantic v2 and the config tests pass").id == ACTIVE["id"]


def test_an_embedder_failure_leaves_imported_axes_pending(tmp_path: Path) -> None:
    lm = _open(tmp_path / "x.duckdb")

    def broken():
        raise RuntimeError("model missing")

    result = ghap_io.import_entries(lm.store, _write_jsonl(tmp_path / "one.jsonl", [FLAT]), broken)
    assert result.imported == 1
    assert {pending for *_, pending in _axes(lm)} == {True}  # stored, waiting for an embedding
    assert lm.search_experiences("libffi headers in the CI image")[0].ghap_id == FLAT["id"]  # search embeds them
    assert {pending for *_, pending in _axes(lm)} == {False}


def test_export_never_replaces_a_file_that_is_not_a_ghap_export(tmp_path: Path) -> None:
    lm = learnmem.open(tmp_path / "x.duckdb", embedder=HashingEmbedder())
    lm.start_ghap("debugging", "read-the-error", "Fix the flaky test", "A race in setup", "Add a lock", "It passes")
    lm.resolve_ghap("confirmed", "It passed ten times in a row")
    precious = tmp_path / "notes.txt"
    precious.write_text("my own notes\n")
    with pytest.raises(learnmem.ValidationError, match="exists and is not a GHAP export; it was left as it is"):
        lm.export_ghap(precious)
    assert precious.read_text() == "my own notes\n"
    target = tmp_path / "entries.jsonl"
    assert lm.export_ghap(target) == 1 and lm.export_ghap(target) == 1  # its own export is replaced
    (tmp_path / "empty.jsonl").write_text("")
    assert lm.export_ghap(tmp_path / "empty.jsonl") == 1
