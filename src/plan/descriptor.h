/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file descriptor.h
 * What an experiment is to the rest of the program: one descriptor, exported by the
 * experiment's own file (src/experiments/<name>.c) and listed in the registry (registry.c).
 * Plan items point at it; the job measures an item through it.
 */
#ifndef NPRB_DESCRIPTOR_H
#define NPRB_DESCRIPTOR_H

#include "results/results.h"
#include "util/status.h"

#include <stdbool.h>
#include <stdio.h>

struct nprb_planner;
struct nprb_plan_item;
struct nprb_config_section;
struct nprb_config;
struct nprb_topo;
struct nprb_log;

/**
 * What a measurement runs in: the job makes one per rank and hands it to every item's measure
 * and to an experiment's after_last_item.
 * Declared with the descriptor, below the engines, because a later pass (passes.c) measures
 * through it too, into rows of its own.
 */
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
 * Measures one plan item and appends its rows (a "failed" or "not_applicable" row when it
 * cannot). @return NPRB_OK, NPRB_ERR_VALIDATION for a wrong answer, NPRB_ERR_NOMEM or
 * NPRB_ERR_SYSTEM when the measurement could not be made (rows say why).
 */
typedef enum nprb_status (*nprb_measure_fn)(struct nprb_context *ctx,
                                            const struct nprb_plan_item *item);

/**
 * Runs once an experiment's last item of the plan is measured, with the rows of all its items
 * in ctx->results (latency_sweep's: the cache levels its curve shows).
 */
typedef void (*nprb_after_fn)(struct nprb_context *ctx);

/** Appends an experiment's items to the plan. @return 0, or -1 with the planner's err set. */
typedef int (*nprb_plan_fn)(struct nprb_planner *p);

/**
 * Prints the experiment's section of the stdout report from one rank's rows (rank 0 calls it
 * for each rank as its rows arrive, after the host blocks of report/report.c, in the report's
 * order of registry.c, until it has printed once). @return whether it printed anything.
 */
typedef bool (*nprb_report_fn)(FILE *out, const struct nprb_results *rows);

/**
 * What a time budget (plan/budget.h) gives up first: the sweeps, then the per-node figures,
 * and the headline matrices last. Zero is the headline, so a descriptor that forgets to say is
 * kept longest rather than dropped unseen.
 */
enum nprb_priority {
    NPRB_PRIORITY_HEADLINE, /**< the matrices a fleet verdict compares */
    NPRB_PRIORITY_PER_NODE, /**< one figure per node or mode: placement, load, balancing */
    NPRB_PRIORITY_SWEEP,    /**< curves over sizes, strides, pages and thread counts */
};

/** What a series' points vary along: a budget thins it by keeping every second value of it. */
enum nprb_axis {
    NPRB_AXIS_NONE, /**< not a series: a budget drops it whole, never thins it */
    NPRB_AXIS_SIZE,
    NPRB_AXIS_STRIDE, /**< the pattern's stride */
    NPRB_AXIS_THREADS,
    NPRB_AXIS_OWN, /**< one of its own parameters (loaded_latency's delay): item->axis_point */
};

struct nprb_experiment {
    /** Its name (results/row_ids.c) is its config section and the rows' `experiment`. */
    enum nprb_experiment_id id;
    enum nprb_table_id table; /**< where its measurement rows go */
    /** What it measures, one paragraph of Markdown: its row of `numaprobe --experiments`, which
     * docs/EXPERIMENTS.md is, so that the experiment's description lives with it. */
    const char *about;
    nprb_plan_fn plan;
    nprb_measure_fn measure;
    /** Optional: what the job runs after the plan's last item of this experiment (its later
     * passes included), from the rows its items wrote. NULL: nothing. */
    nprb_after_fn after_last_item;
    /** The experiment's config keys and struct ("NAME.KEY"), which its file declares
     * (NPRB_CONFIG_SECTION) and reads back with nprb_config_section(). */
    const struct nprb_config_section *config;
    /** Optional: its stdout section, printed once for the fleet. NULL: none. */
    nprb_report_fn report;
    /** Optional: its part of every host's block (the matrices), printed for each rank printed
     * in full, between the host's topology and its pair classes (report/report.h). */
    nprb_report_fn host_report;
    /** Its points may share buffers (host/place.h: nprb_buffer_keep_begin): a sweep, or a
     * series at one size (thread counts, load delays), whose measurements differ in size,
     * pattern, threads or load only, place their pages by an explicit policy, and never
     * measure fresh pages. */
    bool keeps_buffers;
    enum nprb_priority priority;
    /** What its curves vary along, where they still read with every second value gone (a
     * budget thins them before dropping them): each curve keeps its first point. */
    enum nprb_axis axis;
};

static inline const char *nprb_experiment_name(const struct nprb_experiment *e)
{
    return nprb_experiment_id_name(e->id);
}

static inline nprb_measure_fn nprb_experiment_measure(const struct nprb_experiment *e)
{
    return e->measure;
}

/** The table an experiment's rows go to. */
static inline enum nprb_table_id nprb_experiment_table(const struct nprb_experiment *e)
{
    return e->table;
}

#endif
