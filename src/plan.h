/**
 * @file plan.h
 * The validated list of measurements a rank will make: config + topology in, items out.
 * Everything that can be refused before measuring (a size larger than a node) is refused here.
 */
#ifndef NPRB_PLAN_H
#define NPRB_PLAN_H

#include "config.h"
#include "place.h"
#include "topo.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum nprb_experiment_id { NPRB_EXP_LATENCY_MATRIX, NPRB_EXP_BANDWIDTH_MATRIX, NPRB_N_EXPERIMENTS };

/** "latency_matrix", "bandwidth_matrix": the config section and the experiment column. */
const char *nprb_experiment_name(enum nprb_experiment_id id);

struct nprb_plan_item {
    enum nprb_experiment_id experiment;
    int cpu_node; /**< logical node index whose cores run the threads */
    int mem_node; /**< logical node index the memory is bound to; -1: every node with memory */
    enum nprb_mem_policy policy;
    uint64_t size_bytes;
    int threads;           /**< threads to run; 1 for latency */
    char skip_reason[160]; /**< non-empty: record "not applicable" with this reason */
};

struct nprb_plan {
    struct nprb_plan_item *items;
    size_t count;
};

/**
 * Builds the plan. Each node's local memory is measured from its own cores; nodes without
 * usable cores (memory-only, or outside the launcher's binding) get a skip item that says why.
 * Latency is also measured over memory interleaved across every node with memory, from the
 * first node with usable cores (a skip item on single-node hosts). @return 0, or -1 with a message
 * (config error: exit 2) in @p err.
 */
int nprb_plan_build(struct nprb_plan *plan, const struct nprb_config *cfg,
                    const struct nprb_topo *topo, bool host_leader, char *err, size_t errlen);

void nprb_plan_free(struct nprb_plan *plan);

#endif
