/* SPDX-License-Identifier: BSD-3-Clause */
#include "measure/loaded_run.h"

#include "host/place.h"
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
    struct nprb_buffer buf;
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
    double *a = lt->buf.addr;
    size_t n = lt->buf.bytes / sizeof(double);
    nprb_populate(a, n * sizeof *a);
    for (size_t i = 0; i < n; i++)
        a[i] = 1.0;
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
    int started = 0;
    for (; started < n; started++) {
        struct load_thread *lt = &lts[started];
        *lt = (struct load_thread){.hw = hw,
                                   .pu = req->load_pus[started],
                                   .req = req,
                                   .stop = &stop,
                                   .ready = &ready,
                                   .cpus = &res->chase.cpus};
        char err[160];
        if (nprb_buffer_alloc(&lt->buf, req->load_bytes, req->chase.policy, req->chase.nodes,
                              req->chase.node_count, req->chase.huge_pages, err, sizeof err) != 0) {
            res->error = errno;
            snprintf(res->note, sizeof res->note, "load buffer: %s", err);
            break;
        }
        if (pthread_create(&lt->id, NULL, load_main, lt) != 0) {
            res->error = errno ? errno : EAGAIN;
            snprintf(res->note, sizeof res->note, "cannot start load thread %d", started);
            nprb_buffer_free(&lt->buf);
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
        nprb_buffer_free(&lts[k].buf);
    }
    /* Bytes streamed before t0 (while the others were still starting) are few against a whole
     * run of samples; counting them slightly overstates the load, never the latency. */
    res->load_gbs = seconds > 0 ? (double)bytes / seconds * 1e-9 : 0;
    free(lts);
}
