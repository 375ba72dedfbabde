/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file passes.h
 * Headline figures measured in passes spread over the run. A headline cell's later passes are
 * planned after its first (plan.h: passes, pass, origin) and spread over what is left of the
 * run; each later pass measures into rows of its own and joins the first pass's row: its figure
 * goes into pass_values, and the row gives the best pass (a bandwidth's highest, a latency's
 * lowest: interference only lowers the one and raises the other). The uncertainty comes from
 * the agreement of the two best passes, the headline pass's own burst and a floor for what
 * differs between runs (nprb_passes_uncertainty_pct), so that one disturbed pass whose
 * companions agree does not make a figure noisy.
 */
#ifndef NPRB_PASSES_H
#define NPRB_PASSES_H

#include "plan/descriptor.h"
#include "plan/plan.h"

#include <stdbool.h>
#include <stddef.h>

/** No row: the first pass of an item wrote none to join. */
#define NPRB_NO_ROW ((size_t)-1)

/**
 * The one rule for a headline's relative uncertainty, in percent: the largest of a floor of 1%,
 * @p burst_pct (the headline pass's own spread) and twice the distance between the two best of
 * the @p count pass figures @p values (NaN ones ignored) over the best.
 * @return NaN when no value is finite and positive.
 */
double nprb_passes_uncertainty_pct(const double *values, int count, bool higher_is_better,
                                   double burst_pct);

/** The pass columns of a row of @p table (latency, bandwidth, c2c_latency) just measured: one
 * pass, its figure, its uncertainty. Other tables: nothing. */
void nprb_passes_first(enum nprb_table_id table, void *row);

/**
 * Joins row @p later of pass @p pass (0: the first) to the first pass's @p row of @p table: its
 * figure goes into pass_values, its statistics into the row when it is the best pass so far and
 * its pages were on target (and its threads pinned) as the first's were, and the uncertainty is
 * reckoned again. A pass that did not measure is noted in the row, which keeps what it had.
 */
void nprb_passes_join(enum nprb_table_id table, void *row, const void *later, int pass);

/**
 * Measures a later pass of @p item (item->pass > 0) into rows of its own and joins them, row by
 * row, to the @p row_count rows its first pass wrote from @p first_row on in ctx->results. The
 * later pass's other rows (placement, counters) are not kept. A later pass that did not
 * measure, or wrote another number of rows, is noted or left out; the row keeps what it had.
 * @return the measurement's status (a wrong answer is NPRB_ERR_VALIDATION, as on a first pass).
 */
enum nprb_status nprb_passes_measure_again(struct nprb_context *ctx,
                                           const struct nprb_plan_item *item, size_t first_row,
                                           size_t row_count);

/**
 * Moves the later passes, which plan building appends after every first pass, to boundaries
 * between experiments spread over the rest of the run (by the time model: pass p of n at p /
 * (n - 1) of the time left after its experiment, the last at the end), keeping each one's
 * origin. Run after the time budget has fitted the plan. @return 0, or -1 out of memory (the
 * plan is left as it was).
 */
int nprb_passes_spread(struct nprb_plan *plan);

#endif
