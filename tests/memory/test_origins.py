"""Where memories came from: progressive hydration of retrieval (detail="index"|"full"|"files") and the
documents corrections and discoveries name (docs_gaps)."""

from __future__ import annotations

from pathlib import Path

import pytest

import learnmem
from learnmem.memory import files as memory_files
from learnmem.errors import ValidationError
from learnmem.memory.records import MemoryHit, MemorySummary, MemoryWithFiles
from tests.gitrepo import GitRepo


@pytest.fixture
def project(tmp_path: Path, embedder) -> tuple[GitRepo, learnmem.Learnmem]:
    repo = GitRepo.init(tmp_path / "shop")
    repo.write(".gitignore", ".learnmem/\n")
    repo.write("README.md", "# shop\n\nRun `make dev`; the API listens on 8080.\n")
    repo.write("logo.png", b"\x89PNG\r\n\x1a\n\0\0\0binary")
    repo.commit("initial")
    return repo, learnmem.open(repo.path / ".learnmem" / "learnmem.duckdb", embedder=embedder)


def test_index_detail_gives_one_line_summaries(project) -> None:
    _, lm = project
    long = "Payments retry three times with exponential backoff. " * 6
    lm.store_memory(long.strip(), "decision")
    lm.store_memory("Refunds go through the finance team.\nAsk in #finance first.", "fact")
    full = lm.retrieve_memories("how do payments retry?", limit=2)
    index = lm.retrieve_memories("how do payments retry?", limit=2, detail="index")
    assert all(isinstance(hit, MemoryHit) for hit in full) and all(isinstance(hit, MemorySummary) for hit in index)
    assert [(hit.id, hit.score) for hit in index] == [(hit.id, hit.score) for hit in full]
    summaries = {hit.category: hit.summary for hit in index}
    assert len(summaries["decision"]) == 120 and summaries["decision"].endswith("…")
    assert summaries["fact"] == "Refunds go through the finance team. …"
    with pytest.raises(ValidationError, match="detail: 'everything' is not one of: index, full, files"):
        lm.retrieve_memories("payments", detail="everything")


def test_files_detail_reads_the_files_of_the_memory_commit_at_that_commit(project) -> None:
    repo, lm = project
    repo.write("api/server.py", "PORT = 9090\n" + "# filler\n" * 1000)
    changed = repo.commit("move the API to 9090")
    stored = lm.store_memory("The API listens on 9090 since the server move.", "fact",
                             sources=["README.md#run", "missing.md", "logo.png"])
    repo.write("api/server.py", "PORT = 7070\n")  # the work tree moves on; the memory's files do not
    repo.commit("7070")
    (hit,) = lm.retrieve_memories("which port does the API use?", limit=1, detail="files")
    assert isinstance(hit, MemoryWithFiles) and hit.id == stored.id and hit.commit_sha == changed
    files = {file.path: file for file in hit.files}
    assert list(files) == ["README.md", "logo.png", "api/server.py"]  # sources first, then what changed
    assert files["README.md"].content.startswith("# shop") and not files["README.md"].truncated
    assert files["logo.png"].content is None  # binary: named, not shown
    server = files["api/server.py"]
    assert server.content.startswith("PORT = 9090") and server.truncated
    assert len(server.content) == memory_files.MAX_FILE_CHARS and server.size > memory_files.MAX_FILE_CHARS


def test_files_detail_without_a_commit_has_no_files(tmp_path: Path, embedder, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    lm = learnmem.open(tmp_path / "loose.duckdb", embedder=embedder)
    lm.store_memory("Nothing here is in git.", "fact", sources=["README.md"])
    (hit,) = lm.retrieve_memories("git", limit=1, detail="files")
    assert hit.commit_sha is None and hit.files == ()


def test_docs_gaps_counts_corrections_and_discoveries_per_document(project) -> None:
    _, lm = project
    first = lm.store_memory("README says 8080 but the API listens on 9090.", "correction", sources=["README.md#run"])
    lm.store_memory("The README install steps miss libpq.", "learning", sources=["README.md#install", "docs/db.md"])
    lm.store_memory("Postgres needs the citext extension enabled.", "research", sources=["docs/db.md"])
    lm.store_memory("We deploy on Tuesdays.", "decision", sources=["docs/deploy.md"])  # not a gap
    hidden = lm.store_memory("The deploy doc forgets the VPN step.", "correction", sources=["docs/deploy.md"])
    lm.forget(hidden.id)  # forgotten memories do not count
    gaps = lm.docs_gaps()
    assert [(g.document, g.corrections, g.discoveries) for g in gaps] == [("README.md", 1, 1), ("docs/db.md", 0, 2)]
    assert gaps[0].anchors == ("README.md#install", "README.md#run") and first.id in gaps[0].memory_ids
    lm.supersede_memory(first.id, "README says 8080 but the API listens on 9090 since March.")
    assert lm.docs_gaps(limit=1)[0].memory_ids != gaps[0].memory_ids  # the current correction counts, once
    with pytest.raises(ValidationError, match="limit"):
        lm.docs_gaps(limit=0)
