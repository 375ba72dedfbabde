# SPDX-License-Identifier: BSD-3-Clause
"""`numaprobe check` on whole files: the binary's own, truncated ones, files that are not HDF5
or not numaprobe's, paths that are not regular files, several files at once, and its usage."""

import json
import os
import subprocess

import h5py
import numpy as np
import pytest

from h5inputs import copy, edit_column, garbage, ok_rows, rows_of

pytestmark = pytest.mark.needs_options("exe", "results_dir")


@pytest.mark.parametrize("which", ["singleton", "mpi4"])
def test_check_valid(request, numaprobe, which):
    numaprobe.run(["check", request.getfixturevalue(which)], 0, ["valid (schema", "complete=1"],
                  forbid=["INVALID"])


def test_check_truncated(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "truncated.h5")
    with open(bad, "r+b") as f:
        f.truncate(os.path.getsize(bad) // 2)
    numaprobe.run(["check", bad], 4, ["truncated or damaged", "INVALID"])


def test_check_not_hdf5(numaprobe, work):
    bad = os.path.join(work, "text.h5")
    garbage(bad)
    numaprobe.run(["check", bad], 4, ["not an HDF5 file"])


def test_check_usage(numaprobe, work):
    numaprobe.run(["check", os.path.join(work, "does-not-exist.h5")], 2,
                  ["cannot read", "No such file"])
    numaprobe.run(["check", work], 2, ["it is a directory"])
    numaprobe.run(["check"], 2, ["no FILE given"])
    numaprobe.run(["check", "--frobnicate"], 2, ["unknown option '--frobnicate'"])


def test_check_several_files(numaprobe, mpi4, work):
    """With several files, an invalid one is never hidden by a missing one."""
    bad = copy(mpi4, work, "negative.h5")
    row = ok_rows(rows_of(bad, "latency"))[0]
    edit_column(bad, "latency", "latency_ns_min", row, -5.0)
    missing = os.path.join(work, "missing.h5")
    summary = "check: 2 files: 0 valid, 1 invalid, 1 not readable as a file, 0 whose check failed"
    numaprobe.run(["check", bad, missing], 4,
                  ["latency_ns_min is -5 in an ok row", "No such file", summary])
    numaprobe.run(["check", missing, bad], 4, [summary])
    numaprobe.run(["check", mpi4, missing], 2, ["1 valid, 0 invalid, 1 not readable"])
    numaprobe.run(["check", mpi4, mpi4], 0, ["check: 2 files: 2 valid, 0 invalid"])
    numaprobe.run(["check", mpi4], 0, forbid=["files:"])


def test_check_not_regular(numaprobe, work):
    """A FIFO is refused before it is opened (opening it would block)."""
    fifo = os.path.join(work, "fifo.h5")
    os.mkfifo(fifo)
    numaprobe.run(["check", fifo], 2,
                  ["cannot read", "it is a FIFO (named pipe), not a regular file"], timeout=20)
    numaprobe.run(["check", "/dev/null"], 2, ["it is a character device, not a regular file"])
    loop = os.path.join(work, "loop.h5")
    os.symlink(loop, loop)
    numaprobe.run(["check", loop], 2, ["Too many levels of symbolic links"])


def test_check_unusual_files(numaprobe, mpi4, work):
    """HDF5 files that are not numaprobe's, tables with no rows, an extra table, odd text."""
    foreign = os.path.join(work, "foreign.h5")
    with h5py.File(foreign, "w") as f:
        f["data"] = np.arange(10)
    numaprobe.run(["check", foreign], 4, ["root attribute schema missing", "INVALID"])
    empty = os.path.join(work, "empty.h5")
    with h5py.File(empty, "w"):
        pass
    numaprobe.run(["check", empty], 4, ["root attribute schema missing"])
    extra = copy(mpi4, work, "extra-table.h5")
    with h5py.File(extra, "r+") as f:
        f["future_table"] = np.zeros(3, dtype=[("rank", "i4"), ("x", "f8")])
    numaprobe.run(["check", extra], 0, ["valid"])
    zero = copy(mpi4, work, "no-sweep-rows.h5")
    with h5py.File(zero, "r+") as f:
        f["cache_levels"].resize((0,))
    numaprobe.run(["check", zero], 0, ["valid"])
    utf = copy(mpi4, work, "bad-utf8.h5")
    edit_column(utf, "hosts", "cpu_model", 0, b"Xeon \xff\xfe\xc3(")
    numaprobe.run(["check", utf], 0, ["valid"])
    inf = copy(mpi4, work, "inf.h5")
    row = ok_rows(rows_of(inf, "bandwidth"))[0]
    edit_column(inf, "bandwidth", "gbs_best", row, np.inf)
    numaprobe.run(["check", inf], 4, [f"/bandwidth row {row}: gbs_best is inf in an ok row"])


def test_check_json(numaprobe, exe, mpi4, work):
    """--json: stdout is one JSON document with each file's verdict, its problems as the lines
    would say them, the counts and the exit status, which is the text form's."""
    bad = copy(mpi4, work, "json-negative.h5")
    row = ok_rows(rows_of(bad, "latency"))[0]
    edit_column(bad, "latency", "latency_ns_min", row, -5.0)
    missing = os.path.join(work, "json-missing.h5")
    p = subprocess.run([exe, "check", "--json", mpi4, bad, missing], capture_output=True,
                       text=True, timeout=240, check=False)
    doc = json.loads(p.stdout)
    assert p.returncode == 4 and doc["exit_status"] == 4 and doc["verdict"] == "invalid", p.stderr
    assert doc["counts"] == {"valid": 1, "invalid": 1, "unreadable": 1, "check_failed": 0}
    good, wrong, gone = doc["files"]
    assert (good["path"], good["verdict"], good["kind"], good["problems"]) == (
        mpi4, "valid", "final", [])
    assert good["ranks"] == good["world_size"] == 4 and good["complete"] == 1
    assert wrong["verdict"] == "invalid" and wrong["problem_count"] >= 1
    assert any("latency_ns_min is -5 in an ok row" in t for t in wrong["problems"]), wrong
    assert gone["verdict"] == "unreadable" and "No such file" in gone["problems"][0]
    numaprobe.run(["check", "--json", mpi4], 0, ['"verdict": "valid"'], forbid=["check: "])
