/* SPDX-License-Identifier: BSD-3-Clause */
/* The rules of a headline row's pass columns for numaprobe check (declared in check_rows.h):
 * what plan/passes.c writes, so that a damaged count or figure is refused by row. */
#include "tools/check_rows.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

/* The minor whose pass_values are numbers. */
#define PASS_VALUES_SINCE_MINOR 17

struct pass_columns {
    const char *name; /* the table's */
    int32_t passes, headline_pass;
    const double *values;
    double headline, uncertainty;
};

static bool columns_of(enum nprb_table_id table, const unsigned char *row, struct pass_columns *p)
{
    switch (table) {
    case NPRB_TABLE_LATENCY: {
        const struct nprb_latency_row *r = (const void *)row;
        *p = (struct pass_columns){
            "latency",         r->passes, r->headline_pass, r->pass_values, r->latency_ns_median,
            r->uncertainty_pct};
        return true;
    }
    case NPRB_TABLE_BANDWIDTH: {
        const struct nprb_bandwidth_row *r = (const void *)row;
        *p = (struct pass_columns){"bandwidth",    r->passes,   r->headline_pass,
                                   r->pass_values, r->gbs_best, r->uncertainty_pct};
        return true;
    }
    case NPRB_TABLE_C2C_LATENCY: {
        const struct nprb_c2c_row *r = (const void *)row;
        *p = (struct pass_columns){"c2c_latency",        r->passes,
                                   r->headline_pass,     r->pass_values,
                                   r->latency_ns_median, r->uncertainty_pct};
        return true;
    }
    default:
        return false;
    }
}

static void say(nprb_row_report_fn fn, void *ctx, enum nprb_table_id table, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void say(nprb_row_report_fn fn, void *ctx, enum nprb_table_id table, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fn(ctx, table, false, text);
}

void nprb_check_passes(enum nprb_table_id table, const unsigned char *row, size_t index, bool ok,
                       int minor, nprb_row_report_fn report_fn, void *ctx)
{
    struct pass_columns p;
    if (!columns_of(table, row, &p))
        return;
    /* The row's struct is read whole: the rows come from the descriptor's reader. */
    if (p.passes < 0 || p.passes > NPRB_MAX_PASSES) {
        say(report_fn, ctx, table, "/%s row %zu: passes = %d, outside 0..%d", p.name, index,
            (int)p.passes, NPRB_MAX_PASSES);
        return;
    }
    if (!isnan(p.uncertainty) && !(p.uncertainty >= 0 && isfinite(p.uncertainty)))
        say(report_fn, ctx, table, "/%s row %zu: uncertainty_pct = %g, not a percentage", p.name,
            index, p.uncertainty);
    if (minor >= 0 && minor < PASS_VALUES_SINCE_MINOR)
        return;
    if (ok && p.passes > 0 && isnan(p.uncertainty))
        say(report_fn, ctx, table,
            "/%s row %zu: an ok row measured in %d pass(es) without an uncertainty_pct", p.name,
            index, (int)p.passes);
    for (int k = 0; k < NPRB_MAX_PASSES; k++) {
        double v = p.values[k];
        if (k < p.passes && !(isfinite(v) && v > 0))
            say(report_fn, ctx, table, "/%s row %zu: pass_values[%d] = %g, but passes = %d", p.name,
                index, k, v, (int)p.passes);
        else if (k >= p.passes && !isnan(v))
            say(report_fn, ctx, table, "/%s row %zu: pass_values[%d] = %g past passes = %d", p.name,
                index, k, v, (int)p.passes);
    }
    if (!ok || p.passes == 0)
        return;
    if (p.headline_pass < 1 || p.headline_pass > p.passes)
        say(report_fn, ctx, table, "/%s row %zu: headline_pass = %d, not one of the %d pass(es)",
            p.name, index, (int)p.headline_pass, (int)p.passes);
    else if (p.values[p.headline_pass - 1] != p.headline)
        say(report_fn, ctx, table,
            "/%s row %zu: the headline %g is not pass %d's figure %g (pass_values)", p.name, index,
            p.headline, (int)p.headline_pass, p.values[p.headline_pass - 1]);
}
