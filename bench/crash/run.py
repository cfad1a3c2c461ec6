"""The crash harness: `python -m bench.crash [--kills 200] [--out bench/crash/RESULTS.md]`.

Writer processes ("children", this module run with `--child`) open one learnmem file and make random
writes through the public API; each call is preceded by an *intent* line and, once it has returned, an
*ack* line in the child's own log, each written and fsync'd before the child goes on. The parent kills
the children with SIGKILL at chosen moments, then checks the file through every door and compares it
with what the logs acknowledged.

Roles (at most one child per role at a time, except two memory writers on disjoint memories; several
roles run at once, so writers queue on the file lock):
- memory: store_memory, store_memories (a batch), supersede_memory, delete_memory, forget (soft and
  hard, which rewrites the file), restore_memory;
- ghap: start_ghap, update_ghap, resolve_ghap, end_session, get_clusters (surprise axis), store_value
  (a cluster's most central surprise, after validate_value);
- index: mutates a tree of small Python files (adds, rewrites, deletes; now and then 60 % of it), then
  index_codebase on it. The indexer's batch size (WRITE_BATCH, 200 files) is set per child to 4, 16
  or 200, so that small trees still take several batches (each its own transaction) per run;
- reindex (in `--second-indexer` of the episodes with an indexer): a second index_codebase loop on the
  same tree, as another agent or a hook would run it. Where it ran, which version of each file got
  stored is not known (it reads files the other child is rewriting), so code is checked there for
  integrity and the call graph only.

Kill moments (per child, at random): during start-up; after k acknowledgements; while a call is in
flight (intent written, no ack); while the child holds the writer lock (read from /proc/locks); while it
holds the lock with a non-empty WAL (committed, checkpoint pending or running); while another child
holds the lock and this one waits for it; at a random moment of an index run. When the moment does not
come within a deadline the child is killed anyway (counted apart).

After each episode (every child killed), a single store a child acknowledged but had not folded into the file
(learnmem.memory.pending: it waits in `<file>.pending` for ~0.2 s) is still in the journal; the next learnmem
process to open the file read-write folds it, as the next agent session would, and the harness does that first
(counted: journals folded). Then the file is opened the way each door would, in this order:
plain `duckdb.connect(path, read_only=True)`, `learnmem.open(path, read_only=True)`, then
`learnmem.open(path)` read-write (Store.frozen, the checkpoint under the writer lock that backup() makes
first, then pending experience axes embedded by a search). Through each door:
- integrity (SQL, every door): ids unique; memory states and superseded_by name stored memories;
  vectors whole (unit length) or pending; one active GHAP entry at most; every resolved entry has its
  axes, no axis without its entry; cluster runs hold as many clusters and members as they say, members
  are stored experiences; code units, imports, call sites and calls belong to stored files; every call
  edge names existing units; meta complete;
- the model (what the logs acknowledged): every acknowledged memory, state, GHAP transition, cluster
  run, value and index run is there; nothing is there that no log asked for; each call that was in
  flight at the kill is either wholly applied or not at all (a supersede's new memory iff the old one
  is superseded, a batch all or nothing, a start iff the previous entry is abandoned, an update's
  iteration iff its note, a resolve iff its axes, an index run's files each at the old or new hash);
- the three doors see the same rows;
- derived data agrees with its source (read-write door): memory terms and vectors recomputed from the
  text, axis texts rebuilt from the entry and their vectors recomputed, no axis left pending after the
  search, the call graph equal to a fresh resolution of the stored call sites (or empty, when a run died
  between a batch and its rebuild; the next run rebuilds it).
At the end of each generation (one file and tree, `--generation-kills` kills), index_codebase runs
once more on the final tree, and its tables (files, units with their vectors, imports, call sites,
calls) must equal a clean index of the same tree in a new file.

Embedders: most generations use the HashingEmbedder (deterministic, ~100x faster on 2 cores); every
`--model-every`-th generation uses the real model (all-MiniLM-L6-v2) in children and checks alike, so
that embedding after a resolve takes long enough to be killed and leave axes pending. Every generation
starts from 60 imported falsified GHAP entries (three themes), so get_clusters and store_value work from
the first kill.

Failures with a known cause (KNOWN_DEFECTS, each reproduced by a strict xfail test in
tests/storage/test_crash.py) are counted apart in the report. Markdown goes to stdout (and --out), progress to
stderr; the exit status is 1 when anything failed. Nothing asserts on time.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import platform
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PROJECT = "crashproj"
SEED_ENTRIES = 60
TREE_FILES = 40  # modules in a new tree (hashing generations); the real model gets fewer
MODEL_TREE_FILES = 16
MAX_TREE_FILES = 70
VECTOR_TOLERANCE = 1e-3  # |1 - cosine| allowed between a stored vector and a recomputed one

# -- texts -------------------------------------------------------------------------------------------

CATEGORIES = ("fact", "decision", "learning", "pattern", "convention", "research", "progress")
SUBJECTS = ("the export job", "the login flow", "the billing service", "the cache layer", "the CI runner",
            "the parser", "the report builder", "the upload worker", "the search page", "the scheduler")
VERBS = ("retries", "logs", "validates", "batches", "skips", "caches", "compresses", "sorts", "rejects", "counts")
OBJECTS = ("each request", "the payload", "stale rows", "empty files", "the nightly totals", "late events",
           "duplicate orders", "the audit trail", "large uploads", "missing headers")
THEMES = {  # surprise, root cause: three themes that cluster (as in tests/learning/test_values.py)
    "tz": ("the CI runner uses UTC while the laptop uses local time", "timezone offset"),
    "cache": ("the CDN kept serving the stale bundle after the deploy", "stale cache"),
    "mock": ("the patch replaced the name where it was defined, not where it was used", "wrong mock target"),
}
DETAILS = ("in the billing service", "in the export job", "in the login flow", "in reports")
DOMAINS = ("debugging", "testing", "performance", "configuration")
STRATEGIES = ("systematic-elimination", "read-the-error", "divide-and-conquer", "check-assumptions")


def memory_text(rng: random.Random, tag: int, n: int) -> str:
    return (f"{rng.choice(SUBJECTS).capitalize()} {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
            f"(writer {tag}, note {n}).")


def seed_entries(count: int, seed: int) -> list[dict]:
    """`count` falsified entries over THEMES in GHAP.md's entry format (imported at a generation's start)."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        theme = list(THEMES)[n % len(THEMES)]
        surprise, cause = THEMES[theme]
        detail = rng.choice(DETAILS)
        out.append({
            "id": f"ghap_20250901_{n // 60:02d}{n % 60:02d}00_{n:06x}", "session_id": "session_20250901_000000_aaaaaa",
            "created_at": f"2025-09-01T{n // 60:02d}:{n % 60:02d}:00Z", "domain": "debugging",
            "strategy": "systematic-elimination", "goal": f"Fix the {theme} failure {detail}",
            "hypothesis": f"The {theme} failure {detail} comes from a slow database query",
            "action": "Profile the query plan", "prediction": "The plan shows a sequential scan over orders",
            "outcome": {"status": "falsified", "result": f"The query took 3 ms {detail}",
                        "captured_at": f"2025-09-01T{n // 60:02d}:{n % 60:02d}:30Z", "auto_captured": False},
            "surprise": f"{surprise} {detail}",
            "root_cause": {"category": "wrong-assumption", "description": f"{cause} {detail}"},
        })
    return out


# -- the source tree ---------------------------------------------------------------------------------


def module_source(name: str, others: list[str], rng: random.Random) -> str:
    """A small Python module: a helper, steps calling it and other modules' helpers, sometimes a class,
    rarely a syntax error."""
    revision = rng.randint(1, 999_999)
    deps = sorted(rng.sample(others, min(len(others), rng.randint(0, 3))))
    out = [f'"""Module {name}, revision {revision}."""', ""]
    out += [f"from pkg import {dep}" for dep in deps]
    out += ["", "", "def helper(value):", f'    """Shift value by {revision}."""', f"    return value + {revision}", ""]
    for i in range(rng.randint(1, 3)):
        out += ["", f"def {name}_step{i}(value):", f'    """Step {i} of {name}."""',
                f"    total = helper(value) * {rng.randint(2, 9)}"]
        out += [f"    total += {dep}.helper(total)" for dep in deps if rng.random() < 0.7]
        if i:
            out.append(f"    total += {name}_step{i - 1}(total)")
        out += ["    return total", ""]
    if rng.random() < 0.6:
        out += ["", f"class Worker{name[4:]}:", f'    """Runs the steps of {name}."""', "",
                "    def run(self, value):", "        return self.step(value) + helper(value)", "",
                "    def step(self, value):", f"        return {name}_step0(value) * {rng.randint(2, 9)}", ""]
    if rng.random() < 0.04:
        out += ["", "def broken(value:", "    return value", ""]
    return "\n".join(out) + "\n"


def _modules(root: Path) -> list[str]:
    return sorted(path.stem for path in (root / "pkg").glob("mod_*.py"))


def make_tree(root: Path, rng: random.Random, count: int) -> None:
    (root / "pkg").mkdir(parents=True, exist_ok=True)
    (root / "pkg" / "__init__.py").write_text('"""The package."""\n', encoding="utf-8")
    names = [f"mod_{k:03d}" for k in sorted(rng.sample(range(1000), count))]
    for name in names:
        (root / "pkg" / f"{name}.py").write_text(module_source(name, [n for n in names if n != name], rng),
                                                 encoding="utf-8")


def mutate_tree(root: Path, rng: random.Random, max_files: int = MAX_TREE_FILES) -> str:
    """Change the tree as an agent's edits would: add, rewrite (in place, not atomically) and delete
    modules; now and then rewrite 60 % of them, or change nothing. Returns what it did."""
    names = _modules(root)
    roll = rng.random()
    if roll < 0.08:
        chosen = rng.sample(names, max(1, int(len(names) * 0.6)))
        for name in chosen:
            (root / "pkg" / f"{name}.py").write_text(module_source(name, names, rng), encoding="utf-8")
        return f"rewrote {len(chosen)}"
    if roll < 0.15:
        return "unchanged"
    added = 0
    for _ in range(rng.randint(0, 2) if len(names) < max_files else 0):
        name = f"mod_{rng.choice([k for k in range(1000) if f'mod_{k:03d}' not in names]):03d}"
        (root / "pkg" / f"{name}.py").write_text(module_source(name, names, rng), encoding="utf-8")
        names.append(name)
        added += 1
    rewritten = rng.sample(names, min(len(names), rng.randint(0, 4)))
    for name in rewritten:
        (root / "pkg" / f"{name}.py").write_text(module_source(name, names, rng), encoding="utf-8")
    deleted = 0
    if len(names) > 12 and rng.random() < 0.4:
        victim = rng.choice(names)
        (root / "pkg" / f"{victim}.py").unlink()
        deleted = 1
    return f"added {added}, rewrote {len(rewritten)}, deleted {deleted}"


def manifest(root: Path) -> dict[str, str]:
    """Relative POSIX path -> sha256 of the bytes, for every Python file of the tree."""
    return {path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(root.rglob("*.py")) if path.is_file()}


# -- the children ------------------------------------------------------------------------------------


class AckLog:
    """One child's log: a JSON line per intent and per acknowledgement, fsync'd before the child goes on."""

    def __init__(self, path: Path):
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        self.seq = 0

    def write(self, phase: str, op: str, **fields: Any) -> None:
        self.seq += 1
        line = json.dumps({"seq": self.seq, "ph": phase, "op": op, "t": round(time.time(), 4), **fields}) + "\n"
        os.write(self.fd, line.encode("utf-8"))
        os.fsync(self.fd)


def read_log(path: Path) -> list[dict]:
    """The complete lines of a child's log (a line cut by the kill is dropped)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    records = []
    for line in data.split(b"\n")[:-1] if not data.endswith(b"\n") else data.split(b"\n"):
        if line.strip():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return records


def child_main(spec_path: str) -> int:
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    import learnmem
    from learnmem.embedding.embed import HashingEmbedder, load_embedder

    log = AckLog(Path(spec["log"]))
    rng = random.Random(spec["seed"])
    embedder = HashingEmbedder() if spec["embedder"] == "hashing" else load_embedder()
    lm = learnmem.open(spec["db"], embedder=embedder)
    role = {"memory": _memory_role, "ghap": _ghap_role, "index": _index_role, "reindex": _reindex_role}[spec["role"]]
    try:
        role(lm, log, rng, spec)
    except BaseException:
        log.write("error", spec["role"], error=traceback.format_exc()[-3000:])
        raise
    return 0


def _memory_role(lm, log: AckLog, rng: random.Random, spec: dict) -> None:
    from learnmem.errors import NotFoundError, ValidationError

    state: dict[str, str] = {mid: value[0] for mid, value in spec["memories"].items()}
    superseded_by: dict[str, str] = {mid: value[1] for mid, value in spec["memories"].items() if value[1]}
    tag, n = spec["tag"], 0
    while True:
        current = [mid for mid, s in state.items() if s == "current"]
        forgotten = [mid for mid, s in state.items() if s == "forgotten"]
        ops = {"store": 35, "store_batch": 8, "supersede": 20 if current else 0, "delete": 12 if state else 0,
               "forget": 8 if current else 0, "restore": 6 if forgotten else 0, "forget_hard": 4 if state else 0}
        op = rng.choices(list(ops), weights=list(ops.values()))[0]
        target = None
        try:
            if op == "store":
                n += 1
                content, category = memory_text(rng, tag, n), rng.choice(CATEGORIES)
                log.write("intent", op, content=content)
                result = lm.store_memory(content, category, importance=round(rng.random(), 2),
                                         tags=[rng.choice(("api", "db", "ui", "ops"))])
                log.write("ack", op, content=content, id=result.id, duplicate=result.duplicate)
                if not result.duplicate:
                    state[result.id] = "current"
            elif op == "store_batch":
                contents = []
                for _ in range(rng.randint(2, 5)):
                    n += 1
                    contents.append(memory_text(rng, tag, n))
                log.write("intent", op, contents=contents)
                results = lm.store_memories([{"content": c, "category": rng.choice(CATEGORIES)} for c in contents])
                log.write("ack", op, contents=contents, ids=[r.id for r in results],
                          duplicate=[r.duplicate for r in results])
                state.update({r.id: "current" for r in results if not r.duplicate})
            elif op == "supersede":
                target = rng.choice(current)
                n += 1
                content = memory_text(rng, tag, n).replace("(", "(revised, ")
                log.write("intent", op, old=target, content=content)
                result = lm.supersede_memory(target, content)
                log.write("ack", op, old=target, content=content, id=result.id)
                state[target], state[result.id], superseded_by[target] = "superseded", "current", result.id
            elif op in ("delete", "forget_hard"):
                target = rng.choice(sorted(state))
                log.write("intent", op, id=target)
                if op == "delete":
                    lm.delete_memory(target)
                else:
                    lm.forget(id=target, hard=True)
                log.write("ack", op, id=target)
                del state[target]
                for old, new in list(superseded_by.items()):
                    if new == target:  # a memory whose replacement is deleted is current again
                        del superseded_by[old]
                        if state.get(old) == "superseded":
                            state[old] = "current"
                superseded_by.pop(target, None)
            elif op == "forget":
                target = rng.choice(current)
                log.write("intent", op, id=target)
                lm.forget(id=target)
                log.write("ack", op, id=target)
                state[target] = "forgotten"
            elif op == "restore":
                target = rng.choice(forgotten)
                log.write("intent", op, id=target)
                lm.restore_memory(target)
                log.write("ack", op, id=target)
                state[target] = "superseded" if target in superseded_by else "current"
        except (NotFoundError, ValidationError) as error:  # refused: nothing written (checked)
            log.write("refused", op, error=str(error)[:300])
            if target is not None:
                state.pop(target, None)


def _ghap_role(lm, log: AckLog, rng: random.Random, spec: dict) -> None:
    from learnmem.errors import InsufficientDataError, NotFoundError, ValidationError

    active = lm.get_active_ghap()
    active_id = active.id if active.has_active else None
    tag, n = spec["tag"], 0
    while True:
        roll = rng.random()
        op = ("start" if active_id is None or roll < 0.07 else "update" if roll < 0.35 else
              "resolve" if roll < 0.68 else "end_session" if roll < 0.74 else "cluster" if roll < 0.86 else "value")
        try:
            if op == "start":
                n += 1
                theme, detail = rng.choice(list(THEMES)), rng.choice(DETAILS)
                goal = f"Fix the {theme} failure {detail} (entry {tag}-{n})"
                log.write("intent", op, goal=goal, previous=active_id)
                result = lm.start_ghap(rng.choice(DOMAINS), rng.choice(STRATEGIES), goal,
                                       f"The {theme} failure {detail} comes from a slow database query",
                                       "Profile the query plan", f"The plan shows a sequential scan over table {n}")
                found = re.search(r"entry (\S+) was still active", result.warning or "")
                log.write("ack", op, goal=goal, id=result.id, previous=found.group(1) if found else None)
                active_id = result.id
            elif op == "update":
                n += 1
                change: dict[str, str] = {}
                kind = rng.random()
                if kind < 0.5:
                    change["note"] = f"observed the {rng.choice(OBJECTS)} (note {tag}-{n})"
                if kind >= 0.3:
                    change["prediction"] = f"The plan shows an index scan over table {n} (writer {tag})"
                if rng.random() < 0.2:
                    change["strategy"] = rng.choice(STRATEGIES)
                log.write("intent", op, id=active_id, **change)
                result = lm.update_ghap(**change)
                log.write("ack", op, id=active_id, iteration_count=result.iteration_count, **change)
            elif op == "resolve":
                status = rng.choices(("falsified", "confirmed", "abandoned"), weights=(5, 3, 2))[0]
                theme, detail = rng.choice(list(THEMES)), rng.choice(DETAILS)
                surprise, cause = THEMES[theme]
                log.write("intent", op, id=active_id, status=status)
                if status == "falsified":
                    result = lm.resolve_ghap(status, f"The query took 3 ms {detail}", surprise=f"{surprise} {detail}",
                                             root_cause={"category": "wrong-assumption",
                                                         "description": f"{cause} {detail}"},
                                             lesson={"what_worked": f"Checking the {theme} settings first"})
                elif status == "confirmed":
                    result = lm.resolve_ghap(status, f"The sequential scan over orders took 900 ms {detail}")
                else:
                    result = lm.abandon_ghap(f"Dropped for a different approach {detail}")
                log.write("ack", op, id=result.id, status=status, tier=result.confidence_tier)
                active_id = None
            elif op == "end_session":
                log.write("intent", op, id=active_id)
                result = lm.end_session()
                log.write("ack", op, id=result.abandoned_ghap_id, session=result.session_id)
                active_id = None
            elif op == "cluster":
                log.write("intent", op, axis="surprise")
                run = lm.get_clusters("surprise")
                log.write("ack", op, run_id=run.run_id, clusters=[c.cluster_id for c in run.clusters],
                          experience_count=run.experience_count, noise_count=run.noise_count)
            elif op == "value":
                clusters = [row[0] for row in lm.sql(
                    "SELECT cluster_id FROM current_clusters WHERE axis = 'surprise' ORDER BY cluster_id").fetchall()]
                if not clusters:
                    continue
                cluster_id = rng.choice(clusters)
                members = lm.get_cluster_members(cluster_id, limit=1)
                if not members or not lm.validate_value(members[0].surprise, cluster_id).valid:
                    log.write("refused", op, error=f"no valid value for {cluster_id}")
                    continue
                text = members[0].surprise
                log.write("intent", op, text=text, cluster_id=cluster_id)
                value = lm.store_value(text, cluster_id, "surprise")
                log.write("ack", op, id=value.id, text=text, cluster_id=cluster_id)
        except (InsufficientDataError, NotFoundError, ValidationError) as error:
            log.write("refused", op, error=str(error)[:300])
            if op in ("update", "resolve"):
                active = lm.get_active_ghap()
                active_id = active.id if active.has_active else None


def _index_role(lm, log: AckLog, rng: random.Random, spec: dict) -> None:
    from learnmem.code import indexer

    indexer.WRITE_BATCH = spec["write_batch"]
    tree = Path(spec["tree"])
    while True:
        change = mutate_tree(tree, rng, spec["max_files"])
        files = manifest(tree)
        log.write("intent", "index", manifest=files, change=change)
        result = lm.index_codebase(tree, project=PROJECT, progress=False)
        log.write("ack", "index", manifest=files, units=result.units, calls=result.calls,
                  indexed=result.files_indexed, deleted=result.files_deleted)


def _reindex_role(lm, log: AckLog, rng: random.Random, spec: dict) -> None:
    """A second indexer of the same tree (another agent, a hook): indexes whatever the tree holds, edits nothing."""
    from learnmem.code import indexer

    indexer.WRITE_BATCH = spec["write_batch"]
    while True:
        log.write("intent", "reindex")
        result = lm.index_codebase(Path(spec["tree"]), project=PROJECT, progress=False)
        log.write("ack", "reindex", units=result.units, calls=result.calls, indexed=result.files_indexed)
        time.sleep(rng.uniform(0, 0.3))


# -- what the file holds -----------------------------------------------------------------------------

Query = Callable[..., list]

INTEGRITY: dict[str, str] = {
    "memory ids unique": "SELECT id, count(*) FROM memories GROUP BY id HAVING count(*) > 1",
    "memory texts unique": "SELECT content_hash, count(*) FROM memories GROUP BY content_hash HAVING count(*) > 1",
    "memory vectors whole": """SELECT id FROM memories WHERE embedding IS NULL OR len(terms) = 0
        OR abs(array_inner_product(embedding, embedding) - 1) > 1e-3""",
    "memory states name stored memories": "SELECT memory_id FROM memory_states WHERE memory_id NOT IN (SELECT id FROM memories)",
    "one state row per memory": "SELECT memory_id, count(*) FROM memory_states GROUP BY memory_id HAVING count(*) > 1",
    "superseded_by names a stored memory": """SELECT memory_id, superseded_by FROM memory_states
        WHERE superseded_by IS NOT NULL AND superseded_by NOT IN (SELECT id FROM memories)""",
    "at most one active GHAP entry": "SELECT count(*) FROM ghap_active HAVING count(*) > 1",
    "GHAP ids unique": "SELECT id, count(*) FROM ghap_entries GROUP BY id HAVING count(*) > 1",
    "resolved entries have their full and strategy axes": """SELECT r.id FROM ghap_resolved r
        WHERE (SELECT count(DISTINCT a.axis) FROM experience_axes a
               WHERE a.ghap_id = r.id AND a.axis IN ('full', 'strategy')) < 2""",
    "falsified entries have their surprise axis": """SELECT r.id FROM ghap_resolved r
        WHERE r.outcome_status = 'falsified' AND trim(coalesce(r.surprise, '')) <> ''
          AND NOT EXISTS (SELECT 1 FROM experience_axes a WHERE a.ghap_id = r.id AND a.axis = 'surprise')""",
    "axes belong to resolved entries": "SELECT ghap_id, axis FROM experience_axes WHERE ghap_id NOT IN (SELECT id FROM ghap_resolved)",
    "one row per entry and axis": "SELECT ghap_id, axis, count(*) FROM experience_axes GROUP BY ALL HAVING count(*) > 1",
    "axis vectors whole or pending": """SELECT ghap_id, axis FROM experience_axes
        WHERE embedding IS NOT NULL AND abs(array_inner_product(embedding, embedding) - 1) > 1e-3""",
    "cluster runs hold their clusters": """SELECT r.id FROM cluster_runs r
        WHERE r.cluster_count <> (SELECT count(*) FROM clusters c WHERE c.run_id = r.id)""",
    "cluster runs hold their members": """SELECT r.id FROM cluster_runs r
        WHERE r.experience_count <> (SELECT count(*) FROM cluster_members m WHERE m.run_id = r.id)
           OR r.noise_count <> (SELECT count(*) FROM cluster_members m WHERE m.run_id = r.id AND m.cluster_id IS NULL)""",
    "clusters belong to runs": "SELECT run_id FROM clusters WHERE run_id NOT IN (SELECT id FROM cluster_runs)",
    "cluster members belong to runs": "SELECT run_id FROM cluster_members WHERE run_id NOT IN (SELECT id FROM cluster_runs)",
    "cluster members are stored experiences": "SELECT ghap_id FROM cluster_members WHERE ghap_id NOT IN (SELECT id FROM ghap_resolved)",
    "cluster members name their run's clusters": """SELECT m.run_id, m.cluster_id FROM cluster_members m
        WHERE m.cluster_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM clusters c WHERE c.run_id = m.run_id AND c.cluster_id = m.cluster_id)""",
    "value ids unique": "SELECT id, count(*) FROM learned_values GROUP BY id HAVING count(*) > 1",
    "value vectors whole": "SELECT id FROM learned_values WHERE abs(array_inner_product(embedding, embedding) - 1) > 1e-3",
    "values name a stored cluster": """SELECT v.id FROM learned_values v
        WHERE NOT EXISTS (SELECT 1 FROM clusters c WHERE c.axis = v.axis AND c.cluster_id = v.cluster_id)""",
    "code files unique": "SELECT project, path, count(*) FROM code_files GROUP BY ALL HAVING count(*) > 1",
    "code unit ids unique": "SELECT id, count(*) FROM code_units GROUP BY id HAVING count(*) > 1",
    "code units belong to files": """SELECT DISTINCT u.project, u.file_path FROM code_units u
        WHERE NOT EXISTS (SELECT 1 FROM code_files f WHERE f.project = u.project AND f.path = u.file_path)""",
    "code files have their module unit": """SELECT f.project, f.path FROM code_files f
        WHERE NOT EXISTS (SELECT 1 FROM code_units u WHERE u.project = f.project AND u.file_path = f.path
                          AND u.unit_type = 'module')""",
    "unit vectors whole": "SELECT id FROM code_units WHERE abs(array_inner_product(embedding, embedding) - 1) > 1e-3",
    "imports belong to files": """SELECT DISTINCT i.project, i.file_path FROM code_imports i
        WHERE NOT EXISTS (SELECT 1 FROM code_files f WHERE f.project = i.project AND f.path = i.file_path)""",
    "call sites belong to files": """SELECT DISTINCT s.project, s.file_path FROM call_sites s
        WHERE NOT EXISTS (SELECT 1 FROM code_files f WHERE f.project = s.project AND f.path = s.file_path)""",
    "calls belong to files": """SELECT DISTINCT c.project, c.file_path FROM calls c
        WHERE NOT EXISTS (SELECT 1 FROM code_files f WHERE f.project = c.project AND f.path = c.file_path)""",
    "call edges come from existing units": """SELECT c.caller_module, c.caller_qualified_name, c.line FROM calls c
        WHERE NOT EXISTS (SELECT 1 FROM code_units u WHERE u.project = c.project AND u.module = c.caller_module
                          AND u.qualified_name = c.caller_qualified_name)""",
    "call edges reach existing units": """SELECT c.callee_module, c.callee_qualified_name, c.line FROM calls c
        WHERE c.callee_qualified_name IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM code_units u WHERE u.project = c.project AND u.module = c.callee_module
                          AND u.qualified_name = c.callee_qualified_name)""",
    "meta complete": """SELECT k FROM (VALUES ('schema_version'), ('library_version'), ('embedding_model'),
        ('embedding_dim')) t(k) WHERE k NOT IN (SELECT key FROM meta)""",
}


@dataclass
class Snapshot:
    """What one door shows of the rows the model tracks."""

    memories: dict[str, tuple]  # id -> (content, superseded_by, forgotten)
    state_rows: set[str]
    active: dict[str, dict]
    resolved: dict[str, dict]
    axes: dict[tuple[str, str], str]  # (ghap_id, axis) -> text
    pending: int
    runs: dict[str, tuple]
    values: dict[str, tuple]
    code: dict[str, str]
    calls: list[tuple]
    graph: list[tuple] | None  # the calls a fresh resolution of the stored call sites gives
    rewrites: int = 0  # meta 'rewrites': bumped by every change of a memory's state (retrieval caches read it)

    def rows(self) -> tuple:
        return (self.memories, self.state_rows, self.active, self.resolved, self.axes, self.runs, self.values,
                self.code, sorted(self.calls, key=repr), self.rewrites)


# Every INTEGRITY check in one query, each giving a row only when it finds some: a door that opens the file per
# query (Learnmem.sql starts a DuckDB instance of its own each time, ~25 ms) pays that once, not ~30 times.
_INTEGRITY_QUERY = "\nUNION ALL\n".join(
    f"SELECT '{name.replace(chr(39), chr(39) * 2)}' AS name, count(*) AS found, "
    f"list(CAST(r AS VARCHAR))[:3] AS examples FROM ({text}) AS r HAVING count(*) > 0"
    for name, text in INTEGRITY.items())


def integrity_failures(query: Query, door: str) -> list[str]:
    failures = [f"[{door}] integrity: {name}: {found} rows, e.g. {examples}"
                for name, found, examples in query(_INTEGRITY_QUERY)]
    # meta has a PRIMARY KEY (an ART index): each key found by a point lookup as by a scan (duckdb#23788 made
    # rows invisible through a stale index after a crash; ../shared/DESIGN.md)
    for (key,) in query("SELECT key FROM meta"):
        if query("SELECT count(*) FROM meta WHERE key = $k", {"k": key}) != [(1,)]:
            failures.append(f"[{door}] integrity: meta key {key!r} not found once by a point lookup")
    return failures


_ENTRY_COLUMNS = "id, iteration_count, notes, strategy, goal"


def read_snapshot(query: Query) -> Snapshot:
    memories = {row[0]: (row[1], row[2], row[3]) for row in query(
        "SELECT m.id, m.content, s.superseded_by, s.forgotten_at IS NOT NULL FROM memories m "
        "LEFT JOIN memory_states s ON s.memory_id = m.id")}
    state_rows = {row[0] for row in query("SELECT memory_id FROM memory_states")}
    active = {row[0]: {"status": "active", "iterations": row[1], "notes": list(row[2]), "strategy": row[3],
                       "goal": row[4]} for row in query(f"SELECT {_ENTRY_COLUMNS} FROM ghap_active")}
    resolved = {row[0]: {"status": row[5], "iterations": row[1], "notes": list(row[2]), "strategy": row[3],
                         "goal": row[4], "tier": row[6], "result": row[7]} for row in query(
        f"SELECT {_ENTRY_COLUMNS}, outcome_status, confidence_tier, outcome_result FROM ghap_resolved")}
    axes_rows = query("SELECT ghap_id, axis, text, embedding IS NULL FROM experience_axes")
    runs = {row[0]: tuple(row[1:]) for row in query(
        "SELECT id, cluster_count, experience_count, noise_count FROM cluster_runs")}
    values = {row[0]: (row[1], row[2]) for row in query("SELECT id, text, cluster_id FROM learned_values")}
    code = dict(query("SELECT path, content_hash FROM code_files WHERE project = $p", {"p": PROJECT}))
    calls = [tuple(row) for row in query(
        "SELECT file_path, caller_module, caller_qualified_name, callee_module, callee_qualified_name, callee_name, "
        "line FROM calls WHERE project = $p", {"p": PROJECT})]
    rewrites = query("SELECT CAST(value AS BIGINT) FROM meta WHERE key = 'rewrites'")
    return Snapshot(memories=memories, state_rows=state_rows, active=active, resolved=resolved,
                    axes={(r[0], r[1]): r[2] for r in axes_rows}, pending=sum(1 for r in axes_rows if r[3]),
                    runs=runs, values=values, code=code, calls=calls, graph=resolved_graph(query),
                    rewrites=rewrites[0][0] if rewrites else 0)


def resolved_graph(query: Query) -> list[tuple]:
    """The call edges a rebuild would write now: the stored call sites resolved again, as the indexer does."""
    from learnmem.code.indexer import _last_name
    from learnmem.code.model import CallSite, Import, ParsedFile, Unit
    from learnmem.code.resolve import resolve_calls

    params = {"p": PROJECT}
    files = {path: ParsedFile(path=path, language=language, module=module, syntax_errors=errors)
             for path, language, module, errors in query(
                 "SELECT path, language, module, syntax_errors FROM code_files WHERE project = $p ORDER BY path", params)}
    for path, name, qualified, unit_type, start, end, bases in query(
            "SELECT file_path, name, qualified_name, unit_type, start_line, end_line, bases FROM code_units "
            "WHERE project = $p ORDER BY file_path, start_line", params):
        if path in files:
            files[path].units.append(Unit(name, qualified, unit_type, "", "", "", start, end, 1, tuple(bases)))
    for path, local, module, name, line in query(
            "SELECT file_path, local, module, name, line FROM code_imports WHERE project = $p ORDER BY file_path, line",
            params):
        if path in files:
            files[path].imports.append(Import(local, module, name, line))
    for path, caller, callee, name, line, receiver in query(
            "SELECT file_path, caller, callee, name, line, receiver_type FROM call_sites WHERE project = $p "
            "ORDER BY file_path, line", params):
        if path in files:
            files[path].calls.append(CallSite(caller, callee, name, line, receiver))
    return [(e.file_path, e.caller_module, e.caller_qualified_name, e.callee_module, e.callee_qualified_name,
             _last_name(e.callee_name), e.line) for e in resolve_calls(list(files.values()))]


# -- the model: what the logs acknowledged -------------------------------------------------------------


@dataclass
class Mem:
    content: str
    present: bool = True
    superseded_by: str | None = None
    forgotten: bool = False


@dataclass
class Model:
    memories: dict[str, Mem] = field(default_factory=dict)
    entries: dict[str, dict] = field(default_factory=dict)  # as Snapshot.active / resolved rows
    runs: dict[str, tuple] = field(default_factory=dict)
    values: dict[str, tuple] = field(default_factory=dict)
    code: dict[str, str] = field(default_factory=dict)
    rewrites: int = 0  # meta 'rewrites' as last seen, plus the bumps acknowledged since
    derived_memories: set[str] = field(default_factory=set)  # ids whose terms and vector were recomputed
    derived_axes: set[tuple[str, str]] = field(default_factory=set)

    def active_id(self) -> str | None:
        return next((i for i, e in self.entries.items() if e["status"] == "active"), None)

    def expected_superseded_by(self, mid: str, touched: set[str]) -> set:
        by = self.memories[mid].superseded_by
        if by is None:
            return {None}
        if by in touched:
            return {by, None}
        replacement = self.memories.get(by)
        return {by} if replacement is not None and replacement.present else {None}


@dataclass
class Counts:
    kills: Counter = field(default_factory=Counter)  # strategy -> kills at the chosen moment
    fallback_kills: Counter = field(default_factory=Counter)  # strategy -> killed at the deadline instead
    role_kills: Counter = field(default_factory=Counter)
    acks: Counter = field(default_factory=Counter)
    in_flight: Counter = field(default_factory=Counter)  # op -> calls cut by a kill
    applied: Counter = field(default_factory=Counter)  # op -> of those, found applied
    refused: Counter = field(default_factory=Counter)
    episodes: int = 0
    door_checks: int = 0
    generations: int = 0
    final_index_checks: int = 0
    pending_found: int = 0  # experience axes found pending after a kill (then embedded by the library)
    journals_folded: int = 0  # episodes whose killed children left single stores in the file's journal
    empty_graph_found: int = 0  # call graphs found cleared by a run that died before its rebuild


# Memory writes that bump meta 'rewrites' once each (learnmem.memory.memories: count_rewrite).
REWRITING_OPS = ("supersede", "delete", "forget", "forget_hard", "restore")


def apply_acks(model: Model, records: list[dict], counts: Counts, failures: list[str]) -> dict | None:
    """Apply a child's acknowledged writes to the model, in order; return the call in flight at the kill."""
    pending = None
    for record in records:
        phase, op = record["ph"], record["op"]
        if phase == "intent":
            pending = record
            continue
        if phase == "refused":
            counts.refused[op] += 1
            pending = None
            continue
        if phase == "error":
            failures.append(f"child error in {op}: {record['error']}")
            pending = None
            continue
        pending = None
        counts.acks[op] += 1
        if op in REWRITING_OPS:
            model.rewrites += 1
        if op == "store":
            if not record["duplicate"]:
                model.memories[record["id"]] = Mem(record["content"])
        elif op == "store_batch":
            for mid, content, duplicate in zip(record["ids"], record["contents"], record["duplicate"]):
                if not duplicate:
                    model.memories[mid] = Mem(content)
        elif op in ("supersede", "delete", "forget_hard", "forget", "restore"):
            target = model.memories.get(record.get("old") or record["id"])
            if target is None:
                failures.append(f"{op} acknowledged for memory {record.get('old') or record['id']}, which the model "
                                "does not hold")
            elif op == "supersede":
                model.memories[record["id"]] = Mem(record["content"])
                target.superseded_by = record["id"]
            elif op in ("delete", "forget_hard"):
                target.present = False
            else:
                target.forgotten = op == "forget"
        elif op == "start":
            expected = model.active_id()
            if record["previous"] != expected:
                failures.append(f"start_ghap {record['id']} abandoned {record['previous']} but the acknowledged "
                                f"active entry was {expected}")
            if record["previous"] in model.entries:
                model.entries[record["previous"]].update(status="abandoned", tier="abandoned",
                                                         result=f"superseded by {record['id']}")
            model.entries[record["id"]] = {"status": "active", "iterations": 1, "notes": [],
                                           "strategy": None, "goal": record["goal"]}
        elif op == "update":
            entry = model.entries.get(record["id"])
            if entry is None:
                failures.append(f"update_ghap acknowledged for {record['id']}, which no log started")
                continue
            entry["iterations"] = record["iteration_count"]
            if "note" in record:
                entry["notes"] = entry["notes"] + [record["note"]]
            if "strategy" in record:
                entry["strategy"] = record["strategy"]
        elif op in ("resolve", "end_session"):
            entry = model.entries.get(record["id"]) if record["id"] is not None else None
            if record["id"] is not None and entry is None:
                failures.append(f"{op} acknowledged for GHAP entry {record['id']}, which no log started")
            elif entry is not None:
                entry.update(status=record.get("status", "abandoned"), tier=record.get("tier", "abandoned"))
                if op == "end_session":
                    entry["result"] = "session ended"
        elif op == "cluster":
            model.runs[record["run_id"]] = (len(record["clusters"]), record["experience_count"], record["noise_count"])
        elif op == "value":
            model.values[record["id"]] = (record["text"], record["cluster_id"])
        elif op == "index":
            model.code = dict(record["manifest"])
    return pending


STALE_GRAPH = "call graph differs from the stored call sites resolved again"


def model_failures(model: Model, snap: Snapshot, flights: list[dict], index_acked: bool,
                   counts: Counts | None, shared_tree: bool = False) -> list[str]:
    """Compare the file with the model; check the calls cut by kills for atomicity. `counts` (given once per
    episode) records what the cut calls did. `shared_tree`: two indexers ran on the tree (one editing it),
    so which version of a file is stored is not known: only the call graph is checked there."""
    failures: list[str] = []
    touched_memories: set[str] = set()
    touched_entries: set[str] = set()
    explained_memories: set[str] = set()
    explained_entries: set[str] = set()
    by_content = {row[0]: mid for mid, row in snap.memories.items()}
    goal_of = {e["goal"]: gid for gid, e in {**snap.active, **snap.resolved}.items()}
    for flight in flights:
        op = flight["op"]
        for key in ("id", "old"):
            if op in ("store", "store_batch", "supersede", "delete", "forget", "restore", "forget_hard") and flight.get(key):
                touched_memories.add(flight[key])
        if op in ("update", "resolve", "end_session") and flight.get("id"):
            touched_entries.add(flight["id"])
        if op == "start" and flight.get("previous"):
            touched_entries.add(flight["previous"])

    def state_of(mid: str) -> tuple | None:
        return snap.memories.get(mid)

    # -- memories the logs settled
    for mid, mem in model.memories.items():
        if mid in touched_memories:
            continue
        row = state_of(mid)
        if not mem.present:
            if row is not None or mid in snap.state_rows:
                failures.append(f"memory {mid}: deleted (acknowledged) but still stored: {row}")
            continue
        if row is None:
            failures.append(f"memory {mid}: acknowledged ({mem.content!r}) but missing")
            continue
        if row[0] != mem.content:
            failures.append(f"memory {mid}: content {row[0]!r}, acknowledged {mem.content!r}")
        if row[2] != mem.forgotten:
            failures.append(f"memory {mid}: forgotten={row[2]}, acknowledged forgotten={mem.forgotten}")
        if row[1] not in model.expected_superseded_by(mid, touched_memories):
            failures.append(f"memory {mid}: superseded_by={row[1]}, acknowledged "
                            f"{model.expected_superseded_by(mid, touched_memories)}")

    # -- calls cut by a kill: all or nothing
    for flight in flights:
        op, applied = flight["op"], None
        if op == "store":
            mid = by_content.get(flight["content"])
            applied = mid is not None
            if mid:
                explained_memories.add(mid)
                if snap.memories[mid][1:] != (None, False):
                    failures.append(f"memory {mid} (store cut by the kill) stored but not current: {snap.memories[mid]}")
        elif op == "store_batch":
            found = [by_content.get(content) for content in flight["contents"]]
            explained_memories.update(mid for mid in found if mid)
            applied = all(found)
            if any(found) and not all(found):
                failures.append(f"store_memories cut by the kill is half applied: {sum(map(bool, found))} of "
                                f"{len(found)} memories stored")
        elif op == "supersede":
            mid = by_content.get(flight["content"])
            old = state_of(flight["old"])
            applied = mid is not None
            if mid:
                explained_memories.add(mid)
            if old is None:
                failures.append(f"memory {flight['old']} (superseded by a call cut by the kill) is missing")
            elif (applied and old[1] != mid) or (not applied and old[1] is not None):
                failures.append(f"supersede of {flight['old']} cut by the kill is half applied: new memory "
                                f"{mid}, old one's superseded_by {old[1]}")
        elif op in ("delete", "forget_hard"):
            applied = state_of(flight["id"]) is None
            mem = model.memories.get(flight["id"])
            if applied and flight["id"] in snap.state_rows:
                failures.append(f"memory {flight['id']} deleted by a call cut by the kill, its state row kept")
            if not applied and mem is not None and snap.memories[flight["id"]][0] != mem.content:
                failures.append(f"memory {flight['id']}: content changed by an interrupted delete")
        elif op in ("forget", "restore"):
            row = state_of(flight["id"])
            if row is None:
                failures.append(f"memory {flight['id']}: missing after an interrupted {op}")
            else:
                applied = row[2] == (op == "forget")
        elif op == "start":
            gid = goal_of.get(flight["goal"])
            applied = gid is not None
            if gid:
                explained_entries.add(gid)
            previous = flight.get("previous") or model.active_id()
            if previous is not None:
                prev = snap.active.get(previous) or snap.resolved.get(previous)
                abandoned = prev is not None and prev["status"] == "abandoned" and prev.get("result") == f"superseded by {gid}"
                if prev is None:
                    failures.append(f"GHAP entry {previous} missing after an interrupted start")
                elif applied != abandoned:
                    failures.append(f"start_ghap cut by the kill is half applied: new entry {gid}, previous "
                                    f"{previous} is {prev['status']} ({prev.get('result')})")
        elif op == "update":
            entry, known = snap.active.get(flight["id"]), model.entries.get(flight["id"])
            if entry is None or known is None:
                failures.append(f"GHAP entry {flight['id']} not active after an interrupted update: "
                                f"{snap.resolved.get(flight['id'])}")
            else:
                changes = []
                if "note" in flight:
                    changes.append(entry["notes"] == known["notes"] + [flight["note"]])
                    if not changes[-1] and entry["notes"] != known["notes"]:
                        failures.append(f"GHAP entry {flight['id']}: notes {entry['notes']} after an update of "
                                        f"{known['notes']} + {flight['note']!r}")
                if "prediction" in flight:
                    changes.append(entry["iterations"] == known["iterations"] + 1)
                    if not changes[-1] and entry["iterations"] != known["iterations"]:
                        failures.append(f"GHAP entry {flight['id']}: iteration {entry['iterations']} after an "
                                        f"update of iteration {known['iterations']}")
                if "strategy" in flight and flight["strategy"] != known["strategy"] and known["strategy"] is not None:
                    changes.append(entry["strategy"] == flight["strategy"])
                applied = all(changes)
                if any(changes) and not all(changes):
                    failures.append(f"update_ghap of {flight['id']} cut by the kill is half applied: {flight}, "
                                    f"now {entry}, before {known}")
        elif op in ("resolve", "end_session"):
            gid = flight.get("id")
            if gid is None:
                applied = None
            elif gid in snap.resolved:
                applied = True
                status = flight.get("status", "abandoned")
                if snap.resolved[gid]["status"] != status:
                    failures.append(f"GHAP entry {gid}: resolved {snap.resolved[gid]['status']} by a call asking "
                                    f"for {status}")
            elif gid in snap.active:
                applied = False
            else:
                failures.append(f"GHAP entry {gid} missing after an interrupted {op}")
        elif op == "cluster":
            new = set(snap.runs) - set(model.runs)
            applied = bool(new)
            if len(new) > 1:
                failures.append(f"{len(new)} cluster runs appeared from one interrupted get_clusters")
        elif op == "value":
            new = [vid for vid, value in snap.values.items() if vid not in model.values]
            applied = bool(new)
            if len(new) > 1 or any(snap.values[vid] != (flight["text"], flight["cluster_id"]) for vid in new):
                failures.append(f"values appeared from one interrupted store_value: {new}")
        elif op == "reindex":
            applied = None
        elif op == "index" and shared_tree:
            applied = snap.code == flight["manifest"]
        elif op == "index":
            applied = snap.code == flight["manifest"]
            for path, digest in snap.code.items():
                if digest not in (model.code.get(path), flight["manifest"].get(path)):
                    failures.append(f"code file {path}: hash {digest[:12]} is neither the one indexed before "
                                    f"({str(model.code.get(path))[:12]}) nor the tree's ({str(flight['manifest'].get(path))[:12]})")
            for path in set(model.code) & set(flight["manifest"]):
                if path not in snap.code:
                    failures.append(f"code file {path}: dropped by an interrupted run though it is in the tree")
        if counts is not None:
            counts.in_flight[op] += 1
            counts.applied[op] += bool(applied)

    # -- nothing that no log asked for
    for mid, row in snap.memories.items():
        if mid not in model.memories and mid not in explained_memories:
            failures.append(f"memory {mid} ({row[0]!r}) is stored but no log acknowledged or attempted it")
    for gid in {**snap.active, **snap.resolved}:
        if gid not in model.entries and gid not in explained_entries:
            failures.append(f"GHAP entry {gid} is stored but no log acknowledged or attempted it")
    if not any(f["op"] == "cluster" for f in flights) and set(snap.runs) - set(model.runs):
        failures.append(f"cluster runs {sorted(set(snap.runs) - set(model.runs))} stored but never acknowledged")
    if not any(f["op"] == "value" for f in flights) and set(snap.values) - set(model.values):
        failures.append(f"values {sorted(set(snap.values) - set(model.values))} stored but never acknowledged")

    # -- GHAP entries, runs, values and code the logs settled
    for gid, known in model.entries.items():
        if gid in touched_entries:
            continue
        entry = snap.active.get(gid) or snap.resolved.get(gid)
        if entry is None:
            failures.append(f"GHAP entry {gid}: acknowledged ({known['status']}) but missing")
            continue
        for key in ("status", "iterations", "notes", "strategy", "tier", "result"):
            if known.get(key) is not None and entry.get(key) != known[key]:
                failures.append(f"GHAP entry {gid}: {key} {entry.get(key)!r}, acknowledged {known[key]!r}")
    for rid, run in model.runs.items():
        if snap.runs.get(rid) != run:
            failures.append(f"cluster run {rid}: {snap.runs.get(rid)}, acknowledged {run}")
    for vid, value in model.values.items():
        if snap.values.get(vid) != value:
            failures.append(f"value {vid}: {snap.values.get(vid)}, acknowledged {value}")
    if not shared_tree and not any(f["op"] == "index" for f in flights) and snap.code != model.code:
        missing = sorted(set(model.code) - set(snap.code))[:3]
        extra = sorted(set(snap.code) - set(model.code))[:3]
        changed = sorted(p for p in set(model.code) & set(snap.code) if model.code[p] != snap.code[p])[:3]
        failures.append(f"code files differ from the last acknowledged index run: missing {missing}, "
                        f"extra {extra}, other hash {changed}")
    if snap.rewrites < model.rewrites:
        failures.append(f"meta 'rewrites' is {snap.rewrites}: fewer than the {model.rewrites} counted before plus "
                        "those acknowledged since (a memory cache would miss a change)")
    # -- the call graph is the resolution of what is stored, or empty until the next run rebuilds it
    graph_differs = snap.graph is not None and sorted(snap.calls, key=repr) != sorted(snap.graph, key=repr)
    if graph_differs and (snap.calls or (index_acked and not shared_tree)):
        only_stored = sorted(set(snap.calls) - set(snap.graph), key=repr)[:2]
        missing = sorted(set(snap.graph) - set(snap.calls), key=repr)[:2]
        failures.append(f"{STALE_GRAPH}: {len(snap.calls)} edges stored, {len(snap.graph)} expected; e.g. stored "
                        f"only {only_stored}, missing {missing}")
    return failures


def adopt(model: Model, snap: Snapshot) -> None:
    """After the checks, the model is what the file holds (so a failure is reported once, not every episode)."""
    model.memories = {mid: Mem(row[0], True, row[1], row[2]) for mid, row in snap.memories.items()} | {
        mid: mem for mid, mem in model.memories.items() if not mem.present and mid not in snap.memories}
    model.entries = {gid: dict(entry) for gid, entry in {**snap.active, **snap.resolved}.items()}
    model.runs, model.values, model.code = dict(snap.runs), dict(snap.values), dict(snap.code)
    model.rewrites = snap.rewrites


# -- a generation: one file, one tree ------------------------------------------------------------------

_embedders: dict[str, Any] = {}


def embedder_for(kind: str):
    if kind not in _embedders:
        from learnmem.embedding.embed import HashingEmbedder, load_embedder

        _embedders[kind] = HashingEmbedder() if kind == "hashing" else load_embedder()
    return _embedders[kind]


class Generation:
    """One learnmem file and one source tree, written by children across episodes and checked after each."""

    def __init__(self, root: Path, number: int, embedder_kind: str, seed: int):
        import learnmem

        self.number, self.embedder_kind = number, embedder_kind
        self.dir = root / f"gen{number:02d}"
        self.dir.mkdir(parents=True)
        self.db = self.dir / "learnmem.duckdb"
        self.tree = self.dir / "tree"
        self.logs = self.dir / "logs"
        self.logs.mkdir()
        self.embedder = embedder_for(embedder_kind)
        self.model = Model()
        self.graph_stale = False
        rng = random.Random(seed)
        source = self.dir / "seed.jsonl"
        source.write_text("".join(json.dumps(e) + "\n" for e in seed_entries(SEED_ENTRIES, seed)), encoding="utf-8")
        lm = learnmem.open(self.db, embedder=self.embedder)
        imported = lm.import_ghap(source)
        assert imported.imported == SEED_ENTRIES and not imported.errors, imported
        lm.close()
        make_tree(self.tree, rng, MODEL_TREE_FILES if embedder_kind == "model" else TREE_FILES)
        self.max_files = MODEL_TREE_FILES + 8 if embedder_kind == "model" else MAX_TREE_FILES
        # The seeded file: checked for integrity, and the model starts as what it holds.
        self.setup_failures = self.check_episode([], Counts(), trusted=True)

    def copy_to(self, root: Path) -> Generation:
        """A generation of its own under `root` starting where this one stands (its file, tree and model):
        the verifier's tests each start from one seeded generation without seeding again (~6 s each)."""
        twin = copy.copy(self)
        twin.dir = root / self.dir.name
        shutil.copytree(self.dir, twin.dir)
        twin.db, twin.tree, twin.logs = twin.dir / self.db.name, twin.dir / self.tree.name, twin.dir / self.logs.name
        twin.model = copy.deepcopy(self.model)
        return twin

    # -- the doors

    def _through_duckdb(self, work: Callable[[Query], Any]) -> Any:
        import duckdb

        con = duckdb.connect(str(self.db), read_only=True)
        try:
            return work(lambda text, params=None: con.execute(text, params).fetchall())
        finally:
            con.close()

    def _through_library(self, read_only: bool, work: Callable[[Query, Any], Any]) -> Any:
        import learnmem

        lm = learnmem.open(self.db, read_only=read_only, embedder=self.embedder)
        try:
            return work(lambda text, params=None: lm.sql(text, params).fetchall(), lm)
        finally:
            if not read_only:
                lm.close()

    def _fold_journal(self) -> bool:
        """What the next learnmem process to open the file read-write does first: fold the single stores a killed
        child left in the journal. Whether there were any."""
        import learnmem
        from learnmem.storage.journal import Journal

        if not Journal(self.db).holds_rows():
            return False
        learnmem.open(self.db, embedder=self.embedder).close()
        return True

    def check_episode(self, logs: list[Path], counts: Counts, trusted: bool = False) -> list[str]:
        """Apply the episode's logs to the model and check the file through the three doors."""
        failures: list[str] = []
        flights, index_acked, shared_tree = [], False, False
        for log in logs:
            records = read_log(log)
            flight = apply_acks(self.model, records, counts, failures)
            if flight is not None:
                flights.append(flight)
            index_ops = [r for r in records if r["op"] == "index" and r["ph"] in ("intent", "ack")]
            if index_ops and index_ops[-1]["ph"] == "ack":
                index_acked = True
            # a second indexer reads the tree while the first edits it: which version of a file it stored is not known
            shared_tree = shared_tree or any(r["op"] == "reindex" for r in records)
        snapshots: dict[str, Snapshot] = {}
        counts.journals_folded += self._fold_journal()

        def plain(query: Query) -> Snapshot:
            failures.extend(integrity_failures(query, "duckdb read-only"))
            return read_snapshot(query)

        def attempt(door: str, open_door: Callable[[], Snapshot]) -> None:
            try:
                snapshots[door] = open_door()
            except Exception as error:  # noqa: BLE001 - a door that cannot read the file is a failure
                failures.append(f"[{door}] cannot read the file: {type(error).__name__}: {error}")

        attempt("duckdb read-only", lambda: self._through_duckdb(plain))

        def library(door: str) -> Callable:
            def work(query: Query, lm) -> Snapshot:
                failures.extend(integrity_failures(query, door))
                snap = read_snapshot(query)
                failures.extend(api_failures(lm, snap, door))
                return snap
            return work

        attempt("learnmem read-only", lambda: self._through_library(True, library("learnmem read-only")))
        attempt("learnmem read-write", lambda: self._through_library(False, library("learnmem read-write")))
        counts.door_checks += len(snapshots)
        if not snapshots:
            return failures
        reference = next(iter(snapshots.values()))
        for door, snap in snapshots.items():
            if snap.rows() != reference.rows():
                failures.append(f"[{door}] sees other rows than {next(iter(snapshots))}: {diff(reference, snap)}")
        if not trusted:
            found = model_failures(self.model, reference, flights, index_acked, counts, shared_tree=shared_tree)
            stale = [f for f in found if f.startswith(STALE_GRAPH)]
            if stale and self.graph_stale:  # the same stale graph as after the last episode: reported once
                found = [f for f in found if not f.startswith(STALE_GRAPH)]
            self.graph_stale = bool(stale)
            failures += [f"[model] {f}" for f in found]
        counts.pending_found += reference.pending
        counts.empty_graph_found += bool(not reference.calls and reference.graph)
        try:
            failures += self._read_write_checks(reference)
        except Exception as error:  # noqa: BLE001
            failures.append(f"[learnmem read-write] checkpoint, embedding or derived checks failed: "
                            f"{type(error).__name__}: {error}")
        adopt(self.model, reference)
        return failures

    def _read_write_checks(self, before: Snapshot) -> list[str]:
        """Read-write: a checkpoint under the writer lock, pending axes embedded by a search, derived data
        recomputed from its source."""
        import numpy as np

        import learnmem
        from learnmem.learning import experiences
        from learnmem.search import keywords
        from learnmem.embedding import passages
        from learnmem.errors import LearnmemError
        from learnmem.storage.vectors import to_matrix

        failures: list[str] = []
        lm = learnmem.open(self.db, embedder=self.embedder)
        try:
            try:  # what backup() does first: the WAL a kill left replayed and folded in, under the writer lock
                with lm.store.frozen():
                    pass
            except LearnmemError as error:
                failures.append(f"[learnmem read-write] Store.frozen (backup's checkpoint) refuses the file: {error}")
            lm.search_experiences("the crash harness checks pending axes", axis="full")
            query = lambda text, params=None: lm.sql(text, params).fetchall()
            after = read_snapshot(query)
            if after.rows() != before.rows():
                failures.append(f"[learnmem read-write] a checkpoint and an embedding changed rows: {diff(before, after)}")
            if after.pending:
                failures.append(f"[learnmem read-write] {after.pending} experience axes still pending after a search "
                                "on a read-write handle")
            # memories: terms and vector recomputed from the text
            new = sorted(set(after.memories) - self.model.derived_memories)
            if new:
                table = lm.store.run_query("SELECT id, content, terms, embedding FROM memories WHERE id IN "
                                           "(SELECT unnest($ids::VARCHAR[])) ORDER BY id", {"ids": new})
                contents = table.column("content").to_pylist()
                stored = to_matrix(table.column("embedding"), self.embedder.dim)
                fresh, _ = passages.embed_texts(self.embedder, contents)
                for mid, content, terms, cosine in zip(table.column("id").to_pylist(), contents,
                                                       table.column("terms").to_pylist(),
                                                       np.einsum("ij,ij->i", stored, fresh)):
                    if terms != keywords.terms(content):
                        failures.append(f"memory {mid}: stored terms are not the terms of its text")
                    if abs(1 - cosine) > VECTOR_TOLERANCE:
                        failures.append(f"memory {mid}: stored vector is not its text's (cosine {cosine:.4f})")
                self.model.derived_memories.update(new)
            # experience axes: texts rebuilt from the entry, vectors recomputed from the texts
            new_axes = sorted(set(after.axes) - self.model.derived_axes)
            if new_axes:
                ids = sorted({gid for gid, _ in new_axes})
                cursor = lm.store.run_query("SELECT * FROM ghap_resolved WHERE id IN (SELECT unnest($ids::VARCHAR[]))",
                                            {"ids": ids}).to_pylist()
                texts = {row["id"]: experiences.axis_texts(row) for row in cursor}
                table = lm.store.run_query("SELECT ghap_id, axis, text, embedding FROM experience_axes WHERE ghap_id IN "
                                           "(SELECT unnest($ids::VARCHAR[])) ORDER BY ghap_id, axis", {"ids": ids})
                rows = list(zip(table.column("ghap_id").to_pylist(), table.column("axis").to_pylist(),
                                table.column("text").to_pylist()))
                for gid in ids:
                    stored_axes = {axis: text for g, axis, text in rows if g == gid}
                    if stored_axes != texts.get(gid):
                        failures.append(f"GHAP entry {gid}: axis texts {sorted(stored_axes)} are not the ones its "
                                        f"entry gives {sorted(texts.get(gid, {}))}")
                if rows and table.column("embedding").null_count == 0:
                    stored = to_matrix(table.column("embedding"), self.embedder.dim)
                    fresh, _ = passages.embed_texts(self.embedder, [text for _, _, text in rows])
                    for (gid, axis, _), cosine in zip(rows, np.einsum("ij,ij->i", stored, fresh)):
                        if abs(1 - cosine) > VECTOR_TOLERANCE:
                            failures.append(f"axis {gid}:{axis}: stored vector is not its text's (cosine {cosine:.4f})")
                self.model.derived_axes.update(new_axes)
        finally:
            lm.close()
        return failures

    # -- the end of a generation

    def final_index_check(self) -> list[str]:
        """index_codebase on the final tree, incrementally on the crashed file, must equal a clean index."""
        import learnmem

        failures: list[str] = []
        lm = learnmem.open(self.db, embedder=self.embedder)
        lm.index_codebase(self.tree, project=PROJECT, progress=False)
        clean_path = self.dir / "clean.duckdb"
        clean = learnmem.open(clean_path, embedder=self.embedder)
        clean.index_codebase(self.tree, project=PROJECT, progress=False)
        for name, text in CODE_TABLES.items():
            ours = sorted(map(_hashable, lm.sql(text, {"p": PROJECT}).fetchall()), key=repr)
            theirs = sorted(map(_hashable, clean.sql(text, {"p": PROJECT}).fetchall()), key=repr)
            if ours != theirs:
                only_ours = [row for row in ours if row not in theirs][:2]
                only_theirs = [row for row in theirs if row not in ours][:2]
                failures.append(f"[final index] {name}: {len(ours)} rows after the crashes, {len(theirs)} in a clean "
                                f"index; only after the crashes: {only_ours}; only clean: {only_theirs}")
        vectors = ("SELECT file_path || ':' || qualified_name || ':' || start_line, embedding FROM code_units "
                   "WHERE project = $p")
        ours = dict(lm.sql(vectors, {"p": PROJECT}).fetchall())
        theirs = dict(clean.sql(vectors, {"p": PROJECT}).fetchall())
        import numpy as np

        for key in set(ours) & set(theirs):
            cosine = float(np.dot(ours[key], theirs[key]))
            if abs(1 - cosine) > VECTOR_TOLERANCE:
                failures.append(f"[final index] unit {key}: vector differs from a clean index's (cosine {cosine:.4f})")
        query = lambda text, params=None: lm.sql(text, params).fetchall()
        failures += integrity_failures(query, "final index")
        lm.close()
        return failures


CODE_TABLES = {
    "code_files": "SELECT path, language, module, content_hash, size_bytes, syntax_errors FROM code_files WHERE project = $p",
    "code_units": "SELECT file_path, module, name, qualified_name, unit_type, signature, docstring, content, start_line, "
                  "end_line, language, complexity, content_hash, bases, terms FROM code_units WHERE project = $p",
    "code_imports": "SELECT file_path, local, module, name, line FROM code_imports WHERE project = $p",
    "call_sites": "SELECT file_path, caller, callee, name, line, receiver_type FROM call_sites WHERE project = $p",
    "calls": "SELECT file_path, caller_module, caller_qualified_name, callee_module, callee_qualified_name, "
             "callee_name, line FROM calls WHERE project = $p",
}


def _hashable(row: tuple) -> tuple:
    return tuple(tuple(value) if isinstance(value, list) else value for value in row)


def api_failures(lm, snap: Snapshot, door: str) -> list[str]:
    """The library's own reads agree with the rows (list_memories, get_active_ghap, list_values)."""
    failures = []
    listed, offset = set(), 0
    while True:
        page = lm.list_memories(limit=100, offset=offset, include_superseded=True)
        listed |= {m.id for m in page}
        if len(page) < 100:
            break
        offset += 100
    visible = {mid for mid, row in snap.memories.items() if not row[2]}
    if listed != visible:
        failures.append(f"[{door}] list_memories shows {len(listed)} memories, the rows {len(visible)}: "
                        f"{sorted(listed ^ visible)[:3]}")
    active = lm.get_active_ghap()
    if (active.id if active.has_active else None) != next(iter(snap.active), None):
        failures.append(f"[{door}] get_active_ghap gives {active.id}, the rows {list(snap.active)}")
    values = {v.id for v in lm.list_values(limit=100)}
    if len(snap.values) <= 100 and values != set(snap.values):
        failures.append(f"[{door}] list_values gives {len(values)} values, the rows {len(snap.values)}")
    return failures


def diff(a: Snapshot, b: Snapshot) -> str:
    names = ("memories", "memory states", "active entries", "resolved entries", "axes", "cluster runs", "values",
             "code files", "calls", "meta rewrites")
    return ", ".join(name for name, x, y in zip(names, a.rows(), b.rows()) if x != y) or "nothing"


# Failures with a known cause, each reproduced by a strict xfail test of tests/storage/test_crash.py: the short run
# there tolerates them (they are random), the report counts them apart. Remove an entry once it is fixed.
KNOWN_DEFECTS: dict[str, str] = {}  # both found so far are fixed: see bench/crash/RESULTS.md


def known_defect(failure: str) -> str | None:
    """The known defect a failure shows, if any (KNOWN_DEFECTS)."""
    return next((cause for signature, cause in KNOWN_DEFECTS.items() if signature in failure), None)


# -- episodes: spawn, kill, check ----------------------------------------------------------------------

STRATEGIES_BY_ROLE = {
    "memory": {"startup": 1, "after_acks": 3, "in_flight": 3, "holding_lock": 2, "checkpoint": 1, "waiting": 1},
    "ghap": {"startup": 1, "after_acks": 3, "in_flight": 3, "holding_lock": 2, "checkpoint": 1, "waiting": 1},
    "index": {"startup": 1, "after_acks": 1, "mid_index": 4, "holding_lock": 2, "checkpoint": 1, "waiting": 1},
}
STRATEGIES_BY_ROLE["reindex"] = STRATEGIES_BY_ROLE["index"]


@dataclass
class Child:
    role: str
    proc: subprocess.Popen
    log: Path
    stderr: Path
    strategy: str
    started: float
    k: int  # acknowledgements to wait for
    delay: float  # seconds, after the moment is reached
    deadline: float
    offset: int = 0
    acks: int = 0
    last_phase: str | None = None
    last_op: str | None = None
    armed_at: float | None = None
    killed: bool = False

    def refresh(self) -> None:
        try:
            with open(self.log, "rb") as handle:
                handle.seek(self.offset)
                data = handle.read()
        except FileNotFoundError:
            return
        end = data.rfind(b"\n")
        if end < 0:
            return
        self.offset += end + 1
        for line in data[: end + 1].split(b"\n"):
            if line.strip():
                record = json.loads(line)
                self.last_phase, self.last_op = record["ph"], record["op"]
                self.acks += record["ph"] == "ack"


def lock_holders(lock: Path) -> set[int]:
    """Pids holding the flock on `lock` (from /proc/locks; waiters are listed with '->' and left out)."""
    try:
        inode = os.stat(lock).st_ino
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return set()
    holders = set()
    for line in lines:
        parts = line.split()
        if len(parts) > 5 and parts[1] == "FLOCK" and parts[5].endswith(f":{inode}"):
            holders.add(int(parts[4]))
    return holders


def _moment_reached(child: Child, now: float, holders: set[int], wal_bytes: int, others: bool) -> bool:
    pid, s = child.proc.pid, child.strategy
    if s == "startup":
        return now - child.started >= child.delay
    if s == "after_acks":
        return child.acks >= child.k
    if s == "in_flight":
        return child.acks >= child.k and child.last_phase == "intent"
    if s == "holding_lock":
        return child.acks >= child.k and pid in holders
    if s == "checkpoint":
        return child.acks >= child.k - 1 and pid in holders and wal_bytes > 0
    if s == "waiting":
        return others and child.last_phase == "intent" and pid not in holders and bool(holders - {pid})
    if s == "mid_index":
        return child.last_phase == "intent" and child.last_op in ("index", "reindex")
    raise ValueError(s)


def run_episode(gen: Generation, rng: random.Random, counts: Counts, tag_start: int, log_dir: Path,
                progress: Callable[[str], None], second_indexer: float = 0.0) -> tuple[list[Path], list[str], int]:
    """Spawn the children of one episode, kill each at its moment, return their logs and any failures.
    `second_indexer`: the chance that an episode with an indexer gets a second one on the same tree."""
    roles = [role for role, p in (("memory", 0.8), ("memory", 0.3), ("ghap", 0.6), ("index", 0.5)) if rng.random() < p]
    if not roles:
        roles = [rng.choice(["memory", "ghap", "index"])]
    if "index" in roles and rng.random() < second_indexer:
        roles.append("reindex")
    present = {mid: ("forgotten" if mem.forgotten else "superseded" if mem.superseded_by else "current",
                     mem.superseded_by) for mid, mem in gen.model.memories.items() if mem.present}
    memory_children = roles.count("memory")
    shares: list[dict] = [{} for _ in range(memory_children)]
    for mid in sorted(present):
        if memory_children:
            shares[rng.randrange(memory_children)][mid] = present[mid]
    children: list[Child] = []
    failures: list[str] = []
    env = dict(os.environ)
    env.pop("LEARNMEM_DB", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    model_factor = 3.0 if gen.embedder_kind == "model" else 1.0
    for i, role in enumerate(roles):
        tag = tag_start + i
        log = log_dir / f"{tag:05d}-{role}.jsonl"
        spec = {"db": str(gen.db), "role": role, "log": str(log), "seed": rng.randrange(2**31), "tag": tag,
                "embedder": gen.embedder_kind, "tree": str(gen.tree), "max_files": gen.max_files,
                "write_batch": rng.choice((4, 16, 200)),
                "memories": shares.pop() if role == "memory" else {}}
        spec_path = log_dir / f"{tag:05d}-{role}.spec.json"
        spec_path.write_text(json.dumps(spec), encoding="utf-8")
        table = dict(STRATEGIES_BY_ROLE[role])
        if len(roles) == 1:
            table.pop("waiting")
        strategy = rng.choices(list(table), weights=list(table.values()))[0]
        delay = {"startup": rng.uniform(0.05, 1.5 * model_factor), "after_acks": rng.uniform(0, 0.2),
                 "in_flight": rng.uniform(0, 0.03), "mid_index": rng.uniform(0, 2.5 * model_factor)}.get(strategy, 0.0)
        stderr = log_dir / f"{tag:05d}-{role}.stderr"
        with open(stderr, "wb") as err:
            proc = subprocess.Popen([sys.executable, "-m", "bench.crash.run", "--child", str(spec_path)],
                                    cwd=str(gen.dir), env=env, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=err)
        now = time.monotonic()
        children.append(Child(role, proc, log, stderr, strategy, now,
                              k=rng.randint(0, 2) if role in ("index", "reindex") else rng.randint(1, 8), delay=delay,
                              deadline=now + rng.uniform(6, 10) * model_factor))
    lock, wal = Path(f"{gen.db}.lock"), Path(f"{gen.db}.wal")
    while any(not c.killed for c in children):
        now = time.monotonic()
        holders = lock_holders(lock)
        try:
            wal_bytes = wal.stat().st_size
        except OSError:
            wal_bytes = 0
        alive = [c for c in children if not c.killed]
        for child in alive:
            child.refresh()
            if child.proc.poll() is not None:
                child.killed = True
                tail = child.stderr.read_bytes()[-1500:].decode("utf-8", "replace")
                failures.append(f"child {child.role} exited by itself (rc {child.proc.returncode}): {tail}")
                continue
            if child.armed_at is None and _moment_reached(child, now, holders, wal_bytes, len(alive) > 1):
                child.armed_at = now
            fire = child.armed_at is not None and now - child.armed_at >= (
                child.delay if child.strategy in ("after_acks", "in_flight", "mid_index") else 0)
            if fire or now >= child.deadline:
                child.proc.kill()
                child.proc.wait()
                child.killed = True
                (counts.kills if fire else counts.fallback_kills)[child.strategy] += 1
                counts.role_kills[child.role] += 1
        time.sleep(0.002)
    progress(" ".join(f"{c.role}:{c.strategy}{'' if c.armed_at else '(deadline)'}/{c.acks}" for c in children))
    return [c.log for c in children], failures, len(children)


# -- the run -------------------------------------------------------------------------------------------


@dataclass
class Result:
    kills: int
    seconds: float
    counts: Counts
    failures: list[str]
    workdir: Path
    generations: list[str]


def run(kills: int, workdir: Path, seed: int = 1, generation_kills: int = 25, model_every: int = 4,
        second_indexer: float = 0.0, progress: Callable[[str], None] = lambda message: None) -> Result:
    """Kill `kills` children over generations of `generation_kills` kills; every `model_every`-th
    generation (the 2nd, 6th, ...) uses the real model (0: never). `second_indexer`: the chance that an
    episode with an indexer gets a second one on the same tree (0 in the test suite: see tests/storage/test_crash.py)."""
    started = time.monotonic()
    rng = random.Random(seed)
    counts, failures, generations = Counts(), [], []
    done, tag, number = 0, 0, 0
    while done < kills:
        model = model_every > 0 and number % model_every == 1
        gen = Generation(workdir, number, "model" if model else "hashing", rng.randrange(2**31))
        counts.generations += 1
        failures += [f"gen {number} setup: {f}" for f in gen.setup_failures]
        target = min(kills, done + generation_kills)
        progress(f"generation {number} ({gen.embedder_kind}): kills {done}..{target}")
        while done < target:
            logs, episode_failures, killed = run_episode(gen, rng, counts, tag, gen.logs, progress, second_indexer)
            tag += killed
            done += killed
            counts.episodes += 1
            episode_failures += gen.check_episode(logs, counts)
            failures += [f"gen {number} episode {counts.episodes}: {f}" for f in episode_failures]
            if episode_failures:
                progress(f"FAILURES: {episode_failures[:3]}")
        final = gen.final_index_check()
        counts.final_index_checks += 1
        failures += [f"gen {number} end: {f}" for f in final]
        generations.append(f"{number}: {gen.embedder_kind}, {sum(1 for _ in gen.logs.glob('*.jsonl'))} children, "
                           f"final index {'equal to a clean index' if not final else 'DIFFERENT'}")
        number += 1
    return Result(kills=done, seconds=time.monotonic() - started, counts=counts, failures=failures,
                  workdir=workdir, generations=generations)


# -- the report ----------------------------------------------------------------------------------------


def report(info: dict, result: Result, config: dict) -> str:
    c = result.counts
    intro = ("Produced by `python -m bench.crash` (bench/crash/run.py): writer processes killed with SIGKILL at "
             "chosen moments, then the file checked through every door against what the writers' fsync'd logs "
             "acknowledged (issue 9 item 1). The module docstring lists every check.")
    lines = ["# learnmem crash harness", "", intro, "", "## Machine", "", "|  |  |", "|---|---|"]
    for key, value in info.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        lines.append(f"| {key} | {value} |")
    lines += ["", "## Settings", "", "|  |  |", "|---|---|"]
    lines += [f"| {key} | {value} |" for key, value in config.items()]
    total_acks = sum(c.acks.values())
    final_failed = len({f.split(" end: ")[0] for f in result.failures if " end: " in f})
    cut, applied = sum(c.in_flight.values()), sum(c.applied.values())
    unexplained = sum(1 for f in result.failures if not known_defect(f))
    results = [
        f"kills (SIGKILL of a live writer): **{result.kills}** in {c.episodes} episodes over {c.generations} generations",
        (f"acknowledged writes checked: **{total_acks}**; calls cut by a kill: {cut} (found applied: {applied}, "
        f"not applied: {cut - applied}; each checked all-or-nothing)"),
        f"door checks (a door opened and every check run through it): {c.door_checks}",
        f"experience axes found pending after a kill and then embedded by the library: {c.pending_found}",
        f"episodes whose killed children left single stores in the journal (folded by the next open): "
        f"{c.journals_folded}",
        f"call graphs found cleared by a run killed before its rebuild (rebuilt by the next run): {c.empty_graph_found}",
        (f"final incremental index equal to a clean index: {c.final_index_checks - final_failed} of "
        f"{c.final_index_checks} generations"),
        (f"**failures: {len(result.failures)}** ({len(result.failures) - unexplained} with a known cause, "
        f"{unexplained} not explained)"),
        f"run time: {result.seconds:.0f} s",
    ]
    lines += ["", "## Results", ""] + [f"- {line}" for line in results] + ["",
              "| write | acknowledged | cut by a kill | of those applied | refused (nothing written) |",
              "|---|---|---|---|---|"]
    for op in sorted(set(c.acks) | set(c.in_flight) | set(c.refused)):
        lines.append(f"| {OP_NAMES.get(op, op)} | {c.acks[op]} | {c.in_flight[op]} | {c.applied[op]} | {c.refused[op]} |")
    lines += ["", "| kill moment | kills at that moment | killed at the deadline instead |", "|---|---|---|"]
    for strategy in sorted(set(c.kills) | set(c.fallback_kills)):
        lines.append(f"| {strategy} | {c.kills[strategy]} | {c.fallback_kills[strategy]} |")
    lines += ["", "Kills by role: " + ", ".join(f"{role} {n}" for role, n in sorted(c.role_kills.items())), "",
              "Generations: " + "; ".join(result.generations), ""]
    if result.failures:
        causes = Counter(known_defect(f) or "not explained: a new defect, or a harness bug" for f in result.failures)
        lines += ["## Failures", "", "| cause | failures |", "|---|---|"]
        lines += [f"| {cause} | {n} |" for cause, n in causes.most_common()]
        lines += [""] + [f"- {f}" for f in result.failures[:200]] + [""]
    return "\n".join(lines)


OP_NAMES = {"store": "store_memory", "store_batch": "store_memories (2-5)", "supersede": "supersede_memory",
            "delete": "delete_memory", "forget": "forget (soft)", "forget_hard": "forget (hard: file rewritten)",
            "restore": "restore_memory", "start": "start_ghap", "update": "update_ghap", "resolve": "resolve_ghap",
            "end_session": "end_session", "cluster": "get_clusters", "value": "store_value",
            "index": "index_codebase (editing the tree)", "reindex": "index_codebase (a second indexer)"}


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m bench.crash", description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generation-kills", type=int, default=25, help="kills per file and tree")
    parser.add_argument("--model-every", type=int, default=4,
                        help="every n-th generation (the 2nd, then every n-th) uses the real model; 0: never")
    parser.add_argument("--second-indexer", type=float, default=0.3,
                        help="chance that an episode with an indexer gets a second one on the same tree")
    parser.add_argument("--workdir", type=Path, help="where the files go (default: a temporary folder, removed)")
    parser.add_argument("--out", type=Path, help="also write the markdown report to this file")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if args.child:
        return child_main(args.child)
    from bench.measure import load_average, machine_info

    command = "python -m bench.crash" + (" " + shlex.join(argv) if argv else "")
    info = machine_info(command)
    info["arch"] = platform.machine()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="learnmem-crash-"))
    workdir.mkdir(parents=True, exist_ok=True)

    def progress(message: str) -> None:
        print(f"[bench.crash {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    try:
        result = run(args.kills, workdir, args.seed, args.generation_kills, args.model_every, args.second_indexer,
                     progress)
    finally:
        if args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    info["load average at end"] = load_average()
    info["run time"] = f"{result.seconds:.0f} s"
    config = {"kills asked": args.kills, "seed": args.seed, "kills per generation (file + tree)": args.generation_kills,
              "real model": f"every {args.model_every}th generation from the 2nd" if args.model_every else "never",
              "second indexer on the same tree": f"in {args.second_indexer:.0%} of the episodes with an indexer",
              "GHAP entries imported per generation": SEED_ENTRIES,
              "tree": f"{TREE_FILES} modules (real model: {MODEL_TREE_FILES}), at most {MAX_TREE_FILES}"}
    text = report(info, result, config)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 1 if result.failures else 0


if __name__ == "__main__":
    sys.exit(main())
