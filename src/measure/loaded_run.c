/* SPDX-License-Identifier: BSD-3-Clause */
#include "measure/loaded_run.h"

#include "host/place.h"
#include "util/hash.h"
#include "util/populate.h"
#include "util/timer.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOAD_THREADS 1024

struct load_thread {
    pthread_t id;
    hwloc_topology_t hw;
    unsigned pu;
    double *a; /* its slice of the load mapping */
    size_t n;
    bool fresh; /* the slice was never written: fault it in and fill it first */
    const struct nprb_loaded_request *req;
    atomic_int *stop;
    atomic_int *ready;
    uint64_t bytes; /* moved, written by the thread when it ends */
    double sum;     /* keeps the reads alive */
    bool pinned, stayed;
    struct nprb_cpus_seen *cpus; /* shared with the chase's */
};

/* Streams the buffer line by line until told to stop, spinning `delay` iterations after each
 * line: the delay, not the thread count, sets the injected bandwidth, as in MLC. */
static void *load_main(void *arg)
{
    struct load_thread *lt = arg;
    struct nprb_pin pin;
    lt->pinned = nprb_pin_thread(&pin, lt->hw, lt->pu) == 0;
    double *a = lt->a;
    size_t n = lt->n;
    if (lt->fresh) {
        nprb_populate(a, n * sizeof *a);
        for (size_t i = 0; i < n; i++)
            a[i] = 1.0;
    }
    atomic_fetch_add(lt->ready, 1);
    uint64_t lines = 0;
    double acc[8] = {0};
    size_t i = 0;
    /* Eight lines between two looks at the stop flag: a shared flag read per line costs more
     * than the line itself when the delay is zero. */
    while (!atomic_load_explicit(lt->stop, memory_order_relaxed)) {
        for (int line = 0; line < 8; line++) {
            /* Eight independent sums: the loads of a line overlap instead of waiting on adds. */
            for (int k = 0; k < 8; k++)
                acc[k] += a[i + (size_t)k];
            if (lt->req->load_writes)
                a[i] = 1.0; /* the line goes back dirty: a write stream on top of the reads */
            for (uint32_t d = 0; d < lt->req->delay; d++)
                __asm__ volatile("" ::: "memory");
            i += 8;
            if (i + 8 > n)
                i = 0;
        }
        lines += 8;
    }
    double sum = 0;
    for (int k = 0; k < 8; k++)
        sum += acc[k];
    lt->sum = sum;
    lt->bytes = lines * 64 * (lt->req->load_writes ? 2 : 1);
    lt->stayed = lt->pinned && nprb_pin_holds(&pin);
    nprb_cpus_seen_here(lt->cpus);
    if (lt->pinned)
        nprb_unpin_thread(&pin);
    return NULL;
}

/* Each load thread's slice of the one load mapping: its buffer, rounded up to whole huge pages
 * so that no page is two threads'. */
static size_t slice_bytes(const struct nprb_loaded_request *req)
{
    const size_t huge = (size_t)2 << 20;
    return (req->load_bytes + huge - 1) / huge * huge;
}

/* The load buffers, every load thread's slice of one mapping: an experiment that keeps buffers
 * (host/place.h) keeps it with the chain, and the next point of the same placement finds its
 * slices written, where a mapping of its own per thread outnumbered the four mappings kept and
 * every point faulted in and wrote most of them again. What is in them is never checked, only
 * streamed: any earlier user's writes (all 1.0) serve. */
static int map_load(const struct nprb_loaded_request *req, int threads, struct nprb_buffer *buf,
                    char *err, size_t errlen)
{
    size_t bytes = slice_bytes(req) * (size_t)threads;
    uint64_t key = nprb_fnv1a_text("loaded_latency load buffers");
    key = nprb_fnv1a(key, &bytes, sizeof bytes);
    if (nprb_buffer_alloc_holding(buf, key, bytes, req->chase.policy, req->chase.nodes,
                                  req->chase.node_count, req->chase.huge_pages, err, errlen) != 0)
        return -1;
    bool fresh = buf->content_key != key;
    buf->content_key = key;
    return fresh;
}

void nprb_loaded_run(hwloc_topology_t hw, const struct nprb_loaded_request *req,
                     struct nprb_loaded_result *res)
{
    memset(res, 0, sizeof *res);
    int n = req->load_threads < MAX_LOAD_THREADS ? req->load_threads : MAX_LOAD_THREADS;
    struct load_thread *lts = calloc((size_t)(n > 0 ? n : 1), sizeof *lts);
    atomic_int stop = 0, ready = 0;
    if (lts == NULL) {
        res->error = ENOMEM;
        snprintf(res->note, sizeof res->note, "out of memory for load threads");
        return;
    }
    struct nprb_buffer load = {0};
    char err[160];
    int fresh = n > 0 ? map_load(req, n, &load, err, sizeof err) : 0;
    if (fresh < 0) {
        res->error = errno;
        snprintf(res->note, sizeof res->note, "load buffers: %s", err);
        n = 0;
    }
    int started = 0;
    for (; started < n; started++) {
        struct load_thread *lt = &lts[started];
        *lt = (struct load_thread){
            .hw = hw,
            .pu = req->load_pus[started],
            .a = (double *)((char *)load.addr + (size_t)started * slice_bytes(req)),
            .n = req->load_bytes / sizeof(double),
            .fresh = fresh > 0,
            .req = req,
            .stop = &stop,
            .ready = &ready,
            .cpus = &res->chase.cpus};
        if (pthread_create(&lt->id, NULL, load_main, lt) != 0) {
            res->error = errno ? errno : EAGAIN;
            snprintf(res->note, sizeof res->note, "cannot start load thread %d", started);
            break;
        }
    }
    /* The chase starts once every load thread streams: its samples see the load throughout.
     * Yielding, as a load thread may still share this thread's CPUs until it has pinned itself
     * (a bare spin would hold it off until the tick preempts it, or for ever under SCHED_FIFO). */
    while (res->error == 0 && atomic_load(&ready) < started)
        sched_yield();
    uint64_t t0 = nprb_now_ns();
    if (res->error == 0)
        nprb_latency_run(hw, &req->chase, &res->chase);
    atomic_store(&stop, 1);
    double seconds = (double)(nprb_now_ns() - t0) * 1e-9;
    uint64_t bytes = 0;
    res->load_pinned_ok = true;
    for (int k = 0; k < started; k++) {
        pthread_join(lts[k].id, NULL);
        bytes += lts[k].bytes;
        res->load_pinned_ok = res->load_pinned_ok && lts[k].stayed;
    }
    /* Slices a thread that never started should have written are not written. */
    if (started < n)
        load.content_key = 0;
    nprb_buffer_free(&load);
    /* Bytes streamed before t0 (while the others were still starting) are few against a whole
     * run of samples; counting them slightly overstates the load, never the latency. */
    res->load_gbs = seconds > 0 ? (double)bytes / seconds * 1e-9 : 0;
    free(lts);
}
