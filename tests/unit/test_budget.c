/* SPDX-License-Identifier: BSD-3-Clause */
/* The time budget on an eight-node shape (tests/topologies/epyc-8n.xml) with every experiment
 * on: a budget that fits drops nothing; a tighter one takes from the sweeps before anything
 * else; the floor keeps every bound latency cell and every local bandwidth cell; a budget below
 * the floor is refused; later passes always follow a first pass still planned. */
#include "check.h"
#include "config/config.h"
#include "experiments/registry.h"
#include "host/topo.h"
#include "plan/budget.h"
#include "plan/descriptor.h"
#include "plan/plan.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int plan_all(struct nprb_plan *plan, const struct nprb_topo *topo)
{
    static const char *const on[] = {"latency_matrix.enabled=true",
                                     "bandwidth_matrix.enabled=true",
                                     "latency_sweep.enabled=true",
                                     "stride_sweep.enabled=true",
                                     "bandwidth_sweep.enabled=true",
                                     "thread_scaling.enabled=true",
                                     "loaded_latency.enabled=true",
                                     "numa_balancing.enabled=true",
                                     "first_touch.enabled=true",
                                     "page_size.enabled=true",
                                     "latency_matrix.passes=3",
                                     "bandwidth_matrix.passes=3",
                                     "latency_matrix.samples=41",
                                     "bandwidth_matrix.repetitions=20",
                                     "latency_sweep.patterns=random,stride:64,stride:256",
                                     "bandwidth_sweep.kernels=copy,triad",
                                     "loaded_latency.delays=0,20,50,100,200"};
    static struct nprb_config cfg;
    char err[512];
    CHECK(nprb_experiments_config_defaults(&cfg, err, sizeof err) == 0);
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++)
        if (nprb_config_set(&cfg, on[i], err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", on[i], err);
            return -1;
        }
    return nprb_plan_build(plan, &cfg, topo, &(struct nprb_share){0, NULL}, err, sizeof err);
}

static bool applicable(const struct nprb_plan_item *item)
{
    return item->skip_reason[0] == '\0';
}

/* A cell the floor keeps: a bound latency cell, or a bound local bandwidth cell. */
static bool floor_cell(const struct nprb_plan_item *item)
{
    if (item->experiment->priority != NPRB_PRIORITY_HEADLINE || item->pass != 0 ||
        item->policy != NPRB_MEM_BIND || item->mem_node < 0)
        return false;
    return nprb_experiment_table(item->experiment) == NPRB_TABLE_LATENCY ||
           item->cpu_node == item->mem_node;
}

/* Later passes join a first pass still planned, within its count. */
static void check_passes(const struct nprb_plan *plan)
{
    for (size_t k = 0; k < plan->count; k++) {
        const struct nprb_plan_item *item = &plan->items[k];
        if (item->pass == 0)
            continue;
        CHECK(item->origin < k);
        const struct nprb_plan_item *origin = &plan->items[item->origin];
        CHECK(origin->pass == 0 && applicable(origin) && item->pass < origin->passes);
    }
}

static size_t count_applicable(const struct nprb_plan *plan, enum nprb_priority priority)
{
    size_t n = 0;
    for (size_t k = 0; k < plan->count; k++)
        n += plan->items[k].experiment->priority == priority && applicable(&plan->items[k]);
    return n;
}

/* Thinning takes values along an experiment's axis, not positions in the plan: where curves
 * interleave (latency_sweep's patterns at each size, loaded_latency's node pairs), items with
 * the same size (or delay, stride, thread count) all stay or all go, and the first value of the
 * axis stays. */
static void check_thinned_alike(const struct nprb_plan *before, const struct nprb_plan *after)
{
    for (size_t k = 0; k < after->count; k++) {
        const struct nprb_plan_item *a = &after->items[k];
        if (a->pass != 0 || !applicable(&before->items[k]) || a->experiment->axis == NPRB_AXIS_NONE)
            continue;
        for (size_t j = k + 1; j < after->count; j++) {
            const struct nprb_plan_item *b = &after->items[j];
            if (b->experiment != a->experiment || b->pass != 0 || !applicable(&before->items[j]))
                continue;
            bool same = a->experiment->axis == NPRB_AXIS_SIZE ? a->size_bytes == b->size_bytes
                        : a->experiment->axis == NPRB_AXIS_STRIDE
                            ? a->pattern.stride_bytes == b->pattern.stride_bytes
                        : a->experiment->axis == NPRB_AXIS_THREADS ? a->threads == b->threads
                                                                   : a->axis_point == b->axis_point;
            if (same && applicable(a) != applicable(b)) {
                fprintf(stderr, "%s: items %zu and %zu share a point, one kept, one dropped\n",
                        nprb_experiment_name(a->experiment), k, j);
                CHECK(false);
                return;
            }
        }
    }
}

/* The position of the step starting with @p text; past the last when there is none. */
static int step_index(const struct nprb_budget_fit *fit, const char *text)
{
    for (int s = 0; s < fit->step_count; s++)
        if (strncmp(fit->step[s], text, strlen(text)) == 0)
            return s;
    fprintf(stderr, "no step '%s'\n", text);
    return NPRB_BUDGET_MAX_STEPS + 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_budget TOPOLOGY_DIR\n");
        return 1;
    }
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/epyc-8n.xml", argv[1]);
    struct nprb_topo *topo = NULL;
    if (nprb_topo_create(&topo, path, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", path, err);
        return 1;
    }
    struct nprb_plan whole, plan;
    struct nprb_budget_fit fit;
    CHECK(plan_all(&whole, topo) == 0);
    struct nprb_estimate full = nprb_plan_estimate(&whole, 0);
    CHECK(full.busy_s > full.idle_s && full.idle_s > 0);
    size_t headline = count_applicable(&whole, NPRB_PRIORITY_HEADLINE);
    CHECK(count_applicable(&whole, NPRB_PRIORITY_SWEEP) > 0 &&
          count_applicable(&whole, NPRB_PRIORITY_PER_NODE) > 0);

    /* A budget the plan fits, and none at all: nothing changes. */
    for (int b = 0; b < 2; b++) {
        CHECK(plan_all(&plan, topo) == 0);
        CHECK(nprb_budget_fit(&plan, b ? full.busy_s * 1.01 : 0, 1, 0, &fit) == 0);
        CHECK(fit.step_count == 0 && fit.dropped == 0 && plan.count == whole.count);
        nprb_plan_free(&plan);
    }

    /* The floor: a budget nothing fits is refused, and what is left is every bound latency
     * cell and local bandwidth cell, at the fewest samples, one pass, nothing else. */
    CHECK(plan_all(&plan, topo) == 0);
    CHECK(nprb_budget_fit(&plan, 1, 1, 0, &fit) != 0);
    nprb_budget_refusal(1, fit.after, err, sizeof err);
    CHECK_STR_CONTAINS(err, "time_budget 1s is too short");
    double floor_s = fit.after.busy_s;
    CHECK(floor_s > 1 && floor_s < full.busy_s / 4);
    size_t kept = 0;
    for (size_t k = 0; k < plan.count; k++) {
        const struct nprb_plan_item *item = &plan.items[k];
        CHECK(item->pass == 0);
        if (!applicable(item))
            continue;
        CHECK(floor_cell(item));
        CHECK(item->samples == 0 || item->samples == 11);
        CHECK(item->repetitions == 0 || item->repetitions == 5);
        kept++;
    }
    size_t floor_before = 0;
    for (size_t k = 0; k < whole.count; k++)
        floor_before += floor_cell(&whole.items[k]) && applicable(&whole.items[k]);
    CHECK(kept == floor_before && kept > 64);
    /* Whole experiments go the last in run order first, later passes naming them again or not. */
    CHECK(step_index(&fit, "numa_balancing (") < step_index(&fit, "first_touch ("));
    CHECK(step_index(&fit, "thread_scaling (") < step_index(&fit, "latency_sweep ("));
    CHECK(step_index(&fit, "latency_sweep (") < step_index(&fit, "numa_balancing ("));
    CHECK(step_index(&fit, "first_touch (") < step_index(&fit, "the headline cells' second"));
    nprb_plan_free(&plan);

    /* Just above the floor: it fits, the whole of the sweeps and per-node series went first. */
    CHECK(plan_all(&plan, topo) == 0);
    CHECK(nprb_budget_fit(&plan, floor_s * 1.02, 1, 0, &fit) == 0);
    CHECK(fit.after.busy_s <= floor_s * 1.02 && fit.step_count > 0);
    CHECK(count_applicable(&plan, NPRB_PRIORITY_SWEEP) == 0 &&
          count_applicable(&plan, NPRB_PRIORITY_PER_NODE) == 0);
    check_passes(&plan);
    nprb_plan_free(&plan);

    /* A budget the sweeps alone can meet: the headline and per-node items are untouched. */
    CHECK(plan_all(&plan, topo) == 0);
    double sweeps_s = 0;
    for (size_t k = 0; k < whole.count; k++)
        if (whole.items[k].experiment->priority == NPRB_PRIORITY_SWEEP)
            sweeps_s +=
                nprb_plan_cost_at(&whole, k).scaled_s * 2 + nprb_plan_cost_at(&whole, k).fixed_s;
    CHECK(sweeps_s > 0);
    double budget = full.busy_s - sweeps_s / 3;
    CHECK(nprb_budget_fit(&plan, budget, budget, 0, &fit) == 0);
    CHECK(step_index(&fit, "every second point of the sweeps") == 0);
    check_thinned_alike(&whole, &plan);
    CHECK(fit.after.busy_s <= budget && fit.dropped > 0);
    CHECK(plan.count == whole.count);
    CHECK(count_applicable(&plan, NPRB_PRIORITY_HEADLINE) == headline);
    CHECK(count_applicable(&plan, NPRB_PRIORITY_PER_NODE) ==
          count_applicable(&whole, NPRB_PRIORITY_PER_NODE));
    for (size_t k = 0; k < plan.count; k++) {
        const struct nprb_plan_item *item = &plan.items[k];
        if (item->experiment->priority != NPRB_PRIORITY_SWEEP)
            CHECK(item->samples == whole.items[k].samples &&
                  item->repetitions == whole.items[k].repetitions);
        else if (!applicable(item) && applicable(&whole.items[k]))
            CHECK_STR_CONTAINS(item->skip_reason, "dropped to fit time_budget");
    }
    check_passes(&plan);
    nprb_plan_free(&plan);

    nprb_plan_free(&whole);
    nprb_topo_destroy(topo);
    return CHECK_DONE();
}
