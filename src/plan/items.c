/* SPDX-License-Identifier: BSD-3-Clause */
/* The planning and placement helpers every experiment shares (declared in items.h): why a
 * node is skipped, the sweep sizes and the node a sweep runs on, the PUs and target nodes of an
 * item, and whether its pages landed where the policy meant them to. */
#include "plan/items.h"

#include "plan/descriptor.h"
#include "host/place.h"
#include "util/sweep.h"

#include <hwloc.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MIN_PLACED_FRAC 0.99
/* Interleave is exact page by page with 4 KiB pages; huge pages move whole 2 MiB blocks (512
 * base pages), so a node may be a block ahead or behind. */
#define INTERLEAVE_SLACK_FRAC 0.05
#define INTERLEAVE_SLACK_PAGES 512

void nprb_local_skip_reason(const struct nprb_node_info *node, char *why, size_t len)
{
    why[0] = '\0';
    if (node->cpu_count == 0)
        snprintf(why, len, "not applicable: node %u has memory but no CPUs (memory-only node)",
                 node->os_index);
    else if (!node->cpus_allowed)
        snprintf(why, len,
                 "not applicable: node %u's CPUs (%.60s) are not in this job's cpuset (cgroup)",
                 node->os_index, node->cpus);
    else if (node->usable_cores == 0)
        snprintf(why, len,
                 "not applicable: none of node %u's CPUs (%.60s) is in this rank's binding",
                 node->os_index, node->cpus);
}

void nprb_cpu_node_skip_reason(const struct nprb_planner *p, int index, char *why, size_t len)
{
    const struct nprb_node_info *node = nprb_topo_node(p->topo, index);
    nprb_local_skip_reason(node, why, len);
    const int *owner = p->share.node_owner;
    if (why[0] == '\0' && owner != NULL && owner[index] != p->share.host_rank)
        snprintf(why, len, "not applicable: node %u is measured by rank %d of this host's ranks",
                 node->os_index, owner[index]);
}

void nprb_memory_skip_reason(const struct nprb_node_info *node, char *why, size_t len)
{
    why[0] = '\0';
    if (!node->mem_allowed)
        snprintf(why, len,
                 "not applicable: node %u's memory is not in this job's cpuset.mems (cgroup)",
                 node->os_index);
}

int nprb_sweep_node(const struct nprb_planner *p, char *why, size_t len)
{
    why[0] = '\0';
    int node = nprb_plan_first_cpu_node(p->topo);
    if (!p->host_leader)
        snprintf(why, len, "not applicable: measured by the first rank of this host");
    else if (node < 0)
        snprintf(why, len, "not applicable: no NUMA node has a core in this rank's binding");
    return node >= 0 ? node : 0;
}

uint64_t nprb_stream_auto_bytes(const struct nprb_topo *topo)
{
    hwloc_topology_t hw = nprb_topo_hwloc(topo);
    int depth = hwloc_get_cache_type_depth(hw, 3, HWLOC_OBJ_CACHE_UNIFIED);
    if (depth < 0)
        depth = hwloc_get_cache_type_depth(hw, 2, HWLOC_OBJ_CACHE_UNIFIED);
    uint64_t most = 0;
    hwloc_obj_t node = NULL;
    while (depth >= 0 && (node = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_NUMANODE, node))) {
        uint64_t sum = 0;
        hwloc_obj_t cache = NULL;
        /* The caches whose cores are the node's: those its threads' traffic passes through. */
        while ((cache = hwloc_get_next_obj_by_depth(hw, (unsigned)depth, cache)) != NULL)
            if (cache->attr != NULL && hwloc_bitmap_intersects(cache->cpuset, node->cpuset))
                sum += cache->attr->cache.size;
        most = sum > most ? sum : most;
    }
    if (most == 0)
        most = UINT64_C(8) << 20;
    uint64_t bytes = 4 * most;
    bytes = (bytes + (UINT64_C(2) << 20) - 1) / (UINT64_C(2) << 20) * (UINT64_C(2) << 20);
    return bytes > NPRB_STREAM_AUTO_MIN ? bytes : NPRB_STREAM_AUTO_MIN;
}

int nprb_sweep_sizes(const struct nprb_planner *p, const struct nprb_sizes *configured,
                     uint64_t max_bytes, uint64_t span_per_line, uint64_t *sizes, int cap)
{
    if (configured->count > 0) {
        int n = configured->count < cap ? configured->count : cap;
        for (int i = 0; i < n; i++)
            sizes[i] = configured->bytes[i];
        return n;
    }
    const struct nprb_topo_summary *s = nprb_topo_summary(p->topo);
    uint64_t caches[6] = {s->l1d_bytes, s->l2_bytes, s->l3_bytes};
    for (int c = 0; c < 3 && span_per_line > 1; c++)
        caches[3 + c] = caches[c] * span_per_line;
    uint64_t llc = s->l3_bytes ? s->l3_bytes : s->l2_bytes ? s->l2_bytes : (UINT64_C(8) << 20);
    uint64_t max = max_bytes ? max_bytes : nprb_sweep_auto_max(llc);
    int node = nprb_plan_first_cpu_node(p->topo);
    uint64_t free_bytes =
        node >= 0 ? nprb_node_free_bytes(nprb_topo_node(p->topo, node)->os_index) : 0;
    /* A sweep must not push the node into reclaim: a quarter of what is free is plenty to see
     * the last cache spill into memory. */
    if (free_bytes > 0 && max > free_bytes / 4)
        max = free_bytes / 4;
    return nprb_sweep_points(caches, 6, 2048, max, sizes, cap);
}

int nprb_item_targets(const struct nprb_topo *topo, const struct nprb_plan_item *item,
                      unsigned *nodes)
{
    if (item->mem_node >= 0) {
        nodes[0] = nprb_topo_node(topo, item->mem_node)->os_index;
        return 1;
    }
    int n = 0;
    for (int i = 0; i < nprb_topo_node_count(topo); i++)
        if (nprb_node_memory_usable(nprb_topo_node(topo, i)))
            nodes[n++] = nprb_topo_node(topo, i)->os_index;
    return n;
}

enum nprb_thp_mode nprb_item_huge_pages(const struct nprb_context *ctx,
                                        const struct nprb_plan_item *item)
{
    return item->own_huge_pages ? item->huge_pages : ctx->cfg->huge_pages;
}

int nprb_item_pus(const struct nprb_topo *topo, const struct nprb_plan_item *item, unsigned *pus,
                  int max)
{
    if (item->cpu_node >= 0)
        return nprb_topo_node_pus(topo, item->cpu_node, pus, max);
    int n = 0;
    for (int i = 0; i < nprb_topo_node_count(topo) && n < max; i++)
        n += nprb_topo_node_pus(topo, i, pus + n, max - n);
    return n;
}

void nprb_note_coarse_placement(char *note, size_t len, double huge_page_frac,
                                enum nprb_mem_policy policy)
{
    if (note[0] != '\0' || !(huge_page_frac > 0.01) || policy == NPRB_MEM_BIND)
        return;
    snprintf(note, len,
             "%.0f%% of the buffer in 2 MiB transparent huge pages: %s placed in 2 MiB blocks",
             100 * huge_page_frac, policy == NPRB_MEM_INTERLEAVE ? "interleave" : "first touch");
}

bool nprb_placement_ok(const struct nprb_census *census, const unsigned *nodes, int count,
                       enum nprb_mem_policy policy, char *note, size_t len)
{
    uint64_t reported = nprb_census_reported(census);
    if (reported == 0) {
        snprintf(note, len,
                 "placement unverified: none of %llu pages reported its node (NUMA balancing had "
                 "unmapped them all; run as root to read their frames)",
                 (unsigned long long)census->pages);
        return false;
    }
    double on_target = nprb_census_fraction_on(census, nodes, count);
    if (!(on_target >= MIN_PLACED_FRAC)) {
        snprintf(note, len, "only %.1f%% of pages on the target node(s) (need %.0f%%)",
                 100 * on_target, 100 * MIN_PLACED_FRAC);
        return false;
    }
    if (census->by_residency && len > 0 && note[0] == '\0')
        snprintf(note, len,
                 "placement by residency: one memory node and no NUMA policy calls "
                 "(a kernel without NUMA, or user-mode emulation)");
    if (policy != NPRB_MEM_INTERLEAVE)
        return true;
    double expected = (double)reported / count;
    for (int i = 0; i < count; i++) {
        double off = fabs((double)census->per_node[nodes[i]] - expected);
        if (off > INTERLEAVE_SLACK_FRAC * expected + INTERLEAVE_SLACK_PAGES) {
            snprintf(note, len, "interleave uneven: node %u holds %llu pages, expected %.0f",
                     nodes[i], (unsigned long long)census->per_node[nodes[i]], expected);
            return false;
        }
    }
    return true;
}
