/* SPDX-License-Identifier: BSD-3-Clause */
/* Headline figures measured apart in time: the pass columns of /latency and /bandwidth. */
#include "measure/passes.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The spread of one burst, in percent of its headline: how far the slower samples lie from the
 * figure reported (latency: the p90 above the median; a chase's fastest samples are the
 * cache's luck, not the memory's). NaN where the row has no figure. */
static double latency_burst_pct(const struct nprb_latency_row *row)
{
    return 100 * (row->latency_ns_p90 - row->latency_ns_median) / row->latency_ns_median;
}

static double bandwidth_burst_pct(const struct nprb_bandwidth_row *row)
{
    return 100 * (row->gbs_best - row->gbs_median) / row->gbs_best;
}

static void first(int32_t *passes, char *values, size_t len, double *uncertainty, double headline,
                  double burst)
{
    bool measured = isfinite(headline);
    *passes = measured ? 1 : 0;
    values[0] = '\0';
    if (measured)
        snprintf(values, len, "%.6g", headline);
    *uncertainty = measured && isfinite(burst) ? burst : NAN;
}

void nprb_passes_first_latency(struct nprb_latency_row *row)
{
    first(&row->passes, row->pass_values, sizeof row->pass_values, &row->uncertainty_pct,
          row->latency_ns_median, latency_burst_pct(row));
}

void nprb_passes_first_bandwidth(struct nprb_bandwidth_row *row)
{
    first(&row->passes, row->pass_values, sizeof row->pass_values, &row->uncertainty_pct,
          row->gbs_best, bandwidth_burst_pct(row));
}

/* The pass columns and note of a first-pass row, and the later pass's headline and status. */
struct joined {
    int32_t *passes;
    char *values;
    size_t values_len;
    double *uncertainty;
    char *note;
    size_t note_len;
    const char *first_status;
    double first_headline;
};

static void join(const struct joined *j, int pass, const char *status, double headline,
                 double burst)
{
    size_t used = strlen(j->values);
    bool ok = strcmp(status, NPRB_ROW_OK) == 0 && isfinite(headline);
    if (!ok || strcmp(j->first_status, NPRB_ROW_OK) != 0 || !isfinite(j->first_headline)) {
        /* Nothing to compare: the figure keeps the uncertainty it had, and says why. */
        size_t n = strlen(j->note);
        if (!ok && n + 1 < j->note_len)
            snprintf(j->note + n, j->note_len - n, "%spass %d %s", n ? "; " : "", pass + 1, status);
        return;
    }
    if (used + 1 < j->values_len)
        snprintf(j->values + used, j->values_len - used, " %.6g", headline);
    (*j->passes)++;
    /* Twice the distance: a few passes of one run see only part of the run-to-run spread (on
     * a VM shared with other tenants, the calibration test's five runs wanted a factor of 2 for
     * 80% coverage; bench/README.md, "Noise"). */
    double apart = 2 * 100 * fabs(headline - j->first_headline) / j->first_headline;
    double u = *j->uncertainty;
    u = isfinite(u) && u > apart ? u : apart;
    *j->uncertainty = isfinite(burst) && burst > u ? burst : u;
}

enum nprb_status nprb_passes_measure_again(struct nprb_context *ctx,
                                           const struct nprb_plan_item *item, size_t first_row)
{
    enum nprb_table_id table = nprb_experiment_table(item->experiment);
    struct nprb_results *into = ctx->results, later;
    nprb_results_init(&later);
    ctx->results = &later;
    enum nprb_status st = nprb_experiment_measure(item->experiment)(ctx, item);
    ctx->results = into;
    const struct nprb_rows *got = &later.tables[table];
    struct nprb_rows *rows = &into->tables[table];
    if (got->count == 1 && first_row != NPRB_NO_ROW && first_row < rows->count) {
        /* The watchdog thread may be copying these rows (results.h): not while one changes. */
        if (into->lock != NULL)
            pthread_mutex_lock(into->lock);
        void *row = (char *)rows->data + first_row * rows->row_bytes;
        if (table == NPRB_TABLE_LATENCY) {
            struct nprb_latency_row *r = row;
            const struct nprb_latency_row *l = (const void *)got->data;
            struct joined j = {
                &r->passes,     r->pass_values, sizeof r->pass_values, &r->uncertainty_pct, r->note,
                sizeof r->note, r->status,      r->latency_ns_median};
            join(&j, item->pass, l->status, l->latency_ns_median, latency_burst_pct(l));
        } else if (table == NPRB_TABLE_BANDWIDTH) {
            struct nprb_bandwidth_row *r = row;
            const struct nprb_bandwidth_row *l = (const void *)got->data;
            struct joined j = {&r->passes,          r->pass_values, sizeof r->pass_values,
                               &r->uncertainty_pct, r->note,        sizeof r->note,
                               r->status,           r->gbs_best};
            join(&j, item->pass, l->status, l->gbs_best, bandwidth_burst_pct(l));
        }
        if (into->lock != NULL)
            pthread_mutex_unlock(into->lock);
    }
    nprb_results_free(&later);
    return st;
}
