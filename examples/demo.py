"""The main job, end to end: remember what this repository says about itself, then recall it.

Reads the real text of this checkout (README paragraphs and every module's
docstring), stores each as a memory in a fresh file with the real embedding
model, and answers a few questions with hybrid retrieval.

    python examples/demo.py [--db PATH]
"""

from __future__ import annotations

import argparse
import ast
import re
import tempfile
import time
from pathlib import Path

import learnmem

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = [
    "how do I run the tests?",
    "where does the database file live by default?",
    "what happens when two processes write at the same time?",
    "how are duplicate memories handled?",
    "which embedding model is used and where do its weights come from?",
]


def real_texts() -> list[dict]:
    """README paragraphs and module docstrings of this checkout, as memory items."""
    items = []
    # Paragraphs, and each bullet of a list on its own: one idea per memory.
    for block in re.split(r"\n\s*\n|\n(?=- )", (ROOT / "README.md").read_text(encoding="utf-8")):
        text = " ".join(line.strip() for line in block.splitlines() if not line.startswith("```"))
        if len(text) > 60 and not text.startswith("|"):
            items.append({"content": text, "category": "fact", "tags": ["readme"]})
    for module in sorted((ROOT / "learnmem").rglob("*.py")):
        doc = ast.get_docstring(ast.parse(module.read_text(encoding="utf-8")))
        if doc:
            items.append({"content": f"{module.relative_to(ROOT)}: {doc}", "category": "convention", "tags": ["code"]})
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="file to use (default: a fresh temporary file)")
    args = parser.parse_args()
    path = args.db or Path(tempfile.mkdtemp(prefix="learnmem-demo-")) / "learnmem.duckdb"

    lm = learnmem.open(path)
    items = real_texts()
    started = time.perf_counter()
    results = lm.store_memories(items)
    elapsed = time.perf_counter() - started
    fresh = sum(not r.duplicate for r in results)
    print(f"stored {fresh} memories ({len(items) - fresh} duplicates) from README.md and learnmem/*.py "
          f"in {elapsed:.1f} s -> {lm.path}")
    for question in QUESTIONS:
        started = time.perf_counter()
        hits = lm.retrieve_memories(question, limit=2)
        print(f"\n? {question}   ({(time.perf_counter() - started) * 1000:.0f} ms)")
        for hit in hits:
            flat = " ".join(hit.content.split())
            snippet = flat if len(flat) <= 160 else flat[:157] + "..."
            print(f"  {hit.score:.3f}  [{hit.category}] {snippet}")
    info = lm.info()
    print(f"\n{info.counts['memories']} memories, {info.file_bytes / 1e6:.1f} MB, model {info.embedding_model}")
    print(f"explore it: .venv/bin/duckdb -readonly {lm.path} -c 'SELECT category, count(*) FROM memory_list GROUP BY ALL'")


if __name__ == "__main__":
    main()
