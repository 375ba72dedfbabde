# SPDX-License-Identifier: BSD-3-Clause
"""The experiments that go past Intel MLC's (mlp, injection, max_bandwidth, c2c_latency) in a
results file numaprobe wrote inside a vm-run guest, against the guest's known layout: each pair
and its class, the CPUs each thread ran on, the pages where bound, the shape of the rows.

    /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider \\
        tests/harness/vm/test_guest_experiments.py --results FILE --nodes N --cpus C \\
        [--memonly K] [--ranks R] [--packages P ...] [...]

numaprobe-in-vm.sh runs it after each guest run, beside test_guest_placement.py."""

from collections import Counter

import pytest

from guest_results import assert_none, cpus_of, guest_of, tables, text

pytestmark = pytest.mark.needs_options("results", "nodes", "cpus")

PLACED = 0.99


@pytest.fixture(scope="module")
def guest(pytestconfig):
    return guest_of(pytestconfig)


@pytest.fixture(scope="module")
def t(results):
    return tables(results, "latency", "bandwidth", "c2c_latency")


def test_mlp(t, guest):
    """Every CPU node's core chases every node's memory (memory-only nodes too) once per chain
    count, the pair classed as the layout says, the chase on that node's CPUs, the chain count
    the pattern's, its pages where bound."""
    per_node = guest.cpus // guest.nodes
    points, wrong = Counter(), []
    rows = [r for r in t["latency"] if text(r["experiment"]) == "mlp"]
    for r in rows:
        i, j = int(r["cpu_node"]), int(r["mem_node"])
        at = f"mlp cpu {i} mem {j} {text(r['pattern'])}"
        if text(r["status"]) == "not_applicable":
            continue
        if text(r["status"]) != "ok":
            wrong.append(f"{at}: {text(r['status'])}: {text(r['note'])}")
            continue
        if text(r["pattern"]) != f"parallel:{r['chains']}":
            wrong.append(f"{at}: chains {r['chains']}")
        if text(r["pair_class"]) != guest.layout.pair_class(i, j):
            wrong.append(f"{at}: pair class {text(r['pair_class'])}, want "
                         f"{guest.layout.pair_class(i, j)}")
        if not cpus_of(text(r["cpus"])) <= set(range(i * per_node, (i + 1) * per_node)):
            wrong.append(f"{at}: ran on CPUs {text(r['cpus'])}")
        if float(r["pages_on_target_frac"]) < PLACED:
            wrong.append(f"{at}: {r['pages_on_target_frac']:.3f} of pages on node {j}")
        points[(i, j, int(r["chains"]))] += 1
    chains = {c for (_, _, c) in points}
    assert chains, "no mlp row measured"
    wrong += [f"mlp cpu {i} mem {j} chains {c}: measured {points[(i, j, c)]} times"
              for i in range(guest.nodes) for j in range(guest.total) for c in chains
              if points[(i, j, c)] != 1]
    assert_none(wrong)


def test_injection(t, guest):
    """Every CPU node's cores stream every node's memory (memory-only nodes too) once per mix
    across the host's ranks, bound, the pair classed as the layout says, every core of the node
    on its own CPU, the pages where bound, bus bytes beside program bytes."""
    per_node = guest.cpus // guest.nodes
    points, wrong = Counter(), []
    for r in t["bandwidth"]:
        if text(r["experiment"]) != "injection" or text(r["status"]) == "not_applicable":
            continue
        i, j, mix = int(r["cpu_node"]), int(r["mem_node"]), text(r["kernel"])
        at = f"injection {mix} rank {r['rank']} cpu {i} mem {j}"
        if text(r["status"]) != "ok":
            wrong.append(f"{at}: {text(r['status'])}: {text(r['note'])}")
            continue
        if text(r["mem_policy"]) != "bind":
            wrong.append(f"{at}: policy {text(r['mem_policy'])}")
        if text(r["pair_class"]) != guest.layout.pair_class(i, j):
            wrong.append(f"{at}: pair class {text(r['pair_class'])}, want "
                         f"{guest.layout.pair_class(i, j)}")
        if int(r["threads"]) != per_node or int(r["threads_pinned_ok"]) != 1:
            wrong.append(f"{at}: {r['threads']} threads, pinned ok {r['threads_pinned_ok']}")
        if float(r["pages_on_target_frac"]) < PLACED:
            wrong.append(f"{at}: {r['pages_on_target_frac']:.3f} of pages on node {j}")
        if not float(r["bus_gbs_best"]) >= 0.999 * float(r["gbs_best"]) > 0:
            wrong.append(f"{at}: bus {r['bus_gbs_best']} GB/s below program {r['gbs_best']}")
        points[(i, j, mix)] += 1
    mixes = {m for (_, _, m) in points}
    assert mixes, "no injection row measured"
    wrong += [f"injection {m} cpu {i} mem {j}: measured {points[(i, j, m)]} times"
              for i in range(guest.nodes) for j in range(guest.total) for m in mixes
              if points[(i, j, m)] != 1]
    assert_none(wrong)


def test_max_bandwidth(t, guest):
    """max_bandwidth from the host's first rank: per kernel, the run with every node on its own
    memory and the run with node i on node (i + N/2) mod N's, each followed by every CPU node's
    row once (memory-only nodes stream nothing, and the run's note names them as not loaded),
    classed as the layout says, its threads on its node's CPUs, its pages where bound; the link
    run's class is its pairs'."""
    per_node = guest.cpus // guest.nodes
    rows = sorted((r for r in t["bandwidth"] if text(r["experiment"]) == "max_bandwidth"),
                  key=lambda r: (int(r["rank"]), int(r["measurement"])))
    runs, wrong = [], []
    for r in rows:
        if int(r["cpu_node"]) < 0:
            runs.append((r, []))
        elif runs:
            runs[-1][1].append(r)
    layouts = Counter()
    for whole, nodes in runs:
        at = f"max_bandwidth rank {whole['rank']} {text(whole['kernel'])}"
        if text(whole["status"]) == "not_applicable":
            if int(whole["rank"]) == 0 or nodes:
                wrong.append(f"{at}: not applicable: {text(whole['note'])}")
            continue
        if text(whole["status"]) != "ok" or int(whole["rank"]) != 0:
            wrong.append(f"{at}: {text(whole['status'])}: {text(whole['note'])}")
            continue
        link = text(whole["pair_class"]) != "local"
        partner = {i: (i + guest.nodes // 2) % guest.nodes if link else i
                   for i in range(guest.nodes)}
        classes = {guest.layout.pair_class(i, j) for i, j in partner.items()}
        want = classes.pop() if len(classes) == 1 else "mixed"
        if text(whole["pair_class"]) != want:
            wrong.append(f"{at}: class {text(whole['pair_class'])}, want {want}")
        layouts[(text(whole["kernel"]), link)] += 1
        if float(whole["pages_on_target_frac"]) < PLACED:
            wrong.append(f"{at}: {whole['pages_on_target_frac']:.3f} of pages where bound")
        # A memory-only node's memory is in neither layout: the run says so, by node.
        memonly = list(range(guest.nodes, guest.total))
        said = (f"not loaded: memory-only node{'s' if len(memonly) > 1 else ''} "
                f"{','.join(map(str, memonly))}")
        if memonly and said not in text(whole["note"]):
            wrong.append(f"{at}: note {text(whole['note'])!r} does not say {said!r}")
        got = {int(n["cpu_node"]): int(n["mem_node"]) for n in nodes}
        if got != partner or len(nodes) != guest.nodes:
            wrong.append(f"{at}: node rows {sorted(got.items())}, want {sorted(partner.items())}")
        for n in nodes:
            i, j = int(n["cpu_node"]), int(n["mem_node"])
            where = f"{at} node {i}->{j}"
            if text(n["status"]) != "ok":
                wrong.append(f"{where}: {text(n['status'])}: {text(n['note'])}")
                continue
            if text(n["pair_class"]) != guest.layout.pair_class(i, j):
                wrong.append(f"{where}: class {text(n['pair_class'])}")
            if int(n["slit"]) != guest.layout.distance(i, j):
                wrong.append(f"{where}: slit {n['slit']}")
            if int(n["threads"]) != per_node or \
                    not cpus_of(text(n["cpus"])) <= set(range(i * per_node, (i + 1) * per_node)):
                wrong.append(f"{where}: {n['threads']} threads on CPUs {text(n['cpus'])}")
            if float(n["pages_on_target_frac"]) < PLACED:
                wrong.append(f"{where}: {n['pages_on_target_frac']:.3f} of pages on node {j}")
    assert layouts, "no max_bandwidth run measured"
    kernels = {k for (k, _) in layouts}
    wrong += [f"max_bandwidth {k} {'link' if link else 'local'}: measured "
              f"{layouts[(k, link)]} times" for k in kernels for link in (False, True)
              if layouts[(k, link)] != (1 if guest.nodes >= 2 or not link else 0)]
    assert_none(wrong)


def test_c2c(t, guest):
    """c2c_latency per_node, from the host's first rank: in every node it reaches, its first CPU
    with a second one, and the first CPUs of every two nodes, each pair once per transfer; the
    pair classed by node and package as the layout says (the guest's L3 spans its socket, so
    no cache tells nodes apart), the two threads on the pair's CPUs, the lines where bound."""
    per_node = guest.cpus // guest.nodes
    node_of = {cpu: cpu // per_node for cpu in range(guest.cpus)}
    measured, wrong = Counter(), []
    for r in t["c2c_latency"]:
        a, b = int(r["cpu_a"]), int(r["cpu_b"])
        at = f"c2c rank {r['rank']} cpus {a},{b} {text(r['transfer'])}"
        if text(r["status"]) == "not_applicable":
            if int(r["rank"]) == 0 or not text(r["note"]):
                wrong.append(f"{at}: not applicable: {text(r['note'])}")
            continue
        if text(r["status"]) != "ok" or int(r["rank"]) != 0:
            wrong.append(f"{at}: {text(r['status'])}: {text(r['note'])}")
            continue
        i, j = node_of[a], node_of[b]
        if (int(r["node_a"]), int(r["node_b"])) != (i, j):
            wrong.append(f"{at}: nodes {r['node_a']},{r['node_b']}, want {i},{j}")
        want = ({"smt", "same_l2", "same_l3", "same_node"} if i == j
                else {guest.layout.pair_class(i, j)})
        if text(r["pair_class"]) not in want:
            wrong.append(f"{at}: class {text(r['pair_class'])}, want one of {sorted(want)}")
        if cpus_of(text(r["cpus"])) != {a, b}:
            wrong.append(f"{at}: threads ran on {text(r['cpus'])}")
        if float(r["pages_on_target_frac"]) < PLACED:
            wrong.append(f"{at}: {r['pages_on_target_frac']:.3f} of pages on node {i}")
        measured[(i, j, text(r["transfer"]))] += 1
    reached = {i for (i, _, _) in measured} | {j for (_, j, _) in measured}
    assert reached, "no c2c_latency row measured"
    if guest.ranks == 1:
        assert reached == set(range(guest.nodes)), f"c2c reached nodes {sorted(reached)}"
    pairs = [(i, j) for i in sorted(reached) for j in sorted(reached)
             if i < j or (i == j and per_node >= 2)]
    wrong += [f"c2c nodes {i},{j} {x}: measured {measured[(i, j, x)]} times"
              for i, j in pairs for x in ("hitm", "hit") if measured[(i, j, x)] != 1]
    wrong += [f"c2c {k}: not a per_node pair" for k in measured if k[:2] not in pairs]
    assert_none(wrong)
