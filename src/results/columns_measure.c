/* SPDX-License-Identifier: BSD-3-Clause */
/* The columns of the measurement tables, one row a column: its
 * name and type (the row struct's field: the HDF5 type, the gather and the checkpoints follow),
 * its unit, the schema minor that added it and what a reader takes it to be in an older file,
 * and what it means. `--schema`, the tables' units and column_descriptions attributes and the
 * column tables of docs/SCHEMA.md all come from these rows. */
#include "results/columns.h"

#include <math.h>

#define ROW struct nprb_latency_row
static const struct nprb_field latency_fields[] = {
    I32(rank, NULL, "MPI world rank; joins /hosts"),
    I32(measurement, NULL, "id, unique within the rank; joins `/placement`"),
    STR(hostname, NULL, "MPI_Get_processor_name"),
    STR(experiment, NULL,
        "the experiment that made the row, by the name `numaprobe --experiments` lists and "
        "`--only` takes"),
    I32(cpu_node, NULL,
        "node of the core the chase thread was pinned to (for `latency_sweep`, the node that "
        "swept: the first CPU node, or each in turn with `latency_sweep.from: every`)"),
    I32(mem_node, NULL, "node the memory was bound to; -1 when the policy spans several nodes"),
    STR(mem_policy, NULL,
        "`bind` (to `mem_node`), `interleave` (over every node with memory), `preferred` "
        "(`mem_node` = the CPU node, spilling elsewhere only when full), `first_touch` (no policy: "
        "pages land where the pinned threads first write them; `mem_node` is where they should)"),
    STR(pair_class, NULL,
        "how the CPU node reaches the memory node, from hwloc: `local`, `same_package`, "
        "`cross_package`, `memory_only` (a node with memory and no CPUs, e.g. CXL); `-` for "
        "interleave"),
    I32(slit, NULL,
        "firmware (SLIT) distance from `cpu_node` to `mem_node` beside the measured figure, 0 when "
        "unknown or for interleave"),
    U64(size_bytes, "B", "working set"),
    STR(pattern, NULL,
        "`random`: one random cycle over the slots, random within `tlb_window_bytes` windows; "
        "`random_full`: random over the whole working set; `stride:S`: slots S bytes apart visited "
        "in address order (a sequential chase); `index_random`: independent reads `data[idx[i]]` "
        "through a random index (the textbook method; loads overlap, so it is far below the "
        "chase); `parallel:N`: N random chains, each over its own share of the working set and "
        "each sample starting each chain at a random place in its window, one load of each in "
        "turn from one thread (multichase's `parallelN`): the time is per load, so it falls "
        "with N as long as the core keeps more misses in flight"),
    ADDED(chains, I32, NULL, 13, 1,
          "chains chased at once: N for `parallel:N`, 1 for every other pattern (older: 1)"),
    U64(slot_bytes, "B",
        "distance between the chain's slots (each load touches the first word of a slot): 256 for "
        "`random` and `random_full`, so no adjacent-line prefetch lands on a slot the chain "
        "visits; the stride for `stride:S`; 8 for `index_random`"),
    U64(tlb_window_bytes, "B",
        "the random chain stays within windows of this size, visited in random order (multichase's "
        "TLB locality); 0: random over the whole working set"),
    U64(page_bytes, "B",
        "base page of the buffer's mapping: 4096, or 2097152 with `huge_pages: hugetlb` (THP is in "
        "`huge_page_frac`)"),
    I32(threads, NULL, "1"),
    I32(samples, NULL, "timed samples kept (one more was taken first and discarded)"),
    U64(accesses_per_sample, NULL,
        "dependent loads per sample (each sample lasts at least `latency_matrix.sample_time` and "
        "20 clock ticks)"),
    F64(latency_ns_min, "ns", "ns per dependent load over the samples (nearest-rank percentiles)"),
    F64(latency_ns_median, "ns",
        "ns per dependent load over the samples (nearest-rank percentiles)"),
    F64(latency_ns_p90, "ns", "ns per dependent load over the samples (nearest-rank percentiles)"),
    F64(latency_ns_p99, "ns", "ns per dependent load over the samples (nearest-rank percentiles)"),
    F64(latency_ns_max, "ns", "ns per dependent load over the samples (nearest-rank percentiles)"),
    F64(huge_page_frac, "1", "share of the buffer backed by transparent huge pages, -1 unknown"),
    F64(pages_on_target_frac, "1",
        "share of the buffer's pages that reported their node found on the policy's node(s) (see "
        "\"Page census\" below)"),
    ADDED(pages_unreported, U64, NULL, 4, 0,
          "resident pages whose node the kernel would not tell (automatic NUMA balancing had "
          "unmapped them and the frame could not be read); left out of `pages_on_target_frac`, "
          "never counted as misplaced"),
    ADDED(cpus, STR, NULL, 4, 0,
          "the CPUs (Linux cpulist, e.g. `0-3,8`) the measurement's threads were on when they "
          "finished, read with `sched_getcpu`: check the pinning without trusting "
          "`threads_pinned_ok`; empty for rows that did not run"),
    ADDED(flags, STR, NULL, 4, 0,
          "plausibility flags, comma-separated, empty when none (see \"Plausibility flags\" "
          "below); a flag never changes a figure or a status"),
    ADDED(passes, I32, NULL, 9, 1,
          "how many passes measured the headline (`latency_ns_median`), spread over the run: 1, "
          "or the experiment's `passes` for a headline cell (a bound cell of `latency_matrix`, "
          "an `mlp` row); a pass that did not measure is not counted (`note` says so)"),
    ADDED(pass_values, F64_ARRAY, "ns", 17, NAN,
          "each pass's `latency_ns_median`, the first pass first, NaN past `passes` (older: "
          "text, the values space-separated)"),
    ADDED(headline_pass, I32, NULL, 17, 1,
          "the pass (1: the first) whose figures the row gives: the lowest median, since "
          "interference only raises a latency; a later pass counts only when its pages were on "
          "target as the first pass's were. Placement and counters are the first pass's"),
    ADDED(uncertainty_pct, F64, "%", 9, NAN,
          "relative uncertainty of `latency_ns_median`, in percent: the largest of 1% (what "
          "differs between runs on any host: the physical pages a buffer gets), the headline "
          "pass's burst spread, (p90 - median) / median, and twice the distance between the two "
          "best passes over the headline (one disturbed pass does not widen it); NaN for rows "
          "that did not run (docs/ANALYSIS.md, \"Noise\")"),
    I8(valid, NULL, "1 when `status` is `ok`"),
    STR(status, NULL,
        "see conventions; `invalid` when under 99% of the pages that reported are on target, "
        "interleave is uneven (beyond 5% + 512 pages per node), no page reported at all (placement "
        "unverified), or the thread left its core"),
    STR(note, NULL, "why a row is not `ok`"),
};
#undef ROW

const struct nprb_table_desc nprb_table_latency =
    TABLE("latency", struct nprb_latency_row, latency_fields, 0, "one row per latency measurement");

#define ROW struct nprb_bandwidth_row
static const struct nprb_field bandwidth_fields[] = {
    I32(rank, NULL, "as in `/latency`"),
    I32(measurement, NULL, "as in `/latency`"),
    STR(hostname, NULL, "as in `/latency`"),
    STR(experiment, NULL, "as in `/latency`"),
    I32(cpu_node, NULL,
        "as in `/latency`; -1 for `first_touch` rows and `max_bandwidth`'s whole-run rows, which "
        "use every usable core of the host (each whole-run row is followed by one row per node "
        "with cores, measured in the same run: that node's cores, their share of the bytes, "
        "their slowest thread's time)"),
    I32(mem_node, NULL, "as in `/latency`; -1 in a `max_bandwidth` whole-run row"),
    STR(mem_policy, NULL, "as in `/latency`"),
    STR(pair_class, NULL,
        "as in `/latency`; in a `max_bandwidth` whole-run row `local` (every node its own memory) "
        "or the class of its pairs i -> (i + N/2) mod N (`mixed` where they differ)"),
    I32(slit, NULL, "as in `/latency`"),
    U64(size_bytes, "B", "per array (a `max_bandwidth` node row: its part of each array)"),
    STR(kernel, NULL,
        "`read`, `write`, `write_nt`, `copy`, `copy_nt`, `copy_movsb` (x86-64), `scale`, `add`, "
        "`triad`, `read_strided`, `read_random`, `mix_3to1`, `mix_2to1`, `mix_1to1`, `triad_nt`, "
        "`write_zva` (Arm64); a kernel the host's CPU lacks has a `not_applicable` row (formulas "
        "and byte counts: `numaprobe --kernels`)"),
    STR(init_mode, NULL,
        "who wrote the arrays first: `threaded` (each thread its own chunk, the kernel's "
        "schedule), and for `first_touch`: `serial` (one thread on `mem_node` wrote everything), "
        "`mismatched` (thread t wrote the chunk thread t + T/2 reads), `interleave` (interleaved, "
        "written threaded), `bind` (each chunk `mbind`-ed to its reader's node first): the names "
        "of `first_touch.modes`; before 0.10.0 `bind` read `bound` and `interleave` read "
        "`threaded`"),
    U64(stride_bytes, "B", "stride of `read_strided`, 0 for other kernels"),
    U64(page_bytes, "B", "as in `/latency`"),
    I32(threads, NULL, "threads, one pinned per core of `cpu_node`"),
    I32(repetitions, NULL, "timed samples kept (one more was run first and discarded)"),
    U64(passes_per_sample, NULL,
        "passes over the arrays timed together in one sample (small arrays need many to last "
        "`sample_time` and 20 clock ticks)"),
    U64(program_bytes, "B",
        "bytes per repetition as the code reads and writes them (STREAM's count)"),
    U64(bus_bytes, "B", "bytes per repetition crossing the memory bus, write-allocate included"),
    F64(gbs_best, "GB/s",
        "`program_bytes` / time, from the fastest, median and slowest repetition"),
    F64(gbs_median, "GB/s",
        "`program_bytes` / time, from the fastest, median and slowest repetition"),
    F64(gbs_worst, "GB/s",
        "`program_bytes` / time, from the fastest, median and slowest repetition"),
    F64(bus_gbs_best, "GB/s", "`bus_bytes` / fastest time"),
    ADDED(mc_bytes, F64, "B", 7, NAN,
          "bytes the memory controllers counted over the kept samples, reads and writes, every "
          "socket (`/counters` rows `mc_read_bytes`, `mc_write_bytes`); the controllers see every "
          "process's traffic. NaN where they were not counted (no uncore PMU, no privilege, "
          "`counters.groups` without `uncore`)"),
    ADDED(mc_bus_ratio, F64, "1", 7, NAN,
          "`mc_bytes` / (`bus_bytes` x `passes_per_sample` x `repetitions`): 1.0 when the bus "
          "carried what the kernel's formula says; above 1 for a store kernel whose write-allocate "
          "the formula left out, below for a non-temporal one that avoided it. NaN where not "
          "counted"),
    F64(huge_page_frac, "1", "as in `/latency`"),
    F64(pages_on_target_frac, "1",
        "as in `/latency`; for `first_touch`, the share of pages on the node of the thread that "
        "reads them, -1 where none of them reported its node"),
    ADDED(pages_unreported, U64, NULL, 4, 0, "as in `/latency`"),
    ADDED(cpus, STR, NULL, 4, 0, "as in `/latency`; lists every thread's CPU"),
    ADDED(flags, STR, NULL, 4, 0, "as in `/latency`"),
    ADDED(passes, I32, NULL, 9, 1,
          "as in `/latency`, of `gbs_best`: a bound cell of `bandwidth_matrix`'s read and triad "
          "kernels, `first_touch`'s bind mode (the host-wide peak), a `max_bandwidth` row"),
    ADDED(pass_values, F64_ARRAY, "GB/s", 17, NAN, "each pass's `gbs_best`, as in `/latency`"),
    ADDED(headline_pass, I32, NULL, 17, 1,
          "as in `/latency`: the pass with the highest `gbs_best`, since interference only lowers "
          "a bandwidth (STREAM and Intel MLC report the best for the same reason); a later pass "
          "counts only when its pages were on target and its threads pinned as the first's"),
    ADDED(uncertainty_pct, F64, "%", 9, NAN,
          "relative uncertainty of `gbs_best`, as in `/latency`, with the burst spread (best - "
          "median) / best"),
    I8(threads_pinned_ok, NULL, "1 when every thread was pinned and still on its core at the end"),
    I8(valid, NULL, "as in `/latency`"),
    STR(status, NULL,
        "as in `/latency`; a wrong checksum makes the row `invalid` and the job exit 4"),
    STR(note, NULL, "as in `/latency`"),
};
#undef ROW

const struct nprb_table_desc nprb_table_bandwidth =
    TABLE("bandwidth", struct nprb_bandwidth_row, bandwidth_fields, 0,
          "one row per bandwidth measurement");

#define ROW struct nprb_placement_row
static const struct nprb_field placement_fields[] = {
    I32(rank, NULL, "join to `/latency` or `/bandwidth`"),
    I32(measurement, NULL, "join to `/latency` or `/bandwidth`"),
    STR(experiment, NULL, "the experiment that wrote the row"),
    I32(node, NULL, "Linux node id"),
    U64(pages, NULL, "base pages (4 KiB) of the buffer found on the node after first touch"),
};
#undef ROW

const struct nprb_table_desc nprb_table_placement =
    TABLE("placement", struct nprb_placement_row, placement_fields, 0,
          "pages per node for every measurement");

#define ROW struct nprb_numastat_row
static const struct nprb_field numastat_fields[] = {
    I32(rank, NULL, "join to `/latency` or `/bandwidth`"),
    I32(measurement, NULL, "join to `/latency` or `/bandwidth`"),
    STR(experiment, NULL, "the experiment that wrote the row"),
    I32(node, NULL, "Linux node id"),
    I64(numa_hit, NULL, "pages allocated on this node as intended"),
    I64(numa_miss, NULL, "pages allocated on this node though another was preferred"),
    I64(numa_foreign, NULL, "pages intended for this node allocated elsewhere"),
    I64(interleave_hit, NULL, "interleaved pages allocated on this node as intended"),
    I64(local_node, NULL, "pages allocated on this node by a task running on it"),
    I64(other_node, NULL, "pages allocated on this node by a task running on another node"),
};
#undef ROW

const struct nprb_table_desc nprb_table_numastat = TABLE(
    "numastat", struct nprb_numastat_row, numastat_fields, 0,
    "the kernel's allocation counters around each measurement (one row per measurement and node)");

#define ROW struct nprb_loaded_row
static const struct nprb_field loaded_fields[] = {
    I32(rank, NULL, "as in `/latency`"),
    I32(measurement, NULL, "as in `/latency`"),
    STR(hostname, NULL, "as in `/latency`"),
    STR(experiment, NULL, "`loaded_latency`"),
    I32(cpu_node, NULL, "as in `/latency`"),
    I32(mem_node, NULL, "as in `/latency`"),
    STR(mem_policy, NULL, "as in `/latency`"),
    STR(pair_class, NULL, "as in `/latency`"),
    I32(slit, NULL, "as in `/latency`"),
    U64(size_bytes, "B", "the chase's working set"),
    I32(load_threads, NULL, "threads making load (every other usable core of the node by default)"),
    STR(load_kernel, NULL, "`read`, or `read_write` (each line written back)"),
    U64(delay_spins, "iterations",
        "spin iterations after each line of load; 0 = as fast as the threads can"),
    F64(load_gbs, "GB/s",
        "bytes the load threads moved (reads + writes) over the measurement, 1e9 B/s"),
    F64(latency_ns_min, "ns", "the chase under that load"),
    F64(latency_ns_median, "ns", "the chase under that load"),
    F64(latency_ns_p90, "ns", "the chase under that load"),
    F64(latency_ns_p99, "ns", "the chase under that load"),
    F64(latency_ns_max, "ns", "the chase under that load"),
    F64(pages_on_target_frac, "1", "share of the chase buffer's pages on `mem_node` (verified)"),
    ADDED(pages_unreported, U64, NULL, 4, 0, "as in `/latency`"),
    ADDED(cpus, STR, NULL, 4, 0,
          "as in `/latency`; lists the chasing thread's CPU and the load threads'"),
    ADDED(flags, STR, NULL, 4, 0, "as in `/latency`"),
    I8(threads_pinned_ok, NULL, "the chase and every load thread stayed on their cores"),
    I8(valid, NULL, "as in `/latency`"),
    STR(status, NULL, "as in `/latency`"),
    STR(note, NULL, "as in `/latency`"),
};
#undef ROW

const struct nprb_table_desc nprb_table_loaded_latency =
    TABLE("loaded_latency", struct nprb_loaded_row, loaded_fields, 0,
          "latency under load (one row per CPU node, memory node and delay)");

#define ROW struct nprb_balancing_row
static const struct nprb_field balancing_fields[] = {
    I32(rank, NULL, "MPI world rank; joins /hosts"),
    I32(measurement, NULL, "one series"),
    STR(hostname, NULL, "MPI_Get_processor_name"),
    I32(from_node, NULL, "where the pages were first touched, where the threads moved"),
    I32(to_node, NULL, "where the pages were first touched, where the threads moved"),
    I32(numa_balancing, NULL, "`kernel.numa_balancing` during the series"),
    I32(threads, NULL, "threads that ran the measurement"),
    F64(t_s, "s",
        "seconds since the threads moved, when this sample's reads ended (measured: at or just "
        "after a multiple of the interval)"),
    U64(pages, NULL, "pages of the array, and on each node"),
    U64(pages_on_from, NULL, "pages of the array, and on each node"),
    U64(pages_on_to, NULL, "pages of the array, and on each node"),
    ADDED(pages_unreported, U64, NULL, 4, 0,
          "resident pages that did not report their node in this sample (see \"Page census\"); "
          "not counted as having moved"),
    F64(frac_on_to, "1",
        "share of the pages that reported their node already on the threads' node (so a page the "
        "scanner has just unmapped never looks as if it went back); a sample in which no page "
        "reported is `invalid`, \"placement unverified\""),
    F64(read_gbs, "GB/s",
        "read bandwidth over the sample ending at `t_s`: bytes the threads read over the time from "
        "the last census to `t_s`, 1e9 B/s"),
    ADDED(numa_hint_faults, I64, NULL, 7, -1,
          "NUMA hinting faults since the threads moved, from `/proc/vmstat` (system-wide); -1 "
          "where the kernel has no such counter (built without `CONFIG_NUMA_BALANCING`) and in "
          "rows that never ran"),
    ADDED(numa_pages_migrated, I64, NULL, 7, -1,
          "pages automatic NUMA balancing migrated since the threads moved, likewise: they grow "
          "while the pages move with `numa_balancing` 1, and stay put with 0"),
    STR(status, NULL,
        "`ok`, `not_applicable` (why), `failed`, `invalid` (the read kernel's checksum was wrong)"),
    STR(note, NULL,
        "`ok`, `not_applicable` (why), `failed`, `invalid` (the read kernel's checksum was wrong)"),
};
#undef ROW

const struct nprb_table_desc nprb_table_balancing =
    TABLE("balancing", struct nprb_balancing_row, balancing_fields, 0,
          "automatic NUMA balancing as a time series (one row per sample)");

#define ROW struct nprb_counter_row
static const struct nprb_field counter_fields[] = {
    I32(rank, NULL, "join to the measurement's row"),
    I32(measurement, NULL,
        "join to the measurement's row in `/latency`, `/bandwidth` or `/loaded_latency`; -1: a row "
        "of the rank saying why an event cannot be counted on this host"),
    STR(experiment, NULL, "the experiment that wrote the row"),
    STR(event, NULL,
        "`task_clock`, `page_faults`, `cpu_migrations`, `context_switches` (software); `cycles`, "
        "`instructions`, `llc_loads`, `llc_load_misses`, `dtlb_load_misses` (core); "
        "`mc_read_bytes`, `mc_write_bytes` (uncore); a `/proc/vmstat` field (vmstat)"),
    STR(group, NULL, "`software`, `core`, `uncore` or `vmstat` (`counters.groups`)"),
    STR(scope, NULL,
        "`thread`: summed over the measurement's threads; `socket`: one socket's memory "
        "controllers; `system`: the whole host"),
    I32(socket, NULL,
        "the socket of a `socket` row (its order in the PMU's cpumask); -1 otherwise"),
    I32(threads, NULL, "threads whose counts are summed (`thread` rows); 0 otherwise"),
    U64(value, NULL, "the raw count, summed over the threads"),
    F64(time_enabled_s, "s",
        "time the counters were enabled, summed over the threads (0 for `vmstat`); the kernel "
        "counts a thread's counter as enabled while its thread runs, so a thread that other load "
        "kept off its core counts less than the samples' wall time"),
    F64(time_running_s, "s",
        "time they were on the PMU, summed over the threads; below `time_enabled_s` when the "
        "kernel multiplexed them"),
    F64(value_scaled, NULL,
        "the figure to use: each thread's `value` x enabled / running, summed, in `unit` "
        "(`uncore`: times the event's sysfs scale and unit, in bytes); NaN when it never ran"),
    STR(unit, NULL, "of `value_scaled`: `ns`, `events`, `B` or `pages`"),
    STR(status, NULL,
        "`ok`; `not_applicable` (this host cannot count the event: `note` says why; one row per "
        "rank with `measurement` -1); `failed` (a thread could not open or read the counter, it "
        "never got on the PMU, or the kernel never enabled it over a measurement that ran, or "
        "for under half of it on a thread never switched out, as a virtual machine's perf does "
        "now and then: `note` says which, and `value_scaled` is NaN, never a zero that would read "
        "as \"not migrated, not preempted\" nor a part read as the whole). `numaprobe check` "
        "refuses an `ok` perf row with `time_enabled_s` 0"),
    STR(note, NULL,
        "why a row is not `ok`; \"user space only\" when `perf_event_paranoid` kept the kernel's "
        "share out"),
};
#undef ROW

const struct nprb_table_desc nprb_table_counters =
    TABLE("counters", struct nprb_counter_row, counter_fields, 7,
          "what the kernel, the CPU and the memory controllers counted during each measurement "
          "(one row per measurement and event)");

#define ROW struct nprb_c2c_row
static const struct nprb_field c2c_fields[] = {
    I32(rank, NULL, "as in `/latency`"),
    I32(measurement, NULL, "as in `/latency`"),
    STR(hostname, NULL, "as in `/latency`"),
    STR(experiment, NULL, "`c2c_latency`"),
    I32(cpu_a, NULL,
        "os index of the CPU that owns the line: it writes the flag (`hitm`), or holds the "
        "chain clean in its cache (`hit`)"),
    I32(cpu_b, NULL, "os index of the CPU that reads the line out of `cpu_a`'s cache"),
    I32(node_a, NULL, "os index of `cpu_a`'s NUMA node; the lines' pages are bound there"),
    I32(node_b, NULL, "os index of `cpu_b`'s NUMA node"),
    STR(pair_class, NULL,
        "what the two CPUs share, nearest first: `smt` (a core), `same_l2`, `same_l3` (a CCX), "
        "`same_node`, `same_package`, `cross_package`"),
    STR(transfer, NULL,
        "`hitm`: the line Modified in the other core's cache, a ping-pong of two flag lines, one "
        "way = half a round trip (as c2clat); `hit`: a chase through lines clean in the other "
        "core's cache (flushed, then read by `cpu_a`)"),
    I32(samples, NULL, "timed samples kept"),
    U64(transfers_per_sample, NULL, "one-way transfers (hitm) or loads (hit) in one sample"),
    F64(latency_ns_min, "ns", "one transfer, over the samples"),
    F64(latency_ns_median, "ns", "one transfer, over the samples"),
    F64(latency_ns_p90, "ns", "one transfer, over the samples"),
    F64(latency_ns_p99, "ns", "one transfer, over the samples"),
    F64(latency_ns_max, "ns", "one transfer, over the samples"),
    F64(pages_on_target_frac, "1", "share of the lines' pages on `node_a` (verified)"),
    STR(cpus, NULL, "where the two threads were when they finished, as a cpulist"),
    ADDED(passes, I32, NULL, 17, 1, "as in `/latency`, of `latency_ns_median`: every pair"),
    ADDED(pass_values, F64_ARRAY, "ns", 17, NAN, "as in `/latency`"),
    ADDED(headline_pass, I32, NULL, 17, 1, "as in `/latency`: the pass with the lowest median"),
    ADDED(uncertainty_pct, F64, "%", 17, NAN, "as in `/latency`"),
    I8(valid, NULL, "as in `/latency`"),
    STR(status, NULL,
        "as in `/latency`; `invalid` when a thread left its CPU or the pages are not on `node_a`"),
    STR(note, NULL, "as in `/latency`"),
};
#undef ROW

const struct nprb_table_desc nprb_table_c2c_latency =
    TABLE("c2c_latency", struct nprb_c2c_row, c2c_fields, 14,
          "cache-line transfer between two pinned cores (one row per CPU pair and transfer)");
