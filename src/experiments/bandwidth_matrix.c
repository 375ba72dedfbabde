/* Bandwidth: the usable cores of the CPU node (one thread each, pinned) stream an array bound to
 * the memory node; each thread first-touches and then reads its own contiguous chunk. */
#include "experiment.h"
#include "kernels/stream.h"
#include "place.h"
#include "timer.h"
#include "verify.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_PLACED_FRAC 0.99
#define MAX_THREADS 4096

struct chunk {
    size_t first, count;
};

/* Chunks of whole cache lines (8 doubles) so no two threads write the same line during first
 * touch: a shared line would bounce between cores and one thread's page could land on the other's
 * node under first-touch policies. */
static struct chunk chunk_of(size_t n, int threads, int t)
{
    size_t lines = n / 8, per = lines / (size_t)threads, extra = lines % (size_t)threads;
    size_t first = ((size_t)t * per + ((size_t)t < extra ? (size_t)t : extra)) * 8;
    size_t count = (per + ((size_t)t < extra ? 1 : 0)) * 8;
    if (t == threads - 1)
        count = n - first;
    struct chunk c = {first, count};
    return c;
}

struct stream_run {
    const struct nprb_kernel *kernel;
    double *a;
    size_t n;
    int threads;
    const unsigned *pus;
    hwloc_topology_t hw;
    int repetitions; /* timed, plus one discarded */
    double *seconds; /* [repetitions] */
    int bad_checksums;
    int unpinned;
    int pin_failures;
};

/* All timing is done by one thread between barriers, as STREAM does: the figure includes the
 * slowest thread, which is what an application with a barrier after each sweep would see. */
static void stream_threads(struct stream_run *run, struct nprb_census *census, int *census_rc)
{
    uint64_t t0 = 0;
#pragma omp parallel num_threads(run->threads)
    {
        int t = omp_get_thread_num();
        struct nprb_pin pin;
        int pinned = nprb_pin_thread(&pin, run->hw, run->pus[t]) == 0;
        if (!pinned) {
#pragma omp atomic
            run->pin_failures++;
        }
        struct chunk c = chunk_of(run->n, run->threads, t);
        nprb_stream_init(run->a + c.first, NULL, NULL, c.count);
#pragma omp barrier
#pragma omp single
        *census_rc = nprb_census_take(run->a, run->n * sizeof(double), census);

        for (int r = -1; r < run->repetitions; r++) {
#pragma omp single
            t0 = nprb_now_ns();
            double sum = run->kernel->run(run->a + c.first, NULL, NULL, c.count);
            if (sum != run->kernel->expected(c.count)) {
#pragma omp atomic
                run->bad_checksums++;
            }
#pragma omp barrier
#pragma omp single
            {
                if (r >= 0)
                    run->seconds[r] = (double)(nprb_now_ns() - t0) * 1e-9;
            }
        }
        if (pinned && !nprb_pin_holds(&pin)) {
#pragma omp atomic
            run->unpinned++;
        }
        if (pinned)
            nprb_unpin_thread(&pin);
    }
}

static void fill_common(struct nprb_bandwidth_row *row, struct nprb_context *ctx,
                        const struct nprb_plan_item *item, const struct nprb_kernel *kernel)
{
    memset(row, 0, sizeof *row);
    row->rank = ctx->rank;
    row->measurement = ctx->next_measurement++;
    NPRB_SET_TEXT(row->hostname, ctx->hostname);
    NPRB_SET_TEXT(row->experiment, nprb_experiment_name(item->experiment));
    row->cpu_node = (int32_t)nprb_topo_node(ctx->topo, item->cpu_node)->os_index;
    row->mem_node = (int32_t)nprb_topo_node(ctx->topo, item->mem_node)->os_index;
    NPRB_SET_TEXT(row->mem_policy, nprb_mem_policy_name(item->policy));
    row->size_bytes = item->size_bytes;
    NPRB_SET_TEXT(row->kernel, kernel->name);
    row->gbs_best = row->gbs_median = row->gbs_worst = row->bus_gbs_best = NAN;
    row->huge_page_frac = -1;
    row->pages_on_target_frac = NAN;
}

static enum nprb_status finish(struct nprb_context *ctx, struct nprb_bandwidth_row *row,
                               const char *status, enum nprb_status result)
{
    NPRB_SET_TEXT(row->status, status);
    row->valid = strcmp(status, NPRB_ROW_OK) == 0;
    if (nprb_results_add(ctx->results, NPRB_TABLE_BANDWIDTH, row) != 0)
        return NPRB_ERR_NOMEM;
    return result;
}

static void rates(struct nprb_bandwidth_row *row, double *seconds, int count)
{
    struct nprb_stats st = nprb_stats_of(seconds, (size_t)count);
    row->gbs_best = (double)row->program_bytes / st.min * 1e-9;
    row->gbs_median = (double)row->program_bytes / st.median * 1e-9;
    row->gbs_worst = (double)row->program_bytes / st.max * 1e-9;
    row->bus_gbs_best = (double)row->bus_bytes / st.min * 1e-9;
}

enum nprb_status nprb_measure_bandwidth_matrix(struct nprb_context *ctx,
                                               const struct nprb_plan_item *item)
{
    const struct nprb_kernel *kernel = nprb_kernel_get(NPRB_KERNEL_READ);
    struct nprb_bandwidth_row row;
    fill_common(&row, ctx, item, kernel);
    if (item->skip_reason[0] != '\0') {
        NPRB_SET_TEXT(row.note, item->skip_reason);
        return finish(ctx, &row, NPRB_ROW_NOT_APPLICABLE, NPRB_OK);
    }
    unsigned pus[MAX_THREADS];
    int usable = nprb_topo_node_pus(ctx->topo, item->cpu_node, pus, MAX_THREADS);
    int threads = item->threads > 0 && item->threads < usable ? item->threads : usable;
    if (item->threads > usable)
        snprintf(row.note, sizeof row.note, "%d threads asked, node has %d usable cores",
                 item->threads, usable);
    row.threads = threads;
    size_t n = item->size_bytes / sizeof(double);
    row.program_bytes = (uint64_t)n * kernel->program_bytes;
    row.bus_bytes = (uint64_t)n * kernel->bus_bytes;

    unsigned mem_os = (unsigned)row.mem_node;
    struct nprb_buffer buf;
    if (nprb_buffer_alloc(&buf, n * sizeof(double), item->policy, &mem_os, 1, ctx->cfg->huge_pages,
                          row.note, sizeof row.note) != 0)
        return finish(ctx, &row, NPRB_ROW_FAILED,
                      errno == ENOMEM ? NPRB_ERR_NOMEM : NPRB_ERR_SYSTEM);

    struct stream_run run = {.kernel = kernel,
                             .a = buf.addr,
                             .n = n,
                             .threads = threads,
                             .pus = pus,
                             .hw = nprb_topo_hwloc(ctx->topo),
                             .repetitions = ctx->cfg->bandwidth_matrix.repetitions};
    run.seconds = calloc((size_t)run.repetitions, sizeof *run.seconds);
    if (run.seconds == NULL) {
        nprb_buffer_free(&buf);
        return finish(ctx, &row, NPRB_ROW_FAILED, NPRB_ERR_NOMEM);
    }
    /* Exactly the threads asked for: a dynamic team would break the chunk-to-core mapping. */
    omp_set_dynamic(0);
    struct nprb_census census;
    int census_rc = -1;
    stream_threads(&run, &census, &census_rc);
    row.repetitions = run.repetitions;
    row.huge_page_frac = nprb_buffer_huge_fraction(&buf);
    if (census_rc == 0) {
        row.pages_on_target_frac = nprb_census_fraction_on(&census, &mem_os, 1);
        nprb_record_placement(ctx, row.measurement, row.experiment, &census);
    }
    rates(&row, run.seconds, run.repetitions);
    row.threads_pinned_ok = run.pin_failures == 0 && run.unpinned == 0;
    free(run.seconds);
    nprb_buffer_free(&buf);

    if (run.bad_checksums > 0) {
        snprintf(row.note, sizeof row.note, "validation failed: %d wrong checksums from kernel %s",
                 run.bad_checksums, kernel->name);
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_ERR_VALIDATION);
    }
    if (!row.threads_pinned_ok) {
        snprintf(row.note, sizeof row.note, "%d threads could not be pinned, %d moved",
                 run.pin_failures, run.unpinned);
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_OK);
    }
    if (!(row.pages_on_target_frac >= MIN_PLACED_FRAC)) {
        snprintf(row.note, sizeof row.note, "only %.1f%% of pages on node %u (need %.0f%%)",
                 100 * row.pages_on_target_frac, mem_os, 100 * MIN_PLACED_FRAC);
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_OK);
    }
    return finish(ctx, &row, NPRB_ROW_OK, NPRB_OK);
}
