# SPDX-License-Identifier: BSD-3-Clause
"""The loader reads a table a block of rows at a time and shares one str object per distinct
text (fleet scale). Whatever the block size, the frames hold exactly what
h5py reads row by row: every number, every text decoded, in file order; and stacking several
files leaves each file's frames as its own rows."""

import h5py
import numpy as np
import pytest

from numaprobe_analysis import load

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


def test_stacked_files_keep_their_rows(tmp_path):
    a, b = tmp_path / "a.h5", tmp_path / "b.h5"
    synthetic_fleet.write_fleet(str(a), 6, seed=1)
    synthetic_fleet.write_fleet(str(b), 4, seed=2, host_suffix="-b")
    fleet = load.load_fleet([str(a), str(b)])
    for res, path in zip(fleet.files, (a, b)):
        lat = res["latency"]
        assert len(lat) == len(expected(path, "latency"))
        assert set(lat.file) == {str(path)}
        np.testing.assert_array_equal(lat.latency_ns_median.to_numpy(),
                                      expected(path, "latency")["latency_ns_median"])
    stacked = fleet["latency"]
    assert len(stacked) == sum(len(r["latency"]) for r in fleet.files)
    assert stacked.host.str.endswith("-b").sum() == len(fleet.files[1]["latency"])


def test_latest_run_of_a_host_counts(tmp_path):
    old, new = tmp_path / "old.h5", tmp_path / "new.h5"
    synthetic_fleet.write_fleet(str(old), 6, seed=1, start_utc="2026-01-01T00:00:00Z")
    synthetic_fleet.write_fleet(str(new), 6, seed=2, start_utc="2026-01-02T00:00:00Z")
    fleet = load.load_fleet([str(old), str(new)])
    assert set(fleet["latency"].file) == {str(new)}
    assert len(fleet["latency"]) == len(expected(new, "latency"))
    assert len(fleet.files[0]["latency"]) == len(expected(old, "latency")), \
        "the older run's own frames keep its rows (the report prints each file)"
    both = load.load_fleet([str(old), str(new)], all_runs=True)
    assert len(both["latency"]) == len(fleet.files[0]["latency"]) * 2
    assert both["latency"].host.str.contains("@").all()


@pytest.mark.parametrize("block", [7, 1 << 16])
def test_counters_keep_what_the_analysis_reads(fleet_file, monkeypatch, block):
    """/counters is filtered as it is read: the rows of the events counters.py derives figures
    from and the not_applicable rows, whatever the blocks; what the analysis computes from them
    equals what it computes from the whole table."""
    import pandas as pd
    from numaprobe_analysis import counters
    monkeypatch.setattr(load, "BLOCK_ROWS", block)
    got = load.read(str(fleet_file))["counters"]
    rows = expected(fleet_file, "counters")
    whole = pd.DataFrame({f: [v.decode() for v in rows[f]] if rows.dtype[f].kind == "S"
                          else rows[f] for f in rows.dtype.names})
    keep = (whole.measurement >= 0) & whole.event.isin(load.COUNTER_EVENTS) \
        | (whole.status == "not_applicable")
    assert 0 < len(got) == keep.sum() < len(whole)
    assert list(got.columns) == list(load.COUNTER_COLUMNS)
    pd.testing.assert_frame_equal(got.astype({c: object for c in got.columns if c not in
                                              ("rank", "measurement", "value_scaled")}),
                                  whole.loc[keep, got.columns].reset_index(drop=True))
    pd.testing.assert_frame_equal(counters.events(got), counters.events(whole)[
        [e for e in counters.events(whole).columns if e in load.COUNTER_EVENTS]])
    got["host"], whole["host"] = got["rank"].astype(str), whole["rank"].astype(str)
    pd.testing.assert_frame_equal(counters.not_counted(got), counters.not_counted(whole))


def test_counters_read_beside_check(fleet_file, tmp_path, monkeypatch):
    """A large file's /counters is read by a child while `numaprobe check` runs: the frames are
    those read after check, and a file check refuses is refused all the same."""
    import pandas as pd
    from fleet_edits import edit
    from numaprobe_analysis.validate import find_numaprobe
    if find_numaprobe()[0] is None:
        pytest.skip("numaprobe not found: nothing to validate with")
    monkeypatch.setattr(load, "OVERLAP_BYTES", 0)
    delivered, read = [], load.read

    def spy(path, budget=None, counters=None):
        delivered.append(counters is not None)
        return read(path, budget, counters)
    monkeypatch.setattr(load, "read", spy)
    beside, after = load.load(str(fleet_file)), read(str(fleet_file))
    assert delivered == [True], "the child read /counters"
    assert len(beside["counters"]) > 0
    for name, frame in after.tables.items():
        pd.testing.assert_frame_equal(beside[name], frame, check_categorical=True, obj=name)
    bad = tmp_path / "bad.h5"
    bad.write_bytes(fleet_file.read_bytes())

    def negative(rows):
        rows["latency_ns_median"][rows["status"] == b"ok"] = -1.0
    edit(str(bad), "latency", negative)
    with pytest.raises(load.ResultsError, match="invalid"):
        load.load(str(bad))
