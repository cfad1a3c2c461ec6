"""Shared fixtures: the real embedding model (built once per session) and fresh files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import learnmem
from learnmem.embed import HashingEmbedder, load_embedder

# Keep tests away from the developer's own data.
os.environ.pop("LEARNMEM_DB", None)


@pytest.fixture(scope="session")
def embedder():
    """The real all-MiniLM-L6-v2 ONNX embedder."""
    return load_embedder()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "learnmem.duckdb"


@pytest.fixture
def lm(db_path: Path, embedder) -> learnmem.Learnmem:
    """A fresh file with the real model."""
    return learnmem.open(db_path, embedder=embedder)


@pytest.fixture
def hashed_lm(db_path: Path) -> learnmem.Learnmem:
    """A fresh file with the hashing embedder: for logic that does not depend on retrieval quality."""
    return learnmem.open(db_path, embedder=HashingEmbedder())
