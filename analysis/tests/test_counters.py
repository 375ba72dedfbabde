# SPDX-License-Identifier: BSD-3-Clause
"""/counters (schema 0.7.0) in the analysis: a 0.6.0 file (no /counters, none of the columns
0.7.0 added) reads with an empty table and the documented fill values; the derived figures (IPC,
LLC misses per access, memory-controller over bus bytes) come from ok rows only and are absent,
never invented, otherwise; a host whose IPC or migrations differ from its node type's is pointed
out; a host without a PMU is reported with why; software rows alone show nothing."""

import h5py
import numpy as np
import pandas as pd
import pytest
from conftest import run_report

import synthetic_fleet
from fleet_edits import add_rows, as_schema_0_6
from numaprobe_analysis import counters
from numaprobe_analysis.contract import contract
from numaprobe_analysis.fleetview import view
from numaprobe_analysis.fleet import load_fleet
from numaprobe_analysis.load import added_column, read
from numaprobe_analysis.validate import find_numaprobe

NUMAPROBE = find_numaprobe()[0]
ICX, ROME = synthetic_fleet.TYPES[0]["node_type"], synthetic_fleet.TYPES[1]["node_type"]


def section(stdout, heading):
    """The text report's section that starts with @p heading ("" when absent)."""
    for part in stdout.split("\n\n"):
        if part.startswith(heading):
            return part
    return ""


@pytest.mark.skipif(NUMAPROBE is None, reason="numaprobe binary not built")
def test_a_file_of_schema_0_6_reads_without_counters(tmp_path):
    path = tmp_path / "v0.6.h5"
    synthetic_fleet.write_fleet(str(path), 10, seed=7)
    as_schema_0_6(path, contract())
    with h5py.File(path, "r") as f:
        assert "counters" not in f and "mc_bytes" not in f["bandwidth"].dtype.names
        assert "numa_hint_faults" not in f["balancing"].dtype.names
    res = read(str(path))
    assert res["counters"].empty
    bw, bal = res["bandwidth"], res["balancing"]
    assert bw.mc_bytes.dtype == np.float64 and bw.mc_bytes.isna().all()
    assert bw.mc_bus_ratio.dtype == np.float64 and bw.mc_bus_ratio.isna().all()
    for column in ("numa_hint_faults", "numa_pages_migrated"):
        assert bal[column].dtype == np.int64 and (bal[column] == -1).all(), column
    assert res["numa_nodes"].free_bytes.dtype == np.uint64  # the older fills keep their type
    v = view(load_fleet([str(path)]))
    assert v.counters.values.empty and not v.counters.present()
    proc = run_report(path, "-o", tmp_path / "report")
    assert proc.returncode == 0, proc.stderr
    assert "schema 0.6.0" in proc.stdout
    assert "Counters (" not in proc.stdout and "IPC" not in proc.stdout
    assert not (tmp_path / "report" / "counters.csv").exists()


def test_added_columns_take_the_type_of_their_fill():
    assert added_column(None, 3).dtype == np.float64 and added_column(None, 3).isna().all()
    assert added_column(-1, 2).dtype == np.int64 and list(added_column(-1, 2)) == [-1, -1]
    assert added_column(0, 2).dtype == np.uint64
    assert list(added_column("", 2)) == ["", ""]


def _counter(measurement, event, value_scaled, status="ok", socket=-1, group="core"):
    return {"rank": 0, "measurement": measurement, "event": event, "group": group,
            "status": status, "socket": socket, "value": 0, "value_scaled": value_scaled}


def test_derived_figures_from_known_inputs():
    """IPC = instructions / cycles; LLC misses per access = llc_load_misses / (accesses per
    sample x samples); mc/bus bytes = mc_bus_ratio where both uncore events counted ok. A
    figure whose events did not all count (failed, never ran, a socket missing) is NaN."""
    rows = [
        # 1: every event ok (llc_load_misses multiplexed: value_scaled is the figure)
        _counter(1, "cycles", 2.0e6), _counter(1, "instructions", 5.0e5),
        _counter(1, "llc_load_misses", 4.0e3),
        # 2: cycles failed, llc_load_misses never on the PMU
        _counter(2, "cycles", 1.0e6, status="failed"), _counter(2, "instructions", 5.0e5),
        _counter(2, "llc_load_misses", np.nan),
        # 3 (no rows): not counted at all
        # 10: bandwidth, both sockets of both uncore events ok
        _counter(10, "cycles", 4.0e6), _counter(10, "instructions", 1.0e6),
        *[_counter(10, e, 1.0e6, socket=s, group="uncore")
          for e in ("mc_read_bytes", "mc_write_bytes") for s in (0, 1)],
        # 11: one socket's mc_write_bytes failed
        *[_counter(11, "mc_read_bytes", 1.0e6, socket=s, group="uncore") for s in (0, 1)],
        _counter(11, "mc_write_bytes", 1.0e6, socket=0, group="uncore"),
        _counter(11, "mc_write_bytes", 0.0, status="failed", socket=1, group="uncore"),
        # a host row saying the rank cannot count an event: never a measurement's
        _counter(-1, "dtlb_load_misses", np.nan, status="not_applicable"),
    ]
    c = pd.DataFrame(rows)
    ev = counters.events(c)
    assert ev.loc[(0, 10), "mc_read_bytes"] == 2.0e6  # summed over the sockets
    assert np.isnan(ev.loc[(0, 11), "mc_write_bytes"])
    assert "dtlb_load_misses" not in ev.columns
    lat = pd.DataFrame({"rank": 0, "measurement": [1, 2, 3], "accesses_per_sample": 1000,
                        "samples": 10})
    got = counters.latency_figures(lat, ev).set_index("measurement")
    assert got.at[1, "ipc"] == pytest.approx(0.25)
    assert got.at[1, "llc_misses_per_access"] == pytest.approx(0.4)
    assert got.loc[[2, 3], "ipc"].isna().all()
    assert got.loc[[2, 3], "llc_misses_per_access"].isna().all()
    bw = pd.DataFrame({"rank": 0, "measurement": [10, 11, 12],
                       "mc_bus_ratio": [1.1, 1.2, 1.3]})
    got = counters.bandwidth_figures(bw, ev).set_index("measurement")
    assert got.at[10, "ipc"] == pytest.approx(0.25)
    assert got.at[10, "mc_bus_ratio"] == pytest.approx(1.1)
    # 11: a socket failed; 12: no uncore rows at all (the column's value is not taken)
    assert got.loc[[11, 12], "mc_bus_ratio"].isna().all()
    assert got.loc[[11, 12], "ipc"].isna().all()


def test_prefetch_coverage_of_the_stride_sweep():
    """1 - LLC misses / lines touched: a line per access from 64 B on, stride/64 below; NaN
    where llc_load_misses did not count; a host line names each stride's figure."""
    ev = counters.events(pd.DataFrame([
        _counter(1, "llc_load_misses", 100.0),    # stride 8: 1000 accesses touch 125 lines
        _counter(2, "llc_load_misses", 250.0),    # stride 64: 1000 lines
        _counter(3, "llc_load_misses", 1000.0),   # stride 4096: every access misses
        _counter(4, "llc_load_misses", 0.0, status="failed"),
    ]))
    lat = pd.DataFrame({"rank": 0, "measurement": [1, 2, 3, 4],
                        "pattern": ["stride:8", "stride:64", "stride:4096", "stride:128"],
                        "accesses_per_sample": 100, "samples": 10})
    got = counters.stride_figures(lat, ev).set_index("measurement")
    assert list(got.stride) == [8, 64, 4096, 128]
    assert got.at[1, "prefetch_coverage"] == pytest.approx(1 - 100 / 125)
    assert got.at[2, "prefetch_coverage"] == pytest.approx(0.75)
    assert got.at[3, "prefetch_coverage"] == pytest.approx(0.0)
    assert np.isnan(got.at[4, "prefetch_coverage"])
    line = counters.host_text({"prefetch_coverage_64B": 0.75, "prefetch_coverage_4096B": 0.0},
                              None, {})
    assert line == "prefetch coverage by stride 64B 0.75, 4096B 0"


def test_synthetic_ipc_follows_the_chase():
    """Per measurement on a synthetic fleet: the IPC the analysis derives is the generator's
    instructions per access over the cycles of an access, and mc/bus its MC_EXTRA; the remote
    pairs, which the generator gives no counters, have neither."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = f"{d}/f.h5"
        synthetic_fleet.write_fleet(path, 4, seed=2)
        fleet = load_fleet([path])
    ev = counters.counted_events(fleet)
    lat = fleet["latency"][fleet["latency"].experiment == "latency_matrix"]
    lat = counters.latency_figures(lat, ev)
    assert lat[lat.cpu_node != lat.mem_node].ipc.isna().all()
    lat = lat[lat.cpu_node == lat.mem_node]
    ghz = lat.host.str.startswith("icx").map({True: 2.0, False: 2.25})
    want = synthetic_fleet.CHASE_INSTRUCTIONS / (lat.latency_ns_median * ghz)
    np.testing.assert_allclose(lat.ipc, want, rtol=1e-6)
    np.testing.assert_allclose(lat.llc_misses_per_access, 0.97, rtol=1e-6)
    bw = fleet["bandwidth"][fleet["bandwidth"].experiment == "bandwidth_matrix"]
    bw = counters.bandwidth_figures(bw, ev)
    assert bw[bw.cpu_node != bw.mem_node].mc_bus_ratio.isna().all()
    bw = bw[bw.cpu_node == bw.mem_node]
    icx = bw[bw.host.str.startswith("icx")]
    np.testing.assert_allclose(icx.mc_bus_ratio, icx.kernel.map(synthetic_fleet.MC_EXTRA),
                               rtol=1e-3)
    assert bw[bw.host.str.startswith("rome")].mc_bus_ratio.isna().all()  # no uncore PMU


@pytest.fixture(scope="module")
def off_fleet(tmp_path_factory):
    """40 hosts: icx05 retires 30% fewer instructions in the same cycles, rome04 migrates."""
    d = tmp_path_factory.mktemp("counters")
    path = d / "fleet.h5"
    synthetic_fleet.write_fleet(str(path), 40, seed=1, factors={
        "icx05": {"ipc": 0.7}, "rome04": {"migrations": 2}})
    proc = run_report(path, "-o", d / "report")
    assert proc.returncode == 0, proc.stderr
    return {"path": path, "report": d / "report", "proc": proc}


def test_host_with_off_ipc_or_migrations_is_pointed_out(off_fleet, tmp_path):
    out = off_fleet["proc"].stdout
    assert "2 host(s) whose counters differ from their type's" in out
    assert f"icx05 ({ICX}): IPC of the local chase" in out
    assert f"rome04 ({ROME}): CPU migrations (total)" in out
    pointed = pd.read_csv(off_fleet["report"] / "counter_outliers.csv")
    assert set(zip(pointed.host, pointed.metric)) == {
        ("icx05", "IPC of the local chase"), ("rome04", "CPU migrations (total)")}
    assert (pointed.verdict == "worse").all()
    ipc = pointed[pointed.host == "icx05"].iloc[0]
    assert ipc.deviation_pct == pytest.approx(-30, abs=3)
    # the headline verdicts are unchanged: a different IPC alone is no slower host
    headline = pd.read_csv(off_fleet["report"] / "outliers.csv")
    assert headline.empty
    assert "No outlier hosts." in out
    # the node-type comparison carries the IPC median and the mc/bus bytes where counted
    comparison = pd.read_csv(off_fleet["report"] / "comparison.csv").set_index("metric")
    assert comparison.loc["IPC of the local chase", ICX] == pytest.approx(4 / (92 * 2.0),
                                                                          rel=0.03)
    assert comparison.loc["IPC of the local chase", ROME] == pytest.approx(4 / (105 * 2.25),
                                                                           rel=0.03)
    assert comparison.loc["mc/bus bytes, read local", ICX] == pytest.approx(1.02, rel=1e-3)
    assert np.isnan(comparison.loc["mc/bus bytes, read local", ROME])
    # the same fleet without the planted hosts: nobody pointed out
    clean = tmp_path / "clean.h5"
    synthetic_fleet.write_fleet(str(clean), 40, seed=1)
    proc = run_report(clean, "--no-report")
    assert proc.returncode == 0, proc.stderr
    assert "counters differ" not in proc.stdout and "Counters unlike" not in proc.stdout


def test_host_without_pmu_says_why_once(tmp_path):
    path = tmp_path / "vm.h5"
    synthetic_fleet.write_fleet(str(path), 10, seed=3, no_pmu={"icx03"})
    # a second rank of the host says the same (rows of a host come once per rank)
    add_rows(str(path), "counters", [
        {"rank": 2, "measurement": -1, "experiment": "-", "event": e, "group": "core",
         "scope": "thread", "socket": -1, "time_enabled_s": 0.0, "time_running_s": 0.0,
         "status": "not_applicable", "note": synthetic_fleet.NO_CPU_PMU}
        for e in synthetic_fleet.CORE_EVENTS])
    proc = run_report(path, "-o", tmp_path / "report")
    assert proc.returncode == 0, proc.stderr
    part = section(proc.stdout, "Counters (")
    lines = {line.split(":", 1)[0].strip(): line for line in part.splitlines()[1:]}
    vm = lines["icx03"]
    assert f"not_applicable: core - {synthetic_fleet.NO_CPU_PMU}" in vm
    assert f"uncore - {synthetic_fleet.NO_MC_PMU}" in vm
    assert "IPC" not in vm and "mc/bus" not in vm  # nothing counted, nothing shown
    assert part.count(synthetic_fleet.NO_CPU_PMU) == 1
    # the rome type has a CPU PMU but no memory-controller one: its uncore group, with why
    assert "IPC chase" in lines["rome01"] and "mc/bus" not in lines["rome01"]
    assert f"not_applicable: uncore - {synthetic_fleet.NO_MC_PMU}" in lines["rome01"]
    assert "not_applicable" not in lines["icx01"] and "mc/bus bytes read" in lines["icx01"]
    table = pd.read_csv(tmp_path / "report" / "counters.csv").set_index("host")
    assert np.isnan(table.at["icx03", "IPC of the local chase (instr/cycle)"])
    assert table.at["icx03", "not_applicable"].startswith("core - no CPU PMU")


@pytest.mark.parametrize("kind", ["software", "none"])
def test_software_rows_alone_show_nothing(tmp_path, kind):
    path = tmp_path / f"{kind}.h5"
    synthetic_fleet.write_fleet(str(path), 10, seed=4, counters=kind)
    with h5py.File(path, "r") as f:
        groups = set(f["counters"]["group"])
    assert groups == ({b"software"} if kind == "software" else set())
    proc = run_report(path, "-o", tmp_path / "report")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    for absent in ("Counters (", "IPC", "not_applicable", "mc/bus", "counters differ"):
        assert absent not in proc.stdout, absent
    assert not (tmp_path / "report" / "counters.csv").exists()
    comparison = pd.read_csv(tmp_path / "report" / "comparison.csv")
    assert not comparison.metric.str.contains("IPC|mc/bus").any()
    one = tmp_path / "one.h5"  # a host report too
    synthetic_fleet.write_fleet(str(one), 1, seed=4, counters=kind)
    proc = run_report(one, "--no-report")
    assert proc.returncode == 0, proc.stderr
    assert "Counters (" not in proc.stdout and "IPC" not in proc.stdout


def test_report_on_written_file_names_what_was_not_counted(written):
    """On the binary's own file: every group it could not count is named with its reason, and
    the IPC of the chase is shown exactly when its cycles and instructions counted."""
    proc = run_report(written, "--no-report")
    assert proc.returncode == 0, proc.stderr
    res = read(written)
    c = res["counters"]
    if c.empty:
        pytest.skip("the file has no /counters rows")
    part = section(proc.stdout, "Counters (")
    for note in set(c.loc[c.status == "not_applicable", "note"]):
        assert note[:60] in part, note
    lat = res["latency"]
    chase = lat[(lat.experiment == "latency_matrix") & (lat.status == "ok")
                & (lat.mem_policy == "bind") & (lat.cpu_node == lat.mem_node)]
    ok = c[(c.status == "ok") & c.measurement.isin(chase.measurement)]
    counted = {"cycles", "instructions"} <= set(ok.event)
    assert ("IPC chase" in part) == counted
