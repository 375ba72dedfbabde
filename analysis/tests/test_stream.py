# SPDX-License-Identifier: BSD-3-Clause
"""The fleet loader (stream.py) keeps of the measurement tables the rows the analysis reads
across hosts and reduces the others per host (reducers.py). Whatever the blocks, and whatever
the order of the rows (a host's ranks apart, as `--map-by node` places them; the rows out of
rank order), the kept rows are the table's but the ok rows of the reduced experiments, and each
reduction equals what its consumer makes of the whole table, which load.read() gives."""

import h5py
import numpy as np
import pandas as pd
import pytest

import synthetic_fleet
from fleet_edits import add_sweeps, edit
from numaprobe_analysis import counters, fleet, load, reducers, stream

HOSTS = 12


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """A fleet with every sweep, a host that migrates (rows flagged `migrated`) and one
    without a PMU (not_applicable rows); and the same file laid out otherwise."""
    d = tmp_path_factory.mktemp("stream")
    path = d / "fleet.h5"
    names = synthetic_fleet.write_fleet(str(path), HOSTS, seed=4, no_pmu=("icx02",),
                                        factors={"rome04": {"migrations": 3}})
    add_sweeps(str(path))
    for table in stream.STREAMED:  # in rank order, as the writer gathers them
        edit(str(path), table, lambda rows: rows[np.argsort(rows["rank"], kind="stable")])
    out = {"as written": path}
    # Two ranks a host, the second HOSTS/2 ranks on: each host's rows in two places.
    apart = d / "apart.h5"
    apart.write_bytes(path.read_bytes())

    def pair(rows):
        half = HOSTS // 2
        rows["hostname"][half:] = rows["hostname"][:half]
    edit(str(apart), "hosts", pair)
    out["ranks apart"] = apart
    # Every measurement table's rows last rank first.
    backwards = d / "backwards.h5"
    backwards.write_bytes(path.read_bytes())
    for table in stream.STREAMED:
        edit(str(backwards), table, lambda rows: rows[::-1].copy())
    out["out of rank order"] = backwards
    assert len(names) == HOSTS
    return out


def whole(path):
    """load.read()'s tables, each row with `host`: the hostname /hosts gives its rank."""
    res = load.read(str(path))
    hosts = res["hosts"].drop_duplicates("rank").set_index("rank").hostname
    for name in ("latency", "bandwidth", "counters", "placement"):
        res.tables[name]["host"] = res[name]["rank"].map(hosts)
    return res


def sort(frame, keys):
    return frame.sort_values(keys).reset_index(drop=True)


def kept(frame, name):
    reduced = (frame.status == "ok") & frame.experiment.isin(reducers.REDUCED[name])
    return frame[~reduced].drop(columns=["host", *reducers.UNREAD_COLUMNS],
                                errors="ignore").reset_index(drop=True)


def flag_sums(frames):
    frames = [f for f in frames if len(f)]
    return pd.concat(frames).groupby(["host", "flag"]).rows.sum() if frames else None


@pytest.mark.parametrize("block", [5, 64, 1 << 16])
@pytest.mark.parametrize("layout", ["as written", "ranks apart", "out of rank order"])
def test_reductions_equal_the_whole_tables(written, layout, block, monkeypatch):
    monkeypatch.setattr(stream, "BLOCK_ROWS", block)
    monkeypatch.setattr(stream, "COUNTER_BLOCK_ROWS", block)
    passes, one_pass = [], stream.Completion

    def counted(index, hold=False):
        passes.append(hold)
        return one_pass(index, hold)
    monkeypatch.setattr(stream, "Completion", counted)
    path = written[layout]
    res, full = stream.read_reduced(str(path)), whole(path)
    # Rows in rank order are read once (latency, bandwidth, counters), hosts taken as they
    # complete; others again, held to the end, where a block did not hold the whole table.
    if layout != "out of rank order":
        assert passes == [False] * 3
    elif block < 100:
        assert passes == [False, True] * 3
    for name in ("latency", "bandwidth"):
        pd.testing.assert_frame_equal(res[name], kept(full[name], name), obj=name)
    lat, bw = full["latency"], full["bandwidth"]
    want = reducers.sweep_reduction(lat[(lat.status == "ok")
                                        & (lat.experiment == "latency_sweep")])
    got = res.reduced
    assert len(want[reducers.SWEEP_CURVES]) > HOSTS
    for key, keys in ((reducers.SWEEP_CURVES, ["host", "lines"]),
                      (reducers.SWEEP_SIZES, ["host"])):
        pd.testing.assert_frame_equal(sort(got[key], keys), sort(want[key], keys), obj=key)
    points = reducers.kernel_points(bw, "bandwidth_sweep", "size_bytes")
    assert len(points) > HOSTS
    keys = ["kernel_label", "host", "size_bytes"]
    pd.testing.assert_frame_equal(sort(got[reducers.BW_SWEEP], keys), sort(points, keys))
    want_flags = flag_sums([reducers.flag_counts(lat), reducers.flag_counts(bw)])
    assert want_flags is not None and len(want_flags)
    pd.testing.assert_series_equal(flag_sums([got[reducers.FLAGS]]), want_flags)
    # /counters: the events of the measurements kept, the totals, the not_applicable rows.
    c = full["counters"]
    keys = reducers.measurement_keys(pd.concat([res["latency"], res["bandwidth"]]))
    events = counters.events(c.drop(columns="host")).reset_index()
    events = events[np.isin(reducers._keys(events["rank"].to_numpy(),
                                           events.measurement.to_numpy()), keys)]
    events = events[["rank", "measurement", *reducers.PMU_EVENTS]]
    assert events[list(reducers.PMU_EVENTS)].notna().any().all()
    # A measurement none of whose rows is of these events merges as one without them: NaN.
    cols = ["rank", "measurement", *reducers.PMU_EVENTS]
    pd.testing.assert_frame_equal(
        sort(got[reducers.COUNTER_EVENTS][cols].dropna(how="all", subset=cols[2:]), cols[:2]),
        sort(events.dropna(how="all", subset=cols[2:]), cols[:2]), check_names=False)
    rows = c[(c.measurement >= 0) & c.event.isin(reducers.TOTAL_EVENTS) & (c.status == "ok")
             & c.value_scaled.notna()]
    totals = rows.groupby(["host", "event"]).value_scaled.sum()
    pd.testing.assert_series_equal(
        got[reducers.COUNTER_TOTALS].set_index(["host", "event"]).value_scaled.sort_index(),
        totals)
    na = c[c.status == "not_applicable"][["rank", "group", "event", "note"]]
    assert len(na)
    pd.testing.assert_frame_equal(got[reducers.NOT_APPLICABLE], na.reset_index(drop=True))
    place = full["placement"]
    ft = reducers.first_touch_keys(full["bandwidth"])
    place = place[np.isin(reducers._keys(place["rank"].to_numpy(),
                                         place.measurement.to_numpy()), ft)]
    assert len(place)
    pd.testing.assert_frame_equal(res["placement"],
                                  place.drop(columns="host").reset_index(drop=True))


@pytest.mark.parametrize("layout", ["as written", "ranks apart", "out of rank order"])
def test_rows_of_a_few_hosts_read_again(written, layout, monkeypatch):
    """fleet.rows_of reads a host's rows again where the loader saw them: every one, once."""
    monkeypatch.setattr(stream, "BLOCK_ROWS", 7)
    monkeypatch.setattr(fleet, "validated", lambda path, reader: reader())
    path = str(written[layout])
    f = fleet.load_fleet([path])
    lat = whole(path)["latency"]
    hosts = sorted(set(f["hosts"].host))[:2]
    got = fleet.rows_of(f, "latency", hosts, ["size_bytes", "latency_ns_median"])
    want = lat[lat.host.isin(hosts)]
    assert 0 < len(got) == len(want)
    np.testing.assert_array_equal(got.latency_ns_median, want.latency_ns_median)
    assert list(got.host) == list(want.host) and set(got.file) == {path}


def test_a_run_without_flagged_rows_pools_with_one_with(written, tmp_path, monkeypatch):
    """A re-measure that nothing disturbed has no flagged row, so its file reduces to no flag
    counts: pooled with the first run's, the fleet keeps the first's counts (it once failed
    with a KeyError, the report exiting 2 where it should judge)."""
    monkeypatch.setattr(fleet, "validated", lambda path, reader: reader())
    first, quiet = str(written["as written"]), tmp_path / "quiet.h5"
    quiet.write_bytes(written["as written"].read_bytes())

    def unflag(rows):
        rows["flags"][:] = b""
    for table in ("latency", "bandwidth"):
        edit(str(quiet), table, unflag)
    assert reducers.FLAGS not in stream.read_reduced(str(quiet)).reduced
    for paths in ([first, str(quiet)], [str(quiet), first]):
        flags = fleet.load_fleet(paths, all_runs=True).reduced[reducers.FLAGS]
        assert len(flags) and set(flags.file) == {first}


def test_read_beside_check(written, tmp_path, monkeypatch):
    """A large file is read by a child while `numaprobe check` runs: the parent reads nothing
    itself, and gets what it would have read; a file check refuses is refused all the same."""
    from numaprobe_analysis.validate import find_numaprobe
    if find_numaprobe()[0] is None:
        pytest.skip("numaprobe not found: nothing to validate with")
    monkeypatch.setattr(load, "OVERLAP_BYTES", 0)
    path = str(written["as written"])
    read_here = []

    def reader():
        read_here.append(path)  # in the parent only where the child delivered nothing
        return stream.read_reduced(path)
    beside, after = load.validated(path, reader), stream.read_reduced(path)
    assert read_here == [], "the child read the file"
    for name, frame in after.tables.items():
        pd.testing.assert_frame_equal(beside[name], frame, obj=name)
    for name, frame in after.reduced.items():
        pd.testing.assert_frame_equal(beside.reduced[name], frame, obj=name)
    bad = tmp_path / "bad.h5"
    bad.write_bytes(written["as written"].read_bytes())

    def negative(rows):
        rows["latency_ns_median"][rows["status"] == b"ok"] = -1.0
    edit(str(bad), "latency", negative)
    with pytest.raises(load.ResultsError, match="invalid"):
        load.validated(str(bad), lambda: stream.read_reduced(str(bad)))


def test_unread_tables_and_columns(written):
    """What nothing analyses is not read: /numastat, /hugepages, pass_values."""
    res = stream.read_reduced(str(written["as written"]))
    with h5py.File(written["as written"], "r") as f:
        assert "numastat" in f and "pass_values" in f["latency"].dtype.names
    assert not set(stream.UNREAD) & set(res.tables)
    assert "pass_values" not in res["latency"].columns
    with pytest.raises(KeyError, match="not a table"):
        res["counters"]
