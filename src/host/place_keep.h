/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file place_keep.h
 * The mappings a sweep keeps between its points (nprb_buffer_keep_begin() in place.h), as
 * placement sees them: handed back to a request of the same placement, and given back to the
 * kernel where a buffer of another placement needs their room. Inside host/ only.
 */
#ifndef NPRB_PLACE_KEEP_H
#define NPRB_PLACE_KEEP_H

#include "host/place.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Unmaps @p buf's mapping, if it has one, and zeroes @p buf. */
void nprb_buffer_unmap(struct nprb_buffer *buf);

/** The length new mappings are made while keeping (the sweep's largest request), else 0. */
size_t nprb_keep_capacity(void);

/**
 * Moves into @p buf a kept mapping of @p want's policy, page mode and node mask with room for
 * @p bytes: one holding content @p key (not 0) first, then one holding none, then the most
 * touched (the one a growing sweep has been using).
 * @return false when there is none, as always when not keeping.
 */
bool nprb_keep_take(struct nprb_buffer *buf, const struct nprb_buffer *want, size_t bytes,
                    uint64_t key);

/**
 * Unmaps every kept mapping with pages on @p nodes (os indexes; on any node when
 * @p node_count is 0), as move_pages finds them; where it cannot say, a bound mapping whose
 * nodes are all among @p nodes. The pages are free again when this returns.
 * @return the bytes of those mappings' pages that were on @p nodes.
 */
uint64_t nprb_keep_release_on(const unsigned *nodes, int node_count);

#endif
