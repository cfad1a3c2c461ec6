"""Shared fixtures: the real embedding model (built once per session), fresh files, and the planted-theme corpus
imported once per run."""

from __future__ import annotations

import fcntl
import itertools
import os
import shutil
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
def postgres(tmp_path_factory):
    """A PostgreSQL server of the session's own, for the lakes' catalogs."""
    from tests.postgres import PostgresServer

    server = PostgresServer.start(Path(tmp_path_factory.mktemp("postgres")) / "server")
    yield server
    server.stop()


_catalogs = itertools.count(1)


@pytest.fixture(scope="module")
def lake_catalog(postgres, tmp_path_factory) -> tuple[str, Path]:
    """A lake of the module's own for its contract tests (a new catalog database): its name and data path.

    Not one per session: every project a test makes stays in the catalog, and this process's attached
    instance caches all it has seen (~10 MB and a little time per project, measured), so it is given back
    when the module is done."""
    from learnmem.storage.lake_store import release_instances

    database = postgres.create_database(f"contract{next(_catalogs)}")
    yield f"ducklake:postgres:{database}", tmp_path_factory.mktemp("lake-files")
    release_instances()


_projects = itertools.count(1)
# Lake projects made before this process's attached instances are given back: an instance caches every project
# it saw (~14 MB each; a worker grew by 850 MB over test_memories' lake tests), attaching again costs ~0.5 s.
RELEASE_EVERY = 10


@pytest.fixture
def target(backend: str, db_path: Path, request) -> dict:
    """learnmem.open's arguments for a fresh store: the file db_path, or a new project of the session's lake."""
    if backend == "file":
        return {"path": db_path}
    catalog, files = request.getfixturevalue("lake_catalog")
    number = next(_projects)
    if number % RELEASE_EVERY == 0:
        from learnmem.storage.lake_store import release_instances

        release_instances()  # no handle of an earlier test is used again
    return {"path": catalog, "data_path": files, "project": f"test-{os.getpid()}-{number}", "agent": "test"}


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


CORPUS = Path(__file__).resolve().parent / "data" / "experiences.jsonl"


@pytest.fixture(scope="session")
def corpus_file(tmp_path_factory, embedder) -> Path:
    """A closed file holding CORPUS (332 resolved GHAP entries) imported with the real model, and nothing else.

    Embedding its 1,060 axis texts takes ~30 s on one core, and four modules start from it; so the run makes it
    once, under a lock in the folder every xdist worker shares (the others wait for it), and each test copies
    it with copy_corpus."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # popen-gwN's parent: this run's, common to its workers
    made = shared / "corpus" / "corpus.duckdb"
    made.parent.mkdir(exist_ok=True)
    with open(shared / "corpus.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not made.exists():
            building = made.with_name("building.duckdb")
            lm = learnmem.open(building, embedder=embedder)
            result = lm.import_ghap(CORPUS)
            assert (result.imported, result.errors, result.warnings) == (332, (), ())
            assert lm.sql("SELECT count(*) FROM experience_axes WHERE embedding IS NULL").fetchone() == (0,)
            lm.close()
            assert not Path(f"{building}.wal").exists()  # all in the one file copy_corpus copies
            building.rename(made)
    return made


def copy_corpus(corpus_file: Path, destination: Path) -> Path:
    """A file of the test's own holding the imported corpus (corpus_file) at `destination`."""
    shutil.copyfile(corpus_file, destination)
    return destination


# The longest modules first (seconds on one worker of `make test`, measured with a per-test timestamp plugin): the
# workers of `pytest -n 2 --dist loadfile --no-loadscope-reorder` take whole modules in this order, and a long one
# left to the end would run alone while the other worker idles. test_corpus comes third: the first worker to
# reach it makes corpus_file (~30 s) while the other runs test_crash, so no later module waits for it.
LONGEST_FIRST = ("tests/learning/test_ghap.py", "tests/storage/test_crash.py", "tests/learning/test_corpus.py",
                 "tests/mcp_adapter/test_hostile.py", "tests/learning/test_values.py", "tests/memory/test_memories.py",
                 "tests/cli/test_cli.py", "tests/learning/test_corpora.py", "tests/storage/test_lake_store.py",
                 "tests/test_soak.py", "tests/code/test_stats.py", "tests/mcp_adapter/test_session.py",
                 "tests/exchange/test_portable.py", "tests/mcp_adapter/test_mcp.py", "tests/code/test_incremental.py",
                 "tests/context/test_context.py", "tests/git/test_linediff.py", "tests/agents/test_hooks.py",
                 "tests/learning/test_cold_storage.py")


def pytest_collection_modifyitems(items):
    rank = {path: position for position, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))  # stable: the rest keep order
