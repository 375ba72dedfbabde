/* SPDX-License-Identifier: BSD-3-Clause */
#include "measure/c2c_run.h"

#include "kernels/c2c.h"
#include "kernels/chain.h"
#include "kernels/chase.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* The first samples find the lines and the code cold: left out of the statistics. */
#define WARM_SAMPLES 2

/* A line of the hit chain: where the next load goes, and the rest of its 64 bytes. */
struct line {
    struct line *next;
    char pad[56];
};

struct c2c_shared {
    const struct nprb_c2c_request *req;
    hwloc_topology_t hw;
    struct nprb_c2c_flags *flags;
    struct line *chain;
    double *ns;        /* hit: each sample's ns per load, written by the reader */
    _Atomic int ready; /* 0 while the reader pins itself; 1 pinned; -1 it could not pin */
    bool stayed_b;
    void *sink; /* keeps the reader's chase alive */
    struct nprb_cpus_seen *cpus;
};

/* The other CPU: answers the ping-pong (hitm), or reads the chain each time the owner has made
 * it clean in its own cache and says so on the flags (hit). */
static void *reader_main(void *arg)
{
    struct c2c_shared *s = arg;
    const struct nprb_c2c_request *req = s->req;
    struct nprb_pin pin;
    if (nprb_pin_thread(&pin, s->hw, req->pu_b) != 0) {
        /* On the owner's CPU, each hand-over would wait for a scheduler tick: nothing to time. */
        atomic_store_explicit(&s->ready, -1, memory_order_release);
        return NULL;
    }
    atomic_store_explicit(&s->ready, 1, memory_order_release);
    uint64_t samples = (uint64_t)req->samples + WARM_SAMPLES;
    if (!req->hit)
        nprb_c2c_pong(s->flags, 1, samples * req->trips);
    for (uint64_t k = 1; req->hit && k <= samples; k++) {
        while (atomic_load_explicit(&s->flags->ping, memory_order_acquire) != k)
            ;
        uint64_t t0 = nprb_now_ns();
        s->sink = nprb_chase(s->chain, NPRB_C2C_HIT_LINES);
        s->ns[k - 1] = (double)(nprb_now_ns() - t0) / NPRB_C2C_HIT_LINES;
        atomic_store_explicit(&s->flags->pong, k, memory_order_release);
    }
    s->stayed_b = nprb_pin_holds(&pin);
    nprb_cpus_seen_here(s->cpus);
    nprb_unpin_thread(&pin);
    return NULL;
}

/* One random cycle through the lines, so that no prefetcher guesses the next one. */
static void chain_build(struct line *lines, uint64_t seed)
{
    unsigned order[NPRB_C2C_HIT_LINES];
    for (unsigned i = 0; i < NPRB_C2C_HIT_LINES; i++)
        order[i] = i;
    uint64_t state = seed;
    for (unsigned i = NPRB_C2C_HIT_LINES - 1; i > 0; i--) {
        unsigned j = (unsigned)(nprb_random_next(&state) % (i + 1));
        unsigned t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (unsigned i = 0; i < NPRB_C2C_HIT_LINES; i++)
        lines[order[i]].next = &lines[order[(i + 1) % NPRB_C2C_HIT_LINES]];
}

/* The owner's side of the hit case: each sample it writes the chain (taking the lines from the
 * reader's cache), flushes it from every cache, reads it back, clean and its own alone, and
 * hands it over. */
static void owner_hit(struct c2c_shared *s, uint64_t samples)
{
    for (uint64_t k = 1; k <= samples; k++) {
        for (unsigned i = 0; i < NPRB_C2C_HIT_LINES; i++)
            s->chain[i].pad[0] = (char)k;
        nprb_lines_flush(s->chain, NPRB_C2C_HIT_LINES);
        s->sink = nprb_chase(s->chain, NPRB_C2C_HIT_LINES);
        atomic_store_explicit(&s->flags->ping, k, memory_order_release);
        while (atomic_load_explicit(&s->flags->pong, memory_order_acquire) != k)
            ;
    }
}

static void owner_hitm(struct c2c_shared *s, uint64_t samples, double *ns)
{
    uint64_t trips = s->req->trips;
    for (uint64_t k = 0; k < samples; k++) {
        uint64_t t0 = nprb_now_ns();
        nprb_c2c_ping(s->flags, 1 + k * trips, trips);
        ns[k] = (double)(nprb_now_ns() - t0) / (2.0 * (double)trips);
    }
}

static void run_pinned(struct c2c_shared *s, struct nprb_c2c_result *res, double *ns)
{
    const struct nprb_c2c_request *req = s->req;
    uint64_t samples = (uint64_t)req->samples + WARM_SAMPLES;
    pthread_t reader;
    int rc = pthread_create(&reader, NULL, reader_main, s);
    if (rc != 0) {
        res->error = rc;
        snprintf(res->note, sizeof res->note, "cannot start the thread for CPU %u", req->pu_b);
        return;
    }
    /* The reader starts with the owner's binding, on this CPU alone until it pins itself: a bare
     * spin here would hold it off until the tick preempts the spin, or for ever where the tick
     * is late (a tickless core, an emulated guest). */
    int ready;
    while ((ready = atomic_load_explicit(&s->ready, memory_order_acquire)) == 0)
        sched_yield();
    if (ready < 0) {
        pthread_join(reader, NULL);
        res->error = EINVAL;
        snprintf(res->note, sizeof res->note, "cannot pin the other thread to CPU %u", req->pu_b);
        return;
    }
    if (req->hit)
        owner_hit(s, samples);
    else
        owner_hitm(s, samples, ns);
    pthread_join(reader, NULL);
    if (req->hit)
        memcpy(ns, s->ns, samples * sizeof *ns);
    res->ns = nprb_stats_of(ns + WARM_SAMPLES, (size_t)req->samples);
    res->transfers_per_sample = req->hit ? NPRB_C2C_HIT_LINES : 2 * req->trips;
}

void nprb_c2c_run(hwloc_topology_t hw, const struct nprb_c2c_request *req,
                  struct nprb_c2c_result *res)
{
    memset(res, 0, sizeof *res);
    size_t samples = (size_t)req->samples + WARM_SAMPLES;
    size_t bytes = 4096 + NPRB_C2C_HIT_LINES * sizeof(struct line);
    struct nprb_buffer buf;
    char err[160];
    if (nprb_buffer_alloc(&buf, bytes, NPRB_MEM_BIND, &req->node, 1, NPRB_THP_OFF, err,
                          sizeof err) != 0) {
        res->error = errno ? errno : ENOMEM;
        snprintf(res->note, sizeof res->note, "lines: %s", err);
        return;
    }
    double *ns = calloc(samples, sizeof *ns), *reader_ns = calloc(samples, sizeof *ns);
    struct nprb_pin pin;
    bool pinned = nprb_pin_thread(&pin, hw, req->pu_a) == 0;
    if (ns == NULL || reader_ns == NULL) {
        res->error = ENOMEM;
        snprintf(res->note, sizeof res->note, "out of memory for %zu samples", samples);
    } else if (!pinned) {
        /* A transfer between two CPUs means nothing when either thread may be anywhere. */
        res->error = EINVAL;
        snprintf(res->note, sizeof res->note, "cannot pin the measuring thread to CPU %u",
                 req->pu_a);
    } else {
        /* The owner touches the pages first, from its own CPU, under the binding. */
        memset(buf.addr, 0, bytes);
        struct c2c_shared s = {.req = req,
                               .hw = hw,
                               .flags = buf.addr,
                               .chain = (struct line *)((char *)buf.addr + 4096),
                               .ns = reader_ns,
                               .cpus = &res->cpus};
        chain_build(s.chain, req->seed);
        run_pinned(&s, res, ns);
        res->stayed = nprb_pin_holds(&pin) && s.stayed_b;
        nprb_cpus_seen_here(&res->cpus);
        res->census_ok = nprb_census_take(buf.addr, bytes, &res->census) == 0;
    }
    if (pinned)
        nprb_unpin_thread(&pin);
    free(ns);
    free(reader_ns);
    nprb_buffer_free(&buf);
}
