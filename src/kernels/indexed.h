/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file indexed.h
 * The textbook "random read": walk a precomputed array of random indices and sum data[idx[i]].
 * Unlike the pointer chase the loads are independent, so the core overlaps many misses and the
 * time per access is far below the true latency; numaprobe reports it beside the chase to show
 * that difference.
 */
#ifndef NPRB_INDEXED_H
#define NPRB_INDEXED_H

#include <stddef.h>
#include <stdint.h>

/**
 * Makes @p steps reads data[idx[i % n]] (cycling through the index) and returns their sum.
 * @p idx holds n indexes into @p data, each < n.
 */
double nprb_index_read(const double *data, const uint32_t *idx, size_t n, uint64_t steps);

#endif
