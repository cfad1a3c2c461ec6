"""Every notebook runs top to bottom against a real file holding the data it shows (nbclient, a real kernel),
and is stored with its outputs stripped."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import learnmem
from tests.conftest import copy_corpus

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
AXES = ("full", "strategy", "surprise", "root_cause")
Outputs = dict[str, list]  # code cell id -> its outputs
Check = Callable[[Outputs], None]


def _text(outputs: list) -> str:
    """What a person reads in outputs: printed streams and the plain-text form of results."""
    return "\n".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", "")) for o in outputs)


def _memories(lm: learnmem.Learnmem) -> Check:
    """memory_retro.ipynb: three memories; the retrieval cell must find the decision."""
    lm.store_memories(
        [
            {"content": "We decided to keep all state in one DuckDB file.", "category": "decision", "tags": ["db"]},
            {"content": "Use ruff, not black.", "category": "preference", "tags": ["style"]},
            {"content": "The staging deploy is blocked on a certificate.", "category": "blocker"},
        ]
    )

    def check(outputs: Outputs) -> None:
        assert "one DuckDB file" in _text([o for cell in outputs.values() for o in cell])

    return check


def _experiences(lm: learnmem.Learnmem) -> Check:
    """retro.ipynb: the GHAP corpus (imported: CORPUS_NOTEBOOKS), clustered on every axis, and a value for the
    largest surprise cluster when a text made from its most central member is valid (the notebook copes either
    way)."""
    assert lm.sql("SELECT count(*) FROM ghap_entries").fetchone() == (332,)
    runs = {axis: lm.get_clusters(axis) for axis in AXES}
    assert runs["surprise"].clusters, "the corpus should give the surprise axis at least one cluster"
    largest = runs["surprise"].clusters[0]
    central = lm.get_cluster_members(largest.cluster_id, limit=1)[0]
    value = f"Watch out: {central.surprise.rstrip('.')}."
    stored = lm.validate_value(value, largest.cluster_id).valid
    if stored:
        lm.store_value(value, largest.cluster_id, "surprise")

    def check(outputs: Outputs) -> None:
        refresh = _text(outputs["refresh-clusters"])
        for axis in AXES:
            assert f"{axis}: {runs[axis].count} clusters" in refresh  # re-clustering the same data finds the same
        for cell in ("weekly", "outcomes", "outcomes-over-time", "root-cause-categories", "projection"):
            assert any("image/png" in o.get("data", {}) for o in outputs[cell]), f"{cell} drew no figure"
        assert f"{largest.cluster_id} ({largest.size} experiences): {largest.label}" in _text(outputs["frequent-texts"])
        assert central.surprise in _text(outputs["frequent-texts"])
        values = _text(outputs["values"])
        if stored:
            assert value in values and f"cluster {largest.cluster_id}: {largest.label}" in values
            assert central.surprise in values  # the value beside its cluster's most central member
        else:
            assert "No values yet" in values

    return check


DATA: dict[str, Callable[[learnmem.Learnmem], Check]] = {
    "memory_retro.ipynb": _memories,
    "retro.ipynb": _experiences,
}
# Notebooks whose file starts as the imported GHAP corpus (tests/conftest.py corpus_file).
CORPUS_NOTEBOOKS = {"retro.ipynb"}


def test_there_are_notebooks():
    assert NOTEBOOKS


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes(notebook, db_path, embedder, monkeypatch, tmp_path, request):
    if notebook.name not in DATA:
        pytest.fail(f"{notebook.name}: add the data it needs to DATA in {Path(__file__).name}")
    if notebook.name in CORPUS_NOTEBOOKS:
        copy_corpus(request.getfixturevalue("corpus_file"), db_path)
    check = DATA[notebook.name](learnmem.open(db_path, embedder=embedder))
    monkeypatch.setenv("LEARNMEM_DB", str(db_path))
    monkeypatch.setenv("MPLBACKEND", "Agg")  # no display; the notebooks draw inline
    nb = nbformat.read(notebook, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = {cell.id: cell.outputs for cell in nb.cells if cell.cell_type == "code"}
    errors = [f"{cell_id}: {o.ename}: {o.evalue}" for cell_id, cell in outputs.items() for o in cell
              if o.output_type == "error"]
    assert not errors, errors
    check(outputs)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_without_outputs(notebook):
    nb = nbformat.read(notebook, as_version=4)
    nbformat.validate(nb)
    dirty = [cell.get("id", index) for index, cell in enumerate(nb.cells) if cell.cell_type == "code"
             and (cell.outputs or cell.execution_count is not None)]
    assert not dirty, f"{notebook.name}: strip the outputs of cells {dirty} before committing"
