"""The peers learnmem is compared with, written the way their users would write them.

* `QdrantSqlitePeer` — the seed design's stack: `qdrant-client` in local mode
  (`QdrantClient(path=...)`, cosine distance, a small payload) for vectors and
  a SQLite table for the memory rows; retrieval is a Qdrant query followed by
  one SQLite fetch of the hits' rows.
* `SqliteVecPeer` — `sqlite-vec`: a `vec0` virtual table (cosine) next to a
  metadata table in one SQLite file; retrieval is one KNN query joined to the
  metadata.

Both receive exactly the vectors learnmem receives (ids are the corpus
indexes) and embed nothing themselves: the caller embeds the query.
The SQL below is the peers' own code, not learnmem's (learnmem keeps its SQL
in sql/).
"""

from __future__ import annotations

import json
import os
import warnings
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

import numpy as np

COLLECTION = "memories"

_META_SCHEMA = """
CREATE TABLE IF NOT EXISTS memories (
    id INTEGER PRIMARY KEY,
    content TEXT NOT NULL,
    category TEXT NOT NULL,
    importance REAL NOT NULL,
    tags TEXT NOT NULL,
    created_at TEXT NOT NULL
)
"""
_META_INSERT = "INSERT INTO memories (id, content, category, importance, tags, created_at) VALUES (?, ?, ?, ?, ?, ?)"


def dir_bytes(path: Path) -> int:
    """Total size of the regular files under `path` (or of `path` itself)."""
    path = Path(path)
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _meta_rows(ids: Sequence[int], records: Sequence[dict]) -> list[tuple]:
    created = _now()
    return [
        (int(i), r["content"], r["category"], float(r.get("importance", 0.5)), json.dumps(r.get("tags") or []), created)
        for i, r in zip(ids, records)
    ]


def _row_dict(row: tuple, score: float) -> dict:
    return {"id": row[0], "content": row[1], "category": row[2], "importance": row[3],
            "tags": json.loads(row[4]), "created_at": row[5], "score": score}


class QdrantSqlitePeer:
    """Qdrant local mode (vectors + payload) + SQLite (rows): the seed design."""

    name = "qdrant-local + sqlite"

    def __init__(self, directory: Path, dim: int, create: bool = True):
        import sqlite3

        from qdrant_client import QdrantClient, models

        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._models = models
        with warnings.catch_warnings():  # "local mode is not recommended for > 20,000 points"
            warnings.simplefilter("ignore")
            self.client = QdrantClient(path=str(self.directory / "qdrant"))
        if create and not self.client.collection_exists(COLLECTION):
            self.client.create_collection(
                COLLECTION, vectors_config=models.VectorParams(size=dim, distance=models.Distance.COSINE)
            )
        self.db = sqlite3.connect(self.directory / "meta.sqlite")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(_META_SCHEMA)
        self.db.commit()

    def store(self, ids: Sequence[int], vectors: np.ndarray, records: Sequence[dict]) -> None:
        """Upsert one batch of points, then insert its rows in one SQLite transaction."""
        payloads = [{"category": r["category"], "importance": float(r.get("importance", 0.5)),
                     "tags": list(r.get("tags") or [])} for r in records]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.client.upsert(
                COLLECTION,
                points=self._models.Batch(ids=[int(i) for i in ids], vectors=vectors.tolist(), payloads=payloads),
                wait=True,
            )
        with self.db:
            self.db.executemany(_META_INSERT, _meta_rows(ids, records))

    def search(self, vector: np.ndarray, k: int = 10) -> list[dict]:
        """Qdrant top-k by cosine, then the rows from SQLite, in Qdrant's order."""
        points = self.client.query_points(COLLECTION, query=vector.tolist(), limit=k, with_payload=False).points
        if not points:
            return []
        marks = ",".join("?" * len(points))
        rows = {r[0]: r for r in self.db.execute(
            f"SELECT id, content, category, importance, tags, created_at FROM memories WHERE id IN ({marks})",
            [p.id for p in points])}
        return [_row_dict(rows[p.id], p.score) for p in points if p.id in rows]

    def close(self) -> None:
        self.client.close()
        self.db.close()

    def disk_bytes(self) -> int:
        return dir_bytes(self.directory)


def sqlite_with_extensions():
    """The sqlite3 module to use for sqlite-vec: the stdlib one if it can load extensions, else pysqlite3.

    Some Python builds (this one included) compile the stdlib module without
    `enable_load_extension`; `pysqlite3-binary` ships a SQLite that has it.
    """
    import sqlite3

    if hasattr(sqlite3.Connection, "enable_load_extension"):
        return sqlite3
    try:
        from pysqlite3 import dbapi2
    except ImportError as exc:
        raise RuntimeError(
            "this Python's sqlite3 cannot load extensions; `pip install pysqlite3-binary` to run the sqlite-vec peer"
        ) from exc
    return dbapi2


class SqliteVecPeer:
    """sqlite-vec: a vec0 table (cosine) + a metadata table in one SQLite file."""

    name = "sqlite-vec"

    def __init__(self, directory: Path, dim: int, create: bool = True):
        import sqlite_vec

        sqlite3 = sqlite_with_extensions()
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.directory / "memories.sqlite")
        self.db.enable_load_extension(True)
        sqlite_vec.load(self.db)
        self.db.enable_load_extension(False)
        self.db.execute("PRAGMA journal_mode=WAL")
        if create:
            self.db.execute(_META_SCHEMA)
            self.db.execute(
                f"CREATE VIRTUAL TABLE IF NOT EXISTS vec_memories USING vec0(embedding float[{dim}] distance_metric=cosine)"
            )
            self.db.commit()

    def store(self, ids: Sequence[int], vectors: np.ndarray, records: Sequence[dict]) -> None:
        """Insert one batch of vectors and rows in one transaction."""
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        with self.db:
            self.db.executemany(
                "INSERT INTO vec_memories (rowid, embedding) VALUES (?, ?)",
                [(int(i), v.tobytes()) for i, v in zip(ids, vectors)],
            )
            self.db.executemany(_META_INSERT, _meta_rows(ids, records))

    def search(self, vector: np.ndarray, k: int = 10) -> list[dict]:
        """One KNN query over vec0, joined to the metadata rows, nearest first."""
        rows = self.db.execute(
            """
            WITH knn AS (
                SELECT rowid, distance FROM vec_memories WHERE embedding MATCH ? AND k = ?
            )
            SELECT m.id, m.content, m.category, m.importance, m.tags, m.created_at, knn.distance
            FROM knn JOIN memories AS m ON m.id = knn.rowid
            ORDER BY knn.distance
            """,
            (np.ascontiguousarray(vector, dtype=np.float32).tobytes(), k),
        ).fetchall()
        return [_row_dict(r[:6], 1.0 - r[6]) for r in rows]

    def close(self) -> None:
        self.db.close()

    def disk_bytes(self) -> int:
        return dir_bytes(self.directory)


PEERS = {"qdrant": QdrantSqlitePeer, "sqlite-vec": SqliteVecPeer}


def open_peer(kind: str, directory: os.PathLike, dim: int, create: bool = True):
    """Open the peer named `kind` ("qdrant" or "sqlite-vec") in `directory`."""
    return PEERS[kind](Path(directory), dim, create=create)
