/* SPDX-License-Identifier: BSD-3-Clause */
/* latency_matrix: idle latency from one core of node i to memory bound to node j, every i and j
 * (memory-only nodes included), plus interleave, preferred and first-touch policies from each
 * node's cores. */
#include "experiments/experiment.h"

extern const struct nprb_experiment nprb_exp_latency_matrix;

static int plan(struct nprb_planner *p)
{
    const struct nprb_latency_config *c = &p->cfg->latency_matrix;
    if (!c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = &nprb_exp_latency_matrix,
                                  .policy = NPRB_MEM_BIND,
                                  .size_bytes = c->size_bytes,
                                  .threads = 1,
                                  .tlb_window_bytes = c->tlb_window_bytes,
                                  .samples = c->samples,
                                  .sample_s = c->sample_s};
    char why[160];
    nprb_pattern_parse("random", &item.pattern, why, sizeof why);
    return nprb_plan_matrix(p, &item, "latency_matrix.size", c->pairs, &c->policies);
}

const struct nprb_experiment nprb_exp_latency_matrix = {.name = "latency_matrix",
                                                        .table = NPRB_TABLE_LATENCY,
                                                        .plan = plan,
                                                        .measure = nprb_measure_latency};
