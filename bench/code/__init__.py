"""Code-intelligence benchmarks: indexing speed, search latency, retrieval quality (`python -m bench.code`)."""
