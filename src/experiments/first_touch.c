/* SPDX-License-Identifier: BSD-3-Clause */
/* first_touch: an array read in parallel by every usable core of the host, after it was first
 * written serially from each node in turn, by the threads that read it (the same static
 * schedule), by the wrong threads (a mismatched schedule), interleaved, or bound chunk by chunk.
 * Where the pages landed is verified per thread; the read bandwidth shows what it costs. */
#include "experiments/experiment.h"

#include <stdio.h>

static int usable_nodes(const struct nprb_topo *topo)
{
    int n = 0;
    for (int i = 0; i < nprb_topo_node_count(topo); i++)
        n += nprb_node_is_home(nprb_topo_node(topo, i));
    return n;
}

static int add_mode(struct nprb_planner *p, struct nprb_plan_item item, enum nprb_touch_mode mode)
{
    item.mem_node = -1;
    switch (mode) {
    case NPRB_TOUCH_SERIAL:
        item.policy = NPRB_MEM_FIRST_TOUCH;
        item.init = NPRB_INIT_SERIAL;
        for (int i = 0; i < nprb_topo_node_count(p->topo); i++) {
            if (!nprb_node_is_home(nprb_topo_node(p->topo, i)))
                continue;
            item.mem_node = i; /* the node whose thread writes everything */
            if (nprb_plan_add(p, &item) != 0)
                return -1;
        }
        return 0;
    case NPRB_TOUCH_THREADED:
        item.policy = NPRB_MEM_FIRST_TOUCH;
        item.init = NPRB_INIT_THREADED;
        break;
    case NPRB_TOUCH_MISMATCHED:
        item.policy = NPRB_MEM_FIRST_TOUCH;
        item.init = NPRB_INIT_MISMATCHED;
        break;
    case NPRB_TOUCH_INTERLEAVE:
        item.policy = NPRB_MEM_INTERLEAVE;
        item.init = NPRB_INIT_THREADED;
        break;
    case NPRB_TOUCH_BIND:
        item.policy = NPRB_MEM_BIND;
        item.init = NPRB_INIT_BOUND;
        break;
    case NPRB_N_TOUCH_MODES:
        snprintf(p->err, p->errlen, "internal: first-touch mode %d", (int)mode);
        return -1;
    }
    return nprb_plan_add(p, &item);
}

int nprb_plan_first_touch(struct nprb_planner *p)
{
    const struct nprb_first_touch_config *c = &p->cfg->first_touch;
    if (!c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = NPRB_EXP_FIRST_TOUCH,
                                  .cpu_node = -1,
                                  .mem_node = -1,
                                  .policy = NPRB_MEM_FIRST_TOUCH,
                                  .size_bytes = c->size_bytes,
                                  .kernel = NPRB_KERNEL_READ,
                                  .repetitions = c->repetitions};
    int nodes = usable_nodes(p->topo);
    if (!p->host_leader || nodes < 2) {
        if (!p->host_leader)
            snprintf(item.skip_reason, sizeof item.skip_reason,
                     "not applicable: measured by the first rank of this host");
        else
            snprintf(item.skip_reason, sizeof item.skip_reason,
                     "not applicable: %d NUMA node with usable cores and memory; every mode "
                     "places pages on it",
                     nodes);
        return nprb_plan_add(p, &item);
    }
    for (int i = 0; i < nprb_topo_node_count(p->topo); i++)
        if (nprb_node_memory_usable(nprb_topo_node(p->topo, i)) &&
            nprb_plan_check_fits(p, "first_touch.size", c->size_bytes, i) != 0)
            return -1;
    for (int k = 0; k < c->modes.count; k++)
        if (add_mode(p, item, c->modes.mode[k]) != 0)
            return -1;
    return 0;
}
