# SPDX-License-Identifier: BSD-3-Clause
"""Files the report must refuse: clear message, exit 2, no Python traceback."""

import shutil

import h5py
import pytest
from conftest import run_report

import synthetic_fleet


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    path = tmp_path_factory.mktemp("errors") / "good.h5"
    synthetic_fleet.write_fleet(str(path), 10, seed=5)
    return path


def _refused(proc, message):
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_future_major_version(tmp_path, good):
    bad = tmp_path / "future.h5"
    synthetic_fleet.write_fleet(str(bad), 10, seed=5, schema_version="1.0.0")
    _refused(run_report(bad), "schema_version 1.0.0: major version 1, this numaprobe reads 0.x")
    _refused(run_report("compare", good, bad), "major version 1")


def test_newer_minor_version_is_read(tmp_path):
    minor = tmp_path / "minor.h5"
    synthetic_fleet.write_fleet(str(minor), 10, seed=5, schema_version="0.99.0")
    assert run_report(minor, "--no-report").returncode == 0


@pytest.mark.parametrize("keep", [0.5, 0.9])
def test_truncated_file(tmp_path, good, keep):
    data = good.read_bytes()
    cut = tmp_path / "cut.h5"
    cut.write_bytes(data[:int(len(data) * keep)])
    proc = run_report(cut)
    _refused(proc, f"{cut}: invalid (numaprobe check): ")


def test_garbage_and_empty_files(tmp_path):
    junk = tmp_path / "junk.h5"
    junk.write_bytes(b"not an hdf5 file\n" * 100)
    _refused(run_report(junk), "not an HDF5 file")
    _refused(run_report(tmp_path / "missing.h5"), "missing.h5: cannot read: No such file")


def test_missing_table_and_column(tmp_path, good):
    no_table = tmp_path / "no_table.h5"
    shutil.copy(good, no_table)
    with h5py.File(no_table, "r+") as f:
        del f["bandwidth"]
    _refused(run_report(no_table), "table /bandwidth missing")
    no_column = tmp_path / "no_column.h5"
    shutil.copy(good, no_column)
    with h5py.File(no_column, "r+") as f:
        rows = f["latency"][()]
        keep = [n for n in rows.dtype.names if n != "latency_ns_median"]
        del f["latency"]
        f["latency"] = rows[keep]
    _refused(run_report(no_column), "/latency: column latency_ns_median missing")


def test_unwritable_report_directory(good):
    _refused(run_report(good, "-o", "/proc/numaprobe-report"), "cannot write the report")
