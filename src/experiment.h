/**
 * @file experiment.h
 * What an experiment gets to work with, and the registry that maps plan items to the code that
 * measures them. Experiments live in src/experiments/, one file each.
 */
#ifndef NPRB_EXPERIMENT_H
#define NPRB_EXPERIMENT_H

#include "config.h"
#include "log.h"
#include "plan.h"
#include "results.h"
#include "status.h"
#include "topo.h"
#include "verify.h"

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

/** The measuring function of an experiment. */
nprb_measure_fn nprb_experiment_measure(enum nprb_experiment_id id);

enum nprb_status nprb_measure_latency_matrix(struct nprb_context *ctx,
                                             const struct nprb_plan_item *item);
enum nprb_status nprb_measure_bandwidth_matrix(struct nprb_context *ctx,
                                               const struct nprb_plan_item *item);

/** Appends one placement row per node that holds pages of the census. */
void nprb_record_placement(struct nprb_context *ctx, int32_t measurement, const char *experiment,
                           const struct nprb_census *census);

#endif
