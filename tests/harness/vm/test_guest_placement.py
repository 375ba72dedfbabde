# SPDX-License-Identifier: BSD-3-Clause
"""A results file numaprobe wrote inside a vm-run guest, against the guest's known layout: N CPU
nodes of C/N vCPUs, K memory-only nodes, SLIT distances as vm-run sets them. Recorded topology
and distances, verified page placement, interleave spread, thread pinning, the whole matrix
measured once, and the experiments that move pages (first touch, numa_balancing).

    /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider \\
        tests/harness/vm/test_guest_placement.py --results FILE --nodes N --cpus C \\
        [--memonly K] [--ranks R] [--packages P ...] [...]

numaprobe-in-vm.sh runs it after each guest run; the options are tests/conftest.py's."""

from collections import Counter, defaultdict
from statistics import median

import pytest

from guest_results import assert_none, config_seconds, cpus_of, guest_of, tables, text

pytestmark = pytest.mark.needs_options("results", "nodes", "cpus")

PLACED = 0.99
MATRICES = ("latency", "bandwidth")


@pytest.fixture(scope="module")
def guest(pytestconfig):
    return guest_of(pytestconfig)


@pytest.fixture(scope="module")
def t(results):
    return tables(results, "hosts", "numa_nodes", "distances", "latency", "bandwidth",
                  "placement", "numastat", "loaded_latency", "balancing", "c2c_latency")


@pytest.fixture(scope="module")
def pages(t):
    """Pages of every measurement, by (rank, measurement), then by node."""
    on = defaultdict(Counter)
    for r in t["placement"]:
        on[(int(r["rank"]), int(r["measurement"]))][int(r["node"])] += int(r["pages"])
    return on


def where(table, r):
    return (f"/{table} {text(r['experiment'])} rank {r['rank']} cpu {r['cpu_node']} "
            f"mem {r['mem_node']} {text(r['mem_policy'])}")


def own_placement(r):
    """A row whose pages follow rules of their own: first_touch's, and a max_bandwidth run's
    whole row (each chunk bound to its own node; test_guest_experiments.py judges it)."""
    return text(r["experiment"]) == "first_touch" or \
        (text(r["experiment"]) == "max_bandwidth" and int(r["cpu_node"]) < 0)


def tried(t, own=True):
    """The latency and bandwidth rows that were measured or tried: all but not_applicable ones
    (and but those whose placement has rules of its own, unless asked for)."""
    for table in MATRICES:
        for r in t[table]:
            if text(r["status"]) == "not_applicable":
                continue
            if own or not own_placement(r):
                yield table, r


# ---- /hosts -------------------------------------------------------------------------------------

def test_host_rows(t, guest):
    assert len(t["hosts"]) == guest.ranks, f"{len(t['hosts'])} /hosts rows, want {guest.ranks}"


def test_hosts_see_every_node(t, guest):
    assert_none([f"rank {h['rank']}: {h['numa_nodes']} NUMA nodes, want {guest.total}"
                 for h in t["hosts"] if int(h["numa_nodes"]) != guest.total])


def test_ranks_on_host(t, guest):
    assert_none([f"rank {h['rank']}: ranks_on_host {h['ranks_on_host']}, want {guest.ranks}"
                 for h in t["hosts"] if int(h["ranks_on_host"]) != guest.ranks])


def test_simd_path(t, guest):
    if not guest.simd:
        pytest.skip("--simd not given")
    assert_none([f"rank {h['rank']}: simd_path {text(h['simd_path'])}, want {guest.simd}"
                 for h in t["hosts"] if text(h["simd_path"]) != guest.simd])


def test_dimms(t, guest):
    """QEMU's firmware describes its memory in SMBIOS type 17 records, readable by root only."""
    assert_none([f"rank {h['rank']}: dimms '{text(h['dimms'])}'" for h in t["hosts"]
                 if text(h["dimms"]).endswith("(smbios)") == guest.unprivileged])


def test_expect_binding(t, guest):
    """The first rank's binding_check says what numaprobe made of the launcher's binding."""
    if not guest.expect_binding:
        pytest.skip("--expect-binding not given")
    first = [h for h in t["hosts"] if int(h["rank"]) == 0]
    assert first and guest.expect_binding in text(first[0]["binding_check"]), \
        f"rank 0's binding_check lacks '{guest.expect_binding}': " \
        f"{text(first[0]['binding_check']) if first else 'no row'}"


def test_shared_node(t, guest):
    """The launcher bound two ranks to the same node (usable_cpus), as the test meant it to:
    else the test of sharing a node out would pass on nothing."""
    if not guest.shared_node:
        pytest.skip("--shared-node not given")
    per_node = guest.cpus // guest.nodes
    bound = {int(h["rank"]): {c // per_node for c in cpus_of(text(h["usable_cpus"]))}
             for h in t["hosts"]}
    shared = [(r, q) for r in bound for q in bound if r < q and bound[r] & bound[q]]
    assert shared, f"no two ranks share a node: launcher bindings {bound}"


# ---- topology -----------------------------------------------------------------------------------

def test_node_cpus_and_packages(t, guest):
    """CPUs per node (none on a memory-only node), and each CPU node's package."""
    wrong = []
    for n in t["numa_nodes"]:
        node = int(n["node"])
        want = guest.cpus // guest.nodes if node < guest.nodes else 0
        if int(n["cpus"]) != want:
            wrong.append(f"rank {n['rank']} node {node}: {n['cpus']} CPUs, want {want}")
        if node < guest.nodes and int(n["package"]) != guest.layout.package(node):
            wrong.append(f"rank {n['rank']} node {node}: package {n['package']}, want "
                         f"{guest.layout.package(node)}")
    assert_none(wrong)


def test_distances(t, guest):
    """The firmware's distances, the whole matrix for every rank."""
    wrong = [f"distance {d['from_node']}->{d['to_node']} = {d['slit']}, want "
             f"{guest.layout.distance(int(d['from_node']), int(d['to_node']))}"
             for d in t["distances"]
             if int(d["slit"]) != guest.layout.distance(int(d["from_node"]), int(d["to_node"]))]
    if len(t["distances"]) != guest.ranks * guest.total * guest.total:
        wrong.append(f"distance matrix incomplete: {len(t['distances'])} rows")
    assert_none(wrong)


def test_hmat(t, guest):
    """Where the guest has an HMAT, vm-run gives latency 10 x distance ns and bandwidth
    100000 / distance MiB/s. Linux publishes only each node's best initiators, so other pairs
    may be 0 (unknown); every figure recorded must be the firmware's, and local ones present.
    Without one, every figure is 0."""
    wrong = []
    for d in t["distances"]:
        i, j = int(d["from_node"]), int(d["to_node"])
        hmat_ns, hmat_mibs = int(d["hmat_latency_ns"]), int(d["hmat_bandwidth_mibs"])
        want = guest.layout.distance(i, j)
        if not guest.hmat:
            if hmat_ns != 0 or hmat_mibs != 0:
                wrong.append(f"HMAT {i}->{j} without one in the guest")
            continue
        if i == j and i < guest.nodes and not (hmat_ns > 0 and hmat_mibs > 0):
            wrong.append(f"HMAT {i}->{j}: local figures missing")
        if hmat_ns not in (0, 10 * want):
            wrong.append(f"HMAT latency {i}->{j} = {hmat_ns}, want {10 * want}")
        if hmat_mibs not in (0, 100000 // want):
            wrong.append(f"HMAT bandwidth {i}->{j} = {hmat_mibs}, want {100000 // want}")
    assert_none(wrong)


# ---- the matrices -------------------------------------------------------------------------------

def test_rows_ok_or_say_why(t):
    """Every latency and bandwidth row was measured, or says why it does not apply."""
    wrong = [f"{where(table, r)}: no reason" for table in MATRICES for r in t[table]
             if text(r["status"]) == "not_applicable" and not text(r["note"])]
    wrong += [f"{where(table, r)}: {text(r['status'])}: {text(r['note'])}"
              for table, r in tried(t) if text(r["status"]) != "ok"]
    assert_none(wrong)


def test_pages_where_asked(t, guest, pages):
    """Every page of each buffer found, on the node its policy names (its threads on a node
    with CPUs), or spread evenly over every node under interleave."""
    wrong = []
    for table, r in tried(t, own=False):
        on = pages[(int(r["rank"]), int(r["measurement"]))]
        total_pages = sum(on.values())
        policy = text(r["mem_policy"])
        if total_pages * 4096 < int(r["size_bytes"]):
            wrong.append(f"{where(table, r)}: placement incomplete")
        if policy in ("bind", "preferred", "first_touch"):
            frac = on[int(r["mem_node"])] / max(total_pages, 1)
            if frac < PLACED:
                wrong.append(f"{where(table, r)}: {frac:.3f} of pages on node {r['mem_node']}")
            if int(r["cpu_node"]) >= guest.nodes:
                wrong.append(f"{where(table, r)}: threads on a node without CPUs")
        elif policy == "interleave":
            share = total_pages / guest.total
            wrong += [f"{where(table, r)}: interleave put {on[node]} pages on node {node}, "
                      f"expected about {share:.0f}" for node in range(guest.total)
                      if abs(on[node] - share) > 0.05 * share + 512]
    assert_none(wrong)


def test_bandwidth_threads(t, guest):
    """Bandwidth threads ran where they were pinned; a matrix cell uses a node's every core."""
    wrong = []
    for table, r in tried(t, own=False):
        if table != "bandwidth":
            continue
        if int(r["threads_pinned_ok"]) != 1:
            wrong.append(f"{where(table, r)}: threads not where pinned")
        if text(r["experiment"]).endswith("_matrix") and \
                int(r["threads"]) != guest.cpus // guest.nodes:
            wrong.append(f"{where(table, r)}: {r['threads']} threads")
    assert_none(wrong)


def test_pair_class_and_slit(t, guest):
    """A bound matrix cell carries its pair's class and SLIT beside the measurement."""
    wrong = []
    for table, r in tried(t, own=False):
        if not text(r["experiment"]).endswith("_matrix") or text(r["mem_policy"]) != "bind":
            continue
        i, j = int(r["cpu_node"]), int(r["mem_node"])
        want = guest.layout.pair_class(i, j)
        if text(r["pair_class"]) != want:
            wrong.append(f"{where(table, r)}: pair class {text(r['pair_class'])}, want {want}")
        if int(r["slit"]) != guest.layout.distance(i, j):
            wrong.append(f"{where(table, r)}: slit {r['slit']} beside the measurement")
    assert_none(wrong)


def test_whole_grid(t, guest):
    """Each cell exactly once across the host's ranks: every CPU node to every node with
    memory (memory-only ones included), and each policy from every CPU node."""
    measured = Counter()
    for table, r in tried(t, own=False):
        if text(r["experiment"]).endswith("_matrix"):
            kernel = text(r["kernel"]) if table == "bandwidth" else "chase"
            measured[(table, kernel, int(r["cpu_node"]), int(r["mem_node"]),
                      text(r["mem_policy"]))] += 1
    assert any(k[0] == "latency" for k in measured), "no latency matrix"
    assert any(k[0] == "bandwidth" for k in measured), "no bandwidth matrix"
    wrong = []
    for (table, kernel) in {(k[0], k[1]) for k in measured}:
        for i in range(guest.nodes):
            for j in range(guest.total):
                count = measured[(table, kernel, i, j, "bind")]
                if count != 1:
                    wrong.append(f"/{table} {kernel}: pair {i}->{j} measured {count} times")
            count = measured[(table, kernel, i, -1, "interleave")]
            if guest.total > 1 and count != 1:
                wrong.append(f"/{table} {kernel}: interleave from node {i} measured {count} times")
    wrong += [f"memory-only node {r['cpu_node']} row: {text(r['note'])}" for r in t["latency"]
              if int(r["cpu_node"]) >= guest.nodes and text(r["experiment"]) == "latency_matrix"
              and "memory-only" not in text(r["note"])]
    assert_none(wrong)


def test_numastat_agrees(t):
    """The kernel's own counters: remote bound pages were allocated on node j by a task on
    another node; interleaved pages were counted as interleave hits (by the cell that set the
    buffer up)."""
    counters = defaultdict(dict)
    for r in t["numastat"]:
        counters[(int(r["rank"]), int(r["measurement"]))][int(r["node"])] = r
    # A memory node's chain is set up by its first cell and kept for the other CPU nodes' cells,
    # which allocate nothing: only the cell that set a buffer up moves the counters.
    first = {}
    for r in t["latency"]:
        if text(r["experiment"]) == "latency_matrix" and text(r["status"]) == "ok":
            key = (int(r["rank"]), int(r["mem_node"]), text(r["mem_policy"]))
            first[key] = min(first.get(key, int(r["measurement"])), int(r["measurement"]))
    wrong = []
    for r in t["latency"]:
        if text(r["experiment"]) != "latency_matrix" or text(r["status"]) != "ok":
            continue
        if int(r["measurement"]) != first[(int(r["rank"]), int(r["mem_node"]),
                                           text(r["mem_policy"]))]:
            continue
        c = counters[(int(r["rank"]), int(r["measurement"]))]
        pages_wanted = 0.9 * int(r["size_bytes"]) / 4096
        at = f"/numastat for latency cpu {r['cpu_node']} mem {r['mem_node']}"
        if text(r["mem_policy"]) == "bind" and int(r["cpu_node"]) != int(r["mem_node"]):
            other = int(c[int(r["mem_node"])]["other_node"]) if c else 0
            if other < pages_wanted:
                wrong.append(f"{at}: other_node grew by {other} pages")
        if text(r["mem_policy"]) == "interleave":
            hits = sum(int(v["interleave_hit"]) for v in c.values())
            if hits < pages_wanted:
                wrong.append(f"{at}: interleave_hit grew by {hits} pages")
    assert_none(wrong)


# ---- experiments that move pages, and the sweeps ------------------------------------------------

def test_first_touch(t, guest, pages):
    """The textbook experiment: serial init from node A puts every page on A; the kernel's own
    schedule and explicit binding put every page beside its reader; a mismatched schedule puts
    none there; interleave spreads them evenly."""
    modes, wrong = Counter(), []
    for r in t["bandwidth"]:
        if text(r["experiment"]) != "first_touch" or text(r["status"]) == "not_applicable":
            continue
        mode, local = text(r["init_mode"]), float(r["pages_on_target_frac"])
        on = pages[(int(r["rank"]), int(r["measurement"]))]
        at = f"first_touch {mode} {text(r['mem_policy'])} node {r['mem_node']}"
        modes[mode] += 1
        if mode == "serial":
            if on[int(r["mem_node"])] != sum(on.values()):
                wrong.append(f"{at}: pages {dict(on)}")
        elif text(r["mem_policy"]) == "interleave":
            share = sum(on.values()) / guest.total
            if not all(abs(on[n] - share) <= 0.05 * share + 512 for n in range(guest.total)):
                wrong.append(f"{at}: uneven {dict(on)}")
        elif mode in ("threaded", "bind") and local < 0.99:
            wrong.append(f"{at}: only {local:.3f} of pages beside their reader")
        elif mode == "mismatched" and local > 0.01:
            wrong.append(f"{at}: {local:.3f} of pages beside their reader")
    if guest.nodes > 1 and not (modes["serial"] == guest.nodes and modes["threaded"] == 1
                                and modes["interleave"] == 1 and modes["mismatched"] == 1
                                and modes["bind"] == 1):
        wrong.append(f"first_touch modes measured: {dict(modes)}")
    assert_none(wrong)


def test_loaded_latency(t, guest):
    """For every CPU node (2 cores each here, so one load thread), one curve per delay on its
    own memory, every point valid, its chase pages on that node."""
    curves, points, wrong = Counter(), Counter(), []
    for r in t["loaded_latency"]:
        at = f"loaded_latency cpu {r['cpu_node']} mem {r['mem_node']} delay {r['delay_spins']}"
        if text(r["status"]) == "not_applicable":
            continue
        if text(r["status"]) != "ok":
            wrong.append(f"{at}: {text(r['status'])}: {text(r['note'])}")
        if int(r["load_threads"]) != guest.cpus // guest.nodes - 1:
            wrong.append(f"{at}: load threads")
        if float(r["pages_on_target_frac"]) < PLACED:
            wrong.append(f"{at}: chase pages off node")
        if not (float(r["load_gbs"]) > 0 and float(r["latency_ns_median"]) > 0):
            wrong.append(f"{at}: values")
        curves[int(r["cpu_node"])] += 1
        points[(int(r["cpu_node"]), int(r["mem_node"]), int(r["delay_spins"]))] += 1
    wrong += [f"loaded_latency cpu {p[0]} mem {p[1]} delay {p[2]}: measured {n} times"
              for p, n in points.items() if n != 1]
    if guest.cpus // guest.nodes >= 2:
        wrong += [f"loaded_latency: node {i} has {curves[i]} curve points"
                  for i in range(guest.nodes) if curves[i] < 2]
    assert_none(wrong)


def test_balancing_unprivileged(t, guest):
    """Unprivileged, the setting cannot be changed: one row per setting says so."""
    if guest.nodes < 2 or not guest.unprivileged:
        pytest.skip("the balancing series of an unprivileged run on 2 nodes or more")
    assert_none([f"balancing unprivileged: {text(r['status'])} {text(r['note'])}"
                 for r in t["balancing"] if not (text(r["status"]) == "not_applicable"
                                                 and "cannot set" in text(r["note"]))])


def test_balancing_series(t, guest):
    """A time series with the kernel's balancing off and one with it on, made by the host's
    first rank (under --bind-to numa it widens its binding to make it; the others say why not).
    Off, no page may move; on, pages may move towards the threads (how soon is the kernel's
    business, so it is not asserted)."""
    if guest.nodes < 2 or guest.unprivileged:
        pytest.skip("the balancing series of a privileged run on 2 nodes or more")
    series, wrong = defaultdict(list), []
    for r in t["balancing"]:
        if int(r["rank"]) != 0:
            if not (text(r["status"]) == "not_applicable" and text(r["note"])):
                wrong.append(f"balancing on rank {r['rank']}: {text(r['status'])}")
            continue
        if text(r["status"]) != "ok":
            wrong.append(f"balancing: {text(r['status'])} {text(r['note'])}")
        series[int(r["numa_balancing"])].append(r)
    if sorted(series) != [0, 1]:
        wrong.append(f"balancing series for settings {sorted(series)}")
    for setting, rows in series.items():
        wrong += balancing_problems(setting, rows)
    assert_none(wrong)


def test_balancing_schedule(t, guest, results):
    """Each series samples on its own schedule: a sample's reads end at interval, 2 * interval,
    ... after the threads moved, and the row records when they actually ended. So the recorded
    times are never before the first point, the series lasts its duration, and in a series of
    10 samples or more the times are spaced by the interval: the median spacing within 20%, the
    last sample left out, and a sample the machine held up (a loaded host, a guest's vCPU
    descheduled) moves no median. vm.nodes2 makes such series."""
    if guest.nodes < 2 or guest.unprivileged:
        pytest.skip("the balancing series of a privileged run on 2 nodes or more")
    interval = config_seconds(results, "numa_balancing", "interval")
    duration = config_seconds(results, "numa_balancing", "duration")
    series, wrong = defaultdict(list), []
    for r in t["balancing"]:
        if int(r["rank"]) == 0 and text(r["status"]) == "ok":
            series[int(r["numa_balancing"])].append(float(r["t_s"]))
    for setting, times in sorted(series.items()):
        if times != sorted(times) or len(set(times)) != len(times):
            wrong.append(f"balancing {setting}: sample times out of order {times}")
        times = sorted(times)
        if times[0] < interval - 1e-6:
            wrong.append(f"balancing {setting}: first sample at {times[0]:.3f} s, before the "
                         f"interval of {interval} s ended")
        if times[-1] < duration - 1e-6:
            wrong.append(f"balancing {setting}: last sample at {times[-1]:.3f} s, before the "
                         f"duration of {duration} s")
        # A median of a few spacings is one slow census away from a skipped point (with
        # balancing on, the census waits on pages being migrated): only long series are judged.
        spacing = [b - a for a, b in zip(times, times[1:-1])]
        if len(spacing) >= 8 and abs(median(spacing) - interval) > 0.2 * interval:
            wrong.append(f"balancing {setting}: samples {median(spacing):.3f} s apart (median "
                         f"of {len(spacing)}), not every {interval} s; times "
                         + " ".join(f"{x:.3f}" for x in times))
    assert_none(wrong)


def balancing_problems(setting, rows):
    wrong = [] if len(rows) >= 2 else [f"balancing {setting}: {len(rows)} samples"]
    for r in rows:
        reported = int(r["pages"]) - int(r["pages_unreported"])
        if int(r["pages_on_from"]) + int(r["pages_on_to"]) != reported:
            wrong.append(f"balancing {setting} t={r['t_s']:.2f}: pages off both nodes")
        if setting == 0 and int(r["pages_on_from"]) != reported:
            wrong.append(f"balancing off, t={r['t_s']:.2f}: {r['pages_on_to']} pages moved")
    # The threads stay on the to node: a page that reached it never goes back, so the share
    # there never falls (pages the scanner had unmapped are not counted as gone).
    rows = sorted(rows, key=lambda r: float(r["t_s"]))
    # The kernel's own counters (/proc/vmstat, since the move) tell the same story: on, every
    # page that reached the threads' node was migrated by balancing after a hinting fault; off,
    # the scanner marks no pages, so only the few it marked before the setting changed (in any
    # process, while the guest booted with it on) can still fault and move: system-wide, under
    # 2% of the array's pages.
    last = rows[-1]
    stale = max(64, int(last["pages"]) // 50)
    for column in ("numa_hint_faults", "numa_pages_migrated"):
        counts = [int(r[column]) for r in rows]
        if min(counts) < 0:
            wrong.append(f"balancing {setting}: {column} unknown ({counts})")
        if counts != sorted(counts):
            wrong.append(f"balancing {setting}: {column} fell ({counts})")
        if setting == 0 and counts[-1] > stale:
            wrong.append(f"balancing off: {column} grew to {counts[-1]} (at most {stale})")
    if setting == 1 and int(last["pages_on_to"]) > 0:
        if int(last["numa_pages_migrated"]) < int(last["pages_on_to"]):
            wrong.append(f"balancing on: {last['pages_on_to']} pages reached the threads' node, "
                         f"numa_pages_migrated says {last['numa_pages_migrated']}")
        if int(last["numa_hint_faults"]) <= 0:
            wrong.append("balancing on: pages moved without a hinting fault")
    for before, after in zip(rows, rows[1:]):
        if float(after["frac_on_to"]) < float(before["frac_on_to"]) - 0.005:
            wrong.append(f"balancing {setting}: share on the threads' node fell from "
                         f"{before['frac_on_to']:.3f} (t={before['t_s']:.2f}) to "
                         f"{after['frac_on_to']:.3f} (t={after['t_s']:.2f})")
    return wrong


def test_sweeps_by_first_rank(t):
    """Sweeps describe the host's caches: made once per host, by its first rank (the matrices,
    mlp and injection are per node pair: each rank measures its own nodes)."""
    wrong = []
    for table in MATRICES:
        ranks = {int(r["rank"]) for r in t[table]
                 if not text(r["experiment"]).endswith("_matrix")
                 and text(r["experiment"]) not in ("mlp", "injection")
                 and text(r["status"]) == "ok"}
        if ranks != {0}:
            wrong.append(f"/{table}: sweeps measured by ranks {sorted(ranks)}")
    assert_none(wrong)
