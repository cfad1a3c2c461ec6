"""The git-history benchmark driver: `python -m bench.git [--quick] [--out bench/git/RESULTS.md]`.

On two synthetic but realistic repositories built deterministically with
dulwich (bench/git/synth.py; cached under bench/out/git/repos/):

1. Indexing: a cold `index_commits` of ~1,200 commits without and with
   embedding (commits/s), the incremental run after 10 new commits (target
   <= 1 s), a no-op re-run, and the same incremental run through the CLI in a
   fresh process (imports and model load included).
2. Verification: the index's totals (commits, insertions, deletions, files)
   against `git log --numstat --diff-merges=first-parent`, commit by commit.
3. Blame of a ~2,000-line file with 500 commits of history (target <= 2 s), and
   of a 50-line range; line-by-line agreement with `git blame --porcelain`.
4. Query latency: get_file_history, search_commits (p50/p95 over 20 queries),
   get_unit_history on a function of the big file.

`git` itself is run only for reference timings and the verification. Whatever
misses its target is profiled (cProfile) and the top functions are reported.
Markdown goes to stdout (and --out); progress to stderr; raw numbers to
bench/out/git/. Benchmarks are not tests: nothing asserts on time.
"""

from __future__ import annotations

import argparse
import ast
import cProfile
import io
import json
import os
import pstats
import random
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import learnmem
from bench.git import synth
from bench.measure import load_average, machine_info, median, percentile_ms
from bench.profiles import profile_markdown
from bench.vectors import OUT_DIR

GIT_OUT = OUT_DIR / "git"
WORK = GIT_OUT / "work"
HISTORY_PROJECT = "history"
BLAME_PROJECT = "engine"
INCREMENTAL_TARGET_S = 1.0
BLAME_TARGET_S = 2.0

QUERIES = (
    "progress bar for long indexing runs",
    "why was pandas made optional",
    "speed up snapshot refresh",
    "fix crash on file names that are not valid UTF-8",
    "call graph resolution of method calls",
    "BM25 keyword terms and stemming",
    "one BLAS thread for the similarity product",
    "read-only open when the file is up to date",
    "hybrid search alpha weight",
    "store memories in bulk",
    "tree-sitter parsing",
    "handle renamed files",
    "fix flaky tests",
    "schema migration",
    "lock file race on close",
    "benchmark results README numbers",
    "gitignore nested patterns",
    "embedding model ONNX graph",
    "large files are skipped",
    "validate error messages",
)


def log(message: str) -> None:
    print(f"[bench.git {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m bench.git", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small repositories and one run each: a smoke run")
    parser.add_argument("--out", type=Path, help="also write the markdown report to this file")
    parser.add_argument("--runs", type=int, help="cold index runs per mode (default 3; quick 1)")
    parser.add_argument("--reps", type=int, help="incremental / no-op / blame repetitions (default 5; quick 2)")
    parser.add_argument("--no-profile", action="store_true", help="skip the cProfile runs")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the cached repositories")
    args = parser.parse_args(argv)
    quick = args.quick
    history = synth.HistorySpec(commits=200) if quick else synth.HistorySpec()
    blame = (synth.BlameSpec(file_commits=80, other_commits=10, merge_every=20) if quick
             else synth.BlameSpec())
    return {
        "quick": quick, "out": args.out, "history": history, "blame": blame,
        "runs": args.runs or (1 if quick else 3), "reps": args.reps or (2 if quick else 5),
        "profile": not args.no_profile, "rebuild": args.rebuild,
    }


# -- helpers ---------------------------------------------------------------------------------------


def git(repo: Path, *args: str, stdout=subprocess.PIPE) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], stdout=stdout, stderr=subprocess.PIPE, check=True)
    return done.stdout.decode("utf-8", "replace") if stdout == subprocess.PIPE else ""


def time_git(repo: Path, args: list[str], runs: int) -> dict:
    """Wall seconds of `git <args> >/dev/null`, `runs` times."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(["git", "-C", str(repo), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - started)
    return {"command": "git " + shlex.join(args), "runs": times, "median": median(times)}


def timed(fn, *args, **kwargs):
    started = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - started


def copy_db(source: Path, target: Path) -> Path:
    for suffix in ("", ".wal"):
        Path(str(target) + suffix).unlink(missing_ok=True)
        if Path(str(source) + suffix).exists():
            shutil.copyfile(str(source) + suffix, str(target) + suffix)
    return target


def remove_db(path: Path) -> None:
    for suffix in ("", ".wal"):
        Path(str(path) + suffix).unlink(missing_ok=True)


def set_ref(repo: Path, sha: str) -> None:
    """Move refs/heads/main (HEAD) of the bench's copy, as a fetch or commits would."""
    (repo / "refs" / "heads" / "main").write_text(sha + "\n")


def profile(fn, *args, top: int = 18, **kwargs) -> dict:
    """cProfile one call: wall seconds under the profiler and the top functions by cumulative and own time."""
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    try:
        fn(*args, **kwargs)
    finally:
        profiler.disable()
    wall = time.perf_counter() - started
    stats = pstats.Stats(profiler, stream=io.StringIO())
    total = stats.total_tt

    def rows(key: str) -> list[dict]:
        stats.sort_stats(key)
        out = []
        for func in stats.fcn_list[:top]:
            _cc, nc, tt, ct, _ = stats.stats[func]
            out.append({"function": _func_name(func), "calls": nc, "tottime": tt, "cumtime": ct})
        return out

    return {"wall_profiled": wall, "total_tt": total, "cumulative": rows("cumulative"), "tottime": rows("tottime")}


def _func_name(func) -> str:
    filename, line, name = func
    if filename == "~":
        return name
    path = filename.replace(str(synth.PROJECT_ROOT) + "/", "")
    if "site-packages/" in path:
        path = path.split("site-packages/", 1)[1]
    elif "/lib/python3" in path:
        path = "stdlib/" + path.split("/lib/python3", 1)[1].split("/", 1)[1]
    return f"{path}:{line}({name})"


# -- 1. indexing -----------------------------------------------------------------------------------


def cold_runs(repo: Path, embedder, embed: bool, runs: int, keep: Path) -> dict:
    out = []
    for i in range(runs):
        db = WORK / f"cold-{'embed' if embed else 'noembed'}-{i}.duckdb"
        remove_db(db)
        lm = learnmem.open(db, embedder=embedder)
        load = os.getloadavg()[0]
        result, wall = timed(lm.index_commits, repo, project=HISTORY_PROJECT, embed=embed, progress=False)
        lm.close()
        out.append({"wall": wall, "seconds": result.seconds, "commits_added": result.commits_added,
                    "commits_embedded": result.commits_embedded, "load1_before": load,
                    "db_mib": db.stat().st_size / 2**20, "warnings": list(result.warnings)})
        log(f"cold index (embed={embed}) run {i + 1}/{runs}: {result.commits_added} commits in {wall:.2f} s "
            f"= {result.commits_added / wall:.0f} commits/s")
        if i == runs - 1:
            copy_db(db, keep)
        remove_db(db)
    walls = [r["wall"] for r in out]
    commits = out[0]["commits_added"]
    return {"runs": out, "median_wall": median(walls), "commits": commits,
            "commits_per_s": commits / median(walls), "db_mib": out[-1]["db_mib"]}


def incremental_runs(repo: Path, embedder, template: Path, embed: bool, reps: int) -> dict:
    out = []
    for i in range(reps):
        db = copy_db(template, WORK / f"incremental-{'embed' if embed else 'noembed'}.duckdb")
        lm, open_s = timed(learnmem.open, db, embedder=embedder)
        result, wall = timed(lm.index_commits, repo, project=HISTORY_PROJECT, embed=embed, progress=False)
        lm.close()
        out.append({"wall": wall, "seconds": result.seconds, "open_s": open_s, "commits_added": result.commits_added,
                    "commits_embedded": result.commits_embedded})
        log(f"incremental (embed={embed}) {i + 1}/{reps}: +{result.commits_added} commits in {wall:.3f} s")
    return {"runs": out, "median_wall": median([r["wall"] for r in out]), "median_open": median([r["open_s"] for r in out])}


def noop_runs(repo: Path, embedder, db: Path, reps: int) -> dict:
    out = []
    for _ in range(reps):
        lm = learnmem.open(db, embedder=embedder)
        result, wall = timed(lm.index_commits, repo, project=HISTORY_PROJECT, embed=True, progress=False)
        lm.close()
        out.append({"wall": wall, "commits_added": result.commits_added, "commits_total": result.commits_total})
    log(f"no-op re-run: median {median([r['wall'] for r in out]):.3f} s")
    return {"runs": out, "median_wall": median([r["wall"] for r in out])}


def cli_incremental(repo: Path, template: Path) -> dict:
    """`learnmem git index` in a fresh process: Python start, imports, model load, the incremental run."""
    db = copy_db(template, WORK / "incremental-cli.duckdb")
    exe = Path(sys.executable).parent / "learnmem"
    command = [str(exe), "git", "index", str(repo), "--db", str(db), "--project", HISTORY_PROJECT, "--quiet"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    remove_db(db)
    log(f"CLI incremental: {wall:.2f} s: {done.stdout.strip()} {done.stderr.strip()[-300:]}")
    return {"wall": wall, "returncode": done.returncode, "stdout": done.stdout.strip(),
            "command": "learnmem git index REPO --db DB --project history --quiet"}


def embed_text_stats(db: Path, embedder, sample: int = 200) -> dict:
    """Token counts of the texts index_commits embeds (rebuilt from the stored rows as history._commit_row
    builds them: subject, body, the first 20 paths in path order) and the model's time on a sample alone."""
    lm = learnmem.open(db, embedder=embedder, read_only=True)
    rows = lm.sql(
        "SELECT c.sha, c.subject, c.message, list(f.path ORDER BY f.path) FILTER (WHERE f.path IS NOT NULL) "
        "FROM commits c LEFT JOIN commit_files f ON f.project = c.project AND f.sha = c.sha "
        "WHERE c.project = ? GROUP BY ALL", [HISTORY_PROJECT]).fetchall()
    lm.close()
    texts, without_paths = [], []
    for _, subject, message, paths in rows:
        body = message[len(message.split("\n\n", 1)[0]):].strip()
        texts.append("\n".join(part for part in (subject, body, " ".join((paths or [])[:20])) if part))
        without_paths.append("\n".join(part for part in (subject, body) if part))
    tokens = sorted(len(e.ids) for e in embedder._tokenizer.encode_batch(texts))
    message_tokens = sorted(len(e.ids) for e in embedder._tokenizer.encode_batch(without_paths))
    picked = random.Random(3).sample(texts, min(sample, len(texts)))
    _, seconds = timed(embedder.embed, picked)
    return {"texts": len(texts), "tokens_median": median(tokens), "tokens_p95": tokens[int(len(tokens) * 0.95)],
            "tokens_max": tokens[-1], "truncated": sum(1 for t in tokens if t >= 256),
            "message_tokens_median": median(message_tokens), "message_tokens_p95": message_tokens[int(len(tokens) * 0.95)],
            "sample": len(picked), "sample_s": seconds, "ms_per_text": seconds / len(picked) * 1000}


# -- 2. verification -------------------------------------------------------------------------------


def git_numstat(repo: Path) -> dict[str, tuple[int, int, int]]:
    """sha -> (insertions, deletions, files) from `git log --numstat --diff-merges=first-parent`."""
    text = git(repo, "log", "--numstat", "--diff-merges=first-parent", "--format=%x00%H")
    out = {}
    for block in text.split("\0")[1:]:
        lines = block.strip("\n").split("\n")
        sha, ins, dels, files = lines[0].strip(), 0, 0, 0
        for line in lines[1:]:
            if not line.strip():
                continue
            added, deleted, _ = line.split("\t", 2)
            ins += 0 if added == "-" else int(added)
            dels += 0 if deleted == "-" else int(deleted)
            files += 1
        out[sha] = (ins, dels, files)
    return out


def verify(repo: Path, db: Path, embedder) -> dict:
    expected = git_numstat(repo)
    lm = learnmem.open(db, embedder=embedder, read_only=True)
    rows = lm.sql("SELECT sha, insertions, deletions, files_changed FROM commits WHERE project = ?",
                  [HISTORY_PROJECT]).fetchall()
    file_rows = lm.sql("SELECT count(*), sum(insertions), sum(deletions) FROM commit_files WHERE project = ?",
                       [HISTORY_PROJECT]).fetchone()
    lm.close()
    got = {sha: (ins, dels, files) for sha, ins, dels, files in rows}
    git_totals = [len(expected), sum(v[0] for v in expected.values()), sum(v[1] for v in expected.values()),
                  sum(v[2] for v in expected.values())]
    index_totals = [len(got), sum(v[0] for v in got.values()), sum(v[1] for v in got.values()),
                    sum(v[2] for v in got.values())]
    mismatched = [(sha, expected.get(sha), got.get(sha)) for sha in set(expected) | set(got)
                  if expected.get(sha) != got.get(sha)]
    result = {"git": git_totals, "index": index_totals,
              "commit_files_totals": [int(x or 0) for x in file_rows],
              "commits_mismatched": len(mismatched), "examples": mismatched[:5],
              "match": git_totals == index_totals and not mismatched}
    log(f"verification: git {git_totals} index {index_totals}, {len(mismatched)} commits differ")
    return result


# -- 3. blame and 4. queries ---------------------------------------------------------------------


def git_blame_lines(repo: Path, path: str, start: int | None = None, end: int | None = None) -> dict[int, str]:
    args = ["blame", "--porcelain"] + ([f"-L{start},{end}"] if start else []) + ["HEAD", "--", path]
    owners = {}
    for line in git(repo, *args).split("\n"):
        parts = line.split(" ")
        if len(parts) >= 3 and len(parts[0]) == 40 and all(c in "0123456789abcdef" for c in parts[0]):
            owners[int(parts[2])] = parts[0]
    return owners


def blame_agreement(entries, reference: dict[int, str]) -> dict:
    mine = {}
    for entry in entries:
        for number in range(entry.start_line, entry.end_line + 1):
            mine[number] = entry.sha
    same = sum(1 for number, sha in reference.items() if mine.get(number) == sha)
    return {"lines": len(reference), "lines_returned": len(mine), "same_commit": same,
            "share": same / len(reference) if reference else float("nan"), "entries": len(entries)}


def pick_unit(repo: Path, path: str, owners: dict[int, str]) -> dict:
    """The top-level function of the big file whose lines came from the most distinct commits."""
    source = (repo / path).read_text(encoding="utf-8")
    best = None
    names = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef):
            names[node.name] = names.get(node.name, 0) + 1
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef) or names[node.name] > 1:
            continue
        start = min([node.lineno] + [d.lineno for d in node.decorator_list])
        commits = len({owners.get(i) for i in range(start, node.end_lineno + 1)})
        if best is None or commits > best["blame_commits"]:
            best = {"name": node.name, "start": start, "end": node.end_lineno, "blame_commits": commits}
    return best


def blame_section(blame_repo: Path, manifest: dict, embedder, reps: int, do_profile: bool) -> dict:
    path = manifest["big_path"]
    db = WORK / "blame.duckdb"
    remove_db(db)
    lm = learnmem.open(db, embedder=embedder)
    indexed, index_s = timed(lm.index_commits, blame_repo, project=BLAME_PROJECT, embed=False, progress=False)
    out: dict = {"path": path, "lines": manifest["big_lines"], "index_s": index_s,
                 "index_commits": indexed.commits_added}
    reference = git_blame_lines(blame_repo, path)
    out["git_full"] = time_git(blame_repo, ["blame", "--porcelain", "HEAD", "--", path], max(reps, 3))
    lo, hi = manifest["big_lines"] // 2, manifest["big_lines"] // 2 + 49
    out["range"] = [lo, hi]
    out["git_range"] = time_git(blame_repo, ["blame", "--porcelain", f"-L{lo},{hi}", "HEAD", "--", path], max(reps, 3))
    out["distinct_commits_git"] = len(set(reference.values()))
    try:
        entries, first = timed(lm.get_blame, path, project=BLAME_PROJECT)
    except ImportError as error:  # learnmem/git/blame.py is not there yet
        out["error"] = f"{type(error).__name__}: {error}"
        log(f"blame unavailable: {out['error']}")
        lm.close()
        return out
    runs = [first]
    budget = 60.0
    while len(runs) < reps and sum(runs) < budget:
        runs.append(timed(lm.get_blame, path, project=BLAME_PROJECT)[1])
    out["full"] = {"runs": runs, "median": median(runs), "agreement": blame_agreement(entries, reference)}
    log(f"blame full: {runs}; agreement {out['full']['agreement']}")
    range_runs = []
    for _ in range(reps):
        part, seconds = timed(lm.get_blame, path, lo, hi, project=BLAME_PROJECT)
        range_runs.append(seconds)
    out["partial"] = {"runs": range_runs, "median": median(range_runs),
                      "agreement": blame_agreement(part, git_blame_lines(blame_repo, path, lo, hi))}
    log(f"blame lines {lo}-{hi}: {range_runs}")
    if do_profile:
        log("profiling the full blame")
        met = out["full"]["median"] <= BLAME_TARGET_S
        out["profile"] = (f"Blame of the whole file (median {out['full']['median']:.2f} s: target <= 2 s "
                          f"{'met' if met else 'MISSED'})", profile(lm.get_blame, path, project=BLAME_PROJECT))
    if do_profile and out["partial"]["median"] > BLAME_TARGET_S:
        out["profile_range"] = ("Blame of 50 lines (MISSED <= 2 s)",
                                profile(lm.get_blame, path, lo, hi, project=BLAME_PROJECT))

    # get_unit_history: needs the code index of the same project
    _, code_s = timed(lm.index_codebase, blame_repo, project=BLAME_PROJECT, progress=False)
    out["code_index_s"] = code_s
    unit = pick_unit(blame_repo, path, reference)
    name = f"{path}:{unit['name']}"
    out["unit"] = unit
    try:
        changes, first = timed(lm.get_unit_history, name, project=BLAME_PROJECT)
        runs = [first] + [timed(lm.get_unit_history, name, project=BLAME_PROJECT)[1] for _ in range(2)]
        all_changes, all_s = timed(lm.get_unit_history, name, project=BLAME_PROJECT, limit=200)
        git_l = git(blame_repo, "log", f"-L{unit['start']},{unit['end']}:{path}", "--format=%x00%H", "HEAD")
        git_shas = [block.split("\n", 1)[0] for block in git_l.split("\0")[1:]]
        out["unit_history"] = {
            "name": name, "runs": runs, "median": median(runs), "returned": len(changes),
            "all_s": all_s, "all_returned": len(all_changes),
            "git": time_git(blame_repo, ["log", f"-L{unit['start']},{unit['end']}:{path}", "HEAD"], 3),
            "git_commits": len(git_shas),
            "same_first_20": sum(1 for a, b in zip([c.sha for c in all_changes][:20], git_shas[:20]) if a == b),
            "same_set": len({c.sha for c in all_changes} & set(git_shas)),
        }
        log(f"unit history {name}: {runs}, {len(all_changes)} changes in {all_s:.2f} s; git -L lists {len(git_shas)}")
    except ImportError as error:
        out["unit_history"] = {"name": name, "error": f"{type(error).__name__}: {error}"}
        log(f"unit history unavailable: {error}")
    lm.close()
    return out


def file_history_section(db: Path, embedder, repo: Path, do_profile: bool) -> dict:
    lm = learnmem.open(db, embedder=embedder, read_only=True)
    busiest = [p for (p,) in lm.sql(
        "SELECT path FROM commit_files WHERE project = ? GROUP BY path ORDER BY count(*) DESC, path LIMIT 10",
        [HISTORY_PROJECT]).fetchall()]
    renamed = [p for (p,) in lm.sql(
        "SELECT DISTINCT path FROM commit_files WHERE project = ? AND change_type = 'rename' ORDER BY path",
        [HISTORY_PROJECT]).fetchall()]
    head_paths = set(git(repo, "ls-tree", "-r", "--name-only", "HEAD").split())
    rng = random.Random(5)
    renamed_now = [p for p in renamed if p in head_paths and p not in busiest][:5]
    rest = sorted(head_paths - set(busiest) - set(renamed_now))
    paths = (busiest + renamed_now + rng.sample(rest, min(len(rest), 20 - len(busiest) - len(renamed_now))))[:20]
    times, counts, all_times = [], [], []
    for path in paths:
        entries, seconds = timed(lm.get_file_history, path, project=HISTORY_PROJECT)
        times.append(seconds)
        counts.append(len(entries))
        all_times.append(timed(lm.get_file_history, path, limit=1000, project=HISTORY_PROJECT)[1])
    reference = time_git(repo, ["log", "--follow", "--format=%H", "--", busiest[0]], 3)
    prof = profile(lm.get_file_history, busiest[0], project=HISTORY_PROJECT, top=14) if do_profile else None
    lm.close()
    out = {"paths": len(paths), "p50_ms": percentile_ms(times, 50), "p95_ms": percentile_ms(times, 95),
           "max_ms": max(times) * 1000, "all_p50_ms": percentile_ms(all_times, 50),
           "all_p95_ms": percentile_ms(all_times, 95), "entries_median": median(counts),
           "renamed_paths": len(renamed_now), "git_follow_busiest": reference, "busiest": busiest[0]}
    if prof:
        out["profile_file_history"] = (f"One get_file_history call (`{busiest[0]}`, no target; p50 "
                                       f"{out['p50_ms']:.0f} ms)", prof)
    log(f"file history: p50 {out['p50_ms']:.1f} ms p95 {out['p95_ms']:.1f} ms")
    return out


def search_section(db: Path, embedder, do_profile: bool) -> dict:
    lm = learnmem.open(db, embedder=embedder, read_only=True)
    first_hits, first = timed(lm.search_commits, QUERIES[0], project=HISTORY_PROJECT)
    authors = ["Ana Costa", "Chen Wei", "dana@learnmem.example", "Zoë Müller"]
    times = {"plain": [], "author": [], "path": [], "dates": []}
    hits = {key: [] for key in times}
    for i, query in enumerate(QUERIES):
        for key, kwargs in (("plain", {}), ("author", {"author": authors[i % len(authors)]}),
                            ("path", {"path": "learnmem/code"}), ("dates", {"since": "2021-09-01", "until": "2022-03-01"})):
            found, seconds = timed(lm.search_commits, query, project=HISTORY_PROJECT, **kwargs)
            times[key].append(seconds)
            hits[key].append(len(found))
    embed_times = [timed(embedder.embed, [query])[1] for query in QUERIES]
    prof = profile(lm.search_commits, QUERIES[1], project=HISTORY_PROJECT, top=14) if do_profile else None
    lm.close()

    def stats(times):
        return {"p50_ms": percentile_ms(times, 50), "p95_ms": percentile_ms(times, 95), "max_ms": max(times) * 1000}

    out = {"first_ms": first * 1000, "first_hits": len(first_hits), "queries": len(QUERIES),
           **{key: {**stats(values), "hits_mean": sum(hits[key]) / len(hits[key])} for key, values in times.items()},
           "embed": {**stats(embed_times), "hits_mean": None}}
    if prof:
        out["profile_search"] = (f"One search_commits call (no target; p50 {out['plain']['p50_ms']:.0f} ms)", prof)
    log(f"search_commits: first {first * 1000:.0f} ms, p50 {out['plain']['p50_ms']:.1f} ms")
    return out


# -- the report ------------------------------------------------------------------------------------


def fmt_s(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 0.1 else f"{seconds * 1000:.0f} ms"


def hit(value: float, target: float) -> str:
    return "**met**" if value <= target else "**missed**"


def profile_table(prof: dict, title: str) -> list[str]:
    lines = [f"**{title}** (one run under cProfile: {prof['wall_profiled']:.2f} s wall with the profiler's overhead; "
             "top functions by cumulative time, then by own time)", ""]
    return lines + profile_markdown(prof, top_own=12)


def report(info: dict, cfg: dict, r: dict) -> str:
    hm, bm = r["history_manifest"], r["blame_manifest"]
    hs = hm["stats"]
    lines = ["# learnmem git-history benchmarks", "",
             f"Produced by `{info['command']}` (bench/git/). Raw numbers: bench/out/git/results-*.json.", "",
             "## Machine", "", "|  |  |", "|---|---|"]
    for key, value in info.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        lines.append(f"| {key} | {value} |")
    lines += ["", "The machine is shared (2 cores; other work may run): see the load averages; treat timing "
              "differences under ~20 % as noise. git " + r["git_version"] + " runs only for reference timings "
              "and for the verification.", ""]

    cold_n, cold_e = r["cold_noembed"], r["cold_embed"]
    inc, inc_n, noop = r["incremental_embed"], r["incremental_noembed"], r["noop"]
    blame = r["blame"]
    lines += ["## Summary", "",
              "| measure | learnmem | target | git (reference) |", "|---|---|---|---|",
              f"| cold index, no embedding ({cold_n['commits']:,} commits; median of {len(cold_n['runs'])}) | "
              f"**{cold_n['commits_per_s']:.0f} commits/s** ({cold_n['median_wall']:.1f} s) | - | "
              f"`git log --numstat --diff-merges=first-parent`: {fmt_s(r['git_log']['median'])} "
              f"({cold_n['commits'] / r['git_log']['median']:,.0f} commits/s) |",
              f"| cold index, with embedding (median of {len(cold_e['runs'])}) | "
              f"**{cold_e['commits_per_s']:.0f} commits/s** ({cold_e['median_wall']:.1f} s) | - | |",
              f"| incremental, 10 new commits, with embedding (median of {len(inc['runs'])}) | "
              f"**{fmt_s(inc['median_wall'])}** | <= 1 s: {hit(inc['median_wall'], INCREMENTAL_TARGET_S)} | "
              f"`git log --numstat --diff-merges=first-parent HEAD~10..HEAD`: {fmt_s(r['git_log_10']['median'])} |",
              f"| incremental, 10 new commits, no embedding (median of {len(inc_n['runs'])}) | "
              f"{fmt_s(inc_n['median_wall'])} | | |",
              f"| incremental through the CLI, fresh process (imports + model load) | {fmt_s(r['cli']['wall'])} | | |",
              f"| no-op re-run (median of {len(noop['runs'])}) | {fmt_s(noop['median_wall'])} | | |"]
    if "full" in blame:
        lines += [
            f"| blame, {blame['lines']:,}-line file, {bm['stats']['file_commits']} commits of history "
            f"(median of {len(blame['full']['runs'])}) | "
            f"**{fmt_s(blame['full']['median'])}** | <= 2 s: {hit(blame['full']['median'], BLAME_TARGET_S)} | "
            f"`git blame --porcelain`: {fmt_s(blame['git_full']['median'])} |",
            f"| blame, lines {blame['range'][0]}-{blame['range'][1]} (median of {len(blame['partial']['runs'])}) | "
            f"{fmt_s(blame['partial']['median'])} | | `git blame --porcelain -L`: {fmt_s(blame['git_range']['median'])} |"]
    else:
        lines.append(f"| blame, {blame['lines']:,}-line file | not measured: {blame.get('error')} | <= 2 s | "
                     f"`git blame --porcelain`: {fmt_s(blame['git_full']['median'])} |")
    fh, sc = r["file_history"], r["search"]
    lines += [
        f"| get_file_history, p50 / p95 over {fh['paths']} paths (limit 20) | {fh['p50_ms']:.1f} / {fh['p95_ms']:.1f} ms | | "
        f"`git log --follow` of the busiest file: {fmt_s(fh['git_follow_busiest']['median'])} |",
        f"| search_commits, p50 / p95 over {sc['queries']} queries (query embedding included) | "
        f"{sc['plain']['p50_ms']:.1f} / {sc['plain']['p95_ms']:.1f} ms | | |"]
    uh = blame.get("unit_history")
    if uh and "median" in uh:
        lines.append(f"| get_unit_history of `{uh['name'].split(':')[-1]}` ({blame['unit']['end'] - blame['unit']['start'] + 1} lines; "
                     f"limit 20, median of {len(uh['runs'])}) | {fmt_s(uh['median'])} | | `git log -L`: {fmt_s(uh['git']['median'])} |")
    elif uh:
        lines.append(f"| get_unit_history | not measured: {uh['error']} | | |")
    ver = r["verify"]
    lines += ["", f"Index totals equal `git log --numstat --diff-merges=first-parent`: "
              f"**{'yes' if ver['match'] and r['verify_incremental']['match'] else 'NO'}** (details in section 2).", ""]

    # repositories
    lines += ["## The repositories", "",
              "This machine has no real history of >= 1,000 commits, so bench/git/synth.py builds two, "
              "deterministically (seeded `random.Random`; the same shas on every build), as dulwich objects written "
              "straight to one pack" + (" with git-like deltas (each path's versions chained newest first, depth <= 50), "
                                        "as a clone's pack has" if cfg["history"].deltify else " without deltas")
              + "; cached under bench/out/git/repos/ by a hash of the generator's parameters. Content is seeded from this project's "
              f"own files (learnmem/**/*.py, tests/*.py, README.md at {hm['seed_commit'][:10]}) and commit subjects "
              "and bodies come from its own `git log`, mixed with templated ones.", "",
              f"**history** (bare; HEAD = {hm['head'][:10]}): **{hs['commits']:,} commits** reachable from HEAD, of which "
              f"{hs['merges']} merges of side branches (one after every {cfg['history'].merge_every - 5}-"
              f"{cfg['history'].merge_every + 5} commits on main; 2-5 commits each, 0-4 on main meanwhile; {hs['evil_merges']} merges also edit a file), {hs['adds']} files added, "
              f"{hs['deletes']} deleted, {hs['renames']} renamed ({hs['renames_with_edits']} with edits), "
              f"{hs['binary_changes']} binary changes, {hs['mode_changes']} mode change; nine identities of seven "
              "people, two folded by the committed .mailmap; a CRLF file, an empty file, a file without a final "
              "newline. Ordinary commits edit 1-6 files (hot files drawn with Pareto weights), each with 1-3 hunks: "
              "lines modified (identifier, number, string or comment changed), blocks of 1-25 lines copied from "
              f"other files inserted, 1-12 lines deleted. At HEAD: {hs['files_at_head']} files, "
              f"{hs['text_lines_at_head']:,} text lines. Then {cfg['history'].extra} more ordinary commits, written as "
              "loose objects (as new commits are), become visible by moving refs/heads/main: the incremental run. "
              f"Built in {hm['build_seconds']} s ({hm['objects']:,} objects).", "",
              f"**blame** (with a worktree; HEAD = {bm['head'][:10]}): `{bm['big_path']}`, **{bm['big_lines']:,} lines** "
              f"of real Python (top-level functions and classes of the seed files), **{bm['stats']['file_commits']} "
              f"commits of history** (its add; {bm['stats']['file_commits'] - 2} commits each changing 1-5 scattered "
              "lines, a quarter of them also inserting or deleting a block of 1-6 lines, every version valid Python; "
              f"a pure rename from `{bm['big_old_path']}` at 30 % of the history; some of the edits made on "
              f"{bm['stats']['merges']} side branches of 2-3 commits merged with --no-ff), and {bm['stats']['other_commits']} commits touching "
              f"only small files: {bm['stats']['commits']} commits in all. Built in {bm['build_seconds']} s.", ""]

    # 1. indexing
    lines += ["## 1. Indexing", "",
              "In-process `lm.index_commits(repo, project=..., embed=..., progress=False)` into a fresh file, the "
              f"real embedder (all-MiniLM-L6-v2, ONNX, fp32, CPU) loaded and warmed once before ({r['embedder_load_s']:.2f} s). "
              "Wall time around the call. The runs with embedding are the most sensitive to other work on this "
              "shared machine (ONNX Runtime uses both cores): compare their load averages.", "",
              "| run | wall | commits/s | load average (1 min) before |", "|---|---|---|---|"]
    for label, data in (("no embedding", cold_n), ("with embedding", cold_e)):
        for i, run in enumerate(data["runs"]):
            lines.append(f"| cold, {label}, #{i + 1} | {run['wall']:.2f} s | {run['commits_added'] / run['wall']:.0f} | "
                         f"{run['load1_before']:.2f} |")
    lines += ["", f"Embedding accounts for the difference between the two medians: {cold_e['median_wall'] - cold_n['median_wall']:.1f} s "
              f"for {cold_e['commits']:,} texts (subject, body and up to 20 paths each), "
              f"{(cold_e['median_wall'] - cold_n['median_wall']) / cold_e['commits'] * 1000:.0f} ms per commit. "
              f"Those texts are {r['embed_texts']['tokens_median']:.0f} tokens at the median "
              f"(p95 {r['embed_texts']['tokens_p95']}, max {r['embed_texts']['tokens_max']}; "
              f"{r['embed_texts']['truncated']} cut at the model's 256); subject and body alone would be "
              f"{r['embed_texts']['message_tokens_median']:.0f} (p95 {r['embed_texts']['message_tokens_p95']}). The model alone "
              f"embeds a random {r['embed_texts']['sample']} of them in {r['embed_texts']['sample_s']:.1f} s "
              f"({r['embed_texts']['ms_per_text']:.0f} ms per text).",
              "", f"File size after the cold index: {cold_n['db_mib']:.1f} MiB without vectors, "
              f"{cold_e['db_mib']:.1f} MiB with.", "",
              "Incremental: a copy of the file from the last cold run (with embedding) each time, HEAD moved 10 "
              "commits on; `learnmem.open` is timed apart (median "
              f"{inc['median_open'] * 1000:.0f} ms) and not included.", "",
              "| repetition | with embedding | commits added | no embedding |", "|---|---|---|---|"]
    for i, (a, b) in enumerate(zip(inc["runs"], inc_n["runs"])):
        lines.append(f"| {i + 1} | {a['wall']:.3f} s | {a['commits_added']} | {b['wall']:.3f} s |")
    lines += ["", "No-op re-runs (nothing new): " + ", ".join(f"{x['wall']:.3f} s" for x in noop["runs"]) + ".",
              f"CLI, fresh process: `{r['cli']['command']}` took {r['cli']['wall']:.2f} s "
              f"(exit {r['cli']['returncode']}; \"{r['cli']['stdout']}\").", ""]

    # 2. verification
    lines += ["## 2. Verification against git", ""]
    for label, ver in (("cold index (HEAD)", r["verify"]), ("after the incremental run (HEAD + 10)", r["verify_incremental"])):
        g, ix = ver["git"], ver["index"]
        lines += [f"**{label}**: commits {ix[0]:,} (git {g[0]:,}), insertions {ix[1]:,} (git {g[1]:,}), deletions "
                  f"{ix[2]:,} (git {g[2]:,}), file changes {ix[3]:,} (git {g[3]:,} numstat lines); commit_files rows "
                  f"{ver['commit_files_totals'][0]:,} summing to +{ver['commit_files_totals'][1]:,} / "
                  f"-{ver['commit_files_totals'][2]:,}. Commits whose (insertions, deletions, files) differ from git's: "
                  f"**{ver['commits_mismatched']}**." + (f" Examples (sha, git, index): {ver['examples']}" if ver["examples"] else ""), ""]
    lines += ["git's side is `git log --numstat --diff-merges=first-parent --format=%x00%H` (renames detected, "
              "git's default), binary files counted as 0/0 lines.", ""]

    # 3. blame
    lines += ["## 3. Blame", ""]
    if "full" in blame:
        full, part = blame["full"], blame["partial"]
        fa, pa = full["agreement"], part["agreement"]
        lines += [f"`lm.get_blame(\"{blame['path']}\", project=...)` on the blame repository (indexed without "
                  f"embedding first: {blame['index_s']:.1f} s for {blame['index_commits']} commits). "
                  f"git blame attributes the {blame['lines']:,} lines to {blame['distinct_commits_git']} distinct commits.", "",
                  "| call | runs | median | git blame --porcelain | lines attributed to the same commit as git |",
                  "|---|---|---|---|---|",
                  "| whole file | " + ", ".join(f"{x:.2f}" for x in full["runs"]) + f" s | **{fmt_s(full['median'])}** | "
                  f"{fmt_s(blame['git_full']['median'])} | {fa['same_commit']:,} / {fa['lines']:,} ({fa['share']:.1%}) |",
                  f"| lines {blame['range'][0]}-{blame['range'][1]} | " + ", ".join(f"{x:.2f}" for x in part["runs"])
                  + f" s | {fmt_s(part['median'])} | {fmt_s(blame['git_range']['median'])} | "
                  f"{pa['same_commit']} / {pa['lines']} ({pa['share']:.1%}) |", ""]
    else:
        lines += [f"Not measured: {blame.get('error')}. git blame --porcelain took {fmt_s(blame['git_full']['median'])} "
                  f"(lines {blame['range'][0]}-{blame['range'][1]}: {fmt_s(blame['git_range']['median'])}).", ""]

    # 4. queries
    lines += ["## 4. Queries", "",
              f"On the file of the incremental run ({r['verify_incremental']['index'][0]:,} commits, with vectors), "
              "opened read-only in this process.", "",
              f"**get_file_history**: {fh['paths']} paths (the 10 most changed, {fh['renamed_paths']} reached by a "
              "rename, the rest drawn at random from HEAD's files), each timed once with the default limit 20 "
              f"(median {fh['entries_median']:.0f} entries returned) and once with limit=1000: "
              f"p50 {fh['p50_ms']:.1f} ms, p95 {fh['p95_ms']:.1f} ms, max {fh['max_ms']:.1f} ms; limit=1000: "
              f"p50 {fh['all_p50_ms']:.1f} ms, p95 {fh['all_p95_ms']:.1f} ms. "
              f"For reference `git log --follow --format=%H -- {fh['busiest']}`: {fmt_s(fh['git_follow_busiest']['median'])}.", "",
              f"**search_commits** ({sc['queries']} fixed natural-language queries, limit 10; the first call, which "
              f"loads the snapshot, took {sc['first_ms']:.0f} ms and is not in the percentiles):", "",
              "| filter | p50 | p95 | max | hits per query (mean) |", "|---|---|---|---|---|"]
    for label, key in (("none", "plain"), ("author=", "author"), ("path=\"learnmem/code\"", "path"),
                       ("since/until (6 months)", "dates"), ("query embedding alone (reference)", "embed")):
        s = sc[key]
        mean = "-" if s["hits_mean"] is None else f"{s['hits_mean']:.1f}"
        lines.append(f"| {label} | {s['p50_ms']:.1f} ms | {s['p95_ms']:.1f} ms | {s['max_ms']:.1f} ms | {mean} |")
    lines.append("")
    if uh and "median" in uh:
        lines += [f"**get_unit_history** of `{uh['name']}` (lines {blame['unit']['start']}-{blame['unit']['end']} at HEAD, "
                  f"the top-level function whose lines git blame spreads over the most commits: "
                  f"{blame['unit']['blame_commits']}); the code index of the blame worktree was built first "
                  f"({blame['code_index_s']:.1f} s, with embedding). limit 20: " + ", ".join(f"{x:.2f}" for x in uh["runs"])
                  + f" s ({uh['returned']} changes); limit 200: {uh['all_s']:.2f} s ({uh['all_returned']} changes). "
                  f"`git log -L{blame['unit']['start']},{blame['unit']['end']}:{blame['path']}` lists {uh['git_commits']} "
                  f"commits in {fmt_s(uh['git']['median'])}; {uh['same_set']} of learnmem's {uh['all_returned']} are among "
                  f"them, and {uh['same_first_20']} of the first 20 are the same commit at the same place "
                  "(git's range is the function's lines by `ast`, decorators included; learnmem's is its unit's).", ""]
    elif uh:
        lines += [f"**get_unit_history**: not measured: {uh['error']}", ""]

    # 5. profiles
    profiles = [(k, v) for k, v in r.get("profiles", {}).items() if v]
    lines += ["## 5. Where the time goes", "",
              "cProfile, one call each, for the owners of the code: the operations with a target (profiled whether "
              "or not they met it), the cold index, and one call of each query. The profiler inflates Python-heavy "
              "code more than C calls (DuckDB, zlib, ONNX Runtime): read the proportions, not the absolute times.", ""]
    if not profiles:
        lines += ["No profile taken.", ""]
    for title, prof in profiles:
        lines += profile_table(prof, title)
    lines += ["## Command", "", f"`{info['command']}`", ""]
    return "\n".join(lines)


# -- main ------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    cfg = parse_args(argv)
    command = "python -m bench.git" + (" " + shlex.join(argv) if argv else "")
    info = machine_info(command)
    started = time.perf_counter()
    from learnmem.embedding.embed import load_embedder

    hist_cached, hm = synth.build_history(cfg["history"], force=cfg["rebuild"])
    blame_repo, bm = synth.build_blame(cfg["blame"], force=cfg["rebuild"])
    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    repo = WORK / "history.git"
    shutil.copytree(hist_cached, repo)
    r: dict = {"history_manifest": hm, "blame_manifest": bm, "profiles": {},
               "git_version": git(repo, "--version").strip().removeprefix("git version ")}

    embedder, load_s = timed(load_embedder)
    embedder.embed(["warm up"])
    r["embedder_load_s"] = load_s
    info["embedding model"] = f"{embedder.name} (ONNX Runtime, fp32, CPU)"

    log("reference: git log --numstat")
    r["git_log"] = time_git(repo, ["log", "--numstat", "--diff-merges=first-parent"], 5)

    noembed_db, embed_db = WORK / "template-noembed.duckdb", WORK / "template-embed.duckdb"
    r["cold_noembed"] = cold_runs(repo, embedder, False, cfg["runs"], noembed_db)
    r["cold_embed"] = cold_runs(repo, embedder, True, cfg["runs"], embed_db)
    r["verify"] = verify(repo, embed_db, embedder)
    r["embed_texts"] = embed_text_stats(embed_db, embedder)

    set_ref(repo, hm["next"])
    r["git_log_10"] = time_git(repo, ["log", "--numstat", "--diff-merges=first-parent", "HEAD~10..HEAD"], 5)
    r["incremental_embed"] = incremental_runs(repo, embedder, embed_db, True, cfg["reps"])
    r["incremental_noembed"] = incremental_runs(repo, embedder, noembed_db, False, cfg["reps"])
    after = WORK / "incremental-embed.duckdb"  # the last repetition's file: HEAD + 10, with vectors
    r["noop"] = noop_runs(repo, embedder, after, cfg["reps"])
    r["verify_incremental"] = verify(repo, after, embedder)
    r["cli"] = cli_incremental(repo, embed_db)

    r["file_history"] = file_history_section(after, embedder, repo, cfg["profile"])
    r["search"] = search_section(after, embedder, cfg["profile"])
    r["blame"] = blame_section(blame_repo, bm, embedder, cfg["reps"], cfg["profile"])

    if cfg["profile"]:
        median_inc = r["incremental_embed"]["median_wall"]
        log("profiling the incremental run")
        db = copy_db(embed_db, WORK / "incremental-profile.duckdb")
        lm = learnmem.open(db, embedder=embedder)
        r["profiles"][f"Incremental run, 10 new commits, with embedding (median {median_inc:.2f} s: target <= 1 s "
                      f"{'met' if median_inc <= INCREMENTAL_TARGET_S else 'MISSED'})"] = profile(
            lm.index_commits, repo, project=HISTORY_PROJECT, embed=True, progress=False)
        lm.close()
        for key in ("profile", "profile_range", "profile_file_history", "profile_search"):
            for source in (r["blame"], r["file_history"], r["search"]):
                if key in source:
                    title, prof = source.pop(key)
                    r["profiles"][title] = prof
        log("profiling a cold index without embedding (no target; for the owner)")
        set_ref(repo, hm["head"])
        db = WORK / "cold-profile.duckdb"
        remove_db(db)
        lm = learnmem.open(db, embedder=embedder)
        r["profiles"]["Cold index without embedding (no target; where commits/s goes)"] = profile(
            lm.index_commits, repo, project=HISTORY_PROJECT, embed=False, progress=False)
        lm.close()
        set_ref(repo, hm["next"])

    info["load average at end"] = load_average()
    info["run time"] = f"{time.perf_counter() - started:.0f} s"
    GIT_OUT.mkdir(parents=True, exist_ok=True)
    raw = GIT_OUT / f"results-{time.strftime('%Y%m%d-%H%M%S')}.json"
    raw.write_text(json.dumps({"info": info, "results": r}, indent=1, default=str))
    text = report(info, cfg, r)
    print(text)
    if cfg["out"]:
        cfg["out"].write_text(text + "\n", encoding="utf-8")
        log(f"wrote {cfg['out']}")
    return 0
