/* SPDX-License-Identifier: BSD-3-Clause */
#include "measure/latency_run.h"

#include "kernels/chain.h"
#include "kernels/chase.h"
#include "util/fault.h"
#include "util/hash.h"
#include "util/populate.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t nprb_latency_span_per_line(uint64_t slot_bytes)
{
    const uint64_t line = 64;
    return slot_bytes > line ? slot_bytes / line : 1;
}

/* Doubles the walk until one sample lasts the configured time and at least 20 clock ticks
 * (STREAM's rule), so the clock's resolution is under 5% of every sample. */
static uint64_t calibrate(struct nprb_walker *w, const struct nprb_pattern *pattern,
                          double sample_s, uint64_t tick_ns)
{
    uint64_t want_ns = (uint64_t)(sample_s * 1e9);
    if (want_ns < 20 * tick_ns)
        want_ns = 20 * tick_ns;
    uint64_t steps = 1024;
    for (;;) {
        uint64_t t0 = nprb_now_ns();
        pattern->desc->walk(w, steps);
        uint64_t dt = nprb_now_ns() - t0;
        if (dt >= want_ns || steps >= (UINT64_C(1) << 40))
            return steps;
        if (dt > 100 * tick_ns && dt * 2 < want_ns)
            steps = steps * (want_ns / dt + 1); /* close to the target in one step */
        else
            steps *= 2;
        steps = (steps + NPRB_CHASE_UNROLL - 1) / NPRB_CHASE_UNROLL * NPRB_CHASE_UNROLL;
    }
}

static bool sample(struct nprb_walker *w, const struct nprb_latency_request *req,
                   struct nprb_latency_result *res)
{
    uint64_t steps = calibrate(w, &req->pattern, req->sample_s, nprb_clock_tick_ns()), made = steps;
    double *ns = malloc((size_t)req->samples * sizeof *ns);
    if (ns == NULL)
        return false;
    /* Sample -1 is discarded: it pays for whatever calibration left cold (TLB, caches). The
     * counters count the kept samples, enabled and disabled between them, never inside. */
    struct nprb_thread_counters tc;
    nprb_thread_counters_open(&tc, req->counter_groups);
    uint64_t counted_ns = 0; /* the kept samples' wall time, which the counters must cover */
    for (int s = -1; s < req->samples; s++) {
        if (req->pattern.desc->between_samples != NULL) {
            nprb_thread_counters_stop(&tc);
            req->pattern.desc->between_samples(w);
        }
        if (s == 0)
            nprb_thread_counters_start(&tc);
        else if (s > 0 && req->pattern.desc->between_samples != NULL)
            nprb_thread_counters_resume(&tc);
        uint64_t t0 = nprb_now_ns();
        made = req->pattern.desc->walk(w, steps);
        uint64_t dt = nprb_now_ns() - t0;
        if (s >= 0) {
            ns[s] = (double)dt / (double)made;
            counted_ns += dt;
        }
    }
    nprb_thread_counters_stop(&tc);
    res->counts.groups = req->counter_groups;
    nprb_thread_counters_collect(&tc, &res->counts, counted_ns);
    res->ns = nprb_stats_of(ns, (size_t)req->samples);
    res->accesses_per_sample = made;
    free(ns);
    return true;
}

static void fail(struct nprb_latency_result *res, int error, const char *what)
{
    res->error = error;
    snprintf(res->note, sizeof res->note, "%s: %s", what, strerror(error));
}

/* Builds the chain (or the index) in @p data; false with the reason in the result. */
static bool prepare(const struct nprb_latency_request *req, struct nprb_buffer *data,
                    struct nprb_buffer *index, struct nprb_walker *w,
                    struct nprb_latency_result *res)
{
    const struct nprb_pattern_desc *d = req->pattern.desc;
    struct nprb_walk_setup setup = {.data = data->addr,
                                    .bytes = data->bytes,
                                    .index = index->addr,
                                    .slot_bytes = res->slot_bytes,
                                    .window_bytes = d->windowed ? req->tlb_window_bytes : 0,
                                    .seed = req->seed,
                                    .chains = req->pattern.chains};
    if (d->build(w, &setup) != 0) {
        fail(res, errno, "chain construction failed");
        return false;
    }
    if (w->position == NULL)
        return true; /* an index read: its sum is checked after the walk */
    void **head = w->position;
    if (nprb_fault(NPRB_FAULT_CORRUPT_CHAIN))
        *head = head; /* a slot pointing at itself: the chain no longer visits every slot */
    if (nprb_chain_check_permutation(data->addr, data->bytes, res->slot_bytes, d->spread) != 0) {
        res->wrong_answer = true;
        snprintf(res->note, sizeof res->note, "chain integrity check failed");
        return false;
    }
    return true;
}

/* Every page of @p buf faulted in, in address order, before the chain is written in random
 * order: placement then follows the policy page by page (and THP can assemble huge pages). The
 * chasing node's cores share the work, each a contiguous 2 MiB-aligned share from its own core,
 * so a first-touch buffer still lands on that node: where a page fault costs microseconds (a
 * VM's shadow paging), one thread faulting a 1 GiB chain in spent most of its setup there
 * (nprb_fault_in(), bench/README.md). A helper that cannot be pinned leaves its share to the
 * chasing thread. */
static void fault_in(hwloc_topology_t hw, const struct nprb_latency_request *req,
                     const struct nprb_buffer *buf)
{
    const size_t block = 2UL << 20;
    size_t blocks = (buf->bytes + block - 1) / block;
    const unsigned *helpers = req->touch_pu_count > 1 ? req->touch_pus : NULL;
    int team = helpers != NULL ? req->touch_pu_count : 1;
    if ((size_t)team > blocks)
        team = (int)blocks;
    int unpinned = 0;
#pragma omp parallel num_threads(team) if (team > 1) reduction(+ : unpinned)
    {
        int t = omp_get_thread_num(), n = omp_get_num_threads();
        struct nprb_pin pin;
        bool pinned = helpers == NULL || n == 1 || nprb_pin_thread(&pin, hw, helpers[t]) == 0;
        size_t first = blocks * (size_t)t / (size_t)n * block;
        size_t end = blocks * (size_t)(t + 1) / (size_t)n * block;
        if (end > buf->bytes)
            end = buf->bytes;
        if (!pinned)
            unpinned++;
        else if (first < end)
            nprb_fault_in((char *)buf->addr + first, end - first);
        if (pinned && helpers != NULL && n > 1)
            nprb_unpin_thread(&pin);
    }
    if (unpinned > 0)
        nprb_fault_in(buf->addr, buf->bytes);
}

/* What a chain is made of: the same key builds the same chain (the seed decides its order), so
 * a kept mapping holding it serves the next measurement as well as a new one would. A pattern
 * that relinks one build for every count of chains keys it without the count. 0: no reuse (an
 * index read's sum depends on its second buffer). */
static uint64_t chain_key(const struct nprb_latency_request *req, uint64_t slot_bytes)
{
    const struct nprb_pattern_desc *d = req->pattern.desc;
    if (d->indexed)
        return 0;
    uint64_t window = d->windowed ? req->tlb_window_bytes : 0;
    uint64_t h = nprb_fnv1a_text(d->relink != NULL ? d->name : req->pattern.name);
    h = nprb_fnv1a(h, &req->size_bytes, sizeof req->size_bytes);
    h = nprb_fnv1a(h, &slot_bytes, sizeof slot_bytes);
    h = nprb_fnv1a(h, &window, sizeof window);
    h = nprb_fnv1a(h, &req->seed, sizeof req->seed);
    return h != 0 ? h : 1;
}

/* A kept build laid out for another count of chains, laid out for this one; the mapping's
 * record then says so, for the next user. False, the mapping no longer offered, on failure. */
static bool relink(const struct nprb_latency_request *req, struct nprb_buffer *data,
                   struct nprb_walker *w, struct nprb_latency_result *res)
{
    struct nprb_walk_setup setup = {.data = data->addr,
                                    .bytes = data->bytes,
                                    .slot_bytes = res->slot_bytes,
                                    .window_bytes =
                                        req->pattern.desc->windowed ? req->tlb_window_bytes : 0,
                                    .seed = req->seed,
                                    .chains = req->pattern.chains};
    if (req->pattern.desc->relink(w, &setup) != 0) {
        data->content_key = 0;
        fail(res, errno, "chains laid out anew");
        return false;
    }
    memcpy(data->content, w, sizeof *w);
    return true;
}

_Static_assert(sizeof(struct nprb_walker) <= NPRB_BUFFER_CONTENT_BYTES,
               "a chain's walker must fit its buffer's record");

static void measure(hwloc_topology_t hw, const struct nprb_latency_request *req,
                    struct nprb_latency_result *res)
{
    struct nprb_buffer data, index = {0};
    char err[160];
    uint64_t key = chain_key(req, res->slot_bytes);
    if (nprb_buffer_alloc_holding(&data, key, req->size_bytes, req->policy, req->nodes,
                                  req->node_count, req->huge_pages, err, sizeof err) != 0) {
        res->error = errno;
        snprintf(res->note, sizeof res->note, "%s", err);
        return;
    }
    if (req->pattern.desc->indexed &&
        nprb_buffer_alloc(&index, req->size_bytes / sizeof(double) * sizeof(uint32_t), req->policy,
                          req->nodes, req->node_count, req->huge_pages, err, sizeof err) != 0) {
        res->error = errno;
        snprintf(res->note, sizeof res->note, "index: %s", err);
        nprb_buffer_free(&data);
        return;
    }
    res->page_bytes = data.page_bytes;
    struct nprb_walker w = {0};
    /* A kept chain was built and checked when it was made, and a chase only reads it: its
     * walker as it stood then starts this measurement where a new build would. Its pages are
     * counted again below, so the row still says where they are. */
    bool built = key != 0 && data.content_key == key;
    if (built) {
        memcpy(&w, data.content, sizeof w);
        if (req->pattern.desc->relink != NULL && w.chains != req->pattern.chains &&
            !relink(req, &data, &w, res))
            built = false;
    } else {
        data.content_key = 0;
        fault_in(hw, req, &data);
        if (index.addr != NULL)
            fault_in(hw, req, &index);
        built = prepare(req, &data, &index, &w, res);
        if (built && key != 0) {
            memcpy(data.content, &w, sizeof w);
            data.content_key = key;
        }
    }
    if (built) {
        res->census_ok = nprb_census_take(data.addr, data.bytes, &res->census) == 0;
        struct nprb_census more;
        if (res->census_ok && index.addr != NULL &&
            nprb_census_take(index.addr, index.bytes, &more) == 0)
            nprb_census_add(&res->census, &more);
        res->huge_page_frac = nprb_buffer_huge_fraction(&data);
        if (!sample(&w, req, res))
            fail(res, ENOMEM, "sample buffer");
        /* The sum is checked, so the reads cannot be optimised away and a wrong index or a
         * stale element is caught. */
        if (req->pattern.desc->indexed && w.last_sum != (double)w.last_steps) {
            res->wrong_answer = true;
            snprintf(res->note, sizeof res->note,
                     "validation failed: index read summed %.0f over %llu elements of 1.0",
                     w.last_sum, (unsigned long long)w.last_steps);
        }
    }
    nprb_buffer_free(&index);
    nprb_buffer_free(&data);
}

void nprb_latency_run(hwloc_topology_t hw, const struct nprb_latency_request *req,
                      struct nprb_latency_result *res)
{
    memset(res, 0, sizeof *res);
    res->ns.min = res->ns.median = res->ns.p90 = res->ns.p99 = res->ns.max = NAN;
    res->huge_page_frac = -1;
    res->slot_bytes = nprb_pattern_slot_bytes(&req->pattern);
    struct nprb_pin pin;
    if (nprb_pin_thread(&pin, hw, req->pu) != 0) {
        fail(res, errno, "cannot pin the chasing thread");
        return;
    }
    measure(hw, req, res);
    res->stayed_on_pu = nprb_pin_holds(&pin);
    nprb_cpus_seen_here(&res->cpus);
    nprb_unpin_thread(&pin);
}
