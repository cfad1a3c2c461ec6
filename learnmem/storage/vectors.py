"""Embeddings between numpy and Arrow: how vectors go into and come out of FLOAT[dim] columns."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


def to_column(vectors: np.ndarray, dim: int) -> pa.FixedSizeListArray:
    """(n, dim) floats as an Arrow column that DuckDB reads as FLOAT[dim]."""
    return pa.FixedSizeListArray.from_arrays(pa.array(np.asarray(vectors, dtype=np.float32).reshape(-1)), dim)


def to_matrix(column: pa.Array | pa.ChunkedArray, dim: int) -> np.ndarray:
    """A FLOAT[dim] column (Arrow fixed-size lists) as a contiguous (n, dim) float32 matrix."""
    flat = pc.list_flatten(column).to_numpy() if len(column) else np.zeros(0, dtype=np.float32)
    return np.ascontiguousarray(flat, dtype=np.float32).reshape(len(column), dim)


def vector_width(column: pa.Array | pa.ChunkedArray) -> int:
    """The width of a vector column: FLOAT[dim] from a file, or FLOAT[] from a lake (its first row's length)."""
    if isinstance(column.type, pa.FixedSizeListType):
        return column.type.list_size
    return len(column[0]) if len(column) else 0


def to_matrix_with_gaps(column: pa.Array | pa.ChunkedArray, dim: int) -> np.ndarray:
    """Like `to_matrix`, for a column with NULL rows (not embedded yet): those rows are zero vectors."""
    matrix = np.zeros((len(column), dim), dtype=np.float32)
    present = pc.is_valid(column).to_numpy(zero_copy_only=False)
    if present.any():
        matrix[present] = to_matrix(column.filter(pa.array(present)), dim)
    return matrix
