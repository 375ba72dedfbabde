# SPDX-License-Identifier: BSD-3-Clause
"""numaprobe-report on files the numaprobe binary wrote in the test suite (NUMAPROBE_RESULTS,
colon-separated), plus files it must refuse."""

import os
import subprocess
import sys

import h5py
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from numaprobe_analysis.load import ResultsError, load  # noqa: E402
from numaprobe_analysis.tables import local_table  # noqa: E402

RESULTS = [p for p in os.environ.get("NUMAPROBE_RESULTS", "").split(":") if p]
REPORT = os.environ.get("NUMAPROBE_REPORT",
                        os.path.join(os.path.dirname(__file__), "..", "numaprobe-report"))


def run_report(*files):
    return subprocess.run(["/usr/bin/python3", REPORT, *files], capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(params=RESULTS or [None])
def results_file(request):
    if request.param is None:
        pytest.skip("NUMAPROBE_RESULTS not set: run through ctest")
    return request.param


def test_report_prints_every_host(results_file):
    res = load(results_file)
    proc = run_report(results_file)
    assert proc.returncode == 0, proc.stderr
    assert "Local memory per NUMA node" in proc.stdout
    for host in res["hosts"].hostname:
        assert host in proc.stdout
    assert f"{len(res['hosts'])} rank(s)" in proc.stdout


def test_local_table_has_one_row_per_rank_and_node(results_file):
    res = load(results_file)
    table = local_table(res)
    nodes = res["numa_nodes"]
    assert len(table) == len(nodes)
    ok = table[table.status == "ok"]
    assert len(ok) > 0
    assert (ok["latency ns (median)"] > 0).all()
    assert (ok["read GB/s (best)"] >= ok["read GB/s (median)"]).all()
    assert (ok["pages on node %"] >= 99).all()


def test_unsupported_schema_version_is_refused(tmp_path, results_file):
    bad = tmp_path / "future.h5"
    bad.write_bytes(open(results_file, "rb").read())
    with h5py.File(bad, "r+") as f:
        f.attrs["schema_version"] = "7.0.0"
    with pytest.raises(ResultsError, match="schema_version 7.0.0: major version 7"):
        load(str(bad))
    proc = run_report(str(bad))
    assert proc.returncode == 2
    assert "major version 7, this numaprobe reads 0.x" in proc.stderr


def test_foreign_and_corrupt_files_are_refused(tmp_path):
    foreign = tmp_path / "foreign.h5"
    with h5py.File(foreign, "w") as f:
        f.attrs["schema"] = "something-else"
    corrupt = tmp_path / "corrupt.h5"
    corrupt.write_bytes(b"\x89HDF\r\n\x1a\n" + os.urandom(4096))
    for path, message in ((foreign, "invalid (numaprobe check): root attribute"),
                          (corrupt, "not a readable HDF5 file")):
        proc = run_report(str(path))
        assert proc.returncode == 2
        assert message in proc.stderr


def test_every_column_is_documented(results_file):
    """docs/SCHEMA.md names every table and column the binary writes."""
    doc = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "SCHEMA.md")).read()
    with h5py.File(results_file, "r") as f:
        for name in f.attrs:
            assert f"`{name}`" in doc, f"root attribute {name} is not in docs/SCHEMA.md"
        for table in f:
            assert f"`/{table}`" in doc, f"table /{table} is not in docs/SCHEMA.md"
            for column in f[table].dtype.names:
                assert f"`{column}`" in doc, f"/{table}.{column} is not in docs/SCHEMA.md"
