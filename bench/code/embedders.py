"""Embedders wrapping the real model: one that records, one that caches on disk, one that derives vectors.

All three carry the real model's `.name` and `.dim`, so a file they fill is
opened later with the real embedder like any other.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Sequence

import numpy as np

SIGMA = 0.028  # as bench/vectors.py: cosine ~0.88 between a derived vector and its parent


def _key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", errors="replace")).digest()[:16]


class RecordingEmbedder:
    """The real model, keeping every text -> vector it produced (to reuse them as real base vectors later)."""

    def __init__(self, real):
        self.real, self.name, self.dim = real, real.name, real.dim
        self.table: dict[bytes, np.ndarray] = {}

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        vectors = self.real.embed(list(texts), batch_size=batch_size)
        for text, vector in zip(texts, vectors):
            self.table[_key(text)] = vector
        return vectors


class CachingEmbedder:
    """The real model behind a disk cache keyed by the text's hash (vectors are the model's own)."""

    def __init__(self, real, directory: Path):
        self.real, self.name, self.dim = real, real.name, real.dim
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", real.name)
        self.path = directory / f"code-vectors-{safe}.npz"
        self.table: dict[bytes, np.ndarray] = {}
        if self.path.exists():
            saved = np.load(self.path)
            self.table = {bytes(k): v for k, v in zip(saved["keys"], saved["vectors"])}
        self.hits = self.misses = 0

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        keys = [_key(t) for t in texts]
        missing = [i for i, k in enumerate(keys) if k not in self.table]
        if missing:
            fresh = self.real.embed([texts[i] for i in missing], batch_size=batch_size)
            for i, vector in zip(missing, fresh):
                self.table[keys[i]] = np.asarray(vector, dtype=np.float32)
        self.misses += len(missing)
        self.hits += len(keys) - len(missing)
        if not keys:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([self.table[k] for k in keys])

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        keys = np.asarray(list(self.table), dtype="S16")
        vectors = np.vstack(list(self.table.values())) if self.table else np.zeros((0, self.dim), np.float32)
        tmp = self.path.with_name(self.path.stem + ".tmp.npz")
        np.savez(tmp, keys=keys, vectors=vectors)
        tmp.replace(self.path)


class DerivingEmbedder:
    """Real vectors for texts the real model already embedded; a derived vector for any other text.

    A derived vector is normalise(base[j] + N(0, SIGMA^2 I)) where j and the
    noise are both seeded by the text's hash: deterministic, no model call.
    Used only to fill the 50k-unit file for the latency measurement (vector
    values do not change the cost of an exact matrix-vector product).
    """

    def __init__(self, real, known: dict[bytes, np.ndarray]):
        self.real, self.name, self.dim = real, real.name, real.dim
        self.known = known
        self.base = np.vstack(list(known.values()))
        self.real_hits = self.derived = 0

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            key = _key(text)
            vector = self.known.get(key)
            if vector is None:
                seed = int.from_bytes(key[:8], "little")
                rng = np.random.default_rng(seed)
                vector = self.base[seed % len(self.base)] + rng.standard_normal(self.dim, dtype=np.float32) * np.float32(SIGMA)
                vector = vector / np.linalg.norm(vector)
                self.derived += 1
            else:
                self.real_hits += 1
            out[i] = vector
        return out
