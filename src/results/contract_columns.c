/* SPDX-License-Identifier: BSD-3-Clause */
/* What every column means and its unit: the text of docs/SCHEMA.md's tables, one row a column,
 * for `numaprobe --schema` (tests/test_schema_drift.py keeps the names and types of both in
 * step). */
#include "results/contract.h"

#include <string.h>

static const struct column_doc {
    const char *table, *column, *unit, *description;
} column_docs[] = {
    {"hosts", "rank", NULL, "MPI world rank"},
    {"hosts", "host_index", NULL, "0..host_count-1; equal for ranks of one host"},
    {"hosts", "ranks_on_host", NULL, "ranks sharing this host"},
    {"hosts", "hostname", NULL, "`MPI_Get_processor_name`"},
    {"hosts", "fingerprint", NULL,
     "16 hex digits: FNV-1a of CPU model, packages, cores, PUs, caches, memory and CPUs per node "
     "(memory rounded to 1/8 of its power of two: 187.6 GiB counts as 192), and the DIMM layout "
     "where every user can read it (EDAC); equal for identical hardware, whoever runs the job and "
     "whatever its cgroup allows. Before 0.10.0 the hash started from a wrong offset basis, so the "
     "same hardware has another value in older files"},
    {"hosts", "node_type", NULL, "short human label of the node type"},
    {"hosts", "cpu_model", NULL, "hwloc's CPUModel"},
    {"hosts", "packages", NULL, "counts from hwloc"},
    {"hosts", "numa_nodes", NULL, "counts from hwloc"},
    {"hosts", "cores", NULL, "counts from hwloc"},
    {"hosts", "pus", NULL, "counts from hwloc"},
    {"hosts", "memory_bytes", "B", "memory of all NUMA nodes"},
    {"hosts", "l1d_bytes", "B",
     "size of the first cache of each level as hwloc reports it (0: none)"},
    {"hosts", "l2_bytes", "B",
     "size of the first cache of each level as hwloc reports it (0: none)"},
    {"hosts", "l3_bytes", "B",
     "size of the first cache of each level as hwloc reports it (0: none)"},
    {"hosts", "kernel", NULL, "`uname -r`"},
    {"hosts", "thp_mode", NULL, "transparent huge pages: `always`, `madvise`, `never`"},
    {"hosts", "numa_balancing", NULL, "`/proc/sys/kernel/numa_balancing`, -1 unreadable"},
    {"hosts", "governor", NULL, "cpufreq governor of CPU 0, `none` without cpufreq"},
    {"hosts", "simd_path", NULL, "kernel code path that ran: `avx512f`, `avx2`, `sse2`"},
    {"hosts", "usable_cpus", NULL,
     "CPUs the launcher left this rank (affinity mask at start, before any widening), list form"},
    {"hosts", "binding_check", NULL,
     "`ok: ...`, `narrow: ...` or `widened: ...`, judged on the launcher's binding: the CPUs this "
     "rank was bound to against those its cgroup allows, and the NUMA nodes the host's ranks reach "
     "together; `narrow` when a launcher bound a lone rank to part of the host (under "
     "`--respect-binding`), the host's ranks together miss a node, or `OMP_THREAD_LIMIT` caps the "
     "threads; `widened` when numaprobe widened a lone rank's narrow binding to the cgroup's CPUs "
     "and measured every node (`widened: the launcher bound this rank to CPUs 0-1 (2 of 8 allowed, "
     "1 of 4 NUMA nodes); numaprobe widened it to the cgroup's CPUs 0-7`). The first of several "
     "ranks on a host whose binding misses a node widens too, for the measurements that span "
     "nodes: `ok: ... with the host's 4 ranks; widened to CPUs 0-7 for cross-node measurements`. "
     "`--strict` fails on anything but `ok`. A cgroup that confines the rank is named apart from "
     "any "
     "launcher: `; the cgroup allows 1 of 8 CPUs (on 1 of 4 nodes), memory on 3 of 4 nodes`, "
     "counted "
     "within the cgroup (cpuset_cpus and cpuset_mems list them)"},
    {"hosts", "launcher", NULL,
     "who started the rank and the binding it asked for: `Open MPI mpirun, bind-to none`, `srun "
     "(PMIx), cpu-bind none`, `none (singleton)`"},
    {"hosts", "omp_env", NULL,
     "`OMP_NUM_THREADS`, `OMP_PLACES`, `OMP_PROC_BIND`, `OMP_THREAD_LIMIT`, `OMP_DYNAMIC`, "
     "`GOMP_CPU_AFFINITY`, `KMP_AFFINITY` as `k=v;...` (numaprobe pins its own threads either "
     "way)"},
    {"hosts", "boost", NULL,
     "CPU boost/turbo: `on`, `off` (cpufreq `boost`, or intel_pstate `no_turbo`), `unknown`"},
    {"hosts", "cpuset_cpus", NULL,
     "`Cpus_allowed_list` and `Mems_allowed_list` of the process: what its cgroup (and binding) "
     "allow"},
    {"hosts", "cpuset_mems", NULL,
     "`Cpus_allowed_list` and `Mems_allowed_list` of the process: what its cgroup (and binding) "
     "allow"},
    {"hosts", "cgroup", NULL,
     "the process's cgroup: the v2 path, or v1's cpuset hierarchy (a Slurm job's "
     "`/slurm/uid_0/job_12/step_0`)"},
    {"hosts", "scheduler", NULL, "`slurm`, `lsf`, `pbs` or `none`"},
    {"hosts", "dimms", NULL,
     "memory modules, e.g. `16x32GiB DDR4-3200 (smbios)`: from the kernel's EDAC driver (any user) "
     "or SMBIOS type 17 records (root); empty when neither is readable; `+mixed` when modules "
     "differ"},
    {"hosts", "dimm_speed_mts", "MT/s",
     "their configured transfer rate in MT/s (the slowest), 0 unknown"},
    {"hosts", "peak_gbs", "GB/s",
     "theoretical memory bandwidth of the host, channels x MT/s x 8 B (GB/s); 0 when the speed is "
     "unknown and the config gives none (`memory.dimm_speed`, `memory.channels`)"},
    {"hosts", "peak_basis", NULL,
     "how `peak_gbs` was reckoned: `8 channels (one per module) x 3200 MT/s (smbios) x 8 B`"},
    {"hosts", "job_id", NULL, "scheduler job id"},
    {"hosts", "status", NULL,
     "`ok`; `failed` when a measurement could not be made; `hung` when the watchdog gave the rank "
     "up (its host silent for twice `watchdog`, one of rank 0's own measurements running that "
     "long, or a rank of rank 0's host waiting behind one that hung; `error` says which); in "
     "checkpoints `running` until the rank finished, and `incomplete` in a file `numaprobe merge` "
     "rebuilt from a rank that never finished"},
    {"hosts", "error", NULL, "first failure on this rank"},
    {"hosts", "elapsed_s", "s", "seconds this rank spent from start to its last measurement"},
    {"hosts", "restored", NULL,
     "a system setting an earlier numaprobe run on this host left changed when it was killed "
     "(SIGKILL), found at this rank's start, and what was done: `restored to 1`, or `not "
     "restored` and what to run; empty when there was none (the rank that found it has it)"},
    {"numa_nodes", "rank", NULL, "MPI world rank; joins /hosts"},
    {"numa_nodes", "node", NULL, "Linux node id"},
    {"numa_nodes", "memory_bytes", "B",
     "memory of the node (`MemTotal` of its meminfo: `numactl --hardware`'s size)"},
    {"numa_nodes", "free_bytes", "B",
     "`MemFree` of the node when the rank recorded its topology, before it measured anything "
     "(`numactl --hardware`'s free); 0 when unknown (a topology read from XML)"},
    {"numa_nodes", "cpus", NULL, "PUs local to the node; 0 for a memory-only (CXL, HBM) node"},
    {"numa_nodes", "usable_cores", NULL,
     "cores of the node numaprobe may run this rank's threads on: its binding, after any widening "
     "(see `binding_check`)"},
    {"numa_nodes", "package", NULL, "package os index, -1 for none"},
    {"numa_nodes", "cpu_list", NULL, "local PUs, e.g. `0-15,32-47`"},
    {"numa_nodes", "mem_allowed", NULL,
     "1 when the job's cgroup (`cpuset.mems`) lets it allocate here; 0 when not: the node is "
     "listed, its matrix cells say \"not applicable\""},
    {"numa_nodes", "cpus_allowed", NULL,
     "1 when some of the node's CPUs are in the job's `cpuset.cpus` (or it has none); 0 when the "
     "cgroup keeps us off them"},
    {"distances", "rank", NULL, "MPI world rank; joins /hosts"},
    {"distances", "from_node", NULL, "Linux node ids"},
    {"distances", "to_node", NULL, "Linux node ids"},
    {"distances", "slit", NULL,
     "firmware (ACPI SLIT) distance, 10 = local; 0 when the firmware gave none"},
    {"distances", "hmat_latency_ns", "ns",
     "ACPI HMAT latency from CPUs of `from_node` to memory of `to_node`, as hwloc reads it; 0 when "
     "not published (Linux publishes only each node's best initiators)"},
    {"distances", "hmat_bandwidth_mibs", "MiB/s",
     "ACPI HMAT bandwidth, MiB/s; 0 when not published"},
    {"latency", "rank", NULL, "MPI world rank; joins /hosts"},
    {"latency", "measurement", NULL, "id, unique within the rank; joins `/placement`"},
    {"latency", "hostname", NULL, "MPI_Get_processor_name"},
    {"latency", "experiment", NULL,
     "`latency_matrix`, `latency_sweep`, `stride_sweep`, `page_size`"},
    {"latency", "cpu_node", NULL,
     "node of the core the chase thread was pinned to (for `latency_sweep`, the node that swept: "
     "the first CPU node, or each in turn with `latency_sweep.from: every`)"},
    {"latency", "mem_node", NULL,
     "node the memory was bound to; -1 when the policy spans several nodes"},
    {"latency", "mem_policy", NULL,
     "`bind` (to `mem_node`), `interleave` (over every node with memory), `preferred` (`mem_node` "
     "= the CPU node, spilling elsewhere only when full), `first_touch` (no policy: pages land "
     "where the pinned threads first write them; `mem_node` is where they should)"},
    {"latency", "pair_class", NULL,
     "how the CPU node reaches the memory node, from hwloc: `local`, `same_package`, "
     "`cross_package`, `memory_only` (a node with memory and no CPUs, e.g. CXL); `-` for "
     "interleave"},
    {"latency", "slit", NULL,
     "firmware (SLIT) distance from `cpu_node` to `mem_node` beside the measured figure, 0 when "
     "unknown or for interleave"},
    {"latency", "size_bytes", "B", "working set"},
    {"latency", "pattern", NULL,
     "`random`: one random cycle over the slots, random within `tlb_window_bytes` windows; "
     "`random_full`: random over the whole working set; `stride:S`: slots S bytes apart visited in "
     "address order (a sequential chase); `index_random`: independent reads `data[idx[i]]` through "
     "a random index (the textbook method; loads overlap, so it is far below the chase)"},
    {"latency", "slot_bytes", "B",
     "distance between the chain's slots (each load touches the first word of a slot): 256 for "
     "`random` and `random_full`, so no adjacent-line prefetch lands on a slot the chain visits; "
     "the stride for `stride:S`; 8 for `index_random`"},
    {"latency", "page_bytes", "B",
     "base page of the buffer's mapping: 4096, or 2097152 with `huge_pages: hugetlb` (THP is in "
     "`huge_page_frac`)"},
    {"latency", "tlb_window_bytes", "B",
     "the random chain stays within windows of this size, visited in random order (multichase's "
     "TLB locality); 0: random over the whole working set"},
    {"latency", "threads", NULL, "1"},
    {"latency", "samples", NULL, "timed samples kept (one more was taken first and discarded)"},
    {"latency", "accesses_per_sample", NULL,
     "dependent loads per sample (each sample lasts at least `latency_matrix.sample_time` and 20 "
     "clock ticks)"},
    {"latency", "latency_ns_min", "ns",
     "ns per dependent load over the samples (nearest-rank percentiles)"},
    {"latency", "latency_ns_median", "ns",
     "ns per dependent load over the samples (nearest-rank percentiles)"},
    {"latency", "latency_ns_p90", "ns",
     "ns per dependent load over the samples (nearest-rank percentiles)"},
    {"latency", "latency_ns_p99", "ns",
     "ns per dependent load over the samples (nearest-rank percentiles)"},
    {"latency", "latency_ns_max", "ns",
     "ns per dependent load over the samples (nearest-rank percentiles)"},
    {"latency", "huge_page_frac", "1",
     "share of the buffer backed by transparent huge pages, -1 unknown"},
    {"latency", "pages_on_target_frac", "1",
     "share of the buffer's pages that reported their node found on the policy's node(s) (see "
     "\"Page census\" below)"},
    {"latency", "pages_unreported", NULL,
     "resident pages whose node the kernel would not tell (automatic NUMA balancing had unmapped "
     "them and the frame could not be read); left out of `pages_on_target_frac`, never counted as "
     "misplaced"},
    {"latency", "cpus", NULL,
     "the CPUs (Linux cpulist, e.g. `0-3,8`) the measurement's threads were on when they finished, "
     "read with `sched_getcpu`: check the pinning without trusting `threads_pinned_ok`; empty for "
     "rows that did not run"},
    {"latency", "flags", NULL,
     "plausibility flags, comma-separated, empty when none (see \"Plausibility flags\" below); a "
     "flag never changes a figure or a status"},
    {"latency", "passes", NULL,
     "how many times the headline (`latency_ns_median`) was measured, apart in time: 1, or the "
     "experiment's `passes` for a headline cell (a bound cell of `latency_matrix`; the later "
     "passes at the end of the run); the other figures of the row are the first pass's"},
    {"latency", "pass_values", "ns",
     "each pass's `latency_ns_median`, space-separated, the first pass first; empty for rows "
     "that did not run"},
    {"latency", "uncertainty_pct", "%",
     "relative uncertainty of `latency_ns_median`, in percent: the largest of each pass's burst "
     "spread, (p90 - median) / median, and twice each later pass's distance from the first over "
     "the "
     "first; "
     "NaN for rows that did not run (docs/ANALYSIS.md, \"Noise\")"},
    {"latency", "valid", NULL, "1 when `status` is `ok`"},
    {"latency", "status", NULL,
     "see conventions; `invalid` when under 99% of the pages that reported are on target, "
     "interleave is uneven (beyond 5% + 512 pages per node), no page reported at all (placement "
     "unverified), or the thread left its core"},
    {"latency", "note", NULL, "why a row is not `ok`"},
    {"bandwidth", "rank", NULL, "as in `/latency`"},
    {"bandwidth", "measurement", NULL, "as in `/latency`"},
    {"bandwidth", "hostname", NULL, "as in `/latency`"},
    {"bandwidth", "experiment", NULL,
     "`bandwidth_matrix`, `bandwidth_sweep`, `thread_scaling`, `first_touch` or `page_size`"},
    {"bandwidth", "cpu_node", NULL,
     "as in `/latency`; -1 for `first_touch` rows, which use every usable core of the host"},
    {"bandwidth", "mem_node", NULL, "as in `/latency`"},
    {"bandwidth", "mem_policy", NULL, "as in `/latency`"},
    {"bandwidth", "pair_class", NULL, "as in `/latency`"},
    {"bandwidth", "slit", NULL, "as in `/latency`"},
    {"bandwidth", "size_bytes", "B", "per array"},
    {"bandwidth", "kernel", NULL,
     "`read`, `write`, `write_nt`, `copy`, `copy_nt`, `copy_movsb`, `scale`, `add`, `triad`, "
     "`read_strided`, `read_random` (formulas and byte counts: `numaprobe --kernels`)"},
    {"bandwidth", "init_mode", NULL,
     "who wrote the arrays first: `threaded` (each thread its own chunk, the kernel's schedule), "
     "and for `first_touch`: `serial` (one thread on `mem_node` wrote everything), `mismatched` "
     "(thread t wrote the chunk thread t + T/2 reads), `interleave` (interleaved, written "
     "threaded), `bind` (each chunk `mbind`-ed to its reader's node first): the names of "
     "`first_touch.modes`; before 0.10.0 `bind` read `bound` and `interleave` read `threaded`"},
    {"bandwidth", "stride_bytes", "B", "stride of `read_strided`, 0 for other kernels"},
    {"bandwidth", "page_bytes", "B", "as in `/latency`"},
    {"bandwidth", "threads", NULL, "threads, one pinned per core of `cpu_node`"},
    {"bandwidth", "repetitions", NULL, "timed samples kept (one more was run first and discarded)"},
    {"bandwidth", "passes_per_sample", NULL,
     "passes over the arrays timed together in one sample (small arrays need many to last "
     "`sample_time` and 20 clock ticks)"},
    {"bandwidth", "program_bytes", "B",
     "bytes per repetition as the code reads and writes them (STREAM's count)"},
    {"bandwidth", "bus_bytes", "B",
     "bytes per repetition crossing the memory bus, write-allocate included"},
    {"bandwidth", "gbs_best", "GB/s",
     "`program_bytes` / time, from the fastest, median and slowest repetition"},
    {"bandwidth", "gbs_median", "GB/s",
     "`program_bytes` / time, from the fastest, median and slowest repetition"},
    {"bandwidth", "gbs_worst", "GB/s",
     "`program_bytes` / time, from the fastest, median and slowest repetition"},
    {"bandwidth", "bus_gbs_best", "GB/s", "`bus_bytes` / fastest time"},
    {"bandwidth", "mc_bytes", "B",
     "bytes the memory controllers counted over the kept samples, reads and writes, every "
     "socket (`/counters` group uncore; every process's traffic); NaN where not counted"},
    {"bandwidth", "mc_bus_ratio", "1",
     "`mc_bytes` over `bus_bytes` x `passes_per_sample` x `repetitions`: 1 when the bus carried "
     "what the kernel's formula says; NaN where not counted"},
    {"bandwidth", "huge_page_frac", "1", "as in `/latency`"},
    {"bandwidth", "pages_on_target_frac", "1",
     "as in `/latency`; for `first_touch`, the share of pages on the node of the thread that reads "
     "them, -1 where none of them reported its node"},
    {"bandwidth", "pages_unreported", NULL, "as in `/latency`"},
    {"bandwidth", "cpus", NULL, "as in `/latency`; lists every thread's CPU"},
    {"bandwidth", "flags", NULL, "as in `/latency`"},
    {"bandwidth", "passes", NULL,
     "how many times the headline (`gbs_best`) was measured, apart in time: 1, or the "
     "experiment's `passes` for a headline cell (a bound cell of `bandwidth_matrix`'s read and "
     "triad kernels, or `first_touch`'s bind mode, the host-wide peak; the later passes at the "
     "end of the run); the other figures of the row are the first pass's"},
    {"bandwidth", "pass_values", "GB/s", "each pass's `gbs_best`, as in `/latency`"},
    {"bandwidth", "uncertainty_pct", "%",
     "relative uncertainty of `gbs_best`, in percent: the largest of each pass's burst spread, "
     "(best - median) / best, and twice each later pass's distance from the first over the first; "
     "NaN "
     "for rows that did not run"},
    {"bandwidth", "threads_pinned_ok", NULL,
     "1 when every thread was pinned and still on its core at the end"},
    {"bandwidth", "valid", NULL, "as in `/latency`"},
    {"bandwidth", "status", NULL,
     "as in `/latency`; a wrong checksum makes the row `invalid` and the job exit 4"},
    {"bandwidth", "note", NULL, "as in `/latency`"},
    {"placement", "rank", NULL, "join to `/latency` or `/bandwidth`"},
    {"placement", "measurement", NULL, "join to `/latency` or `/bandwidth`"},
    {"placement", "experiment", NULL, "the experiment that wrote the row"},
    {"placement", "node", NULL, "Linux node id"},
    {"placement", "pages", NULL,
     "base pages (4 KiB) of the buffer found on the node after first touch"},
    {"cache_levels", "rank", NULL, "MPI world rank; joins /hosts"},
    {"cache_levels", "level", NULL, "1 (L1d), 2, 3"},
    {"cache_levels", "hwloc_bytes", "B",
     "size of the first cache of the level as hwloc reports it"},
    {"cache_levels", "measured_bytes", "B",
     "lines touched (bytes) at the last sweep point before the largest latency step whose lines "
     "lie within [hwloc/4, 2 x hwloc), when that step is at least 1.3x; 0 otherwise"},
    {"cache_levels", "latency_ns_below", "ns", "random-chase latency (median) at that point"},
    {"cache_levels", "agrees", NULL,
     "1: a step of at least 1.3x within a factor 2 of hwloc's size; 0: not; -1: not judged (the "
     "chase's lines do not span [hwloc/2, 2 x hwloc], or no two neighbouring points around it are "
     "at most 4x apart)"},
    {"cache_levels", "note", NULL, "the judgement in words"},
    {"loaded_latency", "rank", NULL, "as in `/latency`"},
    {"loaded_latency", "measurement", NULL, "as in `/latency`"},
    {"loaded_latency", "hostname", NULL, "as in `/latency`"},
    {"loaded_latency", "experiment", NULL, "`loaded_latency`"},
    {"loaded_latency", "cpu_node", NULL, "as in `/latency`"},
    {"loaded_latency", "mem_node", NULL, "as in `/latency`"},
    {"loaded_latency", "mem_policy", NULL, "as in `/latency`"},
    {"loaded_latency", "pair_class", NULL, "as in `/latency`"},
    {"loaded_latency", "slit", NULL, "as in `/latency`"},
    {"loaded_latency", "size_bytes", "B", "the chase's working set"},
    {"loaded_latency", "load_threads", NULL,
     "threads making load (every other usable core of the node by default)"},
    {"loaded_latency", "load_kernel", NULL, "`read`, or `read_write` (each line written back)"},
    {"loaded_latency", "delay_spins", "iterations",
     "spin iterations after each line of load; 0 = as fast as the threads can"},
    {"loaded_latency", "load_gbs", "GB/s",
     "bytes the load threads moved (reads + writes) over the measurement, 1e9 B/s"},
    {"loaded_latency", "latency_ns_min", "ns", "the chase under that load"},
    {"loaded_latency", "latency_ns_median", "ns", "the chase under that load"},
    {"loaded_latency", "latency_ns_p90", "ns", "the chase under that load"},
    {"loaded_latency", "latency_ns_p99", "ns", "the chase under that load"},
    {"loaded_latency", "latency_ns_max", "ns", "the chase under that load"},
    {"loaded_latency", "pages_on_target_frac", "1",
     "share of the chase buffer's pages on `mem_node` (verified)"},
    {"loaded_latency", "pages_unreported", NULL, "as in `/latency`"},
    {"loaded_latency", "cpus", NULL,
     "as in `/latency`; lists the chasing thread's CPU and the load threads'"},
    {"loaded_latency", "flags", NULL, "as in `/latency`"},
    {"loaded_latency", "threads_pinned_ok", NULL,
     "the chase and every load thread stayed on their cores"},
    {"loaded_latency", "valid", NULL, "as in `/latency`"},
    {"loaded_latency", "status", NULL, "as in `/latency`"},
    {"loaded_latency", "note", NULL, "as in `/latency`"},
    {"balancing", "rank", NULL, "MPI world rank; joins /hosts"},
    {"balancing", "hostname", NULL, "MPI_Get_processor_name"},
    {"balancing", "measurement", NULL, "one series"},
    {"balancing", "from_node", NULL, "where the pages were first touched, where the threads moved"},
    {"balancing", "to_node", NULL, "where the pages were first touched, where the threads moved"},
    {"balancing", "numa_balancing", NULL, "`kernel.numa_balancing` during the series"},
    {"balancing", "threads", NULL, "threads that ran the measurement"},
    {"balancing", "t_s", "s",
     "seconds since the threads moved, when this sample's reads ended (measured: at or just "
     "after a multiple of the interval)"},
    {"balancing", "pages", NULL, "pages of the array, and on each node"},
    {"balancing", "pages_on_from", NULL, "pages of the array, and on each node"},
    {"balancing", "pages_on_to", NULL, "pages of the array, and on each node"},
    {"balancing", "pages_unreported", NULL,
     "resident pages that did not report their node in this sample (see \"Page census\"); not "
     "counted as having moved"},
    {"balancing", "frac_on_to", "1",
     "share of the pages that reported their node already on the threads' node (so a page the "
     "scanner has just unmapped never looks as if it went back); a sample in which no page "
     "reported is `invalid`, \"placement unverified\""},
    {"balancing", "read_gbs", "GB/s",
     "read bandwidth over the sample ending at `t_s`: bytes the threads read over the time from "
     "the last census to `t_s`, 1e9 B/s"},
    {"balancing", "status", NULL,
     "`ok`, `not_applicable` (why), `failed`, `invalid` (the read kernel's checksum was wrong)"},
    {"balancing", "note", NULL,
     "`ok`, `not_applicable` (why), `failed`, `invalid` (the read kernel's checksum was wrong)"},
    {"balancing", "numa_hint_faults", NULL,
     "NUMA hinting faults since the threads moved (`/proc/vmstat`, system-wide; -1: the kernel "
     "has no such counter)"},
    {"balancing", "numa_pages_migrated", NULL,
     "pages automatic NUMA balancing migrated since the threads moved (`/proc/vmstat`, "
     "system-wide; -1: the kernel has no such counter)"},
    {"counters", "rank", NULL, "join to the measurement's row"},
    {"counters", "measurement", NULL,
     "join to the measurement's row in `/latency`, `/bandwidth` or `/loaded_latency`; -1: a row "
     "of the rank saying why an event cannot be counted on this host"},
    {"counters", "experiment", NULL, "the experiment that wrote the row"},
    {"counters", "event", NULL,
     "`task_clock`, `page_faults`, `cpu_migrations`, `context_switches` (software); `cycles`, "
     "`instructions`, `llc_loads`, `llc_load_misses`, `dtlb_load_misses` (core); "
     "`mc_read_bytes`, `mc_write_bytes` (uncore); a `/proc/vmstat` field (vmstat)"},
    {"counters", "group", NULL, "`software`, `core`, `uncore` or `vmstat` (`counters.groups`)"},
    {"counters", "scope", NULL,
     "`thread`: summed over the measurement's threads; `socket`: one socket's memory "
     "controllers; `system`: the whole host"},
    {"counters", "socket", NULL,
     "the socket of a `socket` row (its order in the PMU's cpumask); -1 otherwise"},
    {"counters", "threads", NULL, "threads whose counts are summed (`thread` rows); 0 otherwise"},
    {"counters", "value", NULL, "the raw count, summed over the threads"},
    {"counters", "time_enabled_s", "s",
     "time the counters were enabled, summed over the threads; a thread's counter counts it "
     "while its thread runs"},
    {"counters", "time_running_s", "s",
     "time they were on the PMU, summed over the threads; below `time_enabled_s` when the "
     "kernel multiplexed them"},
    {"counters", "value_scaled", NULL,
     "each thread's count scaled by enabled / running, summed, in `unit` (bytes for the "
     "memory controllers: the count times the event's sysfs scale and unit); NaN when it never "
     "ran"},
    {"counters", "unit", NULL, "of `value_scaled`: `ns`, `events`, `B` or `pages`"},
    {"counters", "status", NULL,
     "`ok`; `not_applicable` (this host cannot count the event: `note` says why; one row per rank "
     "with `measurement` -1); `failed` (perf_event_open or read failed for some thread, the "
     "counter "
     "never got on the PMU, or the kernel never enabled it: `note` says which, `value_scaled` is "
     "NaN)"},
    {"counters", "note", NULL, "why a row is not `ok`, or that only user space was counted"},
    {"numastat", "rank", NULL, "join to `/latency` or `/bandwidth`"},
    {"numastat", "measurement", NULL, "join to `/latency` or `/bandwidth`"},
    {"numastat", "experiment", NULL, "the experiment that wrote the row"},
    {"numastat", "node", NULL, "Linux node id"},
    {"numastat", "numa_hit", NULL, "pages allocated on this node as intended"},
    {"numastat", "numa_miss", NULL, "pages allocated on this node though another was preferred"},
    {"numastat", "numa_foreign", NULL, "pages intended for this node allocated elsewhere"},
    {"numastat", "interleave_hit", NULL, "interleaved pages allocated on this node as intended"},
    {"numastat", "local_node", NULL, "pages allocated on this node by a task running on it"},
    {"numastat", "other_node", NULL,
     "pages allocated on this node by a task running on another node"},
    {"hugepages", "rank", NULL, "MPI world rank; joins /hosts"},
    {"hugepages", "node", NULL, "Linux node id"},
    {"hugepages", "page_bytes", "B", "page size of the pool: 2 MiB, 1 GiB"},
    {"hugepages", "pages_total", NULL,
     "`nr_hugepages` and `free_hugepages` of `/sys/devices/system/node/nodeN/hugepages/` when the "
     "rank started"},
    {"hugepages", "pages_free", NULL,
     "`nr_hugepages` and `free_hugepages` of `/sys/devices/system/node/nodeN/hugepages/` when the "
     "rank started"},
    {"topology_xml", "rank", NULL, "the host's first rank"},
    {"topology_xml", "part", NULL,
     "0, 1, 2...: join `text` in this order to get the XML `lstopo --of xml` would write (`lstopo "
     "--input FILE.xml` draws it)"},
    {"topology_xml", "text", NULL, "up to 1023 characters of the XML"},
};

static const struct column_doc *find(const char *table, const char *column)
{
    for (size_t i = 0; i < sizeof column_docs / sizeof column_docs[0]; i++)
        if (strcmp(column_docs[i].table, table) == 0 && strcmp(column_docs[i].column, column) == 0)
            return &column_docs[i];
    return NULL;
}

const char *nprb_column_unit(const char *table, const char *column)
{
    const struct column_doc *d = find(table, column);
    return d != NULL ? d->unit : NULL;
}

const char *nprb_column_description(const char *table, const char *column)
{
    const struct column_doc *d = find(table, column);
    return d != NULL ? d->description : "";
}
