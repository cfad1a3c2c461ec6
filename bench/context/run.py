"""Context benchmark: does the right context reach the agent within the budget?

    python -m bench.context [--out bench/context/RESULTS.md]

A seeded world (bench/context/scenarios.py): 38 memories (the ones scenarios need among
distractors on the same subjects), the planted-theme corpus of 332 experiences
(tests/data/experiences.jsonl) clustered with a value stored per theme, one GHAP cycle
of this project, a small repository (code and git history) and an active GHAP for a
spec. For each situation whose right context is known, get_context runs at two budgets
and the report counts how many of the expected items made it in. The situations include
the three scenarios of the git-native memory plan: a decision survives a restart and is
recalled by meaning; session-start context for an active spec holds its blockers and
learnings; a semantic query finds the relevant decision among distractors.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import learnmem
from bench.context import scenarios
from bench.learning import themes
from learnmem.embedding.embed import load_embedder
from bench.measure import git_commit

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "bench" / "out" / "context"
BUDGETS = (2000, 800)


def log(message: str) -> None:
    print(f"[bench.context {datetime.now():%H:%M:%S}] {message}", file=sys.stderr, flush=True)


def make_repository(path: Path) -> None:
    """The shop's code in a real git repository with two commits (dulwich, no git binary needed)."""
    from dulwich import porcelain

    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    repo = porcelain.init(str(path))
    identity = b"Bench Author <bench@example.com>"
    now = int(time.time())
    for number, names in enumerate((("shop/cache.py", "tests/test_cache.py"),
                                    ("shop/invoice.py", "shop/scheduler.py", "shop/dates.py"))):
        for name in names:
            (path / name).parent.mkdir(parents=True, exist_ok=True)
            (path / name).write_text(scenarios.CODE[name], encoding="utf-8")
        porcelain.add(repo, [str(path / name) for name in names])
        porcelain.commit(repo, message=f"Add {', '.join(names)}".encode(), author=identity, committer=identity,
                         commit_timestamp=now - 3600 + number * 600, author_timestamp=now - 3600 + number * 600)


def code_id(path: str, function: str) -> str:
    """The id get_context gives a code unit: `path:first line`."""
    line = next(n for n, text in enumerate(scenarios.CODE[path].splitlines(), 1) if text.startswith(f"def {function}("))
    return f"{path}:{line}"


def build_world(embedder) -> tuple[Path, dict[str, str], dict[str, str]]:
    """The benchmark's file; (path, expected key -> id, ghap id -> theme)."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "world.duckdb"
    for stale in (path, Path(f"{path}.wal")):
        stale.unlink(missing_ok=True)
    make_repository(OUT / "shop")
    lm = learnmem.open(path, embedder=embedder)
    ids: dict[str, str] = {}
    for key, category, importance, tags, content in scenarios.MEMORIES:
        spec = next((tag[len("spec:"):] for tag in tags if tag.startswith("spec:")), None)
        ids[key] = lm.store_memory(content, category=category, importance=importance, spec=spec,
                                   tags=[tag for tag in tags if not tag.startswith("spec:")]).id
    entries, truth = themes.load_corpus()
    assert lm.import_ghap(themes.CORPUS).imported == len(entries)
    lm.get_clusters("full")
    members = lm.sql("SELECT ghap_id, cluster_id FROM current_cluster_members WHERE axis = 'full' "
                     "AND cluster_id IS NOT NULL").fetchall()
    for theme, value in themes.VALUES.items():
        counts = Counter(cluster for ghap_id, cluster in members if truth[ghap_id] == theme)
        if not counts:
            continue
        cluster = counts.most_common(1)[0][0]
        for text in (value, themes.SECOND_DRAFTS.get("full", {}).get(theme)):
            if text and lm.validate_value(text, cluster).valid:
                ids[f"value:{theme}"] = lm.store_value(text, cluster, "full").id
                break
    lm.start_ghap(*scenarios.FLAKY_CACHE_CYCLE["start"])
    ids["cycle"] = lm.resolve_ghap(**scenarios.FLAKY_CACHE_CYCLE["resolve"]).id
    lm.index_codebase(OUT / "shop", project="shop", progress=False)
    lm.index_commits(OUT / "shop", project="shop", progress=False)
    for path_name, function in (("shop/cache.py", "clear_price_cache"),):
        ids[f"code:{path_name}:{function}"] = code_id(path_name, function)
    lm.start_ghap(*scenarios.SPEC_GHAP)  # the active spec, for the session-start scenario
    lm.close()
    return path, ids, truth


def run_context(path: Path, embedder, depth: str, situation: str | None, budget: int) -> tuple[dict, float]:
    """The context as a JSON-like dict, and how long it took (ms)."""
    if depth == "rich-restart":  # a new process on the file, as after a restart
        started = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "learnmem.cli.app", "--db", str(path), "context", "--rich",
                              situation, "--max-tokens", str(budget), "--json"],
                             check=True, capture_output=True, text=True)
        return json.loads(out.stdout), (time.perf_counter() - started) * 1000
    lm = learnmem.open(path, embedder=embedder, read_only=True)
    started = time.perf_counter()
    if depth == "light-spec":  # session start with the spec active, as the SessionStart hook finds it
        result = lm.get_context(situation, depth="light", max_tokens=budget, spec=scenarios.ACTIVE_SPEC)
    else:
        result = lm.get_context(situation, depth="rich", max_tokens=budget)
    elapsed = (time.perf_counter() - started) * 1000
    lm.close()
    return {"tokens": result.tokens, "omitted": result.omitted,
            "items": [{"kind": item.kind, "id": item.id} for item in result.items]}, elapsed


def found(expected: list[str], items: list[dict], ids: dict[str, str], truth: dict[str, str]) -> list[bool]:
    present = {item["id"] for item in items}
    out = []
    for key in expected:
        if key.startswith("theme:"):
            out.append(any(item["kind"] == "experience" and truth.get(item["id"]) == key[6:] for item in items))
        else:
            out.append(key in ids and ids[key] in present)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.context", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="also write the markdown report to this file")
    args = parser.parse_args(argv)
    started = time.time()
    embedder = load_embedder()
    log("building the world")
    path, ids, truth = build_world(embedder)
    missing_values = sorted(theme for theme in themes.VALUES if f"value:{theme}" not in ids)
    rows = []
    for name, depth, situation, expected in scenarios.SCENARIOS:
        row = {"name": name, "depth": depth, "expected": expected, "budgets": {}}
        for budget in BUDGETS:
            result, ms = run_context(path, embedder, depth, situation, budget)
            hits = found(expected, result["items"], ids, truth)
            row["budgets"][budget] = {"found": sum(hits), "missed": [k for k, hit in zip(expected, hits) if not hit],
                                      "tokens": result["tokens"], "omitted": result["omitted"], "ms": ms}
        rows.append(row)
        log(f"{name}: " + ", ".join(f"{b}: {row['budgets'][b]['found']}/{len(expected)}" for b in BUDGETS))
    info = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "git": git_commit(),
            "command": "python -m bench.context" + (f" --out {args.out}" if args.out else ""),
            "cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
            "python": platform.python_version(),
            "load average at start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
            "run time": f"{time.time() - started:.0f} s"}
    (OUT / "results.json").write_text(json.dumps({"info": info, "rows": rows, "missing_values": missing_values},
                                                 indent=1), encoding="utf-8")
    text = report(info, rows, missing_values)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


def report(info: dict, rows: list[dict], missing_values: list[str]) -> str:
    lines = ["# learnmem context benchmark", "",
             f"Produced by `{info['command']}` (bench/context/). Raw numbers: bench/out/context/results.json.", "",
             "## Machine", "", "|  |  |", "|---|---|", *[f"| {k} | {v} |" for k, v in info.items()], "",
             "## Expected items within the budget", "",
             "Each situation's right context is known (bench/context/scenarios.py): memory ids, the GHAP cycle, "
             "a code unit, any experience of a planted theme, the value stored for that theme's cluster. "
             "`rich-restart` runs `learnmem context --rich` in a new process; `light-spec` is session-start "
             "context (no situation) for the active spec (get_context(spec=...), as the SessionStart hook asks "
             "when docs/spec/active/ holds it), with an active GHAP for the spec.", "",
             "| situation | depth | " + " | ".join(f"found at {b} tokens (tokens used, ms)" for b in BUDGETS)
             + " | missed at the smallest budget |", "|---|---|" + "---|" * len(BUDGETS) + "---|"]
    totals = {b: [0, 0] for b in BUDGETS}
    for row in rows:
        cells = []
        for budget in BUDGETS:
            cell = row["budgets"][str(budget)] if str(budget) in row["budgets"] else row["budgets"][budget]
            totals[budget][0] += cell["found"]
            totals[budget][1] += len(row["expected"])
            cells.append(f"{cell['found']}/{len(row['expected'])} ({cell['tokens']}, {cell['ms']:.0f})")
        last = row["budgets"].get(BUDGETS[-1]) or row["budgets"][str(BUDGETS[-1])]
        lines.append(f"| {row['name']} | {row['depth']} | " + " | ".join(cells) + " | "
                     + (", ".join(last["missed"]) or "-") + " |")
    lines += ["", "| budget | expected items found |", "|---|---|"]
    lines += [f"| {b} tokens | {f} of {n} ({f / n:.0%}) |" for b, (f, n) in totals.items()]
    if missing_values:
        lines += ["", f"No value could be stored for: {', '.join(missing_values)} (counted as missed)."]
    timings = [cell["ms"] for row in rows for cell in row["budgets"].values() if row["depth"] == "rich"]
    lines += ["", f"Rich context in a warm process: p50 {statistics.median(timings):.0f} ms over {len(timings)} calls."]
    return "\n".join(lines) + "\n"
