#include "plan.h"

#include "units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *nprb_experiment_name(enum nprb_experiment_id id)
{
    switch (id) {
    case NPRB_EXP_LATENCY_MATRIX:
        return "latency_matrix";
    case NPRB_EXP_BANDWIDTH_MATRIX:
        return "bandwidth_matrix";
    case NPRB_N_EXPERIMENTS:
        break;
    }
    return "?";
}

static int add_item(struct nprb_plan *plan, const struct nprb_plan_item *item)
{
    struct nprb_plan_item *items = realloc(plan->items, (plan->count + 1) * sizeof *items);
    if (items == NULL)
        return -1;
    plan->items = items;
    plan->items[plan->count++] = *item;
    return 0;
}

/* A size that can never fit is a config error, refused before anything runs; a size that does
 * not fit in what happens to be free right now is a run-time failure of that measurement. */
static int check_fits(const char *key, uint64_t size, const struct nprb_node_info *node, char *err,
                      size_t errlen)
{
    if (node->memory_bytes == 0 || size <= node->memory_bytes)
        return 0;
    char want[32], have[32];
    nprb_format_size(size, want, sizeof want);
    nprb_format_size(node->memory_bytes >> 20 << 20, have, sizeof have);
    snprintf(err, errlen, "%s %s is larger than NUMA node %u's memory (%s)", key, want,
             node->os_index, have);
    return -1;
}

static void local_items(struct nprb_plan *plan, enum nprb_experiment_id exp, uint64_t size,
                        int threads, const struct nprb_topo *topo, int *failed)
{
    for (int i = 0; i < nprb_topo_node_count(topo); i++) {
        const struct nprb_node_info *node = nprb_topo_node(topo, i);
        struct nprb_plan_item item = {
            .experiment = exp,
            .cpu_node = i,
            .mem_node = i,
            .policy = NPRB_MEM_BIND,
            .size_bytes = size,
            .threads = threads,
        };
        if (node->cpu_count == 0)
            snprintf(item.skip_reason, sizeof item.skip_reason,
                     "not applicable: node %u has memory but no CPUs (memory-only node)",
                     node->os_index);
        else if (node->usable_cores == 0)
            snprintf(item.skip_reason, sizeof item.skip_reason,
                     "not applicable: none of node %u's CPUs (%.60s) is in this rank's binding",
                     node->os_index, node->cpus);
        if (add_item(plan, &item) != 0)
            *failed = 1;
    }
}

/* Interleave spreads pages over every node with memory; from which CPUs it is read matters less
 * than that every node contributes, so the first node with usable cores reads it. */
static void interleave_item(struct nprb_plan *plan, enum nprb_experiment_id exp, uint64_t size,
                            int threads, const struct nprb_topo *topo, bool host_leader,
                            int *failed)
{
    struct nprb_plan_item item = {.experiment = exp,
                                  .cpu_node = 0,
                                  .mem_node = -1,
                                  .policy = NPRB_MEM_INTERLEAVE,
                                  .size_bytes = size,
                                  .threads = threads};
    int with_memory = 0, cpu_node = -1;
    for (int i = 0; i < nprb_topo_node_count(topo); i++) {
        with_memory += nprb_topo_node(topo, i)->memory_bytes > 0;
        if (cpu_node < 0 && nprb_topo_node(topo, i)->usable_cores > 0)
            cpu_node = i;
    }
    if (!host_leader)
        snprintf(item.skip_reason, sizeof item.skip_reason,
                 "not applicable: measured by the first rank of this host");
    else if (with_memory < 2)
        snprintf(item.skip_reason, sizeof item.skip_reason,
                 "not applicable: interleave needs 2 or more NUMA nodes, this host has %d",
                 with_memory);
    else if (cpu_node < 0)
        snprintf(item.skip_reason, sizeof item.skip_reason,
                 "not applicable: no NUMA node has a core in this rank's binding");
    else
        item.cpu_node = cpu_node;
    if (add_item(plan, &item) != 0)
        *failed = 1;
}

int nprb_plan_build(struct nprb_plan *plan, const struct nprb_config *cfg,
                    const struct nprb_topo *topo, bool host_leader, char *err, size_t errlen)
{
    memset(plan, 0, sizeof *plan);
    for (int i = 0; i < nprb_topo_node_count(topo); i++) {
        const struct nprb_node_info *node = nprb_topo_node(topo, i);
        if (cfg->latency_matrix.enabled &&
            check_fits("latency_matrix.size", cfg->latency_matrix.size_bytes, node, err, errlen) !=
                0)
            return -1;
        if (cfg->bandwidth_matrix.enabled &&
            check_fits("bandwidth_matrix.size", cfg->bandwidth_matrix.size_bytes, node, err,
                       errlen) != 0)
            return -1;
    }
    int failed = 0;
    if (cfg->latency_matrix.enabled) {
        local_items(plan, NPRB_EXP_LATENCY_MATRIX, cfg->latency_matrix.size_bytes, 1, topo,
                    &failed);
        interleave_item(plan, NPRB_EXP_LATENCY_MATRIX, cfg->latency_matrix.size_bytes, 1, topo,
                        host_leader, &failed);
    }
    if (cfg->bandwidth_matrix.enabled)
        local_items(plan, NPRB_EXP_BANDWIDTH_MATRIX, cfg->bandwidth_matrix.size_bytes,
                    cfg->bandwidth_matrix.threads, topo, &failed);
    if (failed) {
        snprintf(err, errlen, "out of memory building the plan");
        nprb_plan_free(plan);
        return -1;
    }
    return 0;
}

void nprb_plan_free(struct nprb_plan *plan)
{
    free(plan->items);
    memset(plan, 0, sizeof *plan);
}
