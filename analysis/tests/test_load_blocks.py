# SPDX-License-Identifier: BSD-3-Clause
"""The loader reads a table a block of rows at a time and shares one str object per distinct
text (fleet scale). Whatever the block size, the frames hold exactly what
h5py reads row by row: every number, every text decoded, in file order; and stacking several
files leaves each file's frames as its own rows (what the fleet loader keeps of them:
test_stream.py)."""

import h5py
import numpy as np
import pytest

from numaprobe_analysis import load, reducers
from numaprobe_analysis.fleet import load_fleet

import synthetic_fleet


@pytest.fixture(scope="module")
def fleet_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("blocks") / "fleet.h5"
    synthetic_fleet.write_fleet(str(path), 12, seed=3)
    return path


def expected(path, name):
    with h5py.File(path, "r") as f:
        return f[name][()]


@pytest.mark.parametrize("block", [1, 7, 1 << 16])
def test_blocks_read_every_row(fleet_file, monkeypatch, block):
    monkeypatch.setattr(load, "BLOCK_ROWS", block)
    res = load.read(str(fleet_file))
    for name in ("hosts", "latency", "bandwidth", "placement"):
        rows = expected(fleet_file, name)
        frame = res[name]
        assert len(frame) == len(rows) > 0, name
        for field in rows.dtype.names:
            want = rows[field]
            got = frame[field].to_numpy()
            if want.dtype.kind == "S":
                assert list(got) == [v.decode() for v in want], (name, field)
                assert all(type(v) is str for v in got), (name, field)
            elif want.ndim > 1:  # an array column: a tuple of its finite values a row, or None
                assert [v or () for v in got] == [tuple(r[np.isfinite(r)]) for r in want], \
                    (name, field)
            else:
                np.testing.assert_array_equal(got, want, err_msg=f"{name}.{field}")


def test_text_objects_shared(fleet_file, monkeypatch):
    monkeypatch.setattr(load, "BLOCK_ROWS", 5)
    lat = load.read(str(fleet_file))["latency"]
    experiments = lat.experiment.to_numpy()
    distinct = {id(v) for v in experiments}
    assert len(distinct) == len(set(experiments)), "one str object per distinct text"


def kept_latency(path):
    """The /latency rows the fleet loader keeps (stream.py): all but the reduced ok rows."""
    rows = expected(path, "latency")
    gone = (rows["status"] == b"ok") & np.isin(
        rows["experiment"], [e.encode() for e in reducers.REDUCED["latency"]])
    return rows[~gone]


def test_stacked_files_keep_their_rows(tmp_path):
    a, b = tmp_path / "a.h5", tmp_path / "b.h5"
    synthetic_fleet.write_fleet(str(a), 6, seed=1)
    synthetic_fleet.write_fleet(str(b), 4, seed=2, host_suffix="-b")
    fleet = load_fleet([str(a), str(b)])
    for res, path in zip(fleet.files, (a, b)):
        lat = res["latency"]
        assert 0 < len(lat) == len(kept_latency(path)) < len(expected(path, "latency"))
        assert set(lat.file) == {str(path)}
        np.testing.assert_array_equal(lat.latency_ns_median.to_numpy(),
                                      kept_latency(path)["latency_ns_median"])
    stacked = fleet["latency"]
    assert len(stacked) == sum(len(r["latency"]) for r in fleet.files)
    assert stacked.host.str.endswith("-b").sum() == len(fleet.files[1]["latency"])
    curves = fleet.reduced[reducers.SWEEP_CURVES]
    assert set(curves.host) == set(fleet["hosts"].host)
    assert set(curves.file) == {str(a), str(b)}


def test_latest_run_of_a_host_counts(tmp_path):
    old, new = tmp_path / "old.h5", tmp_path / "new.h5"
    synthetic_fleet.write_fleet(str(old), 6, seed=1, start_utc="2026-01-01T00:00:00Z")
    synthetic_fleet.write_fleet(str(new), 6, seed=2, start_utc="2026-01-02T00:00:00Z")
    fleet = load_fleet([str(old), str(new)])
    assert set(fleet["latency"].file) == {str(new)}
    assert len(fleet["latency"]) == len(kept_latency(new))
    assert len(fleet.files[0]["latency"]) == len(kept_latency(old)), \
        "the older run's own frames keep its rows (the report prints each file)"
    for name, frame in fleet.reduced.items():  # the per-host figures of the latest run only
        assert set(frame.file) <= {str(new)}, name
    both = load_fleet([str(old), str(new)], all_runs=True)
    assert len(both["latency"]) == len(fleet.files[0]["latency"]) * 2
    assert both["latency"].host.str.contains("@").all()
    assert both.reduced[reducers.SWEEP_CURVES].host.str.contains("@").all()
