/* SPDX-License-Identifier: BSD-3-Clause */
/* The names of placement's enums (policies, page-size modes, first-touch modes) and their
 * parsers: the one place each name is spelled, kept apart from place.c so that the config parser
 * (and its fuzzer) use them without linking hwloc or libnuma. */
#include "host/place.h"

#include "util/names.h"

#include <stddef.h>

static const char *const policy_names[] = {
    [NPRB_MEM_BIND] = "bind",
    [NPRB_MEM_INTERLEAVE] = "interleave",
    [NPRB_MEM_PREFERRED] = "preferred",
    [NPRB_MEM_FIRST_TOUCH] = "first_touch",
};
#define N_POLICIES (sizeof policy_names / sizeof policy_names[0])

static const char *const thp_names[] = {
    [NPRB_THP_SYSTEM] = "system",
    [NPRB_THP_ON] = "on",
    [NPRB_THP_OFF] = "off",
    [NPRB_THP_HUGETLB] = "hugetlb",
};
#define N_THP (sizeof thp_names / sizeof thp_names[0])

static const char *const touch_names[NPRB_N_TOUCH_MODES] = {
    [NPRB_TOUCH_THREADED] = "threaded",
    [NPRB_TOUCH_SERIAL] = "serial",
    [NPRB_TOUCH_MISMATCHED] = "mismatched",
    [NPRB_TOUCH_INTERLEAVE] = "interleave",
    [NPRB_TOUCH_BIND] = "bind",
};

const struct nprb_name_table nprb_extra_policy_names = {
    .rows = policy_names,
    .stride = sizeof policy_names[0],
    .count = N_POLICIES,
    .allowed = ~NPRB_MEM_POLICY_BIT(NPRB_MEM_BIND),
    .what = "policy",
};
const struct nprb_name_table nprb_thp_names = {
    .rows = thp_names,
    .stride = sizeof thp_names[0],
    .count = N_THP,
    .allowed = NPRB_NAMES_ALL,
    .ignore_case = true,
    .plain_list = true,
};
const struct nprb_name_table nprb_touch_mode_names = {
    .rows = touch_names,
    .stride = sizeof touch_names[0],
    .count = NPRB_N_TOUCH_MODES,
    .allowed = NPRB_NAMES_ALL,
    .what = "mode",
};

const char *nprb_mem_policy_name(enum nprb_mem_policy policy)
{
    return (unsigned)policy < N_POLICIES ? policy_names[policy] : "?";
}

int nprb_mem_policy_parse(const char *text, unsigned allowed, enum nprb_mem_policy *policy,
                          char *why, size_t len)
{
    struct nprb_name_table table = nprb_extra_policy_names;
    table.allowed = allowed;
    int i;
    if (nprb_name_parse(&table, text, &i, why, len) != 0)
        return -1;
    *policy = (enum nprb_mem_policy)i;
    return 0;
}

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

const char *nprb_touch_mode_name(enum nprb_touch_mode mode)
{
    return nprb_name_of(&nprb_touch_mode_names, (int)mode);
}

int nprb_touch_mode_parse(const char *text, enum nprb_touch_mode *mode, char *why, size_t len)
{
    int i;
    if (nprb_name_parse(&nprb_touch_mode_names, text, &i, why, len) != 0)
        return -1;
    *mode = (enum nprb_touch_mode)i;
    return 0;
}
