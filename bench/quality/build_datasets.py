"""Write conversational.jsonl, coding_agent.jsonl and first_person.jsonl from the hand-written sources.

    python -m bench.quality.build_datasets

The JSONL files are the datasets; the src_*.py files are only a compact way to
write them by hand (ids next to the texts the queries point at).
"""

from __future__ import annotations

import json
from pathlib import Path

from bench.quality import src_coding_agent, src_conversational, src_first_person

HERE = Path(__file__).resolve().parent
SOURCES = {
    "conversational": src_conversational,
    "coding_agent": src_coding_agent,
    "first_person": src_first_person,  # held out: never used to choose parameters
}


def write(name: str, module) -> Path:
    ids = [m[0] for m in module.MEMORIES]
    if len(set(ids)) != len(ids):
        raise SystemExit(f"{name}: duplicate memory ids")
    known = set(ids)
    path = HERE / f"{name}.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for mid, category, content in module.MEMORIES:
            f.write(json.dumps({"type": "memory", "id": mid, "content": content, "category": category}) + "\n")
        for query, relevant, kind in module.QUERIES:
            missing = [r for r in relevant if r not in known]
            if missing or not 1 <= len(relevant) <= 3:
                raise SystemExit(f"{name}: bad relevant ids {relevant} for {query!r}")
            f.write(json.dumps({"type": "query", "query": query, "relevant": relevant, "kind": kind}) + "\n")
    print(f"{path.relative_to(HERE.parent.parent)}: {len(module.MEMORIES)} memories, {len(module.QUERIES)} queries")
    return path


def main() -> None:
    for name, module in SOURCES.items():
        write(name, module)


if __name__ == "__main__":
    main()
