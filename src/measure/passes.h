/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file passes.h
 * Headline figures measured apart in time. A matrix's bound cells are planned again at the end of
 * the run (plan.h: passes, pass, origin); each later pass measures into rows of its own, and its
 * headline joins the first pass's row: pass_values gets it, and uncertainty_pct becomes the
 * largest of every pass's burst spread and twice each later pass's distance from the first. One
 * burst of repetitions agrees with itself to a few percent where a neighbour's traffic moves the
 * figure by tens of percent over minutes; only passes apart in time see that.
 */
#ifndef NPRB_PASSES_H
#define NPRB_PASSES_H

#include "measure/experiment.h"

#include <stddef.h>

/** No row: the first pass of an item wrote none to join (it was not a single-row measurement). */
#define NPRB_NO_ROW ((size_t)-1)

/** The pass columns of a row just measured: one pass, its headline, the burst's spread. */
void nprb_passes_first_latency(struct nprb_latency_row *row);
void nprb_passes_first_bandwidth(struct nprb_bandwidth_row *row);

/**
 * Measures a later pass of @p item (item->pass > 0) into rows of its own, and joins its headline
 * to row @p first_row of the item's table in ctx->results (the first pass's). The later pass's
 * own rows (placement, counters) are not kept: the first pass's stand for the cell. A later pass
 * that did not measure is noted in the row and leaves its uncertainty as it was.
 * @return the measurement's status (a wrong answer is NPRB_ERR_VALIDATION, as on a first pass).
 */
enum nprb_status nprb_passes_measure_again(struct nprb_context *ctx,
                                           const struct nprb_plan_item *item, size_t first_row);

#endif
