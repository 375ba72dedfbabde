/* SPDX-License-Identifier: BSD-3-Clause */
/* mlp: memory-level parallelism. One pinned thread chases 1, 2, 4 ... 16 independent random
 * chains at once (multichase's parallelN) through memory bound to each node, past the last-level
 * cache. The time per load falls while the core keeps more misses in flight; by Little's law the
 * lines in flight are the idle latency over the time per load, and where that stops growing is
 * what the core (its miss buffers) or the path to that memory can sustain. */
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "plan/items.h"
#include "report/figure.h"
#include "report/report_grid.h"
#include "results/contract.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

extern const struct nprb_experiment nprb_exp_mlp;

struct mlp_config {
    bool enabled;
    enum nprb_pairs pairs;
    struct nprb_sizes chains; /**< chains chased at once, one point each; 1 must be among them */
    uint64_t size_bytes;
    uint64_t tlb_window_bytes;
    int samples;
    double sample_s;
    int passes; /**< each point measured this often, the later passes spread over the run */
};

#define OFF(field) offsetof(struct mlp_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0,
     "memory-level parallelism: 1 to 16 random chases interleaved in one thread"},
    {"pairs", KEY_NAME(nprb_pairs_names), OFF(pairs), "local", 0, 0,
     "local: a core of node i, memory bound to node i; all: to every node j, remote too"},
    {"chains", KEY_COUNTS, OFF(chains), "1,2,4,8,16", 1, NPRB_CHASE_MAX_CHAINS,
     "independent chains chased at once, one point each (1, the idle latency, is required)"},
    {"size", KEY_SIZE, OFF(size_bytes), "256MiB", NPRB_KIB(256), NPRB_TIB(64),
     "working set of all the chains together, past the last-level cache"},
    {"tlb_window", KEY_SIZE, OFF(tlb_window_bytes), "256KiB", 0, NPRB_TIB(64),
     "each chain random within windows of this size (0: its whole share)"},
    {"samples", KEY_INT, OFF(samples), "7", 3, 100000, "timed samples kept per point"},
    {"sample_time", KEY_DURATION, OFF(sample_s), "2ms", 0, 0, "minimum length of one sample"},
    {"passes", KEY_INT, OFF(passes), "3", 1, 5,
     "times each point is measured, the later passes spread over the rest of the run: its "
     "uncertainty then covers what changes over the run, not only within one burst"},
};
NPRB_EXPERIMENT_SECTION(section, mlp, keys, struct mlp_config);

/* Each chain gets at least 64 KiB of the working set: a share of a few slots would sit in L1. */
#define MIN_SHARE_BYTES NPRB_KIB(64)

static int plan(struct nprb_planner *p)
{
    const struct mlp_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
        return 0;
    bool has_one = false;
    for (int i = 0; i < c->chains.count; i++)
        has_one |= c->chains.bytes[i] == 1;
    if (!has_one) {
        snprintf(p->err, p->errlen,
                 "mlp.chains: 1 must be among the counts (the idle latency the lines in flight "
                 "are reckoned from)");
        return -1;
    }
    struct nprb_plan_item item = {.experiment = &nprb_exp_mlp,
                                  .policy = NPRB_MEM_BIND,
                                  .size_bytes = c->size_bytes,
                                  .threads = 1,
                                  .tlb_window_bytes = c->tlb_window_bytes,
                                  .samples = c->samples,
                                  .sample_s = c->sample_s,
                                  .passes = c->passes};
    const struct nprb_policy_list bound_only = {0};
    struct nprb_plan_item points[NPRB_MAX_LIST];
    for (int i = 0; i < c->chains.count; i++) {
        uint64_t chains = c->chains.bytes[i];
        uint64_t least = chains * (uint64_t)MIN_SHARE_BYTES;
        if (c->size_bytes < least) {
            snprintf(p->err, p->errlen,
                     "mlp.size: %llu chains need at least %llu bytes (64 KiB each)",
                     (unsigned long long)chains, (unsigned long long)least);
            return -1;
        }
        /* The count goes into the pattern as the number it is (no text to read back). */
        char why[160];
        enum nprb_pattern_kind kind = NPRB_PATTERN_PARALLEL;
        if (nprb_pattern_with_arg(kind, chains, &item.pattern, why, sizeof why) != 0) {
            snprintf(p->err, p->errlen, "mlp.chains: %s", why);
            return -1;
        }
        item.axis_point = chains;
        points[i] = item;
    }
    /* Every chain count on a memory node before the next node: the node's mapping is faulted in
     * and its chains built once, and each count re-joins their pieces (kernels/pattern.c). */
    return nprb_plan_matrix_series(p, points, c->chains.count, "mlp.size", c->pairs, &bound_only);
}

/* A node pair's points, by chain count. */
struct pair_curve {
    int cpu_node, mem_node;
    double ns[NPRB_CHASE_MAX_CHAINS + 1];    /**< per load, by chains; NaN: not measured */
    double u_pct[NPRB_CHASE_MAX_CHAINS + 1]; /**< each figure's uncertainty (passes.h) */
};

static struct pair_curve *curve_of(struct pair_curve *curves, int *count, int cap,
                                   const struct nprb_latency_row *l)
{
    for (int k = 0; k < *count; k++)
        if (curves[k].cpu_node == l->cpu_node && curves[k].mem_node == l->mem_node)
            return &curves[k];
    if (*count == cap)
        return NULL;
    struct pair_curve *c = &curves[(*count)++];
    c->cpu_node = l->cpu_node;
    c->mem_node = l->mem_node;
    for (int n = 0; n <= NPRB_CHASE_MAX_CHAINS; n++)
        c->ns[n] = c->u_pct[n] = NAN;
    return c;
}

/* Little's law: lines in flight = bandwidth x latency = (64 B / ns per load) x idle ns / 64 B. */
static double in_flight(const struct pair_curve *c, int chains)
{
    return c->ns[1] / c->ns[chains];
}

/* The chain count whose lines in flight are @p best. */
static int best_count(const struct pair_curve *c, double best)
{
    for (int n = 1; n <= NPRB_CHASE_MAX_CHAINS; n++)
        if (in_flight(c, n) == best)
            return n;
    return 1;
}

/* The smallest count whose lines in flight come within 5% of the most any count reached: more
 * chains than that buy nothing. */
static int gain_stops(const struct pair_curve *c, double *best)
{
    *best = 0;
    for (int n = 1; n <= NPRB_CHASE_MAX_CHAINS; n++)
        if (in_flight(c, n) > *best)
            *best = in_flight(c, n);
    for (int n = 1; n <= NPRB_CHASE_MAX_CHAINS; n++)
        if (in_flight(c, n) >= 0.95 * *best)
            return n;
    return 0;
}

/* The section shows rank 0's host, every rank of it: with a rank per NUMA node each rank chases
 * from its own node only, so one rank's pairs are a fraction of the host's. The collector calls
 * this with one rank's rows at a time until it answers true, so it answers false even after
 * printing, and each later rank of that host (the same host_index, 0) prints its own pairs
 * under a title naming the rank; other hosts' pairs are in the file. */
static bool report(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    const struct nprb_rows *hosts = &rows->tables[NPRB_TABLE_HOSTS];
    if (hosts->count == 0)
        return false;
    const struct nprb_host_row *h = nprb_row_at(hosts, 0);
    if (h->host_index != 0)
        return false;
    static struct pair_curve curves[256]; /* the grid keeps 256 rows: 85 pairs of three */
    int count = 0;
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = nprb_row_at(lat, i);
        if (l->experiment_id != NPRB_EXPERIMENT_MLP || strcmp(l->status, NPRB_ROW_OK) != 0 ||
            l->chains < 1 || l->chains > NPRB_CHASE_MAX_CHAINS)
            continue;
        struct pair_curve *c = curve_of(curves, &count, (int)(sizeof curves / sizeof *curves), l);
        if (c == NULL)
            continue;
        c->ns[l->chains] = l->latency_ns_median;
        c->u_pct[l->chains] = nprb_latency_uncertainty_pct(l);
    }
    struct nprb_grid *g = nprb_grid_create();
    if (g == NULL)
        return false;
    for (int k = 0; k < count; k++) {
        char ns[40], lines[40], gbs[40];
        snprintf(ns, sizeof ns, "n%d>m%d ns/load", curves[k].cpu_node, curves[k].mem_node);
        snprintf(lines, sizeof lines, "n%d>m%d in flight", curves[k].cpu_node, curves[k].mem_node);
        snprintf(gbs, sizeof gbs, "n%d>m%d GB/s", curves[k].cpu_node, curves[k].mem_node);
        for (int n = 1; n <= NPRB_CHASE_MAX_CHAINS; n++) {
            if (isnan(curves[k].ns[n]))
                continue;
            nprb_grid_put(g, ns, (uint64_t)n, curves[k].ns[n]);
            nprb_grid_put(g, lines, (uint64_t)n, in_flight(&curves[k], n));
            nprb_grid_put(g, gbs, (uint64_t)n, 64.0 / curves[k].ns[n]);
        }
    }
    char title[240], whose[48] = "";
    if (h->ranks_on_host > 1)
        snprintf(whose, sizeof whose, ", rank %d of its %d", h->rank, h->ranks_on_host);
    snprintf(title, sizeof title,
             "mlp on %s%s: chains chased at once from a core of node n through memory on node m; "
             "lines in flight = idle latency / ns per load (Little's law)",
             h->hostname, whose);
    bool printed = nprb_grid_print(out, title, "chains", g, NPRB_GRID_COUNTS, 2);
    nprb_grid_destroy(g);
    for (int k = 0; printed && k < count; k++) {
        double best;
        int stops = isnan(curves[k].ns[1]) ? 0 : gain_stops(&curves[k], &best);
        if (stops <= 0)
            continue;
        /* A ratio's relative uncertainty: its two figures' added (the analysis's rule). */
        int at = best_count(&curves[k], best);
        char lines[64];
        nprb_figure_text(lines, sizeof lines, best, 1, "lines in flight",
                         curves[k].u_pct[1] + curves[k].u_pct[at]);
        fprintf(out, "  n%d>m%d: the gain stops at %d chains, %s\n", curves[k].cpu_node,
                curves[k].mem_node, stops, lines);
    }
    return false;
}

static const char about[] =
    "memory-level parallelism: one core chases 1, 2, 4, 8 and 16 independent random chains at "
    "once (`default.yaml`: also 6, 10 and 12) (multichase's `parallelN`; pattern `parallel:N` in "
    "`/latency`) through memory bound to each node, past the last-level cache; the report "
    "derives the lines in flight by Little's law (idle latency over ns per load) and the chain "
    "count where the gain stops; under a rank per NUMA node its stdout section shows every rank "
    "of the first host, one grid a rank";

const struct nprb_experiment nprb_exp_mlp = {.id = NPRB_EXPERIMENT_MLP,
                                             .table = NPRB_TABLE_LATENCY,
                                             .about = about,
                                             .plan = plan,
                                             .measure = nprb_measure_latency,
                                             .config = &section,
                                             .report = report,
                                             .keeps_buffers = true,
                                             .priority = NPRB_PRIORITY_PER_NODE,
                                             .axis = NPRB_AXIS_OWN};
