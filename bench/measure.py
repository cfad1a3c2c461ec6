"""Small measuring helpers: percentiles, a stopwatch, and a description of the machine."""

from __future__ import annotations

import importlib.metadata
import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

import numpy as np

PACKAGES = (
    "learnmem", "duckdb", "numpy", "pyarrow", "onnxruntime", "tokenizers",
    "qdrant-client", "sqlite-vec", "pysqlite3-binary",
)


def percentile_ms(seconds: Sequence[float], q: float) -> float:
    """The q-th percentile of durations given in seconds, in milliseconds (linear interpolation)."""
    return float(np.percentile(np.asarray(seconds, dtype=np.float64), q) * 1000.0) if len(seconds) else float("nan")


def median(values: Sequence[float]) -> float:
    return float(np.median(values)) if len(values) else float("nan")


class Stopwatch:
    """`with Stopwatch() as sw: ...` then `sw.seconds`."""

    def __enter__(self) -> Stopwatch:
        self._start = time.perf_counter()
        self.seconds = 0.0
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.seconds = time.perf_counter() - self._start


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _ram_gib() -> float:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 1024**2
    except OSError:
        pass
    return float("nan")


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def git_commit() -> str:
    """HEAD's short sha, `+dirty` when tracked files differ from it, or `unknown`."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=Path(__file__).resolve().parent)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, timeout=5, cwd=Path(__file__).resolve().parent)
        return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "") if out.returncode == 0 else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine_info(command: str) -> dict:
    """What the numbers were measured on, and how they were produced."""
    import sqlite3

    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    info = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": command,
        "git": git_commit(),
        "cpu": _cpu_model(),
        "cores": f"{usable} usable ({os.cpu_count()} online)",
        "ram_gib": round(_ram_gib(), 1),
        "os": f"{platform.system()} {platform.release()}",
        "python": sys.version.split()[0],
        "stdlib sqlite": sqlite3.sqlite_version,
        "niceness": os.nice(0) if hasattr(os, "nice") else "n/a",
        "load average at start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }
    info["packages"] = {p: _version(p) for p in PACKAGES}
    if info["packages"]["learnmem"] == "not installed":  # run from a checkout without `pip install -e .`
        try:
            import learnmem

            info["packages"]["learnmem"] = f"{learnmem.__version__} (checkout)"
        except ImportError:
            pass
    return info


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
