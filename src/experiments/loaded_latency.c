/* SPDX-License-Identifier: BSD-3-Clause */
/* loaded_latency: one core of node i chases memory of node j while the node's other cores load
 * the same memory, for each delay between their lines: a latency-versus-bandwidth curve. */
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "plan/items.h"
#include "measure/loaded_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

extern const struct nprb_experiment nprb_exp_loaded_latency;

struct loaded_latency_config {
    bool enabled;
    enum nprb_pairs pairs;
    uint64_t size_bytes;      /**< the chase's working set */
    uint64_t load_size_bytes; /**< buffer per load thread */
    int threads;              /**< load threads; 0: every other usable core of the node */
    bool load_writes;
    struct nprb_sizes delays; /**< spin iterations after each line, one point each */
    int samples;
    double sample_s;
};

#define OFF(field) offsetof(struct loaded_latency_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0,
     "latency from one core while the node's other cores load the same memory"},
    {"pairs", KEY_NAME(nprb_pairs_names), OFF(pairs), "local", 0, 0,
     "local: memory of the chasing core's node; all: every node"},
    {"size", KEY_SIZE, OFF(size_bytes), "128MiB", NPRB_KIB(64), NPRB_TIB(64),
     "the chase's working set"},
    {"load_size", KEY_SIZE, OFF(load_size_bytes), "64MiB", NPRB_KIB(64), NPRB_TIB(64),
     "buffer streamed by each load thread"},
    {"threads", KEY_THREADS, OFF(threads), "all", 1, 4096,
     "load threads: all (every other usable core of the node) or a number"},
    {"load_writes", KEY_BOOL, OFF(load_writes), "false", 0, 0,
     "load threads write each line back (read_write) instead of only reading"},
    {"delays", KEY_COUNTS, OFF(delays), "0,200,2000,20000", 0, 100000000,
     "spin iterations after each 64-byte line of load, one curve point each"},
    {"samples", KEY_INT, OFF(samples), "11", 3, 100000, "timed chase samples per point"},
    {"sample_time", KEY_DURATION, OFF(sample_s), "5ms", 0, 0, "minimum length of one sample"},
};
NPRB_EXPERIMENT_SECTION(section, loaded_latency, keys, struct loaded_latency_config);

/* An item's own parameters (plan.h: NPRB_ITEM_SET_OWN). */
struct loaded_item {
    uint64_t load_bytes; /**< buffer per load thread */
    uint32_t delay_spins;
    bool load_writes;
};

/* The load buffers of a CPU node with @p cores usable, as loaded_run.c maps them: a slice of whole
 * huge pages for each load thread, every core but the chasing one's (or the configured count). */
static uint64_t load_bytes(const struct loaded_latency_config *c, int cores)
{
    const uint64_t huge = UINT64_C(2) << 20;
    int load = cores - 1;
    if (c->threads > 0 && c->threads < load)
        load = c->threads;
    return (c->load_size_bytes + huge - 1) / huge * huge * (uint64_t)(load > 0 ? load : 0);
}

static int plan(struct nprb_planner *p)
{
    const struct loaded_latency_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = &nprb_exp_loaded_latency,
                                  .policy = NPRB_MEM_BIND,
                                  .size_bytes = c->size_bytes,
                                  .threads = c->threads,
                                  .tlb_window_bytes = UINT64_C(256) << 10,
                                  .samples = c->samples,
                                  .sample_s = c->sample_s,
                                  .lone_chain = true};
    struct loaded_item own = {.load_bytes = c->load_size_bytes, .load_writes = c->load_writes};
    char why[160];
    nprb_pattern_parse("random", &item.pattern, why, sizeof why);
    int nodes = nprb_topo_node_count(p->topo);
    for (int j = 0; j < nodes; j++)
        if (nprb_node_memory_usable(nprb_topo_node(p->topo, j)) &&
            nprb_plan_check_fits(p, "loaded_latency.size", c->size_bytes + c->load_size_bytes, j) !=
                0)
            return -1;
    /* A node whose cores cannot load gets its one "not applicable" row first. */
    bool no_load[NPRB_MAX_NODES] = {false};
    for (int i = 0; i < nodes; i++) {
        item.cpu_node = item.mem_node = i;
        nprb_cpu_node_skip_reason(p, i, item.skip_reason, sizeof item.skip_reason);
        if (item.skip_reason[0] == '\0' && nprb_topo_node(p->topo, i)->usable_cores < 2)
            snprintf(item.skip_reason, sizeof item.skip_reason,
                     "not applicable: node %u has one usable core, none left to make load",
                     nprb_topo_node(p->topo, i)->os_index);
        no_load[i] = item.skip_reason[0] != '\0';
        own.delay_spins = (uint32_t)c->delays.bytes[0];
        item.axis_point = own.delay_spins;
        NPRB_ITEM_SET_OWN(&item, own);
        if (no_load[i] && nprb_node_memory_usable(nprb_topo_node(p->topo, i)) &&
            nprb_plan_add(p, &item) != 0)
            return -1;
    }
    item.skip_reason[0] = '\0';
    /* Memory node by memory node, its CPU nodes in turn and each pair's delays together: the
     * chain and the load buffers are set up once per memory node (host/place.h keeps them). */
    for (int j = 0; j < nodes; j++) {
        if (!nprb_node_memory_usable(nprb_topo_node(p->topo, j)))
            continue;
        item.mem_node = j;
        for (int i = 0; i < nodes; i++) {
            if (no_load[i] || (c->pairs == NPRB_PAIRS_LOCAL && j != i))
                continue;
            item.cpu_node = i;
            item.extra_bytes = load_bytes(c, nprb_topo_node(p->topo, i)->usable_cores);
            for (int d = 0; d < c->delays.count; d++) {
                own.delay_spins = (uint32_t)c->delays.bytes[d];
                item.axis_point = own.delay_spins;
                NPRB_ITEM_SET_OWN(&item, own);
                if (nprb_plan_add(p, &item) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

static enum nprb_status finish(struct nprb_context *ctx, struct nprb_loaded_row *row,
                               const char *status, enum nprb_status result)
{
    return nprb_finish_row(ctx, NPRB_TABLE_LOADED_LATENCY, row, status, result);
}

static enum nprb_status measure(struct nprb_context *ctx, const struct nprb_plan_item *item)
{
    struct nprb_loaded_row row;
    memset(&row, 0, sizeof row);
    NPRB_FILL_ROW_HEAD(&row, ctx, item);
    struct loaded_item own;
    NPRB_ITEM_GET_OWN(own, item);
    NPRB_SET_TEXT(row.load_kernel, own.load_writes ? "read_write" : "read");
    row.delay_spins = own.delay_spins;
    row.load_gbs = row.latency_ns_min = row.latency_ns_median = row.latency_ns_p90 = NAN;
    row.latency_ns_p99 = row.latency_ns_max = row.pages_on_target_frac = NAN;
    if (item->skip_reason[0] != '\0') {
        NPRB_SET_TEXT(row.note, item->skip_reason);
        return finish(ctx, &row, NPRB_ROW_NOT_APPLICABLE, NPRB_OK);
    }
    unsigned pus[NPRB_MAX_PUS], targets[NPRB_MAX_NODES];
    int usable = nprb_item_pus(ctx->topo, item, pus, NPRB_MAX_PUS);
    int load = usable - 1;
    if (item->threads > 0 && item->threads < load)
        load = item->threads;
    row.load_threads = load;
    struct nprb_loaded_request req = {
        .chase = nprb_latency_request_for(ctx, item, pus[0], targets),
        .load_pus = pus + 1,
        .load_threads = load,
        .load_bytes = own.load_bytes,
        .load_writes = own.load_writes,
        .delay = own.delay_spins,
    };
    struct nprb_loaded_result res;
    struct nprb_kernel_snapshot before;
    nprb_kernel_snapshot_take(ctx, &before);
    nprb_loaded_run(nprb_topo_hwloc(ctx->topo), &req, &res);
    nprb_record_counters(ctx, row.measurement, row.experiment_id, &before, &res.chase.counts, NULL);
    nprb_kernel_snapshot_free(&before);
    int error = res.error ? res.error : res.chase.error;
    if (error != 0) {
        NPRB_SET_TEXT(row.note, res.error ? res.note : res.chase.note);
        return finish(ctx, &row, NPRB_ROW_FAILED,
                      error == ENOMEM ? NPRB_ERR_NOMEM : NPRB_ERR_SYSTEM);
    }
    if (res.chase.wrong_answer) {
        NPRB_SET_TEXT(row.note, res.chase.note);
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_ERR_VALIDATION);
    }
    row.load_gbs = res.load_gbs;
    row.latency_ns_min = res.chase.ns.min;
    row.latency_ns_median = res.chase.ns.median;
    row.latency_ns_p90 = res.chase.ns.p90;
    row.latency_ns_p99 = res.chase.ns.p99;
    row.latency_ns_max = res.chase.ns.max;
    row.threads_pinned_ok = res.load_pinned_ok && res.chase.stayed_on_pu;
    nprb_cpus_seen_format(&res.chase.cpus, row.cpus, sizeof row.cpus);
    if (res.chase.census_ok) {
        row.pages_on_target_frac = nprb_census_fraction_on(&res.chase.census, targets, 1);
        row.pages_unreported = res.chase.census.unreported;
        nprb_record_placement(ctx, row.measurement, row.experiment_id, &res.chase.census);
    }
    if (!row.threads_pinned_ok) {
        NPRB_SET_TEXT(row.note, "a thread left the core it was pinned to");
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_OK);
    }
    if (!res.chase.census_ok ||
        !nprb_placement_ok(&res.chase.census, targets, 1, item->policy, row.note, sizeof row.note))
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_OK);
    return finish(ctx, &row, NPRB_ROW_OK, NPRB_OK);
}

/* One block per node pair: the load's bandwidth and the chase's latency at each delay. */
static bool report(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *ll = &rows->tables[NPRB_TABLE_LOADED_LATENCY];
    int cpu = -2, mem = -2;
    bool printed = false;
    for (size_t i = 0; i < ll->count; i++) {
        const struct nprb_loaded_row *r = nprb_row_at(ll, i);
        if (strcmp(r->status, NPRB_ROW_NOT_APPLICABLE) == 0)
            continue;
        if (r->cpu_node != cpu || r->mem_node != mem) {
            cpu = r->cpu_node;
            mem = r->mem_node;
            fprintf(out,
                    "\nloaded_latency on %s: CPUs of node %d -> memory of node %d, %d load "
                    "thread(s) (%s)\n%-14s %12s %14s  %s\n",
                    r->hostname, cpu, mem, r->load_threads, r->load_kernel, "delay (spins)",
                    "load GB/s", "latency ns", "status");
        }
        fprintf(out, "%-14llu %12.1f %14.1f  %s\n", (unsigned long long)r->delay_spins, r->load_gbs,
                r->latency_ns_median, r->status);
        printed = true;
    }
    return printed;
}

static const char about[] =
    "latency from one core while the node's other cores load the same memory, throttled by a "
    "delay from zero up: latency against the load's achieved bandwidth (Intel MLC's "
    "`--loaded_latency`)";

const struct nprb_experiment nprb_exp_loaded_latency = {.id = NPRB_EXPERIMENT_LOADED_LATENCY,
                                                        .table = NPRB_TABLE_LOADED_LATENCY,
                                                        .about = about,
                                                        .plan = plan,
                                                        .measure = measure,
                                                        .config = &section,
                                                        .report = report,
                                                        .keeps_buffers = true,
                                                        .priority = NPRB_PRIORITY_PER_NODE,
                                                        .axis = NPRB_AXIS_OWN};
