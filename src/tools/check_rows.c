/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-row rules of numaprobe check. Rows are read through the field descriptors, so a rule
 * names columns, and a table gains a rule by a line in a table below, not by new code. */
#include "tools/check_rows.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct reporter {
    nprb_row_report_fn fn;
    void *ctx;
    enum nprb_table_id table;
};

static void report(struct reporter *r, bool warning, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void report(struct reporter *r, bool warning, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    r->fn(r->ctx, r->table, warning, text);
}

#define LATENCY_NS                                                                                 \
    "latency_ns_min", "latency_ns_median", "latency_ns_p90", "latency_ns_p99", "latency_ns_max"

#define BANDWIDTH_GBS "gbs_best", "gbs_median", "gbs_worst", "bus_gbs_best"

/* The figures a user reads from an ok row: present (not NaN), not negative, and in order. A
 * time per access or a rate is above 0 as well: no measurement takes no time or moves nothing,
 * and the report divides by them (mlp's lines in flight are one latency over another). */
struct figure_rule {
    enum nprb_table_id table;
    const char *headline[8];
    const char *ordered[6];
    const char *positive[6];
};

static const struct figure_rule figure_rules[] = {
    {NPRB_TABLE_LATENCY, {LATENCY_NS, "pages_on_target_frac"}, {LATENCY_NS}, {LATENCY_NS}},
    {NPRB_TABLE_BANDWIDTH,
     {BANDWIDTH_GBS, "pages_on_target_frac"},
     {"gbs_worst", "gbs_median", "gbs_best"},
     {BANDWIDTH_GBS}},
    {NPRB_TABLE_LOADED_LATENCY,
     {"load_gbs", LATENCY_NS, "pages_on_target_frac"},
     {LATENCY_NS},
     {LATENCY_NS}},
    {NPRB_TABLE_C2C_LATENCY, {LATENCY_NS, "pages_on_target_frac"}, {LATENCY_NS}, {LATENCY_NS}},
    {NPRB_TABLE_BALANCING, {"t_s", "frac_on_to", "read_gbs"}, {NULL}, {NULL}},
    {NPRB_TABLE_COUNTERS,
     {"value_scaled", "time_enabled_s", "time_running_s"},
     {"time_running_s", "time_enabled_s"},
     {NULL}},
};

/* What a /c2c_latency row's pair shares and how the line was handed over (docs/SCHEMA.md). The
 * writer takes the class names from host/core_pairs.c, which this layer may not use:
 * test_check_names keeps the two lists the same. */
const char *const nprb_check_pair_classes[] = {"smt",       "same_l2",      "same_l3",
                                               "same_node", "same_package", "cross_package"};
const size_t nprb_check_pair_class_count =
    sizeof nprb_check_pair_classes / sizeof nprb_check_pair_classes[0];
static const char *const transfers[] = {"hitm", "hit"};

/* The row statuses of docs/SCHEMA.md "Conventions". */
static const char *const row_statuses[] = {NPRB_ROW_OK, NPRB_ROW_INVALID, NPRB_ROW_FAILED,
                                           NPRB_ROW_NOT_APPLICABLE};

static const struct nprb_field *column(const struct nprb_table_desc *d, const char *name)
{
    for (size_t i = 0; name != NULL && i < d->field_count; i++)
        if (strcmp(d->fields[i].name, name) == 0)
            return &d->fields[i];
    return NULL;
}

int32_t nprb_row_i32(const unsigned char *row, const struct nprb_field *field)
{
    int32_t v;
    memcpy(&v, row + field->offset, sizeof v);
    return v;
}

static double get_f64(const unsigned char *row, const struct nprb_field *f)
{
    double v;
    memcpy(&v, row + f->offset, sizeof v);
    return v;
}

static const char *get_text(const unsigned char *row, const struct nprb_field *f)
{
    return (const char *)row + f->offset;
}

static bool is_fraction(const struct nprb_field *f)
{
    size_t n = strlen(f->name);
    return f->kind == NPRB_FIELD_F64 &&
           ((n > 5 && strcmp(f->name + n - 5, "_frac") == 0) || strncmp(f->name, "frac_", 5) == 0);
}

void nprb_row_rules_init(struct nprb_row_rules *rules, enum nprb_table_id table)
{
    memset(rules, 0, sizeof *rules);
    rules->id = table;
    rules->desc = nprb_table_desc(table);
    rules->rank = column(rules->desc, "rank");
    rules->measurement = column(rules->desc, "measurement");
    rules->status = column(rules->desc, "status");
    rules->valid = column(rules->desc, "valid");
    rules->note = column(rules->desc, "note");
    for (size_t r = 0; r < sizeof figure_rules / sizeof figure_rules[0]; r++) {
        const struct figure_rule *rule = &figure_rules[r];
        if (rule->table != table)
            continue;
        /* A rule naming a column the descriptor lacks would check nothing, silently. */
        for (size_t i = 0; i < 8 && rule->headline[i] != NULL; i++)
            if ((rules->headline[i] = column(rules->desc, rule->headline[i])) == NULL)
                rules->unknown = rule->headline[i];
        for (size_t i = 0; i < 6 && rule->ordered[i] != NULL; i++)
            if ((rules->ordered[i] = column(rules->desc, rule->ordered[i])) == NULL)
                rules->unknown = rule->ordered[i];
        for (size_t i = 0; i < 6 && rule->positive[i] != NULL; i++)
            if ((rules->positive[i] = column(rules->desc, rule->positive[i])) == NULL)
                rules->unknown = rule->positive[i];
    }
    /* Found once here, not by name in every row: a fleet's file has tens of millions of rows. */
    const size_t room = sizeof rules->fractions / sizeof rules->fractions[0];
    for (size_t f = 0; f < rules->desc->field_count; f++) {
        if (!is_fraction(&rules->desc->fields[f]))
            continue;
        if (rules->fraction_count == room)
            rules->unknown = rules->desc->fields[f].name; /* more than the rules hold: a bug */
        else
            rules->fractions[rules->fraction_count++] = &rules->desc->fields[f];
    }
}

static bool check_status(const struct nprb_row_rules *v, const unsigned char *row, size_t i,
                         struct reporter *c)
{
    const char *status = get_text(row, v->status);
    bool known = false;
    for (size_t s = 0; s < sizeof row_statuses / sizeof row_statuses[0]; s++)
        known = known || strcmp(status, row_statuses[s]) == 0;
    bool ok = strcmp(status, NPRB_ROW_OK) == 0;
    if (!known)
        report(c, false,
               "/%s row %zu: status '%s' is not one of ok, invalid, failed, "
               "not_applicable",
               v->desc->name, i, status);
    if (v->valid != NULL && (row[v->valid->offset] == 1) != ok)
        report(c, false, "/%s row %zu: valid is %d but status is '%s'", v->desc->name, i,
               (int)(int8_t)row[v->valid->offset], status);
    if (v->note != NULL && !ok && known && strcmp(status, NPRB_ROW_INVALID) != 0 &&
        get_text(row, v->note)[0] == '\0')
        report(c, true, "/%s row %zu: status %s without a note saying why", v->desc->name, i,
               status);
    return ok;
}

static void check_figures(const struct nprb_row_rules *v, const unsigned char *row, size_t i,
                          bool ok, struct reporter *c)
{
    for (size_t f = 0; f < v->fraction_count; f++) {
        const struct nprb_field *fd = v->fractions[f];
        double x = get_f64(row, fd);
        bool unknown = strcmp(fd->name, "huge_page_frac") == 0 && x == -1.0; /* "-1 unknown" */
        if (!isnan(x) && !unknown && (x < 0.0 || x > 1.0))
            report(c, false, "/%s row %zu: %s = %g, outside [0, 1]", v->desc->name, i, fd->name, x);
    }
    if (!ok)
        return;
    for (size_t h = 0; h < 8 && v->headline[h] != NULL; h++) {
        double x = get_f64(row, v->headline[h]);
        if (!isfinite(x) || x < 0.0)
            report(c, false, "/%s row %zu: %s is %g in an ok row", v->desc->name, i,
                   v->headline[h]->name, x);
    }
    for (size_t p = 0; p < 6 && v->positive[p] != NULL; p++) {
        double x = get_f64(row, v->positive[p]);
        if (x == 0.0) /* NaN, infinities and negatives are the headline rule's */
            report(c, false,
                   "/%s row %zu: %s is 0 in an ok row (no measurement takes no time "
                   "or moves nothing)",
                   v->desc->name, i, v->positive[p]->name);
    }
    for (size_t o = 1; o < 6 && v->ordered[o] != NULL; o++) {
        double lo = get_f64(row, v->ordered[o - 1]), hi = get_f64(row, v->ordered[o]);
        if (lo > hi)
            report(c, false, "/%s row %zu: %s %g > %s %g", v->desc->name, i,
                   v->ordered[o - 1]->name, lo, v->ordered[o]->name, hi);
    }
}

static bool one_of(const char *text, const char *const *names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(text, names[i]) == 0)
            return true;
    return false;
}

/* A /counters row names a group and scope of docs/SCHEMA.md, and a row of the rank (measurement
 * -1) is one that says why an event cannot be counted. */
static void check_counter(const struct nprb_counter_row *c, size_t i, struct reporter *r)
{
    static const char *const groups[] = {"software", "core", "uncore", "vmstat"};
    static const char *const scopes[] = {"thread", "socket", "system"};
    if (!one_of(c->group, groups, sizeof groups / sizeof groups[0]))
        report(r, false, "/counters row %zu: group '%s' is not software, core, uncore or vmstat", i,
               c->group);
    if (!one_of(c->scope, scopes, sizeof scopes / sizeof scopes[0]))
        report(r, false, "/counters row %zu: scope '%s' is not thread, socket or system", i,
               c->scope);
    bool of_rank = c->measurement == -1,
         not_applicable = strcmp(c->status, NPRB_ROW_NOT_APPLICABLE) == 0;
    if (of_rank != not_applicable)
        report(r, false,
               "/counters row %zu: measurement %d with status %s (a rank's row, measurement -1, "
               "is exactly a not_applicable one)",
               i, (int)c->measurement, c->status);
    /* A perf counter (thread or socket scope; vmstat rows have no times) that was never enabled
     * counted nothing: its zero is no figure. */
    if (strcmp(c->status, NPRB_ROW_OK) == 0 && strcmp(c->group, "vmstat") != 0 &&
        c->time_enabled_s == 0)
        report(r, false, "/counters row %zu: %s is ok but was never enabled (time_enabled_s 0)", i,
               c->event);
}

/* A /c2c_latency row names a pair class and a transfer of docs/SCHEMA.md; "-" stands for the
 * class only in a row that measured no pair (not ok). */
static void check_c2c(const struct nprb_c2c_row *r, size_t i, struct reporter *c)
{
    bool ok = strcmp(r->status, NPRB_ROW_OK) == 0;
    if (!one_of(r->pair_class, nprb_check_pair_classes, nprb_check_pair_class_count) &&
        (ok || strcmp(r->pair_class, "-") != 0))
        report(c, false,
               "/c2c_latency row %zu: pair_class '%s' is not one of smt, same_l2, same_l3, "
               "same_node, same_package, cross_package%s",
               i, r->pair_class, ok ? "" : " or -");
    if (!one_of(r->transfer, transfers, sizeof transfers / sizeof transfers[0]))
        report(c, false, "/c2c_latency row %zu: transfer '%s' is not hitm or hit", i, r->transfer);
}

bool nprb_row_check(const struct nprb_row_rules *rules, const unsigned char *row, size_t index,
                    nprb_row_report_fn report_fn, void *ctx)
{
    struct reporter r = {report_fn, ctx, rules->id};
    if (rules->unknown != NULL)
        report(&r, false, "/%s: numaprobe's own rule names column %s, which it does not know",
               rules->desc->name, rules->unknown);
    bool ok = rules->status == NULL || check_status(rules, row, index, &r);
    check_figures(rules, row, index, ok, &r);
    /* The row's struct is read in place: the rows come from the descriptor's reader, each
     * row_bytes (a multiple of the struct's alignment) after the one before. */
    if (rules->id == NPRB_TABLE_COUNTERS)
        check_counter((const struct nprb_counter_row *)(const void *)row, index, &r);
    if (rules->id == NPRB_TABLE_C2C_LATENCY)
        check_c2c((const struct nprb_c2c_row *)(const void *)row, index, &r);
    return ok;
}
