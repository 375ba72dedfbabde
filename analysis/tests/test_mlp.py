# SPDX-License-Identifier: BSD-3-Clause
"""mlp's lines in flight (Little's law: the pair's idle latency over its ns per load with N
chains) and the per-host metric, on rows made here: each pair of one file's rank on its own."""

import math

import pandas as pd
import pytest

from numaprobe_analysis.experiments import mlp
from numaprobe_analysis.noise import is_noisy


def rows(file, host, cpu, mem, ns_by_chains, status="ok"):
    return [{"file": file, "host": host, "rank": 0, "cpu_node": cpu, "mem_node": mem,
             "experiment": "mlp", "pattern": f"parallel:{n}", "chains": n,
             "latency_ns_median": ns, "status": status} for n, ns in ns_by_chains.items()]


@pytest.fixture
def latency():
    return pd.DataFrame(
        rows("day1.h5", "a", 0, 0, {1: 100.0, 2: 50.0, 4: 25.0, 8: 24.0})
        + rows("day1.h5", "a", 0, 1, {1: 150.0, 2: 100.0, 4: 100.0})
        # the same host on another day: its own idle latency, not day 1's
        + rows("day2.h5", "a", 0, 0, {1: 200.0, 2: 100.0})
        # no 1-chain point: no lines in flight
        + rows("day1.h5", "b", 0, 0, {2: 50.0, 4: 25.0})
        + rows("day1.h5", "c", 0, 0, {1: 100.0, 2: 10.0}, status="failed")
        + [{"file": "day1.h5", "host": "a", "rank": 0, "cpu_node": 0, "mem_node": 0,
            "experiment": "latency_matrix", "pattern": "random", "chains": 1,
            "latency_ns_median": 1.0, "status": "ok"}])


def test_lines_in_flight(latency):
    got = mlp.mlp_in_flight(latency)
    assert set(got.experiment) == {"mlp"} and set(got.status) == {"ok"}
    key = got.set_index(["file", "host", "mem_node", "chains"]).in_flight
    assert key[("day1.h5", "a", 0, 4)] == pytest.approx(4.0)
    assert key[("day1.h5", "a", 0, 8)] == pytest.approx(100 / 24)
    assert key[("day1.h5", "a", 1, 2)] == pytest.approx(1.5)
    assert key[("day2.h5", "a", 0, 2)] == pytest.approx(2.0)
    assert math.isnan(key[("day1.h5", "b", 0, 4)])


def test_metric_is_the_best_count_per_pair(latency):
    out, catalogue = [], {}
    mlp.metrics({"latency": latency}, None, out, catalogue)
    assert list(catalogue) == ["mlp_lines_local", "mlp_lines_remote"]
    assert not catalogue["mlp_lines_local"].judged
    values = {(h, m): v for h, m, v, _ in out}
    # host a: day 1's best local is 100 / 24, day 2's is 2: the median of the two runs
    assert values[("a", "mlp_lines_local")] == pytest.approx((100 / 24 + 2) / 2)
    assert values[("a", "mlp_lines_remote")] == pytest.approx(1.5)
    assert ("b", "mlp_lines_local") not in values
    assert ("c", "mlp_lines_local") not in values


def test_no_rows_no_metric():
    out, catalogue = [], {}
    mlp.metrics({"latency": pd.DataFrame(columns=["status", "experiment"])}, None, out,
                catalogue)
    assert out == [] and catalogue == {}


def test_best_count_among_figures_not_noisy():
    """A noisy chain count shows in the curve but does not decide the best: the metric is the
    best quiet count's, with its ratio's uncertainty (the idle's and the count's added)."""
    frame = pd.DataFrame(rows("day1.h5", "a", 0, 0, {1: 100.0, 8: 20.0, 16: 5.0}))
    frame["uncertainty_pct"] = frame.chains.map({1: 2.0, 8: 3.0, 16: 60.0})
    out, catalogue = [], {}
    mlp.metrics({"latency": frame}, None, out, catalogue)
    got = {m: (v, u) for _, m, v, u in out}
    assert got["mlp_lines_local"][0] == pytest.approx(100 / 20)
    assert got["mlp_lines_local"][1] == pytest.approx(2.0 + 3.0)
    # Every count noisy: the best of them all, and noisy itself.
    frame["uncertainty_pct"] = 40.0
    out = []
    mlp.metrics({"latency": frame}, None, out, {})
    (_, _, value, u), = out
    assert value == pytest.approx(100 / 5) and is_noisy(u)
