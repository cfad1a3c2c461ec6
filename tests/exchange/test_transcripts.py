"""Conversation transcripts as memories (learnmem/exchange/transcripts.py, migration 015), on real files and lakes.

- a JSON lines file of turns imports one memory per turn with its session, speaker and time; imported again,
  nothing is stored twice, while the same words said again are a turn of their own; bad lines refuse the file,
  each named, nothing written;
- store_memories takes turns too (turns_of reads a file into its items), with no restatement check;
- retrieve_memories and list_memories filter by session and by a window of when a turn was said;
- Claude Code's own session transcript (tests/data/transcripts/, written by someone who never saw this code, from
  the format's public description): only what was said, each turn whole; its questions are recalled with the
  real model; the CLI imports it and recalls by session.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import learnmem
from learnmem.errors import ValidationError
from learnmem.exchange import transcripts

BOTH_BACKENDS = True
ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "transcripts"
CLAUDE_CODE = DATA / "claude-code-session.jsonl"
QUESTIONS = DATA / "claude-code-questions.jsonl"

# Two sessions of a chat, in the shapes other tools write: `role`/`content` as chat APIs do, a number for a
# session, a date and a clock apart, an ISO timestamp.
TURNS = [
    {"session": 1, "date": "2024-03-02", "time": "18:05", "speaker": "Maren", "text": "We signed for the flat on Kessler Street!"},
    {"session": 1, "date": "2024-03-02", "time": "18:06", "speaker": "Tobi", "text": "No way, the one with the green door?"},
    {"session": 1, "date": "2024-03-02", "time": "18:07", "speaker": "Maren", "text": "That one. Rent is 1,240 a month."},
    {"session": 1, "date": "2024-03-02", "time": "18:08", "speaker": "Tobi", "text": "sounds good"},
    {"session_id": "2", "timestamp": "2024-04-20T09:30:00Z", "role": "Tobi", "content": "How is the new place?"},
    {"session_id": "2", "timestamp": "2024-04-20T09:31:00Z", "role": "Maren",
     "content": "The boiler broke twice already, the landlord sent a plumber called Ivo."},
    {"session_id": "2", "timestamp": "2024-04-20T09:32:00Z", "role": "Tobi", "content": "sounds good"},
]


def _write(path: Path, lines: list) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_turns_import_one_memory_each_with_session_speaker_and_time(hashed_lm, tmp_path):
    path = _write(tmp_path / "chat.jsonl", TURNS)
    result = hashed_lm.import_data(path, progress=False)
    assert (result.format, result.imported["memories"], result.skipped["memories"]) == ("turns", 7, 0)
    listed = hashed_lm.list_memories(limit=10)  # newest said first
    assert [(m.session, m.speaker, m.said_at) for m in listed[:2]] == [
        ("2", "Tobi", "2024-04-20T09:32:00Z"), ("2", "Maren", "2024-04-20T09:31:00Z")]
    assert listed[-1].content == "Maren: We signed for the flat on Kessler Street!"
    assert {m.category for m in listed} == {"conversation"}
    # "sounds good" twice, in two sessions: two turns. The file again: nothing new.
    assert sum(m.content == "Tobi: sounds good" for m in listed) == 2
    again = hashed_lm.import_data(path, progress=False)
    assert (again.imported["memories"], again.skipped["memories"]) == (0, 7)
    assert len(hashed_lm.list_memories(limit=100)) == 7


def test_turns_filter_by_session_and_by_when_they_were_said(hashed_lm, tmp_path):
    hashed_lm.import_data(_write(tmp_path / "chat.jsonl", TURNS), progress=False)
    hashed_lm.store_memory("The flat has a green door", "fact")  # stored now, said never: its time is now
    assert {m.speaker for m in hashed_lm.list_memories(session="2")} == {"Tobi", "Maren"}
    assert len(hashed_lm.list_memories(session="2")) == 3
    hits = hashed_lm.retrieve_memories("green door", session="1", limit=10)
    assert hits and {hit.session for hit in hits} == {"1"}
    in_march = hashed_lm.list_memories(since="2024-03-01", until="2024-03-31")
    assert len(in_march) == 4 and {m.session for m in in_march} == {"1"}
    assert {m.content for m in hashed_lm.list_memories(since="2024-04-01")} == {
        "Tobi: How is the new place?", "Maren: The boiler broke twice already, the landlord sent a plumber called Ivo.",
        "Tobi: sounds good", "The flat has a green door"}
    found = hashed_lm.retrieve_memories("plumber boiler", until="2024-12-31", limit=10)
    assert "The flat has a green door" not in {hit.content for hit in found}
    assert all(hit.said_at <= "2024-12-31" for hit in found)
    with pytest.raises(ValidationError, match=r"until: .* is before since"):
        hashed_lm.list_memories(since="2024-05-01", until="2024-04-01")


def test_bad_turn_lines_refuse_the_file_each_named_and_nothing_is_written(hashed_lm, tmp_path):
    bad = [TURNS[0], {"speaker": "Maren"}, {"speaker": "Tobi", "text": "hi", "said_at": "yesterday"}, "a string",
           {"speaker": "Tobi\nHarper", "text": "hi"}]
    path = _write(tmp_path / "bad.jsonl", bad)
    with pytest.raises(ValidationError) as refused:
        hashed_lm.import_data(path, format="turns", progress=False)
    message = str(refused.value)
    for expected in ("line 2: text: required", "line 3: said_at: 'yesterday' is not an ISO date",
                     "line 4: expected a JSON object", "line 5: speaker: 'Tobi\\nHarper' spans lines"):
        assert expected in message
    assert hashed_lm.info().counts["memories"] == 0


def test_a_turn_is_cleaned_and_cut_and_a_file_of_neither_kind_is_named(hashed_lm, tmp_path):
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps({"speaker": "Ana", "text": "lone \ud800 surrogate, \x00 nul"}) + "\n"
                    + json.dumps({"role": "Ben", "content": "word " * 2500}) + "\n", encoding="utf-8")
    result = hashed_lm.import_data(path, progress=False)
    assert result.imported["memories"] == 2
    assert result.warnings == ("1 turns over 10,000 characters were cut to that length",)
    contents = {m.speaker: m.content for m in hashed_lm.list_memories()}
    assert contents["Ana"] == "Ana: lone \ufffd surrogate, \ufffd nul"
    assert len(contents["Ben"]) <= 10_000 and contents["Ben"].startswith("Ben: word word")
    _write(path, [{"foo": 1}])
    with pytest.raises(ValidationError, match=r"not a learnmem export.*nor a transcript.*--format turns"):
        hashed_lm.import_data(path, progress=False)


def test_store_memories_takes_turns_without_a_restatement_check(hashed_lm, tmp_path):
    items = transcripts.turns_of(_write(tmp_path / "chat.jsonl", TURNS))
    assert items[0] == {"content": "Maren: We signed for the flat on Kessler Street!", "category": "conversation",
                        "session": "1", "speaker": "Maren", "said_at": items[0]["said_at"]}
    results = hashed_lm.store_memories(items)
    assert [r.duplicate for r in results] == [False] * 7
    # The same words said again later are a turn of their own, not a restatement to refuse.
    said_again = hashed_lm.store_memories([{**items[2], "said_at": "2024-05-01T10:00:00Z"}])[0]
    assert not said_again.duplicate and said_again.id not in {r.id for r in results}
    with pytest.raises(ValidationError, match=r"memories\[0\]\.said_at: '12h' is not an ISO date"):
        hashed_lm.store_memories([{**items[0], "said_at": "12h"}, items[1]])


@pytest.mark.file_only
def test_claude_code_transcript_gives_only_what_was_said_each_turn_whole(tmp_path):
    reading = transcripts.read(CLAUDE_CODE.read_text(encoding="utf-8"), CLAUDE_CODE, "claude-code")
    assert transcripts.detect(CLAUDE_CODE.read_text(encoding="utf-8")) == "claude-code"
    assert reading.problems == [] and reading.turns
    lines = [json.loads(line) for line in CLAUDE_CODE.read_text(encoding="utf-8").splitlines()[:-1]]  # last: cut
    said = {line["uuid"]: line for line in lines if line.get("type") in ("user", "assistant")}
    sessions = {line["sessionId"] for line in said.values()}
    assert {turn.session for turn in reading.turns} == sessions
    assert {turn.speaker for turn in reading.turns} == {"user", "assistant"}
    texts = "\n".join(turn.text for turn in reading.turns)
    for marker in ("<system-reminder>", "<command-name>", "<local-command", "tool_use_id", '"type": "thinking"'):
        assert marker not in texts
    for line in said.values():
        blocks = line["message"]["content"]
        if line.get("isSidechain") or line.get("isMeta"):
            continue
        for block in blocks if isinstance(blocks, list) else []:
            if block.get("type") == "thinking":
                assert block["thinking"].strip()[:60] not in texts
            if block.get("type") == "tool_result" and isinstance(block.get("content"), str) and block["content"].strip():
                assert block["content"].strip()[:60] not in texts
    sidechain = [line for line in said.values() if line.get("isSidechain")]
    assert sidechain, "the fixture has a sub-agent's lines"
    for line in sidechain:
        content = line["message"]["content"]
        text = content if isinstance(content, str) else " ".join(b.get("text", "") for b in content)
        assert not text.strip() or text.strip()[:60] not in texts
    # An assistant message written over several lines (one per block) is one turn, in time order.
    ids = [line["message"].get("id") for line in said.values() if line["type"] == "assistant"]
    assert len(ids) > len(set(ids)), "the fixture splits assistant messages over lines"
    assert [t.said_at for t in reading.turns] == sorted(t.said_at for t in reading.turns)
    assert any("lines are not turns" in warning for warning in reading.warnings)


@pytest.mark.file_only
def test_claude_code_questions_are_recalled_with_the_real_model(lm):
    result = lm.import_data(CLAUDE_CODE, progress=False)
    assert result.format == "claude-code" and result.imported["memories"] > 20
    lines = {}
    for raw in CLAUDE_CODE.read_text(encoding="utf-8").splitlines()[:-1]:
        line = json.loads(raw)
        lines[line.get("uuid")] = line
    questions = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    found = 0
    for question in questions:
        hits = lm.retrieve_memories(question["question"], limit=5)
        evidence = [_said(lines[uuid]) for uuid in question["evidence"]]
        found += any(text[:80] in hit.content for hit in hits for text in evidence)
    # The plumbing, not the ranking, is under test here (bench/quality measures that): most answers are reachable.
    assert found >= len(questions) * 0.6, f"{found} of {len(questions)} questions found their turn in the top 5"


def _said(line: dict) -> str:
    content = line["message"]["content"]
    if isinstance(content, str):
        return content.split("<system-reminder>")[0].strip()
    return next(block["text"] for block in content if block.get("type") == "text").strip()


@pytest.mark.file_only
def test_the_cli_imports_a_claude_code_transcript_and_recalls_by_session(tmp_path):
    db = tmp_path / "cli.duckdb"
    session = next(line["sessionId"] for line in map(json.loads, CLAUDE_CODE.read_text(encoding="utf-8").splitlines()[:-1])
                   if "sessionId" in line)
    imported = json.loads(_cli("import", str(CLAUDE_CODE), "--db", str(db), "--json").stdout)
    assert imported["format"] == "claude-code" and imported["imported"]["memories"] > 20
    hits = json.loads(_cli("recall", "which package manager", "--session", session, "--db", str(db), "--json").stdout)
    assert hits["count"] and {hit["session"] for hit in hits["results"]} == {session}
    none = json.loads(_cli("recall", "package manager", "--session", "no-such", "--db", str(db), "--json").stdout)
    assert none == {"results": [], "count": 0}
    wrong = _cli("import", str(CLAUDE_CODE), "--format", "turns", "--db", str(db), ok=False)
    assert wrong.returncode != 0 and "speaker: required" in wrong.stderr


def _cli(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("LEARNMEM_DB", "LEARNMEM_DEBUG")}
    proc = subprocess.run([sys.executable, "-m", "learnmem.cli", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=300, check=False)
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc
