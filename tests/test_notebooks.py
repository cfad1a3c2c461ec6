"""Every notebook runs top to bottom against a real file (nbclient, a real kernel)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import learnmem

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes(notebook, db_path, embedder, monkeypatch, tmp_path):
    lm = learnmem.open(db_path, embedder=embedder)
    lm.store_memories(
        [
            {"content": "We decided to keep all state in one DuckDB file.", "category": "decision", "tags": ["db"]},
            {"content": "Use ruff, not black.", "category": "preference", "tags": ["style"]},
            {"content": "The staging deploy is blocked on a certificate.", "category": "blocker"},
        ]
    )
    monkeypatch.setenv("LEARNMEM_DB", str(db_path))
    nb = nbformat.read(notebook, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "\n".join(str(o.get("data", {}).get("text/plain", "")) for o in outputs)
    assert "one DuckDB file" in text  # the retrieval cell found the decision
