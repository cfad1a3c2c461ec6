"""Embeddings for the benchmark corpus: real ones for a base set, derived ones beyond it.

Embedding 100k texts with the real model would take ~6 minutes on 2 cores
and tell us nothing about storage or retrieval. So:

* the first `n_base` (2,000) memories and every query are embedded once with
  the real model and cached under `bench/out/` (keyed by model name and a
  hash of the texts);
* a derived memory i >= n_base (a base text with a lead-in and a provenance
  clause, see `bench.corpus`) gets ``normalise(v[parent] + N(0, sigma^2 I))``
  with sigma = 0.028: cosine ~0.88 to its parent and ~0.77 between siblings,
  the range real near-paraphrases reach with MiniLM. The noise stream is
  seeded and sequential, so vectors are prefix-stable like the texts.

`PrecomputedEmbedder` hands these vectors to learnmem through its normal
embedder interface; the peers receive the very same arrays.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Sequence

import numpy as np

OUT_DIR = Path(__file__).resolve().parent / "out"
SIGMA = 0.028
NOISE_SEED = 97


def _cache_path(model_name: str, kind: str, texts: Sequence[str], batch_size: int) -> Path:
    digest = hashlib.sha256("\x1e".join(texts).encode("utf-8")).hexdigest()[:16]
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", model_name)
    return OUT_DIR / "embeddings" / f"{safe}-{kind}-b{batch_size}-{len(texts)}-{digest}.npy"


def cached_embed(embedder, texts: Sequence[str], kind: str, batch_size: int = 32) -> tuple[np.ndarray, bool]:
    """Embed `texts` with `embedder`, or load the result of an earlier run; returns (vectors, from_cache).

    batch_size=1 embeds one text per call, as a query is embedded at search time.
    """
    path = _cache_path(embedder.name, kind, texts, batch_size)
    if path.exists():
        vectors = np.load(path)
        if vectors.shape == (len(texts), embedder.dim):
            return vectors, True
    if batch_size == 1:
        vectors = np.vstack([embedder.embed([t], batch_size=1) for t in texts]) if texts else np.zeros((0, embedder.dim), np.float32)
    else:
        vectors = embedder.embed(list(texts), batch_size=batch_size)
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, vectors)
    tmp.replace(path)
    return vectors, False


def derive(base_vectors: np.ndarray, parents: Sequence[int], n_base: int, sigma: float = SIGMA,
           seed: int = NOISE_SEED) -> np.ndarray:
    """Return (len(parents), dim) unit vectors: real base rows, then noisy copies of their parents."""
    n = len(parents)
    dim = base_vectors.shape[1]
    out = np.empty((n, dim), dtype=np.float32)
    k = min(n, n_base)
    out[:k] = base_vectors[:k]
    if n > n_base:
        rng = np.random.default_rng(seed)
        idx = np.asarray(parents[n_base:], dtype=np.int64)
        noise = rng.standard_normal((n - n_base, dim), dtype=np.float32) * np.float32(sigma)
        derived = base_vectors[idx] + noise
        derived /= np.linalg.norm(derived, axis=1, keepdims=True)
        out[n_base:] = derived
    return out


class PrecomputedEmbedder:
    """An embedder that answers known texts from a table and the rest with the real model.

    Same `.name` and `.dim` as the real embedder, so the file it fills can be
    opened later with the real one (the cold-process runs do exactly that).
    `misses` counts texts that were not in the table: during a storage-only
    run it must stay 0, otherwise learnmem stored other vectors than the peers.
    """

    def __init__(self, real, texts: Sequence[str], vectors: np.ndarray):
        self.real = real
        self.name = real.name
        self.dim = real.dim
        self._row = {t: i for i, t in enumerate(texts)}
        self._vectors = vectors
        self.hits = 0
        self.misses = 0

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """Rows for `texts`, in order: table look-ups, the misses embedded by the real model."""
        rows = [self._row.get(t) for t in texts]
        missing = [i for i, r in enumerate(rows) if r is None]
        self.misses += len(missing)
        self.hits += len(rows) - len(missing)
        if not missing:
            return self._vectors[rows]
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        known = [i for i, r in enumerate(rows) if r is not None]
        if known:
            out[known] = self._vectors[[rows[i] for i in known]]
        out[missing] = self.real.embed([texts[i] for i in missing], batch_size=batch_size)
        return out


def exact_top_k(vectors: np.ndarray, query_vectors: np.ndarray, k: int) -> np.ndarray:
    """Brute-force cosine top-k indices (rows are unit vectors), best first: the recall oracle."""
    scores = query_vectors @ vectors.T
    k = min(k, vectors.shape[0])
    part = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    order = np.argsort(-np.take_along_axis(scores, part, axis=1), axis=1, kind="stable")
    return np.take_along_axis(part, order, axis=1)
