"""Benchmarks for learnmem (not tests): `python -m bench [--quick] [--sizes ...] [--out FILE]`.

Modules: corpus (seeded memory texts and queries), vectors (real + derived
embeddings, cached in bench/out/), peers (qdrant-local + SQLite, sqlite-vec),
cold (fresh-process retrieval), measure (timing and machine facts),
run (the driver), report (markdown).
"""
