"""Many agents at once on a DuckLake and on one local file: `python -m bench.lake_writers [--seconds 60]
[--writers 8] [--readers 2] [--backend file|lake|both] [--json PATH]`.

Issue 11's benchmark. For each backend in turn, `--writers` processes act like coding agents and `--readers`
processes like agents that only look things up, all at once for `--seconds`:

- a writer loops as fast as it can: `store_memory` (a distinct text of bench/corpus.py, category drawn from
  fact/decision/learning), and after every `--ghap-every` memories (default 3) a GHAP cycle:
  `start_ghap` (a drafted task of bench/ghap/corpus.py), `update_ghap(note=...)`, `resolve_ghap` (confirmed, or
  falsified with surprise, root cause and lesson: 4 axes embedded), if it is one of the GHAP writers;
- a reader loops over `retrieve_memories(query)` and `search_experiences(query)` in turn.

Backends:
- `file`: a fresh DuckDB file in a temporary folder, `learnmem.open(path)` in every process.
- `lake`: a real PostgreSQL server started for the run (tests/postgres.py: a temporary folder, a free loopback
  port, fsync off), a new catalog database, `learnmem.open("ducklake:postgres:...", data_path=<temporary
  folder>, project="bench", agent=<the process's name>)`; data files on the local disk.

GHAP writers (the honest part): on a file there is ONE active GHAP entry per file, shared by every process.
Eight agents cycling at once on one file would abandon each other's entries (start_ghap's warning), update
and resolve each other's, and fail with NotFoundError when another resolved theirs first: not the workload
of eight agents. So on the file only writer-0 runs GHAP cycles (the 7 others only store memories). On a lake
each agent has its own active entry, so the lake runs twice: `lake` with the file's workload exactly
(writer-0 alone cycles: the like-for-like comparison), and `lake, all cycle` with every writer cycling (the
agents' real workload, which a file cannot serve). `--ghap-writers N` forces N GHAP writers on every run
(on a file N > 1 shows the interference: warnings counted, NotFoundError counted as failures).

Every process opens its handle, loads the model and warms up (a writer stores one memory, a reader runs one
of each read) before the window; they all start together. Measured per operation kind: operations started
in the window, failures (any exception: counted, the first message of each exception type kept), latency
p50/p95/max as the caller sees it (and p50 in the first and last quarter of the window), ops/s. Also:
start_ghap warnings; on a lake, commits replayed after a conflict with another writer's (counted by wrapping
learnmem.storage.lake.retrying in the bench's processes; nothing else changes); CPU in the window of the bench's
processes, of the run's PostgreSQL server (its postmaster and backends, /proc) and of everything else on the
machine (/proc/stat); where the processes' main threads spent the window (/proc/self/task/*/schedstat: on a
CPU, runnable but waiting for one, blocked); after the run, the rows against those acknowledged (memories,
GHAP entries: none lost) and, through lm.sql, no duplicate memory id or experience axis (a lake has no keys)
and no axis left unembedded.

Each process's embedder is the real model (all-MiniLM-L6-v2 through ONNX Runtime, its default threads):
store_memory embeds one text, resolve_ghap four axis texts, each read one query. With more processes than
cores the run is CPU-bound: the numbers are throughput and latency of a saturated machine, where waiting
for the CPU and waiting for the store (file lock, catalog commit) both show up as latency; compare the
backends with each other on the same machine, not with single-process numbers. Nothing asserts on time.
Markdown goes to stdout; --json also writes the raw numbers.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import multiprocessing as mp
import os
import queue as queue_module
import random
import shutil
import sys
import tempfile
import time
import traceback
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CATEGORIES = ("fact", "decision", "learning")
WRITER_KINDS = ("store_memory", "start_ghap", "update_ghap", "resolve_ghap")
READER_KINDS = ("retrieve_memories", "search_experiences")
KINDS = WRITER_KINDS + READER_KINDS
TEXTS_PER_WRITER = 3000  # more than a writer stores in a few minutes
READY_TIMEOUT_S = 300.0
SEED = 11


def log(message: str) -> None:
    print(f"[bench.lake_writers {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def postgres_module():
    """tests/postgres.py (tests/ is not a package): the real server the lake tests use."""
    spec = importlib.util.spec_from_file_location("learnmem_bench_postgres", ROOT / "tests" / "postgres.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


# -- in the worker processes --------------------------------------------------------------------------------


class Record:
    """What one process saw: latencies per kind, failures with the first message of each exception type."""

    def __init__(self, replays: list[int]):
        self.replay_counter, self.replays = replays, defaultdict(int)  # lake commits replayed, per kind
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.starts: dict[str, list[float]] = defaultdict(list)  # time.monotonic() at each call
        self.failures: dict[str, int] = defaultdict(int)
        self.messages: dict[str, dict[str, str]] = defaultdict(dict)
        self.warnings: dict[str, int] = defaultdict(int)
        self.stored_ids: set[str] = set()
        self.ghap_ids: set[str] = set()

    def call(self, kind: str, function, *args, **kwargs):
        self.starts[kind].append(time.monotonic())
        started, replayed = time.perf_counter(), self.replay_counter[0]
        try:
            result = function(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 - every failure counts, whatever it is
            self.latencies[kind].append(time.perf_counter() - started)
            self.replays[kind] += self.replay_counter[0] - replayed
            self.failures[kind] += 1
            name = type(error).__name__
            self.messages[kind].setdefault(name, f"{name}: {' '.join(str(error).split())[:400]}")
            return None
        self.latencies[kind].append(time.perf_counter() - started)
        self.replays[kind] += self.replay_counter[0] - replayed
        if getattr(result, "warning", None):
            self.warnings[kind] += 1
        return result


def _count_replays(counter: list[int]) -> None:
    """Wrap learnmem.storage.lake.retrying so that every replay of a conflicting commit is counted (nothing else changes)."""
    from learnmem.storage import lake

    original = lake.retrying

    def retrying(con, work, first_attempt=1):
        def counted(connection):
            counter[0] += 1
            return work(connection)

        return original(con, counted, first_attempt)

    lake.retrying = retrying


def _open(target: dict, name: str):
    import learnmem

    if target["backend"] == "file":
        return learnmem.open(target["path"])
    return learnmem.open(target["path"], data_path=target["data_path"], project="bench", agent=name)


def _memory_texts(writer: int, writers: int) -> list[str]:
    from bench import corpus

    records = corpus.memories(writers * TEXTS_PER_WRITER).records
    return [records[index]["content"] for index in range(writer, len(records), writers)]


def _queries() -> tuple[list[str], list[str]]:
    from bench import corpus
    from bench.ghap import corpus as ghap_corpus

    rng = random.Random(SEED + 5)
    experience_queries = []
    for _ in range(200):
        draft = ghap_corpus.draft(rng)
        experience_queries.append(rng.choice((draft["goal"], draft["falsified"]["surprise"], draft["hypothesis"])))
    return [query.text for query in corpus.queries(200)], experience_queries


def _ghap_cycle(lm, record: Record, rng: random.Random) -> None:
    from bench.ghap import corpus as ghap_corpus

    draft = ghap_corpus.draft(rng)
    started = record.call("start_ghap", lm.start_ghap, **{key: draft[key] for key in
                                                          ("domain", "strategy", "goal", "hypothesis", "action",
                                                           "prediction")})
    if started is None:
        return
    record.ghap_ids.add(started.id)
    record.call("update_ghap", lm.update_ghap, note=draft["note"])
    if rng.random() < 0.5:
        record.call("resolve_ghap", lm.resolve_ghap, "confirmed", draft["confirmed"],
                    lesson=dict(draft["lesson"]))
    else:
        falsified = draft["falsified"]
        record.call("resolve_ghap", lm.resolve_ghap, "falsified", falsified["result"],
                    surprise=falsified["surprise"], root_cause=dict(falsified["root_cause"]),
                    lesson=dict(draft["lesson"]))


def worker(role: str, index: int, target: dict, settings: dict, results, go, start_at) -> None:
    """One process: open, warm up, say ready, wait for the start, loop until the window ends, report."""
    name = f"{role}-{index}"
    os.chdir(target["workdir"])  # not a git repository: no process looks up a HEAD commit for its memories
    replays = [0]
    report: dict = {"name": name, "role": role}
    try:
        if target["backend"] == "lake":
            _count_replays(replays)
        rng = random.Random(SEED * 1000 + index + (500 if role == "reader" else 0))
        opened = time.perf_counter()
        lm = _open(target, name)
        lm.embedder.embed(["warm up"])  # the model loads once, before the window
        record = Record(replays)
        if role == "writer":
            texts = _memory_texts(index, settings["writers"])
            result = lm.store_memory(texts.pop(), rng.choice(CATEGORIES))
            record.stored_ids.add(result.id)
            ghap = index < settings["ghap_writers"]
        else:
            memory_queries, experience_queries = _queries()
            lm.retrieve_memories(memory_queries[-1])
            lm.search_experiences(experience_queries[-1])
        report["warmup_s"] = time.perf_counter() - opened
    except Exception:  # noqa: BLE001 - reported to the parent, which says it
        report["fatal"] = traceback.format_exc()[-2000:]
        results.put(("ready", report))
        return
    results.put(("ready", {"name": name}))
    go.wait()
    start, deadline = start_at.value, start_at.value + settings["seconds"]
    while time.monotonic() < start:
        time.sleep(0.001)
    cpu_before, sched_before = _cpu(), _sched()
    step = 0
    while time.monotonic() < deadline:
        if role == "writer":
            kind_done = record.call("store_memory", lm.store_memory, texts.pop(), rng.choice(CATEGORIES))
            if kind_done is not None and not kind_done.duplicate:
                record.stored_ids.add(kind_done.id)
            step += 1
            if ghap and step % settings["ghap_every"] == 0 and time.monotonic() < deadline:
                _ghap_cycle(lm, record, rng)
        else:
            if step % 2 == 0:
                record.call("retrieve_memories", lm.retrieve_memories, memory_queries[step // 2 % 200])
            else:
                record.call("search_experiences", lm.search_experiences, experience_queries[step // 2 % 200])
            step += 1
    ended = time.monotonic()
    sched_after = _sched()
    report.update({
        "cpu_s": _cpu() - cpu_before, "ended": ended, "busy_s": ended - start,
        "sched": {key: sched_after[key] - sched_before[key] for key in sched_after}, "replays": dict(record.replays),
        "latencies": dict(record.latencies), "starts": dict(record.starts), "failures": dict(record.failures),
        "messages": {kind: dict(found) for kind, found in record.messages.items()},
        "warnings": dict(record.warnings), "stored_ids": sorted(record.stored_ids),
        "ghap_ids": sorted(record.ghap_ids),
    })
    try:
        started = time.perf_counter()
        lm.close()  # a reader writes its memory access counts here
        report["close_s"] = time.perf_counter() - started
    except Exception as error:  # noqa: BLE001 - reported with the results
        report["close_error"] = f"{type(error).__name__}: {error}"[:400]
    results.put(("done", report))


def _cpu() -> float:
    return os.times().user + os.times().system


def _sched() -> dict[str, float]:
    """Seconds on a CPU and waiting in the run queue (for a CPU), of the main thread and of all threads
    (/proc/self/task/*/schedstat; ONNX Runtime and DuckDB run worker threads)."""
    main = [0.0, 0.0]
    every = [0.0, 0.0]
    for task in Path("/proc/self/task").iterdir():
        try:
            running, waiting = (int(x) / 1e9 for x in (task / "schedstat").read_text().split()[:2])
        except (OSError, ValueError):
            continue
        every[0] += running
        every[1] += waiting
        if task.name == str(os.getpid()):
            main = [running, waiting]
    return {"main_run": main[0], "main_wait": main[1], "all_run": every[0], "all_wait": every[1]}


# -- in the parent ------------------------------------------------------------------------------------------


def machine_busy_s() -> float:
    """CPU seconds the whole machine has been busy (/proc/stat)."""
    try:
        with open("/proc/stat") as handle:
            values = [int(x) for x in handle.readline().split()[1:9]]
    except OSError:
        return float("nan")
    return (sum(values) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")


def postgres_cpu_s(target: dict) -> float:
    """CPU seconds of the run's PostgreSQL server: its postmaster (with its ended children) and live backends."""
    pid = target.get("postgres_pid")
    if pid is None:
        return 0.0
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid:
            total += sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
        elif int(fields[1]) == pid:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def prepare(target: dict) -> dict:
    """Create the store and put a few memories and resolved entries in it, so that the readers find something."""
    from bench import corpus
    from bench.ghap import corpus as ghap_corpus

    lm = _open(target, "setup")
    seed = corpus.memories(40, seed=SEED + 1).records
    stored = lm.store_memories([{"content": r["content"], "category": CATEGORIES[i % 3]} for i, r in enumerate(seed)])
    rng = random.Random(SEED + 2)
    for _ in range(4):
        draft = ghap_corpus.draft(rng)
        lm.start_ghap(**{key: draft[key] for key in ("domain", "strategy", "goal", "hypothesis", "action",
                                                     "prediction")})
        lm.resolve_ghap("confirmed", draft["confirmed"], lesson=dict(draft["lesson"]))
    counts = lm.info().counts
    lm.close()
    return {"memories": counts.get("memories", len(stored)), "ghap_entries": counts.get("ghap_entries", 4)}


def run_one(label: str, target: dict, settings: dict) -> dict:
    """One backend: spawn the processes, start them together, collect their reports, check the store."""
    log(f"{label}: preparing the store")
    before = prepare(target)
    context = mp.get_context("spawn")
    results, go, start_at = context.Queue(), context.Event(), context.Value("d", 0.0)
    processes = []
    roles = [("writer", n) for n in range(settings["writers"])] + [("reader", n) for n in range(settings["readers"])]
    for role, index in roles:
        process = context.Process(target=worker, args=(role, index, target, settings, results, go, start_at),
                                  name=f"{role}-{index}", daemon=True)
        process.start()
        processes.append(process)
    log(f"{label}: {len(processes)} processes started; waiting for them to load the model and warm up")
    ready, fatal = 0, []
    deadline = time.monotonic() + READY_TIMEOUT_S
    while ready + len(fatal) < len(processes):
        kind, report = results.get(timeout=max(deadline - time.monotonic(), 1))
        if "fatal" in report:
            fatal.append(report)
            log(f"{label}: {report['name']} failed before the window:\n{report['fatal']}")
        else:
            ready += 1
    start_at.value = time.monotonic() + 0.5
    busy_before, server_before = machine_busy_s(), postgres_cpu_s(target)
    go.set()
    log(f"{label}: {ready} processes running for {settings['seconds']} s")
    reports, busy_after, server_after, first_end = [], float("nan"), float("nan"), start_at.value
    while len(reports) < ready:
        try:
            kind, report = results.get(timeout=settings["seconds"] + 600)
        except queue_module.Empty:
            log(f"{label}: a process did not report")
            break
        if kind == "done":
            reports.append(report)
            if len(reports) == 1:
                busy_after, server_after = machine_busy_s(), postgres_cpu_s(target)
                first_end = time.monotonic()
    for process in processes:
        process.join(timeout=60)
    window = max(report["ended"] for report in reports) - start_at.value if reports else float("nan")
    span = first_end - start_at.value + 0.5
    machine_cores, server_cores = (busy_after - busy_before) / span, (server_after - server_before) / span
    after = counts_now(target)
    result = summarise(label, target, settings, reports, fatal, before, after, window, machine_cores,
                       start_at.value)
    if target["backend"] == "lake":
        result["data_files"] = sum(1 for path in Path(target["data_path"]).rglob("*.parquet"))
    result["postgres_cores"] = server_cores
    return result


CHECKS = {  # after the run, through lm.sql (read-only): a lake has no keys to refuse a second row
    "duplicate memory ids": "SELECT count(*) - count(DISTINCT id) FROM memories",
    "duplicate experience axes": "SELECT count(*) FROM (SELECT ghap_id, axis FROM experience_axes GROUP BY ALL "
                                 "HAVING count(*) > 1)",
    "experience axes left unembedded": "SELECT count(*) FROM experience_axes WHERE embedding IS NULL",
}


def counts_now(target: dict) -> dict:
    lm = _open(target, "check")
    counts = dict(lm.info().counts)
    for name, query in CHECKS.items():
        counts[name] = lm.sql(query).fetchone()[0]
    lm.close()
    return counts


def summarise(label, target, settings, reports, fatal, before, after, window, machine_cores, start_at) -> dict:
    from bench.measure import percentile_ms

    kinds: dict = {}
    for kind in KINDS:
        latencies = [value for report in reports for value in report["latencies"].get(kind, [])]
        failures = sum(report["failures"].get(kind, 0) for report in reports)
        messages: dict[str, str] = {}
        for report in reports:
            for name, message in report["messages"].get(kind, {}).items():
                messages.setdefault(name, message)
        if not latencies:
            continue
        timed = [(begun - start_at, value) for report in reports
                 for begun, value in zip(report["starts"].get(kind, []), report["latencies"].get(kind, []))]
        quarter = settings["seconds"] / 4
        first = [value for begun, value in timed if begun < quarter]
        last = [value for begun, value in timed if begun >= settings["seconds"] - quarter]
        kinds[kind] = {
            "p50_first_quarter_ms": percentile_ms(first, 50), "p50_last_quarter_ms": percentile_ms(last, 50),
            "ops": len(latencies), "failures": failures, "ops_per_s": len(latencies) / window,
            "p50_ms": percentile_ms(latencies, 50), "p95_ms": percentile_ms(latencies, 95),
            "max_ms": max(latencies) * 1000, "messages": messages,
            "warnings": sum(report["warnings"].get(kind, 0) for report in reports),
            "replays": sum(report["replays"].get(kind, 0) for report in reports),
        }
    stored = {i for report in reports for i in report["stored_ids"]}
    entries = {i for report in reports for i in report["ghap_ids"]}
    expected_memories = before["memories"] + len(stored)
    expected_entries = before["ghap_entries"] + len(entries)
    total_ops = sum(kind["ops"] for kind in kinds.values())
    return {
        "label": label, "backend": target["backend"], "ghap_writers": settings["ghap_writers"],
        "seconds": settings["seconds"], "window_s": window, "processes": len(reports), "fatal": fatal,
        "ops": total_ops, "ops_per_s": total_ops / window,
        "failures": sum(kind["failures"] for kind in kinds.values()), "kinds": kinds,
        "replays": sum(kind["replays"] for kind in kinds.values()),
        "bench_cpu_cores": sum(report["cpu_s"] for report in reports) / window,
        "time_split": {role: _split([report for report in reports if report["role"] == role])
                       for role in ("writer", "reader")},
        "machine_busy_cores": machine_cores,
        "memories": {"expected": expected_memories, "found": after.get("memories")},
        "ghap_entries": {"expected": expected_entries, "found": after.get("ghap_entries")},
        "checks": {name: after.get(name) for name in CHECKS},
        "close_errors": [report["close_error"] for report in reports if "close_error" in report],
        "warmup_s_max": max((report.get("warmup_s", 0) for report in reports), default=0),
    }


def _split(reports: list[dict]) -> dict[str, float]:
    """Where the processes' main threads spent the window, in shares of it: on a CPU, runnable but waiting for
    one, blocked (file lock, catalog round trips, commit retry backoff, disk, ONNX Runtime's worker threads)."""
    wall = sum(report["busy_s"] for report in reports)
    if not wall:
        return {}
    run = sum(report["sched"]["main_run"] for report in reports) / wall
    wait = sum(report["sched"]["main_wait"] for report in reports) / wall
    return {"on_cpu": run, "waiting_for_cpu": wait, "blocked": max(1 - run - wait, 0.0)}


def run_backend(backend: str, ghap_writers: int, label: str, settings: dict, work: Path) -> dict:
    folder = work / label.replace(" ", "-").replace(",", "")
    (folder / "cwd").mkdir(parents=True)
    settings = dict(settings, ghap_writers=ghap_writers)
    if backend == "file":
        target = {"backend": "file", "path": str(folder / "bench.duckdb"), "workdir": str(folder / "cwd")}
        return run_one(label, target, settings)
    server = postgres_module().PostgresServer.start(folder / "pg")
    try:
        catalog = server.create_database("bench")
        target = {"backend": "lake", "path": "ducklake:postgres:" + catalog, "data_path": str(folder / "data"),
                  "workdir": str(folder / "cwd"),
                  "postgres_pid": int((folder / "pg" / "data" / "postmaster.pid").read_text().split()[0])}
        return run_one(label, target, settings)
    finally:
        for attempt in range(5):  # pg_ctl is a fork: on a busy machine it can fail with ENOMEM once in a while
            try:
                server.stop()
                break
            except OSError as error:
                log(f"stopping PostgreSQL failed ({error}); trying again")
                time.sleep(2 * (attempt + 1))


def plan(args) -> list[tuple[str, int, str]]:
    """(backend, GHAP writers, label) of each run: see the module docstring."""
    runs = []
    if args.backend in ("file", "both"):
        runs.append(("file", args.ghap_writers or 1, "file"))
    if args.backend in ("lake", "both"):
        if args.ghap_writers:
            runs.append(("lake", args.ghap_writers, "lake"))
        else:
            runs.append(("lake", 1, "lake"))
            if args.writers > 1:
                runs.append(("lake", args.writers, "lake, all cycle"))
    return runs


def _number(value: float, digits: int = 1) -> str:
    return "-" if math.isnan(value) else f"{value:,.{digits}f}"


def markdown(results: list[dict], settings: dict, machine: dict) -> str:
    labels = [result["label"] for result in results]
    lines = [(f"{settings['writers']} writers + {settings['readers']} readers, {settings['seconds']} s per run; "
              f"machine: {machine['cpu']}, {machine['cores']}, {machine['date']}; git {machine['git']}"), ""]
    lines.append("| | " + " | ".join(labels) + " |")
    lines.append("|---|" + "---|" * len(labels))

    def row(name: str, cells) -> None:
        lines.append(f"| {name} | " + " | ".join(cells) + " |")

    row("GHAP writers", [str(r["ghap_writers"]) for r in results])
    row("operations/s (all kinds)", [_number(r["ops_per_s"]) for r in results])
    row("failed operations", [f"**{r['failures']}**" for r in results])
    for kind in KINDS:
        cells = []
        for r in results:
            k = r["kinds"].get(kind)
            cells.append("-" if k is None else f"{_number(k['ops_per_s'], 2)}/s, p50 {_number(k['p50_ms'], 0)} / "
                                                f"p95 {_number(k['p95_ms'], 0)} / max {_number(k['max_ms'], 0)} ms"
                                                + (f", **{k['failures']} failed**" if k["failures"] else ""))
        row(kind, cells)
    for kind in ("store_memory", "retrieve_memories", "search_experiences"):
        row(f"{kind} p50, first / last quarter of the window",
            [f"{_number(r['kinds'][kind]['p50_first_quarter_ms'], 0)} / "
             f"{_number(r['kinds'][kind]['p50_last_quarter_ms'], 0)} ms" if kind in r["kinds"] else "-"
             for r in results])
    row("start_ghap warnings", [str(r["kinds"].get("start_ghap", {}).get("warnings", 0)) for r in results])
    row("lake commits replayed after a conflict", [
        "-" if r["backend"] != "lake" else f"{r['replays']}" + "".join(
            f", {kind} {k['replays']}" for kind, k in r["kinds"].items() if k["replays"]) for r in results])
    row("CPU in the window, cores: bench processes / PostgreSQL / all else / whole machine",
        [f"{_number(r['bench_cpu_cores'], 2)} / {_number(r['postgres_cores'], 2)} / "
         f"{_number(max(r['machine_busy_cores'] - r['bench_cpu_cores'] - r['postgres_cores'], 0), 2)} / "
         f"{_number(r['machine_busy_cores'], 2)}" for r in results])
    row("CPU of the bench processes per operation (all kinds)",
        [f"{_number(r['bench_cpu_cores'] * r['window_s'] / r['ops'] * 1000, 0)} ms" if r["ops"] else "-"
         for r in results])
    for role in ("writer", "reader"):
        row(f"{role}s' time: on a CPU / waiting for a CPU / blocked",
            [" / ".join(f"{r['time_split'][role][key]:.0%}" for key in ("on_cpu", "waiting_for_cpu", "blocked"))
             if r["time_split"].get(role) else "-" for r in results])
    row("lake data files at the end (inserts under 10 rows are inlined in the catalog)", [str(r.get("data_files", "-")) for r in results])
    row("memories found / acknowledged", [f"{r['memories']['found']} / {r['memories']['expected']}" for r in results])
    row("GHAP entries found / started", [f"{r['ghap_entries']['found']} / {r['ghap_entries']['expected']}"
                                         for r in results])
    for name in CHECKS:
        row(name, [str(r["checks"][name]) for r in results])
    lines.append("")
    for r in results:
        for kind, k in r["kinds"].items():
            for message in k["messages"].values():
                lines.append(f"- {r['label']}, {kind}: {message}")
        for report in r["fatal"]:
            lines.append(f"- {r['label']}: {report['name']} did not start: {report['fatal'].splitlines()[-1]}")
        for error in r["close_errors"]:
            lines.append(f"- {r['label']}, close: {error}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.lake_writers", description="Many agents at once on a DuckLake and on one local file (see the module docstring).")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the timed window per run")
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--readers", type=int, default=2)
    parser.add_argument("--backend", choices=("file", "lake", "both"), default="both")
    parser.add_argument("--ghap-every", type=int, default=3, help="a GHAP cycle after this many memories")
    parser.add_argument("--ghap-writers", type=int, help="writers that run GHAP cycles, on every run "
                                                         "(default: file 1; lake 1, then all)")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument("--workdir", type=Path, help="where stores and servers go (default: a temporary folder)")
    args = parser.parse_args(argv)
    from bench.measure import machine_info

    machine = machine_info("python -m bench.lake_writers " + " ".join(sys.argv[1:] if argv is None else argv))
    settings = {"seconds": args.seconds, "writers": args.writers, "readers": args.readers,
                "ghap_every": args.ghap_every}
    work = Path(tempfile.mkdtemp(prefix="lake-writers-", dir=args.workdir))
    results = []
    try:
        for backend, ghap_writers, label in plan(args):
            result = run_backend(backend, ghap_writers, label, settings, work)
            log(f"{label}: {result['ops_per_s']:.1f} ops/s, {result['failures']} failed")
            results.append(result)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    machine["load average at end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(markdown(results, settings, machine))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"machine": machine, "settings": settings, "results": results}, indent=2,
                                        default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
