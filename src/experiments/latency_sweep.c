/* SPDX-License-Identifier: BSD-3-Clause */
/* latency_sweep: ns per access against working-set size, for each configured pattern, from one
 * core through its local memory: the cache hierarchy as a curve. With pairs: all, the same core
 * also chases through every other node's memory: the textbook's local/remote grid, where the
 * remote curve shows the caches hiding the remote node until the set outgrows them. With
 * from: every, a core of each CPU node sweeps in turn (first: only the first node's), so the
 * grid covers every node pair, as the textbook's does. */
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "plan/items.h"
#include "measure/latency_run.h"
#include "report/report_grid.h"

#include <stdio.h>
#include <string.h>

extern const struct nprb_experiment nprb_exp_latency_sweep;

struct latency_sweep_config {
    bool enabled;
    enum nprb_pairs pairs; /**< local: the sweep node's memory; all: every node's, one curve each */
    enum nprb_sweep_from from; /**< first: one core of the first CPU node; every: of each */
    struct nprb_sizes sizes;   /**< working sets; auto: 2 KiB to max_size around the caches */
    uint64_t max_size_bytes;   /**< largest auto point (also capped by 1/4 of free memory) */
    struct nprb_pattern_list patterns;
    uint64_t tlb_window_bytes; /**< for "random" */
    int samples;
    double sample_s;
};

#define OFF(field) offsetof(struct latency_sweep_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0,
     "latency against working-set size: the cache hierarchy, one core, its local memory"},
    {"pairs", KEY_NAME(nprb_pairs_names), OFF(pairs), "local", 0, 0,
     "local: the sweep core's own memory; all: also every other node's memory, one curve each "
     "(remote latency by working set)"},
    {"from", KEY_NAME(nprb_sweep_from_names), OFF(from), "first", 0, 0,
     "first: a core of the first CPU node sweeps; every: a core of each CPU node in turn (with "
     "pairs: all, the textbook grid of every node pair)"},
    {"sizes", KEY_SIZES, OFF(sizes), "auto", NPRB_KIB(2), NPRB_TIB(64),
     "working sets: auto (2 KiB to max_size, points below, at and above each cache, and at 4x "
     "each for the random chase, which touches one 64 B line per 256 B) or a list"},
    {"max_size", KEY_SIZE, OFF(max_size_bytes), "256MiB", 0, NPRB_TIB(64),
     "largest auto size (256 MiB: 4x the L3 one core shares on most CPUs); 0 means 4x the "
     "last-level cache hwloc reports (at most 1 GiB and 1/4 of free memory)"},
    {"patterns", KEY_PATTERNS, OFF(patterns), "random,stride:64,index_random", 0, 0,
     "random | random_full | stride:BYTES | index_random (independent loads through an index)"},
    {"tlb_window", KEY_SIZE, OFF(tlb_window_bytes), "256KiB", 0, NPRB_TIB(64),
     "window of the random pattern (0: whole set)"},
    {"samples", KEY_INT, OFF(samples), "5", 3, 100000, "timed samples kept per point"},
    {"sample_time", KEY_DURATION, OFF(sample_s), "1ms", 0, 0, "minimum length of one sample"},
};
NPRB_EXPERIMENT_SECTION(section, latency_sweep, keys, struct latency_sweep_config);

/* Every curve from the cores of @p base's cpu_node: its own memory, and with pairs: all every
 * other node's. */
static int plan_from_node(struct nprb_planner *p, const struct latency_sweep_config *c,
                          const struct nprb_plan_item *base, const uint64_t *sizes, int n)
{
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
        /* Size by size, every pattern at each: the sizes ascend through the whole sweep, so
         * its buffers grow and are touched once (nprb_buffer_keep_begin). */
        for (int i = 0; i < n; i++) {
            item.size_bytes = sizes[i];
            for (int k = 0; k < c->patterns.count; k++) {
                item.pattern = c->patterns.item[k];
                if (nprb_plan_add(p, &item) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

static int plan(struct nprb_planner *p)
{
    const struct latency_sweep_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
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
        if (plan_from_node(p, c, &item, sizes, n) != 0)
            return -1;
    }
    return 0;
}

static bool is_sweep_point(const struct nprb_latency_row *l)
{
    return l->experiment_id == NPRB_EXPERIMENT_LATENCY_SWEEP && strcmp(l->status, NPRB_ROW_OK) == 0;
}

/* ns per access by working set, one row per pattern (and per other memory node or sweeping
 * core, when the sweep has them). */
static bool curves(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    const char *host = "";
    /* Which nodes' cores swept: one (from: first) or each CPU node (from: every). */
    int first_cpu = -1;
    bool several = false;
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = nprb_row_at(lat, i);
        if (!is_sweep_point(l))
            continue;
        several |= first_cpu >= 0 && l->cpu_node != first_cpu;
        first_cpu = first_cpu < 0 ? l->cpu_node : first_cpu;
    }
    struct nprb_grid *g = nprb_grid_create();
    if (g == NULL)
        return false;
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = nprb_row_at(lat, i);
        if (!is_sweep_point(l))
            continue;
        host = l->hostname;
        /* Curves through another node's memory (pairs: all), or from another node's core
         * (from: every), get their own rows. */
        char name[32], from[12] = "";
        if (several)
            snprintf(from, sizeof from, "n%d ", (int)l->cpu_node);
        if (l->mem_node == l->cpu_node)
            snprintf(name, sizeof name, "%s%s", from, l->pattern);
        else
            snprintf(name, sizeof name, "%s%s m%d", from, l->pattern, (int)l->mem_node);
        nprb_grid_put(g, name, l->size_bytes, l->latency_ns_median);
    }
    char title[240];
    if (several)
        snprintf(title, sizeof title,
                 "latency_sweep on %s: ns per access (median) by working set, one core of each "
                 "CPU node (nC: a core of node C; mN: memory on node N, else the core's own)",
                 host);
    else
        snprintf(title, sizeof title,
                 "latency_sweep on %s: ns per access (median) by working set, one core of node %d, "
                 "local memory (mN: memory on node N)",
                 host, first_cpu);
    bool printed = nprb_grid_print(out, title, "pattern", g, NPRB_GRID_SIZES, 2);
    nprb_grid_destroy(g);
    return printed;
}

/* The curves, and below them the cache levels they show. */
static bool report(FILE *out, const struct nprb_results *rows)
{
    bool printed = curves(out, rows);
    return nprb_cache_levels_report(out, rows) || printed;
}

static const char about[] =
    "ns per access against working set (2 KiB to 4x the last-level cache, at most 1 GiB, points "
    "below, at and above each cache) for the patterns `random` (chase random within 256 KiB TLB "
    "windows), `random_full` (random over the whole set), `stride:S` (sequential chase, "
    "lmbench's lat_mem_rd) and `index_random` (the textbook `sum += data[idx[i]]`, whose "
    "independent loads overlap: compare it with `random` to see why the simple method "
    "under-reports latency)";

const struct nprb_experiment nprb_exp_latency_sweep = {.id = NPRB_EXPERIMENT_LATENCY_SWEEP,
                                                       .table = NPRB_TABLE_LATENCY,
                                                       .about = about,
                                                       .plan = plan,
                                                       .measure = nprb_measure_latency,
                                                       .after_last_item = nprb_record_cache_levels,
                                                       .config = &section,
                                                       .report = report,
                                                       .keeps_buffers = true,
                                                       .priority = NPRB_PRIORITY_SWEEP,
                                                       .axis = NPRB_AXIS_SIZE};
