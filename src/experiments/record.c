/* SPDX-License-Identifier: BSD-3-Clause */
/* The rows every experiment may add beside its own: placement, kernel allocation counters, and
 * the status of a finished measurement row. */
#include "experiments/experiment.h"

#include "host/numastat.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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
