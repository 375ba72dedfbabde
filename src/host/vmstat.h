/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file vmstat.h
 * The kernel's memory-management event counters of /proc/vmstat that explain a measurement:
 * NUMA hinting faults and the pages automatic NUMA balancing migrated, page migrations, THP
 * allocations and fallbacks, and page faults. System-wide, read before and after a measurement
 * (or each interval of a series) so their changes go beside its figures.
 */
#ifndef NPRB_VMSTAT_H
#define NPRB_VMSTAT_H

#include <stdint.h>

enum nprb_vmstat_field {
    NPRB_VMSTAT_NUMA_HINT_FAULTS,
    NPRB_VMSTAT_NUMA_PAGES_MIGRATED,
    NPRB_VMSTAT_PGMIGRATE_SUCCESS,
    NPRB_VMSTAT_PGMIGRATE_FAIL,
    NPRB_VMSTAT_THP_FAULT_ALLOC,
    NPRB_VMSTAT_THP_FAULT_FALLBACK,
    NPRB_VMSTAT_PGFAULT,
    NPRB_VMSTAT_PGMAJFAULT,
    NPRB_N_VMSTAT_FIELDS
};

/** The counters at one moment; a field the kernel does not have has its bit clear in present. */
struct nprb_vmstat {
    uint64_t value[NPRB_N_VMSTAT_FIELDS];
    unsigned present; /**< 1u << field for each field /proc/vmstat has */
};

/** The field's name in /proc/vmstat and in the /counters table ("numa_hint_faults", ...). */
const char *nprb_vmstat_name(enum nprb_vmstat_field field);

/** Reads @p path (NULL: /proc/vmstat) into @p out. @return 0, or -1 with errno. */
int nprb_vmstat_read(const char *path, struct nprb_vmstat *out);

/** How much @p field grew from @p before to @p after; 0 where either lacks it. */
uint64_t nprb_vmstat_delta(const struct nprb_vmstat *before, const struct nprb_vmstat *after,
                           enum nprb_vmstat_field field);

#endif
