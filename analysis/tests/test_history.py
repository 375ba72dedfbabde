# SPDX-License-Identifier: BSD-3-Clause
"""numaprobe-report history: a host whose bandwidth drops over its last runs is
flagged (exit 1), a stable history is not (exit 0), a vanished host is reported, mixed configs
are refused, and the trend plots and CSV files are written."""

import json

import pandas as pd
import pytest
from conftest import assert_refused_option, run_report

import fleet_edits
import synthetic_fleet
from synthetic_history import write_history
from test_verdicts_json import validate


@pytest.fixture(scope="module")
def failing_dimm(tmp_path_factory):
    """12 nightly runs of 20 hosts: icx03's local bandwidth falls to 0.7 over the last 3 runs,
    rome05 is gone from the last 2."""
    d = tmp_path_factory.mktemp("history")
    paths = write_history(str(d / "results"), runs=12, hosts=20,
                          drops=[("icx03", "bw_local", 0.7, 3)], vanish=[("rome05", 2)])
    out = d / "report"
    proc = run_report("history", *paths, "-o", out, "--json", d / "history.json")
    return {"dir": d, "paths": paths, "out": out, "proc": proc}


def test_dropping_bandwidth_is_flagged(failing_dimm):
    proc = failing_dimm["proc"]
    assert proc.returncode == 1, proc.stdout + proc.stderr
    drift = pd.read_csv(failing_dimm["out"] / "drift.csv")
    worse = drift[drift.verdict == "worse"]
    assert set(worse.host) == {"icx03"}, worse
    assert set(worse.key) == {"bw_read_local_gbs", "bw_triad_local_gbs"}
    own = worse[(worse.rule == "own") & (worse.key == "bw_read_local_gbs")].iloc[0]
    assert -33 < own.change_pct < -27 and own.runs == 7  # the 7 runs before the latest
    assert "drifted" in proc.stderr and "icx03" in proc.stdout


def test_vanished_host_is_reported(failing_dimm):
    gone = pd.read_csv(failing_dimm["out"] / "vanished.csv")
    assert list(gone.host) == ["rome05"]
    assert gone.last_seen_utc.iloc[0].startswith("2026-01-10")  # the third run from the end
    assert "Vanished hosts: 1" in failing_dimm["proc"].stdout


def test_tolerance_must_be_a_percentage(failing_dimm):
    """NaN compares false with every limit: --tolerance nan judged nothing and exited 0 on the
    drop the defaults flag (exit 1)."""
    paths = failing_dimm["paths"]
    for item, shown in (("nan", "nan"), ("inf", "inf"), ("-5", "-5"),
                        ("bw_read_local_gbs=nan", "nan"), ("=5", "=5")):
        proc = run_report("history", *paths, "--no-report", "--tolerance", item)
        assert_refused_option(proc, "--tolerance", shown)
    proc = run_report("history", *paths, "--no-report", "--tolerance", "45")
    assert proc.returncode == 0, proc.stdout + proc.stderr  # a 30% drop is within 45%


def test_history_counts_must_be_in_range(failing_dimm):
    """--recent-hours nan raised a traceback (exit 1, the drift code), -1 called every host
    vanished; each count needs a run or host to count."""
    paths = failing_dimm["paths"]
    for option, value in (("--recent-hours", "nan"), ("--recent-hours", "-1"),
                          ("--recent-hours", "0"), ("--recent-hours", "inf"),
                          ("--recent-hours", "1e12"), ("--window", "0"), ("--min-runs", "-1"),
                          ("--min-hosts", "nan"), ("--window", "2.5")):
        proc = run_report("history", *paths, "--no-report", option, value)
        assert_refused_option(proc, option, value)


def test_history_report_files(failing_dimm):
    out = failing_dimm["out"]
    html = (out / "history.html").read_text()
    for key in ("latency_local_ns", "bw_read_local_gbs", "bw_triad_local_gbs"):
        assert (out / f"trend_{key}.png").stat().st_size > 1000
    assert html.count("<img") >= 3 and "data:image/png;base64," in html
    assert html.index("id=drift") < html.index("<img")  # the verdicts first, then the trends
    wide = pd.read_csv(out / "history.csv")
    assert len(wide) == 12 * 20 - 2 and wide.run_id.nunique() == 12
    doc = json.loads((failing_dimm["dir"] / "history.json").read_text())
    validate(doc)  # docs/report.schema.json
    assert doc["command"] == "history" and doc["exit_status"] == 1
    assert {d["host"] for d in doc["drift"] if d["verdict"] == "worse"} == {"icx03"}
    assert [v["host"] for v in doc["vanished"]] == ["rome05"]


def test_stable_history_is_not_flagged(tmp_path):
    paths = write_history(str(tmp_path / "r"), runs=8, hosts=20)
    proc = run_report("history", *reversed(paths), "--no-report")  # order: by start time
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 host(s) drifted" in proc.stdout and "Vanished hosts: 0" in proc.stdout


def test_vanished_alone_exits_0_unless_asked(tmp_path):
    paths = write_history(str(tmp_path / "r"), runs=5, hosts=20, vanish=[("icx02", 1)])
    proc = run_report("history", *paths, "--no-report")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "icx02" in proc.stdout
    proc = run_report("history", *paths, "--no-report", "--fail-on-vanished")
    assert proc.returncode == 1, proc.stdout + proc.stderr


def test_tolerance_per_metric(tmp_path):
    paths = write_history(str(tmp_path / "r"), runs=6, hosts=20,
                          drops=[("rome02", "bw_local", 0.85, 1)])
    assert run_report("history", *paths, "--no-report").returncode == 1
    proc = run_report("history", *paths, "--no-report", "--tolerance", "bw_read_local_gbs=20",
                      "--tolerance", "bw_triad_local_gbs=20")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = run_report("history", *paths, "--no-report", "--tolerance", "nosuch=5")
    assert proc.returncode == 2 and "no metric 'nosuch'" in proc.stderr


def test_mixed_configs_refused(tmp_path):
    paths = write_history(str(tmp_path / "r"), runs=3, hosts=10)
    other = tmp_path / "tiny.h5"
    synthetic_fleet.write_fleet(str(other), 10, seed=9, start_utc="2026-02-01T02:00:00Z",
                                config=synthetic_fleet.CONFIG.replace("size: 1GiB", "size: 4MiB"))
    proc = run_report("history", *paths, other, "--no-report")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "latency_matrix.size: 1GiB vs 4MiB" in proc.stderr
    proc = run_report("history", *paths, other, "--no-report", "--allow-mixed-configs")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_new_fingerprints_keep_a_hosts_history(tmp_path):
    """Schema 0.10.0 corrected the hardware fingerprint's hash, so the same hosts carry other
    fingerprints from that run on. A host's own history is its node type's, read from the
    hardware columns: the drop over the last runs is still judged against all runs before."""
    paths = write_history(str(tmp_path / "results"), runs=8, hosts=20,
                          drops=[("icx03", "bw_local", 0.7, 3)])
    def renew(rows):  # another 16 hex digits for every host, as the corrected hash gives
        rows["fingerprint"] = [bytes(reversed(fp)) for fp in rows["fingerprint"]]
    for path in paths[-3:]:
        fleet_edits.edit(path, "hosts", renew)
    proc = run_report("history", *paths, "-o", tmp_path / "report")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    drift = pd.read_csv(tmp_path / "report" / "drift.csv")
    worse = drift[drift.verdict == "worse"]
    assert set(worse.host) == {"icx03"}, worse
    own = worse[(worse.rule == "own") & (worse.key == "bw_read_local_gbs")].iloc[0]
    assert own.runs == 7  # every run before the latest, old fingerprints and new
