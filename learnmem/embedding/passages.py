"""Long texts -> overlapping passages that fit the embedding model's window.

all-MiniLM-L6-v2 reads 256 tokens; a longer memory would be embedded by its
beginning alone. Instead it is cut into passages of PASSAGE_WORDS words
(~200 tokens of English) that overlap by a fifth, each is embedded, and
retrieval scores the memory by its best passage.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

PASSAGE_WORDS = 150
PASSAGE_STEP = 120


def split(text: str) -> list[str]:
    """The passages of a text: the text itself when it is short enough."""
    words = text.split()
    if len(words) <= PASSAGE_WORDS:
        return [text]
    starts = range(0, max(len(words) - PASSAGE_WORDS, 0) + PASSAGE_STEP, PASSAGE_STEP)
    return [" ".join(words[start : start + PASSAGE_WORDS]) for start in starts if start < len(words)]


def embed_texts(embedder, texts: Sequence[str]) -> tuple[np.ndarray, list[np.ndarray]]:
    """One vector per text (the normalised mean of its passages) and, per text, its passage vectors.

    A text of one passage has an empty passage list: its vector says it all.
    """
    pieces = [split(text) for text in texts]
    flat = embedder.embed([passage for passage_list in pieces for passage in passage_list])
    if len(flat) == len(texts):  # every text is one passage (most memories): its vector is its passage's
        # float32 divided by float32, as the loop below divides each mean (a Python float, cast to the array's type)
        norms = np.array([max(float(np.linalg.norm(row)), 1e-12) for row in flat], dtype=np.float32)
        return (flat / norms[:, None]).astype(np.float32, copy=False), [row[:0] for row in flat[:, None]]
    vectors = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    passages: list[np.ndarray] = []
    start = 0
    for row, passage_list in enumerate(pieces):
        block = flat[start : start + len(passage_list)]
        start += len(passage_list)
        mean = block.mean(axis=0)
        vectors[row] = mean / max(float(np.linalg.norm(mean)), 1e-12)
        passages.append(block if len(passage_list) > 1 else block[:0])
    return vectors, passages
