/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file loaded_run.h
 * Latency under load (MLC's --loaded_latency): one pinned thread chases a chain in memory of a
 * node while load threads on the other cores stream their own buffers on the same node, pausing
 * a set number of spin cycles after each cache line. Both the chase latency and the bandwidth
 * the load threads achieved are recorded, so a sweep of delays draws the latency-versus-bandwidth
 * curve of that memory.
 */
#ifndef NPRB_LOADED_RUN_H
#define NPRB_LOADED_RUN_H

#include "measure/latency_run.h"

#include <stdbool.h>

struct nprb_loaded_request {
    struct nprb_latency_request chase; /**< the chasing thread, its buffer and samples */
    const unsigned *load_pus;          /**< one load thread pinned on each */
    int load_threads;
    uint64_t load_bytes; /**< buffer per load thread */
    bool load_writes;    /**< read and write each line (read_write) instead of reading it */
    uint32_t delay;      /**< spin iterations after each line, 0: as fast as possible */
};

struct nprb_loaded_result {
    struct nprb_latency_result chase;
    double load_gbs; /**< bytes the load threads moved (reads + writes) / time, 1e9 B/s */
    bool load_pinned_ok;
    int error;
    char note[160];
};

/** Makes the measurement; failures are in result->error / chase.error and the notes. */
void nprb_loaded_run(hwloc_topology_t hw, const struct nprb_loaded_request *req,
                     struct nprb_loaded_result *result);

#endif
