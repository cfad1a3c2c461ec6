"""Run the gate: rounds of calibration and checks, medians, the comparison with the baseline (bench/gate)."""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.gate import checks
from bench.measure import machine_info

BASELINE = Path(__file__).resolve().parent / "baseline.json"
NOISE_REPORT = Path(__file__).resolve().parent / "RESULTS.md"
# A batch into a file 8x larger may cost at most this many times as much: a step linear in the batch costs about
# the same (measured 1.0-1.3x), the per-item scan of issue 25 cost ~8x.
GROWTH_LIMIT = 2.5
GROWTH = ("store.batch_into_16000", "store.batch_into_2000")
# No figure's factor is below this, whatever the noise runs showed: two runs of a quiet gate can differ by
# 20-30 % on a shared machine.
FACTOR_FLOOR = 1.6


def log(message: str) -> None:
    print(f"[gate {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def measure(rounds: int, folder: Path) -> dict[str, float]:
    """Every figure, as the median over `rounds` rounds of its seconds divided by that round's calibration."""
    from learnmem.embedding.embed import load_embedder

    embedder = load_embedder(threads=1)
    space = checks.Workspace(folder)
    log(f"preparing files of {checks.SMALL:,} and {checks.LARGE:,} memories, a source tree and a git history")
    space.prepare(embedder)
    per_round: list[dict[str, float]] = []
    for number in range(1, rounds + 1):
        figures = checks.calibration(embedder)
        calibration = checks.calibration_seconds(figures)
        for check in checks.CHECKS:
            figures.update(check(space))
        figures.update(checks.calibration(embedder))  # before and after: the machine may change mid-round
        calibration = math.sqrt(calibration * checks.calibration_seconds(figures))
        per_round.append({name: value / calibration for name, value in figures.items()
                          if not name.startswith("calibration.")} | {"calibration.seconds": calibration})
        log(f"round {number}/{rounds} done (calibration {calibration * 1000:.0f} ms)")
    return {name: float(np.median([r[name] for r in per_round])) for name in per_round[0]}


def compare(figures: dict[str, float], baseline: dict) -> list[dict]:
    """One row per figure: its value, baseline, ratio, factor and verdict; the growth check last."""
    rows = []
    for name, value in figures.items():
        if name == "calibration.seconds":
            continue
        known = baseline["figures"].get(name)
        if known is None:
            rows.append({"figure": name, "value": value, "baseline": None, "ratio": None, "factor": None,
                         "ok": True, "why": "no baseline yet (--write-baseline records one)"})
            continue
        ratio = value / known["normalised"]
        rows.append({"figure": name, "value": value, "baseline": known["normalised"], "ratio": ratio,
                     "factor": known["factor"], "ok": ratio <= known["factor"], "why": ""})
    growth = figures[GROWTH[0]] / figures[GROWTH[1]]
    rows.append({"figure": "store.growth_8x (batch into 16,000 / into 2,000)", "value": growth, "baseline": 1.0,
                 "ratio": growth, "factor": GROWTH_LIMIT, "ok": growth <= GROWTH_LIMIT,
                 "why": "a ratio measured in the same run: no calibration"})
    return rows


def report(rows: list[dict], calibration: float) -> str:
    lines = [f"calibration {calibration * 1000:.0f} ms (figures are seconds / calibration)", "",
             f"{'figure':<52} {'value':>9} {'baseline':>9} {'ratio':>6} {'factor':>6}  verdict"]
    for row in rows:
        baseline = "-" if row["baseline"] is None else f"{row['baseline']:.4g}"
        ratio = "-" if row["ratio"] is None else f"{row['ratio']:.2f}"
        factor = "-" if row["factor"] is None else f"{row['factor']:.1f}"
        verdict = "ok" if row["ok"] else "WORSE"
        lines.append(f"{row['figure']:<52} {row['value']:>9.4g} {baseline:>9} {ratio:>6} {factor:>6}  {verdict}"
                     + (f" ({row['why']})" if row["why"] else ""))
    return "\n".join(lines)


def baseline_from(runs: list[dict[str, float]], command: str) -> dict:
    """The median of each figure over `runs`, with a factor from its spread: 1.5 x (max / min), at least
    FACTOR_FLOOR."""
    figures = {}
    for name in runs[0]:
        if name == "calibration.seconds":
            continue
        values = [run[name] for run in runs]
        spread = max(values) / min(values)
        figures[name] = {"normalised": float(np.median(values)), "spread": round(spread, 3),
                         "factor": max(FACTOR_FLOOR, math.ceil(15 * spread) / 10)}
    return {"machine": machine_info(command), "runs": len(runs), "figures": figures}


def noise_report(runs: list[dict[str, float]], baseline: dict) -> str:
    lines = ["# The benchmark gate's noise", "",
             f"`{baseline['machine']['command']}` at {baseline['machine']['git']}, "
             f"{baseline['machine']['date']}, {baseline['machine']['cpu']}, {baseline['machine']['cores']}.", "",
             f"Each run: `python -m bench.gate` ({len(runs)} runs, each the median of its rounds). A figure is "
             "seconds divided by the round's calibration; *spread* is its largest over its smallest value across "
             f"the runs; its *factor* (how much worse a later run may be) is 1.5 x the spread, at least "
             f"{FACTOR_FLOOR}.", "",
             "| figure | " + " | ".join(f"run {i + 1}" for i in range(len(runs))) + " | spread | factor |",
             "|---|" + "---|" * (len(runs) + 2)]
    for name, known in baseline["figures"].items():
        values = " | ".join(f"{run[name]:.4g}" for run in runs)
        lines.append(f"| {name} | {values} | {known['spread']:.2f} | {known['factor']:.1f} |")
    calibrations = " | ".join(f"{run['calibration.seconds'] * 1000:.0f} ms" for run in runs)
    lines.append(f"| *calibration* | {calibrations} | | |")
    growth = [run[GROWTH[0]] / run[GROWTH[1]] for run in runs]
    lines += ["", f"The growth check (a batch into 16,000 memories over one into 2,000, same run): "
                  f"{', '.join(f'{g:.2f}' for g in growth)}; the limit is {GROWTH_LIMIT}.", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.gate", description=__doc__)
    parser.add_argument("--rounds", type=int, default=3, help="rounds per run; each figure is their median")
    parser.add_argument("--noise", type=int, default=0, metavar="N",
                        help="run the gate N times and report each figure's spread (bench/gate/RESULTS.md)")
    parser.add_argument("--write-baseline", action="store_true",
                        help="record this run (or the --noise runs) as the baseline, factors from their spread")
    parser.add_argument("--baseline", type=Path, default=BASELINE, help="the baseline to compare with")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures and verdicts as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.noise < 0:
        parser.error("--rounds: at least 1; --noise: 0 or more")
    command = "python -m bench.gate " + " ".join(argv if argv is not None else sys.argv[1:])
    folder = Path(tempfile.mkdtemp(prefix="learnmem-gate-"))
    started = time.perf_counter()
    try:
        runs = [measure(args.rounds, folder / f"run{i}") for i in range(max(1, args.noise))]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    log(f"measured in {time.perf_counter() - started:.0f} s")
    if args.write_baseline:
        baseline = baseline_from(runs, command)
        args.baseline.write_text(json.dumps(baseline, indent=1) + "\n", encoding="utf-8")
        if args.noise:
            NOISE_REPORT.write_text(noise_report(runs, baseline), encoding="utf-8")
        log(f"baseline written to {args.baseline}")
    if not args.baseline.exists():
        print(f"gate: no baseline at {args.baseline}; record one with --write-baseline", file=sys.stderr)
        return 2
    baseline = json.loads(args.baseline.read_text(encoding="utf-8"))
    figures = runs[-1]
    rows = compare(figures, baseline)
    print(report(rows, figures["calibration.seconds"]))
    if args.json:
        args.json.write_text(json.dumps({"figures": figures, "rows": rows}, indent=1) + "\n", encoding="utf-8")
    worse = [row for row in rows if not row["ok"]]
    for row in worse:
        print(f"gate: {row['figure']} is {row['value']:.4g}, {row['ratio']:.2f}x its baseline {row['baseline']:.4g}; "
              f"the factor allowed is {row['factor']:.1f}", file=sys.stderr)
    return 1 if worse else 0
