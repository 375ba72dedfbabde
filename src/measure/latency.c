/* SPDX-License-Identifier: BSD-3-Clause */
/* The measurement behind every latency experiment: one plan item, one /latency row. */
#include "measure/experiment.h"
#include "plan/items.h"
#include "plan/passes.h"
#include "measure/latency_run.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static void fill_common(struct nprb_latency_row *row, struct nprb_context *ctx,
                        const struct nprb_plan_item *item)
{
    memset(row, 0, sizeof *row);
    NPRB_FILL_ROW_HEAD(row, ctx, item);
    NPRB_SET_TEXT(row->pattern, item->pattern.name);
    row->chains = (int32_t)item->pattern.chains;
    row->slot_bytes = nprb_pattern_slot_bytes(&item->pattern);
    row->tlb_window_bytes = item->pattern.desc->windowed ? item->tlb_window_bytes : 0;
    row->threads = 1;
    row->latency_ns_min = row->latency_ns_median = row->latency_ns_p90 = NAN;
    row->latency_ns_p99 = row->latency_ns_max = NAN;
    row->huge_page_frac = -1;
    row->pages_on_target_frac = NAN;
}

static enum nprb_status finish(struct nprb_context *ctx, struct nprb_latency_row *row,
                               const char *status, enum nprb_status result)
{
    nprb_passes_first(NPRB_TABLE_LATENCY, row);
    return nprb_finish_row(ctx, NPRB_TABLE_LATENCY, row, status, result);
}

struct nprb_latency_request nprb_latency_request_for(const struct nprb_context *ctx,
                                                     const struct nprb_plan_item *item, unsigned pu,
                                                     unsigned *targets)
{
    return (struct nprb_latency_request){
        .pattern = item->pattern,
        .size_bytes = item->size_bytes,
        .tlb_window_bytes = item->tlb_window_bytes,
        .pu = pu,
        .policy = item->policy,
        .nodes = targets,
        .node_count = nprb_item_targets(ctx->topo, item, targets),
        .huge_pages = nprb_item_huge_pages(ctx, item),
        .samples = item->samples,
        .sample_s = item->sample_s,
        .seed = ctx->cfg->seed,
        .counter_groups = nprb_config_counter_groups(ctx->cfg),
    };
}

enum nprb_status nprb_measure_latency(struct nprb_context *ctx, const struct nprb_plan_item *item)
{
    struct nprb_latency_row row;
    fill_common(&row, ctx, item);
    if (item->skip_reason[0] != '\0') {
        NPRB_SET_TEXT(row.note, item->skip_reason);
        return finish(ctx, &row, NPRB_ROW_NOT_APPLICABLE, NPRB_OK);
    }
    unsigned targets[NPRB_MAX_NODES];
    static unsigned pus[NPRB_MAX_PUS]; /* the measuring thread's alone */
    int pu_count = nprb_item_pus(ctx->topo, item, pus, NPRB_MAX_PUS);
    if (pu_count < 1) {
        NPRB_SET_TEXT(row.note, "not applicable: no usable core on the CPU node");
        return finish(ctx, &row, NPRB_ROW_NOT_APPLICABLE, NPRB_OK);
    }
    unsigned pu = pus[0];
    struct nprb_latency_request req = nprb_latency_request_for(ctx, item, pu, targets);
    req.touch_pus = pus;
    req.touch_pu_count = pu_count;
    struct nprb_latency_result res;
    struct nprb_kernel_snapshot before;
    nprb_kernel_snapshot_take(ctx, &before);
    nprb_latency_run(nprb_topo_hwloc(ctx->topo), &req, &res);
    nprb_record_counters(ctx, row.measurement, row.experiment_id, &before, &res.counts, NULL);
    nprb_kernel_snapshot_free(&before);
    row.samples = item->samples;
    row.accesses_per_sample = res.accesses_per_sample;
    row.page_bytes = res.page_bytes;
    row.huge_page_frac = res.huge_page_frac;
    NPRB_SET_TEXT(row.note, res.note);
    if (res.error != 0)
        return finish(ctx, &row, NPRB_ROW_FAILED,
                      res.error == ENOMEM ? NPRB_ERR_NOMEM : NPRB_ERR_SYSTEM);
    if (res.wrong_answer)
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_ERR_VALIDATION);
    row.latency_ns_min = res.ns.min;
    row.latency_ns_median = res.ns.median;
    row.latency_ns_p90 = res.ns.p90;
    row.latency_ns_p99 = res.ns.p99;
    row.latency_ns_max = res.ns.max;
    if (!res.census_ok) {
        NPRB_SET_TEXT(row.note, "move_pages cannot tell where the pages are");
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_OK);
    }
    row.pages_on_target_frac = nprb_census_fraction_on(&res.census, targets, req.node_count);
    row.pages_unreported = res.census.unreported;
    nprb_cpus_seen_format(&res.cpus, row.cpus, sizeof row.cpus);
    nprb_record_placement(ctx, row.measurement, row.experiment_id, &res.census);
    if (!res.stayed_on_pu) {
        snprintf(row.note, sizeof row.note, "thread left CPU %u during the chase", pu);
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_OK);
    }
    if (!nprb_placement_ok(&res.census, targets, req.node_count, item->policy, row.note,
                           sizeof row.note))
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_OK);
    nprb_note_coarse_placement(row.note, sizeof row.note, row.huge_page_frac, item->policy);
    return finish(ctx, &row, NPRB_ROW_OK, NPRB_OK);
}
