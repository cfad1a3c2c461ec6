"""`learnmem doctor` (learnmem.agents.doctor): healthy after `init`, and each fault it is shown, named.

The real command on real projects: the hooks, the launcher and the servers it runs are the real ones.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

VENV_BIN = Path(sys.executable).parent
TIMEOUT_S = 300


def _learnmem(project: Path, *args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "LEARNMEM_DB"}
    env["HOME"] = str(home)  # Claude Code's own settings (~/.claude.json) stay out of it
    if "LEARNMEM_CACHE_DIR" not in env:
        from learnmem.embedding.embed import models_cache_dir

        env["LEARNMEM_CACHE_DIR"] = str(models_cache_dir().parent)
    if args[:1] == ("init",):
        args = (*args, "--no-index")  # the projects hold no code; the background index is tested in test_setup.py
    return subprocess.run([str(VENV_BIN / "learnmem"), *args], cwd=project, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT_S)


def _doctor(project: Path, home: Path) -> tuple[int, dict[str, dict[str, str]]]:
    done = _learnmem(project, "doctor", "--json", home=home)
    report = json.loads(done.stdout)
    assert report["healthy"] == (done.returncode == 0), done.stderr
    return done.returncode, {check["name"]: check for check in report["checks"]}


@pytest.fixture
def project(git_project: Path) -> Path:
    return git_project


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def test_a_set_up_made_by_init_is_healthy(project: Path, home: Path) -> None:
    assert _learnmem(project, "init", "--claude", "--opencode", "--approve", home=home).returncode == 0
    code, checks = _doctor(project, home)
    assert code == 0, checks
    assert {name for name, check in checks.items() if check["status"] != "ok"} == set()
    for name in ("file", "model", "launcher .claude/learnmem", "launcher .opencode/learnmem", "hook SessionStart",
                 "hook PreToolUse", "hook SessionEnd", "MCP server (.mcp.json)", "MCP server (opencode.json)",
                 "Claude Code approval"):
        assert name in checks
    assert "lists 14 tools" in checks["MCP server (.mcp.json)"]["detail"]
    human = _learnmem(project, "doctor", home=home)
    assert human.returncode == 0 and human.stdout.rstrip().endswith("Healthy.")


def test_an_unapproved_server_is_named_with_how_to_approve_it(project: Path, home: Path) -> None:
    assert _learnmem(project, "init", "--claude", home=home).returncode == 0
    code, checks = _doctor(project, home)
    approval = checks["Claude Code approval"]
    assert code == 0 and approval["status"] == "todo" and "--approve" in approval["fix"]
    (home / ".claude.json").write_text(json.dumps({"projects": {str(project): {
        "disabledMcpjsonServers": ["learnmem"]}}}))  # turned down in Claude Code's own record
    code, checks = _doctor(project, home)
    assert code == 1 and checks["Claude Code approval"]["status"] == "fault"
    assert "turned down" in checks["Claude Code approval"]["detail"]


def test_a_launcher_that_finds_no_learnmem_is_a_fault(project: Path, home: Path) -> None:
    assert _learnmem(project, "init", "--claude", home=home).returncode == 0
    (project / ".learnmem" / "scripts-path").unlink()  # as in a clone where init never ran
    code, checks = _doctor(project, home)
    launcher = checks["launcher .claude/learnmem"]
    assert code == 1 and launcher["status"] == "fault" and "finds no learnmem" in launcher["detail"]
    assert "learnmem init --claude" in launcher["fix"]


def test_a_hook_command_that_does_not_resolve_is_a_fault(project: Path, home: Path) -> None:
    assert _learnmem(project, "init", "--claude", home=home).returncode == 0
    settings_path = project / ".claude" / "settings.json"
    settings = json.loads(settings_path.read_text())
    settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"] = "/nowhere/bin/learnmem hook pre-tool-use"
    settings_path.write_text(json.dumps(settings))
    code, checks = _doctor(project, home)
    hook = checks["hook PreToolUse"]
    assert code == 1 and hook["status"] == "fault" and "exit 127" in hook["detail"]
    assert checks["hook PostToolUse"]["status"] == "ok"


def test_a_server_that_does_not_start_is_a_fault(project: Path, home: Path) -> None:
    assert _learnmem(project, "init", "--claude", home=home).returncode == 0
    mcp_path = project / ".mcp.json"
    config = json.loads(mcp_path.read_text())
    config["mcpServers"]["learnmem"]["args"].append("--no-such-flag")
    mcp_path.write_text(json.dumps(config))
    code, checks = _doctor(project, home)
    server = checks["MCP server (.mcp.json)"]
    assert code == 1 and server["status"] == "fault" and "--no-such-flag" in server["detail"]


def test_doctor_changes_nothing_in_the_projects_file(project: Path, home: Path) -> None:
    assert _learnmem(project, "init", "--claude", home=home).returncode == 0
    assert _learnmem(project, "remember", "Deploys go out on Tuesdays", "--category", "fact", home=home).returncode == 0
    before = _learnmem(project, "sql", "SELECT count(*) FROM sessions", "--json", home=home).stdout
    _doctor(project, home)
    assert _learnmem(project, "sql", "SELECT count(*) FROM sessions", "--json", home=home).stdout == before
