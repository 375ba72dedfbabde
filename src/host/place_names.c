/* SPDX-License-Identifier: BSD-3-Clause */
/* The names of placement's enums (policies, page-size modes, first-touch modes) and their
 * parsers: the one place each name is spelled, kept apart from place.c so that the config parser
 * (and its fuzzer) use them without linking hwloc or libnuma. */
#include "host/place.h"

#include "util/names.h"

#include <stdio.h>
#include <string.h>

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

const char *nprb_mem_policy_name(enum nprb_mem_policy policy)
{
    return (unsigned)policy < N_POLICIES ? policy_names[policy] : "?";
}

int nprb_mem_policy_parse(const char *text, unsigned allowed, enum nprb_mem_policy *policy,
                          char *why, size_t len)
{
    char choices[128];
    int i = nprb_name_find(policy_names, sizeof policy_names[0], N_POLICIES, allowed, text, false,
                           false, choices, sizeof choices);
    if (i >= 0) {
        *policy = (enum nprb_mem_policy)i;
        return 0;
    }
    snprintf(why, len, "unknown policy '%s' (expected %s)", text, choices);
    return -1;
}

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

const char *nprb_touch_mode_name(enum nprb_touch_mode mode)
{
    return (unsigned)mode < NPRB_N_TOUCH_MODES ? touch_names[mode] : "?";
}

int nprb_touch_mode_parse(const char *text, enum nprb_touch_mode *mode, char *why, size_t len)
{
    char choices[128];
    int i = nprb_name_find(touch_names, sizeof touch_names[0], NPRB_N_TOUCH_MODES, NPRB_NAMES_ALL,
                           text, false, false, choices, sizeof choices);
    if (i >= 0) {
        *mode = (enum nprb_touch_mode)i;
        return 0;
    }
    snprintf(why, len, "unknown mode '%s' (expected %s)", text, choices);
    return -1;
}
