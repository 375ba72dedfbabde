#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes a synthetic numaprobe results file (the layout of docs/SCHEMA.md) for a fleet of
hosts of two node types, with chosen hosts made slower on purpose.

  synthetic_fleet.py OUT.h5 [--hosts 40] [--seed 1] [--factor HOST:KIND:FACTOR ...]

KIND is one of latency_local, latency_remote, bw_local, bw_remote: every row of that kind on
HOST is multiplied by FACTOR (0.6 = 40% less bandwidth, 1.35 = 35% more latency). Every other
figure is the node type's nominal value with about 1% of noise, so nothing else strays by 10%.
KIND noise_bw_local or noise_bw_remote sets those rows' gbs_median to FACTOR x gbs_best (0.3:
a noisy row, spread 70%; nominal 0.97). KIND ipc multiplies the instructions /counters says every
measurement of HOST retired (so its IPC), KIND migrations gives each of its measurements FACTOR
CPU migrations (and the flag `migrated`).

/counters (schema 0.7.0): every latency_matrix and bandwidth_matrix measurement of a local pair
(those the analysis derives its per-host figures from; the binary counts every measurement, but
the remote pairs' rows would only make the file larger) has its software rows (task_clock = the
threads' enabled time), two /proc/vmstat rows and, on a host with a PMU, its core rows (cycles
at the type's clock, instructions of the chase or kernel: IPC follows the latency and
bandwidth), and on a type with memory-controller counters (icx) one uncore row per socket and
event, which /bandwidth's mc_bytes and mc_bus_ratio sum up. Where the host cannot
count a group, one not_applicable row per event (measurement -1) says why, as the binary does:
the rome type has no memory-controller PMU; a host in write_fleet's no_pmu (a virtual machine)
has neither. write_fleet's counters="software" writes the software rows only, "none" no row.
Every table and column is the binary's (`numaprobe --schema`, of the numaprobe the analysis
validates with: $NUMAPROBE_BIN, a build tree of the checkout or PATH), and test_errors.py checks
that `numaprobe check` calls the file valid (the report reads no other)."""

import argparse
import functools
import os
import sys
import zlib

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from numaprobe_analysis.contract import contract  # noqa: E402
from numaprobe_analysis.runs import config_fingerprint  # noqa: E402

# The measurement config a synthetic run says it ran with (the `config` attribute).
CONFIG = ("latency_matrix:\n  size: 1GiB\n  samples: 20\nbandwidth_matrix:\n  size: 1GiB\n"
          "  repetitions: 10\nreport_hosts: 8\nwatchdog: 10min\n")

# numpy's type of each column type of `numaprobe --schema` (strNN: SNN, fixed-width text;
# float64[N]: N float64 in one column).
NUMPY_TYPES = {"int8": "i1", "int32": "i4", "int64": "i8", "uint64": "u8", "float64": "f8"}


def column_type(name):
    """The numpy type of a column type of `numaprobe --schema`, as the tail of a dtype field."""
    if name.startswith("float64[") and name.endswith("]"):
        return ("f8", (int(name[len("float64["):-1]),))
    return (NUMPY_TYPES.get(name) or "S" + name.removeprefix("str"),)


@functools.lru_cache(maxsize=None)
def layout():
    """{table: numpy dtype} of every table of the binary's contract (contract.contract():
    `numaprobe --schema`), columns in its order: the layout the binary writes."""
    return {t["name"]: np.dtype([(c["name"], *column_type(c["type"])) for c in t["columns"]])
            for t in contract()["tables"]}


def dtype(table):
    return layout()[table]


# Two node types: nominal figures (ns, GB/s, bytes) that hosts of the type scatter around.
TYPES = (
    {"prefix": "icx", "node_type": "Intel Xeon 6338 2S/2N/64C 256G", "fingerprint":
     "a1b2c3d4e5f60718", "cpu_model": "Intel(R) Xeon(R) Gold 6338", "nodes": 2, "packages": 2,
     "cores_per_node": 32, "l1d": 48 << 10, "l2": 1280 << 10, "l3": 48 << 20,
     "lat_local": 92.0, "lat_remote": 145.0, "bw_local": 95.0, "bw_remote": 48.0,
     "slit_remote": 20, "cache_ns": (1.3, 4.8, 18.0), "ghz": 2.0, "imc": True},
    {"prefix": "rome", "node_type": "AMD EPYC 7742 1S/4N/64C 512G", "fingerprint":
     "0f1e2d3c4b5a6978", "cpu_model": "AMD EPYC 7742 64-Core Processor", "nodes": 4,
     "packages": 1, "cores_per_node": 16, "l1d": 32 << 10, "l2": 512 << 10, "l3": 16 << 20,
     "lat_local": 105.0, "lat_remote": 128.0, "bw_local": 38.0, "bw_remote": 30.0,
     "slit_remote": 12, "cache_ns": (1.2, 3.9, 12.5), "ghz": 2.25, "imc": False},
)
KERNEL_SCALE = {"read": 1.0, "triad": 0.88}
PAGE = 4096
# What the memory controllers count beyond the kernel's formula (other traffic, prefetch), and
# the share of a kernel's bus bytes that are writes.
MC_EXTRA = {"read": 1.02, "triad": 1.04}
WRITE_SHARE = {"read": 0.0, "triad": 0.25}
CHASE_INSTRUCTIONS = 4  # per access of the chase
KERNEL_BYTES_PER_INSTRUCTION = 16
NO_CPU_PMU = ("no CPU PMU: /sys/bus/event_source/devices has no cpu (a virtual machine without "
              "a virtual PMU?)")
NO_MC_PMU = ("no memory-controller PMU with byte events in /sys/bus/event_source/devices "
             "(looked for uncore_imc_*: Intel Xeon on bare metal)")
CORE_EVENTS = ("cycles", "instructions", "llc_loads", "llc_load_misses", "dtlb_load_misses")
UNCORE_EVENTS = ("mc_read_bytes", "mc_write_bytes")


class Writer:
    """Collects rows per table (dicts; fields not given are zero, empty or NaN)."""

    def __init__(self, rng):
        self.rows = {t: [] for t in layout()}
        self.rng = rng
        self.measurement = 0

    def noise(self, value, sigma=0.01):
        return float(value * np.exp(self.rng.normal(0.0, sigma)))

    def add(self, table, **fields):
        self.rows[table].append(fields)

    def next_id(self):
        self.measurement += 1
        return self.measurement

    def array(self, table):
        dt = dtype(table)
        out = np.zeros(len(self.rows[table]), dtype=dt)
        for name in dt.names:
            if dt[name].base.kind == "f":
                out[name] = np.nan
        for i, row in enumerate(self.rows[table]):
            for k, v in row.items():
                out[k][i] = v.encode() if isinstance(v, str) else v
        return out


def _pair(t, i, j):
    if i == j:
        return "local", 10
    same_package = t["packages"] == 1
    return ("same_package" if same_package else "cross_package"), t["slit_remote"]


def _not_countable(w, rank, t, mode):
    """One not_applicable row per event the host cannot count (measurement -1)."""
    groups = []
    if mode == "vm":
        groups.append(("core", "thread", CORE_EVENTS, NO_CPU_PMU))
    if mode == "vm" or (mode == "pmu" and not t["imc"]):
        groups.append(("uncore", "socket", UNCORE_EVENTS, NO_MC_PMU))
    for group, scope, events, note in groups:
        for event in events:
            w.add("counters", rank=rank, measurement=-1, experiment="-", event=event,
                  group=group, scope=scope, socket=-1, time_enabled_s=0.0,
                  time_running_s=0.0, status="not_applicable", note=note)


def _counted(w, rank, t, f, mode, mid, experiment, seconds, threads, instructions, llc=0.0,
             mc=None):
    """The /counters rows of one measurement of @p seconds on @p threads threads: software
    rows; with mode pmu or vm the vmstat rows; with pmu the core rows and, on a type with
    memory-controller counters, the uncore rows of @p mc = (read bytes, write bytes, socket of
    the memory). Returns the bytes the memory controllers counted (None: not counted)."""
    if mode == "none":
        return None
    enabled = seconds * threads
    software = (("task_clock", int(enabled * 1e9 * 0.999), "ns"), ("page_faults", 0, "events"),
                ("cpu_migrations", int(f.get("migrations", 0)), "events"),
                ("context_switches", 0 if threads == 1 else threads // 4, "events"))
    for event, value, unit in software:
        w.add("counters", rank=rank, measurement=mid, experiment=experiment, event=event,
              group="software", scope="thread", socket=-1, threads=threads, value=value,
              time_enabled_s=enabled, time_running_s=enabled, value_scaled=float(value),
              unit=unit, status="ok")
    if mode == "software":
        return None
    for event, unit in (("numa_hint_faults", "events"), ("numa_pages_migrated", "pages")):
        w.add("counters", rank=rank, measurement=mid, experiment=experiment, event=event,
              group="vmstat", scope="system", socket=-1, value=0, time_enabled_s=0.0,
              time_running_s=0.0, value_scaled=0.0, unit=unit, status="ok")
    if mode != "pmu":
        return None
    # The llc and dtlb events share the PMU (multiplexed: on it 80% of the time); value_scaled
    # is the figure to use.
    core = (("cycles", enabled * t["ghz"] * 1e9, 1.0),
            ("instructions", instructions * f.get("ipc", 1.0), 1.0),
            ("llc_loads", llc, 0.8), ("llc_load_misses", 0.97 * llc, 0.8),
            ("dtlb_load_misses", 0.1 * llc, 0.8))
    for event, scaled, on_pmu in core:
        w.add("counters", rank=rank, measurement=mid, experiment=experiment, event=event,
              group="core", scope="thread", socket=-1, threads=threads,
              value=int(scaled * on_pmu), time_enabled_s=enabled,
              time_running_s=enabled * on_pmu, value_scaled=float(round(scaled)),
              unit="events", status="ok")
    if not t["imc"] or mc is None:
        return None
    reads, writes, home = mc
    total = 0.0
    for socket in range(t["packages"]):
        share = 0.97 if socket == home else 0.03 / max(1, t["packages"] - 1)
        if t["packages"] == 1:
            share = 1.0
        for event, b in (("mc_read_bytes", reads), ("mc_write_bytes", writes)):
            lines = int(b * share / 64)
            w.add("counters", rank=rank, measurement=mid, experiment=experiment, event=event,
                  group="uncore", scope="socket", socket=socket, value=lines,
                  time_enabled_s=seconds, time_running_s=seconds,
                  value_scaled=64.0 * lines, unit="B", status="ok")
            total += 64.0 * lines
    return total


def _host(w, rank, name, t, f, mode="pmu"):
    nodes = t["nodes"]
    cores = nodes * t["cores_per_node"]
    w.add("hosts", rank=rank, host_index=rank, ranks_on_host=1, hostname=name,
          fingerprint=t["fingerprint"], node_type=t["node_type"], cpu_model=t["cpu_model"],
          packages=t["packages"], numa_nodes=nodes, cores=cores, pus=2 * cores,
          memory_bytes=nodes * (128 << 30) // (2 if nodes == 4 else 1), l1d_bytes=t["l1d"],
          l2_bytes=t["l2"], l3_bytes=t["l3"], kernel="6.1.0-18-amd64", thp_mode="madvise",
          numa_balancing=1, governor="performance", simd_path="avx2",
          usable_cpus=f"0-{2 * cores - 1}",
          binding_check=f"ok: CPUs 0-{2 * cores - 1} reach {nodes} of {nodes} NUMA nodes",
          launcher="srun (PMIx), cpu-bind none", boost="on", cpuset_cpus=f"0-{2 * cores - 1}",
          cpuset_mems=f"0-{nodes - 1}", cgroup="/slurm/uid_0/job_4242/step_0",
          scheduler="slurm", dimms="16x16GiB DDR4-3200 (smbios)", dimm_speed_mts=3200,
          peak_gbs=409.6, peak_basis="16 channels (one per module) x 3200 MT/s (smbios) x 8 B",
          job_id="4242", status="ok", elapsed_s=w.noise(300.0))
    per_node = t["cores_per_node"]
    for n in range(nodes):
        w.add("numa_nodes", rank=rank, node=n, memory_bytes=64 << 30, free_bytes=61 << 30,
              cpus=2 * per_node, usable_cores=per_node, package=n if t["packages"] > 1 else 0,
              cpu_list=f"{n * per_node}-{(n + 1) * per_node - 1}", mem_allowed=1,
              cpus_allowed=1)
        for m in range(nodes):
            w.add("distances", rank=rank, from_node=n, to_node=m, slit=_pair(t, n, m)[1])
    ok = {"valid": 1, "status": "ok", "pages_on_target_frac": 1.0, "huge_page_frac": 0.0}
    if f.get("migrations"):
        ok["flags"] = "migrated"
    _not_countable(w, rank, t, mode)
    size = 1 << 30
    home = (lambda node: node if t["packages"] > 1 else 0)
    for i in range(nodes):
        for j in range(nodes):
            where = "local" if i == j else "remote"
            pair, slit = _pair(t, i, j)
            lat = w.noise(t[f"lat_{where}"] * f.get(f"latency_{where}", 1.0))
            mid = w.next_id()
            w.add("latency", rank=rank, measurement=mid, hostname=name,
                  experiment="latency_matrix", cpu_node=i, mem_node=j, mem_policy="bind",
                  pair_class=pair, slit=slit, size_bytes=size, pattern="random",
                  slot_bytes=256, tlb_window_bytes=256 << 10, page_bytes=PAGE, threads=1,
                  samples=20, accesses_per_sample=1 << 20, latency_ns_min=0.97 * lat,
                  latency_ns_median=lat, latency_ns_p90=1.03 * lat, latency_ns_p99=1.08 * lat,
                  latency_ns_max=1.2 * lat, **ok)
            w.add("placement", rank=rank, measurement=mid, experiment="latency_matrix",
                  node=j, pages=size // PAGE)
            accesses = 20 * (1 << 20)
            counting = mode if i == j else "none"
            _counted(w, rank, t, f, counting, mid, "latency_matrix", accesses * lat * 1e-9, 1,
                     CHASE_INSTRUCTIONS * accesses, llc=accesses,
                     mc=(64.0 * 0.97 * accesses, 0.0, home(j)))
            for kernel, scale in KERNEL_SCALE.items():
                gbs = w.noise(t[f"bw_{where}"] * scale * f.get(f"bw_{where}", 1.0))
                mid = w.next_id()
                w.add("placement", rank=rank, measurement=mid, experiment="bandwidth_matrix",
                      node=j, pages=size // PAGE)
                moved = 10.0 * size  # bus_bytes x passes_per_sample x repetitions
                mc = MC_EXTRA[kernel] * moved
                mc_bytes = _counted(w, rank, t, f, counting, mid, "bandwidth_matrix",
                                    moved / (gbs * 1e9), per_node,
                                    moved / KERNEL_BYTES_PER_INSTRUCTION, llc=moved / 64,
                                    mc=((1 - WRITE_SHARE[kernel]) * mc, WRITE_SHARE[kernel] * mc,
                                        home(j)))
                counted = {} if mc_bytes is None else {"mc_bytes": mc_bytes,
                                                       "mc_bus_ratio": mc_bytes / moved}
                w.add("bandwidth", rank=rank, measurement=mid, hostname=name,
                      experiment="bandwidth_matrix", cpu_node=i, mem_node=j,
                      mem_policy="bind", pair_class=pair, slit=slit, size_bytes=size,
                      kernel=kernel, init_mode="threaded", page_bytes=PAGE, threads=per_node,
                      repetitions=10, passes_per_sample=1, program_bytes=size,
                      bus_bytes=size, gbs_best=gbs,
                      gbs_median=gbs * f.get(f"noise_bw_{where}", 0.97),
                      gbs_worst=gbs * min(0.9, f.get(f"noise_bw_{where}", 0.9)),
                      bus_gbs_best=gbs, threads_pinned_ok=1, **counted, **ok)
    _sweep(w, rank, name, t, f, ok)
    _first_touch(w, rank, name, t, ok)
    _loaded(w, rank, name, t, f, ok)
    _balancing(w, rank, name, t)


def _sweep(w, rank, name, t, f, ok):
    """Random chase against working set: a smooth step at each cache size."""
    levels = [(t["l1d"], t["cache_ns"][0]), (t["l2"], t["cache_ns"][1]),
              (t["l3"], t["cache_ns"][2])]
    mem = t["lat_local"] * f.get("latency_local", 1.0)
    for k in range(11, 31):  # 2 KiB .. 1 GiB
        size = 1 << k
        lat = mem
        for cache, ns in reversed(levels):
            # share of the lines the chase touches (one 64 B line per 256 B slot) that fits in
            # this cache level
            fits = min(1.0, cache / (size // 4))
            lat = fits * ns + (1 - fits) * lat
        lat = w.noise(lat)
        mid = w.next_id()
        w.add("placement", rank=rank, measurement=mid, experiment="latency_sweep", node=0,
              pages=max(1, size // PAGE))
        w.add("latency", rank=rank, measurement=mid, hostname=name,
              experiment="latency_sweep", cpu_node=0, mem_node=0, mem_policy="bind",
              pair_class="local", slit=10, size_bytes=size, pattern="random", slot_bytes=256,
              tlb_window_bytes=256 << 10, page_bytes=PAGE, threads=1, samples=5,
              accesses_per_sample=1 << 16, latency_ns_min=0.98 * lat, latency_ns_median=lat,
              latency_ns_p90=1.02 * lat, latency_ns_p99=1.05 * lat, latency_ns_max=1.1 * lat,
              **ok)
    for level, (cache, ns) in enumerate(levels, 1):
        w.add("cache_levels", rank=rank, level=level, hwloc_bytes=cache, measured_bytes=cache,
              latency_ns_below=w.noise(ns), agrees=1, note="agrees (synthetic)")


def _first_touch(w, rank, name, t, ok):
    nodes, size = t["nodes"], 1 << 30
    pages = size // PAGE
    full = t["bw_local"] * nodes
    modes = [("serial", n, "first_touch", {n: pages}, 1.0 / nodes) for n in range(nodes)]
    even = {n: pages // nodes for n in range(nodes)}
    modes += [("threaded", -1, "first_touch", even, 1.0),
              ("mismatched", -1, "first_touch", even, 0.0),
              ("interleave", -1, "interleave", even, 1.0 / nodes),
              ("bind", -1, "bind", even, 1.0)]
    for init, mem, policy, spread, beside in modes:
        remote_share = 1 - beside
        gbs = w.noise(full * (beside + remote_share * t["bw_remote"] / t["bw_local"]))
        if init == "serial":
            gbs = w.noise(t["bw_local"] * 1.1)  # one node's memory serves every reader
        mid = w.next_id()
        w.add("bandwidth", rank=rank, measurement=mid, hostname=name, experiment="first_touch",
              cpu_node=-1, mem_node=mem, mem_policy=policy, pair_class="-", size_bytes=size,
              kernel="read", init_mode=init, page_bytes=PAGE,
              threads=nodes * t["cores_per_node"], repetitions=5, passes_per_sample=1,
              program_bytes=size, bus_bytes=size, gbs_best=gbs, gbs_median=0.97 * gbs,
              gbs_worst=0.9 * gbs, bus_gbs_best=gbs, threads_pinned_ok=1,
              **{**ok, "pages_on_target_frac": beside})
        for node, n_pages in spread.items():
            w.add("placement", rank=rank, measurement=mid, experiment="first_touch", node=node,
                  pages=n_pages)


def _loaded(w, rank, name, t, f, ok):
    base = t["lat_local"] * f.get("latency_local", 1.0)
    peak = t["bw_local"] * 0.9
    for n in range(t["nodes"]):
        for delay in (0, 50, 200, 1000, 5000):
            load = peak / (1 + delay / 100)
            lat = w.noise(base * (1 + 2.5 * (load / peak) ** 3))
            mid = w.next_id()
            w.add("placement", rank=rank, measurement=mid, experiment="loaded_latency", node=n,
                  pages=(1 << 30) // PAGE)
            w.add("loaded_latency", rank=rank, measurement=mid, hostname=name,
                  experiment="loaded_latency", cpu_node=n, mem_node=n, mem_policy="bind",
                  pair_class="local", slit=10, size_bytes=1 << 30,
                  load_threads=t["cores_per_node"] - 1, load_kernel="read", delay_spins=delay,
                  load_gbs=w.noise(load), latency_ns_min=0.97 * lat, latency_ns_median=lat,
                  latency_ns_p90=1.1 * lat, latency_ns_p99=1.3 * lat, latency_ns_max=1.5 * lat,
                  threads_pinned_ok=1, valid=1, status="ok", pages_on_target_frac=1.0)


def _balancing(w, rank, name, t):
    pages = (256 << 20) // PAGE
    for setting in (0, 1):
        mid = w.next_id()
        for step in range(11):
            ts = 0.5 * step
            frac = 0.0 if setting == 0 else 1 - np.exp(-ts / 1.5)
            on_to = int(pages * frac)
            gbs = w.noise(t["bw_remote"] + frac * (t["bw_local"] - t["bw_remote"]))
            w.add("balancing", rank=rank, measurement=mid, hostname=name, from_node=0,
                  to_node=1, numa_balancing=setting, threads=t["cores_per_node"], t_s=ts,
                  pages=pages, pages_on_from=pages - on_to, pages_on_to=on_to,
                  frac_on_to=on_to / pages, read_gbs=gbs, numa_hint_faults=int(1.3 * on_to),
                  numa_pages_migrated=on_to, status="ok")


def host_names(n_hosts, suffix=""):
    """Host names in rank order: the first half of the first type, the rest of the second."""
    half = n_hosts // 2
    return [f"{TYPES[0]['prefix']}{i + 1:02d}{suffix}" for i in range(half)] + \
           [f"{TYPES[1]['prefix']}{i + 1:02d}{suffix}" for i in range(n_hosts - half)]


def write_fleet(path, n_hosts=40, seed=1, factors=None, schema_version="0.5.0", config=CONFIG,
                start_utc="2026-01-01T00:00:00Z", host_suffix="", skip=(), counters="pmu",
                no_pmu=()):
    """Writes the fleet; factors maps host name -> {kind: factor}. Returns the host names.
    host_suffix is added to every name (".cluster.example": the fleet under FQDNs); the hosts
    named in skip are left out (a host gone from the fleet). counters: "pmu" (every group the
    host's type can count), "software" (those rows only) or "none" (an empty /counters); the
    hosts named in no_pmu (without host_suffix) count no core and no uncore event."""
    factors = factors or {}
    w = Writer(np.random.default_rng(seed))
    every = host_names(n_hosts, host_suffix)
    kept = [(i, name) for i, name in enumerate(every) if name not in skip]
    names = [name for _, name in kept]
    n_hosts_all, n_hosts = n_hosts, len(kept)
    for rank, (index, name) in enumerate(kept):
        t = TYPES[0] if index < n_hosts_all // 2 else TYPES[1]
        short = name.removesuffix(host_suffix) if host_suffix else name
        mode = "vm" if counters == "pmu" and short in no_pmu else counters
        _host(w, rank, name, t, factors.get(short, {}), mode)
    with h5py.File(path, "w") as h5:
        attrs = {"schema": "numaprobe", "schema_version": schema_version,
                 "software_version": "0.1.0", "git_revision": "synthetic",
                 "start_utc": start_utc, "end_utc": start_utc,
                 "command_line": "synthetic_fleet.py", "config": config,
                 "config_source": "built-in defaults", "mpi_library": "synthetic",
                 "world_size": n_hosts, "host_count": n_hosts, "scheduler": "slurm",
                 "job_id": "4242", "complete": 1, "hosts_ok": n_hosts, "hosts_failed": 0,
                 "binding_summary": f"{n_hosts} of {n_hosts} rank(s) ok"}
        if schema_version >= "0.5":
            attrs["config_fingerprint"] = config_fingerprint(config)
            attrs["run_id"] = f"{seed:08x}-0000-0000-0000-{zlib.crc32(start_utc.encode()):012x}"
        for k, v in attrs.items():
            h5.attrs[k] = v if not isinstance(v, int) else np.int64(v)
        for table in layout():
            h5.create_dataset(table, data=w.array(table))
    return names


def _factor(text):
    host, kind, value = text.split(":")
    return host, kind, float(value)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--hosts", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--factor", type=_factor, action="append", default=[],
                   metavar="HOST:KIND:FACTOR")
    args = p.parse_args(argv)
    factors = {}
    for host, kind, value in args.factor:
        factors.setdefault(host, {})[kind] = value
    write_fleet(args.out, args.hosts, args.seed, factors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
