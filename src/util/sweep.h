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
 * The largest size of an auto sweep: 4x the last-level cache, where a chase misses it three times
 * in four (the memory plateau), but at most 1 GiB. Per-core-complex L3s are at most a few hundred
 * MiB (1 GiB is still over 3x the largest shipped, 320 MiB); a larger figure is a whole socket's
 * or a virtual machine's misreport, and 4x of it made a quick run of a 260 MiB-L3 guest sweep to
 * 1 GiB and a 1 GiB-L3 one to 4 GiB, paying allocation, first touch and chain building at each
 * point. A max_size set in the config is taken as it is.
 */
#define NPRB_SWEEP_AUTO_CAP (UINT64_C(1) << 30)
uint64_t nprb_sweep_auto_max(uint64_t llc_bytes);

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
