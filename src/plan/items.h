/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file items.h
 * The planning and placement helpers every experiment shares: the matrix grid (matrix_items.c),
 * why a node is skipped, the sweep sizes and the node a sweep runs on, the stream size of "auto",
 * the PUs, target nodes and page size of an item, and whether its pages landed where the policy
 * meant them to (items.c).
 */
#ifndef NPRB_ITEMS_H
#define NPRB_ITEMS_H

#include "config/config.h"
#include "host/place.h"
#include "host/topo.h"
#include "host/verify.h"
#include "plan/plan.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nprb_context;

/**
 * Plans a matrix: @p base bound to every node j with memory from every node i with usable cores
 * (only j = i with NPRB_PAIRS_LOCAL), memory node by memory node so that a kept buffer serves
 * every CPU node, then each of @p policies from every node's cores.
 */
int nprb_plan_matrix(struct nprb_planner *p, const struct nprb_plan_item *base, const char *key,
                     enum nprb_pairs pairs, const struct nprb_policy_list *policies);

/**
 * Plans a matrix of each of @p count points (@p bases: the same placement, another chain count
 * or kernel) as nprb_plan_matrix() does, but every point on memory node j before node j + 1, so
 * that one mapping per memory node serves them all; then each point's @p policies.
 */
int nprb_plan_matrix_series(struct nprb_planner *p, const struct nprb_plan_item *bases, int count,
                            const char *key, enum nprb_pairs pairs,
                            const struct nprb_policy_list *policies);

/** The smallest array an automatic stream size gives: below it a pass is too short to time. */
#define NPRB_STREAM_AUTO_MIN (UINT64_C(64) << 20)

/**
 * Bytes per array of a streaming measurement whose size is "0" (auto): STREAM's rule, four times
 * the last-level caches a node's cores share (the node with the most), so that at most a quarter
 * of a pass can be served from cache; rounded up to 2 MiB, at least NPRB_STREAM_AUTO_MIN.
 * hwloc's cache sizes; 8 MiB where it reports none.
 */
uint64_t nprb_stream_auto_bytes(const struct nprb_topo *topo);

/**
 * Sizes for a cache sweep: the configured list, or (count 0) points from 2 KiB to @p max_bytes
 * (0: 4x the last-level cache) around the detected caches, capped at a quarter of the first CPU
 * node's free memory. A chase that touches one line per @p span_per_line lines' worth of span
 * (4 for 256 B slots) fills a cache at that multiple of its size: points go around that too.
 * @return how many were written.
 */
int nprb_sweep_sizes(const struct nprb_planner *p, const struct nprb_sizes *configured,
                     uint64_t max_bytes, uint64_t span_per_line, uint64_t *sizes, int cap);

/** Why node @p node cannot be measured from its own cores (empty string when it can). */
void nprb_local_skip_reason(const struct nprb_node_info *node, char *why, size_t len);

/**
 * Why this rank does not measure CPU node @p index's row (empty string when it does): the local
 * reasons above, or another rank of the host measures it (share.node_owner), so that ranks whose
 * bindings overlap measure each node once.
 */
void nprb_cpu_node_skip_reason(const struct nprb_planner *p, int index, char *why, size_t len);

/** Why memory of @p node cannot be used by this job (its cgroup's cpuset.mems); "" when it can. */
void nprb_memory_skip_reason(const struct nprb_node_info *node, char *why, size_t len);

/**
 * The node a per-host sweep runs on (first node with a usable core) and, in @p why, the reason
 * it cannot run on this rank (empty when it can): sweeps are made once per host, by its first
 * rank, since ranks sharing a host share its caches.
 */
int nprb_sweep_node(const struct nprb_planner *p, char *why, size_t len);

/** The policy's nodes (os indexes) for an item: its memory node, or every node with memory. */
int nprb_item_targets(const struct nprb_topo *topo, const struct nprb_plan_item *item,
                      unsigned *nodes);

/** The page size an item's buffers ask for: its own (page_size), else the config's huge_pages. */
enum nprb_thp_mode nprb_item_huge_pages(const struct nprb_context *ctx,
                                        const struct nprb_plan_item *item);

/** The PUs an item's threads run on (one per usable core of its CPU node, at most @p max). */
int nprb_item_pus(const struct nprb_topo *topo, const struct nprb_plan_item *item, unsigned *pus,
                  int max);

/**
 * Whether a census meets the policy: 99% of the pages that reported their node on the target
 * node(s), and for interleave each node within 5% (+ one 2 MiB block) of an even share of them.
 * Pages that did not report (NUMA balancing) are not blamed; a census of which no page reported
 * cannot be verified. When not met, says how in @p note.
 */
bool nprb_placement_ok(const struct nprb_census *census, const unsigned *nodes, int count,
                       enum nprb_mem_policy policy, char *note, size_t len);

/**
 * With transparent huge pages, interleave and first touch place whole 2 MiB blocks, not 4 KiB
 * pages: says so in an empty @p note when part of the buffer is in huge pages.
 */
void nprb_note_coarse_placement(char *note, size_t len, double huge_page_frac,
                                enum nprb_mem_policy policy);

#endif
