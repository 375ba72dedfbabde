# SPDX-License-Identifier: BSD-3-Clause
"""A results file numaprobe wrote inside a guest's cgroup v2 cpuset that holds only one NUMA
node's CPUs and memory (in-cpuset): every node is still listed, the others as not allowed; every
matrix cell outside the cpuset is present and says why it was not measured; what the job may use
is measured, with its pages verified on the allowed node.

    /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider \\
        tests/harness/vm/test_guest_cpuset.py --results FILE --nodes N [--memonly K] \\
        --cpuset-node K

numaprobe-in-vm.sh runs it after a guest run with --cpuset-node; the options are
tests/conftest.py's."""

from collections import Counter, defaultdict

import pytest

from guest_results import assert_none, tables, text

pytestmark = pytest.mark.needs_options("results", "nodes", "cpuset_node")

PLACED = 0.99
MATRICES = ("latency", "bandwidth")


@pytest.fixture(scope="module")
def t(results):
    return tables(results, "hosts", "numa_nodes", "latency", "bandwidth", "placement",
                  "balancing")


@pytest.fixture(scope="module")
def nodes(pytestconfig):
    """(CPU nodes, all nodes, the node the cpuset holds)."""
    o = pytestconfig.getoption
    return o("nodes"), o("nodes") + o("memonly"), o("cpuset_node")


def test_hardware_described_whole(t, nodes):
    """The hardware is described whole, whatever the cgroup hides."""
    _, total, _ = nodes
    hosts = t["hosts"]
    assert len(hosts) == 1 and int(hosts[0]["numa_nodes"]) == total, \
        f"/hosts: {[int(h['numa_nodes']) for h in hosts]} NUMA nodes, want {total}"


def test_confinement_recorded(t, nodes):
    """The cgroup, what it allows, and the binding check that saw it."""
    cpu_nodes, _, node = nodes
    h = t["hosts"][0]
    wrong = []
    if text(h["cpuset_mems"]) != str(node):
        wrong.append(f"cpuset_mems '{text(h['cpuset_mems'])}'")
    if "numaprobe-job" not in text(h["cgroup"]):
        wrong.append(f"cgroup '{text(h['cgroup'])}'")
    check = text(h["binding_check"])
    if not (check.startswith("ok:") and f"(on 1 of {cpu_nodes} nodes)" in check
            and "memory on 1 of" in check and "widened" not in check):
        wrong.append(f"binding_check '{check}'")
    assert_none(wrong)


def test_every_node_listed(t, nodes):
    _, total, _ = nodes
    listed = sorted(int(n["node"]) for n in t["numa_nodes"])
    assert listed == list(range(total)), f"/numa_nodes lists {listed}"


def test_nodes_allowed(t, nodes):
    """Only the cpuset's node may be used; a memory-only node has no CPUs to forbid."""
    cpu_nodes, _, node = nodes
    wrong = []
    for n in t["numa_nodes"]:
        k = int(n["node"])
        if int(n["mem_allowed"]) != int(k == node):
            wrong.append(f"node {k}: mem_allowed {n['mem_allowed']}")
        if int(n["cpus_allowed"]) != int(k == node or k >= cpu_nodes):
            wrong.append(f"node {k}: cpus_allowed {n['cpus_allowed']}")
        if int(n["usable_cores"]) != (int(n["cpus"]) if k == node else 0):
            wrong.append(f"node {k}: {n['usable_cores']} usable cores")
    assert_none(wrong)


@pytest.mark.parametrize("table", MATRICES)
def test_matrix_cells(t, nodes, table):
    """The allowed node's own cell measured and its pages verified; every other memory node's
    cell from it present and not applicable for the cpuset; other CPU nodes the same."""
    cpu_nodes, total, node = nodes
    pages = defaultdict(Counter)
    for r in t["placement"]:
        pages[int(r["measurement"])][int(r["node"])] += int(r["pages"])
    cells, wrong = Counter(), []
    for r in t[table]:
        if text(r["experiment"]) != f"{table}_matrix":
            continue
        i, j = int(r["cpu_node"]), int(r["mem_node"])
        policy, status, note = text(r["mem_policy"]), text(r["status"]), text(r["note"])
        where = f"/{table} cpu {i} mem {j} {policy}: {status}: {note}"
        if policy == "bind":
            cells[(i, j)] += 1
        if i == node and j == node:
            if status != "ok":
                wrong.append(where)
            on = pages[int(r["measurement"])]
            frac = on[node] / max(sum(on.values()), 1)
            if frac < PLACED:
                wrong.append(f"/{table} cpu {i} mem {j} {policy}: {frac:.3f} of pages on node "
                             f"{node}")
        elif i != node and i < cpu_nodes:
            if not (status == "not_applicable" and "not in this job's cpuset" in note):
                wrong.append(where)
        elif i == node and policy == "bind":
            if not (status == "not_applicable" and "cpuset.mems" in note):
                wrong.append(where)
        elif policy == "interleave":
            if not (status == "not_applicable" and "this job may use 1" in note):
                wrong.append(where)
    if cells[(node, node)] < 1:
        wrong.append(f"/{table}: the allowed node's own cell missing")
    wrong += [f"/{table}: cell {node}->{j} not listed" for j in range(total)
              if j != node and cells[(node, j)] < 1]
    wrong += [f"/{table}: CPU node {i} not listed" for i in range(cpu_nodes)
              if i != node and cells[(i, i)] < 1]
    assert_none(wrong)


def test_sweeps_on_allowed_node(t, nodes):
    _, _, node = nodes
    sweeps = {int(r["cpu_node"]) for r in t["latency"]
              if text(r["experiment"]) == "latency_sweep"}
    assert sweeps == {node}, f"latency_sweep on nodes {sorted(sweeps)}, want [{node}]"


def test_two_node_experiments_say_why(t):
    """Experiments that need two nodes (first touch, balancing) are not applicable here."""
    wrong = [f"first_touch: {text(r['status'])}" for r in t["bandwidth"]
             if text(r["experiment"]) == "first_touch" and text(r["status"]) != "not_applicable"]
    wrong += [f"balancing: {text(r['status'])}" for r in t["balancing"]
              if text(r["status"]) != "not_applicable"]
    assert_none(wrong)
