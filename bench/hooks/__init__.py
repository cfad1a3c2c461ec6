"""Claude Code hook latency benchmarks (`python -m bench.hooks`)."""
