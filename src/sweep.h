/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file sweep.h
 * Working-set sizes for the cache-hierarchy sweeps, and the cache levels a measured latency
 * curve shows. The measured curve is the truth: some virtual machines report cache sizes that
 * are plainly wrong, and a disagreement with hwloc is worth a warning.
 */
#ifndef NPRB_SWEEP_H
#define NPRB_SWEEP_H

#include <stddef.h>
#include <stdint.h>

/**
 * Sweep points from @p min to @p max bytes: every power of two, plus points below, at and above
 * each cache size given (0.75x, 1x, 1.5x; sizes of 0 are ignored), sorted and without
 * duplicates, each a multiple of 256 bytes. @return how many were written (at most @p cap).
 */
int nprb_sweep_points(const uint64_t *cache_bytes, int caches, uint64_t min, uint64_t max,
                      uint64_t *points, int cap);

/**
 * The step of a latency curve nearest a cache of @p cache_bytes: among neighbouring points with
 * the first size within [cache/4, 2*cache), the pair with the largest rise in latency (below:
 * an adjacent-line prefetcher fills a cache with two lines for each one used; not further above,
 * where the next level's step, often the larger, would be taken for this one), and at most 4x
 * apart (a step between points further apart cannot be placed). Writes
 * that pair's first size to *step and the rise (ratio, > 1 for a rise) to *rise.
 * @p sizes ascending. @return 0, or -1 when no pair lies in that range.
 */
int nprb_step_near(const uint64_t *sizes, const double *ns, int n, uint64_t cache_bytes,
                   uint64_t *step, double *rise);

#endif
