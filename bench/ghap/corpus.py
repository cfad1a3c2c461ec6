"""A seeded corpus of resolved GHAP entries and the learnmem file built from it (cached).

`entries(n, seed)` draws n resolved entries from the scenario templates of
bench/ghap/scenarios.py: 45 kinds of coding-agent task over the nine domains,
each with competing hypotheses, the result when the hypothesis holds and the
ways it turns out wrong (surprise + root cause), slots filled from
vocabularies of files, functions, tests, libraries, services, errors... The
mix: 50 % confirmed, 35 % falsified (all with surprise and root cause), 15 %
abandoned; 40 % of the non-abandoned outcomes auto-captured (gold); 5 % of
entries carry a vague hypothesis of the kind the bronze rule demotes; 40 %
took more than one iteration (history); a third carry notes. Entries are
spread over 18 months in sessions of 3-12 entries, newest last.

`build(n, seed)` writes the entries as JSONL in GHAP.md's entry format and
imports them into a fresh file through the library (`Learnmem.import_ghap`:
one transaction, axes recorded, all embedded in one batch with the real
model), caching the file under bench/out/ghap/ keyed by the corpus; a cached
file is rebuilt when its schema, or the axis texts and bronze tiers the
library would give a sample of its entries today, differ.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

from bench.ghap import scenarios as sc
from bench.vectors import OUT_DIR

GHAP_OUT = OUT_DIR / "ghap"
CACHE = GHAP_OUT / "corpus"
STATUS_WEIGHTS = (("confirmed", 0.50), ("falsified", 0.35), ("abandoned", 0.15))
ITERATION_WEIGHTS = ((1, 0.60), (2, 0.25), (3, 0.10), (4, 0.05))
VAGUE = (
    ("The tests will tell me what's wrong", "Run the tests", "Tests fail"),
    ("I think the problem is in the code somewhere", "Try a few changes", "It works"),
    ("Something is probably broken", "Check everything again", "The issue goes away"),
)
SURPRISE_TAILS = ("", "", "", " (found it in the logs of {service})", " after {k} reruns", " while bisecting",
                  " once I added logging to {func}", " when I compared with the staging run")
START = datetime(2025, 5, 26, 8, 0, 0)
SPAN_DAYS = 540  # to mid-November 2026


def log(message: str) -> None:
    print(f"[bench.ghap {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _weighted(rng: random.Random, pairs):
    return rng.choices([value for value, _ in pairs], weights=[weight for _, weight in pairs])[0]


def slots(rng: random.Random) -> dict[str, str]:
    s = rng.choice((5, 10, 30))
    return {
        "file": rng.choice(sc.FILES), "func": rng.choice(sc.FUNCS), "test": rng.choice(sc.TESTS),
        "lib": rng.choice(sc.LIBS), "service": rng.choice(sc.SERVICES), "err": rng.choice(sc.ERRORS),
        "env": rng.choice(sc.ENVVARS), "endpoint": rng.choice(sc.ENDPOINTS), "table": rng.choice(sc.TABLES),
        "module": rng.choice(sc.MODULES), "worker": rng.choice(sc.WORKERS), "report": rng.choice(sc.REPORTS),
        "version": rng.choice(sc.VERSIONS), "n": str(rng.choice((3, 5, 10, 20, 50, 100, 200))),
        "k": str(rng.randint(2, 12)), "ms": str(rng.choice((150, 200, 250, 300, 400, 500))), "s": str(s),
        "s2": str(2 * s), "pct": str(rng.choice((60, 70, 80, 85, 90, 95))),
    }


def fill(template: str, values: dict[str, str]) -> str:
    text = template.format(**values)
    return text[0].upper() + text[1:] if text else text


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _id(rng: random.Random, prefix: str, moment: datetime) -> str:
    return f"{prefix}_{moment:%Y%m%d_%H%M%S}_{rng.getrandbits(24):06x}"


def draft(rng: random.Random) -> dict:
    """A scenario and filled texts for one entry (used for the corpus and for the live start/update calls)."""
    scenario = rng.choice(sc.SCENARIOS)
    values = slots(rng)
    h = rng.randrange(len(scenario.hypotheses))
    hypothesis, action, prediction = (fill(part, values) for part in scenario.hypotheses[h])
    others = [tuple(fill(part, values) for part in triple)
              for i, triple in enumerate(scenario.hypotheses) if i != h]
    result, surprise, category, description = scenario.falsified[h % len(scenario.falsified)]
    tail = fill(rng.choice(SURPRISE_TAILS), values) if rng.random() < 0.5 else ""
    return {
        "scenario": scenario, "values": values,
        "domain": scenario.domain, "strategy": rng.choice(scenario.strategies), "goal": fill(scenario.goal, values),
        "hypothesis": hypothesis, "action": action, "prediction": prediction, "others": others,
        "confirmed": fill(scenario.confirmed[h % len(scenario.confirmed)], values),
        "falsified": {"result": fill(result, values), "surprise": fill(surprise, values) + tail,
                      "root_cause": {"category": category, "description": fill(description, values)}},
        "lesson": {"what_worked": fill(scenario.lesson[0], values), "takeaway": fill(scenario.lesson[1], values)},
        "note": fill(rng.choice(sc.NOTES), values),
        "abandon": fill(rng.choice(sc.ABANDON_REASONS), values),
    }


def entries(n: int, seed: int = 7) -> list[dict]:
    """n resolved entries in GHAP.md's entry format, oldest first."""
    rng = random.Random(seed)
    # An entry takes 3-60 min and the next starts 1-20 min later; the rest of the span goes between sessions
    # (7.5 entries each on average).
    between_sessions = max(SPAN_DAYS * 86_400 / n - (31.5 + 10.5) * 60, 0) * 7.5
    moment = START
    session_id, session_left = None, 0
    out = []
    for _ in range(n):
        if session_left == 0:
            moment += timedelta(seconds=rng.uniform(0.2, 1.8) * between_sessions)
            session_id, session_left = _id(rng, "session", moment), rng.randint(3, 12)
        else:
            moment += timedelta(minutes=rng.uniform(1, 20))
        session_left -= 1
        d = draft(rng)
        status = _weighted(rng, STATUS_WEIGHTS)
        iterations = _weighted(rng, ITERATION_WEIGHTS)
        hypothesis, action, prediction = d["hypothesis"], d["action"], d["prediction"]
        if rng.random() < 0.05:
            hypothesis, action, prediction = rng.choice(VAGUE)
        duration = timedelta(minutes=rng.uniform(3, 60))
        captured = moment + duration
        history = []
        pool = d["others"] or [(hypothesis, action, prediction)]
        for i in range(iterations - 1):
            h, a, p = pool[i % len(pool)]
            if i >= len(pool):  # more iterations than alternatives: the same idea, acted on differently
                a = f"{a} (attempt {i + 1})"
            history.append({"timestamp": _stamp(moment + duration * (i / iterations)), "hypothesis": h,
                            "action": a, "prediction": p})
        notes = [fill(rng.choice(sc.NOTES), d["values"]) for _ in range(rng.choice((0, 0, 0, 0, 1, 1, 2, 3)))]
        entry = {
            "id": _id(rng, "ghap", moment), "session_id": session_id, "created_at": _stamp(moment),
            "domain": d["domain"], "strategy": d["strategy"], "goal": d["goal"],
            "hypothesis": hypothesis, "action": action, "prediction": prediction,
            "history": history, "iteration_count": iterations, "notes": notes,
            "surprise": None, "root_cause": None, "lesson": None,
        }
        auto = status != "abandoned" and rng.random() < 0.4
        if status == "confirmed":
            result = d["confirmed"]
            if rng.random() < 0.6:
                entry["lesson"] = _lesson(rng, d)
        elif status == "falsified":
            result = d["falsified"]["result"]
            entry["surprise"] = d["falsified"]["surprise"]
            entry["root_cause"] = d["falsified"]["root_cause"]
            if rng.random() < 0.85:
                entry["lesson"] = _lesson(rng, d)
        else:
            result = d["abandon"]
        entry["outcome"] = {"status": status, "result": result, "captured_at": _stamp(captured), "auto_captured": auto}
        entry["confidence_tier"] = "abandoned" if status == "abandoned" else "gold" if auto else "silver"
        out.append(entry)
        moment = captured
    return out


def _lesson(rng: random.Random, d: dict) -> dict:
    lesson = dict(d["lesson"])
    if rng.random() < 0.3:
        lesson["takeaway"] = None
    return lesson


def composition(items: list[dict]) -> dict:
    """Counts by status, domain, iterations; how many falsified (four axes)."""
    out: dict = {"entries": len(items), "status": {}, "domain": {}, "iterations": {}, "with_notes": 0,
                 "with_lesson": 0, "sessions": len({e["session_id"] for e in items}),
                 "first": items[0]["created_at"] if items else None, "last": items[-1]["created_at"] if items else None}
    for e in items:
        for key, value in (("status", e["outcome"]["status"]), ("domain", e["domain"]),
                           ("iterations", e["iteration_count"])):
            out[key][value] = out[key].get(value, 0) + 1
        out["with_notes"] += bool(e["notes"])
        out["with_lesson"] += e["lesson"] is not None
    out["axes_expected"] = 2 * len(items) + 2 * out["status"].get("falsified", 0)
    out["distinct_goals"] = len({e["goal"] for e in items})
    out["distinct_surprises"] = len({e["surprise"] for e in items if e["surprise"]})
    return out


def still_valid(db: Path, sample: int = 300) -> str | None:
    """Why a cached file no longer matches the library (None when it does): its schema, or the axis texts
    and bronze tiers that experiences.py would give a sample of its entries today."""
    import learnmem
    from learnmem.learning import experiences

    try:
        learnmem.open(db).close()  # applies new migrations: they keep the entries and their vectors
        lm = learnmem.open(db, read_only=True)
    except Exception as error:  # noqa: BLE001 - a file this library cannot upgrade
        return f"cannot open: {error}"
    relation = lm.sql(f"SELECT * FROM ghap_entries ORDER BY hash(id) LIMIT {int(sample)}")
    names = relation.columns
    rows = [dict(zip(names, values)) for values in relation.fetchall()]
    stored: dict[str, dict[str, str]] = {}
    for ghap_id, axis, text in lm.sql("SELECT ghap_id, axis, text FROM experience_axes WHERE ghap_id IN "
                                      "(SELECT id FROM ghap_entries ORDER BY hash(id) LIMIT ?)", [sample]).fetchall():
        stored.setdefault(ghap_id, {})[axis] = text
    lm.close()
    for row in rows:
        if experiences.axis_texts(row) != stored.get(row["id"], {}):
            return f"axis texts of {row['id']} differ from experiences.axis_texts"
        if row["outcome_status"] != "abandoned" and (row["confidence_tier"] == "bronze") != (
                experiences.bronze_reason(row) is not None):
            return f"tier of {row['id']} ({row['confidence_tier']}) disagrees with experiences.bronze_reason"
    return None


def build(n: int, seed: int, embedder, rebuild: bool = False) -> tuple[Path, dict]:
    """The cached learnmem file holding the n-entry corpus (built on a miss); (path, manifest)."""
    import learnmem

    items = entries(n, seed)
    text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in items)
    key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    folder = CACHE / f"n{n}-s{seed}-{key}"
    db, manifest_path = folder / "ghap.duckdb", folder / "manifest.json"
    if not rebuild and manifest_path.exists() and db.exists():
        stale = still_valid(db)
        if stale is None:
            log(f"corpus cached: {db}")
            return db, json.loads(manifest_path.read_text())
        log(f"cached corpus is stale ({stale}): rebuilding")
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    jsonl = folder / "entries.jsonl"
    jsonl.write_text(text, encoding="utf-8")
    log(f"building the corpus: {n} entries -> {db} (import + embedding with the real model)")
    started = time.perf_counter()
    lm = learnmem.open(db, embedder=embedder)
    result = lm.import_ghap(jsonl)
    seconds = time.perf_counter() - started
    stats = lm.sql("SELECT axis, count(*), count(embedding) FROM experience_axes GROUP BY axis ORDER BY axis").fetchall()
    tiers = lm.sql("SELECT confidence_tier, count(*) FROM ghap_entries GROUP BY ALL ORDER BY ALL").fetchall()
    pending = sum(total - embedded for _, total, embedded in stats)
    if pending:  # the import's after-commit embedding failed: finish it now, loudly
        log(f"{pending} axes left pending by the import; embedding them now")
        lm.search_experiences("warm up")
        stats = lm.sql("SELECT axis, count(*), count(embedding) FROM experience_axes GROUP BY axis ORDER BY axis").fetchall()
    lm.close()
    manifest = {
        "n": n, "seed": seed, "key": key, "import_seconds": seconds, "imported": result.imported,
        "import_errors": list(result.errors)[:5], "import_warnings": list(result.warnings)[:5],
        "axes": {axis: {"rows": total, "embedded": embedded} for axis, total, embedded in stats},
        "tiers": {tier: count for tier, count in tiers}, "composition": composition(items),
        "file_mib": db.stat().st_size / 2**20, "built": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    manifest_path.write_text(json.dumps(manifest, indent=1))
    log(f"built in {seconds:.0f} s: {result.imported} entries, axes {manifest['axes']}")
    return db, manifest
