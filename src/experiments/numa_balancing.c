/* SPDX-License-Identifier: BSD-3-Clause */
/* numa_balancing: threads first touch an array on node A, then move to node B and keep reading
 * it; every interval the page distribution and the bandwidth are sampled. One series with
 * kernel.numa_balancing off, one with it on: with it on, the kernel migrates the pages towards
 * the threads and the bandwidth recovers. The setting is restored on every exit path. */
#include "host/balancing.h"
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "util/fault.h"
#include "kernels/stream.h"
#include "host/omp_env.h"
#include "host/place.h"
#include "host/vmstat.h"
#include "util/timer.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

extern const struct nprb_experiment nprb_exp_numa_balancing;

struct numa_balancing_config {
    bool enabled;
    uint64_t size_bytes;
    double interval_s;
    double duration_s;
};

#define OFF(field) offsetof(struct numa_balancing_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0,
     "pages first touched on one node, threads moved to another: page distribution and "
     "bandwidth over time, with kernel.numa_balancing off then on (needs root to change it)"},
    {"size", KEY_SIZE, OFF(size_bytes), "256MiB", NPRB_KIB(64), NPRB_TIB(64),
     "array the moved threads keep reading"},
    {"interval", KEY_DURATION, OFF(interval_s), "250ms", 0, 0,
     "time between two samples of the page distribution"},
    {"duration", KEY_DURATION, OFF(duration_s), "4s", 0, 0,
     "length of each series (one with balancing off, one on)"},
};
NPRB_EXPERIMENT_SECTION(section, numa_balancing, keys, struct numa_balancing_config);

/* An item's own parameters (plan.h: NPRB_ITEM_SET_OWN): the setting during the series and the
 * series' length (its sampling interval is the item's sample_s). */
struct balancing_item {
    double duration_s;
    int balancing;
};

static int plan(struct nprb_planner *p)
{
    const struct numa_balancing_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = &nprb_exp_numa_balancing,
                                  .policy = NPRB_MEM_FIRST_TOUCH,
                                  .size_bytes = c->size_bytes,
                                  .kernel = NPRB_KERNEL_READ,
                                  .sample_s = c->interval_s,
                                  .extra_s = c->duration_s};
    struct balancing_item own = {.duration_s = c->duration_s};
    int a = -1, b = -1;
    for (int i = 0; i < nprb_topo_node_count(p->topo); i++) {
        if (!nprb_node_is_home(nprb_topo_node(p->topo, i)))
            continue;
        if (a < 0)
            a = i;
        else if (b < 0)
            b = i;
    }
    item.mem_node = a < 0 ? 0 : a;
    item.cpu_node = b < 0 ? item.mem_node : b;
    if (!p->host_leader)
        snprintf(item.skip_reason, sizeof item.skip_reason,
                 "not applicable: measured by the first rank of this host");
    else if (b < 0)
        snprintf(item.skip_reason, sizeof item.skip_reason,
                 "not applicable: needs 2 NUMA nodes with usable cores and memory "
                 "(kernel.numa_balancing = "
                 "%d recorded in /hosts)",
                 nprb_balancing_get());
    if (item.skip_reason[0] != '\0') {
        NPRB_ITEM_SET_OWN(&item, own);
        return nprb_plan_add(p, &item);
    }
    if (nprb_plan_check_fits(p, "numa_balancing.size", c->size_bytes, a) != 0)
        return -1;
    for (int setting = 0; setting <= 1; setting++) {
        own.balancing = setting;
        NPRB_ITEM_SET_OWN(&item, own);
        if (nprb_plan_add(p, &item) != 0)
            return -1;
    }
    return 0;
}

static void add_row(struct nprb_context *ctx, struct nprb_balancing_row *row, const char *status)
{
    NPRB_SET_TEXT(row->status, status);
    nprb_results_add(ctx->results, NPRB_TABLE_BALANCING, row);
}

struct series {
    struct nprb_context *ctx;
    const struct nprb_plan_item *item;
    struct balancing_item own;
    double *a;
    size_t n;
    const unsigned *from_pus, *to_pus;
    int threads;
    struct nprb_balancing_row *row;
    int bad;
    struct nprb_vmstat at_move; /* /proc/vmstat when the threads moved */
    bool at_move_ok;
};

/* /proc/vmstat's change since the move into the row: -1 where the kernel has no counter. */
static void vmstat_since_move(const struct series *s, struct nprb_balancing_row *row)
{
    struct nprb_vmstat now;
    bool ok = s->at_move_ok && nprb_vmstat_read(NULL, &now) == 0;
    const unsigned hint = 1u << NPRB_VMSTAT_NUMA_HINT_FAULTS,
                   migrated = 1u << NPRB_VMSTAT_NUMA_PAGES_MIGRATED;
    row->numa_hint_faults =
        ok && (now.present & hint)
            ? (int64_t)nprb_vmstat_delta(&s->at_move, &now, NPRB_VMSTAT_NUMA_HINT_FAULTS)
            : -1;
    row->numa_pages_migrated =
        ok && (now.present & migrated)
            ? (int64_t)nprb_vmstat_delta(&s->at_move, &now, NPRB_VMSTAT_NUMA_PAGES_MIGRATED)
            : -1;
}

/* Elements a reading thread runs the kernel over between two looks at the clock: 1 MiB, a
 * millisecond or less on a real machine, where one pass over the whole array can outlast the
 * interval (hundreds of MiB, or software emulation) and so could not keep a sample's deadline. */
#define CHUNK_ELEMS ((size_t)1 << 17)

/* One thread's reads for one sample: its part of the array chunk by chunk, going on from where
 * the last sample left off, until the deadline; at least one chunk, so that every sample reads
 * something. Returns the bytes read; *last and *sum are the last chunk and its checksum. */
static uint64_t read_until(const struct nprb_kernel *read, const struct nprb_stream_args *part,
                           size_t *at, uint64_t deadline_ns, struct nprb_stream_args *last,
                           double *sum)
{
    uint64_t bytes = 0;
    do {
        size_t n = part->n - *at < CHUNK_ELEMS ? part->n - *at : CHUNK_ELEMS;
        *last = (struct nprb_stream_args){.a = part->a + *at, .n = n};
        *sum = read->run(last);
        bytes += n * sizeof(double);
        *at = *at + n == part->n ? 0 : *at + n;
    } while (nprb_now_ns() < deadline_ns);
    return bytes;
}

/* The master samples between barriers: all threads read until the sample's deadline, a point of
 * the schedule interval, 2 * interval, ... after the move, then the census. The row holds the
 * time the reads actually ended and the bytes they read over the time they actually took. */
static void run_series(struct series *s)
{
    const struct nprb_kernel *read = nprb_kernel_get(NPRB_KERNEL_READ);
    hwloc_topology_t hw = nprb_topo_hwloc(s->ctx->topo);
    const uint64_t period_ns = (uint64_t)llround(s->item->sample_s * 1e9),
                   duration_ns = (uint64_t)llround(s->own.duration_s * 1e9);
    uint64_t t_move = 0, t_start = 0, deadline = 0, bytes = 0;
    int samples = 0;
    bool done = false;
#pragma omp parallel num_threads(s->threads)
    {
        /* OMP_THREAD_LIMIT may give fewer threads than asked: the array is cut among those
         * that run, and every row says how many did. */
        int t = omp_get_thread_num(), team = omp_get_num_threads();
        size_t per = s->n / (size_t)team / 512 * 512;
        struct nprb_stream_args args = {.a = s->a + (size_t)t * per,
                                        .n = t == team - 1 ? s->n - (size_t)t * per : per};
        struct nprb_pin pin;
        bool pinned = nprb_pin_thread(&pin, hw, s->from_pus[t]) == 0;
        nprb_stream_init(&args, 0); /* first touch on the from node */
        if (pinned)
            nprb_unpin_thread(&pin);
#pragma omp barrier
#pragma omp single
        {
            /* The kernel's counters from here, every thread's first touch done: balancing may
             * migrate pages as soon as the threads run on the other node. */
            s->at_move_ok = nprb_vmstat_read(NULL, &s->at_move) == 0;
        }
        pinned = nprb_pin_thread(&pin, hw, s->to_pus[t]) == 0; /* the move */
#pragma omp barrier
#pragma omp single
        {
            t_move = t_start = nprb_now_ns();
            deadline = nprb_deadline_next(t_move, period_ns, t_start);
        }
        struct nprb_stream_args last = {.a = args.a};
        size_t at = 0;
        double sum = 0;
        while (!done) {
            uint64_t mine = read_until(read, &args, &at, deadline, &last, &sum);
#pragma omp atomic
            bytes += mine;
#pragma omp barrier
#pragma omp single
            {
                uint64_t now = nprb_now_ns();
                struct nprb_census census;
                struct nprb_balancing_row *row = s->row;
                row->t_s = (double)(now - t_move) * 1e-9;
                vmstat_since_move(s, row);
                row->read_gbs = (double)bytes / (double)(now - t_start); /* B/ns = GB/s */
                const char *status = NPRB_ROW_INVALID;
                row->note[0] = '\0';
                if (nprb_census_take(s->a, s->n * sizeof(double), &census) != 0) {
                    NPRB_SET_TEXT(row->note, "move_pages cannot tell where the pages are");
                } else {
                    row->pages = census.pages;
                    row->pages_on_from = census.per_node[row->from_node];
                    row->pages_on_to = census.per_node[row->to_node];
                    row->pages_unreported = census.unreported;
                    /* Of the pages that reported: the scanner unmaps ranges of them to sample
                     * accesses, and such a page has not left its node. */
                    uint64_t reported = nprb_census_reported(&census);
                    row->frac_on_to = reported ? (double)row->pages_on_to / reported : NAN;
                    if (reported > 0)
                        status = NPRB_ROW_OK;
                    else
                        NPRB_SET_TEXT(row->note, "placement unverified: no page reported its "
                                                 "node (run as root to read their frames)");
                }
                row->threads = team;
                if (team < s->threads) {
                    char why[48];
                    nprb_omp_env_shortfall(s->threads, why, sizeof why);
                    snprintf(row->note, sizeof row->note, "only %d of %d threads ran (%s)", team,
                             s->threads, why);
                    status = NPRB_ROW_INVALID;
                }
                add_row(s->ctx, row, status);
                /* At least two samples, so the series has a start and an end even when one
                 * interval outlasted the whole duration (a loaded or emulated machine). */
                samples++;
                done = now - t_move >= duration_ns && samples >= 2;
                bytes = 0;
                t_start = nprb_now_ns();
                deadline = nprb_deadline_next(t_move, period_ns, t_start);
            }
        }
        size_t bad_index;
        if (nprb_kernel_validate(read, &last, sum, &bad_index) != 0) {
#pragma omp atomic
            s->bad++;
        }
        if (pinned)
            nprb_unpin_thread(&pin);
    }
}

static enum nprb_status measure(struct nprb_context *ctx, const struct nprb_plan_item *item)
{
    struct balancing_item own;
    NPRB_ITEM_GET_OWN(own, item);
    struct nprb_balancing_row row = {.rank = ctx->rank,
                                     .measurement = ctx->next_measurement++,
                                     .numa_balancing = own.balancing,
                                     .t_s = NAN,
                                     .frac_on_to = NAN,
                                     .read_gbs = NAN,
                                     .numa_hint_faults = -1,
                                     .numa_pages_migrated = -1};
    NPRB_SET_TEXT(row.hostname, ctx->hostname);
    row.from_node = (int32_t)nprb_topo_node(ctx->topo, item->mem_node)->os_index;
    row.to_node = (int32_t)nprb_topo_node(ctx->topo, item->cpu_node)->os_index;
    if (item->skip_reason[0] != '\0') {
        row.numa_balancing = nprb_balancing_get();
        NPRB_SET_TEXT(row.note, item->skip_reason);
        add_row(ctx, &row, NPRB_ROW_NOT_APPLICABLE);
        return NPRB_OK;
    }
    int found = nprb_balancing_get();
    char why[160];
    if (nprb_balancing_set(own.balancing, why, sizeof why) != 0) {
        snprintf(row.note, sizeof row.note,
                 "not applicable: cannot set kernel.numa_balancing to %d (it is %d): %s",
                 own.balancing, found, why);
        row.numa_balancing = found;
        add_row(ctx, &row, NPRB_ROW_NOT_APPLICABLE);
        return NPRB_OK;
    }
    if (own.balancing != found && nprb_fault(NPRB_FAULT_TERM_IN_BALANCING))
        raise(SIGTERM); /* a time limit while the setting is changed: the handler puts it back */
    unsigned from[NPRB_MAX_PUS], to[NPRB_MAX_PUS];
    int nf = nprb_topo_node_pus(ctx->topo, item->mem_node, from, NPRB_MAX_PUS);
    int nt = nprb_topo_node_pus(ctx->topo, item->cpu_node, to, NPRB_MAX_PUS);
    struct nprb_buffer buf;
    char err[160];
    enum nprb_status result = NPRB_OK;
    if (nprb_buffer_alloc(&buf, item->size_bytes, NPRB_MEM_FIRST_TOUCH, NULL, 0,
                          ctx->cfg->huge_pages, err, sizeof err) != 0) {
        NPRB_SET_TEXT(row.note, err);
        add_row(ctx, &row, NPRB_ROW_FAILED);
        result = NPRB_ERR_NOMEM;
    } else {
        struct series s = {.ctx = ctx,
                           .item = item,
                           .own = own,
                           .a = buf.addr,
                           .n = buf.bytes / sizeof(double),
                           .from_pus = from,
                           .to_pus = to,
                           .threads = nf < nt ? nf : nt,
                           .row = &row};
        row.threads = s.threads;
        omp_set_dynamic(0);
        struct nprb_kernel_snapshot before;
        nprb_kernel_snapshot_take(ctx, &before);
        run_series(&s);
        nprb_record_counters(ctx, row.measurement, NPRB_EXPERIMENT_NUMA_BALANCING, &before, NULL,
                             NULL);
        nprb_kernel_snapshot_free(&before);
        nprb_buffer_free(&buf);
        if (s.bad > 0) {
            NPRB_SET_TEXT(row.note, "validation failed: the read kernel summed wrong");
            row.t_s = NAN;
            add_row(ctx, &row, NPRB_ROW_INVALID);
            result = NPRB_ERR_VALIDATION;
        }
    }
    nprb_balancing_restore();
    return result;
}

/* One line per series: where the pages were at the first and the last sample. */
static bool report(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *bl = &rows->tables[NPRB_TABLE_BALANCING];
    bool header = false;
    size_t i = 0;
    while (i < bl->count) {
        const struct nprb_balancing_row *first = nprb_row_at(bl, i), *last = first;
        size_t j = i;
        for (; j < bl->count; j++) {
            const struct nprb_balancing_row *r = nprb_row_at(bl, j);
            if (r->measurement != first->measurement)
                break;
            last = r;
        }
        if (strcmp(first->status, NPRB_ROW_OK) == 0) {
            if (!header)
                fprintf(out,
                        "\nnuma_balancing on %s: pages first touched on node %d, %d threads "
                        "moved to node %d\n",
                        first->hostname, first->from_node, first->threads, first->to_node);
            header = true;
            fprintf(out,
                    "kernel.numa_balancing=%d: pages on the threads' node %5.1f%% -> %5.1f%% "
                    "in %.1f s; read %.1f -> %.1f GB/s; %lld hinting faults, %lld pages "
                    "migrated (system-wide)\n",
                    first->numa_balancing, 100 * first->frac_on_to, 100 * last->frac_on_to,
                    last->t_s, first->read_gbs, last->read_gbs, (long long)last->numa_hint_faults,
                    (long long)last->numa_pages_migrated);
        }
        i = j;
    }
    return header;
}

static const char about[] =
    "pages first touched on one node, threads moved to another: page distribution and bandwidth "
    "over time with the kernel's automatic NUMA balancing off, then on (needs root to change "
    "`kernel.numa_balancing`; the setting is always put back: [System settings numaprobe "
    "changes](../README.md#system-settings-numaprobe-changes))";

const struct nprb_experiment nprb_exp_numa_balancing = {.id = NPRB_EXPERIMENT_NUMA_BALANCING,
                                                        .table = NPRB_TABLE_BALANCING,
                                                        .about = about,
                                                        .plan = plan,
                                                        .measure = measure,
                                                        .config = &section,
                                                        .report = report,
                                                        .priority = NPRB_PRIORITY_PER_NODE};
