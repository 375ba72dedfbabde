/* SPDX-License-Identifier: BSD-3-Clause */
/* thread_scaling: bandwidth with 1, 2, ... threads up to every usable core of one node, on its
 * local memory: where one node's memory saturates. */
#include "experiments/experiment.h"

extern const struct nprb_experiment nprb_exp_thread_scaling;

/* Every count up to 8, then doubling, then all: the knee is usually in the first few. */
static int next_count(int count, int all)
{
    int next = count < 8 ? count + 1 : count * 2;
    return next > all && count < all ? all : next;
}

static int plan(struct nprb_planner *p)
{
    const struct nprb_thread_scaling_config *c = &p->cfg->thread_scaling;
    if (!c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = &nprb_exp_thread_scaling,
                                  .policy = NPRB_MEM_BIND,
                                  .size_bytes = c->size_bytes,
                                  .repetitions = c->repetitions};
    item.cpu_node = item.mem_node = nprb_sweep_node(p, item.skip_reason, sizeof item.skip_reason);
    if (nprb_plan_check_fits(p, "thread_scaling.size", c->size_bytes * 4, item.mem_node) != 0)
        return -1;
    int all = nprb_topo_node(p->topo, item.cpu_node)->usable_cores;
    if (all < 1)
        all = 1;
    for (int k = 0; k < c->kernels.count; k++) {
        item.kernel = c->kernels.id[k];
        for (int t = 1; t <= all; t = next_count(t, all)) {
            item.threads = t;
            if (nprb_plan_add(p, &item) != 0)
                return -1;
        }
    }
    return 0;
}

const struct nprb_experiment nprb_exp_thread_scaling = {.name = "thread_scaling",
                                                        .table = NPRB_TABLE_BANDWIDTH,
                                                        .plan = plan,
                                                        .measure = nprb_measure_bandwidth};
