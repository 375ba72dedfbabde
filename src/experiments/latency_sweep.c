/* SPDX-License-Identifier: BSD-3-Clause */
/* latency_sweep: ns per access against working-set size, for each configured pattern, from one
 * core through its local memory: the cache hierarchy as a curve. With pairs: all, the same core
 * also chases through every other node's memory: the textbook's local/remote grid, where the
 * remote curve shows the caches hiding the remote node until the set outgrows them. With
 * from: every, a core of each CPU node sweeps in turn (first: only the first node's), so the
 * grid covers every node pair, as the textbook's does. */
#include "experiments/experiment.h"
#include "experiments/latency_run.h"

extern const struct nprb_experiment nprb_exp_latency_sweep;

/* Every curve from the cores of @p base's cpu_node: its own memory, and with pairs: all every
 * other node's. */
static int plan_from_node(struct nprb_planner *p, const struct nprb_plan_item *base,
                          const uint64_t *sizes, int n)
{
    const struct nprb_latency_sweep_config *c = &p->cfg->latency_sweep;
    struct nprb_plan_item item = *base;
    for (int m = 0; m < nprb_topo_node_count(p->topo); m++) {
        bool local = m == item.cpu_node;
        if (!local && (c->pairs != NPRB_PAIRS_ALL || item.skip_reason[0] != '\0' ||
                       nprb_topo_node(p->topo, m)->memory_bytes == 0))
            continue;
        item.mem_node = m;
        for (int i = 0; i < n; i++)
            if (nprb_plan_check_fits(p, "latency_sweep.sizes", sizes[i], m) != 0)
                return -1;
        for (int k = 0; k < c->patterns.count; k++) {
            item.pattern = c->patterns.item[k];
            for (int i = 0; i < n; i++) {
                item.size_bytes = sizes[i];
                if (nprb_plan_add(p, &item) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

static int plan(struct nprb_planner *p)
{
    const struct nprb_latency_sweep_config *c = &p->cfg->latency_sweep;
    if (!c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = &nprb_exp_latency_sweep,
                                  .policy = NPRB_MEM_BIND,
                                  .threads = 1,
                                  .tlb_window_bytes = c->tlb_window_bytes,
                                  .samples = c->samples,
                                  .sample_s = c->sample_s};
    item.cpu_node = nprb_sweep_node(p, item.skip_reason, sizeof item.skip_reason);
    /* The random chase touches one 64 B line per slot: its steps come at a multiple of each
     * cache's size, and the sweep needs points there as well (not for strides: a 4 KiB stride
     * would ask for points at 64x the last cache). */
    uint64_t span_per_line = 1;
    for (int k = 0; k < c->patterns.count; k++) {
        const struct nprb_pattern *pattern = &c->patterns.item[k];
        if (pattern->desc->slot_bytes == 0)
            continue; /* a stride: its slots are the stride */
        uint64_t r = nprb_latency_span_per_line(nprb_pattern_slot_bytes(pattern));
        span_per_line = r > span_per_line ? r : span_per_line;
    }
    uint64_t sizes[NPRB_MAX_LIST];
    int n = nprb_sweep_sizes(p, &c->sizes, c->max_size_bytes, span_per_line, sizes, NPRB_MAX_LIST);
    int first = item.cpu_node;
    for (int cpu = 0; cpu < nprb_topo_node_count(p->topo); cpu++) {
        /* The first node always (its row says why when it cannot run); others only with
         * from: every, and only those with cores this rank may use and memory. */
        if (cpu != first && (c->from != NPRB_SWEEP_FROM_EVERY || item.skip_reason[0] != '\0' ||
                             !nprb_node_is_home(nprb_topo_node(p->topo, cpu))))
            continue;
        item.cpu_node = cpu;
        if (plan_from_node(p, &item, sizes, n) != 0)
            return -1;
    }
    return 0;
}

const struct nprb_experiment nprb_exp_latency_sweep = {.name = "latency_sweep",
                                                       .table = NPRB_TABLE_LATENCY,
                                                       .plan = plan,
                                                       .measure = nprb_measure_latency};
