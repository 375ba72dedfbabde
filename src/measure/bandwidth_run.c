/* SPDX-License-Identifier: BSD-3-Clause */
#include "measure/bandwidth_run.h"

#include "util/fault.h"
#include "util/hash.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Up to three data arrays (a, b, c) and the index of read_random, each its own buffer. */
#define MAX_BUFFERS 4

struct chunk {
    size_t first, count;
};

/* Chunks of whole cache lines (8 doubles) so no two threads write the same line during first
 * touch: a shared line would bounce between cores, and under first-touch policies one thread's
 * page could land on the other's node. */
static struct chunk chunk_of(size_t n, int threads, int t, size_t align)
{
    size_t units = n / align, per = units / (size_t)threads, extra = units % (size_t)threads;
    size_t first = ((size_t)t * per + ((size_t)t < extra ? (size_t)t : extra)) * align;
    size_t count = (per + ((size_t)t < extra ? 1 : 0)) * align;
    if (t == threads - 1)
        count = n - first;
    struct chunk c = {first, count};
    return c;
}

struct team {
    const struct nprb_bandwidth_request *req;
    hwloc_topology_t hw;
    double *arrays[3];
    uint32_t *index;
    size_t n;
    double *seconds; /* [repetitions] */
    int threads;     /* that OpenMP really started: req->threads unless OMP_THREAD_LIMIT caps it */
    uint64_t passes; /* per sample, decided by calibration */
    uint64_t t0;
    int bad, unpinned, pin_failures;
    struct nprb_buffer *buffers;
    int buffer_count;
    /* written with starting values before the run: not found holding them */
    bool fill[MAX_BUFFERS];
    struct nprb_census *census;
    bool census_ok;
    struct nprb_cpus_seen *cpus;
    size_t align;
    double local_frac;
    struct nprb_counts *counts; /* the team's, summed */
    struct nprb_uncore *uncore; /* NULL: the memory controllers are not counted */
    uint64_t *starts, *ends;    /* per sample, and per sample x thread: with req->group_of */
};

static struct nprb_stream_args thread_args(const struct team *tm, struct chunk c)
{
    const struct nprb_kernel *k = tm->req->kernel;
    struct nprb_stream_args a = {
        .a = tm->arrays[0] + c.first,
        .b = k->arrays >= 2 ? tm->arrays[1] + c.first : NULL,
        .c = k->arrays >= 3 ? tm->arrays[2] + c.first : NULL,
        .n = c.count,
        .stride =
            tm->req->stride_bytes / sizeof(double) > 0 ? tm->req->stride_bytes / sizeof(double) : 1,
        .index = tm->index != NULL ? tm->index + c.first : NULL,
    };
    return a;
}

/* What nprb_stream_init() writes of a chunk: the arrays that do not hold their starting values
 * already. */
static void init_chunk(const struct team *tm, struct nprb_stream_args args, uint64_t seed)
{
    double **arrays[] = {&args.a, &args.b, &args.c};
    for (int i = 0; i < 3; i++)
        if (!tm->fill[i])
            *arrays[i] = NULL;
    nprb_stream_init(&args, seed);
}

/* Pages of each thread's chunk (of every array) found on that thread's node. A chunk is cut out
 * of its array's mapping to be counted only where no transparent huge page could span the cut. */
static double local_fraction(const struct team *tm)
{
    const struct nprb_bandwidth_request *req = tm->req;
    struct nprb_piece *pieces = calloc((size_t)tm->threads, sizeof *pieces);
    struct nprb_census *census = calloc((size_t)tm->threads, sizeof *census);
    int *thread_of = calloc((size_t)tm->threads, sizeof *thread_of);
    int groups = req->group_of != NULL ? req->groups : 0;
    uint64_t *group_local = calloc((size_t)groups + 1, sizeof *group_local);
    uint64_t *group_total = calloc((size_t)groups + 1, sizeof *group_total);
    uint64_t local = 0, total = 0;
    bool have_room = pieces && census && thread_of && group_local && group_total;
    for (unsigned a = 0; a < req->kernel->arrays && have_room; a++) {
        int count = 0;
        for (int t = 0; t < tm->threads; t++) {
            struct chunk c = chunk_of(tm->n, tm->threads, t, tm->align);
            if (c.count == 0)
                continue;
            pieces[count] = (struct nprb_piece){tm->arrays[a] + c.first, c.count * sizeof(double)};
            thread_of[count++] = t;
        }
        bool may_split = nprb_buffer_huge_fraction(&tm->buffers[a]) == 0;
        if (nprb_census_take_pieces(pieces, count, may_split, census) != 0)
            continue;
        for (int i = 0; i < count; i++) {
            int t = thread_of[i];
            uint64_t here = census[i].per_node[req->thread_nodes[t]];
            uint64_t reported = nprb_census_reported(&census[i]);
            local += here;
            total += reported;
            if (groups > 0) {
                struct nprb_group_time *gt = &req->group_times[req->group_of[t]];
                group_local[req->group_of[t]] += here;
                group_total[req->group_of[t]] += reported;
                nprb_census_add(&gt->census, &census[i]);
                gt->census_ok = true;
            }
        }
    }
    for (int g = 0; g < groups && have_room; g++)
        req->group_times[g].local_frac =
            group_total[g] > 0 ? (double)group_local[g] / (double)group_total[g] : -1;
    free(pieces);
    free(census);
    free(thread_of);
    free(group_local);
    free(group_total);
    return total > 0 ? (double)local / (double)total : -1;
}

static void take_census(struct team *tm)
{
    tm->census_ok = true;
    memset(tm->census, 0, sizeof *tm->census);
    for (int i = 0; i < tm->buffer_count; i++) {
        struct nprb_census one;
        if (nprb_census_take(tm->buffers[i].addr, tm->buffers[i].bytes, &one) != 0) {
            tm->census_ok = false;
            return;
        }
        nprb_census_add(tm->census, &one);
    }
}

/* One pass timed between barriers decides how many passes a sample makes: small arrays need
 * many passes to last sample_time and 20 clock ticks; large ones need one. */
static uint64_t passes_for(double pass_s, double sample_s, uint64_t tick_ns)
{
    double want = sample_s > 20e-9 * (double)tick_ns ? sample_s : 20e-9 * (double)tick_ns;
    if (pass_s <= 0 || pass_s >= want)
        return 1;
    double passes = ceil(want / pass_s);
    return passes > 1e9 ? 1000000000u : (uint64_t)passes;
}

/* The slow_node0 and noisy_node0 faults: the repetition that began at @p t0 and took @p took_ns
 * is held until it has taken took_ns / @p speed, so its memory reads as that share of what it
 * gave, in time as well as in the figure. */
static void hold_until(uint64_t t0, uint64_t took_ns, double speed)
{
    uint64_t end = t0 + (uint64_t)((double)took_ns / speed);
    while (nprb_now_ns() < end)
        ;
}

/* All timing is done by one thread between barriers, as STREAM does: the figure includes the
 * slowest thread, which is what an application with a barrier after each sweep would see. */
static void stream_team(struct team *tm)
{
    const struct nprb_bandwidth_request *req = tm->req;
    uint64_t tick = nprb_clock_tick_ns();
    bool inject_corruption = nprb_fault(NPRB_FAULT_CORRUPT_BANDWIDTH);
    bool on_node0 = req->policy == NPRB_MEM_BIND && req->node_count == 1 && req->nodes[0] == 0;
    bool slow_node = on_node0 && nprb_fault(NPRB_FAULT_SLOW_NODE0);
    bool noisy_node = on_node0 && nprb_fault(NPRB_FAULT_NOISY_NODE0);
#pragma omp parallel num_threads(req->threads)
    {
        /* The team OpenMP gave, which OMP_THREAD_LIMIT can make smaller than asked: the array
         * is cut among the threads that run, so every element is streamed and the row can say
         * how many did it. */
        int t = omp_get_thread_num(), team = omp_get_num_threads();
#pragma omp single
        tm->threads = team;
        struct nprb_pin pin;
        bool pinned = nprb_pin_thread(&pin, tm->hw, req->pus[t]) == 0;
        if (!pinned) {
#pragma omp atomic
            tm->pin_failures++;
        }
        struct nprb_thread_counters counters;
        nprb_thread_counters_open(&counters, req->counter_groups);
        struct nprb_stream_args args = thread_args(tm, chunk_of(tm->n, team, t, tm->align));
        if (req->touch == NPRB_TOUCH_MISMATCHED) {
            int writer_of = (t + team / 2) % team;
            init_chunk(tm, thread_args(tm, chunk_of(tm->n, team, writer_of, tm->align)),
                       req->seed + (uint64_t)writer_of);
        } else if (req->touch != NPRB_TOUCH_SERIAL) {
            init_chunk(tm, args, req->seed + (uint64_t)t);
        }
        double sum = 0;
#pragma omp barrier
#pragma omp single
        {
            take_census(tm);
            if (req->thread_nodes != NULL)
                tm->local_frac = local_fraction(tm);
            tm->t0 = nprb_now_ns();
        }
        /* One pass timed decides the passes a sample makes; without a sample time a sample is
         * one pass, and sample -1 below warms the arrays as well as this pass would. */
        if (req->sample_s > 0)
            sum = req->kernel->run(&args);
#pragma omp barrier
#pragma omp single
        tm->passes = req->sample_s > 0
                         ? passes_for((double)(nprb_now_ns() - tm->t0) * 1e-9, req->sample_s, tick)
                         : 1;
        /* Sample -1 is discarded: first-touch faults and cold TLBs belong to no sample. The
         * counters count the kept samples: every thread enables its own before the barrier that
         * precedes the first, and disables them after the barrier that ends the last. */
        uint64_t counted_from = 0; /* when this thread's counters were enabled */
        for (int r = -1; r < req->repetitions; r++) {
            if (r == 0) {
                nprb_thread_counters_start(&counters);
                counted_from = nprb_now_ns();
#pragma omp single
                if (tm->uncore != NULL)
                    nprb_uncore_start(tm->uncore);
            }
#pragma omp single
            tm->t0 = nprb_now_ns();
            for (uint64_t p = 0; p < tm->passes; p++)
                sum = req->kernel->run(&args);
            if (tm->ends != NULL && r >= 0)
                tm->ends[(size_t)r * (size_t)req->threads + (size_t)t] = nprb_now_ns();
#pragma omp barrier
#pragma omp single
            {
                if (slow_node)
                    hold_until(tm->t0, nprb_now_ns() - tm->t0, 0.6);
                if (noisy_node && r % 3 != 0)
                    hold_until(tm->t0, nprb_now_ns() - tm->t0, 0.5);
                if (r >= 0)
                    tm->seconds[r] = (double)(nprb_now_ns() - tm->t0) * 1e-9 / (double)tm->passes;
                if (r >= 0 && tm->starts != NULL)
                    tm->starts[r] = tm->t0;
            }
        }
        uint64_t counted_ns = counted_from > 0 ? nprb_now_ns() - counted_from : 0;
        nprb_thread_counters_stop(&counters);
#pragma omp single nowait
        if (tm->uncore != NULL)
            nprb_uncore_stop(tm->uncore);
        struct nprb_counts mine = {.groups = req->counter_groups};
        nprb_thread_counters_collect(&counters, &mine, counted_ns);
#pragma omp critical(nprb_team_counts)
        {
            nprb_counts_merge(tm->counts, &mine);
            if (req->group_of != NULL)
                nprb_counts_merge(&req->group_times[req->group_of[t]].counts, &mine);
        }
        if (inject_corruption && args.n > 0)
            args.a[args.n / 2] += 1.0;
        size_t bad_index;
        if (nprb_kernel_validate(req->kernel, &args, sum, &bad_index) != 0) {
#pragma omp atomic
            tm->bad++;
        }
        if (pinned && !nprb_pin_holds(&pin)) {
#pragma omp atomic
            tm->unpinned++;
        }
        nprb_cpus_seen_here(tm->cpus);
        if (pinned)
            nprb_unpin_thread(&pin);
    }
}

/* What a kept data array holds for a later measurement: its starting values (a, b or c's),
 * n elements, written by a team each thread of which wrote its own chunk. 0 for anything else:
 * an index (its permutation is each thread's own, from its seed), or memory another touch mode
 * placed. */
static uint64_t array_key(const struct nprb_bandwidth_request *req, unsigned array, size_t n)
{
    if (array >= req->kernel->arrays || req->touch != NPRB_TOUCH_THREADED)
        return 0;
    uint64_t h = nprb_fnv1a_text("stream array");
    h = nprb_fnv1a(h, &array, sizeof array);
    h = nprb_fnv1a(h, &n, sizeof n);
    return h != 0 ? h : 1;
}

/* Each array mapped, a kept one holding its starting values preferred: every measurement of a
 * memory node's cells from one CPU node after another wrote every array again before, which the
 * arrays it only reads never needed (they still hold those values, which validation checks), and
 * which cost a kept triad's three arrays as much as a timed repetition. What the kernel writes
 * is written again first, so that a run that never stored still leaves values validation sees. */
static int allocate(struct team *tm, struct nprb_buffer *buffers, struct nprb_bandwidth_result *res)
{
    const struct nprb_bandwidth_request *req = tm->req;
    char err[160];
    tm->n = req->bytes_per_array / sizeof(double);
    for (unsigned i = 0; i < req->kernel->arrays + (req->kernel->uses_index ? 1u : 0u); i++) {
        bool is_index = i == req->kernel->arrays;
        size_t bytes = is_index ? tm->n * sizeof(uint32_t) : tm->n * sizeof(double);
        uint64_t key = array_key(req, i, tm->n);
        if (nprb_buffer_alloc_holding(&buffers[i], key, bytes, req->policy, req->nodes,
                                      req->node_count, req->huge_pages, err, sizeof err) != 0) {
            res->error = errno;
            snprintf(res->note, sizeof res->note, "%s", err);
            return -1;
        }
        tm->buffer_count++;
        tm->fill[i] =
            key == 0 || buffers[i].content_key != key || nprb_kernel_writes(req->kernel, i);
        buffers[i].content_key = 0; /* until the run has validated */
        if (is_index)
            tm->index = buffers[i].addr;
        else
            tm->arrays[i] = buffers[i].addr;
    }
    res->page_bytes = buffers[0].page_bytes;
    return 0;
}

/* Each group's sample: from the common start to its slowest thread's end. */
static void group_times(const struct team *tm)
{
    const struct nprb_bandwidth_request *req = tm->req;
    double *samples = calloc((size_t)req->repetitions, sizeof *samples);
    for (int g = 0; g < req->groups && samples != NULL; g++) {
        struct nprb_group_time *gt = &req->group_times[g];
        size_t elements = 0;
        gt->threads = 0;
        for (int t = 0; t < tm->threads; t++)
            if (req->group_of[t] == g) {
                gt->threads++;
                elements += chunk_of(tm->n, tm->threads, t, tm->align).count;
            }
        gt->share = tm->n > 0 ? (double)elements / (double)tm->n : 0;
        if (gt->threads == 0)
            continue;
        for (int r = 0; r < req->repetitions; r++) {
            uint64_t slowest = 0;
            for (int t = 0; t < tm->threads; t++) {
                uint64_t end = tm->ends[(size_t)r * (size_t)req->threads + (size_t)t];
                if (req->group_of[t] == g && end - tm->starts[r] > slowest)
                    slowest = end - tm->starts[r];
            }
            samples[r] = (double)slowest * 1e-9 / (double)tm->passes;
        }
        gt->seconds = nprb_stats_of(samples, (size_t)req->repetitions);
    }
    free(samples);
}

/* Before the team starts: explicit per-chunk binding, or the serial first touch from one
 * pinned thread (the calling one, whose binding is restored afterwards). */
static int prepare_pages(struct team *tm, struct nprb_bandwidth_result *res)
{
    const struct nprb_bandwidth_request *req = tm->req;
    if (req->touch == NPRB_TOUCH_BIND) {
        for (int t = 0; t < req->threads; t++) {
            struct chunk c = chunk_of(tm->n, req->threads, t, tm->align);
            for (unsigned a = 0; a < req->kernel->arrays && c.count > 0; a++) {
                if (nprb_bind_range(tm->arrays[a] + c.first, c.count * sizeof(double),
                                    req->thread_nodes[t]) != 0) {
                    res->error = errno;
                    snprintf(res->note, sizeof res->note, "mbind of thread %d's chunk: %s", t,
                             strerror(errno));
                    return -1;
                }
            }
        }
    }
    if (req->touch == NPRB_TOUCH_SERIAL) {
        struct nprb_pin pin;
        if (nprb_pin_thread(&pin, tm->hw, req->serial_pu) != 0) {
            res->error = errno;
            snprintf(res->note, sizeof res->note, "cannot pin the initialising thread: %s",
                     strerror(errno));
            return -1;
        }
        init_chunk(tm, thread_args(tm, (struct chunk){0, tm->n}), req->seed);
        nprb_unpin_thread(&pin);
    }
    return 0;
}

void nprb_bandwidth_run(hwloc_topology_t hw, const struct nprb_bandwidth_request *req,
                        struct nprb_bandwidth_result *res)
{
    memset(res, 0, sizeof *res);
    res->local_frac = -1;
    res->seconds.min = res->seconds.median = res->seconds.max = NAN;
    res->huge_page_frac = -1;
    struct nprb_buffer buffers[MAX_BUFFERS];
    memset(buffers, 0, sizeof buffers);
    struct team tm = {.req = req,
                      .hw = hw,
                      .buffers = buffers,
                      .census = &res->census,
                      .cpus = &res->cpus,
                      .align = req->chunk_align ? req->chunk_align : 8,
                      .local_frac = -1,
                      .counts = &res->counts};
    res->counts.groups = req->counter_groups;
    nprb_kernel_bytes(req->kernel, req->bytes_per_array / sizeof(double),
                      req->stride_bytes / sizeof(double) > 0 ? req->stride_bytes / sizeof(double)
                                                             : 1,
                      &res->program_bytes, &res->bus_bytes);
    for (int g = 0; req->group_of != NULL && g < req->groups; g++)
        req->group_times[g] = (struct nprb_group_time){
            .seconds = {.min = NAN, .median = NAN, .p90 = NAN, .p99 = NAN, .max = NAN},
            .local_frac = -1,
            .counts = {.groups = req->counter_groups}};
    tm.seconds = calloc((size_t)req->repetitions, sizeof *tm.seconds);
    if (req->group_of != NULL) {
        tm.starts = calloc((size_t)req->repetitions, sizeof *tm.starts);
        tm.ends = calloc((size_t)req->repetitions * (size_t)req->threads, sizeof *tm.ends);
    }
    if (tm.seconds == NULL || (req->group_of != NULL && (tm.starts == NULL || tm.ends == NULL))) {
        free(tm.seconds);
        free(tm.starts);
        free(tm.ends);
        res->error = ENOMEM;
        snprintf(res->note, sizeof res->note, "out of memory for timings");
        return;
    }
    if (allocate(&tm, buffers, res) == 0 && prepare_pages(&tm, res) == 0) {
        /* Exactly the threads asked for: a dynamic team would break the chunk-to-core map. */
        omp_set_dynamic(0);
        struct nprb_uncore uncore;
        char why[8];
        if ((req->counter_groups & NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_UNCORE)) &&
            !nprb_uncore_unavailable(why, sizeof why) && nprb_uncore_open(&uncore) == 0)
            tm.uncore = &uncore;
        stream_team(&tm);
        if (tm.uncore != NULL)
            nprb_uncore_collect(tm.uncore, &res->uncore);
        if (req->group_of != NULL)
            group_times(&tm);
        /* A run that validated leaves the arrays it only read holding their starting values. */
        for (int i = 0; i < tm.buffer_count && tm.bad == 0; i++)
            if (!nprb_kernel_writes(req->kernel, (unsigned)i))
                buffers[i].content_key = array_key(req, (unsigned)i, tm.n);
        res->seconds = nprb_stats_of(tm.seconds, (size_t)req->repetitions);
        res->passes_per_sample = tm.passes;
        res->census_ok = tm.census_ok;
        res->local_frac = tm.local_frac;
        res->huge_page_frac = nprb_buffer_huge_fraction(&buffers[0]);
        res->pinned_ok = tm.pin_failures == 0 && tm.unpinned == 0;
        res->bad_threads = tm.bad;
        res->threads_ran = tm.threads;
        if (tm.bad > 0)
            snprintf(res->note, sizeof res->note,
                     "validation failed: %d of %d threads got wrong results from kernel %s", tm.bad,
                     tm.threads, req->kernel->name);
        else if (!res->pinned_ok)
            snprintf(res->note, sizeof res->note, "%d threads could not be pinned, %d moved",
                     tm.pin_failures, tm.unpinned);
    }
    for (int i = 0; i < MAX_BUFFERS; i++)
        nprb_buffer_free(&buffers[i]);
    free(tm.seconds);
    free(tm.starts);
    free(tm.ends);
}
