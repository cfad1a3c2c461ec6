"""The hooks benchmark: `python -m bench.hooks [--quick] [--out bench/hooks/RESULTS.md]`.

Spawns real `learnmem hook <event>` processes (the venv's `learnmem` script, as Claude Code runs it) with
the event's JSON on stdin against a populated project file, and reports p50/p95/max wall time per event
and case, end to end as a process: interpreter start, imports, the file, the model where one is needed,
and exit. Every process is fresh, so the model is always cold (the OS file cache is warm, as it is for an
agent's second hook).

The populated file (built once and cached under bench/out/hooks/): the 10,000-entry GHAP corpus of
bench/ghap (quick: 1,000), the memories of the bench/quality datasets, this repository's `learnmem/` code
indexed (units, call graph) and its git history indexed. Each run works on a fresh copy inside a folder
that looks like a project (`.git/`, `.learnmem/learnmem.duckdb`).

Cases:
- pre-tool-use: a call that only counts (the common case), a call on which the check-in is due (the file
  is opened, the active entry shown), and the sequence an agent makes with the default frequency (10).
- post-tool-use: a command that is no test run (the common case); a failing `pytest` run recorded
  against the active entry (PostToolUseFailure).
- user-prompt-submit: a prompt about something new (the fast path); one naming a code-looking word the
  index does not hold (one lookup); one about earlier work (rich context, model loaded); one naming an
  indexed function (lookup + rich context).
- session-start: startup with nothing active (light context, no model); startup with an entry left active
  (orphan notice; light context retrieves memories for it, model loaded); compact.
- post-tool-use with a Task report holding a lesson (the capture queued: the file opened for one insert).
- stop with nothing queued (the common case: no marker beside the file, the file is not opened) and with
  one capture queued as the hooks queue it (flushed: the model loads, the candidate is compared with the
  memories and stored).
- session-end with an active entry (abandoned, its axes recorded).

Targets (from the issue): pre-tool-use p95 <= 150 ms; session-start and user-prompt-submit p95 <= 800 ms
with the model cold. Baselines for scale: `python -c pass` and `python -c "import duckdb"`. Markdown
goes to stdout (and --out), progress to stderr, raw numbers to bench/out/hooks/. Nothing asserts on time.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import learnmem
from learnmem.agents.capture import queue as capture_queue
from learnmem.agents.capture.candidates import Candidate
from bench.ghap import corpus
from bench.ghap.run import CpuMeter
from bench.measure import load_average, machine_info, percentile_ms
from bench.vectors import OUT_DIR

ROOT = Path(__file__).resolve().parents[2]
HOOKS_OUT = OUT_DIR / "hooks"
WORK = HOOKS_OUT / "work"
LEARNMEM = Path(sys.executable).with_name("learnmem")
TARGETS_MS = {"pre-tool-use": 150, "session-start": 800, "user-prompt-submit": 800}
QUALITY = ROOT / "bench" / "quality"
GHAP = {"domain": "debugging", "strategy": "systematic-elimination",
        "goal": "Fix the flaky test_login_redirect in the auth suite",
        "hypothesis": "The session cookie expires because the test clock and the server clock differ by a minute",
        "action": "Freeze both clocks with the same fixture", "prediction": "20 of 20 runs of the auth suite pass"}
PROMPTS = {
    "new": ["Add a --verbose flag to the export command", "Write a docstring for the CSV writer",
            "Rename the settings module to config and update the imports"],
    "unknown_name": ["frobnicate_widget_cache returns stale rows", "make parseLegacyHeader accept tabs",
                     "what does QuuxFactoryBean do?"],
    "earlier": ["Why did we raise the auth timeout last time?", "remind me what we decided about retries",
                "Last time the migration broke CI, what was the fix?"],
    "known_name": ["why does resolve_ghap compute the tier like that?",
                   "record_observation should also keep the duration; what did we decide before?",
                   "is search_experiences slow at 10k?"],
}


def log(message: str) -> None:
    print(f"[bench.hooks {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m bench.hooks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,000 entries and few runs: a smoke run")
    parser.add_argument("--out", type=Path, help="also write the markdown report to this file")
    parser.add_argument("--runs", type=int, help="processes per case (default 30; quick 6)")
    parser.add_argument("--entries", type=int, help="GHAP corpus size (default 10,000; quick 1,000)")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the cached populated file")
    args = parser.parse_args(argv)
    return {"quick": args.quick, "out": args.out, "runs": args.runs or (6 if args.quick else 30),
            "entries": args.entries or (1_000 if args.quick else 10_000), "rebuild": args.rebuild}


def stats(seconds: list[float]) -> dict:
    return {"n": len(seconds), "p50_ms": percentile_ms(seconds, 50), "p95_ms": percentile_ms(seconds, 95),
            "max_ms": max(seconds) * 1000 if seconds else float("nan")}


# -- the populated file -----------------------------------------------------------------------------------


def _memories() -> list[dict]:
    from learnmem.memory.memories import MEMORY_CATEGORIES

    items, seen = [], set()
    for path in sorted(QUALITY.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row.get("type") != "memory" or row["content"] in seen:
                continue
            seen.add(row["content"])
            category = row.get("category") if row.get("category") in MEMORY_CATEGORIES else "fact"
            items.append({"content": row["content"], "category": category, "importance": row.get("importance", 0.5)})
    return items


def populated(cfg: dict, embedder) -> tuple[Path, dict]:
    """The cached file: GHAP corpus + memories + this repository's code and history."""
    source, manifest = corpus.build(cfg["entries"], 7, embedder)
    target = HOOKS_OUT / f"populated-n{cfg['entries']}-{manifest['key']}.duckdb"
    info_path = target.with_suffix(".json")
    if target.exists() and info_path.exists() and not cfg["rebuild"]:
        learnmem.open(target, embedder=embedder).close()  # applies new migrations, keeps everything
        log(f"populated file cached: {target}")
        return target, json.loads(info_path.read_text())
    HOOKS_OUT.mkdir(parents=True, exist_ok=True)
    for suffix in ("", ".wal", ".lock"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(source, target)
    started = time.perf_counter()
    lm = learnmem.open(target, embedder=embedder)
    memories = _memories()
    log(f"populating {target}: {len(memories)} memories, the code of learnmem/, the git history")
    lm.store_memories(memories)
    lm.index_codebase(ROOT / "learnmem", project="learnmem", progress=False)
    try:
        lm.index_commits(ROOT, project="learnmem", progress=False)
    except Exception as error:  # noqa: BLE001 - a checkout without history still benchmarks the rest
        log(f"no git history indexed: {error}")
    info = lm.info()
    details = {"counts": info.counts, "file_mib": round(target.stat().st_size / 2**20, 1),
               "experiences": manifest["n"], "build_seconds": round(time.perf_counter() - started)}
    details["counts"]["experience_axes"] = lm.sql("SELECT count(*) FROM experience_axes").fetchone()[0]
    info_path.write_text(json.dumps(details, indent=1))
    return target, details


def fresh_project(source: Path, name: str) -> Path:
    """A folder that looks like a project, holding a copy of the populated file."""
    root = WORK / name
    if root.exists():
        shutil.rmtree(root)
    (root / ".git").mkdir(parents=True)
    (root / ".learnmem").mkdir()
    shutil.copyfile(source, root / ".learnmem" / "learnmem.duckdb")
    return root


# -- running hooks ----------------------------------------------------------------------------------------


def hook(root: Path, event: str, payload: dict, env: dict | None = None) -> tuple[float, str]:
    """One `learnmem hook <event>` process: (wall seconds, stdout)."""
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("LEARNMEM_DB", "LEARNMEM_CHECKIN_EVERY", "CLAUDE_PROJECT_DIR")}
    environment.update(env or {})
    data = json.dumps({"session_id": "bench", "transcript_path": "/dev/null", "cwd": str(root),
                       "hook_event_name": event, **payload})
    started = time.perf_counter()
    done = subprocess.run([str(LEARNMEM), "hook", event], input=data, capture_output=True, text=True, cwd=root,
                          env=environment, timeout=120, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0 or done.stderr:
        raise RuntimeError(f"hook {event} failed ({done.returncode}): {done.stderr}")
    return seconds, done.stdout


def case(root: Path, event: str, payloads, runs: int, env: dict | None = None, before=None,
         expect_output: bool | None = None) -> dict:
    """`runs` processes of one case (payloads cycled); `before(i)` prepares the file for run i."""
    seconds, printed = [], 0
    for i in range(runs):
        if before is not None:
            before(i)
        payload = payloads[i % len(payloads)]
        wall, out = hook(root, event, payload, env)
        seconds.append(wall)
        printed += bool(out)
        if expect_output is not None and bool(out) != expect_output:
            raise RuntimeError(f"{event} {payload}: expected {'output' if expect_output else 'none'}, got {out!r}")
    return {**stats(seconds), "printed": printed, "raw": [round(s * 1000, 2) for s in seconds]}


def agent_sequence(root: Path, calls: int) -> tuple[dict, dict]:
    """An agent's calls as Claude Code makes them: PreToolUse, the tool, PostToolUse; the default frequency.
    Returns the PreToolUse and the PostToolUse timings."""
    tools = [tool(), tool("Grep", pattern="def resolve"), tool("Bash", command="ls")]
    responses = [{"content": "..."}, {"content": "learnmem/learning/ghap.py"}, {"stdout": "a.py", "stderr": "",
                                                                        "interrupted": False}]
    for stale in (".tool-calls", ".check-in"):  # the cases before leave their counts behind
        Path(f"{root / '.learnmem' / 'learnmem.duckdb'}{stale}").unlink(missing_ok=True)
    pre, post, printed = [], [], 0
    for i in range(calls):
        wall, out = hook(root, "pre-tool-use", tools[i % 3])
        pre.append(wall)
        printed += bool(out)
        wall, _ = hook(root, "post-tool-use", {**tools[i % 3], "tool_response": responses[i % 3]})
        post.append(wall)
    if printed != calls // 10:
        raise RuntimeError(f"{printed} check-ins in {calls} calls; expected one every 10")
    return ({**stats(pre), "printed": printed, "raw": [round(x * 1000, 2) for x in pre]},
            {**stats(post), "raw": [round(x * 1000, 2) for x in post]})


def hook_log(root: Path) -> list[str]:
    """What the hooks logged in a project (errors, bad settings): a clean run logs nothing."""
    log_file = root / ".learnmem" / "hooks.log"
    return log_file.read_text(encoding="utf-8").splitlines() if log_file.exists() else []


def baseline(code: str, runs: int) -> dict:
    seconds = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
        seconds.append(time.perf_counter() - started)
    return stats(seconds)


def tool(name: str = "Read", **tool_input) -> dict:
    return {"tool_name": name, "tool_input": tool_input or {"file_path": "learnmem/learning/ghap.py"}, "tool_use_id": "t1"}


def run_cases(source: Path, cfg: dict, meter: CpuMeter, load: dict) -> dict:
    runs = cfg["runs"]
    r: dict = {}

    def section(name):
        load[name] = os.getloadavg()[0]
        return meter.section(name)

    with section("baselines"):
        r["python -c pass"] = baseline("pass", runs)
        r["python -c 'import duckdb'"] = baseline("import duckdb", runs)

    root = fresh_project(source, "tools")
    lm = learnmem.open(root / ".learnmem" / "learnmem.duckdb")
    lm.start_session()
    lm.start_ghap(**GHAP)
    with section("pre-tool-use"):
        log("pre-tool-use")
        r["pre-tool-use: counting only"] = case(root, "pre-tool-use", [tool()], runs,
                                                {"LEARNMEM_CHECKIN_EVERY": "10000"}, expect_output=False)
        r["pre-tool-use: check-in due, no PostToolUse before it (file opened, entry shown)"] = case(
            root, "pre-tool-use", [tool()], runs, {"LEARNMEM_CHECKIN_EVERY": "1"}, expect_output=True)
        pre, post = agent_sequence(root, runs * 10)
        r["pre-tool-use: an agent's sequence (PreToolUse, tool, PostToolUse), check-in every 10 calls"] = pre
        r["post-tool-use: in that sequence (prepares the next check-in)"] = post
    with section("post-tool-use"):
        log("post-tool-use")
        r["post-tool-use: not a test run"] = case(
            root, "post-tool-use", [{**tool("Bash", command="git status"),
                                     "tool_response": {"stdout": "clean", "stderr": "", "interrupted": False}}],
            runs, expect_output=False)
        failing = {**tool("Bash", command="python -m pytest -q tests/test_auth.py"),
                   "error": "Exit code 1\n....F\nFAILED tests/test_auth.py::test_login_redirect\n"
                            "1 failed, 4 passed in 0.52s", "is_interrupt": False}
        r["post-tool-use-failure: failing pytest recorded"] = case(root, "post-tool-use-failure", [failing], runs,
                                                                   expect_output=True)
        report = [{**tool("Task", description="investigate"), "tool_response": {"content": [{"type": "text", "text": (
            f"Turns out the flaky login test ({i}) was caused by the session cookie expiring at midnight UTC; "
            "freezing the clock in the fixture fixed it.")}]}} for i in range(runs)]
        r["post-tool-use: a Task report with a lesson (queued: file opened, one insert)"] = case(
            root, "post-tool-use", report, runs, expect_output=False)
    with section("stop"):
        log("stop")
        lm.discard_queued_memories()
        r["stop: nothing queued (the common case)"] = case(root, "stop", [{"stop_hook_active": False}], runs,
                                                           expect_output=False)
        r["stop: one capture queued (flushed: model cold, dedupe, store)"] = case(
            root, "stop", [{"stop_hook_active": False}], runs, expect_output=True,
            before=lambda i: Path(f"{lm.path}.queued").touch() or capture_queue.enqueue(lm.store, [Candidate(
                "learning", f"Turns out export job {i} needs TZ=UTC: the cron host runs in Europe/Paris and "
                            f"shifted batch {i} by an hour.", "Task", f"bench stop {i}")], "bench"))
    lm.close()
    logged = hook_log(root)

    root = fresh_project(source, "prompts")
    with section("user-prompt-submit"):
        for key, label, output in (("new", "about something new (fast path)", False),
                                   ("unknown_name", "names code the index lacks (one lookup)", False),
                                   ("earlier", "about earlier work (rich context, model cold)", True),
                                   ("known_name", "names indexed code (lookup + rich context)", True)):
            log(f"user-prompt-submit: {key}")
            r[f"user-prompt-submit: {label}"] = case(root, "user-prompt-submit",
                                                     [{"prompt": p} for p in PROMPTS[key]], runs,
                                                     expect_output=output)
    logged += hook_log(root)

    root = fresh_project(source, "sessions")
    lm = learnmem.open(root / ".learnmem" / "learnmem.duckdb")
    with section("session-start"):
        log("session-start")
        r["session-start: startup, nothing active (light context)"] = case(
            root, "session-start", [{"source": "startup", "model": "claude"}], runs, expect_output=True)
        lm.start_ghap(**GHAP)
        r["session-start: startup, an entry left active (orphan + light context, model cold)"] = case(
            root, "session-start", [{"source": "startup"}], runs, expect_output=True)
        r["session-start: compact"] = case(root, "session-start", [{"source": "compact"}], runs,
                                           expect_output=True)
    with section("session-end"):
        log("session-end")
        r["session-end: an active entry abandoned"] = case(
            root, "session-end", [{"reason": "prompt_input_exit"}], runs,
            before=lambda i: lm.start_ghap(**GHAP), expect_output=False)
    lm.close()
    logged += hook_log(root)
    if logged:  # a hook that failed answered nothing: its time would mislead
        raise RuntimeError("the hooks logged problems:\n" + "\n".join(logged[:20]))
    return r


def importtime(root: Path, event: str, payload: dict, top: int = 12) -> list[tuple[str, float]]:
    """The modules that took longest to import (cumulative ms) in one hook process."""
    data = json.dumps({"cwd": str(root), **payload})
    done = subprocess.run([sys.executable, "-X", "importtime", str(LEARNMEM), "hook", event], input=data,
                          capture_output=True, text=True, cwd=root, timeout=120, check=False)
    rows = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = (part.strip() for part in line[len("import time:"):].split("|"))
            if cumulative.isdigit():
                rows.append((name, int(cumulative) / 1000))
    top_level = [row for row in rows if "." not in row[0] or row[0].startswith("learnmem")]
    return sorted(top_level, key=lambda row: -row[1])[:top]


# -- report -------------------------------------------------------------------------------------------------


def verdict(p95: float, target: float | None) -> str:
    if target is None:
        return ""
    return "**met**" if p95 <= target else "**missed**"


FILE_TEXT = (
    "A copy of one populated file per section ({file_mib} MiB): {experiences:,} resolved GHAP entries "
    "({axes:,} experience axes, embedded), {memories:,} memories, {units:,} code units in {files:,} files (this "
    "repository's learnmem/), {commits:,} commits. Every hook is a fresh `learnmem hook <event>` process (the "
    "venv's console script) with the event's JSON on stdin; the time is the wall time from spawning it to its "
    "exit, so the model is cold in every process that needs one."
)
PRINTED_TEXT = (
    "`printed`: how many of the processes answered with hook JSON (the others, by design, printed nothing). "
    "A PreToolUse call never opens the file in an agent's real sequence: the PostToolUse of the call before a "
    "due one hands the counts to the session and writes the check-in, which the due PreToolUse only prints. "
    "Only a due call without a PostToolUse before it (a denied tool, hooks installed mid-session) imports "
    "DuckDB, opens the file and writes the session's counter: the `no PostToolUse before it` row "
    "(sequence p90: {p90:.0f} ms)."
)
BUDGET_TEXT = (
    "## How the hooks keep to their budget",
    "",
    ("- Only the standard library is imported until a handler needs more (`learnmem.cli.app`, `learnmem.cli.hooks`, "
    "`learnmem.agents.hooks`); the test-run and prompt patterns compile on first use."),
    ("- PreToolUse counts in `.learnmem/learnmem.duckdb.tool-calls` (one integer under an exclusive lock). When "
    "the next call will be due, the PostToolUse before it moves the pending calls into `sessions.tool_count`, "
    "the one counter the other doors read, and writes the check-in to `.learnmem/learnmem.duckdb.check-in`; "
    "the due PreToolUse prints and removes it. Nothing but the due call itself, which runs after that hook, "
    "can change the active entry in between."),
    "- PostToolUse opens the file only for a test or build command (recognised from the command line).",
    ("- UserPromptSubmit opens the file only when the prompt refers to earlier work or holds a code-looking "
    "name, and loads the model only when context is due."),
    ("- Context in a hook is assembled by `learnmem.context.assembly` over `learnmem.context.oneshot.OneShotView`: exact cosine similarity "
    "computed in SQL over the stored vectors, all reads on one connection, the three experience axes of a rich "
    "context ranked in one scan. The facade's in-memory indexes (built on first use: 1.5-2 s for the experience "
    "index at 10,000 entries) and its imports (numpy, pyarrow: ~450 ms) pay off only in long-lived processes."),
    ("- A process started as the hook ends with os._exit(0) once its answer is flushed (its writes are "
    "committed by then): the interpreter's teardown of ONNX Runtime, numpy and DuckDB cost 50-100 ms."),
    ("- What remains in a cold prompt or session-start hook is mostly the model: importing ONNX Runtime and "
    "numpy and creating the inference session take ~250-300 ms of the ~600 ms."),
    "",
)


def report(info: dict, cfg: dict, details: dict, r: dict, imports: dict, load: dict, others: dict) -> str:
    lines = ["# learnmem hooks benchmark", "",
             f"Produced by `{info['command']}` (bench/hooks/). Raw numbers: bench/out/hooks/results-*.json.", "",
             "## Machine", "", "|  |  |", "|---|---|"]
    for key, value in info.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        lines.append(f"| {key} | {value} |")
    loads = ", ".join(f"{k} {v:.2f}" for k, v in load.items())
    cores = ", ".join(f"{k} {v:.2f}" for k, v in others.items())
    lines += [f"| load average (1 min) at the start of each section | {loads} |",
              f"| **CPU used by other processes during each section** (cores, of 2) | {cores} |", ""]
    counts = details["counts"]
    lines += ["## The file", "",
              FILE_TEXT.format(file_mib=details["file_mib"], experiences=details["experiences"],
                               axes=counts.get("experience_axes", 0), memories=counts.get("memories", 0),
                               units=counts.get("code_units", 0), files=counts.get("code_files", 0),
                               commits=counts.get("commits", 0)), "",
              "## Results", "",
              "| event: case | processes | p50 | p95 | max | printed | target (p95) | |",
              "|---|---|---|---|---|---|---|---|"]
    for name, row in r.items():
        event = name.split(":")[0]
        target = TARGETS_MS.get(event) if not name.startswith("python") else None
        target_text = f"<= {target} ms" if target else ""
        printed = f"{row['printed']}/{row['n']}" if "printed" in row else ""
        lines.append(f"| {name} | {row['n']} | {row['p50_ms']:.0f} ms | {row['p95_ms']:.0f} ms | "
                     f"{row['max_ms']:.0f} ms | {printed} | {target_text} | {verdict(row['p95_ms'], target)} |")
    sequence = next((row for name, row in r.items() if "sequence" in name), None)
    p90 = percentile_ms([ms / 1000 for ms in sequence["raw"]], 90) if sequence else float("nan")
    lines += ["", PRINTED_TEXT.format(p90=p90), ""]
    for event, rows in imports.items():
        lines += [f"### Slowest imports: {event}", "", "| module | cumulative import time |", "|---|---|"]
        lines += [f"| {name} | {ms:.0f} ms |" for name, ms in rows]
        lines.append("")
    lines += list(BUDGET_TEXT)
    return "\n".join(lines)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    cfg = parse_args(argv)
    command = "python -m bench.hooks" + (" " + shlex.join(argv) if argv else "")
    info = machine_info(command)
    started = time.perf_counter()
    from learnmem.embedding.embed import load_embedder

    embedder = load_embedder()
    info["embedding model"] = f"{embedder.name} (ONNX Runtime, fp32, CPU)"
    info["hook command"] = f"{LEARNMEM} hook <event>"
    source, details = populated(cfg, embedder)
    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    meter, load = CpuMeter(), {}
    results = run_cases(source, cfg, meter, load)
    root = fresh_project(source, "imports")
    imports = {"user-prompt-submit about earlier work": importtime(root, "user-prompt-submit",
                                                                   {"prompt": PROMPTS["earlier"][0]}),
               "pre-tool-use, counting only": importtime(root, "pre-tool-use", tool())}
    info["load average at end"] = load_average()
    info["run time"] = f"{time.perf_counter() - started:.0f} s"
    HOOKS_OUT.mkdir(parents=True, exist_ok=True)
    raw = HOOKS_OUT / f"results-{time.strftime('%Y%m%d-%H%M%S')}.json"
    raw.write_text(json.dumps({"info": info, "config": {k: str(v) for k, v in cfg.items()}, "file": details,
                               "results": results, "imports": imports, "load": load,
                               "others_cores": meter.sections}, indent=1, default=str))
    text = report(info, cfg, details, results, imports, load, meter.sections)
    print(text)
    if cfg["out"]:
        cfg["out"].write_text(text + "\n", encoding="utf-8")
    return 0
