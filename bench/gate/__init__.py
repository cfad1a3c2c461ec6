"""The benchmark gate: a quick, deterministic subset of every benchmark area, run after the tests on every change.

    python -m bench.gate [--rounds 3] [--json PATH] [--write-baseline] [--noise N]

Each area's workload (bench/gate/checks.py) is small enough that the whole gate takes a couple of minutes on a
2-core machine: bulk and single stores, retrieval, a code index and its search, a git history index, GHAP
cycles, an import and clustering of experiences, a hook process, the MCP server's start. Every figure is the
median of `--rounds` rounds, and each round measures a calibration too (a fixed Python loop, a fixed numpy
product, the real model embedding a fixed batch): figures are compared with the committed baseline
(bench/gate/baseline.json) divided by their round's calibration, so a slower or busier machine does not fail
the gate and a slower learnmem does. A figure worse than its baseline by more than its factor fails the gate,
naming the figure, its baseline and the factor.

Complexity is checked apart, as a ratio between two sizes measured in the same run, which no machine
difference can hide: storing a batch into a file 8x larger must not cost more than GROWTH_LIMIT times as much
(a linear step costs about the same; the quadratic restatement check of issue 25 cost ~8x).

The factors come from the gate's own noise: `--noise N` runs it N times and reports each figure's spread
(bench/gate/RESULTS.md).
"""
