# SPDX-License-Identifier: BSD-3-Clause
"""injection's per-host metrics on rows made here: per mix, the median over a host's local
pairs and over its remote pairs of the best bus GB/s; rows of other experiments, policies and
statuses left out."""

import pandas as pd
import pytest

from numaprobe_analysis.experiments import injection


def row(host, kernel, cpu, mem, gbs, experiment="injection", policy="bind", status="ok"):
    return {"host": host, "experiment": experiment, "kernel": kernel, "cpu_node": cpu,
            "mem_node": mem, "mem_policy": policy, "bus_gbs_best": gbs, "status": status}


def test_local_and_remote_per_mix():
    frame = pd.DataFrame([
        row("a", "read", 0, 0, 100.0), row("a", "read", 1, 1, 120.0),
        row("a", "read", 0, 1, 40.0), row("a", "read", 1, 0, 60.0),
        row("a", "mix_1to1", 0, 0, 80.0), row("a", "mix_1to1", 0, 1, 30.0),
        row("a", "read", 0, 0, 1.0, experiment="bandwidth_matrix"),
        row("a", "read", 0, -1, 1.0, policy="interleave"),
        row("b", "read", 0, 0, 90.0), row("b", "mix_1to1", 0, 0, 1.0, status="failed")])
    out, catalogue = [], {}
    injection.metrics({"bandwidth": frame}, None, out, catalogue)
    assert list(catalogue) == ["injection_read_local", "injection_read_remote",
                               "injection_mix_1to1_local", "injection_mix_1to1_remote"]
    assert not any(m.judged for m in catalogue.values())
    values = {(h, m): v for h, m, v, _ in out}
    assert values[("a", "injection_read_local")] == pytest.approx(110.0)
    assert values[("a", "injection_read_remote")] == pytest.approx(50.0)
    assert values[("a", "injection_mix_1to1_remote")] == pytest.approx(30.0)
    assert values[("b", "injection_read_local")] == pytest.approx(90.0)
    assert ("b", "injection_mix_1to1_local") not in values


def test_no_rows_no_metric():
    out, catalogue = [], {}
    injection.metrics({"bandwidth": pd.DataFrame()}, None, out, catalogue)
    assert out == [] and catalogue == {}
