/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file uncore.h
 * The memory controllers' own byte counts, per socket, around a bandwidth measurement: Intel's
 * uncore_imc_* PMUs (cas_count_read, cas_count_write), encoded, scaled and unit-converted from
 * the kernel's own sysfs descriptions (pmu_sysfs.h), never from a hand-copied table. Counting is
 * system-wide on one CPU of each socket (the PMU's cpumask), so it needs root, CAP_PERFMON or
 * kernel.perf_event_paranoid <= 0, and it sees every process's traffic, not only ours.
 */
#ifndef NPRB_UNCORE_H
#define NPRB_UNCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NPRB_UNCORE_MAX_SOCKETS 16
#define NPRB_UNCORE_MAX_FDS 256

enum nprb_uncore_event { NPRB_UNCORE_READ_BYTES, NPRB_UNCORE_WRITE_BYTES, NPRB_N_UNCORE_EVENTS };

/** "mc_read_bytes", "mc_write_bytes". */
const char *nprb_uncore_event_name(enum nprb_uncore_event event);

/** Bytes each socket's memory controllers moved while counting. */
struct nprb_uncore_counts {
    int sockets;                                                   /**< 0: nothing was counted */
    uint64_t value[NPRB_N_UNCORE_EVENTS][NPRB_UNCORE_MAX_SOCKETS]; /**< raw, summed over boxes */
    double bytes[NPRB_N_UNCORE_EVENTS][NPRB_UNCORE_MAX_SOCKETS];   /**< scaled, in bytes */
    uint64_t enabled_ns[NPRB_N_UNCORE_EVENTS][NPRB_UNCORE_MAX_SOCKETS]; /**< of the first box */
    uint64_t running_ns[NPRB_N_UNCORE_EVENTS][NPRB_UNCORE_MAX_SOCKETS];
};

/** Open memory-controller counters (count 0: none). */
struct nprb_uncore {
    int count;
    int fd[NPRB_UNCORE_MAX_FDS];
    int socket[NPRB_UNCORE_MAX_FDS];
    enum nprb_uncore_event event[NPRB_UNCORE_MAX_FDS];
    double bytes_per_count[NPRB_UNCORE_MAX_FDS];
    int sockets;
};

/**
 * Why this host's memory controllers cannot be counted, in @p why: no memory-controller PMU
 * under /sys/bus/event_source/devices, events it does not describe, or perf_event_open's refusal
 * (with kernel.perf_event_paranoid). Probed once per process. @return true (unavailable).
 */
bool nprb_uncore_unavailable(char *why, size_t len);

/** Opens every memory controller's read and write counters, disabled. @return 0 or -1. */
int nprb_uncore_open(struct nprb_uncore *uc);

/** Resets and enables them; outside the timed region. */
void nprb_uncore_start(struct nprb_uncore *uc);

/** Disables them; outside the timed region. */
void nprb_uncore_stop(struct nprb_uncore *uc);

/** Reads them into @p counts (zeroed first) and closes them. */
void nprb_uncore_collect(struct nprb_uncore *uc, struct nprb_uncore_counts *counts);

#endif
