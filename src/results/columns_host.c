/* SPDX-License-Identifier: BSD-3-Clause */
/* The columns of the host's tables (what a rank found of its host), one row a column: its
 * name and type (the row struct's field: the HDF5 type, the gather and the checkpoints follow),
 * its unit, the schema minor that added it and what a reader takes it to be in an older file,
 * and what it means. `--schema`, the tables' units and column_descriptions attributes and the
 * column tables of docs/SCHEMA.md all come from these rows. */
#include "results/columns.h"

#include <math.h>

#define ROW struct nprb_host_row
static const struct nprb_field host_fields[] = {
    I32(rank, NULL, "MPI world rank"),
    I32(host_index, NULL, "0..host_count-1; equal for ranks of one host"),
    I32(ranks_on_host, NULL, "ranks sharing this host"),
    STR(hostname, NULL, "`MPI_Get_processor_name`"),
    STR(fingerprint, NULL,
        "16 hex digits: FNV-1a of CPU model, packages, cores, PUs, caches, memory and CPUs per "
        "node (memory rounded to 1/8 of its power of two: 187.6 GiB counts as 192), and the DIMM "
        "layout where every user can read it (EDAC); equal for identical hardware, whoever runs "
        "the job and whatever its cgroup allows. Before 0.10.0 the hash started from a wrong "
        "offset basis, so the same hardware has another value in older files"),
    STR(node_type, NULL, "short human label of the node type"),
    STR(cpu_model, NULL, "hwloc's CPUModel"),
    I32(packages, NULL, "counts from hwloc"),
    I32(numa_nodes, NULL, "counts from hwloc"),
    I32(cores, NULL, "counts from hwloc"),
    I32(pus, NULL, "counts from hwloc"),
    U64(memory_bytes, "B", "memory of all NUMA nodes"),
    U64(l1d_bytes, "B", "size of the first cache of each level as hwloc reports it (0: none)"),
    U64(l2_bytes, "B", "size of the first cache of each level as hwloc reports it (0: none)"),
    U64(l3_bytes, "B", "size of the first cache of each level as hwloc reports it (0: none)"),
    STR(kernel, NULL, "`uname -r`"),
    STR(thp_mode, NULL, "transparent huge pages: `always`, `madvise`, `never`"),
    I32(numa_balancing, NULL, "`/proc/sys/kernel/numa_balancing`, -1 unreadable"),
    STR(governor, NULL, "cpufreq governor of CPU 0, `none` without cpufreq"),
    STR(simd_path, NULL,
        "kernel code path that ran: `avx512f`, `avx2`, `sse2` on x86-64; `sve`, `neon` on Arm64"),
    STR(usable_cpus, NULL,
        "CPUs the launcher left this rank (affinity mask at start, before any widening), list "
        "form"),
    STR(binding_check, NULL,
        "`ok: ...`, `narrow: ...` or `widened: ...`, judged on the launcher's binding: the CPUs "
        "this rank was bound to against those its cgroup allows, and the NUMA nodes the host's "
        "ranks reach together; `narrow` when a launcher bound a lone rank to part of the host "
        "(under `--respect-binding`), the host's ranks together miss a node, or `OMP_THREAD_LIMIT` "
        "caps the threads; `widened` when numaprobe widened a lone rank's narrow binding to the "
        "cgroup's CPUs and measured every node (`widened: the launcher bound this rank to CPUs 0-1 "
        "(2 of 8 allowed, 1 of 4 NUMA nodes); numaprobe widened it to the cgroup's CPUs 0-7`). The "
        "first of several ranks on a host whose binding misses a node widens too, for the "
        "measurements that span nodes: `ok: ... with the host's 4 ranks; widened to CPUs 0-7 for "
        "cross-node measurements`. `--strict` fails on anything but `ok`. A cgroup that confines "
        "the rank is named apart from any launcher: `; the cgroup allows 1 of 8 CPUs (on 1 of 4 "
        "nodes), memory on 3 of 4 nodes`, counted within the cgroup (cpuset_cpus and cpuset_mems "
        "list them)"),
    STR(launcher, NULL,
        "who started the rank and the binding it asked for: `Open MPI mpirun, bind-to none`, `srun "
        "(PMIx), cpu-bind none`, `none (singleton)`"),
    STR(omp_env, NULL,
        "`OMP_NUM_THREADS`, `OMP_PLACES`, `OMP_PROC_BIND`, `OMP_THREAD_LIMIT`, `OMP_DYNAMIC`, "
        "`GOMP_CPU_AFFINITY`, `KMP_AFFINITY` as `k=v;...` (numaprobe pins its own threads either "
        "way)"),
    STR(boost, NULL,
        "CPU boost/turbo: `on`, `off` (cpufreq `boost`, or intel_pstate `no_turbo`), `unknown`"),
    STR(cpuset_cpus, NULL,
        "`Cpus_allowed_list` and `Mems_allowed_list` of the process: what its cgroup (and binding) "
        "allow"),
    STR(cpuset_mems, NULL,
        "`Cpus_allowed_list` and `Mems_allowed_list` of the process: what its cgroup (and binding) "
        "allow"),
    STR(cgroup, NULL,
        "the process's cgroup: the v2 path, or v1's cpuset hierarchy (a Slurm job's "
        "`/slurm/uid_0/job_12/step_0`)"),
    STR(scheduler, NULL, "`slurm`, `lsf`, `pbs` or `none`"),
    STR(dimms, NULL,
        "memory modules, e.g. `16x32GiB DDR4-3200 (smbios)`: from the kernel's EDAC driver (any "
        "user) or SMBIOS type 17 records (root); empty when neither is readable; `+mixed` when "
        "modules differ"),
    I32(dimm_speed_mts, "MT/s", "their configured transfer rate in MT/s (the slowest), 0 unknown"),
    F64(peak_gbs, "GB/s",
        "theoretical memory bandwidth of the host, channels x MT/s x 8 B (GB/s); 0 when the speed "
        "is unknown and the config gives none (`memory.dimm_speed`, `memory.channels`)"),
    STR(peak_basis, NULL,
        "how `peak_gbs` was reckoned: `8 channels (one per module) x 3200 MT/s (smbios) x 8 B`"),
    STR(job_id, NULL, "scheduler job id"),
    STR(status, NULL,
        "`ok`; `failed` when a measurement could not be made; `hung` when the watchdog gave the "
        "rank up (its host silent for twice `watchdog`, one of rank 0's own measurements running "
        "that long, or a rank of rank 0's host waiting behind one that hung; `error` says which); "
        "in checkpoints `running` until the rank finished, and `incomplete` in a file `numaprobe "
        "merge` rebuilt from a rank that never finished"),
    STR(error, NULL, "first failure on this rank"),
    F64(elapsed_s, "s", "seconds this rank spent from start to its last measurement"),
    ADDED(restored, STR, NULL, 8, 0,
          "a system setting an earlier numaprobe run on this host left changed when it was killed "
          "(SIGKILL), found at this rank's start, and what was done: `restored to 1`, or `not "
          "restored` and what to run; empty when there was none (the rank that found it has it)"),
    ADDED(clock_tick_ns, U64, "ns", 16, 0,
          "the timer's resolution: the smallest step of `CLOCK_MONOTONIC_RAW` seen on this rank "
          "(the kernel's clock source: the TSC on x86-64, the generic timer `CNTVCT_EL0` on "
          "Arm64); every timed sample spans at least 20 steps; 0: not recorded (files before "
          "0.16.0)"),
    ADDED(restore_outcome, STR, NULL, 18, 0,
          "what this rank's start found of a setting an earlier run left changed, as a name "
          "beside `restored`'s sentence: `none` (nothing left changed), `restored` (put back), "
          "`cleared` (already back; the record removed), `held` (a live run holds the change), "
          "`failed` (not put back, or not known to be back: `numaprobe restore` as root puts it "
          "back); empty for a rank given up as hung, and in files before 0.18.0"),
};
#undef ROW

const struct nprb_table_desc nprb_table_hosts =
    TABLE("hosts", struct nprb_host_row, host_fields, 0, "one row per rank");

#define ROW struct nprb_numa_node_row
static const struct nprb_field node_fields[] = {
    I32(rank, NULL, "MPI world rank; joins /hosts"),
    I32(node, NULL, "Linux node id"),
    U64(memory_bytes, "B",
        "memory of the node (`MemTotal` of its meminfo: `numactl --hardware`'s size)"),
    ADDED(free_bytes, U64, "B", 4, 0,
          "`MemFree` of the node when the rank recorded its topology, before it measured anything "
          "(`numactl --hardware`'s free); 0 when unknown (a topology read from XML)"),
    I32(cpus, NULL, "PUs local to the node; 0 for a memory-only (CXL, HBM) node"),
    I32(usable_cores, NULL,
        "cores of the node numaprobe may run this rank's threads on: its binding, after any "
        "widening (see `binding_check`)"),
    I32(package, NULL, "package os index, -1 for none"),
    STR(cpu_list, NULL, "local PUs, e.g. `0-15,32-47`"),
    I32(mem_allowed, NULL,
        "1 when the job's cgroup (`cpuset.mems`) lets it allocate here; 0 when not: the node is "
        "listed, its matrix cells say \"not applicable\""),
    I32(cpus_allowed, NULL,
        "1 when some of the node's CPUs are in the job's `cpuset.cpus` (or it has none); 0 when "
        "the cgroup keeps us off them"),
};
#undef ROW

const struct nprb_table_desc nprb_table_numa_nodes = TABLE(
    "numa_nodes", struct nprb_numa_node_row, node_fields, 0, "one row per rank and NUMA node");

#define ROW struct nprb_distance_row
static const struct nprb_field distance_fields[] = {
    I32(rank, NULL, "MPI world rank; joins /hosts"),
    I32(from_node, NULL, "Linux node ids"),
    I32(to_node, NULL, "Linux node ids"),
    I32(slit, NULL, "firmware (ACPI SLIT) distance, 10 = local; 0 when the firmware gave none"),
    U64(hmat_latency_ns, "ns",
        "ACPI HMAT latency from CPUs of `from_node` to memory of `to_node`, as hwloc reads it; 0 "
        "when not published (Linux publishes only each node's best initiators)"),
    U64(hmat_bandwidth_mibs, "MiB/s", "ACPI HMAT bandwidth, MiB/s; 0 when not published"),
};
#undef ROW

const struct nprb_table_desc nprb_table_distances =
    TABLE("distances", struct nprb_distance_row, distance_fields, 0,
          "one row per rank and (from, to) node pair");

#define ROW struct nprb_cache_level_row
static const struct nprb_field cache_level_fields[] = {
    I32(rank, NULL, "MPI world rank; joins /hosts"),
    I32(level, NULL, "1 (L1d), 2, 3"),
    U64(hwloc_bytes, "B", "size of the first cache of the level as hwloc reports it"),
    U64(measured_bytes, "B",
        "lines touched (bytes) at the last sweep point before the largest latency step whose lines "
        "lie within [hwloc/4, 2 x hwloc), when that step is at least 1.3x; 0 otherwise"),
    F64(latency_ns_below, "ns", "random-chase latency (median) at that point"),
    I8(agrees, NULL,
       "1: a step of at least 1.3x within a factor 2 of hwloc's size; 0: not; -1: not judged (the "
       "chase's lines do not span [hwloc/2, 2 x hwloc], or no two neighbouring points around it "
       "are at most 4x apart)"),
    STR(note, NULL, "the judgement in words"),
};
#undef ROW

const struct nprb_table_desc nprb_table_cache_levels =
    TABLE("cache_levels", struct nprb_cache_level_row, cache_level_fields, 0,
          "hwloc's cache sizes beside the measured latency curve (one row per rank and level)");

#define ROW struct nprb_hugepage_row
static const struct nprb_field hugepage_fields[] = {
    I32(rank, NULL, "MPI world rank; joins /hosts"),
    I32(node, NULL, "Linux node id"),
    U64(page_bytes, "B", "page size of the pool: 2 MiB, 1 GiB"),
    U64(pages_total, NULL,
        "`nr_hugepages` and `free_hugepages` of `/sys/devices/system/node/nodeN/hugepages/` when "
        "the rank started"),
    U64(pages_free, NULL,
        "`nr_hugepages` and `free_hugepages` of `/sys/devices/system/node/nodeN/hugepages/` when "
        "the rank started"),
};
#undef ROW

const struct nprb_table_desc nprb_table_hugepages =
    TABLE("hugepages", struct nprb_hugepage_row, hugepage_fields, 0,
          "huge page pools of each node (one row per rank, node and page size)");

#define ROW struct nprb_topology_xml_row
static const struct nprb_field topology_xml_fields[] = {
    I32(rank, NULL, "the host's first rank"),
    I32(part, NULL,
        "0, 1, 2...: join `text` in this order to get the XML `lstopo --of xml` would write "
        "(`lstopo --input FILE.xml` draws it)"),
    STR(text, NULL, "up to 1023 characters of the XML"),
};
#undef ROW

const struct nprb_table_desc nprb_table_topology_xml =
    TABLE("topology_xml", struct nprb_topology_xml_row, topology_xml_fields, 0,
          "the host's hwloc topology (its first rank only)");
