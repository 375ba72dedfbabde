/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file experiment.h
 * What experiments share: the context a measurement runs in, the row helpers and the planning
 * helpers. Each experiment's file exports its descriptor (descriptor.h); latency experiments
 * measure with nprb_measure_latency(), bandwidth experiments with nprb_measure_bandwidth() (or,
 * for first_touch, with the bandwidth engine under its own rules); what differs is which items
 * they plan.
 */
#ifndef NPRB_EXPERIMENT_H
#define NPRB_EXPERIMENT_H

#include "config/config.h"
#include "measure/descriptor.h"
#include "util/log.h"
#include "measure/plan.h"
#include "results/results.h"
#include "util/status.h"
#include "host/counters.h"
#include "host/topo.h"
#include "host/uncore.h"
#include "host/verify.h"
#include "host/vmstat.h"

struct nprb_context {
    const struct nprb_config *cfg;
    struct nprb_topo *topo;
    const struct nprb_log *log;
    struct nprb_results *results; /**< rows go here */
    int rank;
    const char *hostname;
    int32_t next_measurement; /**< id of the next row, unique within the rank */
};

/**
 * Fills the columns every measurement row starts with (rank, measurement id, host, experiment,
 * nodes, policy, size). A macro because /latency and /bandwidth rows are different structs with
 * the same leading fields.
 */
#define NPRB_FILL_ROW_HEAD(row, ctx, item)                                                         \
    do {                                                                                           \
        (row)->rank = (ctx)->rank;                                                                 \
        (row)->measurement = (ctx)->next_measurement++;                                            \
        NPRB_SET_TEXT((row)->hostname, (ctx)->hostname);                                           \
        NPRB_SET_EXPERIMENT((row), (item)->experiment->id);                                        \
        (row)->cpu_node = (item)->cpu_node >= 0                                                    \
                              ? (int32_t)nprb_topo_node((ctx)->topo, (item)->cpu_node)->os_index   \
                              : -1;                                                                \
        (row)->mem_node = (item)->mem_node >= 0                                                    \
                              ? (int32_t)nprb_topo_node((ctx)->topo, (item)->mem_node)->os_index   \
                              : -1;                                                                \
        NPRB_SET_MEM_POLICY((row), (item)->policy);                                                \
        NPRB_SET_PAIR_CLASS(                                                                       \
            (row), (item)->mem_node >= 0 && (item)->cpu_node >= 0                                  \
                       ? nprb_topo_pair_class((ctx)->topo, (item)->cpu_node, (item)->mem_node)     \
                       : NPRB_PAIR_NONE);                                                          \
        (row)->slit =                                                                              \
            (item)->mem_node >= 0                                                                  \
                ? (int32_t)nprb_topo_distance((ctx)->topo, (item)->cpu_node, (item)->mem_node)     \
                : 0;                                                                               \
        (row)->size_bytes = (item)->size_bytes;                                                    \
    } while (0)

/** Measures a latency item into its /latency row: a descriptor's `measure`. */
enum nprb_status nprb_measure_latency(struct nprb_context *ctx, const struct nprb_plan_item *item);
/** Measures a bandwidth item into its /bandwidth row under the default rules (each thread's
 * chunk starts on 8 elements, pages judged by the item's policy): a descriptor's `measure`. */
enum nprb_status nprb_measure_bandwidth(struct nprb_context *ctx,
                                        const struct nprb_plan_item *item);

struct nprb_bandwidth_result;
struct nprb_bandwidth_row;

/**
 * How a bandwidth experiment lays out and judges a measurement: the engine (bandwidth.c) is the
 * same for all; first_touch lays chunks on page boundaries, counts each thread's pages on its
 * own node and has its own rule for what counts as placed.
 */
struct nprb_bandwidth_rules {
    size_t chunk_align;     /**< elements each thread's chunk starts on */
    bool per_thread_census; /**< find each thread's pages' share on its node (local_frac) */
    /** With per_thread_census: the node (os index) a thread's chunk belongs on, from its reader's
     * node (NULL: the reader's own). */
    unsigned (*memory_node)(const struct nprb_topo *topo, unsigned reader_node);
    /** With per_thread_census: after the item's row, one row per reader node, measured in the
     * same run (its cores' share, its slowest thread's time, while every node streamed). */
    bool node_rows;
    /** The row's status once measured (NULL: the pages must follow the item's policy). */
    const char *(*judge)(const struct nprb_plan_item *item, const struct nprb_bandwidth_result *res,
                         const unsigned *targets, int target_count, struct nprb_bandwidth_row *row);
};

/** Measures a bandwidth item into its rows under an experiment's own @p rules (layout, census,
 * per-node rows, judge), for an experiment whose `measure` wraps it; nprb_measure_bandwidth() is
 * this under the default rules. */
enum nprb_status nprb_measure_bandwidth_with_rules(struct nprb_context *ctx,
                                                   const struct nprb_plan_item *item,
                                                   const struct nprb_bandwidth_rules *rules);

/**
 * The stdout section of a bandwidth sweep: the measured /bandwidth rows of @p experiment in
 * @p rows as a grid, one row per kernel (per stride for read_strided), GB/s (best) by size per
 * array (the thread count then goes in the title), or by thread count when @p by_threads; titled
 * "EXPERIMENT on HOST: @p what". @return whether it printed anything.
 */
bool nprb_bandwidth_report(FILE *out, const struct nprb_results *rows,
                           enum nprb_experiment_id experiment, bool by_threads, const char *what);

/**
 * Plans a matrix: @p base bound to every node j with memory from every node i with usable cores
 * (only j = i with NPRB_PAIRS_LOCAL), memory node by memory node so that a kept buffer serves
 * every CPU node, then each of @p policies from every node's cores.
 */
int nprb_plan_matrix(struct nprb_planner *p, const struct nprb_plan_item *base, const char *key,
                     enum nprb_pairs pairs, const struct nprb_policy_list *policies);

/**
 * Plans a matrix of each of @p count points (@p bases: the same placement, another chain count
 * or kernel) as nprb_plan_matrix() does, but every point on memory node j before node j + 1, so
 * that one mapping per memory node serves them all; then each point's @p policies.
 */
int nprb_plan_matrix_series(struct nprb_planner *p, const struct nprb_plan_item *bases, int count,
                            const char *key, enum nprb_pairs pairs,
                            const struct nprb_policy_list *policies);

/**
 * Sizes for a cache sweep: the configured list, or (count 0) points from 2 KiB to @p max_bytes
 * (0: 4x the last-level cache) around the detected caches, capped at a quarter of the first CPU
 * node's free memory. A chase that touches one line per @p span_per_line lines' worth of span
 * (4 for 256 B slots) fills a cache at that multiple of its size: points go around that too.
 * @return how many were written.
 */
/** The smallest array an automatic stream size gives: below it a pass is too short to time. */
#define NPRB_STREAM_AUTO_MIN (UINT64_C(64) << 20)

/**
 * Bytes per array of a streaming measurement whose size is "0" (auto): STREAM's rule, four times
 * the last-level caches a node's cores share (the node with the most), so that at most a quarter
 * of a pass can be served from cache; rounded up to 2 MiB, at least NPRB_STREAM_AUTO_MIN.
 * hwloc's cache sizes; 8 MiB where it reports none.
 */
uint64_t nprb_stream_auto_bytes(const struct nprb_topo *topo);

int nprb_sweep_sizes(const struct nprb_planner *p, const struct nprb_sizes *configured,
                     uint64_t max_bytes, uint64_t span_per_line, uint64_t *sizes, int cap);

/** Why node @p node cannot be measured from its own cores (empty string when it can). */
void nprb_local_skip_reason(const struct nprb_node_info *node, char *why, size_t len);

/**
 * Why this rank does not measure CPU node @p index's row (empty string when it does): the local
 * reasons above, or another rank of the host measures it (share.node_owner), so that ranks whose
 * bindings overlap measure each node once.
 */
void nprb_cpu_node_skip_reason(const struct nprb_planner *p, int index, char *why, size_t len);

/** Why memory of @p node cannot be used by this job (its cgroup's cpuset.mems); "" when it can. */
void nprb_memory_skip_reason(const struct nprb_node_info *node, char *why, size_t len);

/**
 * The node a per-host sweep runs on (first node with a usable core) and, in @p why, the reason
 * it cannot run on this rank (empty when it can): sweeps are made once per host, by its first
 * rank, since ranks sharing a host share its caches.
 */
int nprb_sweep_node(const struct nprb_planner *p, char *why, size_t len);

/** The policy's nodes (os indexes) for an item: its memory node, or every node with memory. */
int nprb_item_targets(const struct nprb_topo *topo, const struct nprb_plan_item *item,
                      unsigned *nodes);

/** The page size an item's buffers ask for: its own (page_size), else the config's huge_pages. */
enum nprb_thp_mode nprb_item_huge_pages(const struct nprb_context *ctx,
                                        const struct nprb_plan_item *item);

/** The PUs an item's threads run on (one per usable core of its CPU node, at most @p max). */
int nprb_item_pus(const struct nprb_topo *topo, const struct nprb_plan_item *item, unsigned *pus,
                  int max);

/**
 * Whether a census meets the policy: 99% of the pages that reported their node on the target
 * node(s), and for interleave each node within 5% (+ one 2 MiB block) of an even share of them.
 * Pages that did not report (NUMA balancing) are not blamed; a census of which no page reported
 * cannot be verified. When not met, says how in @p note.
 */
bool nprb_placement_ok(const struct nprb_census *census, const unsigned *nodes, int count,
                       enum nprb_mem_policy policy, char *note, size_t len);

/**
 * After latency_sweep: records in /cache_levels, for L1d, L2 and L3, hwloc's size beside the
 * nearest step of the measured random-chase curve, and warns where they disagree.
 */
void nprb_record_cache_levels(struct nprb_context *ctx);

/** The stdout section of /cache_levels: hwloc's size of each level beside the step the curve
 * shows. @return whether @p rows had any to print. */
bool nprb_cache_levels_report(FILE *out, const struct nprb_results *rows);

/**
 * What the kernel had counted before a measurement: every node's allocation counters
 * (NPRB_NUMASTAT_FIELDS per node, node order; NULL when unreadable) and /proc/vmstat.
 */
struct nprb_kernel_snapshot {
    int nodes;
    uint64_t *numastat;
    struct nprb_vmstat vmstat;
    bool vmstat_ok;
};

/** Takes the snapshot. Free it with nprb_kernel_snapshot_free(). */
void nprb_kernel_snapshot_take(const struct nprb_context *ctx, struct nprb_kernel_snapshot *snap);
void nprb_kernel_snapshot_free(struct nprb_kernel_snapshot *snap);

/**
 * The counters beside a measurement: its /numastat rows (each node's change since @p before),
 * and its /counters rows: the threads' counts of @p counts (NULL: the measurement counted
 * none), the memory controllers' bytes of @p uncore (NULL: none) and the /proc/vmstat deltas
 * since @p before (with counters.groups' vmstat). An event this host cannot count has no row
 * here, but one of the rank's (nprb_record_counters_unavailable()).
 */
void nprb_record_counters(struct nprb_context *ctx, int32_t measurement,
                          enum nprb_experiment_id experiment,
                          const struct nprb_kernel_snapshot *before,
                          const struct nprb_counts *counts,
                          const struct nprb_uncore_counts *uncore);

/**
 * The /counters rows of @p counts alone: a part of a measurement whose numastat and vmstat
 * deltas, host-wide, went with the whole (nprb_record_counters()).
 */
void nprb_record_thread_counters(struct nprb_context *ctx, int32_t measurement,
                                 enum nprb_experiment_id experiment,
                                 const struct nprb_counts *counts);

/**
 * Once per rank, before measuring: one /counters row (measurement -1, not_applicable) for each
 * event counters.groups asks for that this host cannot count, with the reason.
 */
void nprb_record_counters_unavailable(struct nprb_context *ctx);

/**
 * With transparent huge pages, interleave and first touch place whole 2 MiB blocks, not 4 KiB
 * pages: says so in an empty @p note when part of the buffer is in huge pages.
 */
void nprb_note_coarse_placement(char *note, size_t len, double huge_page_frac,
                                enum nprb_mem_policy policy);

/**
 * Sets a measurement row's "status" and "valid" columns and appends it to @p table (the row
 * struct of that table). @return @p result, or NPRB_ERR_NOMEM when the row could not be kept.
 */
enum nprb_status nprb_finish_row(struct nprb_context *ctx, enum nprb_table_id table, void *row,
                                 const char *status, enum nprb_status result);

/** Appends one placement row per node that holds pages of the census. */
void nprb_record_placement(struct nprb_context *ctx, int32_t measurement,
                           enum nprb_experiment_id experiment, const struct nprb_census *census);

#endif
