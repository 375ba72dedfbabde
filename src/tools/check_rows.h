/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file check_rows.h
 * The rules one row of a results table keeps on its own, for `numaprobe check` (docs/SCHEMA.md,
 * "numaprobe check"): its status is one the schema names, `valid` agrees with it, fractions lie
 * in [0, 1], an ok row's headline figures are present, not negative and in order, and those
 * the report divides by (a latency, a bandwidth) above 0; a core-to-core row names a pair class
 * and a transfer the schema knows. The joins between rows and tables are check.c's.
 */
#ifndef NPRB_CHECK_ROWS_H
#define NPRB_CHECK_ROWS_H

#include "results/results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** A table's columns the rules look at, found once through its descriptor (NULL: absent). */
struct nprb_row_rules {
    enum nprb_table_id id;
    const struct nprb_table_desc *desc;
    const struct nprb_field *rank, *measurement, *status, *valid, *note;
    const struct nprb_field *headline[8]; /**< finite, not negative in an ok row */
    const struct nprb_field *ordered[6];  /**< non-decreasing in an ok row */
    const struct nprb_field *positive[6]; /**< above 0 in an ok row: the report divides by them */
    const char *unknown; /**< a column a rule names that the descriptor lacks (a bug) */
    const struct nprb_field *fractions[8]; /**< in [0, 1] where not NaN (`*_frac`, `frac_*`) */
    size_t fraction_count;
};

/** The pair classes a /c2c_latency row may name (the writer's, host/core_pairs.c). */
extern const char *const nprb_check_pair_classes[];
extern const size_t nprb_check_pair_class_count;

/** Receives one finding about a row, as a sentence ("/latency row 3: ..."). */
typedef void (*nprb_row_report_fn)(void *ctx, enum nprb_table_id table, bool warning,
                                   const char *text);

void nprb_row_rules_init(struct nprb_row_rules *rules, enum nprb_table_id table);

/** The int32 column @p field of @p row (rows as results.h lays them out). */
int32_t nprb_row_i32(const unsigned char *row, const struct nprb_field *field);

/**
 * Applies the rules to row @p index of the table, reporting each broken one.
 * @return whether the row's status is ok (true for tables without a status column).
 */
bool nprb_row_check(const struct nprb_row_rules *rules, const unsigned char *row, size_t index,
                    nprb_row_report_fn report_fn, void *ctx);

/**
 * The pass columns of row @p index of @p table (latency, bandwidth, c2c_latency; other tables:
 * nothing), check_passes.c: `passes` within what a row can hold, each counted pass a figure and
 * nothing past them, `headline_pass` one of them and the row's headline its figure, an
 * uncertainty that is a percentage. A file of schema minor @p minor before 0.17.0 has its pass
 * figures as text, read as absent: only `passes` and `uncertainty_pct` are held to the rules.
 * @p ok: the row's status is ok.
 */
void nprb_check_passes(enum nprb_table_id table, const unsigned char *row, size_t index, bool ok,
                       int minor, nprb_row_report_fn report_fn, void *ctx);

#endif
