/* SPDX-License-Identifier: BSD-3-Clause */
/* bandwidth_matrix: the cores of node i (one thread each, or a configured count) streaming
 * memory bound to node j, every i and j, for each configured kernel; plus the policies. */
#include "experiments/experiment.h"

extern const struct nprb_experiment nprb_exp_bandwidth_matrix;

static int plan(struct nprb_planner *p)
{
    const struct nprb_bandwidth_config *c = &p->cfg->bandwidth_matrix;
    if (!c->enabled)
        return 0;
    for (int k = 0; k < c->kernels.count; k++) {
        struct nprb_plan_item item = {.experiment = &nprb_exp_bandwidth_matrix,
                                      .policy = NPRB_MEM_BIND,
                                      .size_bytes = c->size_bytes,
                                      .threads = c->threads,
                                      .kernel = c->kernels.id[k],
                                      .repetitions = c->repetitions};
        if (nprb_plan_matrix(p, &item, "bandwidth_matrix.size", c->pairs, &c->policies) != 0)
            return -1;
    }
    return 0;
}

const struct nprb_experiment nprb_exp_bandwidth_matrix = {.name = "bandwidth_matrix",
                                                          .table = NPRB_TABLE_BANDWIDTH,
                                                          .plan = plan,
                                                          .measure = nprb_measure_bandwidth};
