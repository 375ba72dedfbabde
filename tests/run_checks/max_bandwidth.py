# SPDX-License-Identifier: BSD-3-Clause
"""max_bandwidth's rows in a whole run's file (collected by tests/test_run_results.py), and
the whole-run row a node row belongs to (whose samples its counters ran as long as)."""

from collections import Counter, defaultdict

import pytest

from .common import PLACED, assert_none, cpulist, node_cpus, text


def test_max_bandwidth_rows(tables, config):
    """max_bandwidth's rows: on each host's first rank, one whole-run row per kernel and layout
    (each node its own memory; node i on node (i + N/2) mod N's, not applicable with one node),
    each followed by one row per node with usable cores and memory, measured in the same run:
    every such node once, on its own memory or on a permutation of the others', its threads on
    its CPUs and adding up to the run's, its pages where bound. Off, no row at all."""
    c = config["max_bandwidth"]
    rows = sorted((r for r in tables["bandwidth"] if text(r["experiment"]) == "max_bandwidth"),
                  key=lambda r: (int(r["rank"]), int(r["measurement"])))
    if not c["enabled"]:
        assert not rows, f"max_bandwidth is off in the config, yet {len(rows)} row(s)"
        return
    homes, cpus = defaultdict(set), node_cpus(tables)
    for n in tables["numa_nodes"]:
        if int(n["usable_cores"]) > 0 and int(n["memory_bytes"]) > 0 and int(n["mem_allowed"]):
            homes[int(n["rank"])].add(int(n["node"]))
    wrong, runs = [], []
    for r in rows:
        if int(r["cpu_node"]) < 0:
            runs.append((r, []))
        elif not runs or runs[-1][0]["rank"] != r["rank"]:
            wrong.append(f"rank {r['rank']} node row {r['measurement']} follows no whole run")
        else:
            runs[-1][1].append(r)
    measured = Counter()
    for whole, nodes in runs:
        rank = int(whole["rank"])
        where = (f"/bandwidth max_bandwidth rank {rank} {text(whole['kernel'])} "
                 f"{text(whole['pair_class'])}")
        if text(whole["status"]) == "not_applicable":
            if nodes or not text(whole["note"]):
                wrong.append(f"{where}: not applicable, {len(nodes)} node rows, note "
                             f"'{text(whole['note'])}'")
            continue
        if text(whole["status"]) != "ok":
            wrong.append(f"{where}: {text(whole['status'])}: {text(whole['note'])}")
            continue
        link = text(whole["pair_class"]) != "local"
        measured[(rank, text(whole["kernel"]), link)] += 1
        if link and not c["link"]:
            wrong.append(f"{where}: a link run, with link: false")
        pairs = {int(n["cpu_node"]): int(n["mem_node"]) for n in nodes}
        if len(pairs) != len(nodes) or set(pairs) != homes[rank]:
            wrong.append(f"{where}: node rows {sorted(pairs)}, want {sorted(homes[rank])}")
        if sorted(pairs.values()) != sorted(pairs) or \
                any((i == j) == link for i, j in pairs.items()):
            wrong.append(f"{where}: memory nodes {pairs}")
        if sum(int(n["threads"]) for n in nodes) != int(whole["threads"]):
            wrong.append(f"{where}: node rows' threads do not add up to {whole['threads']}")
        if not float(whole["pages_on_target_frac"]) >= PLACED:
            wrong.append(f"{where}: pages_on_target_frac {float(whole['pages_on_target_frac'])}")
        for n in nodes:
            at = f"{where} node {n['cpu_node']}->{n['mem_node']}"
            if text(n["status"]) != "ok" or not float(n["pages_on_target_frac"]) >= PLACED:
                wrong.append(f"{at}: {text(n['status'])}, {float(n['pages_on_target_frac'])} "
                             f"of pages where bound: {text(n['note'])}")
            if not cpulist(text(n["cpus"])) <= cpus.get((rank, int(n["cpu_node"])), set()):
                wrong.append(f"{at}: threads ran on {text(n['cpus'])}")
    assert measured, "max_bandwidth is on, yet no ok whole-run row"
    wrong += [f"{k}: measured {n} times" for k, n in measured.items() if n != 1]
    assert_none(wrong)


@pytest.fixture(scope="module")
def whole_run_of(tables):
    """A max_bandwidth node row's whole-run row, by (rank, measurement): its threads' counters
    ran as long as the whole run's samples, waits for the slower nodes included."""
    whole, of = None, {}
    for r in sorted(tables["bandwidth"], key=lambda r: (int(r["rank"]), int(r["measurement"]))):
        if text(r["experiment"]) != "max_bandwidth":
            continue
        if int(r["cpu_node"]) < 0:
            whole = r
        elif whole is not None and whole["rank"] == r["rank"]:
            of[(int(r["rank"]), int(r["measurement"]))] = whole
    return of
