/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file numa_maps.h
 * Pages per node of the mappings that make up a range of this process, from /proc/self/numa_maps:
 * the kernel counts every present page there, NUMA hinting entries included, and any user may
 * read it. The census uses it for pages move_pages would not place when page frames are hidden
 * (no CAP_SYS_ADMIN): it reads nothing it could move.
 */
#ifndef NPRB_NUMA_MAPS_H
#define NPRB_NUMA_MAPS_H

#include "host/topo.h"

#include <stddef.h>
#include <stdint.h>

/**
 * Adds to @p per_node (NPRB_MAX_NODES long, base pages) the present pages of every mapping that
 * overlaps [addr, addr + bytes), page-aligned. The counts are the range's own only when no such
 * mapping has a resident page outside the range (checked with mincore).
 * @return 0 when that holds and every mapping was found; -1 otherwise (@p per_node then
 * unchanged).
 */
int nprb_numa_maps_range(const void *addr, size_t bytes, uint64_t *per_node);

#endif
