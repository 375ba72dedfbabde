/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file latency_run.h
 * One latency measurement, shared by every latency experiment: a pinned thread, a buffer under a
 * memory policy, a chain (or index) of the requested pattern, verified placement, and order
 * statistics over timed samples.
 */
#ifndef NPRB_LATENCY_RUN_H
#define NPRB_LATENCY_RUN_H

#include "config/config.h"
#include "host/counters.h"
#include "measure/experiment.h"
#include "kernels/pattern.h"
#include "host/place.h"
#include "util/timer.h"
#include "host/verify.h"

#include <hwloc.h>
#include <stdbool.h>

struct nprb_latency_request {
    struct nprb_pattern pattern;
    uint64_t size_bytes;
    uint64_t tlb_window_bytes; /**< for NPRB_PATTERN_RANDOM */
    unsigned pu;               /**< where the chasing thread runs */
    /** The cores of the chasing thread's node that fault the buffers in together before the
     * chain is written, each its own 2 MiB-aligned share (NULL or 1: the chasing thread). */
    const unsigned *touch_pus;
    int touch_pu_count;
    enum nprb_mem_policy policy;
    const unsigned *nodes; /**< the policy's nodes */
    int node_count;
    enum nprb_thp_mode huge_pages;
    int samples;
    double sample_s;
    uint64_t seed;
    unsigned counter_groups; /**< NPRB_COUNTER_GROUP_BIT()s the chasing thread counts */
};

struct nprb_latency_result {
    struct nprb_stats ns; /**< ns per access */
    uint64_t accesses_per_sample;
    uint64_t slot_bytes;
    double huge_page_frac;     /**< -1 unknown */
    uint64_t page_bytes;       /**< base page size of the mapping (2 MiB for hugetlb) */
    struct nprb_census census; /**< pages of the data buffer (and index, for index_random) */
    bool census_ok;
    bool stayed_on_pu;
    struct nprb_cpus_seen cpus; /**< where the chasing thread was when it finished */
    struct nprb_counts counts;  /**< the chasing thread's, over the kept samples */
    int error;                  /**< 0, or the errno of what failed (note says what) */
    bool wrong_answer;          /**< chain integrity or index sum check failed */
    char note[160];
};

/**
 * The chase plan item @p item asks for, from core @p pu: its pattern, size, policy over the
 * item's nodes (written to @p targets, NPRB_MAX_NODES long), samples and the job's seed.
 */
struct nprb_latency_request nprb_latency_request_for(const struct nprb_context *ctx,
                                                     const struct nprb_plan_item *item, unsigned pu,
                                                     unsigned *targets);

/** Makes the measurement. Never fails as a call: failures are in result->error and note. */
void nprb_latency_run(hwloc_topology_t hw, const struct nprb_latency_request *req,
                      struct nprb_latency_result *result);

/**
 * Bytes of span per byte of cache lines a chase with @p slot_bytes slots touches: it loads one
 * 64 B line per slot, so 4 for the random chase's 256 B slots, 1 for slots of a line or less. A
 * cache fills at this multiple of its size.
 */
uint64_t nprb_latency_span_per_line(uint64_t slot_bytes);

#endif
