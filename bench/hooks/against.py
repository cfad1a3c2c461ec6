"""One-shot hooks, this checkout against an earlier commit, interleaved on the same machine:
`python -m bench.hooks.against REV [--runs 15]`.

A hook's time on a shared machine moves with the machine (`python -c "import duckdb"` took 81 ms one day and
141 ms another), so "no slower than before" is measured here, not read off two reports: REV is checked out in
a temporary worktree, and each case runs a process of REV then one of this checkout, in turn, on copies of the
same populated file (bench.hooks' cache: run `python -m bench.hooks` once first), with no MCP server (the
one-shot path). Both run `python -c "... from learnmem.cli import main; main()" hook <event>` with the
checkout on PYTHONPATH, so neither pays the console script's wrapper. Markdown to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.hooks.run import GHAP, HOOKS_OUT, PROMPTS, ROOT, tool
from bench.measure import percentile_ms

CODE = "import sys; sys.argv[0] = 'learnmem'; from learnmem.cli import main; main()"
CASES = [
    ("pre-tool-use: counting only", "pre-tool-use", tool(), {"LEARNMEM_CHECKIN_EVERY": "10000"}),
    ("post-tool-use: not a test run", "post-tool-use",
     {**tool("Bash", command="git status"), "tool_response": {"stdout": "clean", "stderr": "", "interrupted": False}},
     {}),
    ("user-prompt-submit: about something new", "user-prompt-submit", {"prompt": PROMPTS["new"][0]}, {}),
    ("user-prompt-submit: about earlier work (rich context)", "user-prompt-submit", {"prompt": PROMPTS["earlier"][0]},
     {}),
    ("session-start: startup, an entry active", "session-start", {"source": "startup"}, {}),
]


def project(source: Path, folder: Path) -> Path:
    root = folder / "project"
    (root / ".git").mkdir(parents=True)
    (root / ".learnmem").mkdir()
    shutil.copyfile(source, root / ".learnmem" / "learnmem.duckdb")
    return root


def once(checkout: Path, root: Path, event: str, payload: dict, env: dict) -> float:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("LEARNMEM_", "CLAUDE_"))}
    environment.update({"PYTHONPATH": str(checkout), "CLAUDE_PROJECT_DIR": str(root), **env})
    data = json.dumps({"session_id": "ab", "cwd": str(root), "hook_event_name": event, **payload})
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CODE, "hook", event], input=data, capture_output=True, text=True,
                          cwd=root, env=environment, timeout=120, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0 or done.stderr:
        raise RuntimeError(f"{checkout}: hook {event} failed: {done.stderr}")
    return seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hooks.against", description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the earlier commit (e.g. the one before hooks were served)")
    parser.add_argument("--runs", type=int, default=15, help="processes per case and checkout (default 15)")
    args = parser.parse_args(argv)
    sources = sorted(HOOKS_OUT.glob("populated-n10000-*.duckdb")) or sorted(HOOKS_OUT.glob("populated-*.duckdb"))
    if not sources:
        raise SystemExit("no populated file: run `python -m bench.hooks` once first")
    import learnmem

    with tempfile.TemporaryDirectory(prefix="learnmem-against-") as tmp:
        tmp_path = Path(tmp)
        before = tmp_path / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(before), args.rev], check=True)
        try:
            roots = {name: project(sources[-1], tmp_path / name) for name in ("before", "now")}
            for root in roots.values():  # an active entry, as an agent at work has
                lm = learnmem.open(root / ".learnmem" / "learnmem.duckdb")
                lm.start_ghap(**GHAP)
                lm.close()
            checkouts = {"before": before, "now": ROOT}
            lines = [f"One-shot hooks, `{args.rev}` against this checkout, interleaved ({args.runs} processes each; "
                     f"`python -m bench.hooks.against {args.rev}`; {sources[-1].name}):", "",
                     "| case | before p50 | now p50 | before p95 | now p95 |", "|---|---|---|---|---|"]
            for name, event, payload, env in CASES:
                times: dict[str, list[float]] = {"before": [], "now": []}
                for _ in range(args.runs):
                    for which in ("before", "now"):
                        times[which].append(once(checkouts[which], roots[which], event, payload, env))
                b, n = times["before"], times["now"]
                lines.append(f"| {name} | {percentile_ms(b, 50):.0f} ms | {percentile_ms(n, 50):.0f} ms | "
                             f"{percentile_ms(b, 95):.0f} ms | {percentile_ms(n, 95):.0f} ms |")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)], check=False)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
