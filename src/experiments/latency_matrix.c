/* latency_matrix: idle latency of each node's local memory from its own cores, and of memory
 * interleaved over every node. (Remote pairs, preferred and first-touch policies: issue 5.) */
#include "experiment.h"

#include <stdio.h>
#include <string.h>

int nprb_plan_latency_matrix(struct nprb_planner *p)
{
    const struct nprb_latency_config *c = &p->cfg->latency_matrix;
    if (!c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = NPRB_EXP_LATENCY_MATRIX,
                                  .policy = NPRB_MEM_BIND,
                                  .size_bytes = c->size_bytes,
                                  .threads = 1,
                                  .tlb_window_bytes = c->tlb_window_bytes,
                                  .samples = c->samples,
                                  .sample_s = c->sample_s};
    char why[160];
    nprb_pattern_parse("random", &item.pattern, why, sizeof why);
    int nodes = nprb_topo_node_count(p->topo), with_memory = 0;
    for (int i = 0; i < nodes; i++) {
        if (nprb_plan_check_fits(p, "latency_matrix.size", c->size_bytes, i) != 0)
            return -1;
        item.cpu_node = item.mem_node = i;
        nprb_local_skip_reason(nprb_topo_node(p->topo, i), item.skip_reason,
                               sizeof item.skip_reason);
        if (nprb_plan_add(p, &item) != 0)
            return -1;
        with_memory += nprb_topo_node(p->topo, i)->memory_bytes > 0;
    }
    /* Interleave spreads pages over every node with memory; which CPUs read it matters less
     * than that every node contributes, so the first node with usable cores reads it, once per
     * host (by its first rank). */
    item.policy = NPRB_MEM_INTERLEAVE;
    item.mem_node = -1;
    item.cpu_node = nprb_plan_first_cpu_node(p->topo);
    item.skip_reason[0] = '\0';
    if (!p->host_leader)
        snprintf(item.skip_reason, sizeof item.skip_reason,
                 "not applicable: measured by the first rank of this host");
    else if (with_memory < 2)
        snprintf(item.skip_reason, sizeof item.skip_reason,
                 "not applicable: interleave needs 2 or more NUMA nodes, this host has %d",
                 with_memory);
    else if (item.cpu_node < 0)
        snprintf(item.skip_reason, sizeof item.skip_reason,
                 "not applicable: no NUMA node has a core in this rank's binding");
    if (item.cpu_node < 0)
        item.cpu_node = 0;
    return nprb_plan_add(p, &item);
}
