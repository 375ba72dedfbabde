/* SPDX-License-Identifier: BSD-3-Clause */
/* bandwidth_sweep: GB/s against working-set size for each configured kernel, all usable cores
 * of one node on its local memory: the bandwidth of each cache level and of memory. */
#include "experiments/experiment.h"

extern const struct nprb_experiment nprb_exp_bandwidth_sweep;

static int plan(struct nprb_planner *p)
{
    const struct nprb_bandwidth_sweep_config *c = &p->cfg->bandwidth_sweep;
    if (!c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = &nprb_exp_bandwidth_sweep,
                                  .policy = NPRB_MEM_BIND,
                                  .threads = c->threads,
                                  .repetitions = c->repetitions,
                                  .sample_s = c->sample_s};
    item.cpu_node = item.mem_node = nprb_sweep_node(p, item.skip_reason, sizeof item.skip_reason);
    uint64_t sizes[NPRB_MAX_LIST];
    int n = nprb_sweep_sizes(p, &c->sizes, c->max_size_bytes, 1, sizes, NPRB_MAX_LIST);
    for (int k = 0; k < c->kernels.count; k++) {
        item.kernel = c->kernels.id[k];
        /* A strided kernel gives one curve per stride; the others ignore the stride. */
        int strides = nprb_kernel_get(item.kernel)->uses_stride ? c->strides.count : 1;
        for (int s = 0; s < strides; s++) {
            item.stride_bytes = c->strides.bytes[s];
            for (int i = 0; i < n; i++) {
                /* Up to three arrays and an index: the node must hold all of them. */
                if (nprb_plan_check_fits(p, "bandwidth_sweep.sizes", sizes[i] * 4, item.mem_node) !=
                    0)
                    return -1;
                item.size_bytes = sizes[i];
                if (nprb_plan_add(p, &item) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

const struct nprb_experiment nprb_exp_bandwidth_sweep = {.name = "bandwidth_sweep",
                                                         .table = NPRB_TABLE_BANDWIDTH,
                                                         .plan = plan,
                                                         .measure = nprb_measure_bandwidth};
