/* SPDX-License-Identifier: BSD-3-Clause */
/* latency_matrix: idle latency from one core of node i to memory bound to node j, every i and j
 * (memory-only nodes included), plus interleave, preferred and first-touch policies from each
 * node's cores. */
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "plan/items.h"
#include "report/report_matrix.h"

#include <string.h>

extern const struct nprb_experiment nprb_exp_latency_matrix;

struct latency_matrix_config {
    bool enabled;
    enum nprb_pairs pairs;
    struct nprb_policy_list policies; /**< besides bind: interleave, preferred, first_touch */
    uint64_t size_bytes;              /**< working set of the chase, per memory node */
    uint64_t tlb_window_bytes;        /**< chain random within windows of this size; 0: whole set */
    int samples;                      /**< timed samples kept (one more is taken and discarded) */
    double sample_s;                  /**< minimum length of one sample */
    int passes; /**< bound cells measured this often, the later passes spread over the run */
};

#define OFF(field) offsetof(struct latency_matrix_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0,
     "measure idle latency with a dependent pointer chase"},
    {"pairs", KEY_NAME(nprb_pairs_names), OFF(pairs), "all", 0, 0,
     "all: threads on node i, memory bound to node j, every i and j; local: i = j only"},
    {"policies", KEY_NAMES(nprb_extra_policy_names), OFF(policies), "interleave", 0, 0,
     "per CPU node, besides bind: interleave (all nodes), preferred (own node), first_touch"},
    {"size", KEY_SIZE, OFF(size_bytes), "1GiB", NPRB_KIB(4), NPRB_TIB(64),
     "chase working set per memory node (K/M/G/T or KiB/MiB/GiB/TiB)"},
    {"tlb_window", KEY_SIZE, OFF(tlb_window_bytes), "256KiB", 0, NPRB_TIB(64),
     "chain random within windows of this size, visited in random order (0: whole set)"},
    {"samples", KEY_INT, OFF(samples), "15", 3, 100000, "timed samples kept per measurement"},
    {"sample_time", KEY_DURATION, OFF(sample_s), "5ms", 0, 0,
     "minimum length of one sample (ns/us/ms/s)"},
    {"passes", KEY_INT, OFF(passes), "3", 1, 5,
     "times each bound cell is measured, the later passes spread over the rest of the run: its "
     "uncertainty then covers what changes over the run, not only within one burst"},
};
NPRB_EXPERIMENT_SECTION(section, latency_matrix, keys, struct latency_matrix_config);

static int plan(struct nprb_planner *p)
{
    const struct latency_matrix_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = &nprb_exp_latency_matrix,
                                  .policy = NPRB_MEM_BIND,
                                  .passes = c->passes,
                                  .size_bytes = c->size_bytes,
                                  .threads = 1,
                                  .tlb_window_bytes = c->tlb_window_bytes,
                                  .samples = c->samples,
                                  .sample_s = c->sample_s};
    char why[160];
    nprb_pattern_parse("random", &item.pattern, why, sizeof why);
    return nprb_plan_matrix(p, &item, "latency_matrix.size", c->pairs, &c->policies);
}

/* Its part of every host's block: the matrix of medians, then each remote cell over its row's
 * local one beside the firmware's distance ratio. */
static bool host_report(FILE *out, const struct nprb_results *rows)
{
    struct nprb_matrix *m = nprb_matrix_create();
    if (m == NULL)
        return false;
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = nprb_row_at(lat, i);
        if (l->experiment_id == NPRB_EXPERIMENT_LATENCY_MATRIX &&
            strcmp(l->status, NPRB_ROW_NOT_APPLICABLE) != 0)
            nprb_matrix_put(m, l->cpu_node, l->mem_node, l->mem_policy_id, l->latency_ns_median,
                            nprb_latency_uncertainty_pct(l), l->pair_class_id, l->status, l->flags);
    }
    nprb_matrix_print(out, "idle latency, ns (median)", m);
    nprb_matrix_print_ratios(out, m, &rows->tables[NPRB_TABLE_DISTANCES]);
    nprb_matrix_destroy(m);
    return true;
}

static const char about[] =
    "idle latency from one core of node i to memory bound to node j, every i and j (memory-only "
    "nodes too; `pairs: local` for i = j only), plus interleave, preferred and first-touch from "
    "each node's cores";

const struct nprb_experiment nprb_exp_latency_matrix = {.id = NPRB_EXPERIMENT_LATENCY_MATRIX,
                                                        .table = NPRB_TABLE_LATENCY,
                                                        .about = about,
                                                        .plan = plan,
                                                        .measure = nprb_measure_latency,
                                                        .config = &section,
                                                        .host_report = host_report,
                                                        .keeps_buffers = true,
                                                        .priority = NPRB_PRIORITY_HEADLINE};
