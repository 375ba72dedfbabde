# SPDX-License-Identifier: BSD-3-Clause
"""injection's rows in a whole run's file (collected by tests/test_run_results.py)."""

from collections import Counter, defaultdict

from .common import PLACED, assert_none, cpulist, node_cpus, text

NT_MIXES = ("triad_nt", "copy_nt", "write_nt")


def test_injection_rows(tables, config):
    """injection's rows: every CPU node it measured streamed every memory node the config's
    pairs name (its own alone for `pairs: local`) with every mix the config lists, the
    non-temporal ones too where nt_writes is on, each pair and mix once; bound, on the pair's
    node, the mixes' bus bytes their program bytes (they write only lines they read). With
    injection off, no row at all."""
    c = config["injection"]
    rows = [r for r in tables["bandwidth"] if text(r["experiment"]) == "injection"]
    if not c["enabled"]:
        assert not rows, f"injection is off in the config, yet {len(rows)} row(s)"
        return
    want = set(c["kernels"]) | (set(NT_MIXES) if c["nt_writes"] else set())
    cpus = node_cpus(tables)
    wrong, mixes, memory = [], defaultdict(Counter), defaultdict(set)
    for r in rows:
        rank, cpu, mem = int(r["rank"]), int(r["cpu_node"]), int(r["mem_node"])
        where = f"/bandwidth injection rank {rank} n{cpu}>m{mem} {text(r['kernel'])}"
        if text(r["status"]) != "ok":
            continue
        mixes[(rank, cpu, mem)][text(r["kernel"])] += 1
        memory[(rank, cpu)].add(mem)
        if text(r["mem_policy"]) != "bind":
            wrong.append(f"{where}: mem_policy {text(r['mem_policy'])}")
        if c["pairs"] == "local" and cpu != mem:
            wrong.append(f"{where}: a remote pair, with pairs: local")
        if text(r["kernel"]).startswith("mix_") and int(r["bus_bytes"]) != int(r["program_bytes"]):
            wrong.append(f"{where}: bus bytes {int(r['bus_bytes'])} beside program bytes "
                         f"{int(r['program_bytes'])}")
        if not cpulist(text(r["cpus"])) <= cpus.get((rank, cpu), set()):
            wrong.append(f"{where}: threads ran on {text(r['cpus'])}, outside node {cpu}")
        if not float(r["pages_on_target_frac"]) >= PLACED:
            wrong.append(f"{where}: pages_on_target_frac {float(r['pages_on_target_frac'])}")
    assert mixes, "injection is on, yet no ok injection row"
    wrong += [f"pair {pair}: mixes {dict(m)}, want each of {sorted(want)} once"
              for pair, m in mixes.items() if set(m) != want or max(m.values()) != 1]
    if c["pairs"] == "all":
        nodes = set().union(*memory.values())
        wrong += [f"rank {rank} node {cpu}: memory nodes {sorted(m)}, want {sorted(nodes)}"
                  for (rank, cpu), m in memory.items() if m != nodes]
    assert_none(wrong)
