"""Precision and recall of automatic capture (learnmem.agents.capture.tool_output) on written tool outputs.

    python -m bench.capture [--cases FILE ...] [--out bench/capture/RESULTS.md]

Each case of bench/capture/cases.jsonl (see its README) is a sequence of PostToolUse / PostToolUseFailure
payloads as Claude Code sends them, with the captures a careful reader would keep (`expect`, empty for
noise). The payloads are replayed through `capture.candidates`, as the hook does, with a fresh file of
pending failures per case, and the Stop hook's question (failures still pending whose error is an outside
condition become blockers) at its end. A candidate is a true positive when an expected capture of its case has its
category and one of its `about` keywords appears in its text; each expected capture is matched once.
Precision = true positives / candidates; recall = matched expected captures / expected captures.
Detection time is measured per payload, in this process (the hook process adds its start-up).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from learnmem.agents.capture import tool_output as capture, failures as capture_failures
from learnmem.agents.capture.candidates import Candidate
from bench.measure import git_commit

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases.jsonl"


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def replay(case: dict, folder: Path) -> tuple[list[Candidate], list[float]]:
    """The candidates the case's payloads give, in order, and the milliseconds each payload took."""
    pending = capture_failures.PendingFailures(folder / f"{case['id']}.capture")
    found, times = [], []
    for payload in case["events"]:
        started = time.perf_counter()
        found += capture.candidates(payload, pending, payload.get("hook_event_name") == "PostToolUseFailure")
        times.append((time.perf_counter() - started) * 1000)
    return found + capture_failures.unresolved_blockers(pending), times  # the Stop hook, when the agent stops


def score(case: dict, found: list[Candidate]) -> tuple[list[Candidate], list[Candidate], list[dict]]:
    """(true positives, false positives, missed expected captures) of one case."""
    open_expectations = list(case["expect"])
    hits, wrong = [], []
    for candidate in found:
        text = candidate.content.lower()
        match = next((e for e in open_expectations if e["category"] == candidate.category
                      and any(word.lower() in text for word in e["about"])), None)
        if match is None:
            wrong.append(candidate)
        else:
            open_expectations.remove(match)
            hits.append(candidate)
    return hits, wrong, open_expectations


def evaluate(cases: list[dict]) -> dict:
    tp = fp = expected = 0
    by_tool: Counter = Counter()
    fp_by_tool: Counter = Counter()
    false_positives, misses, times = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            found, took = replay(case, Path(folder))
            times += took
            hits, wrong, missed = score(case, found)
            tp += len(hits)
            fp += len(wrong)
            expected += len(case["expect"])
            for candidate in hits:
                by_tool[candidate.tool] += 1
            for candidate in wrong:
                fp_by_tool[candidate.tool] += 1
                false_positives.append((case["id"], case["kind"], candidate))
            misses += [(case["id"], e) for e in missed]
    matched = expected - len(misses)
    return {"cases": len(cases), "kinds": Counter(c["kind"] for c in cases), "candidates": tp + fp, "tp": tp,
            "fp": fp, "expected": expected, "matched": matched,
            "precision": tp / (tp + fp) if tp + fp else float("nan"),
            "recall": matched / expected if expected else float("nan"),
            "by_tool": by_tool, "fp_by_tool": fp_by_tool, "false_positives": false_positives, "misses": misses,
            "p50_ms": statistics.median(times) if times else 0.0,
            "p95_ms": statistics.quantiles(times, n=20)[-1] if len(times) >= 20 else max(times, default=0.0),
            "payloads": len(times)}


def render(name: str, result: dict) -> str:
    lines = [f"### {name}", "",
             f"{result['cases']} cases ({', '.join(f'{n} {k}' for k, n in sorted(result['kinds'].items()))}), "
             f"{result['payloads']} payloads, {result['expected']} expected captures.", "",
             "| candidates | true positives | false positives | precision | expected matched | recall |",
             "|---|---|---|---|---|---|",
             f"| {result['candidates']} | {result['tp']} | {result['fp']} | {result['precision']:.2f} | "
             f"{result['matched']} of {result['expected']} | {result['recall']:.2f} |", "",
             "True positives by tool: " + (", ".join(f"{tool} {n}" for tool, n in result["by_tool"].most_common())
                                           or "none") + "; false positives by tool: "
             + (", ".join(f"{tool} {n}" for tool, n in result["fp_by_tool"].most_common()) or "none") + ".",
             f"Detection per payload: p50 {result['p50_ms']:.2f} ms, p95 {result['p95_ms']:.2f} ms.", ""]
    if result["false_positives"]:
        lines += ["False positives:", ""]
        lines += [f"- `{case_id}` ({kind}, {c.tool}, {c.category}): {c.content[:160]!r}"
                  for case_id, kind, c in result["false_positives"]]
        lines.append("")
    if result["misses"]:
        lines += ["Missed:", ""]
        lines += [f"- `{case_id}` ({e['category']}, about {', '.join(e['about'])})" for case_id, e in result["misses"]]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.capture", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, nargs="+", default=[CASES], help="case files (JSONL)")
    parser.add_argument("--out", type=Path, help="write the report here (markdown)")
    args = parser.parse_args(argv)
    sections = [f"# Automatic capture: precision and recall\n\n`python -m bench.capture "
                f"{' '.join('--cases ' + str(p) for p in args.cases) if args.cases != [CASES] else ''}`"
                f"\n\nMachine: {platform.machine()}, Python {platform.python_version()}, "
                f"{time.strftime('%Y-%m-%d', time.gmtime())}, at {git_commit()}.\n"]
    for path in args.cases:
        sections.append(render(path.name, evaluate(load(path))))
    report = "\n".join(sections)
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")
    return 0
