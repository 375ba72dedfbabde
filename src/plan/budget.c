/* SPDX-License-Identifier: BSD-3-Clause */
/* The plan fitted to a time budget, step by step in the order budget.h documents. */
#include "plan/budget.h"

#include "plan/descriptor.h"
#include "util/units.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Below these a headline cell's median and p90 rest on too few samples to compare hosts. */
enum { FEWEST_SAMPLES = 11, FEWEST_REPETITIONS = 5 };

/* The most experiments a plan holds (the registry's, with room to grow). */
enum { MAX_EXPERIMENTS = 32 };

struct fitting {
    struct nprb_plan *plan;
    double budget_s, first_touch_bps;
    char words[32];
    struct nprb_budget_fit *fit;
};

void nprb_budget_words(double seconds, char *buf, size_t len)
{
    if (seconds >= 3600 && fmod(seconds, 3600) == 0)
        snprintf(buf, len, "%.0fh", seconds / 3600);
    else if (seconds >= 60 && fmod(seconds, 60) == 0)
        snprintf(buf, len, "%.0fmin", seconds / 60);
    else
        snprintf(buf, len, "%gs", seconds);
}

static bool first_applicable(const struct nprb_plan_item *item)
{
    return item->pass == 0 && item->skip_reason[0] == '\0';
}

static void drop(const struct fitting *f, struct nprb_plan_item *item, const char *what)
{
    snprintf(item->skip_reason, sizeof item->skip_reason,
             "not applicable: dropped to fit time_budget %s (%s)", f->words, what);
}

/* Later passes whose first pass was dropped, or past their first pass's count, leave the plan.
 * First passes come before every later one, so their indexes (a later pass's origin) hold. */
static void settle(struct nprb_plan *plan)
{
    size_t kept = 0;
    for (size_t k = 0; k < plan->count; k++) {
        const struct nprb_plan_item *item = &plan->items[k];
        const struct nprb_plan_item *origin = item->pass > 0 ? &plan->items[item->origin] : NULL;
        if (origin != NULL && (origin->skip_reason[0] != '\0' || item->pass >= origin->passes))
            continue;
        plan->items[kept++] = *item;
    }
    plan->count = kept;
    nprb_plan_settle(plan);
}

/* Records a step that changed @p n measurements, adding them to @p tally (dropped or
 * trimmed). @return whether the plan fits now. */
static bool step(struct fitting *f, size_t n, size_t *tally, const char *what)
{
    struct nprb_budget_fit *fit = f->fit;
    if (n > 0) {
        settle(f->plan);
        *tally += n;
        if (fit->step_count < NPRB_BUDGET_MAX_STEPS)
            snprintf(fit->step[fit->step_count++], sizeof fit->step[0], "%s (%zu measurement%s)",
                     what, n, n == 1 ? "" : "s");
    }
    fit->after = nprb_plan_estimate(f->plan, f->first_touch_bps);
    return fit->after.busy_s <= f->budget_s;
}

static bool taken(struct fitting *f, size_t n, const char *what)
{
    return step(f, n, &f->fit->dropped, what);
}

static bool trimmed(struct fitting *f, size_t n, const char *what)
{
    return step(f, n, &f->fit->trimmed, what);
}

/* The experiments of @p priority in run order (their first passes' order: later passes come at
 * the end of the plan and name an experiment again). @return how many. */
static int experiments_of(const struct nprb_plan *plan, enum nprb_priority priority,
                          const struct nprb_experiment **order)
{
    int count = 0;
    for (size_t k = 0; k < plan->count && plan->items[k].pass == 0; k++) {
        const struct nprb_experiment *e = plan->items[k].experiment;
        if (e->priority == priority && count < MAX_EXPERIMENTS &&
            (count == 0 || order[count - 1] != e))
            order[count++] = e;
    }
    return count;
}

static uint64_t axis_value(const struct nprb_plan_item *item)
{
    switch (item->experiment->axis) {
    case NPRB_AXIS_SIZE:
        return item->size_bytes;
    case NPRB_AXIS_STRIDE:
        return item->pattern.stride_bytes;
    case NPRB_AXIS_THREADS:
        return (uint64_t)item->threads;
    case NPRB_AXIS_OWN:
        return item->axis_point;
    case NPRB_AXIS_NONE:
        break;
    }
    return 0;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Every second value still planned along experiment @p e's axis: each of its curves (a
 * pattern's, a kernel's, a node pair's; they interleave in the plan) loses the same points and
 * keeps its first. @return the items dropped. */
static size_t thin_experiment(const struct fitting *f, const struct nprb_experiment *e,
                              const char *what)
{
    size_t count = 0, distinct = 0, n = 0;
    for (size_t k = 0; k < f->plan->count; k++)
        count += f->plan->items[k].experiment == e && first_applicable(&f->plan->items[k]);
    uint64_t *values = count > 0 ? malloc(count * sizeof *values) : NULL;
    if (values == NULL)
        return 0; /* nothing to thin, or no memory to do it: the next step drops it whole */
    for (size_t k = 0; k < f->plan->count; k++)
        if (f->plan->items[k].experiment == e && first_applicable(&f->plan->items[k]))
            values[distinct++] = axis_value(&f->plan->items[k]);
    qsort(values, distinct, sizeof *values, by_value);
    size_t unique = 0;
    for (size_t v = 0; v < distinct; v++)
        if (unique == 0 || values[unique - 1] != values[v])
            values[unique++] = values[v];
    for (size_t k = 0; k < f->plan->count; k++) {
        struct nprb_plan_item *item = &f->plan->items[k];
        if (item->experiment != e || !first_applicable(item))
            continue;
        uint64_t value = axis_value(item);
        const uint64_t *at = bsearch(&value, values, unique, sizeof *values, by_value);
        if (at != NULL && (at - values) % 2 == 1) {
            drop(f, item, what);
            n++;
        }
    }
    free(values);
    return n;
}

static size_t thin(const struct fitting *f, enum nprb_priority priority, const char *what)
{
    const struct nprb_experiment *order[MAX_EXPERIMENTS];
    int count = experiments_of(f->plan, priority, order);
    size_t n = 0;
    for (int e = 0; e < count; e++)
        if (order[e]->axis != NPRB_AXIS_NONE)
            n += thin_experiment(f, order[e], what);
    return n;
}

static size_t drop_experiment(const struct fitting *f, const struct nprb_experiment *e,
                              const char *what)
{
    size_t n = 0;
    for (size_t k = 0; k < f->plan->count; k++) {
        struct nprb_plan_item *item = &f->plan->items[k];
        if (item->experiment == e && first_applicable(item)) {
            drop(f, item, what);
            n++;
        }
    }
    return n;
}

/* Thins, then drops, the experiments of @p priority (@p group names them). */
static bool shed(struct fitting *f, enum nprb_priority priority, const char *group)
{
    char what[96];
    for (int round = 0; round < 2; round++) {
        snprintf(what, sizeof what, "every second %spoint of %s", round ? "remaining " : "", group);
        if (taken(f, thin(f, priority, what), what))
            return true;
    }
    /* Whole experiments, the last in run order first. */
    const struct nprb_experiment *order[MAX_EXPERIMENTS];
    int count = experiments_of(f->plan, priority, order);
    while (count-- > 0) {
        snprintf(what, sizeof what, "%s", nprb_experiment_name(order[count]));
        if (taken(f, drop_experiment(f, order[count], what), what))
            return true;
    }
    return false;
}

static size_t halve_repetitions(const struct fitting *f)
{
    size_t n = 0;
    for (size_t k = 0; k < f->plan->count; k++) {
        struct nprb_plan_item *item = &f->plan->items[k];
        if (item->experiment->priority != NPRB_PRIORITY_HEADLINE || item->skip_reason[0] != '\0')
            continue;
        bool changed = false;
        if (item->samples > FEWEST_SAMPLES) {
            item->samples = item->samples / 2 > FEWEST_SAMPLES ? item->samples / 2 : FEWEST_SAMPLES;
            changed = true;
        }
        if (item->repetitions > FEWEST_REPETITIONS) {
            item->repetitions = item->repetitions / 2 > FEWEST_REPETITIONS ? item->repetitions / 2
                                                                           : FEWEST_REPETITIONS;
            changed = true;
        }
        n += changed && item->pass == 0; /* a measurement, with its later passes */
    }
    return n;
}

/* Every first pass keeps at most @p keep passes. @return the later passes that go. */
static size_t drop_passes(const struct fitting *f, int keep)
{
    size_t n = 0;
    for (size_t k = 0; k < f->plan->count; k++) {
        struct nprb_plan_item *item = &f->plan->items[k];
        if (item->pass >= keep)
            n++;
        else if (item->pass == 0 && item->passes > keep)
            item->passes = keep;
    }
    return n;
}

static bool policy_cell(const struct nprb_plan_item *item)
{
    return item->policy != NPRB_MEM_BIND || item->mem_node < 0;
}

static bool remote_bandwidth_cell(const struct nprb_plan_item *item)
{
    return nprb_experiment_table(item->experiment) == NPRB_TABLE_BANDWIDTH &&
           item->cpu_node != item->mem_node;
}

static size_t drop_cells(const struct fitting *f, bool (*which)(const struct nprb_plan_item *),
                         const char *what)
{
    size_t n = 0;
    for (size_t k = 0; k < f->plan->count; k++) {
        struct nprb_plan_item *item = &f->plan->items[k];
        if (item->experiment->priority == NPRB_PRIORITY_HEADLINE && first_applicable(item) &&
            which(item)) {
            drop(f, item, what);
            n++;
        }
    }
    return n;
}

static bool trim_headline(struct fitting *f)
{
    if (trimmed(f, halve_repetitions(f), "half the matrices' samples and repetitions") ||
        trimmed(f, halve_repetitions(f), "half the matrices' remaining samples and repetitions") ||
        taken(f, drop_passes(f, 2), "the headline cells' third and later passes") ||
        taken(f, drop_passes(f, 1), "the headline cells' second pass"))
        return true;
    const char *policies = "the matrices' interleave, preferred and first-touch cells";
    if (taken(f, drop_cells(f, policy_cell, policies), policies))
        return true;
    const char *remote = "bandwidth_matrix's remote cells";
    return taken(f, drop_cells(f, remote_bandwidth_cell, remote), remote);
}

int nprb_budget_fit(struct nprb_plan *plan, double share_s, double budget_s, double first_touch_bps,
                    struct nprb_budget_fit *fit)
{
    memset(fit, 0, sizeof *fit);
    struct fitting f = {
        .plan = plan, .budget_s = share_s, .first_touch_bps = first_touch_bps, .fit = fit};
    nprb_budget_words(budget_s, f.words, sizeof f.words);
    fit->after = nprb_plan_estimate(plan, first_touch_bps);
    if (share_s <= 0 || taken(&f, 0, "") || shed(&f, NPRB_PRIORITY_SWEEP, "the sweeps") ||
        shed(&f, NPRB_PRIORITY_PER_NODE, "the per-node series") || trim_headline(&f))
        return 0;
    return -1;
}

struct nprb_estimate nprb_budget_floor(const struct nprb_plan *plan, double first_touch_bps)
{
    struct nprb_plan copy = *plan;
    copy.items = malloc(plan->count * sizeof *copy.items + 1);
    if (copy.items == NULL) /* no room to try: the plan as it is, which is no smaller */
        return nprb_plan_estimate(plan, first_touch_bps);
    memcpy(copy.items, plan->items, plan->count * sizeof *copy.items);
    struct nprb_budget_fit fit;
    nprb_budget_fit(&copy, 1e-9, 1e-9, first_touch_bps, &fit);
    free(copy.items);
    return fit.after;
}

void nprb_budget_refusal(double budget_s, struct nprb_estimate floor, char *err, size_t errlen)
{
    char words[32], need[80];
    nprb_budget_words(budget_s, words, sizeof words);
    nprb_format_duration_range(floor.idle_s, floor.busy_s, need, sizeof need);
    snprintf(err, errlen,
             "time_budget %s is too short for this host: every node's idle latency and local "
             "bandwidth and the bound latency matrix alone need %s (raise time_budget, or "
             "shrink latency_matrix.size and bandwidth_matrix.size)",
             words, need);
}
