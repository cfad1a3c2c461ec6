"""The GHAP benchmark driver: `python -m bench.ghap [--quick] [--out bench/ghap/RESULTS.md]`.

On a learnmem file holding 10,000 resolved GHAP entries (bench/ghap/corpus.py:
seeded, templated coding-agent content, imported through `Learnmem.import_ghap`
and embedded with the real all-MiniLM-L6-v2; cached under bench/out/ghap/):

1. Library calls through one warm facade handle (`learnmem.open`, model
   loaded): start, update (a new iteration, a note), get_active p50/p95 over
   200+ calls each, in the cycle an agent makes them; resolve as falsified
   (surprise, root cause, lesson: four axes embedded) p50/p95; a start that
   supersedes an active entry; list_ghap_entries (limit 20, with and without
   filters) and search_experiences (full and surprise axes, with and without
   filters, query embedding included) at 10k entries; the first search after a
   resolve (snapshot reload).
2. `learnmem ghap status` as a fresh process, end to end (30 runs, p50/p95),
   and the modules it imports (`python -X importtime`).
3. "Measure both": a burst of 20 start/update/get_active calls with one
   connection per call (the library) and with ONE DuckDB connection held for
   the burst (ghap.py's own functions over a store shim that hands out that
   connection), and the delay either imposes on a second process that writes
   (or reads) during the burst. The library is not changed.

Targets (from the issue): start/update/get_active p95 <= 25 ms; resolve p95 <=
150 ms; list p95 <= 20 ms at 10k; search_experiences p95 <= 25 ms at 10k;
`learnmem ghap status` p95 <= 200 ms. Whatever misses its target is profiled
(cProfile, top 15 by cumulative time). Markdown goes to stdout (and --out);
progress to stderr; raw numbers to bench/out/ghap/. Benchmarks are not tests:
nothing asserts on time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import re
import shlex
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

import learnmem
from bench.ghap import corpus
from bench.ghap.scenarios import QUERIES, SCENARIOS
from bench.measure import load_average, machine_info, median, percentile_ms
from bench.profiles import profile_markdown

GHAP_OUT = corpus.GHAP_OUT
WORK = GHAP_OUT / "work"
ROOT = Path(__file__).resolve().parents[2]
TARGETS_MS = {"start": 25, "update": 25, "get_active": 25, "resolve": 150, "list": 20, "search": 25, "status": 200}
HEAVY = ("numpy", "pyarrow", "onnxruntime", "tokenizers", "tree_sitter", "hdbscan", "sklearn", "scipy", "pandas",
         "dulwich", "snowballstemmer", "duckdb", "filelock", "learnmem.api", "learnmem.learning.experiences")
log = corpus.log


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m bench.ghap", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,000 entries and few repetitions: a smoke run")
    parser.add_argument("--out", type=Path, help="also write the markdown report to this file")
    parser.add_argument("--entries", type=int, help="corpus size (default 10,000; quick 1,000)")
    parser.add_argument("--cycles", type=int, help="start/update/resolve cycles (default 220; quick 20)")
    parser.add_argument("--no-profile", action="store_true", help="skip the cProfile runs of the misses")
    parser.add_argument("--profile-all", action="store_true", help="profile every operation, met or not")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the cached corpus file")
    args = parser.parse_args(argv)
    quick = args.quick
    return {
        "quick": quick, "out": args.out, "entries": args.entries or (1_000 if quick else 10_000), "seed": 7,
        "cycles": args.cycles or (20 if quick else 220), "warmup": 3 if quick else 10,
        "reads": 30 if quick else 200, "cli_runs": 8 if quick else 30, "bursts": 4 if quick else 15,
        "profile": not args.no_profile, "profile_all": args.profile_all, "rebuild": args.rebuild,
    }


# -- helpers ---------------------------------------------------------------------------------------


def timed(fn, *args, **kwargs):
    started = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - started


def stats(seconds: list[float]) -> dict:
    return {"n": len(seconds), "p50_ms": percentile_ms(seconds, 50), "p95_ms": percentile_ms(seconds, 95),
            "max_ms": max(seconds) * 1000 if seconds else float("nan"),
            "mean_ms": sum(seconds) / len(seconds) * 1000 if seconds else float("nan")}


def copy_db(source: Path, target: Path) -> Path:
    for suffix in ("", ".wal", ".lock"):
        Path(str(target) + suffix).unlink(missing_ok=True)
    for suffix in ("", ".wal"):
        if Path(str(source) + suffix).exists():
            shutil.copyfile(str(source) + suffix, str(target) + suffix)
    return target


def _func_name(func) -> str:
    filename, line, name = func
    if filename == "~":
        return name
    path = filename.replace(str(ROOT) + "/", "")
    if "site-packages/" in path:
        path = path.split("site-packages/", 1)[1]
    elif "/lib/python3" in path:
        path = "stdlib/" + path.split("/lib/python3", 1)[1].split("/", 1)[1]
    return f"{path}:{line}({name})"


def profile_rows(profiler_or_stats, calls: int, top: int = 15) -> dict:
    """Top functions by cumulative time (and by own time) of a profile covering `calls` calls."""
    stats_ = (profiler_or_stats if isinstance(profiler_or_stats, pstats.Stats)
              else pstats.Stats(profiler_or_stats, stream=io.StringIO()))

    def rows(key: str) -> list[dict]:
        stats_.sort_stats(key)
        out = []
        for func in stats_.fcn_list[:top]:
            _cc, nc, tt, ct, _ = stats_.stats[func]
            out.append({"function": _func_name(func), "calls": nc, "tottime": tt, "cumtime": ct})
        return out

    return {"calls": calls, "total_tt": stats_.total_tt, "cumulative": rows("cumulative"), "tottime": rows("tottime")}


class Profiler:
    """A cProfile.Profile switched on only around the calls that matter."""

    def __init__(self):
        self.profile = cProfile.Profile()
        self.calls = 0
        self.wall = 0.0

    def call(self, fn, *args, **kwargs):
        started = time.perf_counter()
        self.profile.enable()
        try:
            return fn(*args, **kwargs)
        finally:
            self.profile.disable()
            self.wall += time.perf_counter() - started
            self.calls += 1

    def result(self) -> dict:
        return {**profile_rows(self.profile, self.calls), "wall_profiled": self.wall}


class CpuMeter:
    """CPU time used by OTHER processes while a section runs, in cores (0 = the machine was ours, 2 = both
    cores busy with other work): the whole machine's busy time from /proc/stat minus this process's and its
    waited-for children's. A better witness of a shared machine than the lagging load average."""

    def __init__(self):
        self.sections: dict[str, float] = {}

    @staticmethod
    def _busy() -> float:
        try:
            with open("/proc/stat") as handle:
                values = [int(x) for x in handle.readline().split()[1:9]]
        except OSError:
            return float("nan")
        return (sum(values) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")

    @staticmethod
    def _own() -> float:
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    @contextmanager
    def section(self, name: str):
        busy, own, started = self._busy(), self._own(), time.perf_counter()
        try:
            yield
        finally:
            wall = time.perf_counter() - started
            others = (self._busy() - busy) - (self._own() - own)
            self.sections[name] = max(others, 0.0) / wall if wall > 0 else float("nan")
            log(f"{name}: other processes used {self.sections[name]:.2f} cores on average")


# -- 1. library calls ------------------------------------------------------------------------------


class Agent:
    """Realistic texts for the live calls, drawn from the corpus templates with their own seed."""

    def __init__(self, seed: int = 101):
        self.rng = random.Random(seed)

    def draft(self) -> dict:
        return corpus.draft(self.rng)

    @staticmethod
    def start_args(d: dict) -> dict:
        return {key: d[key] for key in ("domain", "strategy", "goal", "hypothesis", "action", "prediction")}

    @staticmethod
    def iteration_args(d: dict) -> dict:
        if d["others"]:
            hypothesis, action, prediction = d["others"][0]
        else:
            hypothesis, action, prediction = d["hypothesis"] + " (narrowed)", d["action"] + " again", d["prediction"]
        return {"hypothesis": hypothesis, "action": action, "prediction": prediction}

    @staticmethod
    def falsified_args(d: dict) -> dict:
        f = d["falsified"]
        return {"status": "falsified", "result": f["result"], "surprise": f["surprise"],
                "root_cause": dict(f["root_cause"]), "lesson": dict(d["lesson"])}


def read_section(lm, cfg: dict, last_created: datetime) -> dict:
    """list_ghap_entries and search_experiences at the corpus size (before any write)."""
    out: dict = {}
    since = (last_created - timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
    list_cases = {
        "no filter": {},
        "domain=debugging": {"domain": "debugging"},
        "outcome=falsified": {"outcome": "falsified"},
        "since (last 30 days)": {"since": since},
        "domain=performance + outcome=confirmed": {"domain": "performance", "outcome": "confirmed"},
        "outcome=active (none is)": {"outcome": "active"},
    }
    out["list"] = {}
    for label, kwargs in list_cases.items():
        for _ in range(3):
            lm.list_ghap_entries(limit=20, **kwargs)
        times, counts = [], []
        for _ in range(cfg["reads"]):
            rows, seconds = timed(lm.list_ghap_entries, limit=20, **kwargs)
            times.append(seconds)
            counts.append(len(rows))
        out["list"][label] = {**stats(times), "rows": median(counts)}
        log(f"list {label}: p50 {out['list'][label]['p50_ms']:.1f} ms p95 {out['list'][label]['p95_ms']:.1f} ms")

    _, first = timed(lm.search_experiences, QUERIES[0])
    out["search_first_ms"] = first * 1000
    search_cases = {
        "full, no filter": {"axis": "full"},
        "full, domain=debugging": {"axis": "full", "domain": "debugging"},
        "full, outcome=falsified": {"axis": "full", "outcome": "falsified"},
        "full, domain=testing + outcome=confirmed": {"axis": "full", "domain": "testing", "outcome": "confirmed"},
        "surprise, no filter": {"axis": "surprise"},
        "surprise, domain=performance": {"axis": "surprise", "domain": "performance"},
    }
    out["search"] = {}
    for label, kwargs in search_cases.items():
        lm.search_experiences(QUERIES[1], **kwargs)
        times, counts = [], []
        for i in range(cfg["reads"]):
            hits, seconds = timed(lm.search_experiences, QUERIES[i % len(QUERIES)], **kwargs)
            times.append(seconds)
            counts.append(len(hits))
        out["search"][label] = {**stats(times), "hits": median(counts)}
        log(f"search {label}: p50 {out['search'][label]['p50_ms']:.1f} ms p95 {out['search'][label]['p95_ms']:.1f} ms")
    embedder = lm.embedder
    out["query_embedding"] = stats([timed(embedder.embed, [QUERIES[i % len(QUERIES)]])[1] for i in range(cfg["reads"])])
    # A read-only handle never looks for pending axes (it cannot embed them).
    ro = learnmem.open(lm.path, read_only=True, embedder=embedder)
    ro.search_experiences(QUERIES[2])
    times = [timed(ro.search_experiences, QUERIES[i % len(QUERIES)])[1] for i in range(cfg["reads"])]
    out["search_read_only"] = stats(times)
    ro.close()
    # A sample hit, to show the search returns sensible experiences.
    sample = lm.search_experiences("timeout caused by connection pool exhaustion", axis="surprise", limit=3)
    out["sample_hits"] = [{"score": round(h.score, 3), "goal": h.goal, "surprise": h.surprise} for h in sample]
    return out


def write_section(lm, cfg: dict) -> dict:
    """The agent's cycle, `cycles` times: start, get_active, update (iteration), update (note), get_active,
    resolve falsified (4 axes embedded); every 10th cycle a search right after the resolve."""
    agent = Agent()
    times: dict[str, list[float]] = {k: [] for k in ("start", "get_active", "update_iteration", "update_note",
                                                     "resolve", "search_after_resolve")}
    tiers: dict[str, int] = {}
    every = 3 if cfg["quick"] else 10
    for cycle in range(cfg["cycles"] + cfg["warmup"]):
        keep = cycle >= cfg["warmup"]
        d = agent.draft()
        result, t_start = timed(lm.start_ghap, **agent.start_args(d))
        assert result.warning is None, result.warning
        active, t_get1 = timed(lm.get_active_ghap)
        assert active.has_active and active.id == result.id
        update, t_iter = timed(lm.update_ghap, **agent.iteration_args(d))
        _, t_note = timed(lm.update_ghap, note=d["note"])
        active, t_get2 = timed(lm.get_active_ghap)
        assert active.iteration_count == update.iteration_count
        resolved, t_resolve = timed(lm.resolve_ghap, **agent.falsified_args(d))
        tiers[resolved.confidence_tier] = tiers.get(resolved.confidence_tier, 0) + 1
        if keep:
            times["start"].append(t_start)
            times["get_active"] += [t_get1, t_get2]
            times["update_iteration"].append(t_iter)
            times["update_note"].append(t_note)
            times["resolve"].append(t_resolve)
            if cycle % every == 0:
                times["search_after_resolve"].append(timed(lm.search_experiences, QUERIES[cycle % len(QUERIES)])[1])
        if (cycle + 1) % 50 == 0:
            log(f"cycle {cycle + 1}: start {t_start * 1000:.1f} ms, resolve {t_resolve * 1000:.1f} ms")
    pending = lm.sql("SELECT count(*) FROM experience_axes WHERE embedding IS NULL").fetchone()[0]
    out = {key: stats(values) for key, values in times.items() if values}
    out["update"] = stats(times["update_iteration"] + times["update_note"])
    out["tiers"] = tiers
    out["pending_after"] = pending

    # A start that supersedes an active entry (it abandons it: 2 axes recorded, embedded later).
    lm.start_ghap(**Agent.start_args(agent.draft()))
    supersede = []
    for _ in range(max(cfg["cycles"] // 4, 5)):
        result, seconds = timed(lm.start_ghap, **Agent.start_args(agent.draft()))
        assert result.warning
        supersede.append(seconds)
    out["start_superseding"] = stats(supersede)
    _, embed_after = timed(lm.search_experiences, QUERIES[3])
    out["search_embedding_superseded_ms"] = embed_after * 1000
    out["superseded"] = len(supersede) + 1
    lm.abandon_ghap("benchmark over")
    log(f"writes: start p95 {out['start']['p95_ms']:.1f} ms, update p95 {out['update']['p95_ms']:.1f} ms, "
        f"get_active p95 {out['get_active']['p95_ms']:.1f} ms, resolve p95 {out['resolve']['p95_ms']:.1f} ms")
    return out


# -- 2. the CLI in a fresh process -------------------------------------------------------------------


def _learnmem_exe() -> str:
    return str(Path(sys.executable).parent / "learnmem")


def cli_section(db: Path, cfg: dict) -> dict:
    """`learnmem ghap status --db DB` end to end, with an active entry; imports; reference floors."""
    lm = learnmem.open(db)
    d = Agent(seed=202).draft()
    lm.start_ghap(**Agent.start_args(d))
    lm.close()
    command = [_learnmem_exe(), "ghap", "status", "--db", str(db)]
    env = installed_env()
    for _ in range(2):  # page cache and .pyc warm
        subprocess.run(command, capture_output=True, check=True, env=env)
    times, as_is, output = [], [], ""
    for _ in range(cfg["cli_runs"]):
        for environment, into in ((env, times), (dict(os.environ), as_is)):
            started = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, check=False, env=environment)
            into.append(time.perf_counter() - started)
            output = done.stdout.strip() or done.stderr.strip()
            if done.returncode:
                log(f"ghap status failed ({done.returncode}): {output[-300:]}")
    out = {"command": "learnmem ghap status --db DB", "status": stats(times), "status_as_is": stats(as_is),
           "output": output.splitlines()[:2], "returncode": done.returncode,
           "dont_write_bytecode": os.environ.get("PYTHONDONTWRITEBYTECODE", "")}
    floors = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import duckdb'": [sys.executable, "-c", "import duckdb"],
        "python -c 'import learnmem.cli.app'": [sys.executable, "-c", "import learnmem.cli.app"],
        "learnmem --help": [_learnmem_exe(), "--help"],
    }
    out["floors"] = {}
    for label, cmd in floors.items():
        runs = []
        for _ in range(max(cfg["cli_runs"] // 3, 5)):
            started = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=True, env=env)
            runs.append(time.perf_counter() - started)
        out["floors"][label] = stats(runs)
    out["importtime"] = importtime(db)
    log(f"ghap status: p50 {out['status']['p50_ms']:.0f} ms p95 {out['status']['p95_ms']:.0f} ms; heavy imports: "
        f"{', '.join(out['importtime']['heavy']) or 'none'}")
    return out


def installed_env() -> dict:
    """The environment with bytecode caching on, as for an installed package (pip compiles .pyc files).

    This session's environment may set PYTHONDONTWRITEBYTECODE, which makes every fresh process compile the
    learnmem modules from source; the .pyc files go to bench/out/ghap/pycache, not into the checkout."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(GHAP_OUT / "pycache")
    return env


def importtime(db: Path) -> dict:
    """`python -X importtime` of the same command: the heavy modules it imports and the top packages."""
    code = "import sys; from learnmem.cli import main; sys.argv = ['learnmem'] + sys.argv[1:]; sys.exit(main())"
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code, "ghap", "status", "--db", str(db)],
                          capture_output=True, text=True, check=False, env=installed_env())
    rows = []
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)", line)
        if match:
            rows.append((match.group(4), int(match.group(1)), int(match.group(2)), len(match.group(3)) - 1))
    modules = {name for name, *_ in rows}
    heavy = [name for name in HEAVY if name in modules]
    top_level = sorted((r for r in rows if r[3] == 0), key=lambda r: -r[2])[:12]
    total_us = sum(r[2] for r in rows if r[3] == 0)
    return {"modules": len(modules), "heavy": heavy, "total_ms": total_us / 1000,
            "top": [{"module": name, "cumulative_ms": cum / 1000, "self_ms": self_ / 1000}
                    for name, self_, cum, _ in top_level],
            "heavy_ms": {name: next(r[2] for r in rows if r[0] == name) / 1000 for name in heavy}}


def profile_cli(db: Path) -> dict:
    """cProfile of one `ghap status` process (imports included)."""
    target = WORK / "status.prof"
    code = ("import cProfile, sys; target = sys.argv[1]; sys.argv = ['learnmem', 'ghap', 'status', '--db', sys.argv[2]]\n"
            "p = cProfile.Profile(); p.enable()\n"
            "from learnmem.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "p.disable(); p.dump_stats(target)")
    subprocess.run([sys.executable, "-c", code, str(target), str(db)], capture_output=True, check=True,
                   env=installed_env())
    return profile_rows(pstats.Stats(str(target), stream=io.StringIO()), 1)


# -- 3. burst: one connection per call vs one held for the burst --------------------------------------


class HeldStore:
    """A stand-in for learnmem.storage.store.Store that hands out ONE read-write connection for a whole burst.

    Entering it takes what a library writer takes (the process lock and `<file>.lock`) and attaches the file
    once; each write() is a transaction on that connection (BEGIN ... COMMIT / ROLLBACK), each
    read() uses it as is. ghap.py's functions run unchanged on it: same validation, same named queries.
    """

    def __init__(self, store):
        self.store = store
        self.read_only = False
        self.con = None

    def __enter__(self):
        self._locks = self.store._process_lock, self.store._file_lock
        self._locks[0].acquire()
        self._locks[1].acquire()
        self.con = self.store._connect(read_only=False)
        return self

    def __exit__(self, *exc_info):
        try:
            self.store._disconnect(self.con)
        finally:
            self._locks[1].release()
            self._locks[0].release()

    @contextmanager
    def read(self):
        yield self.con

    @contextmanager
    def write(self):
        self.con.begin()
        try:
            yield self.con
            self.con.commit()
        except BaseException:
            self.con.rollback()
            raise


BURST_CALLS = 20


def burst_calls(store, d: dict) -> list:
    """The 20 calls of a burst, as (name, thunk): start, get_active, then 9 x (update, get_active)."""
    from learnmem.learning import ghap

    calls = [("start", lambda: ghap.start_ghap(store, **Agent.start_args(d))), ("get_active", lambda: ghap.get_active_ghap(store))]
    triples = [Agent.iteration_args(d), {k: d[k] for k in ("hypothesis", "action", "prediction")}]
    for i in range(9):
        if i % 2 == 0:
            calls.append(("update", lambda t=triples[(i // 2) % 2]: ghap.update_ghap(store, **t)))
        else:
            calls.append(("update", lambda i=i: ghap.update_ghap(store, note=f"{d['note']} ({i})")))
        calls.append(("get_active", lambda: ghap.get_active_ghap(store)))
    assert len(calls) == BURST_CALLS
    return calls


def run_burst(lm, mode: str, d: dict, signal_after: int | None = None, signal=None, clean_up: bool = True) -> dict:
    """One burst; `signal()` is called after call number `signal_after` (1-based). Returns timings.
    The entry is abandoned afterwards (untimed) unless `clean_up` is false (the caller does it)."""
    per_call: dict[str, list[float]] = {}
    started = time.perf_counter()
    if mode == "held":
        with HeldStore(lm.store) as held:
            connected = time.perf_counter() - started
            for number, (name, thunk) in enumerate(burst_calls(held, d), 1):
                _, seconds = timed(thunk)
                per_call.setdefault(name, []).append(seconds)
                if number == signal_after:
                    signal()
    else:
        connected = 0.0
        for number, (name, thunk) in enumerate(burst_calls(lm.store, d), 1):
            _, seconds = timed(thunk)
            per_call.setdefault(name, []).append(seconds)
            if number == signal_after:
                signal()
    total = time.perf_counter() - started
    if clean_up:
        lm.abandon_ghap("burst over")  # outside the burst, untimed
    return {"total": total, "connect": connected, "per_call": per_call}


class Contender:
    """The second process (bench/ghap/contender.py), started once and warm."""

    def __init__(self, db: Path):
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.ghap.contender", str(db)], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        assert self.proc.stdout.readline().strip() == "ready"

    def send(self, command: str) -> None:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def answer(self) -> float | str:
        line = self.proc.stdout.readline().strip()
        try:
            return float(line) / 1000
        except ValueError:
            return line

    def close(self) -> None:
        self.send("q")
        self.proc.wait(timeout=30)


def duckdb_floor(db: Path, reps: int) -> dict:
    """What one call's file access costs with DuckDB alone, opened two ways: `duckdb.connect` per call (a new
    DuckDB instance each time: what store.py did before) and ATTACH/DETACH on one in-memory instance (what it
    does now). A read is open + SELECT of the active entry + close; a write is open + a one-row UPDATE of
    ghap_active (as update_ghap's note) + close (the close checkpoints the WAL into the file)."""
    import duckdb

    setup = learnmem.open(db)
    if not setup.get_active_ghap().has_active:
        setup.start_ghap("debugging", "read-the-error", "floor goal", "floor hypothesis about the cache",
                         "floor action", "floor prediction of a warm cache")
    setup.close()
    quoted = "'" + str(db).replace("'", "''") + "'"
    host = duckdb.connect(":memory:")

    def opener(way: str, read_only: bool):
        if way == "connect":
            con = duckdb.connect(str(db), read_only=read_only)
            return con, con.close
        con = host.cursor()
        con.execute(f"ATTACH {quoted} AS floor {'(READ_ONLY)' if read_only else ''}")
        con.execute("USE floor")

        def close():
            con.execute("USE memory; DETACH floor")
            con.close()
        return con, close

    out: dict = {}
    for way in ("connect", "attach"):
        parts: dict[str, list[float]] = {k: [] for k in ("ro_connect", "ro_query", "ro_close", "rw_connect",
                                                         "rw_update", "rw_close")}
        for _ in range(reps):
            t0 = time.perf_counter()
            con, close = opener(way, True)
            t1 = time.perf_counter()
            con.execute("SELECT id FROM ghap_active").fetchall()
            t2 = time.perf_counter()
            close()
            t3 = time.perf_counter()
            parts["ro_connect"].append(t1 - t0)
            parts["ro_query"].append(t2 - t1)
            parts["ro_close"].append(t3 - t2)
            t0 = time.perf_counter()
            con, close = opener(way, False)
            t1 = time.perf_counter()
            con.execute("UPDATE ghap_active SET notes = list_append(notes, 'floor')")
            t2 = time.perf_counter()
            close()
            t3 = time.perf_counter()
            for key, value in zip(("rw_connect", "rw_update", "rw_close"), (t1 - t0, t2 - t1, t3 - t2)):
                parts[key].append(value)
        way_out = {key: stats(values) for key, values in parts.items()}
        way_out["ro_total"] = stats([sum(x) for x in zip(*(parts[k] for k in ("ro_connect", "ro_query", "ro_close")))])
        way_out["rw_total"] = stats([sum(x) for x in zip(*(parts[k] for k in ("rw_connect", "rw_update",
                                                                                "rw_close")))])
        log(f"duckdb floor ({way}): read {way_out['ro_total']['p50_ms']:.1f} ms, "
            f"write {way_out['rw_total']['p50_ms']:.1f} ms at the median")
        out[way] = way_out
    host.close()
    learnmem.open(db).abandon_ghap("floor measured")
    return out


def burst_section(db: Path, embedder, cfg: dict) -> dict:
    out: dict = {"bursts": cfg["bursts"], "calls": BURST_CALLS, "floor": duckdb_floor(db, 10 if cfg["quick"] else 50)}
    lm = learnmem.open(db, embedder=embedder)
    agent = Agent(seed=303)
    for mode in ("per_call", "held"):
        run_burst(lm, mode, agent.draft())  # warm
        runs = [run_burst(lm, mode, agent.draft()) for _ in range(cfg["bursts"])]
        names = runs[0]["per_call"].keys()
        out[mode] = {"burst": stats([r["total"] for r in runs]), "connect": stats([r["connect"] for r in runs]),
                     "per_call": {name: stats([s for r in runs for s in r["per_call"][name]]) for name in names},
                     "all_calls": stats([s for r in runs for v in r["per_call"].values() for s in v])}
        log(f"burst {mode}: median {out[mode]['burst']['p50_ms']:.0f} ms for {BURST_CALLS} calls")

    contender = Contender(db)
    rng = random.Random(9)
    try:
        for kind in ("w", "r"):
            idle = []
            for _ in range(cfg["bursts"]):
                contender.send(kind)
                idle.append(contender.answer())
            out[f"contender_{kind}_idle"] = stats([x for x in idle if isinstance(x, float)])
            for mode in ("per_call", "held"):
                waits, bursts, errors = [], [], []
                for _ in range(cfg["bursts"]):
                    after = rng.randint(1, BURST_CALLS - 2)
                    result = run_burst(lm, mode, agent.draft(), after, lambda kind=kind: contender.send(kind),
                                       clean_up=False)
                    answer = contender.answer()  # before the clean-up, so that the wait is the burst's alone
                    lm.abandon_ghap("burst over")
                    if isinstance(answer, float):
                        waits.append(answer)
                    else:
                        errors.append(answer)
                    bursts.append(result["total"])
                out[f"contender_{kind}_{mode}"] = {"wait": stats(waits), "burst": stats(bursts), "errors": errors}
                log(f"contender {kind} during {mode} bursts: p50 {out[f'contender_{kind}_{mode}']['wait']['p50_ms']:.0f} ms "
                    f"max {out[f'contender_{kind}_{mode}']['wait']['max_ms']:.0f} ms")
    finally:
        contender.close()
    lm.close()
    return out


# -- 4. ONNX Runtime's spinning threads -----------------------------------------------------------------


def no_spin_embedder():
    """The library's embedder with its ONNX Runtime session rebuilt with `session.intra_op.allow_spinning=0`.

    Same model file and options as learnmem.embedding.embed.OnnxEmbedder; only the thread pool's spin-waiting after
    a run is off. A benchmark-side variant: the library is not changed."""
    import onnxruntime as ort

    from learnmem.embedding.embed import load_embedder

    embedder = load_embedder()
    options = ort.SessionOptions()
    options.intra_op_num_threads = os.cpu_count() or 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    embedder._session = ort.InferenceSession(str(embedder.model_dir / "model.onnx"), options,
                                             providers=["CPUExecutionProvider"])
    embedder.embed(["warm up"])
    return embedder


def spin_section(db: Path, embedder, cfg: dict) -> dict:
    """The library's embedder (spinning on, ONNX Runtime's default) against the same model with spinning off:
    a query embedding and the read-only open right after it; search_experiences; start + resolve cycles.
    Interleaved in blocks so that both see the same background load."""
    import duckdb

    quiet = no_spin_embedder()
    handles = {"spin": learnmem.open(db, embedder=embedder), "no_spin": learnmem.open(db, embedder=quiet)}
    for lm in handles.values():
        lm.search_experiences(QUERIES[0])
    out: dict = {key: {"embed": [], "open_after": [], "search": [], "resolve": [], "start": []} for key in handles}
    agent = Agent(seed=505)
    blocks, per_block = (2, 5) if cfg["quick"] else (10, 10)
    # Phase 1: an embedding, then at once a read-only open + query + close (as embed_pending does it).
    for block in range(blocks):
        for key, lm in handles.items():
            model = lm.embedder
            for i in range(per_block):
                _, seconds = timed(model.embed, [QUERIES[(block * per_block + i) % len(QUERIES)]])
                out[key]["embed"].append(seconds)
                started = time.perf_counter()
                con = duckdb.connect(str(db), read_only=True)
                con.execute("SELECT id FROM ghap_entries WHERE active").fetchall()
                con.close()
                out[key]["open_after"].append(time.perf_counter() - started)
    # Phase 2: searches, back to back (nothing written, so no snapshot reloads).
    for block in range(blocks):
        for key, lm in handles.items():
            for i in range(per_block):
                out[key]["search"].append(timed(lm.search_experiences, QUERIES[(block * per_block + i) % len(QUERIES)])[1])
    # Phase 3: the agent's start + resolve (falsified).
    for _block in range(blocks):
        for key, lm in handles.items():
            for _ in range(max(per_block // 3, 1)):
                d = agent.draft()
                out[key]["start"].append(timed(lm.start_ghap, **Agent.start_args(d))[1])
                out[key]["resolve"].append(timed(lm.resolve_ghap, **Agent.falsified_args(d))[1])
    for lm in handles.values():
        lm.close()
    result = {key: {name: stats(values) for name, values in parts.items()} for key, parts in out.items()}
    log(f"spinning: search p95 {result['spin']['search']['p95_ms']:.0f} -> {result['no_spin']['search']['p95_ms']:.0f} ms, "
        f"open after an embedding p50 {result['spin']['open_after']['p50_ms']:.0f} -> "
        f"{result['no_spin']['open_after']['p50_ms']:.0f} ms")
    return result


# -- profiles of the misses --------------------------------------------------------------------------


def profile_misses(lm, cli_db: Path, r: dict, cfg: dict) -> dict:
    """cProfile of 20 calls of each operation that missed its target (every one with --profile-all);
    `ghap status` as one fresh process on `cli_db` (which has an active entry)."""
    writes, reads = r["writes"], r["reads"]
    measured = {"start": writes["start"]["p95_ms"], "update": writes["update"]["p95_ms"],
                "get_active": writes["get_active"]["p95_ms"], "resolve": writes["resolve"]["p95_ms"],
                "list": max(v["p95_ms"] for v in reads["list"].values()),
                "search": max(v["p95_ms"] for v in reads["search"].values()),
                "status": r["cli"]["status"]["p95_ms"]}
    wanted = [op for op, value in measured.items() if cfg["profile_all"] or value > TARGETS_MS[op]]
    out = {}
    if not wanted:
        return out
    agent = Agent(seed=404)
    profs = {op: Profiler() for op in ("start", "update", "get_active", "resolve") if op in wanted}
    if profs:
        for _ in range(20):
            d = agent.draft()
            call = profs["start"].call if "start" in profs else (lambda fn, **kw: fn(**kw))
            call(lm.start_ghap, **Agent.start_args(d))
            for args in (Agent.iteration_args(d), {"note": d["note"]}):
                (profs["update"].call if "update" in profs else (lambda fn, **kw: fn(**kw)))(lm.update_ghap, **args)
            (profs["get_active"].call if "get_active" in profs else (lambda fn: fn()))(lm.get_active_ghap)
            (profs["resolve"].call if "resolve" in profs else (lambda fn, **kw: fn(**kw)))(
                lm.resolve_ghap, **Agent.falsified_args(d))
        for op, prof in profs.items():
            out[op] = prof.result()
    if "list" in wanted:
        prof = Profiler()
        for _ in range(20):
            prof.call(lm.list_ghap_entries, limit=20, domain="debugging")
        out["list"] = prof.result()
    if "search" in wanted:
        lm.search_experiences(QUERIES[0])
        prof = Profiler()
        for i in range(20):
            prof.call(lm.search_experiences, QUERIES[i % len(QUERIES)], axis="full")
        out["search"] = prof.result()
    if "status" in wanted:
        out["status"] = profile_cli(cli_db)
    for op, prof in out.items():
        prof["target_ms"] = TARGETS_MS[op]
        prof["p95_ms"] = measured[op]
    return out


# -- the report --------------------------------------------------------------------------------------


def verdict(value: float, target: float) -> str:
    return "**met**" if value <= target else "**MISSED**"


def fmt(s: dict) -> str:
    return f"{s['p50_ms']:.1f} / {s['p95_ms']:.1f} ms"


def dominant(prof: dict, top: int = 4) -> str:
    """The functions with the most own time, as shares of the profile's total."""
    total = prof["total_tt"] or 1.0
    return ", ".join(f"`{row['function'].replace('<built-in method ', '').rstrip('>')}` {row['tottime'] / total:.0%}"
                     for row in prof["tottime"][:top])


def profile_table(title: str, prof: dict) -> list[str]:
    lines = [f"**{title}**: own time goes to {dominant(prof)}.", "",
             f"({prof['calls']} call{'s' if prof['calls'] != 1 else ''} under cProfile"
             + (f", {prof['wall_profiled']:.2f} s wall with the profiler's overhead" if "wall_profiled" in prof else "")
             + "; top 15 by cumulative time, then the top 10 by own time.)", ""]
    return lines + profile_markdown(prof, top_own=10)


def report(info: dict, cfg: dict, r: dict) -> str:
    m, w, rd, cli, b = r["manifest"], r["writes"], r["reads"], r["cli"], r["burst"]
    comp = m["composition"]
    n = m["n"]
    lines = ["# learnmem GHAP benchmarks", "",
             f"Produced by `{info['command']}` (bench/ghap/). Raw numbers: bench/out/ghap/results-*.json.", "",
             "## Machine", "", "|  |  |", "|---|---|"]
    for key, value in info.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        lines.append(f"| {key} | {value} |")
    lines += ["| load average (1 min) at the start of each section | "
              + ", ".join(f"{k} {v:.2f}" for k, v in r["load"].items()) + " |",
              "| **CPU used by other processes during each section** (cores, of 2) | "
              + ", ".join(f"{k} {v:.2f}" for k, v in r["others_cores"].items()) + " |"]
    lines += ["", "The machine is shared (2 cores; other work may run): see the CPU other processes used during "
              "each section (ONNX Runtime and DuckDB use both cores, so a neighbour busy on one core can double a "
              "latency); compare rows measured in different sections with that in mind, and treat timing "
              "differences under ~20 % as noise. Percentiles are linear interpolations over all the calls of a row "
              "(p95 of 200 calls is decided by its ~10 slowest).", ""]

    s_list = max(rd["list"].values(), key=lambda v: v["p95_ms"])
    s_search = max(rd["search"].values(), key=lambda v: v["p95_ms"])
    lines += ["## Summary", "",
              "| operation (warm facade unless said) | calls | p50 / p95 | target (p95) | |", "|---|---|---|---|---|",
              f"| start_ghap (no active entry) | {w['start']['n']} | {fmt(w['start'])} | <= 25 ms | "
              f"{verdict(w['start']['p95_ms'], 25)} |",
              f"| update_ghap (half new iterations, half notes) | {w['update']['n']} | {fmt(w['update'])} | <= 25 ms | "
              f"{verdict(w['update']['p95_ms'], 25)} |",
              f"| get_active_ghap | {w['get_active']['n']} | {fmt(w['get_active'])} | <= 25 ms | "
              f"{verdict(w['get_active']['p95_ms'], 25)} |",
              f"| resolve_ghap falsified (4 axes embedded) | {w['resolve']['n']} | {fmt(w['resolve'])} | <= 150 ms | "
              f"{verdict(w['resolve']['p95_ms'], 150)} |",
              f"| list_ghap_entries at {n:,}, limit 20 (slowest of {len(rd['list'])} filter cases) | "
              f"{s_list['n']} each | {fmt(s_list)} | <= 20 ms | {verdict(s_list['p95_ms'], 20)} |",
              f"| search_experiences at {n:,} (slowest of {len(rd['search'])} axis/filter cases, query embedding "
              f"included) | {s_search['n']} each | {fmt(s_search)} | <= 25 ms | {verdict(s_search['p95_ms'], 25)} |",
              f"| `learnmem ghap status`, fresh process, end to end | {cli['status']['n']} | {fmt(cli['status'])} | "
              f"<= 200 ms | {verdict(cli['status']['p95_ms'], 200)} |",
              f"| burst of {b['calls']} start/update/get_active calls, one connection per call (library) | "
              f"{b['bursts']} bursts | {fmt(b['per_call']['burst'])} per burst | | |",
              f"| the same burst on ONE held connection | {b['bursts']} bursts | {fmt(b['held']['burst'])} per burst | | |",
              ""]
    misses = [op for op, prof in r.get("profiles", {}).items() if prof["p95_ms"] > prof["target_ms"]]
    lines += ["Missed: " + (", ".join(f"**{op}** (p95 {r['profiles'][op]['p95_ms']:.1f} ms > {TARGETS_MS[op]} ms)"
                                      for op in misses) if misses else "none") + " (profiles in the last section).", ""]

    lines += explain(r) + ["## The corpus", "",
              f"bench/ghap/corpus.py draws {n:,} resolved entries (seed {m['seed']}) from {len(SCENARIOS)} templated scenarios of "
              "coding-agent work (bench/ghap/scenarios.py) over the nine domains: e.g. \"Fix the timeouts on "
              "/api/orders\" with the hypotheses \"slow responses from the payments API exceed the 10 s client "
              "timeout\" or \"the connection pool is exhausted under load\", the results when they hold, and the "
              "ways they turn out wrong (surprise + root cause category and description: \"upstream latency was "
              "under 200 ms; the requests waited for a pooled connection\", wrong-assumption), with the lesson drawn. "
              "Slots (files, functions, tests, libraries, services, errors, endpoints, numbers) are filled from "
              "vocabularies.", "",
              "- outcomes: " + ", ".join(f"{k} {v:,}" for k, v in comp["status"].items())
              + "; tiers after import: " + ", ".join(f"{k} {v:,}" for k, v in sorted(m["tiers"].items(), key=str))
              + " (bronze: the library's bronze rule demoted the ~5 % with vague hypotheses, e.g. \"The tests will "
                "tell me what's wrong\")",
              "- domains: " + ", ".join(f"{k} {v:,}" for k, v in sorted(comp["domain"].items())),
              "- iterations: " + ", ".join(f"{k}: {v:,}" for k, v in sorted(comp["iterations"].items(), key=lambda kv: int(kv[0])))
              + f"; {comp['with_notes']:,} with notes, {comp['with_lesson']:,} with a lesson",
              f"- {comp['sessions']:,} sessions from {comp['first']} to {comp['last']}; {comp['distinct_goals']:,} distinct "
              f"goals, {comp['distinct_surprises']:,} distinct surprises",
              "- experience axes: " + ", ".join(f"{k} {v['rows']:,} ({v['embedded']:,} embedded)" for k, v in m["axes"].items()),
              f"- built through `Learnmem.import_ghap` of the JSONL (one transaction, then one batch embedding with "
              f"the real model) in {m['import_seconds']:.0f} s when the cache was built ({m['built']}; a build time, "
              "not a measurement: the machine was shared); file {m['file_mib']:.1f} MiB; cached under "
              "bench/out/ghap/corpus/ and copied to bench/out/ghap/work/ for each run.", ""]

    lines += ["## 1. Library calls (warm facade)", "",
              f"One `learnmem.open(copy, embedder=...)` handle, model loaded and warmed. Each call opens and closes "
              f"the file (read-only for get_active/list/search reads, read-write under `<file>.lock` for writes). "
              f"The agent's cycle, {w['start']['n']} times after {cfg['warmup']} warm-up cycles: start -> get_active -> "
              "update (new hypothesis/action/prediction) -> update (note) -> get_active -> resolve as falsified with "
              "surprise, root cause and lesson (4 axes: the transaction, then the 4 texts embedded and written in a "
              "second transaction). Texts are fresh drafts from the corpus templates (another seed).", "",
              "| call | n | p50 | p95 | max | target (p95) |", "|---|---|---|---|---|---|"]
    for label, key, target in (("start_ghap", "start", 25), ("update_ghap, new iteration", "update_iteration", 25),
                               ("update_ghap, note", "update_note", 25), ("update_ghap, both", "update", 25),
                               ("get_active_ghap", "get_active", 25), ("resolve_ghap (falsified, 4 embeddings)", "resolve", 150),
                               ("start_ghap superseding an active entry (abandons it: 2 axes recorded)", "start_superseding", None),
                               ("search_experiences right after a resolve (snapshot reloaded)", "search_after_resolve", None)):
        s = w[key]
        lines.append(f"| {label} | {s['n']} | {s['p50_ms']:.1f} ms | {s['p95_ms']:.1f} ms | {s['max_ms']:.1f} ms | "
                     + (f"<= {target} ms: {verdict(s['p95_ms'], target)}" if target else "-") + " |")
    lines += ["", f"Tiers of the resolved cycle entries: {w['tiers']}; axes left pending after the loop: "
              f"{w['pending_after']}. The superseded entries' axes are embedded by the next search "
              f"({w['search_embedding_superseded_ms']:.0f} ms for {w['superseded']} entries' axes).", ""]
    lines += [f"**list_ghap_entries** at {n:,} entries, limit 20, {rd['list']['no filter']['n']} calls per case:", "",
              "| filter | p50 | p95 | max | rows |", "|---|---|---|---|---|"]
    for label, s in rd["list"].items():
        lines.append(f"| {label} | {s['p50_ms']:.1f} ms | {s['p95_ms']:.1f} ms | {s['max_ms']:.1f} ms | {s['rows']:.0f} |")
    lines += ["", f"**search_experiences** at {n:,} entries, limit 10, {len(QUERIES)} natural-language queries in "
              f"turn, {rd['search']['full, no filter']['n']} calls per case, query embedding included; the first call "
              f"(loads the snapshot of all axes) took {rd['search_first_ms']:.0f} ms and is not in the rows:", "",
              "| axis, filter | p50 | p95 | max | hits |", "|---|---|---|---|---|"]
    for label, s in rd["search"].items():
        lines.append(f"| {label} | {s['p50_ms']:.1f} ms | {s['p95_ms']:.1f} ms | {s['max_ms']:.1f} ms | {s['hits']:.0f} |")
    lines += [f"| read-only handle, full, no filter (never looks for pending axes) | {fmt(rd['search_read_only'])} | | "
              f"{rd['search_read_only']['max_ms']:.1f} ms | |",
              f"| (the query embedding alone) | {fmt(rd['query_embedding'])} | | {rd['query_embedding']['max_ms']:.1f} ms | |",
              "", "Sample: the surprise axis for \"timeout caused by connection pool exhaustion\": "
              + "; ".join(f"{h['score']} \"{h['surprise']}\"" for h in rd["sample_hits"]), ""]

    lines += ["## 2. `learnmem ghap status` in a fresh process", "",
              f"`{cli['command']}` with an active entry, {cli['status']['n']} runs after 2 warm-up runs "
              "(subprocess wall time: interpreter start, imports, open, query, print), alternating with the same "
              "command under the session's environment as is. The reference commands ran with bytecode cached. Output: "
              f"`{' / '.join(cli['output'])[:160]}`", "",
              "| command | p50 | p95 | max |", "|---|---|---|---|",
              f"| **learnmem ghap status** (bytecode cached, as installed) | {cli['status']['p50_ms']:.0f} ms | "
              f"{cli['status']['p95_ms']:.0f} ms | {cli['status']['max_ms']:.0f} ms |"]
    if cli.get("dont_write_bytecode"):
        lines.append(f"| learnmem ghap status with this session's PYTHONDONTWRITEBYTECODE=1 (the learnmem modules "
                     f"compiled from source every run) | {cli['status_as_is']['p50_ms']:.0f} ms | "
                     f"{cli['status_as_is']['p95_ms']:.0f} ms | {cli['status_as_is']['max_ms']:.0f} ms |")
    for label, s in cli["floors"].items():
        lines.append(f"| {label} (reference) | {s['p50_ms']:.0f} ms | {s['p95_ms']:.0f} ms | {s['max_ms']:.0f} ms |")
    it = cli["importtime"]
    lines += ["", f"`python -X importtime` of the same command: {it['modules']} modules, {it['total_ms']:.0f} ms of "
              "imports (importtime's own overhead included). Heavy modules imported: "
              + (", ".join(f"{name} ({it['heavy_ms'][name]:.0f} ms)" for name in it["heavy"]) or "none")
              + ". Not imported: " + ", ".join(h for h in HEAVY if h not in it["heavy"]) + ".", "",
              "| top-level import | cumulative | self |", "|---|---|---|"]
    for row in it["top"]:
        lines.append(f"| {row['module']} | {row['cumulative_ms']:.1f} ms | {row['self_ms']:.1f} ms |")
    lines.append("")

    lines += ["## 3. Bursts: one connection per call, or one held for the burst", "",
              f"A burst is {b['calls']} calls an agent might make in quick succession: start, get_active, then "
              "9 x (update, get_active), the updates alternating new iterations and notes. **per call** is the "
              "library (each call opens, commits and closes the file). **held** runs ghap.py's own functions "
              "unchanged over a store shim (bench/ghap/run.py `HeldStore`) that takes the process lock and "
              "`<file>.lock` as a library writer does, attaches the file read-write ONCE and runs each "
              "call as its own transaction (BEGIN/COMMIT) on that connection; same validation, same named "
              f"queries (sql/queries/ghap.sql). {b['bursts']} bursts each, the entry abandoned after each (untimed).", "",
              "| | per call (library) | held connection |", "|---|---|---|",
              f"| whole burst p50 / p95 | {fmt(b['per_call']['burst'])} | {fmt(b['held']['burst'])} |",
              f"| any call in a burst p50 / p95 | {fmt(b['per_call']['all_calls'])} | {fmt(b['held']['all_calls'])} |"]
    for name in b["held"]["per_call"]:
        lines.append(f"| {name} p50 / p95 | {fmt(b['per_call']['per_call'][name])} | {fmt(b['held']['per_call'][name])} |")
    lines += [f"| attach (held only) | - | {fmt(b['held']['connect'])} |", "",
              f"**The floor of one call per open**, DuckDB alone on the same {m['n']:,}-entry file "
              f"({b['floor']['attach']['ro_total']['n']} repetitions each, p50 / p95), the file opened by "
              "`duckdb.connect` (a new DuckDB instance per call: what store.py did before) or ATTACHed to one "
              "in-memory instance per process (what it does now):", "",
              "| step | duckdb.connect per call | ATTACH / DETACH |", "|---|---|---|"]
    floor_rows = (("read: open", "ro_connect"), ("read: SELECT the active entry", "ro_query"),
                  ("read: close", "ro_close"), ("**read total**", "ro_total"), ("write: open", "rw_connect"),
                  ("write: one-row UPDATE of ghap_active", "rw_update"),
                  ("write: close (checkpoints the WAL into the file)", "rw_close"), ("**write total**", "rw_total"))
    for label, key in floor_rows:
        lines.append(f"| {label} | {fmt(b['floor']['connect'][key])} | {fmt(b['floor']['attach'][key])} |")
    lines += ["", "Before any lock, transaction or Python of the library.", "",
              "**The cost to a second process.** A warm second process (bench/ghap/contender.py: one "
              "`learnmem.open`, no model) is asked, after a random call of the burst (1st to 18th), to do one "
              "write (`increment_tool_count`, what a hook does per tool call) or one read (`get_active_ghap`, "
              "what `ghap status` does); its latency is measured from the request to its completion.", "",
              "| second process | idle file | during per-call bursts | during held bursts |", "|---|---|---|---|"]
    for kind, label in (("w", "write (increment_tool_count)"), ("r", "read (get_active_ghap)")):
        idle, per, held = b[f"contender_{kind}_idle"], b[f"contender_{kind}_per_call"], b[f"contender_{kind}_held"]
        lines.append(f"| {label}: p50 / p95 / max | {fmt(idle)} / {idle['max_ms']:.0f} ms | {fmt(per['wait'])} / "
                     f"{per['wait']['max_ms']:.0f} ms | {fmt(held['wait'])} / {held['wait']['max_ms']:.0f} ms |")
        lines.append(f"| the bursts meanwhile ({label.split(' ')[0]}), p50 / p95 | | {fmt(per['burst'])} | {fmt(held['burst'])} |")
        errors = per["errors"] + held["errors"]
        if errors:
            lines.append(f"| errors seen by the second process | | {len(per['errors'])} | {len(held['errors'])}: {errors[:2]} |")
    lines += ["", burst_reading(b), ""]

    sp = r["spin"]
    lines += ["## 4. A side finding: ONNX Runtime's spinning threads", "",
              "After a run, ONNX Runtime's intra-op threads spin-wait for more work by default; on this 2-core "
              "machine they compete with whatever the process does next, which here is opening the DuckDB file. "
              "The library's embedder (spinning on) against the same model and options with "
              "`session.intra_op.allow_spinning` set to `0` (a benchmark-side variant, bench/ghap/run.py "
              "`no_spin_embedder`), interleaved in blocks on a fresh copy of the file:", "",
              "| p50 / p95 | spinning (library today) | spinning off |", "|---|---|---|"]
    for label, key in (("query embedding alone", "embed"),
                       ("read-only open + query + close right after an embedding", "open_after"),
                       ("search_experiences (read-write handle, full axis, no filter)", "search"),
                       ("start_ghap (after the previous resolve)", "start"),
                       ("resolve_ghap falsified (4 embeddings)", "resolve")):
        lines.append(f"| {label} (n = {sp['spin'][key]['n']}) | {fmt(sp['spin'][key])} | {fmt(sp['no_spin'][key])} |")
    changes = []
    for label, key in (("search", "search"), ("resolve", "resolve"), ("the open after an embedding", "open_after")):
        before, after = sp["spin"][key]["p95_ms"], sp["no_spin"][key]["p95_ms"]
        changes.append(f"{label} p95 {before:.0f} -> {after:.0f} ms ({(after - before) / before:+.0%})")
    lines += ["", "With spinning off: " + "; ".join(changes) + ". Differences under ~20 % are noise on this shared "
              "machine; in ad-hoc checks while this benchmark was written, the open right after an embedding took ~2x as long with "
              "spinning on while other processes were busy, and the same with the machine quiet. Nothing in the "
              "library was changed for this; it is a lead for the owners of learnmem/embedding/embed.py, not a finding to "
              "act on by itself.", ""]

    lines += ["## Where the time goes (the misses)", ""]
    profiles = r.get("profiles", {})
    if not profiles:
        lines += ["Every target was met; nothing profiled (`--profile-all` profiles every operation).", ""]
    for op, prof in profiles.items():
        state = "MISSED" if prof["p95_ms"] > prof["target_ms"] else "met"
        title = (f"{op}: p95 {prof['p95_ms']:.1f} ms, target <= {prof['target_ms']} ms ({state})"
                 + (" - one fresh process, imports included" if op == "status" else ""))
        lines += profile_table(title, prof)
    lines += ["cProfile inflates Python-heavy code more than calls into C (DuckDB, ONNX Runtime): read the "
              "proportions, not the absolute times.", "", "## Command", "", f"`{info['command']}`", ""]
    return "\n".join(lines)


def explain(r: dict) -> list[str]:
    """Where each operation's time goes, from the measurements themselves (floors, held connection, handles)."""
    w, rd, cli, b = r["writes"], r["reads"], r["cli"], r["burst"]
    fl, connect_floor, held = b["floor"]["attach"], b["floor"]["connect"], b["held"]["per_call"]
    search = rd["search"]["full, no filter"]
    floors = cli["floors"]
    duck = floors["python -c 'import duckdb'"]
    return [
        "What the numbers come from (p50s; details in the sections below):", "",
        f"- **start/update** ({w['start']['p50_ms']:.0f} / {w['update']['p50_ms']:.0f} ms): DuckDB alone needs "
        f"{fl['rw_total']['p50_ms']:.0f} ms to attach this file read-write, update the one row of "
        f"ghap_active and detach (the detach checkpoints the WAL: {fl['rw_close']['p50_ms']:.0f} ms; with a new "
        f"DuckDB instance per call, as before, {connect_floor['rw_total']['p50_ms']:.0f} ms); the library adds its "
        f"transaction and two to four queries. On a connection held for a burst the same calls take "
        f"{held['start']['p50_ms']:.1f} / {held['update']['p50_ms']:.1f} ms.",
        f"- **get_active / list** ({w['get_active']['p50_ms']:.0f} / "
        f"{rd['list']['no filter']['p50_ms']:.0f} ms): a read-only attach + query + detach costs "
        f"{fl['ro_total']['p50_ms']:.0f} ms on this file (a new instance per call: "
        f"{connect_floor['ro_total']['p50_ms']:.0f} ms); get_active on a held connection takes "
        f"{held['get_active']['p50_ms']:.1f} ms.",
        f"- **resolve** ({w['resolve']['p50_ms']:.0f} ms): three file opens (the resolve transaction, the read of "
        f"pending axes, the write of their vectors) and the model on 4 texts; see its profile.",
        f"- **search_experiences** ({search['p50_ms']:.0f} ms on the read-write handle; a read-only handle "
        f"{rd['search_read_only']['p50_ms']:.0f} ms; the query embedding alone {rd['query_embedding']['p50_ms']:.0f} ms): "
        "the rest is ranking all rows of the axis (exact vectors + BM25) and, on a read-write handle, any look for "
        "pending axes (see the search profile if it missed). The first search after any resolve reloads the "
        f"snapshot of all {sum(v['rows'] for v in r['manifest']['axes'].values()):,} axis rows: "
        f"{w['search_after_resolve']['p50_ms']:.0f} ms.",
        f"- **ghap status** ({cli['status']['p50_ms']:.0f} ms): the interpreter alone starts in "
        f"{floors['python -c pass']['p50_ms']:.0f} ms and `import duckdb` takes the process to "
        f"{duck['p50_ms']:.0f} ms; no model, numpy, "
        f"pyarrow, tree-sitter or hdbscan is imported (of the modules watched: {', '.join(cli['importtime']['heavy']) or 'none'}).",
        "",
    ]


def burst_reading(b: dict) -> str:
    per, held = b["per_call"]["burst"]["p50_ms"], b["held"]["burst"]["p50_ms"]
    w_per, w_held = b["contender_w_per_call"]["wait"], b["contender_w_held"]["wait"]
    r_per, r_held = b["contender_r_per_call"]["wait"], b["contender_r_held"]["wait"]
    return (f"Reading: holding one connection makes the burst {per / held:.1f}x faster at the median "
            f"({per:.0f} -> {held:.0f} ms for {b['calls']} calls, {per / b['calls']:.1f} -> {held / b['calls']:.1f} ms "
            f"per call). The price is paid by everyone else: while it is held no other process can open the file "
            f"at all (DuckDB allows one read-write process, and no readers beside it), so a second process's write "
            f"waited {w_held['p50_ms']:.0f} ms at the median and {w_held['max_ms']:.0f} ms at worst (vs "
            f"{w_per['p50_ms']:.0f} / {w_per['max_ms']:.0f} ms during per-call bursts), and a read "
            f"{r_held['p50_ms']:.0f} / {r_held['max_ms']:.0f} ms (vs {r_per['p50_ms']:.0f} / {r_per['max_ms']:.0f} ms); "
            "the wait grows with the length of the burst and, for readers, by up to the 200 ms backoff cap of "
            "the lock retry loop. With per-call connections a second process slips in between two calls.")


# -- main ------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    cfg = parse_args(argv)
    command = "python -m bench.ghap" + (" " + shlex.join(argv) if argv else "")
    info = machine_info(command)
    started = time.perf_counter()
    from learnmem.embedding.embed import load_embedder

    embedder, load_s = timed(load_embedder)
    embedder.embed(["warm up"])
    info["embedding model"] = f"{embedder.name} (ONNX Runtime, fp32, CPU), loaded in {load_s:.2f} s"
    source, manifest = corpus.build(cfg["entries"], cfg["seed"], embedder, rebuild=cfg["rebuild"])
    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    r: dict = {"manifest": manifest, "load": {}}
    meter = CpuMeter()
    r["others_cores"] = meter.sections

    db = copy_db(source, WORK / "bench.duckdb")
    lm = learnmem.open(db, embedder=embedder)
    lm.warm_up()
    lm.start_session()
    last = datetime.strptime(manifest["composition"]["last"], "%Y-%m-%dT%H:%M:%SZ")
    r["load"]["reads"] = os.getloadavg()[0]
    with meter.section("reads"):
        r["reads"] = read_section(lm, cfg, last)
    r["load"]["writes"] = os.getloadavg()[0]
    with meter.section("writes"):
        r["writes"] = write_section(lm, cfg)

    cli_db = copy_db(source, WORK / "cli.duckdb")
    r["load"]["cli"] = os.getloadavg()[0]
    with meter.section("cli"):
        r["cli"] = cli_section(cli_db, cfg)

    burst_db = copy_db(source, WORK / "burst.duckdb")
    r["load"]["burst"] = os.getloadavg()[0]
    with meter.section("burst"):
        r["burst"] = burst_section(burst_db, embedder, cfg)

    r["load"]["spin"] = os.getloadavg()[0]
    with meter.section("spin"):
        r["spin"] = spin_section(copy_db(source, WORK / "spin.duckdb"), embedder, cfg)

    if cfg["profile"]:
        log("profiling")
        r["profiles"] = profile_misses(lm, cli_db, r, cfg)
    lm.close()

    info["load average at end"] = load_average()
    info["run time"] = f"{time.perf_counter() - started:.0f} s"
    GHAP_OUT.mkdir(parents=True, exist_ok=True)
    raw = GHAP_OUT / f"results-{time.strftime('%Y%m%d-%H%M%S')}.json"
    raw.write_text(json.dumps({"info": info, "config": {k: str(v) for k, v in cfg.items()}, "results": r},
                              indent=1, default=str))
    text = report(info, cfg, r)
    print(text)
    if cfg["out"]:
        cfg["out"].write_text(text + "\n", encoding="utf-8")
        log(f"wrote {cfg['out']}")
    return 0
