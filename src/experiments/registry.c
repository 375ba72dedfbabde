#include "experiment.h"

#include <inttypes.h>

static const nprb_measure_fn measure_fns[NPRB_N_EXPERIMENTS] = {
    [NPRB_EXP_LATENCY_MATRIX] = nprb_measure_latency_matrix,
    [NPRB_EXP_BANDWIDTH_MATRIX] = nprb_measure_bandwidth_matrix,
};

nprb_measure_fn nprb_experiment_measure(enum nprb_experiment_id id)
{
    return id < NPRB_N_EXPERIMENTS ? measure_fns[id] : NULL;
}

void nprb_record_placement(struct nprb_context *ctx, int32_t measurement, const char *experiment,
                           const struct nprb_census *census)
{
    for (int node = 0; node < NPRB_MAX_NODES; node++) {
        if (census->per_node[node] == 0)
            continue;
        struct nprb_placement_row row = {.rank = ctx->rank,
                                         .measurement = measurement,
                                         .node = node,
                                         .pages = census->per_node[node]};
        NPRB_SET_TEXT(row.experiment, experiment);
        if (nprb_results_add(ctx->results, NPRB_TABLE_PLACEMENT, &row) != 0)
            NPRB_WARN(ctx->log, "out of memory recording placement of measurement %" PRId32,
                      measurement);
    }
}
