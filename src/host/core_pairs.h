/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file core_pairs.h
 * Which pairs of CPUs a core-to-core measurement takes, and what each pair shares: a core (SMT
 * siblings), an L2, an L3 (a CCX or CCD), a NUMA node, a package, or nothing. From the host's
 * hwloc topology and the PUs numaprobe may run on.
 */
#ifndef NPRB_CORE_PAIRS_H
#define NPRB_CORE_PAIRS_H

#include "host/topo.h"
#include "util/names.h"

#include <stddef.h>

/** How many pairs: one per NUMA node and node pair, one per cache and cache pair, or all. */
enum nprb_core_pairs {
    NPRB_CORE_PAIRS_PER_NODE,
    NPRB_CORE_PAIRS_PER_CACHE,
    NPRB_CORE_PAIRS_ALL,
};

/** What the two CPUs of a pair share, nearest first. */
enum nprb_core_class {
    NPRB_CORE_SMT,           /**< the same core */
    NPRB_CORE_SAME_L2,       /**< an L2 cache, not a core */
    NPRB_CORE_SAME_L3,       /**< an L3 cache within one node (a CCX), not an L2 */
    NPRB_CORE_SAME_NODE,     /**< a NUMA node, no cache */
    NPRB_CORE_SAME_PACKAGE,  /**< a package, another node */
    NPRB_CORE_CROSS_PACKAGE, /**< nothing */
    NPRB_N_CORE_CLASSES
};

const char *nprb_core_pairs_name(enum nprb_core_pairs pairs);

/** @return 0, or -1 with the names allowed in @p why. */
int nprb_core_pairs_parse(const char *text, enum nprb_core_pairs *pairs, char *why, size_t len);

/** Their names, as nprb_core_pairs_parse() reads them (c2c_latency.pairs). */
extern const struct nprb_name_table nprb_core_pairs_names;

/** "smt", "same_l2", "same_l3", "same_node", "same_package", "cross_package". */
const char *nprb_core_class_name(enum nprb_core_class cls);

/** The class named @p text, or NPRB_N_CORE_CLASSES. */
enum nprb_core_class nprb_core_class_parse(const char *text);

struct nprb_core_pair {
    unsigned pu_a, pu_b; /**< os indexes; a < b */
    enum nprb_core_class cls;
};

/** What PUs @p a and @p b (os indexes) share. */
enum nprb_core_class nprb_core_pair_class(const struct nprb_topo *topo, unsigned a, unsigned b);

/**
 * The pairs @p which selects among the usable PUs, in a fixed order:
 * - per_node: in each node, its first PU with the first PU of another core of it; then the first
 *   PUs of every two nodes;
 * - per_cache: likewise per L3 that lies within a node (else per node), plus the first PU with its
 *   SMT sibling where it has a usable one;
 * - all: every two usable PUs.
 * Writes at most @p max. @return how many there are (more than @p max: the caller's list is short).
 */
size_t nprb_core_pairs_list(const struct nprb_topo *topo, enum nprb_core_pairs which,
                            struct nprb_core_pair *out, size_t max);

#endif
