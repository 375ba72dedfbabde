/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file budget.h
 * A plan fitted to a time budget (the time_budget key, --time-budget): what a site can spare for
 * a drained node's nightly check. The plan gives up, in this order, until the high end of its
 * estimate fits:
 *   1. every second value along the sweeps' axes (descriptor.h), twice; then each sweep, the
 *      last in run order first;
 *   2. the same for the per-node experiments (first_touch, loaded_latency, numa_balancing);
 *   3. half the headline matrices' samples and repetitions, twice (not below 11 and 5);
 *   4. the headline cells' later passes, the third and on, then the second;
 *   5. the matrices' extra policy cells (interleave, preferred, first touch);
 *   6. bandwidth_matrix's remote cells.
 * What is left then, the floor, is every node's idle latency, its local bandwidth and the full
 * bound latency matrix: a fleet verdict's minimum. A budget the floor does not fit is refused.
 * A dropped item stays in the plan as "not applicable" with the reason, so that its row says
 * why the figure is missing; a dropped later pass leaves the plan.
 */
#ifndef NPRB_BUDGET_H
#define NPRB_BUDGET_H

#include "plan/plan.h"

#include <stddef.h>

#define NPRB_BUDGET_MAX_STEPS 32

/** What fitting did: the steps taken, in order, and the estimate after them. */
struct nprb_budget_fit {
    int step_count;
    char step[NPRB_BUDGET_MAX_STEPS][128]; /**< "every second point of the sweeps (120 ...)" */
    size_t dropped; /**< measurements dropped (thinned sweeps too) and later passes removed */
    size_t trimmed; /**< headline measurements left with fewer samples or repetitions */
    struct nprb_estimate after;
};

/**
 * Fits @p plan to @p share_s seconds (the high end of nprb_plan_estimate() at
 * @p first_touch_bps): this rank's share of @p budget_s, the budget as set, which the rows'
 * reasons name. @p share_s 0: no budget.
 * @return 0 (it fits, perhaps with nothing dropped), or -1 when even the floor needs longer:
 * the plan is then the floor, and fit->after what it needs.
 */
int nprb_budget_fit(struct nprb_plan *plan, double share_s, double budget_s, double first_touch_bps,
                    struct nprb_budget_fit *fit);

/** What @p plan's floor would take (nprb_budget_fit() on a copy, to nothing). */
struct nprb_estimate nprb_budget_floor(const struct nprb_plan *plan, double first_touch_bps);

/**
 * The message refusing @p budget_s for a host whose floor needs @p floor (the sum over the
 * host's ranks of fit->after: a rank at its floor may still fit beside another's spare time).
 */
void nprb_budget_refusal(double budget_s, struct nprb_estimate floor, char *err, size_t errlen);

/** @p seconds as a budget is written: "5min", "2h", "90s". */
void nprb_budget_words(double seconds, char *buf, size_t len);

#endif
