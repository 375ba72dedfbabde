/* SPDX-License-Identifier: BSD-3-Clause */
/* The rows every experiment may add beside its own: placement, and the status of a finished
 * measurement row. The counters beside a measurement are counting.c's. */
#include "measure/experiment.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void nprb_record_placement(struct nprb_context *ctx, int32_t measurement,
                           enum nprb_experiment_id experiment, const struct nprb_census *census)
{
    for (int node = 0; node < NPRB_MAX_NODES; node++) {
        if (census->per_node[node] == 0)
            continue;
        struct nprb_placement_row row = {.rank = ctx->rank,
                                         .measurement = measurement,
                                         .node = node,
                                         .pages = census->per_node[node]};
        NPRB_SET_EXPERIMENT(&row, experiment);
        if (nprb_results_add(ctx->results, NPRB_TABLE_PLACEMENT, &row) != 0)
            NPRB_WARN(ctx->log, "out of memory recording placement of measurement %" PRId32,
                      measurement);
    }
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
