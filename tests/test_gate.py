"""The benchmark gate's verdicts (bench/gate): a figure past its factor fails, and so does growth past its
limit, whatever the baseline says; the factors follow the noise runs' spread."""

from __future__ import annotations

import pytest

from bench.gate.run import FACTOR_FLOOR, GROWTH, GROWTH_LIMIT, baseline_from, compare


def figures(**overrides) -> dict[str, float]:
    values = {"calibration.seconds": 0.1, "retrieve.warm": 0.02, GROWTH[0]: 3.0, GROWTH[1]: 2.0}
    return values | {name.replace("__", "."): value for name, value in overrides.items()}


def test_a_figure_past_its_factor_fails_with_its_baseline_and_factor():
    baseline = {"figures": {"retrieve.warm": {"normalised": 0.02, "factor": 1.6}}}
    rows = {row["figure"]: row for row in compare(figures(retrieve__warm=0.031), baseline)}
    assert rows["retrieve.warm"]["ratio"] == pytest.approx(1.55) and rows["retrieve.warm"]["ok"]
    rows = {row["figure"]: row for row in compare(figures(retrieve__warm=0.033), baseline)}
    assert (rows["retrieve.warm"]["baseline"], rows["retrieve.warm"]["factor"]) == (0.02, 1.6)
    assert not rows["retrieve.warm"]["ok"]
    assert rows[GROWTH[0]]["ok"] and rows[GROWTH[0]]["baseline"] is None  # a new figure passes, flagged


def test_growth_is_judged_within_the_run():
    growth = [row for row in compare(figures(), {"figures": {}}) if row["figure"].startswith("store.growth")]
    assert growth[0]["value"] == pytest.approx(1.5) and growth[0]["ok"]
    quadratic = figures(**{GROWTH[0].replace(".", "__"): 2.0 * (GROWTH_LIMIT + 0.1)})
    growth = [row for row in compare(quadratic, {"figures": {}}) if row["figure"].startswith("store.growth")]
    assert not growth[0]["ok"]


def test_factors_follow_the_spread_of_the_noise_runs():
    runs = [figures(retrieve__warm=value) for value in (0.020, 0.021, 0.030)]
    known = baseline_from(runs, "python -m bench.gate --noise 3")["figures"]
    assert known["retrieve.warm"]["normalised"] == 0.021 and known["retrieve.warm"]["spread"] == 1.5
    assert known["retrieve.warm"]["factor"] == 2.3  # 1.5 x 1.5, rounded up
    assert known[GROWTH[1]]["factor"] == FACTOR_FLOOR  # no spread at all: the floor
