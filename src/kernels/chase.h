/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file chase.h
 * The dependent-load loop of the latency measurement, alone in its translation unit so that its
 * machine code can be read with objdump: one mov per access, nothing else in the loop body.
 */
#ifndef NPRB_CHASE_H
#define NPRB_CHASE_H

#include <stdint.h>

/** Number of loads one loop iteration makes; nprb_chase() steps are rounded up to it. */
#define NPRB_CHASE_UNROLL 16

/**
 * Follows the chain from @p start for @p steps loads (a multiple of NPRB_CHASE_UNROLL) and
 * returns where it stopped. Each load's address comes from the previous load, so the time per
 * step is the load-to-use latency of wherever the chain lives.
 */
void *nprb_chase(void *start, uint64_t steps);

/** Most chains nprb_chase_parallel() interleaves (multichase's parallel chases go to 16 too). */
#define NPRB_CHASE_MAX_CHAINS 16

/**
 * Follows @p chains independent chains (1 to NPRB_CHASE_MAX_CHAINS), one load of each in turn,
 * @p steps loads per chain, and leaves each chain's position in @p heads. The loads of one round
 * do not depend on each other, so the core keeps up to @p chains misses in flight: the time per
 * load falls with @p chains until the core's miss buffers or the memory are full (memory-level
 * parallelism).
 */
void nprb_chase_parallel(void **heads, unsigned chains, uint64_t steps);

#endif
