"""The MCP server benchmark: `python -m bench.mcp [--spawns 20] [--out bench/mcp/RESULTS.md]`.

Spawns real `learnmem-mcp` processes (the venv's script, as a client runs it) on a file holding a few
memories, and measures, from the moment of spawn:
- `initialize`: until its answer is read (the issue's target: median of 20 spawns <= 300 ms);
- `tools/list`: until the tool list is read, the handshake sent at once before it (the server boots meanwhile);
- the first `retrieve_memories`: until its answer is read (the model loaded);
and how long the process takes to end after SIGINT, after SIGTERM and after stdin is closed, once it has
answered a call (target: within a second). It also reports the bytes of the `tools/list` result (compact
JSON) of each profile (`--tools`): served by the spawned processes for the default, built in this process for
the others (the same code builds both; tests/mcp_adapter/test_profiles.py checks the served default against
its budget of 12,000 bytes).

Baselines for scale: `python -c pass` and `python -c "import mcp.server.mcpserver"` (the SDK's import, which
the handshake no longer waits for). Markdown goes to stdout (and --out), progress to stderr. Nothing
asserts on time.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import learnmem
from bench.measure import load_average, machine_info, median, percentile_ms

SERVER = Path(sys.executable).with_name("learnmem-mcp")
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "bench", "version": "0"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
TIMEOUT_S = 120


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def _read(process: subprocess.Popen, started: float) -> tuple[dict[str, Any], float]:
    ready, _, _ = select.select([process.stdout], [], [], TIMEOUT_S)
    if not ready:
        raise RuntimeError(f"no answer within {TIMEOUT_S} s")
    line = process.stdout.readline()
    if not line:
        raise RuntimeError(f"the server exited with {process.poll()}")
    return json.loads(line), time.perf_counter() - started


def _spawn(db: Path) -> tuple[subprocess.Popen, float]:
    env = dict(os.environ)
    env.pop("LEARNMEM_DB", None)
    started = time.perf_counter()
    process = subprocess.Popen([str(SERVER), "--db", str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=env)
    return process, started


def one_spawn(db: Path, stop: str) -> dict[str, float]:
    """Spawn, handshake, list, retrieve, then stop the way `stop` says; each step's seconds since spawn."""
    process, started = _spawn(db)
    times: dict[str, float] = {}
    try:
        process.stdin.write(_line(INITIALIZE))
        process.stdin.flush()
        _, times["initialize"] = _read(process, started)
        process.stdin.write(_line(INITIALIZED) + _line({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
        process.stdin.flush()
        listed, times["tools/list"] = _read(process, started)
        times["tools/list bytes"] = len(json.dumps(listed["result"], separators=(",", ":")).encode())
        process.stdin.write(_line({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "retrieve_memories", "arguments": {"query": "when is the release branch cut"}}}))
        process.stdin.flush()
        _, times["first retrieve"] = _read(process, started)
        stopping = time.perf_counter()
        if stop == "stdin closed":
            process.stdin.close()
        else:
            process.send_signal(getattr(signal, stop))
        code = process.wait(timeout=TIMEOUT_S)
        times["stop"] = time.perf_counter() - stopping
        times["exit code"] = code
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return times


def profile_sizes() -> dict[str, tuple[int, int]]:
    """{profile: (tools listed, bytes of the tools/list result)} for lean, all and each group."""
    import anyio

    from mcp_adapter import profiles
    from mcp_adapter.server import build_server

    sizes = {}
    for profile in (*profiles.PROFILES, *profiles.GROUPS):
        tools = anyio.run(build_server(object(), tools=profile).list_tools)
        listed = {"tools": [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in tools]}
        sizes[profile] = (len(tools), len(json.dumps(listed, separators=(",", ":")).encode()))
    return sizes


def _baseline(code: str, runs: int) -> float:
    seconds = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        seconds.append(time.perf_counter() - started)
    return median(seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mcp", description=__doc__.split("\n\n")[0])
    parser.add_argument("--spawns", type=int, default=20, help="server processes to spawn (default 20)")
    parser.add_argument("--out", type=Path, help="also write the markdown report here")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-mcp-") as work:
        db = Path(work) / "learnmem.duckdb"
        lm = learnmem.open(db)
        lm.store_memories([{"content": text, "category": "fact"} for text in (
            "The release branch is cut every other Thursday at noon UTC",
            "CI runs the integration suite only on main and release branches",
            "The staging database is rebuilt from a snapshot every Sunday night",
        )])
        lm.close()
        stops = ("SIGINT", "SIGTERM", "stdin closed")
        runs: list[tuple[str, dict[str, float]]] = []
        load_at_start = load_average()
        for number in range(args.spawns):
            stop = stops[number % len(stops)]
            runs.append((stop, one_spawn(db, stop)))
            print(f"spawn {number + 1}/{args.spawns}: initialize {runs[-1][1]['initialize'] * 1000:.0f} ms",
                  file=sys.stderr)
    python_pass = _baseline("pass", 5)
    sdk_import = _baseline("import mcp.server.mcpserver", 5)

    info = machine_info("python -m bench.mcp " + " ".join(argv if argv is not None else sys.argv[1:]))
    lines = [
        "# The MCP server's start and stop (`python -m bench.mcp`)",
        "",
        f"{info['date']}, git {info['git']}; {info['cpu']}, {info['cores']}, {info['ram_gib']} GiB; "
        f"load average {load_at_start} at start, {load_average()} at the end.",
        f"Baselines (median of 5): `python -c pass` {python_pass * 1000:.0f} ms; "
        f"`python -c 'import mcp.server.mcpserver'` {sdk_import * 1000:.0f} ms.",
        "",
        f"{args.spawns} spawns of `learnmem-mcp --db FILE` (3 memories); times from spawn to the answer read:",
        "",
        "| step | median | p95 | max |",
        "|---|---|---|---|",
    ]
    for step in ("initialize", "tools/list", "first retrieve"):
        seconds = [times[step] for _, times in runs]
        lines.append(f"| {step} | {median(seconds) * 1000:.0f} ms | {percentile_ms(seconds, 95):.0f} ms | "
                     f"{max(seconds) * 1000:.0f} ms |")
    lines += ["", "Stopping, once a call was answered (seconds from the signal or the close to the exit):", "",
              "| how | runs | median | max | exit codes |", "|---|---|---|---|---|"]
    for stop in stops:
        chosen = [times for how, times in runs if how == stop]
        seconds = [times["stop"] for times in chosen]
        codes = sorted({int(times["exit code"]) for times in chosen})
        lines.append(f"| {stop} | {len(chosen)} | {median(seconds) * 1000:.0f} ms | {max(seconds) * 1000:.0f} ms | "
                     f"{', '.join(map(str, codes))} |")
    sizes = sorted({int(times["tools/list bytes"]) for _, times in runs})
    lines += ["", f"`tools/list` result of the default profile, as served: {', '.join(f'{size:,}' for size in sizes)} "
                  "bytes of JSON (compact). Each profile (`learnmem-mcp --tools ...`):", "",
              "| profile | tools | bytes | ~tokens (bytes / 4) |", "|---|---|---|---|"]
    for profile, (count, size) in profile_sizes().items():
        lines.append(f"| {profile} | {count} | {size:,} | {size // 4:,} |")
    report = "\n".join(lines) + "\n"
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")
    return 0
