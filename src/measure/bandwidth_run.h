/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file bandwidth_run.h
 * One bandwidth measurement, shared by every bandwidth experiment: pinned threads, each streaming
 * its own chunk of arrays under a memory policy, timed between barriers, validated afterwards,
 * with verified placement.
 */
#ifndef NPRB_BANDWIDTH_RUN_H
#define NPRB_BANDWIDTH_RUN_H

#include "config/config.h"
#include "host/counters.h"
#include "host/uncore.h"
#include "kernels/stream.h"
#include "host/place.h"
#include "plan/plan.h"
#include "util/timer.h"
#include "host/verify.h"

#include <hwloc.h>
#include <stdbool.h>

/** One group of threads (one node's cores, say) in a run where every group streams at once. A
 * sample's time is the group's slowest thread's from the common start: what the group got while
 * the others loaded the machine too, until it finished. */
struct nprb_group_time {
    struct nprb_stats seconds; /**< per pass */
    double share;              /**< of the elements streamed: its threads' chunks */
    double local_frac;         /**< its chunks' pages on their thread_nodes; -1 not checked */
    struct nprb_census census; /**< its chunks' pages, every array (census_ok: counted) */
    bool census_ok;
    struct nprb_counts counts; /**< its threads' counters, summed, over the kept samples */
    int threads;               /**< of the team that ran */
};

struct nprb_bandwidth_request {
    const struct nprb_kernel *kernel;
    uint64_t bytes_per_array;
    const unsigned *pus; /**< one thread pinned on each */
    int threads;
    enum nprb_mem_policy policy;
    const unsigned *nodes;
    int node_count;
    enum nprb_thp_mode huge_pages;
    uint64_t stride_bytes; /**< read_strided */
    int repetitions;       /**< timed samples kept (one more runs first and is discarded) */
    double sample_s;       /**< > 0: a sample repeats the kernel until it lasts this long */
    uint64_t seed;         /**< read_random's index */
    /* first_touch: who writes the arrays first, and where each thread's part should live */
    enum nprb_touch_mode touch;
    unsigned serial_pu;           /**< NPRB_TOUCH_SERIAL: the PU that writes everything */
    const unsigned *thread_nodes; /**< node (os index) of each thread; NULL: no local check */
    size_t chunk_align;           /**< elements; chunks start at multiples (0: 8, a line) */
    unsigned counter_groups;      /**< NPRB_COUNTER_GROUP_BIT()s the team counts */
    /* Per-group times: thread t is of group group_of[t] (NULL: no groups), group_times has
     * `groups` entries, filled by the run. */
    const int *group_of;
    int groups;
    struct nprb_group_time *group_times;
};

struct nprb_bandwidth_result {
    struct nprb_stats seconds;         /**< per pass over the arrays */
    uint64_t program_bytes, bus_bytes; /**< per pass */
    uint64_t passes_per_sample;
    double huge_page_frac;
    uint64_t page_bytes;
    struct nprb_census census; /**< pages of every array */
    bool census_ok;
    double local_frac; /**< pages on the node of the thread that reads them; -1 not checked */
    bool pinned_ok;
    struct nprb_cpus_seen cpus;       /**< where the threads were when they finished */
    int bad_threads;                  /**< threads whose validation failed */
    int threads_ran;                  /**< threads OpenMP started (OMP_THREAD_LIMIT may cap them) */
    struct nprb_counts counts;        /**< the team's, summed, over the kept samples */
    struct nprb_uncore_counts uncore; /**< the memory controllers', over the same samples */
    int error;                        /**< errno of what failed, 0 when the run happened */
    char note[160];
};

/** Makes the measurement. Failures are reported in result->error and note. */
void nprb_bandwidth_run(hwloc_topology_t hw, const struct nprb_bandwidth_request *req,
                        struct nprb_bandwidth_result *result);

#endif
