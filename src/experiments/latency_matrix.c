/* SPDX-License-Identifier: BSD-3-Clause */
/* latency_matrix: idle latency from one core of node i to memory bound to node j, every i and j
 * (memory-only nodes included), plus interleave, preferred and first-touch policies from each
 * node's cores. */
#include "measure/experiment.h"

extern const struct nprb_experiment nprb_exp_latency_matrix;

struct latency_matrix_config {
    bool enabled;
    enum nprb_pairs pairs;
    struct nprb_policy_list policies; /**< besides bind: interleave, preferred, first_touch */
    uint64_t size_bytes;              /**< working set of the chase, per memory node */
    uint64_t tlb_window_bytes;        /**< chain random within windows of this size; 0: whole set */
    int samples;                      /**< timed samples kept (one more is taken and discarded) */
    double sample_s;                  /**< minimum length of one sample */
    int passes; /**< bound cells measured this often, the later passes at the end of the run */
};

#define OFF(field) offsetof(struct latency_matrix_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0,
     "measure idle latency with a dependent pointer chase"},
    {"pairs", KEY_PAIRS, OFF(pairs), "all", 0, 0,
     "all: threads on node i, memory bound to node j, every i and j; local: i = j only"},
    {"policies", KEY_POLICIES, OFF(policies), "interleave", 0, 0,
     "per CPU node, besides bind: interleave (all nodes), preferred (own node), first_touch"},
    {"size", KEY_SIZE, OFF(size_bytes), "1GiB", NPRB_KIB(4), NPRB_TIB(64),
     "chase working set per memory node (K/M/G/T or KiB/MiB/GiB/TiB)"},
    {"tlb_window", KEY_SIZE, OFF(tlb_window_bytes), "256KiB", 0, NPRB_TIB(64),
     "chain random within windows of this size, visited in random order (0: whole set)"},
    {"samples", KEY_INT, OFF(samples), "21", 3, 100000, "timed samples kept per measurement"},
    {"sample_time", KEY_DURATION, OFF(sample_s), "10ms", 0, 0,
     "minimum length of one sample (ns/us/ms/s)"},
    {"passes", KEY_INT, OFF(passes), "3", 1, 5,
     "times each bound cell is measured, the later passes at the end of the run: its "
     "uncertainty then covers what changes over the run, not only within one burst"},
};
NPRB_CONFIG_SECTION(section, "latency_matrix", keys, struct latency_matrix_config);

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

const struct nprb_experiment nprb_exp_latency_matrix = {.name = "latency_matrix",
                                                        .table = NPRB_TABLE_LATENCY,
                                                        .plan = plan,
                                                        .measure = nprb_measure_latency,
                                                        .config = &section,
                                                        .priority = NPRB_PRIORITY_HEADLINE};
