"""The soak's worker processes: `python -m bench.soak.workers <role> --project P --db F --until T --out D`.

Each role loops until the wall-clock time T (epoch seconds) and appends one JSON line per operation to
`D/ops-<name>.jsonl` (kind, op, t, seconds, ok, error and what else the role knows). The roles:

- `mcp`: starts `learnmem-mcp --db F` over stdio (the MCP SDK's stdio_client/ClientSession, as a client
  does) and drives it like an agent: store/retrieve/list memories, search code, callers, context,
  premortem, experiences, info, and GHAP cycles (start -> update -> resolve). A call is one operation; it
  failed when it raised, timed out (120 s) or answered an error object.
- `hooks`: one agent's Claude Code hooks: for each tool call, a fresh `learnmem hook pre-tool-use` process,
  the tool's own time, then `learnmem hook post-tool-use` (or `post-tool-use-failure` for a failing test
  run), each with the event's JSON on stdin, cwd the project. A process is one operation; it failed when it
  exited non-zero, wrote to stderr, ran past Claude Code's 10 s hook timeout, or logged to hooks.log
  (checked afterwards by pid, see bench.soak.run).
- `indexer`: mutates the tree under `<project>/src` (edits a module, adds, renames or deletes a file), then
  `index_codebase` on it; every fourth run also commits (git CLI) and runs `index_commits`.
- `reader`: a notebook: `learnmem.open(F, read_only=True)`, then in turn `lm.snapshot()` (the whole file
  copied into memory), `lm.sql(...)` copies of a few tables, and a plain `duckdb.connect(F, read_only=True)`
  that copies the same tables out and closes at once. That last open takes no learnmem lock and DuckDB
  refuses it while a writer holds the file: it is retried like the library retries (5 -> 200 ms, 10 s), and
  the refusals are counted, not failed.

The child processes of `mcp` and `hooks` (and these processes themselves) carry the probe
(bench/soak/probe/sitecustomize.py) when bench.soak.run sets SOAK_PROBE_DIR and PYTHONPATH.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent
LEARNMEM = BIN / "learnmem"
LEARNMEM_MCP = BIN / "learnmem-mcp"
HOOK_TIMEOUT_S = 10.0  # Claude Code's timeout for PreToolUse/PostToolUse in the README's settings
MCP_CALL_TIMEOUT_S = 120.0
RAW_DEADLINE_S = 10.0  # the library's own deadline for DuckDB's lock error
TABLES = ("memories", "ghap_entries", "ghap_observations", "sessions", "code_files", "code_units", "commits")

# Agent-like rates, faster than a real agent (which makes a tool call every few seconds).
MCP_PAUSE_S = (0.2, 1.0)  # between two MCP calls
HOOK_TOOL_S = (0.1, 0.6)  # the tool's own run time, between PreToolUse and PostToolUse
HOOK_PAUSE_S = (0.3, 1.2)  # the agent thinking, between a PostToolUse and the next PreToolUse
INDEX_PAUSE_S = (1.0, 3.0)  # between two index runs
READ_PAUSE_S = (1.0, 3.0)  # between two notebook reads

TOPICS = (
    ("the HTTP client's retry backoff", "retries"), ("timezone handling of invoice due dates", "billing"),
    ("the settings loader's cache invalidation", "config"), ("the CSV exporter's quoting of newlines", "export"),
    ("flaky login redirect tests", "auth"), ("the migration that renames the orders table", "db"),
    ("connection pool exhaustion under load", "db"), ("the rate limiter's token bucket refill", "api"),
    ("rounding of amounts to whole cents", "billing"), ("logging of request ids across threads", "logging"),
    ("the search index rebuild after a schema change", "search"), ("path handling on Windows runners", "ci"),
)


class Recorder:
    """Appends one JSON line per operation to the role's ops file."""

    def __init__(self, out: Path, name: str, kind: str):
        self.path = out / f"ops-{name}.jsonl"
        self.kind = kind
        self.handle = self.path.open("a", encoding="utf-8")

    def add(self, op: str, started_wall: float, seconds: float, ok: bool, error: str | None = None,
            **extra: Any) -> None:
        row = {"kind": self.kind, "op": op, "t": started_wall, "seconds": seconds, "ok": ok, **extra}
        if error is not None:
            row["error"] = error[:2000]
        self.handle.write(json.dumps(row, default=str) + "\n")
        self.handle.flush()


def _pause(bounds: tuple[float, float], until: float) -> None:
    time.sleep(max(0.0, min(random.uniform(*bounds), until - time.time())))


# -- mcp --------------------------------------------------------------------------------------------------


class ScriptedAgent:
    """The next MCP call of an agent at work, with realistic arguments."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.active = False
        self.iterations = 0
        self.stored = 0
        self.names = ["parse_line", "load_settings", "retry_call", "format_amount", "render_invoice", "Store"]

    def topic(self) -> tuple[str, str]:
        return self.rng.choice(TOPICS)

    def next_call(self) -> tuple[str, dict]:
        rng = self.rng
        subject, tag = self.topic()
        roll = rng.random()
        if roll < 0.16:
            self.stored += 1
            category = rng.choice(("fact", "decision", "preference", "convention", "correction"))
            content = (f"Soak note {self.stored} ({os.getpid()}-{rng.randrange(10**6)}): about {subject}, "
                       f"we {rng.choice(('decided to', 'found that we must', 'prefer to'))} "
                       f"{rng.choice(('keep it behind a flag', 'test it with a fixed clock', 'log the inputs', 'retry twice then fail', 'document the limits'))}.")
            return "store_memory", {"content": content, "category": category,
                                    "importance": round(rng.uniform(0.2, 0.9), 2), "tags": [tag, "soak"]}
        if roll < 0.34:
            return "retrieve_memories", {"query": f"what did we decide about {subject}?", "limit": 5}
        if roll < 0.40:
            return "list_memories", {"limit": 20}
        if roll < 0.52:
            return "search_code", {"query": rng.choice(("parse a line of the config file", "retry with backoff",
                                                        "format an amount of money", "render an invoice",
                                                        "load the settings")), "project": "soak", "limit": 5}
        if roll < 0.56:
            return "find_callers", {"function_name": rng.choice(self.names), "project": "soak"}
        if roll < 0.62:
            if rng.random() < 0.5:
                return "get_context", {"depth": "light", "max_tokens": 800}
            return "get_context", {"depth": "rich", "situation": f"the tests about {subject} fail again",
                                   "max_tokens": 800}
        if roll < 0.65:
            return "get_premortem", {"domain": "debugging", "strategy": "read-the-error",
                                     "situation": f"{subject} broke"}
        if roll < 0.68:
            return "search_experiences", {"query": subject, "axis": "full", "limit": 5}
        if roll < 0.71:
            return "info", {}
        if roll < 0.74:
            return "get_active_ghap", {}
        return self.ghap_step(subject)

    def ghap_step(self, subject: str) -> tuple[str, dict]:
        rng = self.rng
        if not self.active:
            return "start_ghap", {
                "domain": rng.choice(("debugging", "testing", "refactoring", "feature")),
                "strategy": rng.choice(("read-the-error", "systematic-elimination", "divide-and-conquer")),
                "goal": f"Fix {subject}", "hypothesis": f"The bug in {subject} comes from a stale default",
                "action": "Change the default and run the tests", "prediction": "The test suite passes"}
        if self.iterations < 2 and rng.random() < 0.6:
            return "update_ghap", {"hypothesis": f"The bug in {subject} is an ordering problem (take {self.iterations + 2})",
                                   "action": "Sort the inputs first", "prediction": "The failing test passes",
                                   "note": "the first idea did not hold"}
        if rng.random() < 0.5:
            return "resolve_ghap", {"status": "confirmed", "result": f"Fixed {subject}; the tests pass"}
        return "resolve_ghap", {"status": "falsified", "result": f"{subject} still failed after the change",
                                "surprise": "The failure came from the fixture, not the code",
                                "root_cause": {"category": "wrong-assumption",
                                               "description": "Assumed the default was stale; the fixture was"},
                                "lesson": {"what_worked": "Reading the fixture first",
                                           "takeaway": "Check fixtures before code"}}

    def done(self, tool: str, ok: bool) -> None:
        if not ok:
            return
        if tool == "start_ghap":
            self.active, self.iterations = True, 0
        elif tool == "update_ghap":
            self.iterations += 1
        elif tool == "resolve_ghap":
            self.active = False


def child_env(kind: str) -> dict[str, str]:
    """This process's environment for a learnmem child: its kind for the probe; no LEARNMEM_* overrides."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LEARNMEM_DB", "LEARNMEM_CHECKIN_EVERY", "CLAUDE_PROJECT_DIR", "LEARNMEM_DEBUG")}
    env["SOAK_KIND"] = kind
    return env


def run_mcp(args: argparse.Namespace) -> None:
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    rec = Recorder(Path(args.out), args.name, "mcp")
    agent = ScriptedAgent(random.Random(args.seed))
    params = StdioServerParameters(command=str(LEARNMEM_MCP), args=["--db", args.db], env=child_env("mcp"),
                                   cwd=args.project)

    errlog = open(Path(args.out) / "mcp-server.stderr", "w")  # noqa: SIM115 - closed after the loop

    async def main() -> None:
        with errlog:
            started = time.time()
            clock = time.perf_counter()
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                with anyio.fail_after(MCP_CALL_TIMEOUT_S):
                    await session.initialize()
                rec.add("initialize", started, time.perf_counter() - clock, True)
                while time.time() < args.until:
                    tool, arguments = agent.next_call()
                    started, clock = time.time(), time.perf_counter()
                    ok, error, extra = True, None, {}
                    try:
                        with anyio.fail_after(MCP_CALL_TIMEOUT_S):
                            result = await session.call_tool(tool, arguments)
                        texts = [block.text for block in result.content if getattr(block, "type", None) == "text"]
                        payload = json.loads(texts[0]) if texts else {}
                        if result.is_error or (isinstance(payload, dict) and "error" in payload):
                            ok, error = False, json.dumps(payload)[:2000]
                        elif tool == "store_memory":
                            extra = {"memory_id": payload.get("id"), "duplicate": payload.get("duplicate")}
                        elif tool == "start_ghap":
                            extra = {"ghap_id": payload.get("id")}
                    except Exception as exc:  # noqa: BLE001 - every failure is a finding
                        ok, error = False, f"{type(exc).__name__}: {exc}"
                    rec.add(tool, started, time.perf_counter() - clock, ok, error, **extra)
                    agent.done(tool, ok)
                    await anyio.sleep(max(0.0, min(random.uniform(*MCP_PAUSE_S), args.until - time.time())))
                started, clock = time.time(), time.perf_counter()
            # The client closed the server's stdin: the server writes the memory accesses it counted and exits
            # (its probe then writes an exit record); the SDK kills it if it has not exited after 2 s.
            rec.add("shutdown", started, time.perf_counter() - clock, True)

    anyio.run(main)


# -- hooks ------------------------------------------------------------------------------------------------


def hook_call(rng: random.Random, n: int) -> tuple[dict, str, dict]:
    """One tool call of an agent: (tool fields, the post event, its result fields)."""
    roll = rng.random()
    if roll < 0.30:
        tool = {"tool_name": "Read", "tool_input": {"file_path": f"src/pkg/mod{rng.randrange(8)}.py"}}
        return tool, "post-tool-use", {"tool_response": {"type": "text", "file": {"content": "..."}}}
    if roll < 0.45:
        tool = {"tool_name": "Grep", "tool_input": {"pattern": "def retry", "path": "src"}}
        return tool, "post-tool-use", {"tool_response": {"filenames": ["src/pkg/mod1.py"], "numFiles": 1}}
    if roll < 0.60:
        tool = {"tool_name": "Edit", "tool_input": {"file_path": "src/pkg/mod2.py", "old_string": "a",
                                                    "new_string": "b"}}
        return tool, "post-tool-use", {"tool_response": {"filePath": "src/pkg/mod2.py"}}
    if roll < 0.75:
        command = rng.choice(("git status", "ls src/pkg", "git diff --stat"))
        tool = {"tool_name": "Bash", "tool_input": {"command": command, "description": "look"}}
        return tool, "post-tool-use", {"tool_response": {"stdout": "ok", "stderr": "", "interrupted": False}}
    command = rng.choice(("python -m pytest -q tests", "pytest -x tests/test_pkg.py", "make test"))
    tool = {"tool_name": "Bash", "tool_input": {"command": command, "description": "run the tests"}}
    if rng.random() < 0.5:
        return tool, "post-tool-use", {"tool_response": {"stdout": f"....\n{4 + n % 3} passed in 0.41s\n",
                                                         "stderr": "", "interrupted": False}}
    return tool, "post-tool-use-failure", {
        "error": "Exit code 1\n..F.\nFAILED tests/test_pkg.py::test_parse - AssertionError\n1 failed, 3 passed in 0.52s",
        "is_interrupt": False}


def fire_hook(rec: Recorder, project: str, env: dict, event: str, payload: dict) -> None:
    data = json.dumps(payload)
    started, clock = time.time(), time.perf_counter()
    process = subprocess.Popen([str(LEARNMEM), "hook", event], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=project, env=env)
    ok, error = True, None
    try:
        out, err = process.communicate(data, timeout=HOOK_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        ok, error = False, f"ran past Claude Code's {HOOK_TIMEOUT_S:.0f} s hook timeout"
    seconds = time.perf_counter() - clock
    if ok and (process.returncode != 0 or err.strip()):
        ok, error = False, f"exit {process.returncode}: {err.strip()}"
    rec.add(event, started, seconds, ok, error, pid=process.pid, printed=bool(out.strip()),
            recorded="learnmem recorded this" in out, tool=payload.get("tool_name"))


def run_hooks(args: argparse.Namespace) -> None:
    rec = Recorder(Path(args.out), args.name, args.name)
    rng = random.Random(args.seed)
    env = child_env(args.name)
    session = f"soak-{args.name}"
    n = 0
    while time.time() < args.until:
        n += 1
        tool, post_event, result = hook_call(rng, n)
        base = {"session_id": session, "transcript_path": "/dev/null", "cwd": args.project,
                "tool_use_id": f"toolu_{args.name}_{n}", **tool}
        fire_hook(rec, args.project, env, "pre-tool-use", {**base, "hook_event_name": "PreToolUse"})
        _pause(HOOK_TOOL_S, args.until + 5)  # the tool runs; its PostToolUse follows even past the end
        name = "PostToolUseFailure" if post_event == "post-tool-use-failure" else "PostToolUse"
        fire_hook(rec, args.project, env, post_event, {**base, **result, "hook_event_name": name})
        _pause(HOOK_PAUSE_S, args.until)


# -- indexer ----------------------------------------------------------------------------------------------


def module_source(index: int, version: int) -> str:
    """A small module of the tree; `version` changes its bodies (and so its units' embeddings)."""
    return f'''"""Module {index} of the soak project (version {version})."""

from pkg import mod{(index + 1) % 8} as neighbour


def parse_line(text):
    """Parse one line of the config file into a key and a value (v{version})."""
    key, _, value = text.partition("=")
    return key.strip(), value.strip() + "{'#' * (version % 3)}"


def retry_call(function, attempts={2 + version % 4}):
    """Call `function`, retrying with exponential backoff on failure."""
    for attempt in range(attempts):
        try:
            return function()
        except OSError:
            if attempt == attempts - 1:
                raise
    return None


class Settings{index}:
    """Settings of part {index}, loaded once."""

    def load_settings(self, lines):
        return dict(parse_line(line) for line in lines if line.strip())

    def neighbour(self):
        return neighbour.retry_call(lambda: {version})
'''


def git(project: Path, *argv: str) -> None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(project.parent / "home"),
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Soak", "GIT_AUTHOR_EMAIL": "soak@example.com",
           "GIT_COMMITTER_NAME": "Soak", "GIT_COMMITTER_EMAIL": "soak@example.com", "LANG": "C", "TZ": "UTC"}
    subprocess.run(["git", *argv], cwd=project, env=env, check=True, capture_output=True)


def mutate(tree: Path, rng: random.Random, run: int) -> str:
    """Change the tree a little, as an agent's edits do; returns what changed."""
    extras = sorted(tree.glob("extra_*.py"))
    roll = rng.random()
    if roll < 0.15 and len(extras) < 6:
        path = tree / f"extra_{run}.py"
        path.write_text(module_source(100 + run, run), encoding="utf-8")
        return f"added {path.name}"
    if roll < 0.25 and extras:
        victim = rng.choice(extras)
        victim.unlink()
        return f"deleted {victim.name}"
    if roll < 0.35 and extras:
        source = rng.choice(extras)
        target = source.with_name(f"extra_{run}_renamed.py")
        source.rename(target)
        return f"renamed {source.name} -> {target.name}"
    changed = rng.sample(range(8), rng.choice((1, 1, 2)))
    for index in changed:
        (tree / f"mod{index}.py").write_text(module_source(index, run), encoding="utf-8")
    return "edited " + ", ".join(f"mod{i}.py" for i in changed)


def run_indexer(args: argparse.Namespace) -> None:
    import learnmem

    rec = Recorder(Path(args.out), args.name, "indexer")
    rng = random.Random(args.seed)
    project = Path(args.project)
    tree = project / "src" / "pkg"
    lm = learnmem.open(args.db)
    run = 0
    while time.time() < args.until:
        run += 1
        change = mutate(tree, rng, run)
        started, clock = time.time(), time.perf_counter()
        try:
            result = lm.index_codebase(project / "src", project="soak", progress=False)
            ok = result.files_failed == 0
            rec.add("index_codebase", started, time.perf_counter() - clock, ok,
                    None if ok else f"files failed: {result.failures}", change=change,
                    files_indexed=result.files_indexed, files_deleted=result.files_deleted,
                    units_embedded=result.units_embedded)
        except Exception as exc:  # noqa: BLE001 - every failure is a finding
            rec.add("index_codebase", started, time.perf_counter() - clock, False, f"{type(exc).__name__}: {exc}",
                    change=change)
        if run % 4 == 0:
            git(project, "add", "-A")
            git(project, "commit", "-q", "-m", f"soak run {run}: {change}")
            started, clock = time.time(), time.perf_counter()
            try:
                result = lm.index_commits(project, project="soak", progress=False)
                rec.add("index_commits", started, time.perf_counter() - clock, True)
            except Exception as exc:  # noqa: BLE001 - every failure is a finding
                rec.add("index_commits", started, time.perf_counter() - clock, False, f"{type(exc).__name__}: {exc}")
        _pause(INDEX_PAUSE_S, args.until)
    lm.close()


# -- reader -----------------------------------------------------------------------------------------------


def raw_copy(db: str) -> dict:
    """What a notebook does with plain DuckDB: open read-only, copy tables out, close. Retries the refusal."""
    import duckdb

    asked = time.perf_counter()
    deadline = asked + RAW_DEADLINE_S
    delay, refusals = 0.005, 0
    while True:
        try:
            con = duckdb.connect(db, read_only=True, config={"autoinstall_known_extensions": False})
            break
        except duckdb.Error as error:
            if "Could not set lock" not in str(error) or time.perf_counter() >= deadline:
                raise
            refusals += 1
            time.sleep(delay * random.uniform(0.5, 1.0))
            delay = min(delay * 2, 0.2)
    attached = time.perf_counter()
    try:
        rows = sum(con.execute(f"SELECT * FROM {table}").to_arrow_table().num_rows for table in TABLES)
    finally:
        con.close()
    return {"wait": attached - asked, "held": time.perf_counter() - attached, "refusals": refusals, "rows": rows}


def run_reader(args: argparse.Namespace) -> None:
    import learnmem

    rec = Recorder(Path(args.out), args.name, "reader")
    lm = learnmem.open(args.db, read_only=True)
    styles = ("snapshot", "sql", "raw_duckdb")
    n = 0
    while time.time() < args.until:
        style = styles[n % len(styles)]
        n += 1
        started, clock = time.time(), time.perf_counter()
        try:
            extra: dict = {}
            if style == "snapshot":
                copy = lm.snapshot()
                extra["rows"] = sum(copy.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in TABLES)
                copy.close()
            elif style == "sql":
                extra["rows"] = sum(lm.sql(f"SELECT * FROM {table}").to_arrow_table().num_rows for table in TABLES)
            else:
                extra = raw_copy(args.db)
            rec.add(style, started, time.perf_counter() - clock, True, **extra)
        except Exception as exc:  # noqa: BLE001 - every failure is a finding
            rec.add(style, started, time.perf_counter() - clock, False, f"{type(exc).__name__}: {exc}")
        _pause(READ_PAUSE_S, args.until)


ROLES = {"mcp": run_mcp, "hooks": run_hooks, "indexer": run_indexer, "reader": run_reader}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.soak.workers")
    parser.add_argument("role", choices=sorted(ROLES))
    parser.add_argument("--name", required=True, help="the worker's name in the ops file (hook loops: its kind)")
    parser.add_argument("--project", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--until", type=float, required=True, help="stop starting operations at this epoch time")
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    random.seed(args.seed)
    ROLES[args.role](args)


if __name__ == "__main__":
    main()
