/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/vmstat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const names[NPRB_N_VMSTAT_FIELDS] = {
    "numa_hint_faults", "numa_pages_migrated", "pgmigrate_success", "pgmigrate_fail",
    "thp_fault_alloc",  "thp_fault_fallback",  "pgfault",           "pgmajfault",
};

const char *nprb_vmstat_name(enum nprb_vmstat_field field)
{
    return names[field];
}

int nprb_vmstat_read(const char *path, struct nprb_vmstat *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path != NULL ? path : "/proc/vmstat", "r");
    if (f == NULL)
        return -1;
    char key[64];
    unsigned long long v;
    while (fscanf(f, "%63s %llu", key, &v) == 2) {
        for (int i = 0; i < NPRB_N_VMSTAT_FIELDS; i++) {
            if (strcmp(key, names[i]) == 0) {
                out->value[i] = v;
                out->present |= 1u << i;
            }
        }
    }
    fclose(f);
    if (out->present == 0) {
        errno = ENODATA;
        return -1;
    }
    return 0;
}

uint64_t nprb_vmstat_delta(const struct nprb_vmstat *before, const struct nprb_vmstat *after,
                           enum nprb_vmstat_field field)
{
    unsigned bit = 1u << field;
    if (!(before->present & bit) || !(after->present & bit) ||
        after->value[field] < before->value[field])
        return 0;
    return after->value[field] - before->value[field];
}
