# SPDX-License-Identifier: BSD-3-Clause
"""Cache-level latencies come from the levels /cache_levels measured, and are NaN where a level
was not judged: never DRAM latency called "L3", never a figure read at hwloc's size when the
step was measured elsewhere."""

import math

import numpy as np
import pytest

import synthetic_fleet
from fleet_edits import edit, ranks_of, set_host
from numaprobe_analysis.fleetview import view
from numaprobe_analysis.fleet import load_fleet

ICX = "Intel Xeon 6338 2S/2N/64C 256G"


def _value(v, host, key):
    rows = v.values[(v.values.host == host) & (v.values.metric == key)]
    assert len(rows) == 1, (host, key)
    return float(rows.value.iloc[0])


def _level(path, host, level, **fields):
    rank = ranks_of(path)[host]

    def change(rows):
        sel = (rows["rank"] == rank) & (rows["level"] == level)
        assert sel.sum() == 1
        for k, val in fields.items():
            rows[k][sel] = val.encode() if isinstance(val, str) else val
    edit(path, "cache_levels", change)


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("cache") / "fleet.h5")
    synthetic_fleet.write_fleet(path, 20, seed=5)
    # icx02: the L2 step measured at twice hwloc's size, with its own latency before it
    _level(path, "icx02", 2, measured_bytes=2560 << 10, latency_ns_below=7.25, agrees=1)
    # icx03: the sweep never reached its L3 (the binary judges nothing there)
    _level(path, "icx03", 3, measured_bytes=0, latency_ns_below=0.0, agrees=-1,
           note="not judged: the chase's lines do not span it (sweep to 96 MiB or more)")
    # icx04: a virtual machine's hwloc reports a 260 MiB L3 the sweep cannot span
    set_host(path, "icx04", l3_bytes=260 << 20)
    _level(path, "icx04", 3, hwloc_bytes=260 << 20, measured_bytes=0, latency_ns_below=0.0,
           agrees=-1, note="not judged: the chase's lines do not span it")
    # icx05: the sweep spans the L3 but finds no step near it
    _level(path, "icx05", 3, measured_bytes=0, latency_ns_below=60.0, agrees=0,
           note="hwloc reports 48 MiB but latency rises at most 1.05x")
    return path, view(load_fleet([path]))


def test_levels_are_the_measured_latencies(planted):
    path, v = planted
    import h5py
    with h5py.File(path, "r") as f:
        cl = f["cache_levels"][()]
    rank = ranks_of(path)["icx01"]
    for level in (1, 2, 3):
        row = cl[(cl["rank"] == rank) & (cl["level"] == level)][0]
        assert _value(v, "icx01", f"latency_L{level}_ns") == pytest.approx(
            row["latency_ns_below"])


def test_level_measured_elsewhere_than_hwloc_says(planted):
    _path, v = planted
    assert _value(v, "icx02", "latency_L2_ns") == 7.25


@pytest.mark.parametrize("host", ["icx03", "icx04", "icx05"])
def test_level_not_judged_is_nan(planted, host):
    _path, v = planted
    assert math.isnan(_value(v, host, "latency_L3_ns"))
    assert not math.isnan(_value(v, host, "latency_L2_ns"))
    assert host not in set(v.outliers.host)


def test_not_judged_hosts_are_left_out_of_the_type_figures(planted):
    _path, v = planted
    s = v.summary.set_index(["type", "key"]).loc[(ICX, "latency_L3_ns")]
    assert s.hosts == 10 - 3 and np.isfinite(s["median"])
    assert 17 < s["median"] < 19  # the L3 of the type, no DRAM figure pulled in


def test_memory_latency_is_not_claimed_inside_a_cache_hwloc_reports(planted):
    """icx04's hwloc L3 (260 MiB) is larger than the sweep's lines (256 MiB at 1 GiB): the
    chase may still be in that cache, so no memory latency is claimed; icx01 has one."""
    _path, v = planted
    mem = v.values[v.values.metric == "latency_memory_ns"]
    assert "icx04" not in set(mem.host) and "icx01" in set(mem.host)
    assert 60 < _value(v, "icx01", "latency_memory_ns") < 100  # far above the L3 (18 ns)


def test_a_file_without_cache_levels_claims_no_level(tmp_path):
    path = str(tmp_path / "old.h5")
    synthetic_fleet.write_fleet(path, 10, seed=6)
    edit(path, "cache_levels", lambda rows: rows[:0])
    v = view(load_fleet([path]))
    levels = v.values[v.values.metric.str.match(r"latency_L\d_ns")]
    assert len(levels) and levels.value.isna().all()
    assert (v.summary[v.summary.key.str.match(r"latency_L\d_ns")].hosts == 0).all()
