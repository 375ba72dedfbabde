/* SPDX-License-Identifier: BSD-3-Clause */
/* The measurement behind every bandwidth experiment (the bandwidth engine): one plan item, one
 * /bandwidth row, laid out and judged by the experiment's rules; and the sweeps' stdout grid. */
#include "measure/experiment.h"
#include "plan/items.h"
#include "plan/passes.h"
#include "measure/bandwidth_run.h"
#include "host/omp_env.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fill_common(struct nprb_bandwidth_row *row, struct nprb_context *ctx,
                        const struct nprb_plan_item *item, const struct nprb_kernel *kernel)
{
    memset(row, 0, sizeof *row);
    NPRB_FILL_ROW_HEAD(row, ctx, item);
    nprb_row_set_kernel(row, item->kernel);
    row->stride_bytes = kernel->uses_stride ? item->stride_bytes : 0;
    row->gbs_best = row->gbs_median = row->gbs_worst = row->bus_gbs_best = NAN;
    row->mc_bytes = row->mc_bus_ratio = NAN;
    row->huge_page_frac = -1;
    row->pages_on_target_frac = NAN;
}

static enum nprb_status finish(struct nprb_context *ctx, struct nprb_bandwidth_row *row,
                               const char *status, enum nprb_status result)
{
    nprb_passes_first(NPRB_TABLE_BANDWIDTH, row);
    return nprb_finish_row(ctx, NPRB_TABLE_BANDWIDTH, row, status, result);
}

static void rates(struct nprb_bandwidth_row *row, const struct nprb_bandwidth_result *res)
{
    row->gbs_best = (double)res->program_bytes / res->seconds.min * 1e-9;
    row->gbs_median = (double)res->program_bytes / res->seconds.median * 1e-9;
    row->gbs_worst = (double)res->program_bytes / res->seconds.max * 1e-9;
    row->bus_gbs_best = (double)res->bus_bytes / res->seconds.min * 1e-9;
}

static unsigned node_of_pu(const struct nprb_topo *topo, unsigned pu)
{
    for (int i = 0; i < nprb_topo_node_count(topo); i++) {
        unsigned pus[NPRB_MAX_PUS];
        int n = nprb_topo_node_pus(topo, i, pus, NPRB_MAX_PUS);
        for (int k = 0; k < n; k++)
            if (pus[k] == pu)
                return nprb_topo_node(topo, i)->os_index;
    }
    return 0;
}

/* The reader nodes of a run across nodes, each with its threads' memory node and its times. */
struct node_groups {
    int of[NPRB_MAX_PUS]; /* each thread's group */
    unsigned reader[NPRB_MAX_NODES], memory[NPRB_MAX_NODES];
    struct nprb_group_time times[NPRB_MAX_NODES];
    int count;
};

static int group_of(struct node_groups *groups, unsigned reader, unsigned memory)
{
    for (int g = 0; g < groups->count; g++)
        if (groups->reader[g] == reader)
            return g;
    groups->reader[groups->count] = reader;
    groups->memory[groups->count] = memory;
    return groups->count++;
}

/* One reader node's row of a run where every node streamed at once: the row of the whole run
 * with that node's cores, memory node, share of the bytes and slowest thread's time. */
static enum nprb_status node_row(struct nprb_context *ctx, const struct nprb_bandwidth_row *whole,
                                 const struct node_groups *groups, int g, const unsigned *pus,
                                 int threads, const char *status)
{
    const struct nprb_group_time *gt = &groups->times[g];
    struct nprb_bandwidth_row row = *whole;
    row.measurement = ctx->next_measurement++;
    int from = nprb_topo_node_index(ctx->topo, groups->reader[g]);
    int to = nprb_topo_node_index(ctx->topo, groups->memory[g]);
    row.cpu_node = (int32_t)groups->reader[g];
    row.mem_node = (int32_t)groups->memory[g];
    NPRB_SET_PAIR_CLASS(&row, nprb_topo_pair_class(ctx->topo, from, to));
    row.slit = (int32_t)nprb_topo_distance(ctx->topo, from, to);
    row.threads = gt->threads;
    row.size_bytes = (uint64_t)((double)whole->size_bytes * gt->share);
    struct nprb_bandwidth_result part = {.seconds = gt->seconds};
    part.program_bytes = (uint64_t)((double)whole->program_bytes * gt->share);
    part.bus_bytes = (uint64_t)((double)whole->bus_bytes * gt->share);
    row.program_bytes = part.program_bytes;
    row.bus_bytes = part.bus_bytes;
    rates(&row, &part);
    row.mc_bytes = row.mc_bus_ratio = NAN; /* the controllers count the whole run's */
    row.pages_on_target_frac = gt->local_frac;
    if (gt->census_ok) {
        row.pages_unreported = gt->census.unreported;
        nprb_record_placement(ctx, row.measurement, row.experiment_id, &gt->census);
    }
    nprb_record_thread_counters(ctx, row.measurement, row.experiment_id, &gt->counts);
    struct nprb_cpus_seen mine = {{0}};
    for (int t = 0; t < threads; t++) /* pinned_ok held: each thread stayed on its PU */
        if (groups->of[t] == g && pus[t] < NPRB_MAX_CPUS)
            mine.bits[pus[t] / 64] |= 1ULL << (pus[t] % 64);
    nprb_cpus_seen_format(&mine, row.cpus, sizeof row.cpus);
    if (strcmp(status, NPRB_ROW_OK) != 0)
        return finish(ctx, &row, status, NPRB_OK); /* the whole run's note says why */
    snprintf(row.note, sizeof row.note, "node %u's %d threads of %d, every node streaming at once",
             groups->reader[g], gt->threads, whole->threads);
    if (!(gt->local_frac >= 0.99)) {
        snprintf(row.note, sizeof row.note, "only %.1f%% of node %u's pages on node %u (need 99%%)",
                 100 * gt->local_frac, groups->reader[g], groups->memory[g]);
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_OK);
    }
    return finish(ctx, &row, NPRB_ROW_OK, NPRB_OK);
}

/* What the memory controllers moved beside what the kernel's formula says the bus carried. */
static void memory_controller_bytes(struct nprb_bandwidth_row *row,
                                    const struct nprb_uncore_counts *uncore)
{
    row->mc_bytes = row->mc_bus_ratio = NAN;
    if (uncore->sockets == 0)
        return;
    row->mc_bytes = 0;
    for (int e = 0; e < NPRB_N_UNCORE_EVENTS; e++)
        for (int s = 0; s < uncore->sockets; s++)
            row->mc_bytes += uncore->bytes[e][s];
    double computed =
        (double)row->bus_bytes * (double)row->passes_per_sample * (double)row->repetitions;
    row->mc_bus_ratio = computed > 0 ? row->mc_bytes / computed : NAN;
}

static enum nprb_status measure_in_groups(struct nprb_context *ctx,
                                          const struct nprb_plan_item *item,
                                          const struct nprb_bandwidth_rules *rules,
                                          struct node_groups *groups)
{
    const struct nprb_kernel *kernel = nprb_kernel_get(item->kernel);
    struct nprb_bandwidth_row row;
    fill_common(&row, ctx, item, kernel);
    if (item->skip_reason[0] != '\0') {
        NPRB_SET_TEXT(row.note, item->skip_reason);
        return finish(ctx, &row, NPRB_ROW_NOT_APPLICABLE, NPRB_OK);
    }
    /* A kernel of another instruction set (rep movsb on Arm64, DC ZVA on x86-64) is a row that
     * says so, never a figure: every config runs on every host of a mixed fleet. */
    const char *lacks = NULL;
    if (!nprb_kernel_available(kernel, &lacks)) {
        NPRB_SET_TEXT(row.note, lacks);
        return finish(ctx, &row, NPRB_ROW_NOT_APPLICABLE, NPRB_OK);
    }
    unsigned pus[NPRB_MAX_PUS];
    int usable = nprb_item_pus(ctx->topo, item, pus, NPRB_MAX_PUS);
    int threads = item->threads > 0 && item->threads < usable ? item->threads : usable;
    if (threads == 0) {
        NPRB_SET_TEXT(row.note, "not applicable: no usable core on the CPU node");
        return finish(ctx, &row, NPRB_ROW_NOT_APPLICABLE, NPRB_OK);
    }
    if (item->threads > usable)
        snprintf(row.note, sizeof row.note, "%d threads asked, node has %d usable cores",
                 item->threads, usable);
    row.threads = threads;
    row.repetitions = item->repetitions;
    unsigned targets[NPRB_MAX_NODES], thread_nodes[NPRB_MAX_PUS];
    for (int t = 0; t < threads; t++) {
        unsigned reader = node_of_pu(ctx->topo, pus[t]);
        thread_nodes[t] =
            rules->memory_node != NULL ? rules->memory_node(ctx->topo, reader) : reader;
        if (groups != NULL)
            groups->of[t] = group_of(groups, reader, thread_nodes[t]);
    }
    nprb_row_set_touch(&row, item->touch);
    unsigned serial_pu = pus[0];
    if (item->touch == NPRB_TOUCH_SERIAL)
        nprb_topo_node_pus(ctx->topo, item->mem_node, &serial_pu, 1);
    struct nprb_bandwidth_request req = {
        .kernel = kernel,
        .bytes_per_array = item->size_bytes,
        .pus = pus,
        .threads = threads,
        .policy = item->policy,
        .nodes = targets,
        .node_count = nprb_item_targets(ctx->topo, item, targets),
        .huge_pages = nprb_item_huge_pages(ctx, item),
        .stride_bytes = item->stride_bytes,
        .repetitions = item->repetitions,
        .sample_s = item->sample_s,
        .seed = ctx->cfg->seed,
        .touch = item->touch,
        .serial_pu = serial_pu,
        .thread_nodes = rules->per_thread_census ? thread_nodes : NULL,
        .chunk_align = rules->chunk_align,
        .counter_groups = nprb_config_counter_groups(ctx->cfg),
        .group_of = groups != NULL ? groups->of : NULL,
        .groups = groups != NULL ? groups->count : 0,
        .group_times = groups != NULL ? groups->times : NULL,
    };
    struct nprb_bandwidth_result res;
    struct nprb_kernel_snapshot before;
    nprb_kernel_snapshot_take(ctx, &before);
    nprb_bandwidth_run(nprb_topo_hwloc(ctx->topo), &req, &res);
    nprb_record_counters(ctx, row.measurement, row.experiment_id, &before, &res.counts,
                         &res.uncore);
    nprb_kernel_snapshot_free(&before);
    row.program_bytes = res.program_bytes;
    row.bus_bytes = res.bus_bytes;
    row.page_bytes = res.page_bytes;
    row.passes_per_sample = res.passes_per_sample;
    memory_controller_bytes(&row, &res.uncore);
    row.huge_page_frac = res.huge_page_frac;
    if (res.note[0] != '\0')
        NPRB_SET_TEXT(row.note, res.note);
    if (res.error != 0)
        return finish(ctx, &row, NPRB_ROW_FAILED,
                      res.error == ENOMEM ? NPRB_ERR_NOMEM : NPRB_ERR_SYSTEM);
    rates(&row, &res);
    row.threads_pinned_ok = res.pinned_ok;
    nprb_cpus_seen_format(&res.cpus, row.cpus, sizeof row.cpus);
    if (res.census_ok) {
        row.pages_on_target_frac = nprb_census_fraction_on(&res.census, targets, req.node_count);
        row.pages_unreported = res.census.unreported;
        nprb_record_placement(ctx, row.measurement, row.experiment_id, &res.census);
    }
    if (res.bad_threads > 0)
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_ERR_VALIDATION);
    if (res.threads_ran < threads) {
        /* The figure is what the threads that ran streamed, not the node's: say so, and keep it
         * out of the matrices. */
        char why[48];
        nprb_omp_env_shortfall(threads, why, sizeof why);
        row.threads = res.threads_ran;
        snprintf(row.note, sizeof row.note, "only %d of %d threads ran (%s)", res.threads_ran,
                 threads, why);
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_OK);
    }
    if (!res.pinned_ok)
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_OK);
    if (!res.census_ok) {
        NPRB_SET_TEXT(row.note, "move_pages cannot tell where the pages are");
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_OK);
    }
    nprb_note_coarse_placement(row.note, sizeof row.note, row.huge_page_frac, item->policy);
    const char *status = NPRB_ROW_OK;
    if (rules->judge != NULL)
        status = rules->judge(item, &res, targets, req.node_count, &row);
    else if (!nprb_placement_ok(&res.census, targets, req.node_count, item->policy, row.note,
                                sizeof row.note))
        status = NPRB_ROW_INVALID;
    struct nprb_bandwidth_row whole = row;
    enum nprb_status result = finish(ctx, &row, status, NPRB_OK);
    for (int g = 0; groups != NULL && g < groups->count; g++) {
        enum nprb_status part = node_row(ctx, &whole, groups, g, pus, threads, status);
        result = result != NPRB_OK ? result : part;
    }
    return result;
}

enum nprb_status nprb_measure_bandwidth_with_rules(struct nprb_context *ctx,
                                                   const struct nprb_plan_item *item,
                                                   const struct nprb_bandwidth_rules *rules)
{
    if (!rules->node_rows || !rules->per_thread_census)
        return measure_in_groups(ctx, item, rules, NULL);
    /* On the heap: a census per node of the host. */
    struct node_groups *groups = calloc(1, sizeof *groups);
    if (groups == NULL) {
        struct nprb_bandwidth_row row;
        fill_common(&row, ctx, item, nprb_kernel_get(item->kernel));
        NPRB_SET_TEXT(row.note, "out of memory for the per-node times");
        return finish(ctx, &row, NPRB_ROW_FAILED, NPRB_ERR_NOMEM);
    }
    enum nprb_status result = measure_in_groups(ctx, item, rules, groups);
    free(groups);
    return result;
}

enum nprb_status nprb_measure_bandwidth(struct nprb_context *ctx, const struct nprb_plan_item *item)
{
    static const struct nprb_bandwidth_rules plain = {.chunk_align = 8};
    return nprb_measure_bandwidth_with_rules(ctx, item, &plain);
}
