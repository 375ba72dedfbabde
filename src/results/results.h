/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file results.h
 * Result rows (plain value structs, one per measurement) and their field descriptors, which drive
 * the HDF5 compound types, the gather and the schema document alike. Column names carry units.
 */
#ifndef NPRB_RESULTS_H
#define NPRB_RESULTS_H

#include "kernels/stream.h"
#include "results/row_ids.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define NPRB_SCHEMA_NAME "numaprobe"
#define NPRB_SCHEMA_VERSION "0.18.0"

#define NPRB_HOST_LEN 64
#define NPRB_NAME_LEN 24
#define NPRB_TEXT_LEN 128
#define NPRB_NOTE_LEN 160
#define NPRB_FLAGS_LEN 64
/** Room for a headline's passes (the experiments' `passes` keys stop at 5). */
#define NPRB_MAX_PASSES 8

/** Row status values (string column "status"). */
#define NPRB_ROW_OK "ok"
#define NPRB_ROW_INVALID "invalid"               /* ran, but validation or placement failed */
#define NPRB_ROW_FAILED "failed"                 /* could not run (memory refused, ...) */
#define NPRB_ROW_NOT_APPLICABLE "not_applicable" /* cannot apply on this host; note says why */

struct nprb_host_row {
    int32_t rank;
    int32_t host_index; /**< 0..hosts-1, ranks of one host share it */
    int32_t ranks_on_host;
    char hostname[NPRB_HOST_LEN];
    char fingerprint[17];
    char node_type[64];
    char cpu_model[64];
    int32_t packages, numa_nodes, cores, pus;
    uint64_t memory_bytes;
    uint64_t l1d_bytes, l2_bytes, l3_bytes;
    char kernel[64];
    char thp_mode[16];
    int32_t numa_balancing; /**< /proc/sys/kernel/numa_balancing, -1 unknown */
    char governor[24];
    char simd_path[16];
    char usable_cpus[NPRB_TEXT_LEN]; /**< what the launcher left us (affinity mask) */
    char binding_check[240]; /**< room for a launcher's binding and a cgroup's confinement */
    enum nprb_binding_verdict binding_verdict; /**< its first word, parsed; not a column */
    char launcher[NPRB_TEXT_LEN];    /**< who started the rank and what it said of binding */
    char omp_env[NPRB_TEXT_LEN];     /**< OMP_* variables as k=v;... */
    char boost[16];                  /**< CPU boost / turbo: on, off, unknown */
    char cpuset_cpus[NPRB_TEXT_LEN]; /**< Cpus_allowed_list: what the cgroup and binding allow */
    char cpuset_mems[NPRB_TEXT_LEN]; /**< Mems_allowed_list */
    char cgroup[NPRB_TEXT_LEN];      /**< the process's cgroup (v2 path, or v1 cpuset's) */
    char scheduler[8];               /**< slurm, lsf, pbs, none */
    char dimms[NPRB_TEXT_LEN];       /**< memory modules, e.g. "16x32GiB DDR4-3200 (smbios)" */
    int32_t dimm_speed_mts;          /**< their transfer rate (slowest), 0 unknown */
    double peak_gbs;                 /**< theoretical: channels x MT/s x 8 B; 0 unknown */
    char peak_basis[NPRB_TEXT_LEN];  /**< how peak_gbs was reckoned, and from what */
    char job_id[32];
    char status[16];
    char error[NPRB_NOTE_LEN];
    double elapsed_s;
    char restored[240];       /**< a setting a killed run left changed, and what this run did */
    uint64_t clock_tick_ns;   /**< the timer's resolution (nprb_clock_tick_ns) */
    char restore_outcome[16]; /**< what became of that setting, by name (host/balancing.h) */
};

struct nprb_numa_node_row {
    int32_t rank;
    int32_t node; /**< os index */
    uint64_t memory_bytes;
    uint64_t free_bytes; /**< MemFree when the rank recorded its topology (numactl's "free") */
    int32_t cpus;
    int32_t usable_cores;
    int32_t package;
    char cpu_list[NPRB_TEXT_LEN];
    int32_t mem_allowed;  /**< 1: in the job's cpuset.mems; 0: the cgroup keeps us off it */
    int32_t cpus_allowed; /**< 1: some CPUs in the job's cpuset.cpus (or none to have); else 0 */
};

struct nprb_distance_row {
    int32_t rank;
    int32_t from_node, to_node;
    int32_t slit;                 /**< firmware distance, 10 = local; 0 = not reported */
    uint64_t hmat_latency_ns;     /**< ACPI HMAT, 0 = not reported */
    uint64_t hmat_bandwidth_mibs; /**< ACPI HMAT, MiB/s, 0 = not reported */
};

struct nprb_latency_row {
    int32_t rank;
    int32_t measurement;
    char hostname[NPRB_HOST_LEN];
    char experiment[NPRB_NAME_LEN];
    enum nprb_experiment_id experiment_id; /**< the same, parsed (row_ids.h); not a column */
    int32_t cpu_node;
    int32_t mem_node; /**< -1 when the policy spans several nodes */
    char mem_policy[16];
    enum nprb_mem_policy mem_policy_id; /**< the same, parsed (row_ids.h); not a column */
    char pair_class[16]; /**< local, same_package, cross_package, memory_only; "-" for spreads */
    enum nprb_pair_class pair_class_id; /**< the same, parsed (row_ids.h); not a column */
    int32_t slit;                       /**< firmware distance cpu_node -> mem_node, 0 unknown */
    uint64_t size_bytes;
    char pattern[16];
    int32_t chains; /**< chains chased at once: 1, or N for parallel:N */
    uint64_t slot_bytes;
    uint64_t tlb_window_bytes;
    uint64_t page_bytes; /**< base page of the mapping: 4096, or 2 MiB for hugetlbfs */
    int32_t threads;
    int32_t samples;
    uint64_t accesses_per_sample;
    double latency_ns_min, latency_ns_median, latency_ns_p90, latency_ns_p99, latency_ns_max;
    double huge_page_frac;       /**< fraction of the buffer backed by THP, -1 unknown */
    double pages_on_target_frac; /**< of the pages that reported their node */
    uint64_t pages_unreported;   /**< resident pages the kernel would not place (NUMA balancing) */
    char cpus[NPRB_TEXT_LEN];    /**< where the measurement's threads ran, as a cpulist */
    char flags[NPRB_FLAGS_LEN];  /**< plausibility flags, comma-separated; never change a figure */
    /** The headline measured in passes spread over the run (plan/passes.c): how many, each
     * one's figure (first pass first, NaN past `passes`), the pass the row's figures are from,
     * and the headline's relative uncertainty. */
    int32_t passes;
    double pass_values[NPRB_MAX_PASSES];
    int32_t headline_pass;
    double uncertainty_pct; /**< percent; NaN: unknown */
    int8_t valid;
    char status[16];
    char note[NPRB_NOTE_LEN];
};

struct nprb_bandwidth_row {
    int32_t rank;
    int32_t measurement;
    char hostname[NPRB_HOST_LEN];
    char experiment[NPRB_NAME_LEN];
    enum nprb_experiment_id experiment_id; /**< the same, parsed (row_ids.h); not a column */
    int32_t cpu_node;
    int32_t mem_node;
    char mem_policy[16];
    enum nprb_mem_policy mem_policy_id; /**< the same, parsed (row_ids.h); not a column */
    char pair_class[16];
    enum nprb_pair_class pair_class_id; /**< the same, parsed (row_ids.h); not a column */
    int32_t slit;
    uint64_t size_bytes;
    char kernel[16];
    enum nprb_kernel_id kernel_id; /**< the same, parsed; not a column */
    char init_mode[16]; /**< who wrote the arrays first: threaded, serial, mismatched, ... */
    enum nprb_touch_mode init_mode_id; /**< the same, parsed (row_ids.h); not a column */
    uint64_t stride_bytes;             /**< read_strided's stride, 0 otherwise */
    uint64_t page_bytes;
    int32_t threads;
    int32_t repetitions;
    uint64_t passes_per_sample; /**< kernel passes timed together (small arrays need many) */
    uint64_t program_bytes;     /**< bytes per repetition as the code asks (STREAM's count) */
    uint64_t bus_bytes;         /**< bytes per repetition on the bus, write-allocate included */
    double gbs_best, gbs_median, gbs_worst; /**< program bytes / time, 1 GB/s = 1e9 B/s */
    double bus_gbs_best;
    /** Bytes the memory controllers counted over the kept samples (NaN: not counted), and
     * their ratio to bus_bytes over the same samples. */
    double mc_bytes, mc_bus_ratio;
    double huge_page_frac;
    double pages_on_target_frac; /**< of the pages that reported their node */
    uint64_t pages_unreported;   /**< resident pages the kernel would not place (NUMA balancing) */
    char cpus[NPRB_TEXT_LEN];    /**< where the measurement's threads ran, as a cpulist */
    char flags[NPRB_FLAGS_LEN];  /**< plausibility flags, comma-separated; never change a figure */
    /** The headline measured in passes spread over the run (plan/passes.c): how many, each
     * one's figure (first pass first, NaN past `passes`), the pass the row's figures are from,
     * and the headline's relative uncertainty. */
    int32_t passes;
    double pass_values[NPRB_MAX_PASSES];
    int32_t headline_pass;
    double uncertainty_pct; /**< percent; NaN: unknown */
    int8_t threads_pinned_ok;
    int8_t valid;
    char status[16];
    char note[NPRB_NOTE_LEN];
};

struct nprb_placement_row {
    int32_t rank;
    int32_t measurement;
    char experiment[NPRB_NAME_LEN];
    enum nprb_experiment_id experiment_id; /**< the same, parsed (row_ids.h); not a column */
    int32_t node;
    uint64_t pages;
};

struct nprb_cache_level_row {
    int32_t rank;
    int32_t level;           /**< 1, 2, 3 */
    uint64_t hwloc_bytes;    /**< what hwloc reports for the first cache of the level */
    uint64_t measured_bytes; /**< the latency_sweep step closest to it, 0 when none is near */
    double latency_ns_below; /**< random-chase latency at the measured size */
    int8_t agrees;           /**< 1: within a factor of 2 of hwloc; 0: not; -1: not judged */
    char note[NPRB_NOTE_LEN];
};

struct nprb_numastat_row {
    int32_t rank;
    int32_t measurement;
    char experiment[NPRB_NAME_LEN];
    enum nprb_experiment_id experiment_id; /**< the same, parsed (row_ids.h); not a column */
    int32_t node;
    /* Changes of the node's counters while the measurement ran, pages (system-wide). */
    int64_t numa_hit, numa_miss, numa_foreign, interleave_hit, local_node, other_node;
};

struct nprb_loaded_row {
    int32_t rank;
    int32_t measurement;
    char hostname[NPRB_HOST_LEN];
    char experiment[NPRB_NAME_LEN];
    enum nprb_experiment_id experiment_id; /**< the same, parsed (row_ids.h); not a column */
    int32_t cpu_node;
    int32_t mem_node;
    char mem_policy[16];
    enum nprb_mem_policy mem_policy_id; /**< the same, parsed (row_ids.h); not a column */
    char pair_class[16];
    enum nprb_pair_class pair_class_id; /**< the same, parsed (row_ids.h); not a column */
    int32_t slit;
    uint64_t size_bytes; /**< the chase's working set */
    int32_t load_threads;
    char load_kernel[16]; /**< read, or read_write */
    uint64_t delay_spins; /**< spin iterations after each line of load */
    double load_gbs;      /**< what the load threads achieved, 1e9 B/s (reads + writes) */
    double latency_ns_min, latency_ns_median, latency_ns_p90, latency_ns_p99, latency_ns_max;
    double pages_on_target_frac; /**< of the pages that reported their node */
    uint64_t pages_unreported;   /**< resident pages the kernel would not place (NUMA balancing) */
    char cpus[NPRB_TEXT_LEN];    /**< where the measurement's threads ran, as a cpulist */
    char flags[NPRB_FLAGS_LEN];  /**< plausibility flags, comma-separated; never change a figure */
    int8_t threads_pinned_ok;
    int8_t valid;
    char status[16];
    char note[NPRB_NOTE_LEN];
};

struct nprb_balancing_row {
    int32_t rank;
    int32_t measurement; /**< one time series */
    char hostname[NPRB_HOST_LEN];
    int32_t from_node;      /**< where the pages were first touched */
    int32_t to_node;        /**< where the threads moved */
    int32_t numa_balancing; /**< kernel.numa_balancing during the series */
    int32_t threads;
    double t_s; /**< seconds since the threads moved */
    uint64_t pages;
    uint64_t pages_on_from, pages_on_to;
    uint64_t pages_unreported; /**< resident pages the kernel would not place (NUMA balancing) */
    double frac_on_to;         /**< of the pages that reported their node */
    double read_gbs;           /**< read bandwidth over the interval ending at t_s */
    /** /proc/vmstat's counters since the threads moved (system-wide); -1: the kernel has none */
    int64_t numa_hint_faults, numa_pages_migrated;
    char status[16];
    char note[NPRB_NOTE_LEN];
};

/** A cache line handed between two pinned cores (c2c_latency): one pair, one transfer. */
struct nprb_c2c_row {
    int32_t rank;
    int32_t measurement;
    char hostname[NPRB_HOST_LEN];
    char experiment[NPRB_NAME_LEN];
    enum nprb_experiment_id experiment_id; /**< the same, parsed (row_ids.h); not a column */
    int32_t cpu_a;       /**< os index: the line's owner (it writes the flag, holds the chain) */
    int32_t cpu_b;       /**< os index: the core that reads the line from cpu_a's cache */
    int32_t node_a;      /**< os index of cpu_a's node; the lines are bound there */
    int32_t node_b;      /**< os index of cpu_b's node */
    char pair_class[16]; /**< smt, same_l2, same_l3, same_node, same_package, cross_package */
    char transfer[8];    /**< hitm (the line Modified there) or hit (clean) */
    int32_t samples;
    uint64_t transfers_per_sample;
    double latency_ns_min, latency_ns_median, latency_ns_p90, latency_ns_p99, latency_ns_max;
    double pages_on_target_frac; /**< of the lines' pages, on node_a */
    char cpus[NPRB_TEXT_LEN];    /**< where the two threads ran, as a cpulist */
    int32_t passes;              /**< as in the latency row */
    double pass_values[NPRB_MAX_PASSES];
    int32_t headline_pass;
    double uncertainty_pct;
    int8_t valid;
    char status[16];
    char note[NPRB_NOTE_LEN];
};

/** One counter of one measurement (or, with measurement -1, one the host cannot count). */
struct nprb_counter_row {
    int32_t rank;
    int32_t measurement; /**< joins the measurement's row; -1: a row of the rank, not of one */
    char experiment[NPRB_NAME_LEN];
    enum nprb_experiment_id experiment_id; /**< the same, parsed (row_ids.h); not a column */
    char event[NPRB_NAME_LEN]; /**< task_clock, cycles, mc_read_bytes, numa_hint_faults, ... */
    char group[16];            /**< software, core, uncore, vmstat */
    char scope[16];            /**< thread (summed over threads), socket, system */
    int32_t socket;            /**< the socket an uncore row counts; -1 otherwise */
    int32_t threads;           /**< threads summed (thread scope); 0 otherwise */
    uint64_t value;            /**< raw count (summed) */
    double time_enabled_s;     /**< summed over threads */
    double time_running_s;     /**< summed over threads; below enabled when multiplexed */
    double value_scaled;       /**< the value scaled to the time enabled, in unit */
    char unit[16];             /**< of value_scaled: ns, events, B, pages */
    char status[16];
    char note[NPRB_NOTE_LEN];
};

/** Huge page pools of one node: what hugetlbfs can give, per page size. */
struct nprb_hugepage_row {
    int32_t rank;
    int32_t node;
    uint64_t page_bytes;
    uint64_t pages_total, pages_free;
};

/** One piece of a host's hwloc topology XML (its first rank only): join `text` by `part`. */
#define NPRB_XML_PART_LEN 1024
struct nprb_topology_xml_row {
    int32_t rank;
    int32_t part;
    char text[NPRB_XML_PART_LEN];
};

enum nprb_table_id {
    NPRB_TABLE_HOSTS,
    NPRB_TABLE_NUMA_NODES,
    NPRB_TABLE_DISTANCES,
    NPRB_TABLE_LATENCY,
    NPRB_TABLE_BANDWIDTH,
    NPRB_TABLE_PLACEMENT,
    NPRB_TABLE_CACHE_LEVELS,
    NPRB_TABLE_NUMASTAT,
    NPRB_TABLE_LOADED_LATENCY,
    NPRB_TABLE_BALANCING,
    NPRB_TABLE_HUGEPAGES,
    NPRB_TABLE_TOPOLOGY_XML,
    NPRB_TABLE_COUNTERS,
    NPRB_TABLE_C2C_LATENCY,
    NPRB_N_TABLES
};

enum nprb_field_kind {
    NPRB_FIELD_I8,
    NPRB_FIELD_I32,
    NPRB_FIELD_I64,
    NPRB_FIELD_U64,
    NPRB_FIELD_F64,
    NPRB_FIELD_STR,
    NPRB_FIELD_F64_ARRAY /**< a fixed number of float64 (size / 8), NaN past those in use */
};

/** One column: one row of its table's descriptor (results/columns_*.c) says all of it. */
struct nprb_field {
    const char *name;
    size_t offset;
    size_t size;      /**< bytes; the string length for NPRB_FIELD_STR */
    const char *unit; /**< NULL: none */
    /** What a reader takes the column to be in a file that lacks it (numbers; NaN: unknown;
     * text reads empty). */
    double absent;
    const char *description;
    enum nprb_field_kind kind;
    /** Schema 0.N.0 added it, so a file of an older minor lacks it; 0: the major's first. */
    int since_minor;
};

struct nprb_table_desc {
    const char *name; /**< dataset name without the leading slash */
    size_t row_bytes;
    const struct nprb_field *fields;
    size_t field_count;
    int since_minor; /**< as a column's: a file of an older minor has no such table */
    const char *description;
};

/** The descriptor of a table. */
const struct nprb_table_desc *nprb_table_desc(enum nprb_table_id id);

/** The column of @p desc named @p name (a file's column), or NULL. */
const struct nprb_field *nprb_table_field(const struct nprb_table_desc *desc, const char *name);

/** A growable array of rows of one table. */
struct nprb_rows {
    size_t count, capacity, row_bytes;
    unsigned char *data;
};

/** Row @p i of @p rows (i < count), to be read as the table's row struct. */
static inline const void *nprb_row_at(const struct nprb_rows *rows, size_t i)
{
    return rows->data + i * rows->row_bytes;
}

/** Row @p i of @p rows (i < count), to be changed in place. */
static inline void *nprb_row_mut(struct nprb_rows *rows, size_t i)
{
    return rows->data + i * rows->row_bytes;
}

/** All rows one rank produced, by table. */
struct nprb_results {
    struct nprb_rows tables[NPRB_N_TABLES];
    /** When set, add and copy take it: rank 0's watchdog thread copies the rows of a rank whose
     * measurement hung, and that measurement may still wake and append. */
    pthread_mutex_t *lock;
};

void nprb_results_init(struct nprb_results *results);
void nprb_results_free(struct nprb_results *results);

/** Appends a copy of @p row to @p table. @return 0, or -1 with errno = ENOMEM. */
int nprb_results_add(struct nprb_results *results, enum nprb_table_id table, const void *row);

/** Copies every row of @p from into @p into (initialised). @return 0, or -1 (ENOMEM). */
int nprb_results_copy(struct nprb_results *into, struct nprb_results *from);

/** Copies a C string into a fixed-size column, always terminated. */
void nprb_copy_text(char *dst, size_t size, const char *src);
#define NPRB_SET_TEXT(field, src) nprb_copy_text((field), sizeof(field), (src))

/** Sets a bandwidth row's kernel, its text and its enum together. */
void nprb_row_set_kernel(struct nprb_bandwidth_row *row, enum nprb_kernel_id kernel);

/** Sets a bandwidth row's first-touch mode (`init_mode`), its text and its enum together. */
void nprb_row_set_touch(struct nprb_bandwidth_row *row, enum nprb_touch_mode mode);

/**
 * Sets the enums of @p count rows of @p table from their text, as a row read from a file has
 * only its text. An unknown experiment reads NPRB_EXPERIMENT_NONE, an unknown kernel
 * NPRB_N_KERNELS, policy NPRB_N_MEM_POLICIES, first-touch mode NPRB_N_TOUCH_MODES, pair class
 * NPRB_PAIR_UNKNOWN and binding check NPRB_BINDING_UNKNOWN: a row of a later version is kept,
 * and no reader takes it for another.
 */
void nprb_rows_parse_ids(enum nprb_table_id table, void *rows, size_t count);

#endif
