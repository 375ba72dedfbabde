#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks a results file numaprobe wrote inside a guest's cgroup v2 cpuset that holds only one
NUMA node's CPUs and memory (in-cpuset): every node is still listed, the others as not allowed;
every matrix cell outside the cpuset is present and says why it was not measured; what the job
may use is measured, with its pages verified on the allowed node."""

import argparse
import sys
from collections import Counter, defaultdict

from guest_results import Failures, tables, text

PLACED = 0.99


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("file")
    p.add_argument("--nodes", type=int, required=True, help="nodes with CPUs in the guest")
    p.add_argument("--memonly", type=int, default=0)
    p.add_argument("--node", type=int, required=True, help="the node the cpuset holds")
    a = p.parse_args()
    total = a.nodes + a.memonly
    check = Failures()
    expect = check.expect

    (hosts, nodes, lat, bw, place, balancing) = tables(
        a.file, "hosts", "numa_nodes", "latency", "bandwidth", "placement", "balancing")

    # The hardware is described whole, whatever the cgroup hides.
    expect(len(hosts) == 1 and int(hosts[0]["numa_nodes"]) == total,
           f"/hosts: {[int(h['numa_nodes']) for h in hosts]} NUMA nodes, want {total}")
    # ... and the confinement is recorded: the cgroup, what it allows, and the binding check.
    h = hosts[0]
    expect(text(h["cpuset_mems"]) == str(a.node), f"cpuset_mems '{text(h['cpuset_mems'])}'")
    expect("numaprobe-job" in text(h["cgroup"]), f"cgroup '{text(h['cgroup'])}'")
    expect(text(h["binding_check"]).startswith("ok:") and
           f"the cgroup allows 1 of {a.nodes} nodes" in text(h["binding_check"]),
           f"binding_check '{text(h['binding_check'])}'")
    expect(sorted(int(n["node"]) for n in nodes) == list(range(total)),
           f"/numa_nodes lists {sorted(int(n['node']) for n in nodes)}")
    for n in nodes:
        k = int(n["node"])
        want_mem = int(k == a.node)
        want_cpus = int(k == a.node or k >= a.nodes)  # a memory-only node has no CPUs to forbid
        expect(int(n["mem_allowed"]) == want_mem, f"node {k}: mem_allowed {n['mem_allowed']}")
        expect(int(n["cpus_allowed"]) == want_cpus, f"node {k}: cpus_allowed {n['cpus_allowed']}")
        expect(int(n["usable_cores"]) == (int(n["cpus"]) if k == a.node else 0),
               f"node {k}: {n['usable_cores']} usable cores")

    pages = defaultdict(Counter)
    for r in place:
        pages[int(r["measurement"])][int(r["node"])] += int(r["pages"])

    # Matrices: the allowed node's own cell measured and verified; every other memory node's
    # cell from it present and "not applicable" for the cpuset; other CPU nodes the same.
    for table, rows in (("latency", lat), ("bandwidth", bw)):
        cells = Counter()
        for r in rows:
            if text(r["experiment"]) != f"{table}_matrix":
                continue
            i, j = int(r["cpu_node"]), int(r["mem_node"])
            policy, status, note = text(r["mem_policy"]), text(r["status"]), text(r["note"])
            where = f"/{table} cpu {i} mem {j} {policy}"
            if policy == "bind":
                cells[(i, j)] += 1
            if i == a.node and j == a.node:
                expect(status == "ok", f"{where}: {status}: {note}")
                on = pages[int(r["measurement"])]
                frac = on[a.node] / max(sum(on.values()), 1)
                expect(frac >= PLACED, f"{where}: {frac:.3f} of pages on node {a.node}")
            elif i != a.node and i < a.nodes:
                expect(status == "not_applicable" and "not in this job's cpuset" in note,
                       f"{where}: {status}: {note}")
            elif i == a.node and policy == "bind":
                expect(status == "not_applicable" and "cpuset.mems" in note,
                       f"{where}: {status}: {note}")
            elif policy == "interleave":
                expect(status == "not_applicable" and "this job may use 1" in note,
                       f"{where}: {status}: {note}")
        expect(cells[(a.node, a.node)] >= 1, f"/{table}: the allowed node's own cell missing")
        for j in range(total):
            if j != a.node:
                expect(cells[(a.node, j)] >= 1, f"/{table}: cell {a.node}->{j} not listed")
        for i in range(a.nodes):
            if i != a.node:
                expect(cells[(i, i)] >= 1, f"/{table}: CPU node {i} not listed")

    # Sweeps run on the allowed node; experiments that need two nodes say why they did not run.
    sweeps = {int(r["cpu_node"]) for r in lat if text(r["experiment"]) == "latency_sweep"}
    expect(sweeps == {a.node}, f"latency_sweep on nodes {sorted(sweeps)}, want [{a.node}]")
    for r in bw:
        if text(r["experiment"]) == "first_touch":
            expect(text(r["status"]) == "not_applicable", f"first_touch: {text(r['status'])}")
    for r in balancing:
        expect(text(r["status"]) == "not_applicable", f"balancing: {text(r['status'])}")

    return check.report(a.file)


if __name__ == "__main__":
    sys.exit(main())
