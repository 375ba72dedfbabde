# SPDX-License-Identifier: BSD-3-Clause
"""Outlier hosts and node-type summaries on synthetic fleets (analysis/tests/synthetic_fleet.py),
and the generator's agreement with what the numaprobe binary writes."""

import os

import h5py
import numpy as np
import pandas as pd
import pytest
from conftest import PLANTED, assert_refused_option, run_report

import synthetic_fleet
from numaprobe_analysis.fleetview import view
from numaprobe_analysis.fleet import load_fleet
from numaprobe_analysis.outliers import OutlierRule, find_outliers, robust_z


def test_report_flags_exactly_the_planted_hosts(synthetic):
    outliers = pd.read_csv(synthetic["report"] / "outliers.csv")
    assert set(outliers.host) == set(PLANTED)
    by_host = outliers.groupby("host").metric.apply(set)
    assert by_host["icx07"] == {"bandwidth read remote", "bandwidth triad remote"}
    assert "idle latency local" in by_host["rome13"]
    assert (outliers.verdict == "worse").all()
    out = synthetic["proc"].stdout
    assert "icx07 (Intel Xeon 6338 2S/2N/64C 256G): bandwidth read remote" in out
    assert "rome13 (AMD EPYC 7742 1S/4N/64C 512G): idle latency local" in out
    assert "too small to judge" not in out


def test_clean_fleet_has_no_outliers_and_fail_flag_tracks_them(tmp_path, synthetic):
    clean = tmp_path / "clean.h5"
    synthetic_fleet.write_fleet(str(clean), 40, seed=1)
    proc = run_report(clean, "--no-report", "--fail-on-outliers")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "No outlier hosts." in proc.stdout
    proc = run_report(synthetic["path"], "--no-report", "--fail-on-outliers")
    assert proc.returncode == 1


def test_per_type_summary_has_median_and_iqr(synthetic):
    v = view(load_fleet([str(synthetic["path"])]))
    assert sorted(v.types.hosts) == [20, 20]
    s = v.summary.set_index(["type", "key"])
    icx = "Intel Xeon 6338 2S/2N/64C 256G"
    lat = s.loc[(icx, "latency_local_ns")]
    assert lat.hosts == 20 and 90 < lat["median"] < 94 and 0 < lat.IQR < 3
    # every headline metric of the issue is there, for both types
    for key in ("latency_remote_ns", "bw_read_local_gbs", "bw_triad_remote_gbs",
                "latency_L1_ns", "latency_L2_ns", "latency_L3_ns",
                "first_touch_penalty_serial_pct", "first_touch_penalty_mismatched_pct"):
        assert set(v.summary[v.summary.key == key].type) == set(v.types.type), key
    # the planted remote-bandwidth host barely moves the type median (robust statistics)
    assert 47 < s.loc[(icx, "bw_read_remote_gbs")]["median"] < 49
    files = sorted(os.listdir(synthetic["report"]))
    for name in ("files.csv", "node_types.csv", "hosts.csv", "summary_type1.csv",
                 "summary_type2.csv", "outliers.csv", "host_metrics.csv", "report.md",
                 "report.html"):
        assert name in files


def test_small_types_are_not_judged(tmp_path):
    small = tmp_path / "small.h5"
    synthetic_fleet.write_fleet(str(small), 8, seed=3, factors={"icx02": {"bw_remote": 0.5}})
    proc = run_report(small, "--no-report")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("4 host(s), too small to judge") == 2
    assert "icx02 (" not in proc.stdout
    # with the minimum lowered the bad host is found
    proc = run_report(small, "--no-report", "--min-hosts", "4")
    assert "icx02 (Intel Xeon 6338 2S/2N/64C 256G): bandwidth read remote" in proc.stdout


def test_rule_numbers_out_of_range_are_refused(synthetic):
    """NaN compares false with every limit: --z nan flagged no host and exited 0 with
    --fail-on-outliers on a fleet with two outliers."""
    for option, value in (("--z", "nan"), ("--z", "-1"), ("--pct", "inf"), ("--pct", "nan"),
                          ("--min-hosts", "0")):
        proc = run_report(synthetic["path"], "--no-report", "--fail-on-outliers", option, value)
        assert_refused_option(proc, option, value)


def _values(xs):
    return pd.DataFrame({"type": "t", "host": [f"h{i}" for i in range(len(xs))],
                         "metric": "m", "value": xs})


class _M:
    judged, label, unit, better = True, "m", "ns", "lower"


def test_both_rules_must_hold():
    # A tight group: h9 is 5% off, far beyond 3.5 robust sigmas but under the 10% rule.
    tight = _values([100.0, 100.1, 99.9, 100.0, 100.2, 99.8, 100.1, 99.9, 100.0, 105.0])
    found, _ = find_outliers(tight, {"m": _M()})
    assert found.empty
    found, _ = find_outliers(tight, {"m": _M()}, OutlierRule(pct_limit=4))
    assert list(found.host) == ["h9"]
    # A loose group: h9 is 18% off, but the spread makes its robust z small.
    loose = _values([70.0, 80, 90, 100, 110, 120, 130, 85, 95, 115])
    assert abs(robust_z(loose.value)[-1]) < 3.5
    assert find_outliers(loose, {"m": _M()})[0].empty


def test_robust_z_uses_normal_scaled_mad():
    x = np.array([1.0, 2, 3, 4, 100])
    # MAD = 1; scaled to sigma for normal data by 1.4826
    assert robust_z(x)[-1] == pytest.approx((100 - 3) / 1.482602218505602)
    assert list(robust_z([5.0, 5, 5, 5, 6])) == [0, 0, 0, 0, np.inf]


def test_generator_writes_the_binarys_layout(written):
    """Every table and column of the synthetic file, taken from the binary's --schema, has the
    name and type the binary writes."""
    fake = synthetic_fleet.layout()
    with h5py.File(written, "r") as f:
        for table in f:
            assert table in fake, f"generator lacks /{table}"
            real = f[table].dtype
            assert fake[table].names == real.names, table
            for name in real.names:
                assert fake[table][name] == real[name], f"/{table}.{name}"


def test_fleet_without_usable_rows(tmp_path):
    """Every measurement failed: the report still runs, says so, and draws nothing."""
    failed = tmp_path / "failed.h5"
    synthetic_fleet.write_fleet(str(failed), 6, seed=4)
    with h5py.File(failed, "r+") as f:
        for table in ("latency", "bandwidth", "loaded_latency", "balancing"):
            rows = f[table][()]
            rows["status"], rows["note"] = b"failed", b"synthetic failure"
            if "valid" in rows.dtype.names:
                rows["valid"] = 0
            f[table][...] = rows
    proc = run_report(failed, "-o", tmp_path / "r")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("3 host(s), too small to judge") == 2
    assert "No headline metrics to judge" in proc.stdout
    assert proc.stdout.count(": skipped: ") == 13  # every plot
    assert "no latency_matrix rows (policy bind) with status ok" in proc.stdout
    assert not list((tmp_path / "r").glob("*.png"))


def test_class_table_per_node_type(synthetic):
    """Per node type: each pair class with its pairs, SLIT and figures beside local, as a CSV
    beside the report, in the HTML (with the type's topology, numactl's layout) and the text."""
    d = synthetic["report"]
    tables = {}
    for path in sorted(d.glob("classes_type*.csv")):
        t = pd.read_csv(path, dtype={"SLIT": str})
        tables[tuple(t["class"])] = t.set_index("class")
    # Intel: 2 nodes, one per package; EPYC: 4 nodes in one package (synthetic_fleet.TYPES).
    assert set(tables) == {("local", "cross_package"), ("local", "same_package")}
    intel, epyc = tables[("local", "cross_package")], tables[("local", "same_package")]
    assert list(intel.SLIT) == ["10", "20"] and list(epyc.SLIT) == ["10", "12"]
    assert list(intel["pairs per host"]) == [2, 2] and list(epyc["pairs per host"]) == [4, 12]
    for t, lat, bw in ((intel, 145 / 92, 48 / 95), (epyc, 128 / 105, 30 / 38)):
        remote = t.iloc[1]
        assert t.iloc[0]["latency / local"] == 1 and t.iloc[0]["read / local"] == 1
        assert remote["latency / local"] == pytest.approx(lat, rel=0.05)
        assert remote["read / local"] == pytest.approx(bw, rel=0.05)
        assert remote["triad / local"] == pytest.approx(bw, rel=0.05)
    html = (d / "report.html").read_text()
    assert html.count("per pair class") == 2
    assert "available: 4 nodes (0-3)" in html and "available: 2 nodes (0-1)" in html
    assert "node distances:" in html
    assert "per pair class" in synthetic["proc"].stdout
