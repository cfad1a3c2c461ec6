"""Git-history benchmarks: commit indexing speed, incremental runs, blame, history queries (`python -m bench.git`)."""
