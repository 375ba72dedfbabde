# SPDX-License-Identifier: BSD-3-Clause
"""Damaged and unusual files: the report reads a file only after
`numaprobe check` called it valid, exits 2 with one line for any other, and handles every file
check accepts (a partial one, an older minor version, odd text, ...)."""

import os
import shutil
import subprocess
import sys

import h5py
import numpy as np
import numpy.lib.recfunctions as rfn
import pytest
from conftest import run_report

import h5inputs  # the tools tests' damage: split(), crash_hdf5(); older minors
import synthetic_fleet
from numaprobe_analysis.contract import contract
from numaprobe_analysis.load import ResultsError, load, read
from numaprobe_analysis.validate import find_numaprobe

NUMAPROBE = find_numaprobe()[0]
needs_numaprobe = pytest.mark.skipif(NUMAPROBE is None, reason="numaprobe binary not built")
pytestmark = needs_numaprobe


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    path = tmp_path_factory.mktemp("hostile") / "fleet.h5"
    synthetic_fleet.write_fleet(str(path), 6, seed=3)
    return path


def copy(fleet, tmp_path, name):
    dst = tmp_path / name
    shutil.copy(fleet, dst)
    return dst


def check(path):
    return subprocess.run([NUMAPROBE, "check", str(path)], capture_output=True, text=True,
                          errors="replace", check=False, timeout=120)


def accepted(path, *args):
    """check calls it valid, and the report reads it: exit 0, no traceback."""
    verdict = check(path)
    assert verdict.returncode == 0, verdict.stdout
    proc = run_report(path, "--no-report", *args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def refused(path, message, *args):
    """Exit 2, one line naming the file, no traceback."""
    proc = run_report(path, "--no-report", *args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert str(path) in lines[0] and message in lines[0], lines[0]
    return proc


def keep_rows(f, table, keep):
    rows = f[table][()][keep]
    del f[table]
    f.create_dataset(table, data=rows, maxshape=(None,))


def drop_measurements(f, tables):
    """Empties TABLES and removes the /placement, /numastat and /counters rows of their
    measurements."""
    gone = set()
    for t in tables:
        rows = f[t][()]
        if "measurement" in rows.dtype.names:
            gone |= set(zip(rows["rank"].tolist(), rows["measurement"].tolist()))
        keep_rows(f, t, np.zeros(len(rows), bool))
    for t in ("placement", "numastat", "counters"):
        if t not in f:
            continue
        rows = f[t][()]
        keep_rows(f, t, np.array([(r, m) not in gone for r, m in
                                  zip(rows["rank"].tolist(), rows["measurement"].tolist())], bool))


def test_damage_that_crashes_hdf5(written, tmp_path):
    """A rank's checkpoint split from a file the binary wrote, whose first global heap object (the
    text of a root attribute) claims 1 TiB (tests/tools/h5inputs.py crash_hdf5): h5py (HDF5
    1.10) dies reading it with SIGSEGV and no message; check reads it in a child process and
    calls it invalid, and so the report refuses it."""
    h5inputs.split(written, str(tmp_path), ranks=[0])
    bad = tmp_path / "rank-00000.h5"
    h5inputs.crash_hdf5(str(bad))
    if sanitized():
        # Under AddressSanitizer HDF5's own overrun is caught before it becomes SIGSEGV: check's
        # child exits 1 with ASan's report, and the report still refuses the file in one line.
        refused(bad, "failed (exit 1)")
    else:
        refused(bad, "invalid (numaprobe check): reading it crashed (signal 11")


def sanitized():
    """Whether the numaprobe the tests run is an AddressSanitizer build (the asan preset)."""
    ldd = subprocess.run(["ldd", NUMAPROBE], capture_output=True, text=True, check=False)
    return "libasan" in ldd.stdout


def test_flipped_bytes_never_crash_the_report(fleet, tmp_path):
    """One byte flipped at a time: every copy check accepts is read, every other refused, and
    the process reading them all (one, for speed) never dies."""
    data = fleet.read_bytes()
    offsets = list(range(0, 8192, 97)) + list(range(8192, len(data), len(data) // 40))
    paths = []
    for off in offsets:
        copy_ = bytearray(data)
        copy_[off] ^= 0xFF
        p = tmp_path / f"flip-{off}.h5"
        p.write_bytes(bytes(copy_))
        paths.append(str(p))
    script = (
        "import sys\n"
        "from numaprobe_analysis.load import ResultsError, load\n"
        "for p in sys.argv[1:]:\n"
        "    try:\n"
        "        load(p)\n"
        "        print(p, 'read')\n"
        "    except ResultsError as e:\n"
        "        print(p, 'refused', str(e).replace(chr(10), ' '))\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(synthetic_fleet.__file__),
                                                   os.pardir))
    proc = subprocess.run(["/usr/bin/python3", "-c", script, *paths], capture_output=True,
                          text=True, env=env, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    verdicts = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    assert len(verdicts) == len(paths)
    refused_count = 0
    for p in paths:
        valid = check(p).returncode == 0
        assert verdicts[p].startswith("read" if valid else "refused"), (p, verdicts[p])
        refused_count += not valid
    assert verdicts[paths[0]].startswith("refused")  # the signature byte
    assert refused_count > 0


def test_damaged_column_name_refused(fleet, tmp_path):
    """A column name with a byte no text has: check and the report both refuse the file."""
    data = bytearray(fleet.read_bytes())
    at = data.find(b"hostname")
    assert at > 0
    data[at] ^= 0xFF
    damaged = tmp_path / "damaged-name.h5"
    damaged.write_bytes(bytes(data))
    result = check(damaged)
    assert result.returncode == 4, result.stdout
    assert "is not a column name (damaged type)" in result.stdout
    with pytest.raises(ResultsError):
        load(str(damaged))


def test_partial_file_without_latency_rows(fleet, tmp_path):
    """A run the watchdog stopped before any latency row: valid, and reported."""
    part = copy(fleet, tmp_path, "no-latency.h5")
    with h5py.File(part, "r+") as f:
        drop_measurements(f, ["latency", "cache_levels"])
    accepted(part)
    bare = copy(fleet, tmp_path, "bare.h5")  # only the hosts and their topology
    with h5py.File(bare, "r+") as f:
        drop_measurements(f, ["latency", "bandwidth", "loaded_latency", "balancing",
                              "cache_levels"])
    proc = accepted(bare)
    assert "No headline metrics to judge" in proc.stdout


def test_hung_host_in_a_partial_file(fleet, tmp_path):
    """The last rank given up by the watchdog: its /hosts row says hung, no rows of its own."""
    hung = copy(fleet, tmp_path, "hung.h5")
    with h5py.File(hung, "r+") as f:
        last = int(f.attrs["world_size"]) - 1
        for name in list(f):
            rows = f[name][()]
            if name == "hosts":
                # rank 0 writes it knowing only the host (as the writer does: no topology)
                rows["status"][last], rows["numa_nodes"][last] = b"hung", 0
                rows["error"][last] = b"watchdog: host silent for 20 min"
                keep_rows(f, name, np.ones(len(rows), bool))
                f[name][...] = rows
            elif len(rows):
                keep_rows(f, name, rows["rank"] != last)
        f.attrs["complete"], f.attrs["hosts_failed"] = np.int64(0), np.int64(1)
        f.attrs["hosts_ok"] = np.int64(last)
    accepted(hung)


def test_text_where_a_number_belongs(fleet, tmp_path):
    bad = copy(fleet, tmp_path, "text.h5")
    with h5py.File(bad, "r+") as f:
        rows = f["latency"][()]
        dtype = [(n, "S16" if n == "latency_ns_median" else rows.dtype[n])
                 for n in rows.dtype.names]
        text = rows.astype([(n, t if n != "latency_ns_median" else "f8") for n, t in dtype])
        text = rfn.drop_fields(text, "latency_ns_median", usemask=False)
        out = np.zeros(len(rows), dtype)
        for n in text.dtype.names:
            out[n] = text[n]
        out["latency_ns_median"] = b"fast"
        del f["latency"]
        f["latency"] = out
    refused(bad, "/latency: column latency_ns_median is str16, expected float64")


def test_negative_latency_is_never_shown(fleet, tmp_path):
    bad = copy(fleet, tmp_path, "negative.h5")
    with h5py.File(bad, "r+") as f:
        rows = f["latency"][()]
        rows["latency_ns_min"][0] = -5.0
        f["latency"][...] = rows
    refused(bad, "/latency row 0: latency_ns_min is -5 in an ok row")
    for value, word in ((np.nan, "nan"), (np.inf, "inf")):
        with h5py.File(bad, "r+") as f:
            rows = f["latency"][()]
            rows["latency_ns_min"][0], rows["latency_ns_median"][0] = 1.0, value
            f["latency"][...] = rows
        refused(bad, f"/latency row 0: latency_ns_median is {word} in an ok row")


def test_claimed_rows_not_in_the_file(fleet, tmp_path):
    """A table claiming 10^11 rows in a small file: refused at once, nothing allocated."""
    bad = copy(fleet, tmp_path, "huge.h5")
    with h5py.File(bad, "r+") as f:
        dtype = f["placement"].dtype
        del f["placement"]
        f.create_dataset("placement", shape=(10**11,), maxshape=(None,), chunks=(1024,),
                         dtype=dtype)
    assert bad.stat().st_size < 1 << 20
    refused(bad, "/placement says it has 100000000000 rows, but the file does not hold them")
    # The report's own reads are bounded too, whatever check said.
    with pytest.raises(ResultsError, match="claims 100000000000 rows"):
        read(str(bad), budget=1 << 30)


def test_older_minor_version_is_read(fleet, tmp_path):
    """Schema 0.3.0 lacks the columns 0.4.0 added (and what later minors added): check and the
    report accept it."""
    old = copy(fleet, tmp_path, "v0.3.h5")
    h5inputs.older_minor(old, contract())
    proc = accepted(old)
    assert "schema 0.3.0" in proc.stdout
    res = read(str(old))
    assert (res["numa_nodes"]["free_bytes"] == 0).all()
    assert (res["latency"]["flags"] == "").all()


def test_unusual_but_valid_files(fleet, tmp_path):
    """A newer minor version with a table and a column this report does not know, a string
    column of invalid UTF-8, an empty optional table: read."""
    newer = copy(fleet, tmp_path, "newer.h5")
    with h5py.File(newer, "r+") as f:
        f.attrs["schema_version"] = "0.99.0"
        f["future_table"] = np.zeros(2, dtype=[("rank", "i4"), ("x", "f8")])
        rows = f["hosts"][()]
        rows = rfn.append_fields(rows, "future_column", np.ones(len(rows)), usemask=False)
        rows["cpu_model"][0] = b"Xeon \xff\xfe\xc3("
        del f["hosts"]
        f["hosts"] = rows
        keep_rows(f, "cache_levels", np.zeros(len(f["cache_levels"]), bool))
    accepted(newer)


def test_two_files_of_the_same_hosts(fleet, tmp_path):
    """The same job given twice (or two jobs on the same hosts): read, each file's rows kept
    apart by its `file` column."""
    second = copy(fleet, tmp_path, "again.h5")
    proc = run_report(fleet, second, "--no-report")
    assert proc.returncode == 0, proc.stderr
    assert f"== {second}" in proc.stdout


def test_not_files(tmp_path, fleet):
    """A directory, a FIFO (refused at once: opening it would block), an HDF5 file that is not
    numaprobe's, an empty file."""
    refused(tmp_path, "cannot read: it is a directory")
    fifo = tmp_path / "fifo.h5"
    os.mkfifo(fifo)
    refused(fifo, "cannot read: it is a FIFO (named pipe), not a regular file")
    foreign = tmp_path / "foreign.h5"
    with h5py.File(foreign, "w") as f:
        f["x"] = np.arange(3)
    refused(foreign, "root attribute schema missing")
    empty = tmp_path / "empty.h5"
    empty.write_bytes(b"")
    refused(empty, "not an HDF5 file")


def test_without_the_binary_nothing_is_read(fleet, tmp_path):
    env = dict(os.environ, NUMAPROBE_BIN=str(tmp_path / "no-numaprobe"))
    proc = subprocess.run(["/usr/bin/python3", os.environ.get("NUMAPROBE_REPORT", os.path.join(
        os.path.dirname(synthetic_fleet.__file__), os.pardir, "numaprobe-report")), str(fleet),
        "--no-report"], capture_output=True, text=True, env=env, timeout=120, check=False)
    assert proc.returncode == 2
    assert "numaprobe, whose check must pass before the report reads a file, was not found" \
        in proc.stderr
    assert "Traceback" not in proc.stderr
    assert sys.executable  # (the test runs under /usr/bin/python3 too)
