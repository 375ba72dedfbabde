/* SPDX-License-Identifier: BSD-3-Clause */
/* thread_scaling: bandwidth with 1, 2, ... threads up to every usable core of one node, on its
 * local memory: where one node's memory saturates. */
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "plan/items.h"
#include "report/report_grid.h"

#include <stdio.h>

extern const struct nprb_experiment nprb_exp_thread_scaling;

struct thread_scaling_config {
    bool enabled;
    uint64_t size_bytes;
    struct nprb_kernel_list kernels;
    int repetitions;
};

#define OFF(field) offsetof(struct thread_scaling_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0,
     "bandwidth with 1 .. all cores of the first node"},
    {"size", KEY_SIZE, OFF(size_bytes), "128MiB", NPRB_KIB(64), NPRB_TIB(64), "bytes per array"},
    {"kernels", KEY_NAMES(nprb_kernel_names), OFF(kernels), "read,triad", 1, 0,
     "kernels measured at every thread count"},
    {"repetitions", KEY_INT, OFF(repetitions), "3", 2, 100000, "timed repetitions kept per point"},
};
NPRB_EXPERIMENT_SECTION(section, thread_scaling, keys, struct thread_scaling_config);

/* Every count up to 8, then doubling, then all: the knee is usually in the first few. */
static int next_count(int count, int all)
{
    int next = count < 8 ? count + 1 : count * 2;
    return next > all && count < all ? all : next;
}

static int plan(struct nprb_planner *p)
{
    const struct thread_scaling_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
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

static bool report(FILE *out, const struct nprb_results *rows)
{
    return nprb_bandwidth_report(out, rows, NPRB_EXPERIMENT_THREAD_SCALING, true,
                                 "GB/s (best) by threads, one node's local memory");
}

static const char about[] = "GB/s with 1, 2, ... all cores of a node";

const struct nprb_experiment nprb_exp_thread_scaling = {.id = NPRB_EXPERIMENT_THREAD_SCALING,
                                                        .table = NPRB_TABLE_BANDWIDTH,
                                                        .about = about,
                                                        .plan = plan,
                                                        .measure = nprb_measure_bandwidth,
                                                        .config = &section,
                                                        .report = report,
                                                        .keeps_buffers = true,
                                                        .priority = NPRB_PRIORITY_SWEEP,
                                                        .axis = NPRB_AXIS_THREADS};
