/* SPDX-License-Identifier: BSD-3-Clause */
/* The names of the core-pair enums (which pairs, what a pair shares) and their parsers, apart
 * from core_pairs.c so that the config parser (and its fuzzer) use them without linking hwloc. */
#include "host/core_pairs.h"

#include "util/names.h"

#include <stdio.h>
#include <string.h>

static const char *const pairs_names[] = {
    [NPRB_CORE_PAIRS_PER_NODE] = "per_node",
    [NPRB_CORE_PAIRS_PER_CACHE] = "per_cache",
    [NPRB_CORE_PAIRS_ALL] = "all",
};
#define N_PAIRS (sizeof pairs_names / sizeof pairs_names[0])

static const char *const class_names[NPRB_N_CORE_CLASSES] = {
    [NPRB_CORE_SMT] = "smt",
    [NPRB_CORE_SAME_L2] = "same_l2",
    [NPRB_CORE_SAME_L3] = "same_l3",
    [NPRB_CORE_SAME_NODE] = "same_node",
    [NPRB_CORE_SAME_PACKAGE] = "same_package",
    [NPRB_CORE_CROSS_PACKAGE] = "cross_package",
};

const struct nprb_name_table nprb_core_pairs_names = {
    .rows = pairs_names,
    .stride = sizeof pairs_names[0],
    .count = N_PAIRS,
    .allowed = NPRB_NAMES_ALL,
};

const char *nprb_core_pairs_name(enum nprb_core_pairs pairs)
{
    return nprb_name_of(&nprb_core_pairs_names, (int)pairs);
}

int nprb_core_pairs_parse(const char *text, enum nprb_core_pairs *pairs, char *why, size_t len)
{
    int i;
    if (nprb_name_parse(&nprb_core_pairs_names, text, &i, why, len) != 0)
        return -1;
    *pairs = (enum nprb_core_pairs)i;
    return 0;
}

const char *nprb_core_class_name(enum nprb_core_class cls)
{
    return (unsigned)cls < NPRB_N_CORE_CLASSES ? class_names[cls] : "?";
}

enum nprb_core_class nprb_core_class_parse(const char *text)
{
    for (int c = 0; c < NPRB_N_CORE_CLASSES; c++)
        if (strcmp(text, class_names[c]) == 0)
            return (enum nprb_core_class)c;
    return NPRB_N_CORE_CLASSES;
}
