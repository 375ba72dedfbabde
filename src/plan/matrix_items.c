/* SPDX-License-Identifier: BSD-3-Clause */
/* The grid both matrices share: memory bound to every node j (or only j = i) from every CPU node
 * i, memory node by memory node, then the extra policies from each node's cores. */
#include "plan/items.h"

#include <stdio.h>

static int nodes_with_memory(const struct nprb_topo *topo)
{
    int n = 0;
    for (int i = 0; i < nprb_topo_node_count(topo); i++)
        n += nprb_node_memory_usable(nprb_topo_node(topo, i));
    return n;
}

/* Whether this rank measures CPU node @p i; a node it does not measure gets one "not
 * applicable" row for its local pair (another rank of the host measures it, or it has no CPUs
 * at all). */
static int skipped_cpu_node(struct nprb_planner *p, struct nprb_plan_item item, int i, bool *skip)
{
    item.cpu_node = item.mem_node = i;
    nprb_cpu_node_skip_reason(p, i, item.skip_reason, sizeof item.skip_reason);
    *skip = item.skip_reason[0] != '\0';
    return *skip ? nprb_plan_add(p, &item) : 0;
}

/* The cells of memory node @p j, from every measured CPU node in turn: one placement after
 * another, so that a buffer (a chain) is set up once per memory node and measured from every
 * CPU node (host/place.h keeps it between them). */
static int memory_node_items(struct nprb_planner *p, struct nprb_plan_item item, int j,
                             enum nprb_pairs pairs, const bool *skip)
{
    item.mem_node = j; /* memory the job may not use still gets its "not applicable" cell */
    for (int i = 0; i < nprb_topo_node_count(p->topo); i++) {
        if (skip[i] || (pairs == NPRB_PAIRS_LOCAL && j != i))
            continue;
        item.cpu_node = i;
        nprb_memory_skip_reason(nprb_topo_node(p->topo, j), item.skip_reason,
                                sizeof item.skip_reason);
        if (nprb_plan_add(p, &item) != 0)
            return -1;
    }
    return 0;
}

/* Each extra policy from every measured CPU node: the interleaved cells share one placement. */
static int policy_items(struct nprb_planner *p, struct nprb_plan_item item,
                        const struct nprb_policy_list *policies, const bool *skip)
{
    item.passes = 1; /* the headline cells are the bound ones */
    for (int k = 0; k < policies->count; k++) {
        item.policy = policies->policy[k];
        for (int i = 0; i < nprb_topo_node_count(p->topo); i++) {
            if (skip[i])
                continue;
            item.cpu_node = i;
            item.mem_node = item.policy == NPRB_MEM_INTERLEAVE ? -1 : i;
            item.skip_reason[0] = '\0';
            if (item.policy == NPRB_MEM_INTERLEAVE && nodes_with_memory(p->topo) < 2)
                snprintf(item.skip_reason, sizeof item.skip_reason,
                         "not applicable: interleave needs 2 or more NUMA nodes, this job may use "
                         "%d",
                         nodes_with_memory(p->topo));
            if (nprb_plan_add(p, &item) != 0)
                return -1;
        }
    }
    return 0;
}

int nprb_plan_matrix_series(struct nprb_planner *p, const struct nprb_plan_item *bases, int count,
                            const char *key, enum nprb_pairs pairs,
                            const struct nprb_policy_list *policies)
{
    /* Interleave over every node needs the total to fit their sum; each bound pair needs it to
     * fit one node. The smallest node decides, as for a fleet of identical nodes. */
    int nodes = nprb_topo_node_count(p->topo);
    for (int b = 0; b < count; b++)
        for (int j = 0; j < nodes; j++)
            if (nprb_node_memory_usable(nprb_topo_node(p->topo, j)) &&
                nprb_plan_check_fits(p, key, bases[b].size_bytes, j) != 0)
                return -1;
    bool skip[NPRB_MAX_NODES] = {false};
    for (int b = 0; b < count; b++)
        for (int i = 0; i < nodes; i++)
            if (skipped_cpu_node(p, bases[b], i, &skip[i]) != 0)
                return -1;
    /* Every point of the series on memory node j before the next node: the node's mapping is
     * faulted in once and each point finds it kept, where a series point by point would fault
     * every node's memory in again for each (the keep holds four mappings, not a node each). */
    for (int j = 0; j < nodes; j++)
        for (int b = 0; b < count; b++)
            if (nprb_topo_node(p->topo, j)->memory_bytes > 0 &&
                memory_node_items(p, bases[b], j, pairs, skip) != 0)
                return -1;
    for (int b = 0; b < count; b++)
        if (policy_items(p, bases[b], policies, skip) != 0)
            return -1;
    return 0;
}

int nprb_plan_matrix(struct nprb_planner *p, const struct nprb_plan_item *base, const char *key,
                     enum nprb_pairs pairs, const struct nprb_policy_list *policies)
{
    return nprb_plan_matrix_series(p, base, 1, key, pairs, policies);
}
