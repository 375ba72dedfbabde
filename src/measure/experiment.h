/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file experiment.h
 * What measuring shares: the row helpers, the latency and bandwidth engines' entry points, the
 * counters, placement and cache-level records beside a measurement. Each experiment's file
 * exports its descriptor (plan/descriptor.h) and plans with plan/items.h; latency experiments
 * measure with nprb_measure_latency(), bandwidth experiments with nprb_measure_bandwidth() (or,
 * for first_touch, with the bandwidth engine under its own rules).
 */
#ifndef NPRB_EXPERIMENT_H
#define NPRB_EXPERIMENT_H

#include "config/config.h"
#include "plan/descriptor.h"
#include "util/log.h"
#include "plan/plan.h"
#include "results/results.h"
#include "util/status.h"
#include "host/counters.h"
#include "host/topo.h"
#include "host/uncore.h"
#include "host/verify.h"
#include "host/vmstat.h"

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
 * Sets a measurement row's "status" and "valid" columns and appends it to @p table (the row
 * struct of that table). @return @p result, or NPRB_ERR_NOMEM when the row could not be kept.
 */
enum nprb_status nprb_finish_row(struct nprb_context *ctx, enum nprb_table_id table, void *row,
                                 const char *status, enum nprb_status result);

/** Appends one placement row per node that holds pages of the census. */
void nprb_record_placement(struct nprb_context *ctx, int32_t measurement,
                           enum nprb_experiment_id experiment, const struct nprb_census *census);

#endif
