# SPDX-License-Identifier: BSD-3-Clause
"""`numaprobe check` on the rows of a file: values an ok row may not hold, statuses, the joins
between tables (ranks in /hosts, placement of every measurement, unique measurement ids), the
host counts, a hung rank, a checkpoint, and /counters rows."""

import os

import h5py
import numpy as np
import pytest

from h5inputs import copy, edit_column, keep_rows, ok_rows, rows_of, set_attrs, split

pytestmark = pytest.mark.needs_options("exe", "results_dir")


def test_check_rank_not_in_hosts(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "rank99.h5")
    edit_column(bad, "latency", "rank", 12, 99)
    numaprobe.run(["check", bad], 4, ["/latency row 12: rank 99 not in /hosts", "INVALID"])


def test_check_nan_in_ok_row(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "nan.h5")
    row = ok_rows(rows_of(bad, "latency"))[0]
    edit_column(bad, "latency", "latency_ns_median", row, np.nan)
    numaprobe.run(["check", bad], 4,
                  [f"/latency row {row}: latency_ns_median is nan in an ok row"])


def test_check_fraction_range(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "frac.h5")
    edit_column(bad, "bandwidth", "pages_on_target_frac", 3, 1.5)
    numaprobe.run(["check", bad], 4,
                  ["/bandwidth row 3: pages_on_target_frac = 1.5, outside [0, 1]"])


def test_check_unknown_status(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "status.h5")
    edit_column(bad, "loaded_latency", "status", 1, b"great")
    numaprobe.run(["check", bad], 4, ["/loaded_latency row 1: status 'great' is not one of",
                                      "valid is 1 but status is 'great'"])


def test_check_placement_missing(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "no-placement-rows.h5")
    lat = rows_of(bad, "latency")
    row = ok_rows(lat)[0]
    rank, meas = lat["rank"][row], lat["measurement"][row]
    place = rows_of(bad, "placement")
    keep_rows(bad, "placement", place[~((place["rank"] == rank) & (place["measurement"] == meas))])
    numaprobe.run(["check", bad], 4, [f"/latency row {row}: status ok but no /placement rows for "
                                      f"rank {rank} measurement {meas}"])


def test_check_hosts_row_missing(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "three-hosts.h5")
    hosts = rows_of(bad, "hosts")
    keep_rows(bad, "hosts", hosts[:-1])
    last = hosts["rank"][-1]
    numaprobe.run(["check", bad], 4, [f"/hosts has {len(hosts) - 1} rows but world_size is "
                                      f"{len(hosts)} and complete=1 (ranks missing: {last})",
                                      f"rank {last} not in /hosts"])


def test_check_host_counts(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "host-counts.h5")
    hosts = rows_of(bad, "hosts")
    edit_column(bad, "hosts", "ranks_on_host", 1, 1)
    edit_column(bad, "hosts", "host_index", 2, 5)
    set_attrs(bad, host_count=np.int64(2))
    same = int((hosts["host_index"] == hosts["host_index"][1]).sum()) - 1
    numaprobe.run(["check", bad], 4, [
        f"/hosts rank 1: ranks_on_host 1 but {same} rows have host_index",
        "/hosts row 2: host_index 5 outside 0..host_count-1 (host_count 2)"])


def test_check_orphan_and_duplicate_rows(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "joins.h5")
    edit_column(bad, "placement", "measurement", 0, 99999)
    lat = rows_of(bad, "latency")
    edit_column(bad, "bandwidth", "measurement", 0, lat["measurement"][0])
    edit_column(bad, "bandwidth", "rank", 0, lat["rank"][0])
    numaprobe.run(["check", bad], 4, [
        "/placement row 0: rank 0 measurement 99999 matches no measurement",
        f"measurement {lat['measurement'][0]} is also /latency row 0"])


def test_check_hung_rank(numaprobe, mpi4, work):
    """As the writer leaves a rank its watchdog gave up: a /hosts row saying hung (written by
    rank 0, which knows only the host), no other rows, complete=0."""
    hung = copy(mpi4, work, "hung.h5")
    with h5py.File(hung, "r+") as f:
        last = int(f.attrs["world_size"]) - 1
        for name in f:
            rows = f[name][()]
            if name == "hosts":
                row = np.zeros(1, rows.dtype)
                row["rank"], row["host_index"] = last, rows["host_index"][last]
                row["hostname"], row["status"] = rows["hostname"][last], b"hung"
                row["error"] = b"watchdog: host silent for 4 s (limit 4 s: twice watchdog)"
                rows = np.concatenate([rows[rows["rank"] != last], row])
            else:
                rows = rows[rows["rank"] != last]
            f[name].resize((len(rows),))
            f[name][...] = rows
        f.attrs["complete"], f.attrs["hosts_failed"] = np.int64(0), np.int64(1)
    numaprobe.run(["check", hung], 0, ["valid", "complete=0"], forbid=["INVALID"])
    set_attrs(hung, hosts_failed=np.int64(0))
    numaprobe.run(["check", hung], 4, ["hosts_failed is 0 but 1 /hosts rows are not ok"])


def test_check_checkpoint(numaprobe, mpi4, work):
    split(mpi4, work, ranks=[1], unfinished=[1])
    ckpt = os.path.join(work, "rank-00001.h5")
    numaprobe.run(["check", ckpt], 0, ["valid", "checkpoint of rank 1 (running)"])
    edit_column(ckpt, "latency", "rank", 0, 2)
    numaprobe.run(["check", ckpt], 4, ["/latency row 0: rank 2 in the checkpoint of rank 1"])


def test_check_counter_rows(numaprobe, mpi4, work):
    """/counters rows join a measurement, name a known group and scope, and a rank's row
    (measurement -1) is exactly a not_applicable one."""
    bad = copy(mpi4, work, "counters.h5")
    rows = rows_of(bad, "counters")
    ok = ok_rows(rows)
    assert len(ok) >= 4, f"too few ok counter rows: {len(ok)}"
    edit_column(bad, "counters", "measurement", ok[0], 99999)
    edit_column(bad, "counters", "group", ok[1], b"pmu")
    edit_column(bad, "counters", "scope", ok[2], b"core")
    edit_column(bad, "counters", "measurement", ok[3], -1)
    numaprobe.run(["check", bad], 4, [
        f"/counters row {ok[0]}: rank {rows['rank'][ok[0]]} measurement 99999 matches no "
        "measurement",
        f"/counters row {ok[1]}: group 'pmu' is not software, core, uncore or vmstat",
        f"/counters row {ok[2]}: scope 'core' is not thread, socket or system",
        f"/counters row {ok[3]}: measurement -1 with status ok"])


def test_check_counter_never_enabled(numaprobe, mpi4, work):
    """An ok perf counter row that was never enabled (time 0, value 0: what an emulated guest's
    perf reads now and then) counted nothing, and check says so; vmstat rows have no times."""
    bad = copy(mpi4, work, "counters-never.h5")
    rows = rows_of(bad, "counters")
    perf = [i for i in ok_rows(rows) if rows["group"][i] != b"vmstat"]
    assert perf, "no ok perf counter row to forge"
    for column in ("value", "time_enabled_s", "time_running_s", "value_scaled"):
        edit_column(bad, "counters", column, perf[0], 0)
    numaprobe.run(["check", bad], 4, [
        f"/counters row {perf[0]}: {rows['event'][perf[0]].decode()} is ok but was never "
        "enabled (time_enabled_s 0)"])
