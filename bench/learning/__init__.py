"""Learning benchmarks (see bench.learning.run)."""
