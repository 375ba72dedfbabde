# SPDX-License-Identifier: BSD-3-Clause
"""Fleet scale: tests/bench/bench_write makes a synthetic fleet from a file the
binary wrote, `numaprobe check` calls it valid, and the report on it renders with its long tables
capped (every row in the CSV beside them); compare, history and openmetrics read it, and a later
run of it in which one host lost half its bandwidth, as bench/fleet-scale times them. Timings are
in docs/ANALYSIS.md, never asserted."""

import csv
import os
import re
import subprocess

import h5py
import pytest
from conftest import run_report
from fleet_edits import edit

from numaprobe_analysis.report import TABLE_ROWS
from numaprobe_analysis.validate import find_numaprobe

NUMAPROBE = find_numaprobe()[0]
BENCH = os.environ.get("NUMAPROBE_BENCH_WRITE", "")
TEMPLATE = next((p for p in os.environ.get("NUMAPROBE_RESULTS", "").split(":") if p), "")
HOSTS = 200
pytestmark = pytest.mark.skipif(not (NUMAPROBE and BENCH and os.path.exists(TEMPLATE)),
                                reason="needs numaprobe, NUMAPROBE_BENCH_WRITE and "
                                       "NUMAPROBE_RESULTS: run through ctest")


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    d = tmp_path_factory.mktemp("scale")
    path = d / "bench.h5"
    made = subprocess.run([BENCH, TEMPLATE, str(path), str(HOSTS), "3"], capture_output=True,
                          text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    return {"path": path, "dir": d}


def test_check_accepts_the_bench_file(fleet):
    proc = subprocess.run([NUMAPROBE, "check", str(fleet["path"])], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout
    assert f"valid (schema" in proc.stdout and f"{HOSTS} of {HOSTS} ranks" in proc.stdout


def _rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_report_renders_with_capped_tables(fleet):
    out = fleet["dir"] / "report"
    proc = run_report(fleet["path"], "-o", out)
    assert proc.returncode == 0, proc.stderr
    # Three node types of HOSTS/3 hosts each, and the planted host (one in 500: the 8th) found.
    types = _rows(out / "node_types.csv")
    assert len(types) == 3 and sum(int(t["hosts"]) for t in types) == HOSTS
    outliers = _rows(out / "outliers.csv")
    assert "nodea00007" in {r["host"] for r in outliers}
    # Every host in the CSV; the HTML and stdout show the first TABLE_ROWS and say where the
    # rest are.
    assert len(_rows(out / "hosts.csv")) == HOSTS
    page = (out / "report.html").read_text()
    hosts_table = re.search(r'<table[^>]*id="table-hosts".*?</table>', page, re.S).group(0)
    assert hosts_table.count("<tr>") == TABLE_ROWS  # body rows (the header row has a style)
    assert f"The first {TABLE_ROWS} of {HOSTS} rows; all of them in hosts.csv." in page
    assert f"The first {TABLE_ROWS} of {HOSTS} rows" in proc.stdout
    assert proc.stdout.count("nodea0") < 3 * TABLE_ROWS


SLOWER = "nodea00010"  # its bandwidth halved in the later run


@pytest.fixture(scope="module")
def later(fleet):
    """The fleet's later run: a year on, SLOWER's bandwidth_matrix rows at half their GB/s."""
    path = fleet["dir"] / "later.h5"
    path.write_bytes(fleet["path"].read_bytes())

    def halve(rows):
        sel = (rows["hostname"] == SLOWER.encode()) \
            & (rows["experiment"] == b"bandwidth_matrix")
        assert sel.any()
        for column in ("gbs_best", "gbs_median", "gbs_worst", "bus_gbs_best", "pass_values"):
            if column in rows.dtype.names:
                rows[column][sel] *= 0.5
    edit(str(path), "bandwidth", halve)
    with h5py.File(path, "r+") as f:
        for key in ("start_utc", "end_utc"):
            text = f.attrs[key].decode() if isinstance(f.attrs[key], bytes) else f.attrs[key]
            f.attrs[key] = text.replace(text[:4], str(int(text[:4]) + 1), 1)
        run_id = f.attrs["run_id"]
        run_id = run_id.decode() if isinstance(run_id, bytes) else run_id
        f.attrs["run_id"] = run_id[:-1] + ("0" if run_id[-1] != "0" else "1")
    return path


def test_compare_finds_the_slower_host(fleet, later):
    out = fleet["dir"] / "compare"
    proc = run_report("compare", fleet["path"], later, "-o", out)
    assert proc.returncode == 1, proc.stderr
    assert f"verdict: {HOSTS} host(s) compared" in proc.stdout
    regressions = [r for r in _rows(out / "changes.csv") if r["verdict"] == "regression"]
    assert regressions and {r["host"] for r in regressions} == {SLOWER}


def test_history_finds_the_slower_host(fleet, later):
    out = fleet["dir"] / "history"
    proc = run_report("history", fleet["path"], later, "-o", out)
    assert proc.returncode == 1, proc.stderr
    worse = {r["host"] for r in _rows(out / "drift.csv") if r["verdict"] == "worse"}
    assert SLOWER in worse
    assert len({r["host"] for r in _rows(out / "history.csv")}) == HOSTS


def test_openmetrics_writes_every_host(fleet):
    out = fleet["dir"] / "prom"
    proc = run_report("openmetrics", fleet["path"], "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert len(list(out.glob("*.prom"))) == HOSTS
    text = (out / "nodea00007.prom").read_text()
    assert re.search(r'^numaprobe_host_outlier\{host="nodea00007",[^}]*\} 1$', text, re.M), text
