/* SPDX-License-Identifier: BSD-3-Clause */
#include "experiments/experiment.h"

#include "host/numastat.h"
#include "host/place.h"
#include "util/sweep.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct experiment {
    const char *name;
    enum nprb_table_id table; /* where its rows go */
    nprb_plan_fn plan;
    nprb_measure_fn measure;
};

/* The experiment table, in the order a run makes them: idle figures first, sweeps after. */
static const struct experiment experiments[NPRB_N_EXPERIMENTS] = {
    [NPRB_EXP_LATENCY_MATRIX] = {"latency_matrix", NPRB_TABLE_LATENCY, nprb_plan_latency_matrix,
                                 nprb_measure_latency},
    [NPRB_EXP_BANDWIDTH_MATRIX] = {"bandwidth_matrix", NPRB_TABLE_BANDWIDTH,
                                   nprb_plan_bandwidth_matrix, nprb_measure_bandwidth},
    [NPRB_EXP_LATENCY_SWEEP] = {"latency_sweep", NPRB_TABLE_LATENCY, nprb_plan_latency_sweep,
                                nprb_measure_latency},
    [NPRB_EXP_STRIDE_SWEEP] = {"stride_sweep", NPRB_TABLE_LATENCY, nprb_plan_stride_sweep,
                               nprb_measure_latency},
    [NPRB_EXP_BANDWIDTH_SWEEP] = {"bandwidth_sweep", NPRB_TABLE_BANDWIDTH,
                                  nprb_plan_bandwidth_sweep, nprb_measure_bandwidth},
    [NPRB_EXP_THREAD_SCALING] = {"thread_scaling", NPRB_TABLE_BANDWIDTH, nprb_plan_thread_scaling,
                                 nprb_measure_bandwidth},
    [NPRB_EXP_FIRST_TOUCH] = {"first_touch", NPRB_TABLE_BANDWIDTH, nprb_plan_first_touch,
                              nprb_measure_bandwidth},
    [NPRB_EXP_NUMA_BALANCING] = {"numa_balancing", NPRB_TABLE_BALANCING, nprb_plan_numa_balancing,
                                 nprb_measure_balancing},
    [NPRB_EXP_LOADED_LATENCY] = {"loaded_latency", NPRB_TABLE_LOADED_LATENCY,
                                 nprb_plan_loaded_latency, nprb_measure_loaded},
};

const char *nprb_experiment_name(enum nprb_experiment_id id)
{
    return id < NPRB_N_EXPERIMENTS ? experiments[id].name : "?";
}

enum nprb_table_id nprb_experiment_table(enum nprb_experiment_id id)
{
    return id < NPRB_N_EXPERIMENTS ? experiments[id].table : NPRB_TABLE_LATENCY;
}

nprb_measure_fn nprb_experiment_measure(enum nprb_experiment_id id)
{
    return id < NPRB_N_EXPERIMENTS ? experiments[id].measure : NULL;
}

nprb_plan_fn nprb_experiment_plan(enum nprb_experiment_id id)
{
    return id < NPRB_N_EXPERIMENTS ? experiments[id].plan : NULL;
}

int nprb_sweep_sizes(const struct nprb_planner *p, const struct nprb_sizes *configured,
                     uint64_t max_bytes, uint64_t span_per_line, uint64_t *sizes, int cap)
{
    if (configured->count > 0) {
        int n = configured->count < cap ? configured->count : cap;
        for (int i = 0; i < n; i++)
            sizes[i] = configured->bytes[i];
        return n;
    }
    const struct nprb_topo_summary *s = nprb_topo_summary(p->topo);
    uint64_t caches[6] = {s->l1d_bytes, s->l2_bytes, s->l3_bytes};
    for (int c = 0; c < 3 && span_per_line > 1; c++)
        caches[3 + c] = caches[c] * span_per_line;
    uint64_t llc = s->l3_bytes ? s->l3_bytes : s->l2_bytes ? s->l2_bytes : (UINT64_C(8) << 20);
    uint64_t max = max_bytes ? max_bytes : nprb_sweep_auto_max(llc);
    int node = nprb_plan_first_cpu_node(p->topo);
    uint64_t free_bytes =
        node >= 0 ? nprb_node_free_bytes(nprb_topo_node(p->topo, node)->os_index) : 0;
    /* A sweep must not push the node into reclaim: a quarter of what is free is plenty to see
     * the last cache spill into memory. */
    if (free_bytes > 0 && max > free_bytes / 4)
        max = free_bytes / 4;
    return nprb_sweep_points(caches, 6, 2048, max, sizes, cap);
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

void nprb_numastat_take(const struct nprb_topo *topo, struct nprb_numastat_snapshot *snap)
{
    snap->nodes = nprb_topo_node_count(topo);
    snap->values = calloc((size_t)snap->nodes * NPRB_NUMASTAT_FIELDS, sizeof *snap->values);
    for (int i = 0; snap->values != NULL && i < snap->nodes; i++) {
        if (nprb_numastat_read(nprb_topo_node(topo, i)->os_index,
                               snap->values + (size_t)i * NPRB_NUMASTAT_FIELDS) != 0) {
            free(snap->values);
            snap->values = NULL;
        }
    }
}

void nprb_numastat_free(struct nprb_numastat_snapshot *snap)
{
    free(snap->values);
    snap->values = NULL;
}

void nprb_record_numastat(struct nprb_context *ctx, int32_t measurement, const char *experiment,
                          const struct nprb_numastat_snapshot *before)
{
    struct nprb_numastat_snapshot after;
    if (before->values == NULL)
        return;
    nprb_numastat_take(ctx->topo, &after);
    for (int i = 0; after.values != NULL && i < after.nodes; i++) {
        const uint64_t *b = before->values + (size_t)i * NPRB_NUMASTAT_FIELDS;
        const uint64_t *a = after.values + (size_t)i * NPRB_NUMASTAT_FIELDS;
        struct nprb_numastat_row row = {
            .rank = ctx->rank,
            .measurement = measurement,
            .node = (int32_t)nprb_topo_node(ctx->topo, i)->os_index,
            .numa_hit = (int64_t)(a[NPRB_NUMASTAT_HIT] - b[NPRB_NUMASTAT_HIT]),
            .numa_miss = (int64_t)(a[NPRB_NUMASTAT_MISS] - b[NPRB_NUMASTAT_MISS]),
            .numa_foreign = (int64_t)(a[NPRB_NUMASTAT_FOREIGN] - b[NPRB_NUMASTAT_FOREIGN]),
            .interleave_hit =
                (int64_t)(a[NPRB_NUMASTAT_INTERLEAVE_HIT] - b[NPRB_NUMASTAT_INTERLEAVE_HIT]),
            .local_node = (int64_t)(a[NPRB_NUMASTAT_LOCAL] - b[NPRB_NUMASTAT_LOCAL]),
            .other_node = (int64_t)(a[NPRB_NUMASTAT_OTHER] - b[NPRB_NUMASTAT_OTHER]),
        };
        NPRB_SET_TEXT(row.experiment, experiment);
        nprb_results_add(ctx->results, NPRB_TABLE_NUMASTAT, &row);
    }
    nprb_numastat_free(&after);
}

enum nprb_status nprb_finish_row(struct nprb_context *ctx, enum nprb_table_id table, void *row,
                                 const char *status, enum nprb_status result)
{
    const struct nprb_table_desc *desc = nprb_table_desc(table);
    for (size_t f = 0; f < desc->field_count; f++) {
        char *field = (char *)row + desc->fields[f].offset;
        if (strcmp(desc->fields[f].name, "status") == 0)
            nprb_copy_text(field, desc->fields[f].size, status);
        else if (strcmp(desc->fields[f].name, "valid") == 0)
            *(int8_t *)field = strcmp(status, NPRB_ROW_OK) == 0;
    }
    if (nprb_results_add(ctx->results, table, row) != 0)
        return NPRB_ERR_NOMEM;
    return result;
}
