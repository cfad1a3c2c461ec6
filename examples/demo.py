"""The main job, end to end, on this repository: remember, index, learn, then get context.

1. Reads the real text of this checkout (README paragraphs and every module's
   docstring), stores each as a memory in a fresh file with the real embedding
   model, and answers a few questions with hybrid retrieval.
2. Indexes the library's code (units, call graph, embeddings) and the git history.
3. Runs one GHAP cycle whose prediction the code search then confirms or falsifies.
4. Prints rich context for a situation, and the light context a session would start with.

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
    index_and_learn(lm)
    info = lm.info()
    print(f"\n{info.counts['memories']} memories, {info.file_bytes / 1e6:.1f} MB, model {info.embedding_model}")
    print(f"explore it: .venv/bin/duckdb -readonly {lm.path} -c 'SELECT category, count(*) FROM memory_list GROUP BY ALL'")


def index_and_learn(lm) -> None:
    """Code and history indexed, one GHAP cycle decided by what the code search finds, then context."""
    print("\n== code and history")
    code = lm.index_codebase(ROOT / "learnmem", project="learnmem")
    print(f"indexed {code.units} code units of {code.files_indexed} files, {code.calls} calls, in {code.seconds:.1f} s")
    try:
        history = lm.index_commits(ROOT, project="learnmem")
        print(f"indexed {history.commits_total} commits in {history.seconds:.1f} s")
    except learnmem.LearnmemError as exc:  # a copy without .git: no history to read
        print(f"no git history: {exc}")

    print("\n== a GHAP cycle")
    started = lm.start_ghap(
        "debugging", "read-the-error", goal="Find where the context token budget is enforced",
        hypothesis="The budget is enforced where context is assembled, in learnmem/context/assembly.py",
        action="Search the code for taking context items while they fit the token budget",
        prediction="The best hit is a function of learnmem/context/assembly.py")
    top = lm.search_code("take context items while they fit within the token budget", project="learnmem", limit=1)[0]
    lm.update_ghap(note=f"best hit: {top.qualified_name} ({top.file_path}:{top.start_line})")
    if top.file_path.endswith("context.py"):
        resolved = lm.resolve_ghap("confirmed", f"The best hit was {top.qualified_name} in {top.file_path}",
                                   lesson={"what_worked": "Searching the code by what it does, not by name",
                                           "takeaway": "Context budgets are enforced at assembly, in context.py"})
    else:
        resolved = lm.resolve_ghap(
            "falsified", f"The best hit was {top.qualified_name} in {top.file_path}",
            surprise=f"The budget search led to {top.file_path}, not context.py",
            root_cause={"category": "wrong-assumption",
                        "description": f"{top.qualified_name} in {top.file_path} matches the description better"},
            lesson={"what_worked": "Reading the best hit before assuming where code lives"})
    print(f"{started.id}: {started.goal} -> {resolved.status} ({resolved.confidence_tier}); best hit "
          f"{top.qualified_name} in {top.file_path}")

    print("\n== rich context for a situation (700 tokens)")
    print(lm.get_context("I am changing how the context token budget is counted; what should I know?",
                         depth="rich", max_tokens=700).markdown)
    print("\n== the light context a new session starts with (500 tokens)")
    print(lm.get_context(max_tokens=500).markdown)


if __name__ == "__main__":
    main()
