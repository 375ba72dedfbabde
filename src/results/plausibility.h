/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file plausibility.h
 * Plausibility flags: figures a user should look at twice. A flag never changes a figure or a
 * status; it is a word in the row's `flags` column (comma-separated), and the stdout matrices mark
 * a flagged cell with '?'. Emulated machines raise them by design; on real hosts they point at
 * interference (another job, a noisy neighbour, a throttled package) or at firmware that
 * misdescribes the machine.
 *
 * - unstable: a latency row whose p99 exceeds NPRB_UNSTABLE_P99_RATIO x its median, or a
 *   bandwidth row whose best exceeds NPRB_UNSTABLE_BEST_RATIO x its median.
 * - remote_faster_than_local: a matrix cell bound to another node's memory that beats the row's
 *   local cell by more than NPRB_REMOTE_FASTER_MARGIN (latency lower, bandwidth higher). Cells on
 *   memory-only nodes are left out: such memory (HBM, CXL) may really be faster or slower.
 * - row_outlier: a matrix cell more than NPRB_ROW_OUTLIER_FACTOR x above or below the median of
 *   its row's bound cells (rows of 3 or more cells).
 */
#ifndef NPRB_PLAUSIBILITY_H
#define NPRB_PLAUSIBILITY_H

#include "results/results.h"

#define NPRB_UNSTABLE_P99_RATIO 2.0
#define NPRB_UNSTABLE_BEST_RATIO 1.5
#define NPRB_REMOTE_FASTER_MARGIN 0.10
#define NPRB_ROW_OUTLIER_FACTOR 5.0

/** Sets the flags of every ok latency, bandwidth and loaded-latency row of @p results. */
void nprb_flag_implausible(struct nprb_results *results);

#endif
