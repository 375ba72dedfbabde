# SPDX-License-Identifier: BSD-3-Clause
"""numaprobe-report compare BASE NEW: a planted regression is named and fails the exit status."""

import pandas as pd
from conftest import assert_refused_option, run_report

import synthetic_fleet


def _pair(tmp_path, new_factors):
    base, new = tmp_path / "base.h5", tmp_path / "new.h5"
    synthetic_fleet.write_fleet(str(base), 40, seed=11)
    # A second run of the same fleet: fresh noise, plus the planted change.
    synthetic_fleet.write_fleet(str(new), 40, seed=12, factors=new_factors)
    return base, new


def test_planted_regression_fails_and_is_named(tmp_path):
    base, new = _pair(tmp_path, {"rome05": {"bw_local": 0.75},
                                 "icx03": {"latency_remote": 0.8}})
    proc = run_report("compare", base, new, "-o", tmp_path / "cmp")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "2 regression(s) beyond 10% on 1 host(s)" in proc.stderr
    changes = pd.read_csv(tmp_path / "cmp" / "changes.csv")
    bad = changes[changes.verdict == "regression"]
    assert set(bad.host) == {"rome05"}
    assert set(bad.metric) == {"bandwidth read local", "bandwidth triad local"}
    assert (bad.change_pct.between(-27, -23)).all()
    better = changes[changes.verdict == "improvement"]
    assert set(better.host) == {"icx03"} and set(better.metric) == {"idle latency remote"}
    regressions = proc.stdout.split("Regressions:")[1].split("Improvements:")[0]
    assert "rome05" in regressions and "icx03" not in regressions


def test_no_change_exits_zero(tmp_path):
    base, new = _pair(tmp_path, {"icx03": {"latency_remote": 0.8}})
    proc = run_report("compare", base, new)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Regressions: 0" in proc.stdout
    assert "Improvements: 1" in proc.stdout


def test_threshold_is_configurable(tmp_path):
    base, new = _pair(tmp_path, {"rome05": {"bw_local": 0.75}})
    assert run_report("compare", base, new, "--threshold", "30").returncode == 0
    assert run_report("compare", base, new, "--threshold", "20").returncode == 1


def test_numbers_out_of_range_are_refused(tmp_path):
    """NaN compares false with every limit: --threshold nan judged nothing and exited 0 on two
    regressions."""
    base, new = _pair(tmp_path, {"rome05": {"bw_local": 0.75}})
    assert run_report("compare", base, new).returncode == 1
    for option, value, shown in (("--threshold", "nan", "nan"), ("--threshold", "inf", "inf"),
                                 ("--threshold", "-1", "-1"),
                                 ("--tolerance", "bw_read_local_gbs=nan", "nan"),
                                 ("--tolerance", "20", "20"), ("--min-matched", "nan", "nan"),
                                 ("--min-matched", "101", "101")):
        proc = run_report("compare", base, new, option, value)
        assert_refused_option(proc, option, shown)
