# SPDX-License-Identifier: BSD-3-Clause
"""One noisy host among 12, through every output: a fleet of two node types of 6 hosts, where
icx03's bandwidth figures are at half their type's and uncertain by 60% (its passes disagreed).
It is no outlier, it is listed noisy with its uncertainty in --json, and each type median of its
type leaves it out and says so; `compare --references` cannot judge it (exit 2, never 1) and
`compare` lists a noisy-only difference as not judged (exit 0). The same plant with a 2%
uncertainty is an outlier, a reference failure (exit 1) and a regression (exit 1): only the
noise rule keeps the noisy one from being judged."""

import json

import pytest
from conftest import run_report

import synthetic_fleet
from numaprobe_analysis.noise import NOISY_PCT
from test_noise import bandwidth

NOISY = "icx03"
ICX = synthetic_fleet.TYPES[0]["node_type"]
BANDWIDTH = ("bw_read_local_gbs", "bw_triad_local_gbs", "bw_read_remote_gbs",
             "bw_triad_remote_gbs")


def fleet(path, uncertainty, start_utc=None):
    """12 hosts (6 a type), icx03's bandwidth at half its type's with @p uncertainty (None:
    the plant left out)."""
    extra = {"start_utc": start_utc} if start_utc else {}
    synthetic_fleet.write_fleet(str(path), 12, seed=12, **extra)
    if uncertainty is not None:
        bandwidth(path, NOISY, 0.5, uncertainty=uncertainty)
    return path


def verdicts(path, tmp_path, *args):
    out = tmp_path / f"{path.stem}.json"
    proc = run_report(path, "--no-report", "--json", out, *args)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    return json.loads(out.read_text()), proc


@pytest.fixture(scope="module")
def noisy(tmp_path_factory):
    d = tmp_path_factory.mktemp("noisy12")
    doc, proc = verdicts(fleet(d / "noisy.h5", 60.0), d)
    return {"dir": d, "path": d / "noisy.h5", "doc": doc, "proc": proc}


def test_twelve_hosts_two_types(noisy):
    doc = noisy["doc"]
    assert len(doc["hosts"]) == 12
    assert sorted(t["hosts"] for t in doc["node_types"]) == [6, 6]


def test_noisy_host_is_no_outlier(noisy, tmp_path):
    assert NOISY not in {o["host"] for o in noisy["doc"]["outliers"]}, noisy["doc"]["outliers"]
    # The control: the same plant measured quietly is an outlier on every bandwidth figure.
    doc, _ = verdicts(fleet(tmp_path / "quiet.h5", 2.0), tmp_path)
    flagged = {o["metric_key"] for o in doc["outliers"] if o["host"] == NOISY and not o["node"]}
    assert set(BANDWIDTH) <= flagged, doc["outliers"]


def test_json_lists_the_noisy_figures(noisy):
    hosts = {h["host"]: h for h in noisy["doc"]["hosts"]}
    h = hosts[NOISY]
    for key in BANDWIDTH:
        assert h["noisy"][key] is True, (key, h)
        assert h["uncertainty_pct"][key] == pytest.approx(60.0), (key, h)
        assert h["metrics"][key] is not None  # shown, with its value
    assert h["noisy"]["latency_local_ns"] is False
    assert h["uncertainty_pct"]["latency_local_ns"] < NOISY_PCT
    for name, other in hosts.items():
        if name != NOISY:
            assert not any(other["noisy"].values()), (name, other["noisy"])
            assert set(other["uncertainty_pct"]) == set(other["metrics"]), name


def test_type_medians_leave_the_noisy_figure_out(noisy):
    doc = noisy["doc"]
    peers = [h["metrics"] for h in doc["hosts"] if h["type"] == ICX and h["host"] != NOISY]
    assert len(peers) == 5
    for row in doc["type_medians"]:
        if row["type"] != ICX:
            assert row["noisy_left_out"] == 0, row
            continue
        if row["metric_key"] in BANDWIDTH:
            assert (row["hosts"], row["noisy_left_out"]) == (5, 1), row
            values = sorted(p[row["metric_key"]] for p in peers)
            assert row["median"] == pytest.approx(values[2]), row
        elif row["metric_key"] in ("latency_local_ns", "latency_remote_ns"):
            assert (row["hosts"], row["noisy_left_out"]) == (6, 0), row
    # The same count on stdout, in the type's table and the comparison's noisy column.
    assert f"{ICX}: 1 noisy" in noisy["proc"].stdout, noisy["proc"].stdout


def references(tmp_path, ref):
    path = tmp_path / "refs.json"
    path.write_text(json.dumps({ICX: {"bw_read_local_gbs": {"ref": ref, "tol": "10%"}}}))
    return path


def type_median(doc, key):
    return next(r["median"] for r in doc["type_medians"]
                if r["type"] == ICX and r["metric_key"] == key)


def test_reference_gate_cannot_judge_a_noisy_figure(noisy, tmp_path):
    """{ref: the type's median, tol: 10%}: icx03 at half of it is outside, but noisy: not
    judged, exit 2, one line naming it; never a regression (exit 1)."""
    refs = references(tmp_path, type_median(noisy["doc"], "bw_read_local_gbs"))
    proc = run_report("compare", "--references", refs, noisy["path"], "-o", tmp_path / "r")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"e.g. {NOISY} bw_read_local_gbs: noisy: uncertainty 60%" in proc.stderr, proc.stderr
    assert "Regressions: 0" in proc.stdout and "1 figure(s) not judged" in proc.stdout, \
        proc.stdout
    csv = (tmp_path / "r" / "references.csv").read_text()
    assert f"{NOISY}," in csv and "not judged" in csv
    # The control: measured quietly, the same figure is a finding, exit 1.
    quiet = fleet(tmp_path / "quiet.h5", 2.0)
    proc = run_report("compare", "--references", refs, quiet)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Regressions: 1" in proc.stdout, proc.stdout


def test_compare_noisy_only_difference(noisy, tmp_path):
    """The baseline clean, the new run differing only in icx03's noisy bandwidth: listed as not
    judged, no regression, exit 0; the --json says `noisy` for each of its figures."""
    base = fleet(tmp_path / "base.h5", None, start_utc="2025-12-31T00:00:00Z")
    out = tmp_path / "cmp.json"
    proc = run_report("compare", base, noisy["path"], "--json", out)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    changes = json.loads(out.read_text())["changes"]
    verdicts_of = {(c["host"], c["metric_key"]): c["verdict"] for c in changes}
    assert all(verdicts_of[(NOISY, k)] == "noisy" for k in BANDWIDTH), verdicts_of
    assert "regression" not in verdicts_of.values()
    assert "0 regression(s)" in proc.stdout and "4 noisy figure(s) not judged" in proc.stdout, \
        proc.stdout
    # The control: the same difference measured quietly is a regression, exit 1.
    quiet = fleet(tmp_path / "quiet.h5", 2.0)
    proc = run_report("compare", base, quiet)
    assert proc.returncode == 1, proc.stdout + proc.stderr
