# SPDX-License-Identifier: BSD-3-Clause
"""c2c_latency's per-host metrics on rows made here: the hitm median per class group (within an
L3, between L3s of a package, between packages), the hit rows and failed rows left out."""

import pandas as pd
import pytest

from numaprobe_analysis.experiments import c2c_latency
from numaprobe_analysis.noise import is_noisy


def row(host, cls, ns, transfer="hitm", status="ok"):
    return {"host": host, "pair_class": cls, "transfer": transfer, "latency_ns_median": ns,
            "status": status}


def test_class_groups():
    frame = pd.DataFrame([
        row("a", "same_l3", 20.0), row("a", "same_l2", 30.0), row("a", "same_l3", 100.0),
        row("a", "same_node", 80.0), row("a", "same_package", 90.0),
        row("a", "cross_package", 150.0), row("a", "cross_package", 900.0, transfer="hit"),
        row("a", "smt", 5.0),
        row("b", "same_l3", 25.0), row("b", "cross_package", 1.0, status="failed")])
    out, catalogue = [], {}
    c2c_latency.metrics({"c2c_latency": frame}, None, out, catalogue)
    assert list(catalogue) == ["c2c_intra_l3_ns", "c2c_inter_l3_ns", "c2c_cross_package_ns"]
    assert not any(m.judged for m in catalogue.values())
    values = {(h, m): v for h, m, v, _ in out}
    assert values[("a", "c2c_intra_l3_ns")] == pytest.approx(30.0)  # smt is not in any group
    assert values[("a", "c2c_inter_l3_ns")] == pytest.approx(85.0)
    assert values[("a", "c2c_cross_package_ns")] == pytest.approx(150.0)  # hit rows left out
    assert values[("b", "c2c_intra_l3_ns")] == pytest.approx(25.0)
    assert ("b", "c2c_cross_package_ns") not in values


def test_files_without_the_table():
    """A file of a schema before /c2c_latency: no metric, no error."""
    out, catalogue = [], {}
    c2c_latency.metrics({}, None, out, catalogue)
    assert out == [] and catalogue == {}


def test_class_median_carries_its_pairs_uncertainty():
    """A class's median is as uncertain as its most uncertain pair (the rule of every median of
    the report), so a noisy pair makes the figure noisy rather than silently quiet."""
    frame = pd.DataFrame([row("a", "same_l3", 20.0), row("a", "same_l2", 30.0)])
    frame["uncertainty_pct"] = [2.0, 40.0]
    out = []
    c2c_latency.metrics({"c2c_latency": frame}, None, out, {})
    (_, _, value, u), = out
    assert value == pytest.approx(25.0) and u == pytest.approx(40.0) and is_noisy(u)
