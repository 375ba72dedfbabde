/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file c2c_run.h
 * One core-to-core measurement: two threads pinned to two CPUs hand cache lines to each other
 * (kernels/c2c.h), the lines' pages bound to the first CPU's node and verified there, order
 * statistics over timed samples.
 */
#ifndef NPRB_C2C_RUN_H
#define NPRB_C2C_RUN_H

#include "host/place.h"
#include "host/verify.h"
#include "util/timer.h"

#include <hwloc.h>
#include <stdbool.h>
#include <stdint.h>

/** Lines of the chain a hit sample reads: 16 KiB, held whole in any core's L1 or L2. */
#define NPRB_C2C_HIT_LINES 256

struct nprb_c2c_request {
    unsigned pu_a;  /**< the line's owner, and where the measuring thread runs */
    unsigned pu_b;  /**< the other thread's CPU */
    unsigned node;  /**< os index the lines' pages are bound to (pu_a's node) */
    bool hit;       /**< the clean case (a chase); else hitm (a ping-pong) */
    int samples;    /**< kept, after two discarded */
    uint64_t trips; /**< hitm: round trips per sample */
    uint64_t seed;  /**< the hit chain's order */
};

struct nprb_c2c_result {
    struct nprb_stats ns; /**< per one-way transfer (hitm) or load (hit) */
    uint64_t transfers_per_sample;
    struct nprb_census census; /**< the lines' pages */
    bool census_ok;
    bool stayed;                /**< both threads stayed on their CPUs */
    struct nprb_cpus_seen cpus; /**< where the two threads were when they finished */
    int error;                  /**< 0, or the errno of what failed (note says what) */
    char note[160];
};

/** Makes the measurement from the calling thread. Failures are in result->error and note. */
void nprb_c2c_run(hwloc_topology_t hw, const struct nprb_c2c_request *req,
                  struct nprb_c2c_result *result);

#endif
