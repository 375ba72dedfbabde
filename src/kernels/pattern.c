/* SPDX-License-Identifier: BSD-3-Clause */
#include "kernels/pattern.h"

#include "util/units.h"

#include <stdio.h>
#include <string.h>

struct named_pattern {
    const char *name;
    enum nprb_pattern_kind kind;
};

static const struct named_pattern plain[] = {
    {"random", NPRB_PATTERN_RANDOM},
    {"random_full", NPRB_PATTERN_RANDOM_FULL},
    {"index_random", NPRB_PATTERN_INDEX},
};

int nprb_pattern_parse(const char *text, struct nprb_pattern *pattern, char *why, size_t len)
{
    memset(pattern, 0, sizeof *pattern);
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        if (strcmp(text, plain[i].name) == 0) {
            pattern->kind = plain[i].kind;
            snprintf(pattern->name, sizeof pattern->name, "%s", plain[i].name);
            return 0;
        }
    }
    uint64_t stride;
    if (strncmp(text, "stride:", 7) == 0 && nprb_parse_size(text + 7, &stride) == 0) {
        if (stride == 0 || stride % 8 != 0 || stride > (UINT64_C(1) << 30)) {
            snprintf(why, len, "stride %s must be a multiple of 8 bytes from 8B to 1GiB", text + 7);
            return -1;
        }
        pattern->kind = NPRB_PATTERN_STRIDE;
        pattern->stride_bytes = stride;
        snprintf(pattern->name, sizeof pattern->name, "stride:%llu", (unsigned long long)stride);
        return 0;
    }
    snprintf(why, len,
             "unknown pattern '%s' (expected random, random_full, index_random or stride:BYTES)",
             text);
    return -1;
}
