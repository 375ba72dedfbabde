# SPDX-License-Identifier: BSD-3-Clause
"""max_bandwidth's per-host metrics on rows made here: per kernel, the whole run's GB/s with
every node on its own memory and with every link loaded; the per-node rows of a run, other
experiments' rows and failed runs left out."""

import pandas as pd
import pytest

from numaprobe_analysis.experiments import max_bandwidth


def row(host, kernel, cpu, mem, pair_class, gbs, experiment="max_bandwidth", status="ok"):
    return {"host": host, "experiment": experiment, "kernel": kernel, "cpu_node": cpu,
            "mem_node": mem, "pair_class": pair_class, "gbs_best": gbs, "status": status}


def test_local_and_link_per_kernel():
    frame = pd.DataFrame([
        row("a", "read", -1, -1, "local", 200.0), row("a", "read", 0, 0, "local", 101.0),
        row("a", "read", 1, 1, "local", 99.0),
        row("a", "read", -1, -1, "cross_package", 80.0), row("a", "read", 0, 1, "cross_package",
                                                             40.0),
        row("a", "triad", -1, -1, "local", 150.0),
        row("a", "read", -1, -1, "local", 1.0, experiment="first_touch"),
        row("b", "read", -1, -1, "local", 190.0), row("b", "read", -1, -1, "mixed", 1.0,
                                                      status="failed")])
    out, catalogue = [], {}
    max_bandwidth.metrics({"bandwidth": frame}, None, out, catalogue)
    assert list(catalogue) == ["max_bandwidth_read_local", "max_bandwidth_read_link",
                               "max_bandwidth_triad_local"]
    assert not any(m.judged for m in catalogue.values())
    values = {(h, m): v for h, m, v, _ in out}
    assert values[("a", "max_bandwidth_read_local")] == pytest.approx(200.0)
    assert values[("a", "max_bandwidth_read_link")] == pytest.approx(80.0)
    assert values[("a", "max_bandwidth_triad_local")] == pytest.approx(150.0)
    assert values[("b", "max_bandwidth_read_local")] == pytest.approx(190.0)
    assert ("b", "max_bandwidth_read_link") not in values


def test_no_rows_no_metric():
    out, catalogue = [], {}
    max_bandwidth.metrics({"bandwidth": pd.DataFrame()}, None, out, catalogue)
    assert out == [] and catalogue == {}
