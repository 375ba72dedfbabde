/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/numastat.h"

#include <stdio.h>
#include <string.h>

static const char *const names[NPRB_NUMASTAT_FIELDS] = {
    "numa_hit", "numa_miss", "numa_foreign", "interleave_hit", "local_node", "other_node",
};

int nprb_numastat_read(unsigned node, uint64_t *values)
{
    char path[96], key[32];
    snprintf(path, sizeof path, "/sys/devices/system/node/node%u/numastat", node);
    memset(values, 0, NPRB_NUMASTAT_FIELDS * sizeof *values);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    unsigned long long v;
    int found = 0;
    while (fscanf(f, "%31s %llu", key, &v) == 2) {
        for (int i = 0; i < NPRB_NUMASTAT_FIELDS; i++) {
            if (strcmp(key, names[i]) == 0) {
                values[i] = v;
                found++;
            }
        }
    }
    fclose(f);
    return found == NPRB_NUMASTAT_FIELDS ? 0 : -1;
}
