/* SPDX-License-Identifier: BSD-3-Clause */
/* The names of the page-size modes and their parser: the one place each is spelled, kept apart
 * from place.c so that the config parser (and its fuzzer) use them without linking hwloc or
 * libnuma. The policies' and first-touch modes' names are results/row_ids.c's: rows carry them,
 * and the layers that read rows sit below host/. */
#include "host/place.h"

#include "util/names.h"

#include <stddef.h>

static const char *const thp_names[] = {
    [NPRB_THP_SYSTEM] = "system",
    [NPRB_THP_ON] = "on",
    [NPRB_THP_OFF] = "off",
    [NPRB_THP_HUGETLB] = "hugetlb",
};
#define N_THP (sizeof thp_names / sizeof thp_names[0])

const struct nprb_name_table nprb_thp_names = {
    .rows = thp_names,
    .stride = sizeof thp_names[0],
    .count = N_THP,
    .allowed = NPRB_NAMES_ALL,
    .ignore_case = true,
    .plain_list = true,
};

const char *nprb_thp_name(enum nprb_thp_mode mode)
{
    return nprb_name_of(&nprb_thp_names, (int)mode);
}

int nprb_thp_parse(const char *text, enum nprb_thp_mode *mode, char *why, size_t len)
{
    int i;
    if (nprb_name_parse(&nprb_thp_names, text, &i, why, len) != 0)
        return -1;
    *mode = (enum nprb_thp_mode)i;
    return 0;
}
