/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file verify.h
 * Where pages actually landed: move_pages(2) with nodes = NULL asks the kernel, page by page.
 *
 * With automatic NUMA balancing on (the Linux default on NUMA servers) the kernel's scanner
 * makes ranges of a task's pages PROT_NONE to sample its accesses, and move_pages answers
 * -EFAULT for such a page until it is touched again, as it does for a page never touched. The
 * census tells the two apart: it asks again, then asks mincore(2) whether the page is resident
 * (a hinting PTE is still present), and for a resident page reads its frame from
 * /proc/self/pagemap (frames are readable with CAP_SYS_ADMIN) and the frame's node from the
 * zones' frame spans. Without that privilege, a resident page under an explicit memory policy
 * is read once and asked about again: the hinting fault restores its mapping, and moves a page
 * only under the kernel's default policy (first touch), whose pages are never touched here. A
 * resident page found by none of these is counted as unreported: it is somewhere, and placement
 * is judged on the pages that did report, never blamed for it.
 */
#ifndef NPRB_VERIFY_H
#define NPRB_VERIFY_H

#include "host/topo.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct nprb_census {
    uint64_t pages;      /**< pages asked about (base pages) */
    uint64_t unplaced;   /**< not resident: never touched (or swapped out); counted as misplaced */
    uint64_t unreported; /**< resident, but the kernel would not say where (NUMA balancing) */
    uint64_t per_node[NPRB_MAX_NODES]; /**< pages found on each node, by os index */
    bool by_residency; /**< no move_pages here, one node: resident pages counted on it */
};

/**
 * Counts the node of every base page of [addr, addr + bytes) (a full scan, batched: 16 GiB is
 * 4 M pages, a fraction of a second). The pages must have been touched.
 * @return 0, or -1 with errno from move_pages.
 */
int nprb_census_take(const void *addr, size_t bytes, struct nprb_census *census);

/** One piece of a mapping: a thread's chunk of an array. */
struct nprb_piece {
    const void *addr;
    size_t bytes;
};

/**
 * The census of each of @p count adjacent pieces of one mapping, into @p census[count]. Pages
 * move_pages cannot place (frames hidden) are counted from numa_maps, which counts whole
 * mappings: where a piece has such pages and @p may_split (the caller knows no transparent huge
 * page spans a cut, which the split would break up), each piece is made a mapping of its own
 * for that look, by madvise hints that differ from its neighbours', and merged back after.
 * @return 0, or -1 with errno when a piece's census failed.
 */
int nprb_census_take_pieces(const struct nprb_piece *pieces, int count, bool may_split,
                            struct nprb_census *census);

/** Adds @p more's counts into @p into (a buffer made of several mappings). */
void nprb_census_add(struct nprb_census *into, const struct nprb_census *more);

/** Pages whose whereabouts are known: found on a node, or known not to be resident. */
uint64_t nprb_census_reported(const struct nprb_census *census);

/**
 * Fraction of the reported pages (nprb_census_reported) on any of @p nodes (os indexes); 0 when
 * no page reported.
 */
double nprb_census_fraction_on(const struct nprb_census *census, const unsigned *nodes,
                               int node_count);

/**
 * Frame ranges of each node, from each zone's start_pfn and spanned pages in /proc/zoneinfo. Not
 * the sysfs memory blocks: a block (128 MiB and up) may straddle two nodes, and sysfs then lists
 * it under both. A frame inside the spans of exactly one node is on that node; where spans
 * overlap (interleaved layouts) it is unknown.
 */
#define NPRB_MAX_FRAME_SPANS 256
struct nprb_frame_span {
    uint64_t first, end; /**< [first, end) page frames */
    int node;
};
struct nprb_frame_spans {
    struct nprb_frame_span span[NPRB_MAX_FRAME_SPANS];
    int count;
};

/** Reads the spans from text in the layout of /proc/zoneinfo. */
void nprb_frame_spans_read(FILE *zoneinfo, struct nprb_frame_spans *spans);

/** The node whose spans alone hold frame @p pfn; -1 when none or several do. */
int nprb_frame_spans_node(const struct nprb_frame_spans *spans, uint64_t pfn);

/**
 * The node of the page frame @p pfn, from the zones' frame spans in /proc/zoneinfo (read once);
 * -1 when no node's span holds it, or two nodes' spans do. Exposed for tests.
 */
int nprb_frame_node(uint64_t pfn);

#endif
