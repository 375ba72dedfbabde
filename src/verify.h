/**
 * @file verify.h
 * Where pages actually landed: move_pages(2) with nodes = NULL asks the kernel, page by page.
 */
#ifndef NPRB_VERIFY_H
#define NPRB_VERIFY_H

#include "topo.h"

#include <stddef.h>
#include <stdint.h>

struct nprb_census {
    uint64_t pages;                    /**< pages asked about (base pages) */
    uint64_t unplaced;                 /**< pages the kernel reported not present or faulted */
    uint64_t per_node[NPRB_MAX_NODES]; /**< pages found on each node, by os index */
};

/**
 * Counts the node of every base page of [addr, addr + bytes) (a full scan, batched: 16 GiB is
 * 4 M pages, a fraction of a second). The pages must have been touched.
 * @return 0, or -1 with errno from move_pages.
 */
int nprb_census_take(const void *addr, size_t bytes, struct nprb_census *census);

/** Adds @p more's counts into @p into (a buffer made of several mappings). */
void nprb_census_add(struct nprb_census *into, const struct nprb_census *more);

/** Fraction of the pages on any of @p nodes (os indexes); 0 when nothing was counted. */
double nprb_census_fraction_on(const struct nprb_census *census, const unsigned *nodes,
                               int node_count);

#endif
