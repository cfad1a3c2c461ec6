"""Hybrid retrieval over an in-memory snapshot: exact vectors and BM25 keywords, fused."""
