#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks a results file numaprobe wrote inside a vm-run guest against the guest's known
layout: N CPU nodes of C/N vCPUs, K memory-only nodes, SLIT distances as vm-run sets them."""

import argparse
import sys
from collections import Counter, defaultdict

from guest_results import Failures, tables, text

PLACED = 0.99


class Layout:
    """The guest vm-run boots: N CPU nodes, grouped into packages (0: one package per node),
    and the SLIT it gives each pair."""

    def __init__(self, nodes, packages=0, slit_package=12, slit_cross=32):
        self.nodes, self.packages = nodes, packages
        self.slit_package, self.slit_cross = slit_package, slit_cross

    def package(self, i):
        return i // (self.nodes // self.packages) if self.packages else i

    def distance(self, i, j):
        if i == j:
            return 10
        if i >= self.nodes or j >= self.nodes:
            return 31
        if self.packages:
            return self.slit_package if self.package(i) == self.package(j) else self.slit_cross
        return 10 + 10 * abs(i - j) + 1

    def pair_class(self, i, j):
        if i == j:
            return "local"
        if j >= self.nodes:
            return "memory_only"
        return "same_package" if self.package(i) == self.package(j) else "cross_package"


def layout_options(p):
    p.add_argument("--packages", type=int, default=0,
                   help="vm-run --packages: CPU nodes grouped into this many packages")
    p.add_argument("--slit-package", type=int, default=12)
    p.add_argument("--slit-cross", type=int, default=32)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("file")
    p.add_argument("--nodes", type=int, required=True)
    p.add_argument("--memonly", type=int, default=0)
    p.add_argument("--ranks", type=int, default=1)
    p.add_argument("--cpus", type=int, required=True)
    p.add_argument("--simd", help="kernel code path every host must report (avx512f/avx2/sse2)")
    p.add_argument("--hmat", action="store_true",
                   help="the guest publishes HMAT as vm-run --hmat sets it")
    p.add_argument("--unprivileged", action="store_true",
                   help="numaprobe ran as an unprivileged user (no SMBIOS, no sysctl, no frames)")
    p.add_argument("--expect-binding", metavar="WORD",
                   help="the first rank's binding_check must contain WORD (e.g. widened)")
    p.add_argument("--shared-node", action="store_true",
                   help="the launcher bound two ranks to the same node (checked: else the test "
                        "of sharing nodes out would pass vacuously)")
    layout_options(p)
    a = p.parse_args()
    layout = Layout(a.nodes, a.packages, a.slit_package, a.slit_cross)
    total = a.nodes + a.memonly
    check = Failures()
    expect = check.expect

    (hosts, nodes, dist, lat, bw, place, numastat, loaded, balancing) = tables(
        a.file, "hosts", "numa_nodes", "distances", "latency", "bandwidth", "placement",
        "numastat", "loaded_latency", "balancing")

    expect(len(hosts) == a.ranks, f"{len(hosts)} /hosts rows, want {a.ranks}")
    for h in hosts:
        if a.simd:
            expect(text(h["simd_path"]) == a.simd, f"rank {h['rank']}: simd_path "
                   f"{text(h['simd_path'])}, want {a.simd}")
        expect(int(h["numa_nodes"]) == total, f"rank {h['rank']}: {h['numa_nodes']} NUMA nodes, "
               f"want {total}")
        expect(int(h["ranks_on_host"]) == a.ranks, f"rank {h['rank']}: ranks_on_host")
        # QEMU's firmware describes its memory in SMBIOS type 17 records, readable by root only.
        expect(text(h["dimms"]).endswith("(smbios)") != a.unprivileged, f"rank {h['rank']}: "
               f"dimms '{text(h['dimms'])}'")

    # The launcher's binding of each rank (usable_cpus) and what numaprobe made of it.
    per_node = a.cpus // a.nodes

    def launcher_nodes(h):
        cpus = set()
        for part in text(h["usable_cpus"]).split(","):
            lo, _, hi = part.partition("-")
            cpus.update(range(int(lo), int(hi or lo) + 1))
        return {c // per_node for c in cpus}

    if a.expect_binding:
        first = [h for h in hosts if int(h["rank"]) == 0]
        expect(first and a.expect_binding in text(first[0]["binding_check"]),
               f"rank 0's binding_check lacks '{a.expect_binding}': "
               f"{text(first[0]['binding_check']) if first else 'no row'}")
    if a.shared_node:
        bound = {int(h["rank"]): launcher_nodes(h) for h in hosts}
        shared = [(r, q) for r in bound for q in bound if r < q and bound[r] & bound[q]]
        expect(len(shared) > 0, f"no two ranks share a node: launcher bindings {bound}")

    # Topology as recorded: CPUs per node, memory-only nodes without CPUs, firmware distances.
    for n in nodes:
        want = a.cpus // a.nodes if n["node"] < a.nodes else 0
        expect(int(n["cpus"]) == want, f"rank {n['rank']} node {n['node']}: {n['cpus']} CPUs, "
               f"want {want}")
        if n["node"] < a.nodes:
            expect(int(n["package"]) == layout.package(int(n["node"])),
                   f"rank {n['rank']} node {n['node']}: package {n['package']}, want "
                   f"{layout.package(int(n['node']))}")
    for d in dist:
        want = layout.distance(int(d["from_node"]), int(d["to_node"]))
        expect(int(d["slit"]) == want, f"distance {d['from_node']}->{d['to_node']} = "
               f"{d['slit']}, want {want}")
    expect(len(dist) == a.ranks * total * total, "distance matrix incomplete")
    # HMAT, where the guest has one: vm-run gives latency 10 x distance ns and bandwidth
    # 100000 / distance MiB/s. Linux publishes only each node's best initiators, so other pairs
    # may be 0 (unknown); every figure recorded must be the firmware's, and local ones present.
    for d in dist:
        i, j = int(d["from_node"]), int(d["to_node"])
        hmat_ns, hmat_mibs = int(d["hmat_latency_ns"]), int(d["hmat_bandwidth_mibs"])
        want = layout.distance(i, j)
        if not a.hmat:
            expect(hmat_ns == 0 and hmat_mibs == 0, f"HMAT {i}->{j} without one in the guest")
            continue
        if i == j and i < a.nodes:
            expect(hmat_ns > 0 and hmat_mibs > 0, f"HMAT {i}->{j}: local figures missing")
        expect(hmat_ns in (0, 10 * want), f"HMAT latency {i}->{j} = {hmat_ns}, want {10 * want}")
        expect(hmat_mibs in (0, 100000 // want),
               f"HMAT bandwidth {i}->{j} = {hmat_mibs}, want {100000 // want}")

    # Pages of every measurement, by node.
    pages = defaultdict(Counter)
    for r in place:
        pages[(int(r["rank"]), int(r["measurement"]))][int(r["node"])] += int(r["pages"])

    measured = Counter()
    for table, rows in (("latency", lat), ("bandwidth", bw)):
        for r in rows:
            where = (f"/{table} {text(r['experiment'])} rank {r['rank']} cpu {r['cpu_node']} "
                     f"mem {r['mem_node']} {text(r['mem_policy'])}")
            status, policy = text(r["status"]), text(r["mem_policy"])
            if status == "not_applicable":
                expect(len(text(r["note"])) > 0, f"{where}: no reason")
                continue
            expect(status == "ok", f"{where}: {status}: {text(r['note'])}")
            if text(r["experiment"]) == "first_touch":
                continue  # its placement has rules of its own, checked below
            on = pages[(int(r["rank"]), int(r["measurement"]))]
            total_pages = sum(on.values())
            expect(total_pages * 4096 >= int(r["size_bytes"]), f"{where}: placement incomplete")
            matrix = text(r["experiment"]).endswith("_matrix")
            kernel = text(r["kernel"]) if table == "bandwidth" else "chase"
            if matrix:
                measured[(table, kernel, int(r["cpu_node"]), int(r["mem_node"]), policy)] += 1
            if policy in ("bind", "preferred", "first_touch"):
                frac = on[int(r["mem_node"])] / max(total_pages, 1)
                expect(frac >= PLACED, f"{where}: {frac:.3f} of pages on node {r['mem_node']}")
                expect(int(r["cpu_node"]) < a.nodes, f"{where}: threads on a node without CPUs")
            elif policy == "interleave":
                share = total_pages / total
                for node in range(total):
                    expect(abs(on[node] - share) <= 0.05 * share + 512,
                           f"{where}: interleave put {on[node]} pages on node {node}, "
                           f"expected about {share:.0f}")
            if table == "bandwidth":
                expect(int(r["threads_pinned_ok"]) == 1, f"{where}: threads not where pinned")
                if matrix:
                    expect(int(r["threads"]) == a.cpus // a.nodes,
                           f"{where}: {r['threads']} threads")
            if matrix and policy == "bind":
                i, j = int(r["cpu_node"]), int(r["mem_node"])
                want = layout.pair_class(i, j)
                expect(text(r["pair_class"]) == want, f"{where}: pair class "
                       f"{text(r['pair_class'])}, want {want}")
                expect(int(r["slit"]) == layout.distance(i, j),
                       f"{where}: slit {r['slit']} beside the measurement")

    # The whole grid, each cell exactly once across the host's ranks: every CPU node to every
    # node with memory (memory-only ones included), and each policy from every CPU node.
    for (table, kernel) in {(k[0], k[1]) for k in measured}:
        for i in range(a.nodes):
            for j in range(total):
                expect(measured[(table, kernel, i, j, "bind")] == 1,
                       f"/{table} {kernel}: pair {i}->{j} measured "
                       f"{measured[(table, kernel, i, j, 'bind')]} times")
            if total > 1:
                expect(measured[(table, kernel, i, -1, "interleave")] == 1,
                       f"/{table} {kernel}: interleave from node {i} measured "
                       f"{measured[(table, kernel, i, -1, 'interleave')]} times")
    expect(any(k[0] == "latency" for k in measured), "no latency matrix")
    expect(any(k[0] == "bandwidth" for k in measured), "no bandwidth matrix")
    for r in lat:
        if int(r["cpu_node"]) >= a.nodes and text(r["experiment"]) == "latency_matrix":
            expect("memory-only" in text(r["note"]), f"memory-only node {r['cpu_node']} row: "
                   f"{text(r['note'])}")

    # The kernel's own counters agree: remote bound pages were allocated on node j by a task on
    # another node; interleaved pages were counted as interleave hits.
    counters = defaultdict(dict)
    for r in numastat:
        counters[(int(r["rank"]), int(r["measurement"]))][int(r["node"])] = r
    for r in lat:
        if text(r["experiment"]) != "latency_matrix" or text(r["status"]) != "ok":
            continue
        c = counters[(int(r["rank"]), int(r["measurement"]))]
        pages_wanted = 0.9 * int(r["size_bytes"]) / 4096
        where = f"/numastat for latency cpu {r['cpu_node']} mem {r['mem_node']}"
        if text(r["mem_policy"]) == "bind" and int(r["cpu_node"]) != int(r["mem_node"]):
            other = int(c[int(r["mem_node"])]["other_node"]) if c else 0
            expect(other >= pages_wanted, f"{where}: other_node grew by {other} pages")
        if text(r["mem_policy"]) == "interleave":
            hits = sum(int(v["interleave_hit"]) for v in c.values())
            expect(hits >= pages_wanted, f"{where}: interleave_hit grew by {hits} pages")

    # first_touch, the textbook experiment: serial init from node A puts every page on A; the
    # kernel's own schedule and explicit binding put every page beside its reader; a mismatched
    # schedule puts none there; interleave spreads them evenly.
    modes = Counter()
    for r in bw:
        if text(r["experiment"]) != "first_touch" or text(r["status"]) == "not_applicable":
            continue
        mode, local = text(r["init_mode"]), float(r["pages_on_target_frac"])
        on = pages[(int(r["rank"]), int(r["measurement"]))]
        where = f"first_touch {mode} {text(r['mem_policy'])} node {r['mem_node']}"
        modes[mode] += 1
        if mode == "serial":
            expect(on[int(r["mem_node"])] == sum(on.values()), f"{where}: pages {dict(on)}")
        elif text(r["mem_policy"]) == "interleave":
            share = sum(on.values()) / total
            expect(all(abs(on[n] - share) <= 0.05 * share + 512 for n in range(total)),
                   f"{where}: uneven {dict(on)}")
        elif mode in ("threaded", "bound"):
            expect(local >= 0.99, f"{where}: only {local:.3f} of pages beside their reader")
        elif mode == "mismatched":
            expect(local <= 0.01, f"{where}: {local:.3f} of pages beside their reader")
    if a.nodes > 1:
        expect(modes["serial"] == a.nodes and modes["threaded"] == 2 and modes["mismatched"] == 1
               and modes["bound"] == 1, f"first_touch modes measured: {dict(modes)}")

    # loaded_latency: for every CPU node (2 cores each here, so one load thread), one curve per
    # delay on its own memory, every point valid, its chase pages on that node.
    curves, points = Counter(), Counter()
    for r in loaded:
        where = f"loaded_latency cpu {r['cpu_node']} mem {r['mem_node']} delay {r['delay_spins']}"
        if text(r["status"]) == "not_applicable":
            continue
        expect(text(r["status"]) == "ok", f"{where}: {text(r['status'])}: {text(r['note'])}")
        expect(int(r["load_threads"]) == a.cpus // a.nodes - 1, f"{where}: load threads")
        expect(float(r["pages_on_target_frac"]) >= PLACED, f"{where}: chase pages off node")
        expect(float(r["load_gbs"]) > 0 and float(r["latency_ns_median"]) > 0, f"{where}: values")
        curves[int(r["cpu_node"])] += 1
        points[(int(r["cpu_node"]), int(r["mem_node"]), int(r["delay_spins"]))] += 1
    for point, count in points.items():
        expect(count == 1, f"loaded_latency cpu {point[0]} mem {point[1]} delay {point[2]}: "
               f"measured {count} times")
    if a.cpus // a.nodes >= 2:
        for i in range(a.nodes):
            expect(curves[i] >= 2, f"loaded_latency: node {i} has {curves[i]} curve points")

    # numa_balancing: a time series with the kernel's balancing off and one with it on, made by
    # the host's first rank. Off, no page may move; on, pages may move towards the threads (how
    # soon is the kernel's business, so it is not asserted).
    # Under --bind-to numa the first rank widens its binding to make it; the others say why not.
    # Unprivileged, the setting cannot be changed: one row per setting says so.
    if a.nodes > 1 and a.unprivileged:
        for r in balancing:
            expect(text(r["status"]) == "not_applicable" and "cannot set" in text(r["note"]),
                   f"balancing unprivileged: {text(r['status'])} {text(r['note'])}")
    if a.nodes > 1 and not a.unprivileged:
        series = defaultdict(list)
        for r in balancing:
            if int(r["rank"]) != 0:
                expect(text(r["status"]) == "not_applicable" and len(text(r["note"])) > 0,
                       f"balancing on rank {r['rank']}: {text(r['status'])}")
                continue
            expect(text(r["status"]) == "ok", f"balancing: {text(r['status'])} {text(r['note'])}")
            series[int(r["numa_balancing"])].append(r)
        expect(sorted(series) == [0, 1], f"balancing series for settings {sorted(series)}")
        for setting, rows in series.items():
            expect(len(rows) >= 2, f"balancing {setting}: {len(rows)} samples")
            for r in rows:
                reported = int(r["pages"]) - int(r["pages_unreported"])
                expect(int(r["pages_on_from"]) + int(r["pages_on_to"]) == reported,
                       f"balancing {setting} t={r['t_s']:.2f}: pages off both nodes")
                if setting == 0:
                    expect(int(r["pages_on_from"]) == reported,
                           f"balancing off, t={r['t_s']:.2f}: {r['pages_on_to']} pages moved")
            # The threads stay on the to node: a page that reached it never goes back, so the
            # share there never falls (pages the scanner had unmapped are not counted as gone).
            rows.sort(key=lambda r: float(r["t_s"]))
            # The kernel's own counters (/proc/vmstat, since the move) tell the same story: on,
            # every page that reached the threads' node was migrated by balancing after a
            # hinting fault; off, the scanner marks no pages, so only the few it marked before
            # the setting changed (in any process, while the guest booted with it on) can still
            # fault and move: system-wide, under 2% of the array's pages.
            last = rows[-1]
            stale = max(64, int(last["pages"]) // 50)
            for column in ("numa_hint_faults", "numa_pages_migrated"):
                counts = [int(r[column]) for r in rows]
                expect(min(counts) >= 0, f"balancing {setting}: {column} unknown ({counts})")
                expect(counts == sorted(counts), f"balancing {setting}: {column} fell ({counts})")
                if setting == 0:
                    expect(counts[-1] <= stale,
                           f"balancing off: {column} grew to {counts[-1]} (at most {stale})")
            if setting == 1 and int(last["pages_on_to"]) > 0:
                expect(int(last["numa_pages_migrated"]) >= int(last["pages_on_to"]),
                       f"balancing on: {last['pages_on_to']} pages reached the threads' node, "
                       f"numa_pages_migrated says {last['numa_pages_migrated']}")
                expect(int(last["numa_hint_faults"]) > 0,
                       "balancing on: pages moved without a hinting fault")
            for before, after in zip(rows, rows[1:]):
                expect(float(after["frac_on_to"]) >= float(before["frac_on_to"]) - 0.005,
                       f"balancing {setting}: share on the threads' node fell from "
                       f"{before['frac_on_to']:.3f} (t={before['t_s']:.2f}) to "
                       f"{after['frac_on_to']:.3f} (t={after['t_s']:.2f})")

    # Sweeps describe the host's caches: made once per host, by its first rank.
    for table, rows in (("latency", lat), ("bandwidth", bw)):
        sweep_ranks = {int(r["rank"]) for r in rows if not text(r["experiment"]).endswith("_matrix")
                       and text(r["status"]) == "ok"}
        expect(sweep_ranks == {0}, f"/{table}: sweeps measured by ranks {sorted(sweep_ranks)}")

    return check.report(a.file)


if __name__ == "__main__":
    sys.exit(main())
