/* SPDX-License-Identifier: BSD-3-Clause */
/* The names of the page-size modes and their parser: the one place each is spelled, kept apart
 * from place.c so that the config parser (and its fuzzer) use them without linking hwloc or
 * libnuma. The policies' and first-touch modes' names are results/row_ids.c's: rows carry them,
 * and the layers that read rows sit below host/. */
#include "host/place.h"

#include "util/names.h"

#include <stdio.h>

static const char *const thp_names[] = {
    [NPRB_THP_SYSTEM] = "system",
    [NPRB_THP_ON] = "on",
    [NPRB_THP_OFF] = "off",
    [NPRB_THP_HUGETLB] = "hugetlb",
};
#define N_THP (sizeof thp_names / sizeof thp_names[0])

const char *nprb_thp_name(enum nprb_thp_mode mode)
{
    return (unsigned)mode < N_THP ? thp_names[mode] : "?";
}

int nprb_thp_parse(const char *text, enum nprb_thp_mode *mode, char *why, size_t len)
{
    char choices[128];
    int i = nprb_name_find(thp_names, sizeof thp_names[0], N_THP, NPRB_NAMES_ALL, text, true, true,
                           choices, sizeof choices);
    if (i >= 0) {
        *mode = (enum nprb_thp_mode)i;
        return 0;
    }
    snprintf(why, len, "expected one of %s, got '%s'", choices, text);
    return -1;
}
