"""Shared fixtures: the real embedding model (built once per session) and fresh files."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

import learnmem
from learnmem.embedding.embed import HashingEmbedder, load_embedder

# Keep tests away from the developer's own data.
os.environ.pop("LEARNMEM_DB", None)


@pytest.fixture(scope="session")
def embedder():
    """The real all-MiniLM-L6-v2 ONNX embedder; one thread per worker when pytest-xdist runs the suite on
    several (`make test`): their threads would otherwise contend for the same cores."""
    return load_embedder(threads=1 if os.environ.get("PYTEST_XDIST_WORKER") else None)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "learnmem.duckdb"


def pytest_generate_tests(metafunc):
    """A module that sets BOTH_BACKENDS = True (the contract tests: memories, GHAP, learning) runs each test that
    opens a store once on a file and once on a lake (a project of its own on a real PostgreSQL catalog)."""
    if getattr(metafunc.module, "BOTH_BACKENDS", False) and "backend" in metafunc.fixturenames:
        file_only = metafunc.definition.get_closest_marker("file_only") is not None  # what only a file has
        metafunc.parametrize("backend", ["file"] if file_only else ["file", "lake"], indirect=True)


def pytest_configure(config):
    config.addinivalue_line("markers", "file_only: a BOTH_BACKENDS test of what only a file has (its lock, its bytes)")


@pytest.fixture
def backend(request) -> str:
    return getattr(request, "param", "file")


@pytest.fixture(scope="session")
def lake_catalog(tmp_path_factory) -> tuple[str, Path]:
    """A lake for the session's contract tests: its name and data path (a PostgreSQL server of its own)."""
    from tests.postgres import PostgresServer

    server = PostgresServer.start(Path(tmp_path_factory.mktemp("postgres")) / "server")
    yield f"ducklake:postgres:{server.create_database('contract')}", tmp_path_factory.mktemp("lake-files")
    server.stop()


_projects = itertools.count(1)


@pytest.fixture
def target(backend: str, db_path: Path, request) -> dict:
    """learnmem.open's arguments for a fresh store: the file db_path, or a new project of the session's lake."""
    if backend == "file":
        return {"path": db_path}
    catalog, files = request.getfixturevalue("lake_catalog")
    return {"path": catalog, "data_path": files, "project": f"test-{os.getpid()}-{next(_projects)}", "agent": "test"}


@pytest.fixture
def open_again(target: dict):
    """Another handle on the test's store (another process's view): open_again(embedder=...)."""
    return lambda **options: learnmem.open(**target, **options)


@pytest.fixture
def lm(target: dict, embedder) -> learnmem.Learnmem:
    """A fresh file (or lake project) with the real model."""
    return learnmem.open(**target, embedder=embedder)


@pytest.fixture
def hashed_lm(target: dict) -> learnmem.Learnmem:
    """A fresh file (or lake project) with the hashing embedder: for logic that does not depend on retrieval
    quality."""
    return learnmem.open(**target, embedder=HashingEmbedder())
