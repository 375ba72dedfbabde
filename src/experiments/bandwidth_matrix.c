/* bandwidth_matrix: each node's cores (one thread per usable core) reading their local memory.
 * (Remote pairs, interleave and write-carrying kernels: issue 5.) */
#include "experiment.h"

int nprb_plan_bandwidth_matrix(struct nprb_planner *p)
{
    const struct nprb_bandwidth_config *c = &p->cfg->bandwidth_matrix;
    if (!c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = NPRB_EXP_BANDWIDTH_MATRIX,
                                  .policy = NPRB_MEM_BIND,
                                  .size_bytes = c->size_bytes,
                                  .threads = c->threads,
                                  .kernel = NPRB_KERNEL_READ,
                                  .repetitions = c->repetitions};
    for (int i = 0; i < nprb_topo_node_count(p->topo); i++) {
        if (nprb_plan_check_fits(p, "bandwidth_matrix.size", c->size_bytes, i) != 0)
            return -1;
        item.cpu_node = item.mem_node = i;
        nprb_local_skip_reason(nprb_topo_node(p->topo, i), item.skip_reason,
                               sizeof item.skip_reason);
        if (nprb_plan_add(p, &item) != 0)
            return -1;
    }
    return 0;
}
