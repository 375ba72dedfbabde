/* SPDX-License-Identifier: BSD-3-Clause */
/* Headline figures measured in passes spread over the run: the pass columns of /latency,
 * /bandwidth and /c2c_latency, the headline chosen among the passes, and its uncertainty. */
#include "plan/passes.h"

#include "plan/descriptor.h"

#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What differs between two runs of any host even when nothing disturbs them: the physical pages
 * a buffer gets (their channels, banks and cache sets) and where the shared cache's other users
 * stand. Passes of one run share much of that, so their agreement alone can promise more than
 * a second run keeps (bench/README.md, "Noise"). */
#define FLOOR_PCT 1.0
/* The two best passes' distance, doubled: with three passes, the gap between the best two is
 * about as large as the run-to-run deviation of the best, and 80% coverage wants more. */
#define AGREEMENT_FACTOR 2.0

double nprb_passes_uncertainty_pct(const double *values, int count, bool higher_is_better,
                                   double burst_pct)
{
    double best = NAN, second = NAN;
    for (int k = 0; k < count; k++) {
        double v = values[k];
        if (!isfinite(v))
            continue;
        bool better_than_best = !isfinite(best) || (higher_is_better ? v > best : v < best);
        if (better_than_best) {
            second = best;
            best = v;
        } else if (!isfinite(second) || (higher_is_better ? v > second : v < second)) {
            second = v;
        }
    }
    if (!isfinite(best) || best <= 0)
        return NAN;
    double u = FLOOR_PCT;
    if (isfinite(burst_pct) && burst_pct > u)
        u = burst_pct;
    double apart = isfinite(second) ? AGREEMENT_FACTOR * 100 * fabs(best - second) / best : 0;
    return apart > u ? apart : u;
}

/* Where one row of a headline table keeps its pass columns and the facts that decide whether a
 * later pass may give the headline. */
struct view {
    int32_t *passes, *headline_pass;
    double *values, *uncertainty;
    char *note;
    size_t note_len;
    const char *status;
    double headline, burst_pct, on_target;
    int pinned; /* -1: the table does not say */
    bool higher_is_better;
};

/* The spread of one burst, in percent of its headline: how far the slower samples lie from the
 * figure reported (latency: the p90 above the median; a chase's fastest samples are the
 * cache's luck, not the memory's). NaN where the row has no figure. */
static double slower_pct(double median, double p90)
{
    return 100 * (p90 - median) / median;
}

static struct view view_of(enum nprb_table_id table, void *row)
{
    switch (table) {
    case NPRB_TABLE_LATENCY: {
        struct nprb_latency_row *r = row;
        return (struct view){&r->passes,
                             &r->headline_pass,
                             r->pass_values,
                             &r->uncertainty_pct,
                             r->note,
                             sizeof r->note,
                             r->status,
                             r->latency_ns_median,
                             slower_pct(r->latency_ns_median, r->latency_ns_p90),
                             r->pages_on_target_frac,
                             -1,
                             false};
    }
    case NPRB_TABLE_BANDWIDTH: {
        struct nprb_bandwidth_row *r = row;
        return (struct view){&r->passes,
                             &r->headline_pass,
                             r->pass_values,
                             &r->uncertainty_pct,
                             r->note,
                             sizeof r->note,
                             r->status,
                             r->gbs_best,
                             100 * (r->gbs_best - r->gbs_median) / r->gbs_best,
                             r->pages_on_target_frac,
                             r->threads_pinned_ok,
                             true};
    }
    case NPRB_TABLE_C2C_LATENCY: {
        struct nprb_c2c_row *r = row;
        return (struct view){&r->passes,
                             &r->headline_pass,
                             r->pass_values,
                             &r->uncertainty_pct,
                             r->note,
                             sizeof r->note,
                             r->status,
                             r->latency_ns_median,
                             slower_pct(r->latency_ns_median, r->latency_ns_p90),
                             r->pages_on_target_frac,
                             -1,
                             false};
    }
    default:
        return (struct view){0};
    }
}

/* A latency burst's five statistics, min to max, lie side by side in the latency and c2c rows:
 * one copy takes them all. */
#define LATENCY_NS_COUNT 5
_Static_assert(offsetof(struct nprb_latency_row, latency_ns_max) -
                       offsetof(struct nprb_latency_row, latency_ns_min) ==
                   (LATENCY_NS_COUNT - 1) * sizeof(double),
               "the latency row's statistics side by side");
_Static_assert(offsetof(struct nprb_c2c_row, latency_ns_max) -
                       offsetof(struct nprb_c2c_row, latency_ns_min) ==
                   (LATENCY_NS_COUNT - 1) * sizeof(double),
               "the c2c row's statistics side by side");

static void adopt_latency_ns(double *into_min, const double *from_min)
{
    memcpy(into_min, from_min, LATENCY_NS_COUNT * sizeof *into_min);
}

/* The figures of pass @p from that the row @p into takes when that pass gives the headline:
 * the burst's statistics and what they were timed over. Placement and counters stay the first
 * pass's (their rows join by measurement id), which a later pass only matches or betters. */
static void adopt(enum nprb_table_id table, void *into, const void *from)
{
    if (table == NPRB_TABLE_LATENCY) {
        struct nprb_latency_row *r = into;
        const struct nprb_latency_row *f = from;
        r->samples = f->samples;
        r->accesses_per_sample = f->accesses_per_sample;
        adopt_latency_ns(&r->latency_ns_min, &f->latency_ns_min);
    } else if (table == NPRB_TABLE_BANDWIDTH) {
        struct nprb_bandwidth_row *r = into;
        const struct nprb_bandwidth_row *f = from;
        r->repetitions = f->repetitions;
        r->passes_per_sample = f->passes_per_sample;
        r->gbs_best = f->gbs_best;
        r->gbs_median = f->gbs_median;
        r->gbs_worst = f->gbs_worst;
        r->bus_gbs_best = f->bus_gbs_best;
    } else if (table == NPRB_TABLE_C2C_LATENCY) {
        struct nprb_c2c_row *r = into;
        const struct nprb_c2c_row *f = from;
        r->samples = f->samples;
        r->transfers_per_sample = f->transfers_per_sample;
        adopt_latency_ns(&r->latency_ns_min, &f->latency_ns_min);
    }
}

void nprb_passes_first(enum nprb_table_id table, void *row)
{
    struct view v = view_of(table, row);
    if (v.passes == NULL)
        return;
    bool measured = isfinite(v.headline);
    *v.passes = measured ? 1 : 0;
    *v.headline_pass = 1;
    for (int k = 0; k < NPRB_MAX_PASSES; k++)
        v.values[k] = NAN;
    v.values[0] = measured ? v.headline : NAN;
    *v.uncertainty =
        measured ? nprb_passes_uncertainty_pct(v.values, 1, v.higher_is_better, v.burst_pct) : NAN;
}

static void add_note(const struct view *v, int pass, const char *why)
{
    size_t n = strlen(v->note);
    if (n + 1 < v->note_len)
        snprintf(v->note + n, v->note_len - n, "%spass %d %s", n ? "; " : "", pass + 1, why);
}

void nprb_passes_join(enum nprb_table_id table, void *row, const void *later, int pass)
{
    struct view first = view_of(table, row), l = view_of(table, (void *)later);
    if (first.passes == NULL || l.passes == NULL) /* not a table measured in passes */
        return;
    bool ok = strcmp(l.status, NPRB_ROW_OK) == 0 && isfinite(l.headline);
    if (!ok || strcmp(first.status, NPRB_ROW_OK) != 0 || !isfinite(first.headline)) {
        /* Nothing to compare: the figure keeps the uncertainty it had, and says why. */
        if (!ok)
            add_note(&first, pass, l.status);
        return;
    }
    if (*first.passes >= NPRB_MAX_PASSES)
        return;
    first.values[(*first.passes)++] = l.headline;
    /* A pass whose pages were less on target, or whose threads left their cores, measured
     * something else than the row says: its figure is kept among the passes, never as the
     * headline. */
    bool placed = !isfinite(first.on_target) || l.on_target >= first.on_target;
    bool pinned = first.pinned <= 0 || l.pinned > 0;
    bool better =
        first.higher_is_better ? l.headline > first.headline : l.headline < first.headline;
    double burst = first.burst_pct;
    if (better && placed && pinned) {
        adopt(table, row, later);
        *first.headline_pass = pass + 1;
        burst = l.burst_pct;
    } else if (better) {
        add_note(&first, pass, placed ? "left its cores" : "had fewer pages on target");
    }
    *first.uncertainty =
        nprb_passes_uncertainty_pct(first.values, *first.passes, first.higher_is_better, burst);
}

enum nprb_status nprb_passes_measure_again(struct nprb_context *ctx,
                                           const struct nprb_plan_item *item, size_t first_row,
                                           size_t row_count)
{
    enum nprb_table_id table = nprb_experiment_table(item->experiment);
    struct nprb_results *into = ctx->results, later;
    nprb_results_init(&later);
    ctx->results = &later;
    enum nprb_status st = nprb_experiment_measure(item->experiment)(ctx, item);
    ctx->results = into;
    const struct nprb_rows *got = &later.tables[table];
    struct nprb_rows *rows = &into->tables[table];
    /* Row k of this pass is row k of the first (an item's rows come in the same order each
     * time: a run's row, then its nodes'). */
    if (first_row != NPRB_NO_ROW && got->count == row_count &&
        first_row + row_count <= rows->count) {
        /* The watchdog thread may be copying these rows (results.h): not while one changes. */
        if (into->lock != NULL)
            pthread_mutex_lock(into->lock);
        for (size_t k = 0; k < row_count; k++)
            nprb_passes_join(table, nprb_row_mut(rows, first_row + k), nprb_row_at(got, k),
                             item->pass);
        if (into->lock != NULL)
            pthread_mutex_unlock(into->lock);
    }
    nprb_results_free(&later);
    return st;
}

/* The first passes fall in runs, one experiment's after another's: where each run ends (an
 * index, and the time model's seconds from the start) and which run each first pass is in. */
struct runs {
    size_t count, *end, *of;
    double *end_s;
};

static int runs_of(const struct nprb_plan *plan, size_t firsts, struct runs *r)
{
    r->count = 0;
    r->end = malloc(firsts * sizeof *r->end);
    r->of = malloc(firsts * sizeof *r->of);
    r->end_s = malloc(firsts * sizeof *r->end_s);
    if (r->end == NULL || r->of == NULL || r->end_s == NULL)
        return -1;
    double total = 0;
    for (size_t k = 0; k < firsts; k++) {
        struct nprb_item_cost c = nprb_plan_cost_at(plan, k);
        total += c.scaled_s + c.fixed_s;
        r->of[k] = r->count;
        if (k + 1 == firsts || plan->items[k + 1].experiment != plan->items[k].experiment) {
            r->end[r->count] = k + 1;
            r->end_s[r->count++] = total;
        }
    }
    return 0;
}

/* The first run from @p from on whose end is at @p target seconds or later (the last run when
 * none is). */
static size_t run_at(const struct runs *r, size_t from, double target)
{
    size_t lo = from, hi = r->count - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->end_s[mid] >= target * (1 - 1e-9))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

int nprb_passes_spread(struct nprb_plan *plan)
{
    size_t firsts = 0;
    while (firsts < plan->count && plan->items[firsts].pass == 0)
        firsts++;
    size_t laters = plan->count - firsts;
    if (laters == 0 || firsts == 0)
        return 0;
    struct runs r = {0};
    size_t *slot = malloc(laters * sizeof *slot);
    size_t *start = calloc(firsts + 1, sizeof *start); /* per run, where its passes begin */
    size_t *order = calloc(laters, sizeof *order);
    size_t *moved = malloc(firsts * sizeof *moved);
    struct nprb_plan_item *items = malloc(plan->count * sizeof *items);
    int rc = -1;
    if (runs_of(plan, firsts, &r) != 0 || slot == NULL || start == NULL || order == NULL ||
        moved == NULL || items == NULL)
        goto out;
    /* Pass p of n goes where the time model says p / (n - 1) of what is left after its
     * experiment has gone by, at the next boundary between experiments (a sweep keeps its
     * buffers from point to point, so nothing comes between them): the last pass at the end. */
    double total = r.end_s[r.count - 1];
    for (size_t i = 0; i < laters; i++) {
        const struct nprb_plan_item *later = &plan->items[firsts + i];
        size_t from = r.of[later->origin];
        int n = plan->items[later->origin].passes;
        double t0 = r.end_s[from];
        double target = n > 1 ? t0 + (total - t0) * later->pass / (n - 1) : total;
        slot[i] = run_at(&r, from, target);
        start[slot[i] + 1]++;
    }
    /* Grouped by run, each group in the plan's order: pass 2 of every cell before pass 3. */
    for (size_t k = 0; k < r.count; k++)
        start[k + 1] += start[k];
    for (size_t i = 0; i < laters; i++)
        order[start[slot[i]]++] = i;
    size_t out_count = 0, first = 0, placed = 0;
    for (size_t k = 0; k < r.count; k++) {
        for (; first < r.end[k]; first++) {
            moved[first] = out_count;
            items[out_count++] = plan->items[first];
        }
        for (; placed < start[k]; placed++) {
            items[out_count] = plan->items[firsts + order[placed]];
            items[out_count].origin = moved[items[out_count].origin];
            out_count++;
        }
    }
    memcpy(plan->items, items, plan->count * sizeof *items);
    nprb_plan_settle(plan);
    rc = 0;
out:
    free(r.end);
    free(r.of);
    free(r.end_s);
    free(slot);
    free(start);
    free(order);
    free(moved);
    free(items);
    return rc;
}
