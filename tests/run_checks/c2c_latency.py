# SPDX-License-Identifier: BSD-3-Clause
"""c2c_latency's rows in a whole run's file (collected by tests/test_run_results.py)."""

from collections import defaultdict

from .common import PLACED, assert_none, cpulist, node_cpus, text

C2C_CLASSES = ("smt", "same_l2", "same_l3", "same_node", "same_package", "cross_package")


def test_c2c_rows(tables, config):
    """c2c_latency's rows: each ok row's two threads ran on its two CPUs and no other, each CPU
    on the node the row names (/numa_nodes), the lines' pages on cpu_a's node, a known class,
    and both transfers (hitm, and hit where asked) for every pair. A host without an ok row
    says why in a not_applicable row. With c2c_latency off, no row at all."""
    rows = tables.get("c2c_latency", [])
    if not config["c2c_latency"]["enabled"]:
        assert len(rows) == 0, f"c2c_latency is off in the config, yet {len(rows)} row(s)"
        return
    cpus = node_cpus(tables)
    wrong, transfers, hosts_ok, hosts_why = [], defaultdict(set), set(), set()
    for r in rows:
        where = f"/c2c_latency rank {int(r['rank'])} measurement {int(r['measurement'])}"
        status, host = text(r["status"]), text(r["hostname"])
        if status == "not_applicable" and text(r["note"]).startswith("not applicable"):
            hosts_why.add(host)
        if status != "ok":
            continue
        hosts_ok.add(host)
        rank, a, b = int(r["rank"]), int(r["cpu_a"]), int(r["cpu_b"])
        if not a < b:
            wrong.append(f"{where}: cpu_a {a} not below cpu_b {b}")
        if cpulist(text(r["cpus"])) != {a, b}:
            wrong.append(f"{where}: threads ran on {text(r['cpus'])}, not CPUs {a} and {b}")
        for cpu, node in ((a, int(r["node_a"])), (b, int(r["node_b"]))):
            if cpu not in cpus.get((rank, node), set()):
                wrong.append(f"{where}: CPU {cpu} is not on node {node}")
        if text(r["pair_class"]) not in C2C_CLASSES:
            wrong.append(f"{where}: pair_class {text(r['pair_class'])}")
        if not float(r["pages_on_target_frac"]) >= PLACED:
            wrong.append(f"{where}: pages_on_target_frac {float(r['pages_on_target_frac'])}")
        if not 0 < r["latency_ns_min"] <= r["latency_ns_median"] <= r["latency_ns_max"]:
            wrong.append(f"{where}: latencies out of order")
        transfers[(host, a, b)].add(text(r["transfer"]))
    want = {"hitm", "hit"} if config["c2c_latency"]["hit"] else {"hitm"}
    wrong += [f"pair {pair}: transfers {sorted(t)}, want {sorted(want)}"
              for pair, t in transfers.items() if t != want]
    hostnames = {text(h) for h in tables["hosts"]["hostname"]}
    wrong += [f"host {h}: no ok c2c_latency row and no reason"
              for h in sorted(hostnames - hosts_ok - hosts_why)]
    assert_none(wrong)
