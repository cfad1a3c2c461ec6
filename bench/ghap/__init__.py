"""GHAP benchmarks: `python -m bench.ghap` (see bench/ghap/run.py)."""
