/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/core_pairs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the ancestor of PU object @p pa of @p type also holds PU @p b. */
static bool share(hwloc_topology_t hw, hwloc_obj_t pa, hwloc_obj_type_t type, unsigned b)
{
    hwloc_obj_t up = hwloc_get_ancestor_obj_by_type(hw, type, pa);
    return up != NULL && hwloc_bitmap_isset(up->cpuset, b);
}

/* The L3 of PU object @p pa when it lies within one NUMA node (a CCX, or a whole-socket L3 of a
 * socket that is one node), else NULL: an L3 split among several nodes (Intel's sub-NUMA
 * clusters, an emulator's per-socket L3) serves each node's lines from the node's own slices, so
 * there the node, not the cache, tells the paths apart. */
static hwloc_obj_t l3_within_node(const struct nprb_topo *topo, hwloc_obj_t pa)
{
    hwloc_obj_t l3 = hwloc_get_ancestor_obj_by_type(nprb_topo_hwloc(topo), HWLOC_OBJ_L3CACHE, pa);
    if (l3 == NULL)
        return NULL;
    int node = nprb_topo_pu_node(topo, pa->os_index);
    unsigned pu;
    hwloc_bitmap_foreach_begin(pu, l3->cpuset)
    {
        if (nprb_topo_pu_node(topo, pu) != node)
            return NULL;
    }
    hwloc_bitmap_foreach_end();
    return l3;
}

enum nprb_core_class nprb_core_pair_class(const struct nprb_topo *topo, unsigned a, unsigned b)
{
    hwloc_topology_t hw = nprb_topo_hwloc(topo);
    hwloc_obj_t pa = hwloc_get_pu_obj_by_os_index(hw, a);
    if (pa == NULL)
        return NPRB_CORE_CROSS_PACKAGE;
    if (share(hw, pa, HWLOC_OBJ_CORE, b))
        return NPRB_CORE_SMT;
    if (share(hw, pa, HWLOC_OBJ_L2CACHE, b))
        return NPRB_CORE_SAME_L2;
    hwloc_obj_t l3 = l3_within_node(topo, pa);
    if (l3 != NULL && hwloc_bitmap_isset(l3->cpuset, b))
        return NPRB_CORE_SAME_L3;
    int na = nprb_topo_pu_node(topo, a);
    if (na >= 0 && na == nprb_topo_pu_node(topo, b))
        return NPRB_CORE_SAME_NODE;
    if (share(hw, pa, HWLOC_OBJ_PACKAGE, b))
        return NPRB_CORE_SAME_PACKAGE;
    return NPRB_CORE_CROSS_PACKAGE;
}

/* A group of PUs one representative stands for: a node, or a last-level cache. */
struct domain {
    long key;
    int first;   /* its first usable PU */
    int other;   /* the first usable PU of another core, -1: none */
    int sibling; /* the first PU's first usable SMT sibling, -1: none */
};

/* Which group PU @p pu belongs to: its node, or its L3 where that lies within the node. */
static long domain_key(const struct nprb_topo *topo, unsigned pu, enum nprb_core_pairs which)
{
    hwloc_obj_t obj = hwloc_get_pu_obj_by_os_index(nprb_topo_hwloc(topo), pu);
    hwloc_obj_t l3 =
        obj != NULL && which == NPRB_CORE_PAIRS_PER_CACHE ? l3_within_node(topo, obj) : NULL;
    if (l3 != NULL)
        return (long)l3->logical_index;
    return (1L << 20) + nprb_topo_pu_node(topo, pu);
}

static hwloc_obj_t core_of(hwloc_topology_t hw, unsigned pu)
{
    hwloc_obj_t obj = hwloc_get_pu_obj_by_os_index(hw, pu);
    return obj == NULL ? NULL : hwloc_get_ancestor_obj_by_type(hw, HWLOC_OBJ_CORE, obj);
}

static void put(const struct nprb_topo *topo, struct nprb_core_pair *out, size_t max, size_t *n,
                unsigned a, unsigned b)
{
    if (*n < max)
        out[*n] = (struct nprb_core_pair){
            .pu_a = a < b ? a : b, .pu_b = a < b ? b : a, .cls = nprb_core_pair_class(topo, a, b)};
    (*n)++;
}

static size_t representatives(const struct nprb_topo *topo, enum nprb_core_pairs which,
                              struct nprb_core_pair *out, size_t max)
{
    hwloc_topology_t hw = nprb_topo_hwloc(topo);
    hwloc_const_bitmap_t usable = nprb_topo_usable(topo);
    int cap = hwloc_bitmap_weight(usable);
    struct domain *d = calloc((size_t)(cap > 0 ? cap : 1), sizeof *d);
    if (d == NULL)
        return 0;
    int count = 0;
    unsigned pu;
    hwloc_bitmap_foreach_begin(pu, usable)
    {
        long key = domain_key(topo, pu, which);
        int k = 0;
        while (k < count && d[k].key != key)
            k++;
        if (k == count) {
            d[count++] = (struct domain){.key = key, .first = (int)pu, .other = -1, .sibling = -1};
            continue;
        }
        bool same_core = core_of(hw, pu) == core_of(hw, (unsigned)d[k].first);
        if (same_core && d[k].sibling < 0)
            d[k].sibling = (int)pu;
        if (!same_core && d[k].other < 0)
            d[k].other = (int)pu;
    }
    hwloc_bitmap_foreach_end();
    size_t n = 0;
    if (which == NPRB_CORE_PAIRS_PER_CACHE && count > 0 && d[0].sibling >= 0)
        put(topo, out, max, &n, (unsigned)d[0].first, (unsigned)d[0].sibling);
    for (int k = 0; k < count; k++)
        if (d[k].other >= 0)
            put(topo, out, max, &n, (unsigned)d[k].first, (unsigned)d[k].other);
    for (int i = 0; i < count; i++)
        for (int j = i + 1; j < count; j++)
            put(topo, out, max, &n, (unsigned)d[i].first, (unsigned)d[j].first);
    free(d);
    return n;
}

size_t nprb_core_pairs_list(const struct nprb_topo *topo, enum nprb_core_pairs which,
                            struct nprb_core_pair *out, size_t max)
{
    if (which != NPRB_CORE_PAIRS_ALL)
        return representatives(topo, which, out, max);
    hwloc_const_bitmap_t usable = nprb_topo_usable(topo);
    size_t n = 0;
    unsigned a, b;
    hwloc_bitmap_foreach_begin(a, usable)
    {
        hwloc_bitmap_foreach_begin(b, usable)
        {
            if (b > a)
                put(topo, out, max, &n, a, b);
        }
        hwloc_bitmap_foreach_end();
    }
    hwloc_bitmap_foreach_end();
    return n;
}
