/* SPDX-License-Identifier: BSD-3-Clause */
/* c2c_latency: a cache line handed between two pinned CPUs, as Intel MLC's --c2c_latency and
 * c2clat measure it. hitm: the line is Modified in the other core's cache (a ping-pong on two
 * flag lines, one way = half a round trip); hit: it is clean there (a chase through lines the
 * other core flushed and read back). The pairs stand for what two cores can share: a core, an
 * L2, an L3 (a CCX), a node, a package, or nothing, each its own path through the fabric. */
#include "host/core_pairs.h"
#include "kernels/c2c.h"
#include "measure/c2c_run.h"
#include "plan/passes.h"
#include "report/figure.h"
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "plan/items.h"
#include "util/timer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct nprb_experiment nprb_exp_c2c_latency;

struct c2c_config {
    bool enabled;
    enum nprb_core_pairs pairs;
    bool hit;
    int round_trips;
    int samples;
    int passes; /**< each pair measured this often, the later passes spread over the run */
};

#define OFF(field) offsetof(struct c2c_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0,
     "core-to-core latency: a cache line handed between two pinned CPUs"},
    {"pairs", KEY_NAME(nprb_core_pairs_names), OFF(pairs), "per_node", 0, 0,
     "per_node: one CPU per NUMA node, and a second core in each; per_cache: likewise per L3 "
     "(or L2), and an SMT sibling; all: every two usable CPUs"},
    {"hit", KEY_BOOL, OFF(hit), "true", 0, 0,
     "also the clean case (hit) beside the modified one (hitm)"},
    {"round_trips", KEY_INT, OFF(round_trips), "100", 10, 1000000,
     "hitm: round trips timed in one sample"},
    {"samples", KEY_INT, OFF(samples), "200", 3, 100000, "timed samples per pair and transfer"},
    {"passes", KEY_INT, OFF(passes), "3", 1, 5,
     "times each pair and transfer is measured, the later passes spread over the rest of the run: "
     "its "
     "uncertainty then covers what changes over the run, not only within one burst"},
};
NPRB_EXPERIMENT_SECTION(section, c2c_latency, keys, struct c2c_config);

/* An item's own parameters (plan.h: NPRB_ITEM_SET_OWN). */
struct c2c_item {
    uint32_t pu_a, pu_b;
    uint8_t cls; /* enum nprb_core_class */
    bool hit;
};

/* What the time estimate assumes one transfer takes: a cross-package hop, with room. */
#define MODEL_TRANSFER_S 150e-9

static int add(struct nprb_planner *p, struct nprb_plan_item *item, struct c2c_item own,
               const struct c2c_config *c)
{
    own.hit = false;
    item->passes = c->passes;
    item->sample_s = 2.0 * c->round_trips * MODEL_TRANSFER_S;
    NPRB_ITEM_SET_OWN(item, own);
    if (nprb_plan_add(p, item) != 0)
        return -1;
    if (!c->hit)
        return 0;
    own.hit = true;
    item->sample_s = NPRB_C2C_HIT_LINES * MODEL_TRANSFER_S;
    if (!nprb_line_flush_available())
        snprintf(item->skip_reason, sizeof item->skip_reason,
                 "not applicable: no user-space cache-line flush on this architecture, so no "
                 "line can be left clean in one core's cache alone");
    NPRB_ITEM_SET_OWN(item, own);
    int rc = nprb_plan_add(p, item);
    item->skip_reason[0] = '\0';
    return rc;
}

static int plan(struct nprb_planner *p)
{
    const struct c2c_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = &nprb_exp_c2c_latency,
                                  .policy = NPRB_MEM_BIND,
                                  .size_bytes = 4096 + NPRB_C2C_HIT_LINES * 64,
                                  .threads = 2,
                                  .samples = c->samples};
    struct c2c_item own = {0};
    item.cpu_node = item.mem_node = nprb_sweep_node(p, item.skip_reason, sizeof item.skip_reason);
    size_t count = nprb_core_pairs_list(p->topo, c->pairs, NULL, 0);
    if (item.skip_reason[0] == '\0' && count == 0)
        snprintf(item.skip_reason, sizeof item.skip_reason,
                 "not applicable: fewer than two usable CPUs (%d) to hand a line between",
                 nprb_topo_summary(p->topo)->usable_pus);
    if (item.skip_reason[0] != '\0' || count == 0) /* one row says why */
        return nprb_plan_add(p, &item);
    struct nprb_core_pair *pairs = calloc(count, sizeof *pairs);
    if (pairs == NULL) {
        snprintf(p->err, p->errlen, "c2c_latency: out of memory for %zu CPU pairs", count);
        return -1;
    }
    nprb_core_pairs_list(p->topo, c->pairs, pairs, count);
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < count; k++) {
        own.pu_a = pairs[k].pu_a;
        own.pu_b = pairs[k].pu_b;
        own.cls = (uint8_t)pairs[k].cls;
        item.cpu_node = item.mem_node = nprb_topo_pu_node(p->topo, own.pu_a);
        item.axis_point = k;
        rc = add(p, &item, own, c);
    }
    free(pairs);
    return rc;
}

static int32_t node_os(const struct nprb_topo *topo, int index)
{
    return index >= 0 ? (int32_t)nprb_topo_node(topo, index)->os_index : -1;
}

static enum nprb_status finish(struct nprb_context *ctx, struct nprb_c2c_row *row,
                               const char *status, enum nprb_status result)
{
    nprb_passes_first(NPRB_TABLE_C2C_LATENCY, row);
    return nprb_finish_row(ctx, NPRB_TABLE_C2C_LATENCY, row, status, result);
}

static enum nprb_status measure(struct nprb_context *ctx, const struct nprb_plan_item *item)
{
    struct c2c_item own;
    NPRB_ITEM_GET_OWN(own, item);
    struct nprb_c2c_row row;
    memset(&row, 0, sizeof row);
    row.rank = ctx->rank;
    row.measurement = ctx->next_measurement++;
    NPRB_SET_TEXT(row.hostname, ctx->hostname);
    NPRB_SET_EXPERIMENT(&row, item->experiment->id);
    row.cpu_a = (int32_t)own.pu_a;
    row.cpu_b = (int32_t)own.pu_b;
    row.node_a = node_os(ctx->topo, nprb_topo_pu_node(ctx->topo, own.pu_a));
    row.node_b = node_os(ctx->topo, nprb_topo_pu_node(ctx->topo, own.pu_b));
    NPRB_SET_TEXT(row.pair_class, nprb_core_class_name((enum nprb_core_class)own.cls));
    NPRB_SET_TEXT(row.transfer, own.hit ? "hit" : "hitm");
    row.latency_ns_min = row.latency_ns_median = row.latency_ns_p90 = NAN;
    row.latency_ns_p99 = row.latency_ns_max = row.pages_on_target_frac = NAN;
    if (item->skip_reason[0] != '\0') {
        row.cpu_a = row.cpu_b = row.node_a = row.node_b = -1;
        NPRB_SET_TEXT(row.pair_class, "-");
        NPRB_SET_TEXT(row.note, item->skip_reason);
        return finish(ctx, &row, NPRB_ROW_NOT_APPLICABLE, NPRB_OK);
    }
    const struct c2c_config *c = nprb_config_section(ctx->cfg, &section);
    struct nprb_c2c_request req = {.pu_a = own.pu_a,
                                   .pu_b = own.pu_b,
                                   .node = (unsigned)row.node_a,
                                   .hit = own.hit,
                                   .samples = item->samples,
                                   .trips = (uint64_t)c->round_trips,
                                   .seed = ctx->cfg->seed ^ ((uint64_t)own.pu_a << 32 | own.pu_b)};
    struct nprb_c2c_result res;
    nprb_c2c_run(nprb_topo_hwloc(ctx->topo), &req, &res);
    if (res.error != 0) {
        NPRB_SET_TEXT(row.note, res.note);
        return finish(ctx, &row, NPRB_ROW_FAILED,
                      res.error == ENOMEM ? NPRB_ERR_NOMEM : NPRB_ERR_SYSTEM);
    }
    row.samples = item->samples;
    row.transfers_per_sample = res.transfers_per_sample;
    row.latency_ns_min = res.ns.min;
    row.latency_ns_median = res.ns.median;
    row.latency_ns_p90 = res.ns.p90;
    row.latency_ns_p99 = res.ns.p99;
    row.latency_ns_max = res.ns.max;
    nprb_cpus_seen_format(&res.cpus, row.cpus, sizeof row.cpus);
    unsigned target = (unsigned)row.node_a;
    if (res.census_ok) {
        row.pages_on_target_frac = nprb_census_fraction_on(&res.census, &target, 1);
        nprb_record_placement(ctx, row.measurement, row.experiment_id, &res.census);
    }
    if (!res.stayed) {
        NPRB_SET_TEXT(row.note, "a thread left the CPU it was pinned to");
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_OK);
    }
    if (!res.census_ok ||
        !nprb_placement_ok(&res.census, &target, 1, NPRB_MEM_BIND, row.note, sizeof row.note))
        return finish(ctx, &row, NPRB_ROW_INVALID, NPRB_OK);
    return finish(ctx, &row, NPRB_ROW_OK, NPRB_OK);
}

/* The median over a class's pairs of each pair's median: one slow pair does not move it. Its
 * uncertainty @p u_pct is the largest of its pairs' (the analysis's rule for a median). */
static double class_median(const struct nprb_rows *rows, enum nprb_core_class cls, bool hit,
                           int *pairs, double *u_pct, double *scratch)
{
    int n = 0;
    *u_pct = NAN;
    for (size_t i = 0; i < rows->count; i++) {
        const struct nprb_c2c_row *r = nprb_row_at(rows, i);
        if (r->experiment_id == NPRB_EXPERIMENT_C2C_LATENCY &&
            strcmp(r->status, NPRB_ROW_OK) == 0 && nprb_core_class_parse(r->pair_class) == cls &&
            (strcmp(r->transfer, "hit") == 0) == hit) {
            scratch[n++] = r->latency_ns_median;
            if (!(r->uncertainty_pct <= *u_pct))
                *u_pct = r->uncertainty_pct;
        }
    }
    *pairs = n;
    return nprb_median(scratch, (size_t)n);
}

static bool report(FILE *out, const struct nprb_results *results)
{
    const struct nprb_rows *rows = &results->tables[NPRB_TABLE_C2C_LATENCY];
    double *scratch = calloc(rows->count ? rows->count : 1, sizeof *scratch);
    if (scratch == NULL)
        return false;
    bool printed = false;
    for (int cls = 0; cls < NPRB_N_CORE_CLASSES; cls++) {
        int hitm_pairs, hit_pairs;
        double hitm_u, hit_u;
        double hitm =
            class_median(rows, (enum nprb_core_class)cls, false, &hitm_pairs, &hitm_u, scratch);
        double hit =
            class_median(rows, (enum nprb_core_class)cls, true, &hit_pairs, &hit_u, scratch);
        if (hitm_pairs == 0 && hit_pairs == 0)
            continue;
        if (!printed) {
            const struct nprb_c2c_row *first = nprb_row_at(rows, 0);
            fprintf(out,
                    "\nc2c_latency on %s: one cache line handed between two pinned CPUs, ns one "
                    "way (median over the class's pairs of each pair's median)\n"
                    "  hitm: Modified in the other core's cache; hit: clean there\n"
                    "  %-14s %6s %-20s %-20s\n",
                    first->hostname, "class", "pairs", "hitm ns", "hit ns");
            printed = true;
        }
        char hitm_text[48] = "-", hit_text[48] = "-";
        if (hitm_pairs > 0)
            nprb_figure_text(hitm_text, sizeof hitm_text, hitm, 1, "", hitm_u);
        if (hit_pairs > 0)
            nprb_figure_text(hit_text, sizeof hit_text, hit, 1, "", hit_u);
        fprintf(out, "  %-14s %6d %-20s %-20s\n", nprb_core_class_name((enum nprb_core_class)cls),
                hitm_pairs > hit_pairs ? hitm_pairs : hit_pairs, hitm_text, hit_text);
    }
    free(scratch);
    return printed;
}

static const char about[] =
    "core-to-core latency: a cache line handed between two pinned CPUs, Modified in the other "
    "core's cache (`hitm`, a ping-pong as rigtorp/c2clat) and clean there (`hit`, as Intel MLC's "
    "`--c2c_latency`); one CPU per NUMA node and a second core in each (`default.yaml`: per L3 "
    "cache, and an SMT sibling; `full.yaml`: every pair); the report gives the median per pair "
    "class: SMT, same L2, same L3, same node, same package, cross package (`/c2c_latency`)";

const struct nprb_experiment nprb_exp_c2c_latency = {.id = NPRB_EXPERIMENT_C2C_LATENCY,
                                                     .table = NPRB_TABLE_C2C_LATENCY,
                                                     .about = about,
                                                     .plan = plan,
                                                     .measure = measure,
                                                     .config = &section,
                                                     .report = report,
                                                     .priority = NPRB_PRIORITY_PER_NODE,
                                                     .axis = NPRB_AXIS_NONE};
