/* SPDX-License-Identifier: BSD-3-Clause */
/* stride_sweep: a sequential chase through a fixed working set, stride varied: where the
 * prefetchers stop helping and each load pays a new line, then a new page. */
#include "experiments/experiment.h"

#include <stdio.h>

extern const struct nprb_experiment nprb_exp_stride_sweep;

static int plan(struct nprb_planner *p)
{
    const struct nprb_stride_sweep_config *c = &p->cfg->stride_sweep;
    if (!c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = &nprb_exp_stride_sweep,
                                  .policy = NPRB_MEM_BIND,
                                  .size_bytes = c->size_bytes,
                                  .threads = 1,
                                  .samples = c->samples,
                                  .sample_s = c->sample_s};
    item.cpu_node = item.mem_node = nprb_sweep_node(p, item.skip_reason, sizeof item.skip_reason);
    if (nprb_plan_check_fits(p, "stride_sweep.size", c->size_bytes, item.mem_node) != 0)
        return -1;
    for (int i = 0; i < c->strides.count; i++) {
        char name[48], why[160];
        snprintf(name, sizeof name, "stride:%llu", (unsigned long long)c->strides.bytes[i]);
        if (nprb_pattern_parse(name, &item.pattern, why, sizeof why) != 0) {
            snprintf(p->err, p->errlen, "stride_sweep.strides: %s", why);
            return -1;
        }
        if (c->strides.bytes[i] * 2 > c->size_bytes) {
            snprintf(p->err, p->errlen,
                     "stride_sweep.strides: stride %llu B leaves fewer than 2 slots in the %llu B "
                     "working set",
                     (unsigned long long)c->strides.bytes[i], (unsigned long long)c->size_bytes);
            return -1;
        }
        if (nprb_plan_add(p, &item) != 0)
            return -1;
    }
    return 0;
}

const struct nprb_experiment nprb_exp_stride_sweep = {.name = "stride_sweep",
                                                      .table = NPRB_TABLE_LATENCY,
                                                      .plan = plan,
                                                      .measure = nprb_measure_latency};
