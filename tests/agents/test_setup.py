"""`learnmem init --claude / --opencode / --uninstall` (learnmem.agents.setup.install) on real files in tmp_path.

The contract: install merges into what is there (the user's keys and hooks kept, ours never
duplicated), a second install changes nothing, a malformed file stops the run with an error naming
it and nothing written, and uninstall removes exactly what install added.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import learnmem
from learnmem.agents.setup import install as agent_setup
from learnmem.agents.setup import launcher
from learnmem.errors import LearnmemError, ValidationError

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = "/opt/learnmem/bin"
COMMANDS = {"scripts": SCRIPTS}
EVENTS = {event: slug for event, slug, _, _ in agent_setup.HOOK_EVENTS}


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)  # a repository root, as project_root finds it
    return project


def _snapshot(root: Path) -> dict[str, bytes]:
    """Every file under root (but .git) with its bytes."""
    return {path.relative_to(root).as_posix(): path.read_bytes()
            for path in sorted(root.rglob("*")) if path.is_file() and ".git" not in path.relative_to(root).parts}


def _dirs(root: Path) -> set[str]:
    return {path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_dir()}


def _json(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))


def _our_hooks(settings: dict, event: str) -> list[dict]:
    return [hook for group in settings["hooks"][event] for hook in group["hooks"]
            if hook.get("command", "").endswith(f"hook {EVENTS[event]}")]


def _front_matter(text: str) -> dict[str, str]:
    assert text.startswith("---\n"), text[:40]
    head = text[4:text.index("\n---\n")]
    pairs = {}
    for line in head.splitlines():
        if line.startswith("#"):
            continue  # a YAML comment: our generated-by line
        key, _, value = line.partition(": ")
        pairs[key] = json.loads(value) if value.startswith('"') else value
    return pairs


def _server_tools() -> set[str]:
    """The MCP tool names a client is served by default (the lean profile): what commands may name."""
    import anyio

    from mcp_adapter.server import build_server

    return {tool.name for tool in anyio.run(build_server(object()).list_tools)}


# --------------------------------------------------------------------------- install


def test_install_claude_writes_hooks_server_commands_and_section(tmp_path: Path) -> None:
    project = _project(tmp_path)
    report = agent_setup.install(project, ["claude"], **COMMANDS)
    assert report.changed and report.root == str(project) and report.targets == ("claude",)

    settings = _json(project / ".claude" / "settings.json")
    assert set(settings["hooks"]) == set(EVENTS)
    for event, slug, matcher, timeout in agent_setup.HOOK_EVENTS:
        (group,) = settings["hooks"][event]
        assert group.get("matcher") == matcher
        assert group["hooks"] == [{"type": "command", "command": f'sh "$CLAUDE_PROJECT_DIR/.claude/learnmem" hook {slug}',
                                   "timeout": timeout}]

    assert _json(project / ".mcp.json") == {"mcpServers": {"learnmem": {
        "type": "stdio", "command": "sh", "args": ["${CLAUDE_PROJECT_DIR:-.}/.claude/learnmem", "mcp"]}}}
    # The launcher both run, and where this machine's learnmem is, for it.
    assert (project / ".claude" / "learnmem").read_text() == launcher.launcher_text()
    assert (project / ".learnmem" / "scripts-path").read_text() == SCRIPTS + "\n"

    tools = _server_tools()
    assert {"store_memory", "learning", "get_context", "start_ghap"} <= tools
    for name in agent_setup.COMMAND_NAMES:
        text = (project / ".claude" / "commands" / f"{name}.md").read_text(encoding="utf-8")
        meta = _front_matter(text)
        assert meta["description"] and meta["argument-hint"]
        allowed = [tool.strip() for tool in meta["allowed-tools"].split(",")]
        assert allowed and all(tool.startswith("mcp__learnmem__") for tool in allowed)
        assert {tool.removeprefix("mcp__learnmem__") for tool in allowed} <= tools, name
        assert "memory_lifecycle" not in meta["allowed-tools"]  # deleting always asks the user
        body = text.split("\n---\n", 1)[1]
        assert "$ARGUMENTS" in body
        called = set(re.findall(r"`(\w+)\(", body))
        assert called and called <= tools, (name, called - tools)
    retro = (project / ".claude" / "commands" / "retro.md").read_text()
    for step in ('action="clusters"', 'action="members"', 'action="validate"', 'action="store_value"', "reason"):
        assert step in retro

    claude_md = (project / "CLAUDE.md").read_text()
    assert claude_md == agent_setup.section_text()
    assert claude_md.startswith(agent_setup.BEGIN_MARKER) and claude_md.endswith(agent_setup.END_MARKER + "\n")
    for part in ("goal", "hypothesis", "action", "prediction", "Fix the auth timeout bug", "Run the tests",
                 "update_ghap", "resolve_ghap", "surprise", "root_cause", "lesson"):
        assert part in claude_md
    assert not (project / "opencode.json").exists() and not (project / ".opencode").exists()


def test_install_opencode_writes_config_commands_and_agents_md(tmp_path: Path) -> None:
    project = _project(tmp_path)
    agent_setup.install(project, ["opencode"], **COMMANDS)
    assert _json(project / "opencode.json") == {
        "$schema": "https://opencode.ai/config.json",
        "mcp": {"learnmem": {"type": "local", "command": ["sh", ".opencode/learnmem", "mcp"], "enabled": True,
                             "timeout": 30000}},
    }
    assert (project / ".opencode" / "learnmem").read_text() == launcher.launcher_text()
    for name in agent_setup.COMMAND_NAMES:
        meta = _front_matter((project / ".opencode" / "commands" / f"{name}.md").read_text())
        assert set(meta) == {"description"}  # opencode's keys only: no Claude tool names
    assert (project / "AGENTS.md").read_text() == agent_setup.section_text()
    assert not (project / ".claude").exists() and not (project / "CLAUDE.md").exists()


def test_a_second_install_changes_nothing(tmp_path: Path) -> None:
    project = _project(tmp_path)
    agent_setup.install(project, ["claude", "opencode"], **COMMANDS)
    before = _snapshot(project)
    again = agent_setup.install(project, ["claude", "opencode"], **COMMANDS)
    assert not again.changed
    assert {action.action for action in again.actions} == {"unchanged"}
    assert _snapshot(project) == before
    # Another learnmem on this machine: only the personal record of where it is changes.
    third = agent_setup.install(project, ["claude"], scripts="/home/me/.local/bin")
    assert [(a.path, a.action) for a in third.actions if a.action != "unchanged"] == [
        (".learnmem/scripts-path", "updated")]
    assert {path for path, data in _snapshot(project).items() if before[path] != data} == {".learnmem/scripts-path"}


def test_install_brings_entries_of_an_earlier_version_to_the_launcher(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / ".claude").mkdir()
    old_hooks = {event: [{**({"matcher": matcher} if matcher else {}), "hooks": [
        {"type": "command", "command": f"/old/venv/bin/learnmem hook {slug}", "timeout": 99}]}]
        for event, slug, matcher, _ in agent_setup.HOOK_EVENTS}
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": old_hooks}))
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"learnmem": {
        "type": "stdio", "command": "learnmem-mcp", "args": [], "env": {"LEARNMEM_DEBUG": "1"}}}}))
    (project / "opencode.json").write_text(json.dumps({"mcp": {"learnmem": {
        "type": "local", "command": ["/old/venv/bin/learnmem-mcp"], "enabled": True}}}))

    report = agent_setup.install(project, ["claude", "opencode"], **COMMANDS)
    actions = {a.path: a for a in report.actions}
    assert actions[".claude/settings.json"].action == "updated" and "now run" in actions[".claude/settings.json"].detail
    settings = _json(project / ".claude" / "settings.json")
    for event, slug, _, _ in agent_setup.HOOK_EVENTS:
        assert _our_hooks(settings, event) == [
            {"type": "command", "command": f'sh "$CLAUDE_PROJECT_DIR/.claude/learnmem" hook {slug}', "timeout": 99}]
    assert _json(project / ".mcp.json")["mcpServers"]["learnmem"] == {
        "type": "stdio", "command": "sh", "args": ["${CLAUDE_PROJECT_DIR:-.}/.claude/learnmem", "mcp"],
        "env": {"LEARNMEM_DEBUG": "1"}}
    assert _json(project / "opencode.json")["mcp"]["learnmem"] == {
        "type": "local", "command": ["sh", ".opencode/learnmem", "mcp"], "enabled": True, "timeout": 30000}
    assert not agent_setup.install(project, ["claude", "opencode"], **COMMANDS).changed


def test_a_file_in_the_launchers_place_stops_the_run(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / ".claude").mkdir()
    (project / ".claude" / "learnmem").write_text("#!/bin/sh\necho mine\n")
    with pytest.raises(LearnmemError, match=r"\.claude/learnmem: exists and is not learnmem's launcher"):
        agent_setup.install(project, ["claude"], **COMMANDS)
    assert not (project / ".claude" / "settings.json").exists()


def test_install_merges_into_existing_files_and_uninstall_restores_them(tmp_path: Path) -> None:
    project = _project(tmp_path)
    settings = {
        "permissions": {"allow": ["Bash(ls)"], "deny": []},
        "env": {"FOO": "bar"},
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 5}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
        },
        "model": "opus",
    }
    mcp = {"mcpServers": {"github": {"command": "gh-mcp", "args": ["--x"], "env": {"T": "1"}}}}
    opencode = {"$schema": "https://opencode.ai/config.json", "theme": "dark",
                "mcp": {"jira": {"type": "remote", "url": "https://j"}}}
    (project / ".claude").mkdir()
    # Pretty-printed as we write JSON: such files come back byte for byte.
    (project / ".claude" / "settings.json").write_text(json.dumps(settings, indent=2) + "\n")
    (project / ".mcp.json").write_text(json.dumps(mcp))  # compact: its value comes back, re-indented
    (project / "opencode.json").write_text(json.dumps(opencode, indent=2) + "\n")
    (project / "CLAUDE.md").write_bytes(b"# Project rules\r\n\r\nUse ruff.")  # CRLF, no final newline
    (project / "AGENTS.md").write_text("# Agents\n")
    before = _snapshot(project)

    agent_setup.install(project, ["claude", "opencode"], **COMMANDS)
    merged = _json(project / ".claude" / "settings.json")
    assert merged["permissions"] == settings["permissions"] and merged["env"] == settings["env"]
    assert merged["model"] == "opus" and merged["hooks"]["Stop"][0] == settings["hooks"]["Stop"][0]
    assert len(_our_hooks(merged, "Stop")) == 1  # ours beside the user's
    assert merged["hooks"]["PreToolUse"][0] == settings["hooks"]["PreToolUse"][0]  # the user's hook, first still
    assert len(_our_hooks(merged, "PreToolUse")) == 1
    assert list(merged) == list(settings)  # key order kept
    servers = _json(project / ".mcp.json")["mcpServers"]
    assert servers["github"] == mcp["mcpServers"]["github"] and "learnmem" in servers
    oc = _json(project / "opencode.json")
    assert oc["theme"] == "dark" and set(oc["mcp"]) == {"jira", "learnmem"}
    claude_md = (project / "CLAUDE.md").read_bytes()
    assert claude_md.startswith(b"# Project rules\r\n\r\nUse ruff.\n\n" + agent_setup.BEGIN_MARKER.encode())
    assert (project / "AGENTS.md").read_text().startswith("# Agents\n\n" + agent_setup.BEGIN_MARKER)

    report = agent_setup.uninstall(project)
    assert report.changed and report.targets == ("claude", "opencode")
    after = _snapshot(project)
    assert _json(project / ".mcp.json") == mcp
    assert {path: data for path, data in after.items() if path != ".mcp.json"} == \
           {path: data for path, data in before.items() if path != ".mcp.json"}
    assert not (project / ".claude" / "commands").exists() and not (project / ".opencode").exists()
    assert (project / ".claude").is_dir()  # it was there before
    assert not (project / agent_setup.MANIFEST).exists()


def test_uninstall_keeps_what_the_user_added_after_install(tmp_path: Path) -> None:
    project = _project(tmp_path)
    agent_setup.install(project, ["claude"], **COMMANDS)
    path = project / ".claude" / "settings.json"
    settings = _json(path)
    mine = {"type": "command", "command": "echo start", "timeout": 3}
    settings["hooks"]["SessionStart"].append({"matcher": "startup", "hooks": [mine]})
    settings["hooks"]["SessionEnd"][0]["hooks"].append({"type": "command", "command": "echo bye"})  # in our group
    settings["permissions"] = {"allow": ["Read"]}
    path.write_text(json.dumps(settings, indent=2))
    with (project / "CLAUDE.md").open("a") as handle:
        handle.write("\n## Mine\nKeep this.\n")
    (project / ".claude" / "commands" / "mine.md").write_text("my own command\n")

    agent_setup.uninstall(project, ["claude"])
    left = _json(path)
    assert left == {"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [mine]}],
                              "SessionEnd": [{"hooks": [{"type": "command", "command": "echo bye"}]}]},
                    "permissions": {"allow": ["Read"]}}
    assert (project / "CLAUDE.md").read_text() == "\n## Mine\nKeep this.\n"
    assert sorted(p.name for p in (project / ".claude" / "commands").iterdir()) == ["mine.md"]
    assert not (project / ".mcp.json").exists()


def test_edited_and_foreign_command_files_are_kept(tmp_path: Path) -> None:
    project = _project(tmp_path)
    commands = project / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "recall.md").write_text("---\ndescription: my recall\n---\nMine.\n")  # the user's own /recall
    agent_setup.install(project, ["claude"], **COMMANDS)
    assert (commands / "recall.md").read_text() == "---\ndescription: my recall\n---\nMine.\n"
    retro = commands / "retro.md"
    edited = retro.read_text().replace("at most 5 per axis", "at most 8 per axis")
    retro.write_text(edited)

    report = agent_setup.install(project, ["claude"], **COMMANDS)
    kept = {action.path: action.detail for action in report.actions if action.action == "kept"}
    assert set(kept) == {".claude/commands/recall.md", ".claude/commands/retro.md"}
    assert "edited" in kept[".claude/commands/retro.md"]
    assert "not written by learnmem" in kept[".claude/commands/recall.md"]
    assert retro.read_text() == edited and not report.changed

    report = agent_setup.uninstall(project, ["claude"])
    assert retro.read_text() == edited and (commands / "recall.md").exists()
    assert any(a.path == ".claude/commands/retro.md" and a.action == "kept" for a in report.actions)
    assert sorted(p.name for p in commands.iterdir()) == ["recall.md", "retro.md"]


def test_an_older_generated_command_file_is_updated_and_a_crlf_checkout_is_not_an_edit(tmp_path: Path) -> None:
    project = _project(tmp_path)
    agent_setup.install(project, ["claude"], **COMMANDS)
    path = project / ".claude" / "commands" / "recall.md"
    # What an older learnmem would have written: different text, consistent hash line.
    older = agent_setup._with_generated_line("---\ndescription: \"old\"\n---\n\nOld text.\n")
    path.write_text(older)
    report = agent_setup.install(project, ["claude"], **COMMANDS)
    assert ("updated", ".claude/commands/recall.md") in {(a.action, a.path) for a in report.actions}
    assert path.read_text() == agent_setup.render_command("claude", "recall")
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    agent_setup.uninstall(project, ["claude"])
    assert not path.exists()


def test_the_section_is_replaced_between_its_markers_only(tmp_path: Path) -> None:
    project = _project(tmp_path)
    old = f"{agent_setup.BEGIN_MARKER} old -->\nold advice\n{agent_setup.END_MARKER}\n"
    (project / "CLAUDE.md").write_text("# Top\n\n" + old + "\n# Bottom\n")
    report = agent_setup.install(project, ["claude"], **COMMANDS)
    assert ("updated", "CLAUDE.md") in {(a.action, a.path) for a in report.actions}
    assert (project / "CLAUDE.md").read_text() == "# Top\n\n" + agent_setup.section_text() + "\n# Bottom\n"
    agent_setup.uninstall(project, ["claude"])
    assert (project / "CLAUDE.md").read_text() == "# Top\n\n\n# Bottom\n"


def test_uninstall_without_the_record_removes_what_became_empty(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "CLAUDE.md").write_text("# Rules\n")
    agent_setup.install(project, ["claude", "opencode"], **COMMANDS)
    (project / agent_setup.MANIFEST).unlink()  # another clone: the .learnmem/ record is not shared
    agent_setup.uninstall(project)
    assert _snapshot(project) == {"CLAUDE.md": b"# Rules\n"}
    assert _dirs(project) <= {".git", ".learnmem"}


def test_uninstall_with_nothing_installed_changes_nothing(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text('{"hooks": {}, "x": 1}')
    (project / ".mcp.json").write_text('{"mcpServers": {"learnmem": {"command": "something-else"}}}')
    before = _snapshot(project)
    report = agent_setup.uninstall(project)
    assert not report.changed and _snapshot(project) == before


def test_a_foreign_server_named_learnmem_is_left_alone(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / ".mcp.json").write_text('{"mcpServers": {"learnmem": {"command": "node", "args": ["x.js"]}}}')
    before = (project / ".mcp.json").read_bytes()
    report = agent_setup.install(project, ["claude"], **COMMANDS)
    (kept,) = [a for a in report.actions if a.path == ".mcp.json"]
    assert kept.action == "kept" and "does not run learnmem-mcp" in kept.detail
    assert (project / ".mcp.json").read_bytes() == before


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    project = _project(tmp_path)
    report = agent_setup.install(project, ["claude", "opencode"], dry_run=True, **COMMANDS)
    assert report.dry_run and report.changed
    assert {a.action for a in report.actions} == {"created"}
    assert _snapshot(project) == {} and "would create" in agent_setup.format_report(report)
    agent_setup.install(project, ["claude"], **COMMANDS)
    before = _snapshot(project)
    report = agent_setup.uninstall(project, dry_run=True)
    assert report.changed and _snapshot(project) == before


@pytest.mark.parametrize(
    ("content", "fragments"),
    [
        ('{"hooks": {"PreToolUse": [}', (".claude/settings.json", "not valid JSON", "line 1")),
        ('["not", "an", "object"]', (".claude/settings.json", "JSON object", "a list")),
        ('{"hooks": []}', (".claude/settings.json", '"hooks"', "a list")),
        ('{"hooks": {"SessionStart": {"x": 1}}}', (".claude/settings.json", "hooks.SessionStart", "an object")),
    ],
)
def test_a_malformed_settings_file_is_named_and_nothing_is_written(tmp_path: Path, content: str,
                                                                 fragments: tuple[str, ...]) -> None:
    project = _project(tmp_path)
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(content)
    with pytest.raises(LearnmemError) as caught:
        agent_setup.install(project, ["claude", "opencode"], **COMMANDS)
    for fragment in fragments:
        assert fragment in str(caught.value)
    assert _snapshot(project) == {".claude/settings.json": content.encode()}


def test_opencode_jsonc_with_comments_is_not_rewritten(tmp_path: Path) -> None:
    project = _project(tmp_path)
    jsonc = '{\n  // my theme\n  "theme": "dark",\n}\n'
    (project / "opencode.jsonc").write_text(jsonc)
    with pytest.raises(LearnmemError, match=r"opencode\.jsonc: has comments.*by hand"):
        agent_setup.install(project, ["opencode"], **COMMANDS)
    assert _snapshot(project) == {"opencode.jsonc": jsonc.encode()}
    (project / "opencode.jsonc").write_text('{"theme": "dark"}')  # plain JSON: edited in place
    agent_setup.install(project, ["opencode"], **COMMANDS)
    assert "learnmem" in _json(project / "opencode.jsonc")["mcp"] and not (project / "opencode.json").exists()
    agent_setup.uninstall(project, ["opencode"])
    assert _json(project / "opencode.jsonc") == {"theme": "dark"}


def test_unknown_targets_and_commands_are_validation_errors(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="target: 'cursor' is not one of: claude, opencode"):
        agent_setup.install(tmp_path, ["cursor"])
    with pytest.raises(ValidationError, match="command: 'nope' is not one of: retro"):
        agent_setup.render_command("claude", "nope")


def test_templates_are_package_data() -> None:
    from importlib import resources

    folder = resources.files("learnmem.agents").joinpath("agent_files")
    names = {entry.name for entry in folder.joinpath("commands").iterdir()}
    assert names == {f"{name}.md" for name in agent_setup.COMMAND_NAMES}
    assert set(json.loads(folder.joinpath("commands.json").read_text())) == set(agent_setup.COMMAND_NAMES)
    # Shipped in the wheel: hatch packages every file under learnmem/ that git does not ignore.
    ignored = subprocess.run(["git", "check-ignore", "-q", "learnmem/agent_files/commands/retro.md"],
                             cwd=ROOT, capture_output=True, check=False)
    assert ignored.returncode == 1, "learnmem/agent_files is git-ignored, so the wheel would leave it out"


# --------------------------------------------------------------------------- round trip (hypothesis)

_json_leaf = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=5)
_json_value = st.recursive(_json_leaf, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)
_user_hook = st.fixed_dictionaries({"type": st.just("command"),
                                    "command": st.sampled_from(["echo a", "./x.sh", "learnmem info"])},
                                   optional={"timeout": st.integers(1, 60)})
_user_group = st.fixed_dictionaries({"hooks": st.lists(_user_hook, max_size=2)},
                                    optional={"matcher": st.sampled_from(["", "*", "Bash", "Edit|Write"])})
_user_hooks = st.dictionaries(st.sampled_from([*EVENTS, "Stop", "Notification"]), st.lists(_user_group, max_size=2),
                              max_size=4)
_settings = st.dictionaries(st.text(max_size=6).filter(lambda key: key != "hooks"), _json_value, max_size=4).flatmap(
    lambda base: st.one_of(st.just(base), _user_hooks.map(lambda hooks: {**base, "hooks": hooks})))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(settings_value=_settings, claude_md=st.none() | st.text(max_size=30), keep_record=st.booleans())
def test_install_then_uninstall_round_trips(settings_value: dict, claude_md: str | None, keep_record: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        (project / ".git").mkdir()
        (project / ".claude").mkdir()
        text = json.dumps(settings_value, indent=2, ensure_ascii=False) + "\n"
        (project / ".claude" / "settings.json").write_text(text)
        if claude_md is not None:
            (project / "CLAUDE.md").write_bytes(claude_md.encode("utf-8"))
        before = _snapshot(project)
        agent_setup.install(project, ["claude"], **COMMANDS)
        assert not agent_setup.install(project, ["claude"], **COMMANDS).changed
        if not keep_record:
            (project / agent_setup.MANIFEST).unlink()
        agent_setup.uninstall(project, ["claude"])
        after = _snapshot(project)
        if keep_record:
            assert after == before
            return
        # Without the record, a container (or file) the user left empty cannot be told from ours: it goes.
        # And the blank line put before the section is taken to be one "\n" (right for files ending in one).
        if claude_md is None or claude_md == "":
            assert "CLAUDE.md" not in after
        else:
            assert after["CLAUDE.md"] == (claude_md if claude_md.endswith("\n") else claude_md + "\n").encode()
        settings_rel = ".claude/settings.json"
        expected = _without_empty_containers(settings_value)
        if expected:
            assert json.loads(after[settings_rel]) == expected
        else:
            assert settings_rel not in after


def _without_empty_containers(value: dict) -> dict:
    value = json.loads(json.dumps(value))
    hooks = value.get("hooks")
    if isinstance(hooks, dict):
        for event in EVENTS:
            if hooks.get(event) == []:
                del hooks[event]
        if not hooks:
            del value["hooks"]
    return value


# --------------------------------------------------------------------------- the real command


def _cli(*args: str, cwd: Path, index: bool = False) -> subprocess.CompletedProcess[str]:
    """`learnmem ARGS`; an init without its background index unless `index` (its own test below)."""
    if args[:1] == ("init",) and not index:
        args = (*args, "--no-index")
    env = {key: value for key, value in os.environ.items() if key not in ("LEARNMEM_DB", "LEARNMEM_DEBUG")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "learnmem.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120, check=False)


def test_the_cli_installs_twice_then_uninstalls(tmp_path: Path) -> None:
    project = _project(tmp_path)
    first = _cli("init", "--claude", "--json", cwd=project)
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert Path(data["path"]).exists() and data["changed"] and not data["database_existed"]
    assert ".learnmem/" in (project / ".gitignore").read_text()
    hook = _our_hooks(_json(project / ".claude" / "settings.json"), "SessionStart")[0]["command"]
    assert hook == 'sh "$CLAUDE_PROJECT_DIR/.claude/learnmem" hook session-start'
    assert Path((project / ".learnmem" / "scripts-path").read_text().strip()) == Path(sys.executable).parent

    second = _cli("init", "--claude", "--json", cwd=project)
    assert second.returncode == 0 and not json.loads(second.stdout)["changed"]
    human = _cli("init", "--claude", cwd=project)
    assert human.returncode == 0 and "unchanged" in human.stdout and "created" not in human.stdout

    gone = _cli("init", "--uninstall", cwd=project)
    assert gone.returncode == 0, gone.stderr
    assert "removed" in gone.stdout and ".claude/settings.json" in gone.stdout
    assert Path(data["path"]).exists()  # the database stays
    assert not (project / ".claude").exists() and not (project / "CLAUDE.md").exists()
    assert not (project / ".mcp.json").exists()


def test_the_cli_names_a_malformed_file_in_one_line(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text("{oops")
    proc = _cli("init", "--claude", cwd=project)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("learnmem: error: .claude/settings.json: not valid JSON")
    assert (project / ".claude" / "settings.json").read_text() == "{oops"
    assert not (project / ".mcp.json").exists() and not (project / "CLAUDE.md").exists()
    assert not (project / ".learnmem").exists() and not (project / ".gitignore").exists()  # not even the database


def test_uninstall_does_not_load_duckdb(tmp_path: Path) -> None:
    project = _project(tmp_path)
    agent_setup.install(project, ["claude"], **COMMANDS)
    code = ("import sys; from learnmem.cli import main; "
            f"main(['init', '--uninstall', '--dir', {str(project)!r}]); "
            "print('duckdb' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "False"
    assert not (project / ".claude").exists()


def test_approve_records_the_servers_approval_in_the_personal_settings(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / ".gitignore").write_text("build/\n")
    agent_setup.install(project, ["claude"], approve=True, **COMMANDS)
    assert _json(project / ".claude" / "settings.local.json") == {"enabledMcpjsonServers": ["learnmem"]}
    assert (project / ".gitignore").read_text() == "build/\n.claude/settings.local.json\n"  # personal: not committed
    assert not agent_setup.install(project, ["claude"], approve=True, **COMMANDS).changed
    agent_setup.uninstall(project, ["claude"])
    assert not (project / ".claude").exists()
    # The user's own local settings keep everything but learnmem's approval.
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text(json.dumps({"enabledMcpjsonServers": ["jira"]}))
    agent_setup.install(project, ["claude"], approve=True, **COMMANDS)
    assert _json(project / ".claude" / "settings.local.json") == {"enabledMcpjsonServers": ["jira", "learnmem"]}
    agent_setup.uninstall(project, ["claude"])
    assert _json(project / ".claude" / "settings.local.json") == {"enabledMcpjsonServers": ["jira"]}


def test_the_cli_lists_every_change_and_says_what_comes_next_for_each_agent(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / ".gitignore").write_text("build/\n")
    dry = json.loads(_cli("init", "--claude", "--dry-run", "--json", cwd=project).stdout)
    assert {"path": ".gitignore", "action": "updated",
            "detail": "ignores .learnmem/ (the memory file and this machine's records)"} in dry["actions"]
    assert (project / ".gitignore").read_text() == "build/\n" and not (project / ".learnmem").exists()

    claude = _cli("init", "--claude", cwd=project)
    assert claude.returncode == 0 and claude.stdout.startswith("Initialised ")
    assert "Restart Claude Code" in claude.stdout and "--approve" in claude.stdout and "hooks" in claude.stdout
    assert "learnmem doctor" in claude.stdout

    opencode = _cli("init", "--opencode", cwd=project)
    assert "Restart opencode to load the MCP server and the commands (opencode has no hooks)" in opencode.stdout
    assert "Claude Code" not in opencode.stdout

    again = _cli("init", "--claude", "--opencode", cwd=project)
    assert again.stdout.startswith("Already set up: ") and "Restart" not in again.stdout
    assert json.loads(_cli("init", "--claude", "--json", cwd=project).stdout)["changed"] is False
    refused = _cli("init", "--approve", cwd=project)
    assert refused.returncode == 2 and "--approve approves the Claude Code server" in refused.stderr


def _wait_for_indexing(folder: Path, limit_s: float = 300) -> None:
    deadline = time.monotonic() + limit_s
    while (folder / "index.pid").exists():
        assert time.monotonic() < deadline, "the background indexing never ended"
        time.sleep(0.2)


def test_init_with_an_agent_indexes_the_code_and_the_history_in_the_background(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    git = ["git", "-C", str(project), "-c", "user.name=Ana", "-c", "user.email=ana@example.com"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    (project / "billing.py").write_text("def reconcile_ledger(entries):\n    return sum_by_account(entries)\n\n\n"
                                        "def sum_by_account(entries):\n    return {}\n", encoding="utf-8")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "Reconcile the ledger per account"], check=True)

    started = json.loads(_cli("init", "--claude", "--json", cwd=project, index=True).stdout)
    folder = project / ".learnmem"
    assert started["indexing"]["log"] == str(folder / "index.log") and started["indexing"]["already_running"] is False
    again = _cli("init", "--claude", cwd=project, index=True)  # at once: the first one is still at it
    assert "Already set up" in again.stdout
    assert "Indexing the code and the git history in the background" in again.stdout
    _wait_for_indexing(folder)
    log = (folder / "index.log").read_text(encoding="utf-8")
    assert log.count("learnmem: indexing done") in (1, 2), log
    lm = learnmem.open(folder / "learnmem.duckdb")
    assert [hit.name for hit in lm.search_code("reconcile the ledger", limit=1)] == ["reconcile_ledger"]
    assert [hit.message for hit in lm.search_commits("reconcile the ledger", limit=5)] == [
        "Reconcile the ledger per account"]

    quiet = _cli("init", "--claude", "--no-index", "--json", cwd=project)
    assert json.loads(quiet.stdout)["indexing"] is None and not (folder / "index.pid").exists()
    dry = json.loads(_cli("init", "--claude", "--dry-run", "--json", cwd=project, index=True).stdout)
    assert dry["indexing"] is None
