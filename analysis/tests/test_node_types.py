# SPDX-License-Identifier: BSD-3-Clause
"""Node types a site can act on: a type is the hardware a host is meant to have (CPU model,
packages, NUMA nodes, cores, caches), never its memory. A host that lost a DIMM or has a core
offline stays in its type as a degraded member, named with its reason, judged with its type,
and fails the gate; a host is judged node by node too, so one bad node of four is named; a type
too small to judge is never the comparison's reference, and the gate does not pass its hosts.

Each planted fleet is checked through the report's --json verdicts or exit status, and each
test asserts what its plant causes (without the plant the assertion fails)."""

import json

import pytest
from conftest import run_report

import fleet_edits
import synthetic_fleet

ICX, ROME = (t["node_type"] for t in synthetic_fleet.TYPES)
GIB = 1 << 30


def verdicts(path, tmp_path, *args):
    """The report's exit status and its --json verdicts."""
    out = tmp_path / "v.json"
    proc = run_report(path, "--no-report", "--json", out, *args)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    assert out.exists(), proc.stdout + proc.stderr
    return proc, json.loads(out.read_text())


def node_edit(path, host, node, **fields):
    """Sets /numa_nodes fields of @p host's node @p node (every rank of it)."""
    rank = fleet_edits.ranks_of(path)[host]

    def change(rows):
        sel = (rows["rank"] == rank) & (rows["node"] == node)
        for k, v in fields.items():
            rows[k][sel] = v
    fleet_edits.edit(path, "numa_nodes", change)


def lose_memory(path, host, node=1, share=0.875):
    """@p host lost a DIMM: node @p node has @p share of its memory, and the binary's
    fingerprint and label (which hash and name the memory) change with it."""
    node_edit(path, host, node, memory_bytes=int(share * 64 * GIB))
    fleet_edits.set_host(path, host, fingerprint="ffff0000ffff0000",
                         node_type=ICX.replace("256G", "248G"))


def slow_node(path, host, node, factor, kernels=(b"read", b"triad")):
    """Local bandwidth of one NUMA node of @p host times @p factor."""
    def change(rows):
        sel = ((rows["hostname"] == host.encode()) & (rows["experiment"] == b"bandwidth_matrix")
               & (rows["cpu_node"] == node) & (rows["mem_node"] == node)
               & ((rows["kernel"] == kernels[0]) | (rows["kernel"] == kernels[-1])))
        for c in ("gbs_best", "gbs_median", "gbs_worst", "bus_gbs_best"):
            rows[c][sel] *= factor
    fleet_edits.edit(path, "bandwidth", change)


def host_entry(doc, host):
    return next(h for h in doc["hosts"] if h["host"] == host)


def test_host_with_less_memory_is_degraded_and_fails_the_gate(tmp_path):
    """8 hosts a type; icx03 lost a DIMM (node 1 at 56 GiB, a new fingerprint) and has 70% of
    the local bandwidth: it stays in its type, degraded and an outlier, never a type of one."""
    path = str(tmp_path / "f.h5")
    synthetic_fleet.write_fleet(path, 16, seed=5, factors={"icx03": {"bw_local": 0.7}})
    lose_memory(path, "icx03")
    proc, doc = verdicts(path, tmp_path, "--fail-on-outliers")
    assert doc["too_small"] == [] and {t["hosts"] for t in doc["node_types"]} == {8}
    assert host_entry(doc, "icx03")["type"] == ICX
    degraded = {d["host"]: d["reason"] for d in doc["degraded"]}
    assert degraded == {"icx03": "node 1 has 56 GiB where its type has 64 GiB"}, degraded
    assert host_entry(doc, "icx03")["degraded"] is True
    assert {o["host"] for o in doc["outliers"]} == {"icx03"}
    assert proc.returncode == 1 and doc["exit_status"] == 1, proc.stdout + proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert ", 1 degraded, 0 failed," in last, last


def test_degraded_alone_fails_the_gate(tmp_path):
    """A host short of memory, its figures as its peers': the gate fails on the degradation."""
    path = str(tmp_path / "f.h5")
    synthetic_fleet.write_fleet(path, 16, seed=5)
    node_edit(path, "rome04", 2, memory_bytes=48 * GIB)
    proc, doc = verdicts(path, tmp_path, "--fail-on-outliers")
    assert doc["outliers"] == []
    assert [(d["host"], d["reason"]) for d in doc["degraded"]] == [
        ("rome04", "node 2 has 48 GiB where its type has 64 GiB")]
    assert proc.returncode == 1, proc.stdout + proc.stderr


def test_core_offline_is_degraded(tmp_path):
    path = str(tmp_path / "f.h5")
    synthetic_fleet.write_fleet(path, 16, seed=6)
    fleet_edits.set_host(path, "icx05", cores=63, pus=126, fingerprint="0123456789abcdef")
    node_edit(path, "icx05", 1, cpus=62)
    proc, doc = verdicts(path, tmp_path, "--fail-on-outliers")
    assert {t["hosts"] for t in doc["node_types"]} == {8}
    assert [(d["host"], d["reason"]) for d in doc["degraded"]] == [
        ("icx05", "63 cores where its type has 64; node 1 has 62 CPUs where its type has 64")]
    assert proc.returncode == 1


def test_memory_jitter_is_not_degraded(tmp_path):
    """2% less MemTotal (firmware, a crash kernel, a hotplugged block) is no lost DIMM."""
    path = str(tmp_path / "f.h5")
    synthetic_fleet.write_fleet(path, 16, seed=6)
    node_edit(path, "icx02", 0, memory_bytes=int(0.98 * 64 * GIB))
    fleet_edits.set_host(path, "icx02", fingerprint="0123456789abcdef")
    proc, doc = verdicts(path, tmp_path, "--fail-on-outliers")
    assert doc["degraded"] == [] and proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("host,node", [("icx04", 1), ("rome06", 2)], ids=["2-node", "4-node"])
def test_slow_node_is_named(tmp_path, host, node):
    """One NUMA node at 60% of its local bandwidth: on a host of four nodes the median over
    nodes does not move, so only the node's own verdict can name it."""
    path = str(tmp_path / "f.h5")
    synthetic_fleet.write_fleet(path, 20, seed=7)
    slow_node(path, host, node, 0.6)
    proc, doc = verdicts(path, tmp_path, "--fail-on-outliers")
    named = {(o["host"], o["metric_key"], o["node"]) for o in doc["outliers"] if o["node"]}
    assert named == {(host, "bw_read_local_gbs", f"node {node}"),
                     (host, "bw_triad_local_gbs", f"node {node}")}, doc["outliers"]
    assert all(-45 < o["deviation_pct"] < -35 for o in doc["outliers"] if o["node"])
    assert f"bandwidth read local, node {node}" in proc.stdout
    assert proc.returncode == 1


def test_remote_latency_outlier(tmp_path):
    path = str(tmp_path / "f.h5")
    synthetic_fleet.write_fleet(path, 20, seed=8, factors={"rome03": {"latency_remote": 1.4}})
    proc, doc = verdicts(path, tmp_path, "--fail-on-outliers")
    whole = [(o["host"], o["metric_key"]) for o in doc["outliers"] if not o["node"]]
    assert whole == [("rome03", "latency_remote_ns")], doc["outliers"]
    # Its one remote pair class is the host as a whole: no second verdict says it again.
    assert [o for o in doc["outliers"] if o["node"]] == []
    assert proc.returncode == 1


def third_type(path, hosts):
    """@p hosts made another CPU model (whose label sorts first): a third node type."""
    for h in hosts:
        fleet_edits.set_host(path, h, cpu_model="AMD EPYC 7543 32-Core Processor",
                             node_type="AMD EPYC 7543 1S/4N/64C 512G",
                             fingerprint="7543754375437543")


def test_reference_is_the_largest_type_never_a_small_one(tmp_path):
    """12 icx, 9 rome and 3 hosts of a third type, whose label sorts first: the reference is
    icx (the largest); the 3-host type is too small to be it, even when named."""
    path = str(tmp_path / "f.h5")
    synthetic_fleet.write_fleet(path, 24, seed=9)
    third_type(path, ["rome10", "rome11", "rome12"])
    small = "AMD EPYC 7543 1S/4N/64C 512G"
    proc, doc = verdicts(path, tmp_path)
    assert doc["too_small"] == [{"type": small, "hosts": 3}]
    assert doc["comparison"]["reference_type"] == ICX, doc["comparison"]["reference_type"]
    _, doc = verdicts(path, tmp_path, "--reference-type", ROME)
    assert doc["comparison"]["reference_type"] == ROME
    proc = run_report(path, "--no-report", "--reference-type", small)
    assert proc.returncode == 2 and "too small to be the reference" in proc.stderr, proc.stderr


def test_gate_does_not_pass_hosts_it_could_not_judge(tmp_path):
    path = str(tmp_path / "f.h5")
    synthetic_fleet.write_fleet(path, 24, seed=9)
    third_type(path, ["rome10", "rome11", "rome12"])
    proc, doc = verdicts(path, tmp_path, "--fail-on-outliers")
    assert proc.returncode == 2 and doc["exit_status"] == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines == ["numaprobe-report: not judged: 3 host(s) in node types too small to judge "
                     "(fewer than --min-hosts 5 hosts): rome10, rome11, rome12"], lines
    assert proc.stdout.strip().splitlines()[-1].endswith("exit 2: not judged (--fail-on-outliers"
                                                         ": hosts in node types too small to "
                                                         "judge)")
    # Without the gate the report goes on: shown, not judged, exit 0.
    assert run_report(path, "--no-report").returncode == 0


def test_memory_hotplug_makes_no_new_type(tmp_path):
    """The same hosts measured three nights, one VM's memory changed by hotplug each night (and
    with it the binary's fingerprint and label): one type each, however many runs."""
    paths = []
    for night, gib in enumerate((64, 72, 56)):
        path = str(tmp_path / f"n{night}.h5")
        synthetic_fleet.write_fleet(path, 10, seed=10 + night,
                                    start_utc=f"2026-01-0{night + 1}T00:00:00Z")
        node_edit(path, "icx02", 0, memory_bytes=gib * GIB)
        fleet_edits.set_host(path, "icx02", fingerprint=f"{gib:016x}",
                             node_type=ICX.replace("256G", f"{192 + gib}G"))
        paths.append(path)
    out = tmp_path / "v.json"
    proc = run_report(*paths, "--all-runs", "--no-report", "--json", out)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(out.read_text())
    assert sorted(t["hosts"] for t in doc["node_types"]) == [15, 15], doc["node_types"]


def test_short_names_and_fqdns_are_one_host(tmp_path):
    """One night's files name the hosts by short name, the next night's by FQDN: the same
    hosts, counted once (the latest run), and a note says so."""
    first, second = str(tmp_path / "a.h5"), str(tmp_path / "b.h5")
    synthetic_fleet.write_fleet(first, 10, seed=11, start_utc="2026-01-01T00:00:00Z")
    synthetic_fleet.write_fleet(second, 10, seed=12, start_utc="2026-01-02T00:00:00Z",
                                host_suffix=".example.org")
    out = tmp_path / "v.json"
    proc = run_report(first, second, "--no-report", "--json", out)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(out.read_text())
    assert len(doc["hosts"]) == 10, [h["host"] for h in doc["hosts"]]
    assert all(h["host"].endswith(".example.org") for h in doc["hosts"])
    assert "named by their short name in some files and by their FQDN in others" in proc.stdout


def test_lost_node_is_degraded(tmp_path):
    """rome06 lists three NUMA nodes where its 4-node type has four (a node gone with its DIMMs
    and cores): a degraded member of its type, named, not a type of its own."""
    path = str(tmp_path / "f.h5")
    synthetic_fleet.write_fleet(path, 20, seed=6)
    rank = fleet_edits.ranks_of(path)["rome06"]
    fleet_edits.edit(path, "numa_nodes",
                     lambda rows: rows[~((rows["rank"] == rank) & (rows["node"] == 3))])
    fleet_edits.edit(path, "distances", lambda rows: rows[~(
        (rows["rank"] == rank) & ((rows["from_node"] == 3) | (rows["to_node"] == 3)))])
    fleet_edits.set_host(path, "rome06", numa_nodes=3, cores=48, pus=96,
                         fingerprint="0123456789abcdef")
    proc, doc = verdicts(path, tmp_path, "--fail-on-outliers")
    assert sorted(t["hosts"] for t in doc["node_types"]) == [10, 10], doc["node_types"]
    reasons = {d["host"]: d["reason"] for d in doc["degraded"]}
    assert "3 NUMA node(s) where its type has 4" in reasons.get("rome06", ""), reasons
    assert proc.returncode == 1
