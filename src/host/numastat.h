/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file numastat.h
 * The kernel's per-node allocation counters (/sys/devices/system/node/nodeN/numastat), read
 * around each measurement so its rows carry what the kernel itself saw: allocations satisfied on
 * the intended node (numa_hit), elsewhere (numa_miss, numa_foreign), by interleave, and by where
 * the allocating task ran (local_node, other_node). Counters are per node and system-wide, in
 * pages.
 */
#ifndef NPRB_NUMASTAT_H
#define NPRB_NUMASTAT_H

#include <stdint.h>

enum {
    NPRB_NUMASTAT_HIT,
    NPRB_NUMASTAT_MISS,
    NPRB_NUMASTAT_FOREIGN,
    NPRB_NUMASTAT_INTERLEAVE_HIT,
    NPRB_NUMASTAT_LOCAL,
    NPRB_NUMASTAT_OTHER,
    NPRB_NUMASTAT_FIELDS
};

/** The counters of node @p node into @p values (NPRB_NUMASTAT_FIELDS of them). @return 0/-1. */
int nprb_numastat_read(unsigned node, uint64_t *values);

#endif
