"""The concurrency soak: `python -m bench.soak [--minutes 10 | --seconds 60] [--out bench/soak/RESULTS.md]`.

Every kind of process that uses a learnmem file, at once, on one file, for a while:

- `mcp`: one `learnmem-mcp` server driven over stdio by a scripted client (bench.soak.workers: an agent's
  mix of memory, code, context and GHAP calls, one every 0.2-1.0 s);
- `hook-a`, `hook-b`: two agents' Claude Code hooks: per tool call a fresh `learnmem hook pre-tool-use`
  process, the tool's time (0.1-0.6 s), a fresh `learnmem hook post-tool-use` (or `-failure`) process, then
  0.3-1.2 s of thinking; a quarter of the calls are test runs (recorded against the active GHAP entry), and
  the shared tool counter hands over to the file every 10 calls. hook-a's are served by the MCP server once
  it listens (learnmem.agents.hook_socket: the server's process then takes the file, counted as `mcp`);
  hook-b's answer themselves (LEARNMEM_HOOK_SERVER=off: an agent without a server), taking the file;
- `indexer`: edits/adds/renames/deletes files under `<project>/src`, then `index_codebase` (and, every
  fourth run, a git commit and `index_commits`), every 1-3 s;
- `reader`: a notebook copying tables out read-only every 1-3 s, in turn with `lm.snapshot()`, `lm.sql()`
  and a plain `duckdb.connect(path, read_only=True)` that it closes at once.

Measured per process kind:
- operations done and failed (an exception, an error answer, a hook that exited non-zero, wrote to stderr,
  ran past 10 s or logged to hooks.log; target 0), with each failure's message;
- operation latency as its caller sees it (an MCP call at the client, a hook process from spawn to exit,
  an index run, a notebook read);
- the wait for the file: from the library asking for the file to the file being attached, measured inside
  every learnmem process by the probe (bench/soak/probe/sitecustomize.py, which wraps Store.read,
  Store._writer, Store.copy_to_memory and Store.run_query in that child only); for the plain DuckDB open of
  the reader, from the first connect attempt to the open connection. Target p95 <= 300 ms. Also how long
  each kind held the file, how often DuckDB's lock error had to be retried, the longest waits and holds
  with the library function that asked, and the holds during which a process imported modules.

After the run: every memory and GHAP entry the MCP server acknowledged is in the file, every test run a hook
said it recorded is in ghap_observations, the code index matches the tree the indexer left, hooks.log is
empty, no process hung or left a traceback. Markdown goes to stdout (and --out), raw
rows to bench/out/soak/. Nothing asserts on time; tests/test_soak.py runs a 60-second version.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from bench.ghap.run import CpuMeter

ROOT = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).resolve().parent / "probe"
OUT = ROOT / "bench" / "out" / "soak"
KINDS = ("mcp", "hook-a", "hook-b", "indexer", "reader")
TARGET_P95_MS = 300.0
STOP_GRACE_S = 150.0  # past --until: an MCP call may take up to 120 s before it counts as failed
HOOK_LOG_LINE = re.compile(r"^\S+ (\S+) pid=(\d+) (.*)$")


def log(message: str) -> None:
    print(f"[bench.soak {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# -- the project ------------------------------------------------------------------------------------------


def setup_project(work: Path) -> tuple[Path, Path]:
    """A git repository with a small package under src/, learnmem initialised in it, its code and history
    indexed and a few memories stored: what an agent's project looks like when the soak starts."""
    import learnmem
    from bench.soak.workers import git, module_source

    if work.exists():
        shutil.rmtree(work)
    project = work / "project"
    tree = project / "src" / "pkg"
    tree.mkdir(parents=True)
    (work / "home").mkdir()
    (tree / "__init__.py").write_text('"""The soak project."""\n', encoding="utf-8")
    for index in range(8):
        (tree / f"mod{index}.py").write_text(module_source(index, 0), encoding="utf-8")
    (project / "tests").mkdir()
    (project / "tests" / "test_pkg.py").write_text("def test_parse():\n    assert True\n", encoding="utf-8")
    git(project, "init", "-q", "-b", "main")
    db = learnmem.init_project(project)
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "The soak project")
    lm = learnmem.open(db)
    lm.index_codebase(project / "src", project="soak", progress=False)
    lm.index_commits(project, project="soak", progress=False)
    lm.store_memories([
        {"content": "The settings loader caches parsed files; clear the cache in tests.", "category": "fact"},
        {"content": "We retry network calls twice with exponential backoff, then fail loudly.",
         "category": "decision"},
        {"content": "Prefer table-driven tests with pytest.mark.parametrize.", "category": "preference"},
    ])
    lm.start_session()
    lm.close()
    return project, db


# -- running ----------------------------------------------------------------------------------------------


@dataclass
class Worker:
    name: str
    role: str
    process: subprocess.Popen
    stderr: Path
    returncode: int | None = None
    overran: bool = False


def spawn(role: str, name: str, project: Path, db: Path, until: float, out: Path, seed: int,
          env: dict[str, str]) -> Worker:
    stderr = out / f"worker-{name}.stderr"
    command = [sys.executable, "-m", "bench.soak.workers", role, "--name", name, "--project", str(project),
               "--db", str(db), "--until", f"{until:.3f}", "--out", str(out), "--seed", str(seed)]
    process = subprocess.Popen(command, cwd=ROOT, env={**env, "SOAK_KIND": name},
                               stdout=subprocess.DEVNULL, stderr=stderr.open("w"))
    return Worker(name, role, process, stderr)


def run_soak(seconds: float, work: Path | None = None) -> dict:
    """Run the soak for `seconds` in `work` (default bench/out/soak/work); returns the summary (see summarize)."""
    work = Path(work) if work is not None else OUT / "work"
    log(f"setting up the project in {work}")
    set_up = time.perf_counter()
    project, db = setup_project(work)
    out = work / "records"
    (out / "probe").mkdir(parents=True)
    setup_seconds = time.perf_counter() - set_up
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEARNMEM_") and k != "CLAUDE_PROJECT_DIR"}
    env["PYTHONPATH"] = os.pathsep.join([str(PROBE), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    env["SOAK_PROBE_DIR"] = str(out / "probe")
    meter = CpuMeter()
    load_start = os.getloadavg()
    started_wall, started = time.time(), time.perf_counter()
    until = started_wall + seconds
    log(f"soak: {seconds:.0f} s, processes: {', '.join(KINDS)}")
    with meter.section("soak"):
        workers = [spawn("mcp", "mcp", project, db, until, out, 11, env),
                   spawn("hooks", "hook-a", project, db, until, out, 21, env),
                   spawn("hooks", "hook-b", project, db, until, out, 22, {**env, "LEARNMEM_HOOK_SERVER": "off"}),
                   spawn("indexer", "indexer", project, db, until, out, 31, env),
                   spawn("reader", "reader", project, db, until, out, 41, env)]
        for worker in workers:
            remaining = until + STOP_GRACE_S - time.time()
            try:
                worker.returncode = worker.process.wait(timeout=max(remaining, 1.0))
            except subprocess.TimeoutExpired:
                worker.overran = True
                worker.process.kill()
                worker.returncode = worker.process.wait()
    wall = time.perf_counter() - started
    others = meter.sections["soak"]
    log(f"all processes stopped after {wall:.0f} s; checking the file")
    summary = summarize(out, project, db, workers)
    summary["run"] = {"seconds": seconds, "wall_s": round(wall, 1), "setup_s": round(setup_seconds, 1),
                      "started": started_wall, "others_cores": round(others, 2),
                      "load_start": " ".join(f"{x:.2f}" for x in load_start),
                      "load_end": " ".join(f"{x:.2f}" for x in os.getloadavg()), "work": str(work)}
    return summary


# -- summarising ------------------------------------------------------------------------------------------


def read_jsonl(paths) -> list[dict]:
    rows = []
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                rows.append(json.loads(line))
    return rows


def hook_log_entries(path: Path) -> list[tuple[int | None, str]]:
    """(pid, message with its traceback) for each entry of hooks.log."""
    if not path.exists():
        return []
    entries: list[list] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        match = HOOK_LOG_LINE.match(line)
        if match and not line.startswith(" "):
            entries.append([int(match.group(2)), line])
        elif entries:
            entries[-1][1] += "\n" + line
        else:
            entries.append([None, line])
    return [(pid, text) for pid, text in entries]


def pct(values: list[float], q: float) -> float:
    from bench.measure import percentile_ms

    return percentile_ms(values, q) if values else float("nan")


def distribution(seconds: list[float]) -> dict:
    return {"n": len(seconds), "p50_ms": pct(seconds, 50), "p95_ms": pct(seconds, 95),
            "max_ms": max(seconds) * 1000 if seconds else float("nan")}


@dataclass
class KindSummary:
    kind: str
    ops: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)
    latency: dict = field(default_factory=dict)
    by_op: dict = field(default_factory=dict)
    processes: int = 0
    waits: dict = field(default_factory=dict)
    wait_by_op: dict = field(default_factory=dict)
    held: dict = field(default_factory=dict)
    lock_wait: dict = field(default_factory=dict)
    retried: int = 0
    retries: int = 0
    failed_acquisitions: int = 0
    refusals: int = 0
    printed: int = 0

    @property
    def target_met(self) -> bool | None:
        p95 = self.waits.get("p95_ms")
        return None if p95 is None or math.isnan(p95) else p95 <= TARGET_P95_MS


def summarize_rows(ops: list[dict], probes: list[dict], hook_log: list[tuple[int | None, str]]) -> dict:
    """Per kind: operations, failures, latencies and waits. Pure: the test of the accounting calls it."""
    kinds = {kind: KindSummary(kind) for kind in KINDS}
    problems: list[str] = []
    hook_pids = {row["pid"]: row for row in ops if row.get("pid") is not None}
    for pid, text in hook_log:
        row = hook_pids.get(pid)
        if row is None:
            problems.append(f"hooks.log (pid {pid}, not a hook process of the soak): {text}")
        elif row["ok"]:
            row["ok"], row["error"] = False, f"hooks.log: {text}"
        else:
            row["error"] += f"; hooks.log: {text}"
    latencies: dict[str, list] = defaultdict(list)
    per_op: dict[tuple[str, str], list] = defaultdict(list)
    for row in ops:
        summary = kinds.setdefault(row["kind"], KindSummary(row["kind"]))
        summary.ops += 1
        summary.printed += bool(row.get("printed"))
        if not row["ok"]:
            summary.failed += 1
            summary.failures.append(f"{row['op']}: {row.get('error')}")
        if row["op"] not in ("initialize", "shutdown"):  # the MCP server's start and exit: per-operation rows only
            latencies[row["kind"]].append(row["seconds"])
        per_op[(row["kind"], row["op"])].append(row["seconds"])
    waits: dict[str, list] = defaultdict(list)
    wait_op: dict[tuple[str, str], list] = defaultdict(list)
    held: dict[str, list] = defaultdict(list)
    lock_wait: dict[str, list] = defaultdict(list)
    pids: dict[str, set] = defaultdict(set)
    probes = [row for row in probes if row["op"] != "exit"]  # a process's exit record, not a use of the file
    for row in probes:
        kind = row["kind"]
        summary = kinds.setdefault(kind, KindSummary(kind))
        pids[kind].add(row["pid"])
        if row.get("error"):
            summary.failed_acquisitions += 1
            summary.failures.append(f"taking the file ({row['op']}, pid {row['pid']}): {row['error']}")
            continue
        waits[kind].append(row["wait"])
        wait_op[(kind, row["op"])].append(row["wait"])
        if row.get("held") is not None:
            held[kind].append(row["held"])
        if row.get("lock_wait") is not None:
            lock_wait[kind].append(row["lock_wait"])
        summary.retries += row.get("retries") or 0
        summary.retried += bool(row.get("retries"))
    for row in ops:  # the reader's plain DuckDB opens: their wait is measured by the reader itself
        if row["op"] == "raw_duckdb" and row["ok"]:
            kinds[row["kind"]].refusals += row.get("refusals", 0)
            kinds[row["kind"]].retried += bool(row.get("refusals"))
            kinds[row["kind"]].retries += row.get("refusals", 0)
            waits[row["kind"]].append(row["wait"])
            wait_op[(row["kind"], "raw_duckdb open")].append(row["wait"])
            held[row["kind"]].append(row["held"])
    for kind, summary in kinds.items():
        summary.latency = distribution(latencies[kind])
        summary.by_op = {op: distribution(values) for (k, op), values in sorted(per_op.items()) if k == kind}
        summary.waits = distribution(waits[kind])
        summary.wait_by_op = {op: distribution(values) for (k, op), values in sorted(wait_op.items()) if k == kind}
        summary.held = distribution(held[kind])
        summary.lock_wait = distribution(lock_wait[kind])
        hook_processes = {row["pid"] for row in ops if row["kind"] == kind and row.get("pid")}
        summary.processes = len(hook_processes | pids[kind]) if hook_processes else max(len(pids[kind]), 1)
    return {"kinds": kinds, "problems": problems}


def summarize(out: Path, project: Path, db: Path, workers: list[Worker]) -> dict:
    ops = read_jsonl(sorted(out.glob("ops-*.jsonl")))
    probes = read_jsonl(sorted((out / "probe").glob("probe-*.jsonl")))
    exits = [row for row in probes if row["op"] == "exit"]  # processes that ended on their own
    probes = [row for row in probes if row["op"] != "exit"]
    summary = summarize_rows(ops, probes, hook_log_entries(db.parent / "hooks.log"))
    problems = summary["problems"]
    for worker in workers:
        text = worker.stderr.read_text(encoding="utf-8", errors="replace") if worker.stderr.exists() else ""
        if worker.overran:
            problems.append(f"{worker.name}: still running {STOP_GRACE_S:.0f} s after the end: killed "
                            f"(a hung call or a deadlock?)")
        if worker.returncode not in (0, None) or "Traceback" in text:
            problems.append(f"{worker.name}: exit {worker.returncode}; stderr: {text[-3000:]}")
    server_log = out / "mcp-server.stderr"
    if server_log.exists() and "Traceback" in server_log.read_text(encoding="utf-8", errors="replace"):
        problems.append("learnmem-mcp wrote a traceback: " + server_log.read_text(errors="replace")[-3000:])
    problems += check_file(project, db, ops)
    summary["ops"] = len(ops)
    summary["acquisitions"] = len(probes)
    summary["unscoped"] = sum(1 for row in probes if row.get("unscoped"))
    summary["recorded"] = sum(1 for row in ops if row.get("recorded"))
    summary["mcp_shutdown"] = next((row for row in ops if row["op"] == "shutdown"), None)
    summary["mcp_exited"] = any(row["kind"] == "mcp" for row in exits)
    summary["longest_holds"] = sorted((row for row in probes if row.get("held") is not None),
                                      key=lambda row: -row["held"])[:8]
    summary["imports_in_holds"] = [row for row in probes if row.get("imported")]
    summary["longest_waits"] = sorted((row for row in probes if not row.get("error")),
                                      key=lambda row: -row["wait"])[:8]
    return summary


def check_file(project: Path, db: Path, ops: list[dict]) -> list[str]:
    """What must hold once everyone stopped: acknowledged memories are there, the code index is the tree."""
    import learnmem

    problems = []
    lm = learnmem.open(db, read_only=True)
    acknowledged = {row["memory_id"] for row in ops if row["op"] == "store_memory" and row["ok"]
                    and row.get("memory_id")}
    stored = {memory_id for (memory_id,) in lm.sql("SELECT id FROM memories").fetchall()}
    missing = acknowledged - stored
    if missing:
        problems.append(f"{len(missing)} of {len(acknowledged)} acknowledged memories are not in the file: "
                        f"{sorted(missing)[:5]}")
    indexed = {path for (path,) in lm.sql("SELECT path FROM code_files WHERE project = 'soak'").fetchall()}
    tree = {path.relative_to(project / "src").as_posix() for path in (project / "src").rglob("*.py")}
    last_index_ok = [row["ok"] for row in ops if row["op"] == "index_codebase"][-1:] == [True]
    if last_index_ok and indexed != tree:
        problems.append(f"the code index differs from the tree after the last index run: only indexed "
                        f"{sorted(indexed - tree)}, only in the tree {sorted(tree - indexed)}")
    started = {row["ghap_id"] for row in ops if row["op"] == "start_ghap" and row["ok"] and row.get("ghap_id")}
    entries = {entry_id for (entry_id,) in lm.sql("SELECT id FROM ghap_entries").fetchall()}
    if started - entries:
        problems.append(f"{len(started - entries)} of {len(started)} GHAP entries the server acknowledged are not "
                        f"in the file: {sorted(started - entries)[:5]}")
    # A hook that answered "learnmem recorded this ... run" had its observation committed: one row each.
    recorded = sum(1 for row in ops if row.get("recorded"))
    (observations,) = lm.sql("SELECT count(*) FROM ghap_observations").fetchone()
    if observations != recorded:
        problems.append(f"ghap_observations holds {observations} rows, but hooks answered that they recorded "
                        f"{recorded} runs")
    return problems


# -- report -----------------------------------------------------------------------------------------------


def _ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.0f} ms"


def _verdict(summary: KindSummary) -> str:
    met = summary.target_met
    return "n/a" if met is None else ("**met**" if met else "**missed**")


DEFINITIONS = (
    ("- **operations**: what the process kind did, one row each: an MCP tool call (at the client), a hook "
    "process (spawn to exit), an index run (`index_codebase` or `index_commits`), a notebook read. **failed**: "
    "the call raised, timed out or answered an error object; a hook exited non-zero, wrote to stderr, ran past "
    "Claude Code's 10 s hook timeout or logged to hooks.log (its answer is then silently empty); the target is 0."),
    ("- **wait for the file**: measured inside each learnmem process (the probe wraps `Store.read`, "
    "`Store._writer`, `Store.copy_to_memory` and `Store.run_query` in the soak's child processes only), from "
    "the library asking for the file to the file being attached. It includes the process's own lock (another thread of the "
    "same process, e.g. the MCP server's warm-up), the `<file>.lock` writer lock (writers only), DuckDB's "
    "lock error retried with 5 -> 200 ms backoff (a reader meeting a writer, or anyone meeting the plain "
    "DuckDB reader) and the ATTACH itself (~3 ms, more when a WAL is replayed). One operation may take the "
    "file several times (an index run: a read, a write per batch, a read), so there are more waits than "
    "operations. For the reader's plain `duckdb.connect(read_only=True)`, the wait is from its first "
    "connect attempt to the open connection, refusals retried with the same backoff. Hook processes that "
    "never open the file (PreToolUse only counts in a small file; PostToolUse opens it only for test runs and "
    "check-in hand-overs) have no wait to report. **held**: from attached to released (a write's includes its "
    "commit and the checkpoint at detach)."),
    ("- **retried**: acquisitions on which DuckDB refused the file at least once (`Could not set lock`) and "
    "the open was retried; **retries**: the refusals in all."),
    ("- In the tables of single acquisitions, **caller** is the library function that asked for the file and "
    "**imported while held** the modules that process imported for the first time between attaching and "
    "releasing the file (a lazy import there lengthens the hold for everyone waiting)."),
)


def report(summary: dict, info: dict) -> str:
    from bench.soak import workers as w

    run = summary["run"]
    kinds: dict[str, KindSummary] = summary["kinds"]
    lines = ["# learnmem concurrency soak", "",
             f"Produced by `{info['command']}` (bench/soak/). Raw rows: {run['work']}/records/.", "",
             "## Machine", "", "|  |  |", "|---|---|"]
    for key, value in info.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        lines.append(f"| {key} | {value} |")
    lines += [f"| load average (1, 5, 15 min) at start / end | {run['load_start']} / {run['load_end']} |",
              f"| **CPU used by other processes during the soak** (cores, of 2) | {run['others_cores']:.2f} |",
              "", "## What ran", "",
              (f"{run['seconds']:.0f} s of load ({run['wall_s']:.0f} s until every process had stopped; "
              f"{run['setup_s']:.0f} s of set-up before it: a git project with 9 modules under src/, "
              "`learnmem init`, its code and history indexed, 3 memories), all on one file, "
              "`<project>/.learnmem/learnmem.duckdb`:"), "",
              (f"- `mcp`: one `learnmem-mcp` process, a scripted MCP client (stdio) calling a tool every "
              f"{w.MCP_PAUSE_S[0]}-{w.MCP_PAUSE_S[1]} s after the last answer: store/retrieve/list memories, "
              "search_code, find_callers, get_context (light, rich), get_premortem, search_experiences, info, "
              "get_active_ghap and GHAP cycles (start, up to two updates, resolve confirmed or falsified)."),
              (f"- `hook-a`, `hook-b`: two agents' hooks. Per tool call a fresh `learnmem hook pre-tool-use` "
              f"process, the tool's time ({w.HOOK_TOOL_S[0]}-{w.HOOK_TOOL_S[1]} s), a fresh `learnmem hook "
              f"post-tool-use` (`post-tool-use-failure` for a failing test run) process, then "
              f"{w.HOOK_PAUSE_S[0]}-{w.HOOK_PAUSE_S[1]} s before the next call: one call every ~1.4 s per agent "
              "(a real agent: one every few seconds). Tools: Read 30 %, Grep 15 %, Edit 15 %, Bash 15 %, test "
              "runs 25 % (half failing; recorded against the active GHAP entry). Both share the project's "
              "tool counter: every 10th call hands over to the file (LEARNMEM_CHECKIN_EVERY default)."),
              (f"- `indexer`: every {w.INDEX_PAUSE_S[0]}-{w.INDEX_PAUSE_S[1]} s edits one or two modules, or "
              "adds, renames or deletes a file, then `index_codebase(src)`; every fourth run commits "
              "(git) and runs `index_commits`."),
              (f"- `reader`: a notebook, every {w.READ_PAUSE_S[0]}-{w.READ_PAUSE_S[1]} s in turn: `lm.snapshot()` "
              "(an in-memory copy of the whole file), `lm.sql('SELECT * FROM <table>')` for 7 tables, and a "
              "plain `duckdb.connect(path, read_only=True)` copying the same 7 tables out and closing at once "
              "(it takes no learnmem lock; DuckDB refuses it while a writer holds the file, so it retries)."),
              "", "## Results", "",
              ("| kind | processes | operations | failed | operation p50 / p95 / max | waits for the file | "
              "wait p50 | wait p95 | wait max | held p95 / max | retried (retries) | target wait p95 <= 300 ms |"),
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for kind, s in kinds.items():
        lines.append(
            f"| {kind} | {s.processes} | {s.ops} | {s.failed + s.failed_acquisitions} | "
            f"{_ms(s.latency['p50_ms'])} / {_ms(s.latency['p95_ms'])} / {_ms(s.latency['max_ms'])} | "
            f"{s.waits['n']} | {_ms(s.waits['p50_ms'])} | {_ms(s.waits['p95_ms'])} | {_ms(s.waits['max_ms'])} | "
            f"{_ms(s.held['p95_ms'])} / {_ms(s.held['max_ms'])} | {s.retried} ({s.retries}) | {_verdict(s)} |")
    unscoped = summary.get("unscoped", 0)
    lines += ["", (f"Operations in all: {summary['ops']}; times a process took the file: "
                   f"{summary['acquisitions']} (plus the reader's plain DuckDB opens)"
                   + (f"; {unscoped} of them through a path the probe does not wrap (wait = the attach alone, "
                      "hold unseen)" if unscoped else "") + "."), ""]
    lines += list(DEFINITIONS) + ["", "### Per operation", "",
                                  "| kind | operation | n | p50 | p95 | max |", "|---|---|---|---|---|---|"]
    for kind, s in kinds.items():
        for op, d in s.by_op.items():
            lines.append(f"| {kind} | {op} | {d['n']} | {_ms(d['p50_ms'])} | {_ms(d['p95_ms'])} | {_ms(d['max_ms'])} |")
    lines += ["", "### Wait for the file, per kind of access", "",
              "| kind | access | n | p50 | p95 | max |", "|---|---|---|---|---|---|"]
    for kind, s in kinds.items():
        for op, d in s.wait_by_op.items():
            lines.append(f"| {kind} | {op} | {d['n']} | {_ms(d['p50_ms'])} | {_ms(d['p95_ms'])} | {_ms(d['max_ms'])} |")
    lines += ["", "Writers' waits on `<file>.lock` alone (p50 / p95 / max): " + "; ".join(
        f"{kind} {_ms(s.lock_wait['p50_ms'])} / {_ms(s.lock_wait['p95_ms'])} / {_ms(s.lock_wait['max_ms'])}"
        for kind, s in kinds.items() if s.lock_wait["n"]) + ".", ""]
    start = summary["run"]["started"]
    for title, key in (("Longest waits for the file", "longest_waits"), ("Longest holds of the file", "longest_holds")):
        lines += [f"### {title}", "", ("| at (s into the run) | kind | pid | thread | caller | access | wait | "
                  "of it `<file>.lock` | retries | held | imported while held |"),
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for row in summary.get(key, []):
            lock = _ms(row["lock_wait"] * 1000) if row.get("lock_wait") is not None else "-"
            lines.append(f"| {row['t'] - start:.1f} | {row['kind']} | {row['pid']} | {row['thread']} | "
                         f"`{row.get('caller', '?')}` | {row['op']} | "
                         f"{_ms(row['wait'] * 1000)} | {lock} | "
                         f"{row['retries']} | {_ms((row.get('held') or float('nan')) * 1000)} | "
                         f"{', '.join(row.get('imported', [])) or '-'} |")
        lines.append("")
    importing = summary.get("imports_in_holds", [])
    lines += ["### Imports while holding the file", "",
              (f"{len(importing)} of the {summary['acquisitions']} times a process held the file, it imported modules "
              "for the first time meanwhile (everyone waiting for the file waits for the import too):"), ""]
    if importing:
        lines += ["| at (s into the run) | kind | caller | access | held | imported |", "|---|---|---|---|---|---|"]
        for row in sorted(importing, key=lambda row: -(row.get("held") or 0))[:12]:
            lines.append(f"| {row['t'] - start:.1f} | {row['kind']} | `{row.get('caller', '?')}` | {row['op']} | "
                         f"{_ms((row.get('held') or float('nan')) * 1000)} | {', '.join(row['imported'])} |")
        lines.append("")
    printed = {kind: s.printed for kind, s in kinds.items() if kind.startswith("hook")}
    recorded = summary.get("recorded", 0)
    shutdown = summary.get("mcp_shutdown")
    lines += ["Hook processes that answered (a check-in, or a test run recorded against the active entry): "
              + ", ".join(f"{kind} {n}" for kind, n in printed.items()) + f"; test runs recorded: {recorded}, "
              "each found in `ghap_observations`.", ""]
    if shutdown:
        exited = summary.get("mcp_exited")
        how = ("it exited on its own (its probe wrote its exit record, after its last memory-access counts)"
               if exited else "it did not exit on its own (no exit record): the SDK, which waits 2 s after closing "
               "stdin, killed it, and the access counts it had not written yet were lost" if exited is False
               else "")
        lines += [f"Closing the MCP client took {shutdown['seconds'] * 1000:.0f} ms; {how}.", ""]
    failures = [(kind, text) for kind, s in kinds.items() for text in s.failures]
    lines += ["## Failures", ""]
    if not failures and not summary["problems"]:
        lines += [("None: every operation succeeded, no hook logged anything, every acknowledged memory, GHAP entry "
                  "and recorded test run is in the file, the code index matches the tree, and no process hung or "
                  "left a traceback."), ""]
    for kind, text in failures[:40]:
        lines.append(f"- {kind}: {text}")
    for text in summary["problems"][:20]:
        lines.append(f"- {text}")
    return "\n".join(lines) + "\n"


def to_json(summary: dict) -> dict:
    return {**summary, "kinds": {kind: {**vars(s), "target_met": s.target_met}
                                 for kind, s in summary["kinds"].items()}}


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n\n")[0])
    length = parser.add_mutually_exclusive_group()
    length.add_argument("--minutes", type=float, help="how long the load runs (default 10)")
    length.add_argument("--seconds", type=float, help="how long the load runs, in seconds")
    parser.add_argument("--out", type=Path, help="also write the markdown report to this file")
    parser.add_argument("--work", type=Path, help=f"the folder to work in (default {OUT / 'work'}; emptied)")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    from bench.measure import machine_info

    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (args.minutes if args.minutes is not None else 10) * 60
    info = machine_info("python -m bench.soak" + (" " + shlex.join(argv) if argv else ""))
    info["architecture"] = platform.machine()
    summary = run_soak(seconds, args.work)
    OUT.mkdir(parents=True, exist_ok=True)
    raw = OUT / f"results-{time.strftime('%Y%m%d-%H%M%S')}.json"
    raw.write_text(json.dumps({"info": info, **to_json(summary)}, indent=1, default=str), encoding="utf-8")
    text = report(summary, info)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    failed = sum(s.failed + s.failed_acquisitions for s in summary["kinds"].values()) + len(summary["problems"])
    return 1 if failed else 0
