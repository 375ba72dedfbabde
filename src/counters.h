/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file counters.h
 * What the CPU and the kernel saw during a measurement, for the /counters table.
 *
 * - software and core events: perf_event_open counters that each pinned measuring thread opens
 *   for itself (pid 0, cpu -1), enables after its last untimed step and disables after its last
 *   timed sample; the measurement sums them over its threads. Opening, enabling, reading and
 *   closing all happen outside the timed region, so counting changes no figure.
 * - uncore memory-controller events: found through the kernel's own descriptions in
 *   /sys/bus/event_source/devices/PMU/{format,events}/ (encoding, .scale, .unit). The parsing and
 *   the scaling arithmetic are pure functions, unit-tested (tests/unit/test_counters.c).
 * - /proc/vmstat: deltas of the page-migration and fault counters around the measurement.
 *
 * An event a host cannot count (no PMU in a virtual machine, no uncore PMU, perf_event_paranoid
 * too strict) gets one not_applicable row per rank, with the reason; no figure is invented.
 */
#ifndef NPRB_COUNTERS_H
#define NPRB_COUNTERS_H

#include "results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Event groups (bits of a mask: counters.groups). */
enum {
    NPRB_COUNT_SOFTWARE = 1u << 0,
    NPRB_COUNT_CORE = 1u << 1,
    NPRB_COUNT_UNCORE = 1u << 2,
    NPRB_COUNT_VMSTAT = 1u << 3,
    NPRB_COUNT_ALL = 0xfu
};

/** The per-thread events: software first, then core. */
enum {
    NPRB_EV_TASK_CLOCK,
    NPRB_EV_PAGE_FAULTS,
    NPRB_EV_CPU_MIGRATIONS,
    NPRB_EV_CONTEXT_SWITCHES,
    NPRB_EV_CYCLES,
    NPRB_EV_INSTRUCTIONS,
    NPRB_EV_LLC_LOADS,
    NPRB_EV_LLC_MISSES,
    NPRB_EV_DTLB_MISSES,
    NPRB_THREAD_EVENTS
};

/** One event's reading: raw count and the multiplexing times (PERF_FORMAT_TOTAL_TIME_*). */
struct nprb_count {
    uint64_t value, enabled_ns, running_ns;
};

/** A measurement's counts, summed over its threads (add with nprb_counts_add, any thread). */
struct nprb_counts {
    unsigned groups; /**< NPRB_COUNT_* asked for */
    struct nprb_count ev[NPRB_THREAD_EVENTS];
    int threads[NPRB_THREAD_EVENTS]; /**< threads whose counter opened */
};

/** One thread's open counters. */
struct nprb_thread_counters {
    int fd[NPRB_THREAD_EVENTS];
};

/** Opens (disabled) this thread's counters of @p groups; events that fail stay fd -1. */
void nprb_thread_counters_open(struct nprb_thread_counters *tc, unsigned groups);
void nprb_thread_counters_enable(struct nprb_thread_counters *tc);
/** Disables, reads, adds into @p sum (atomically) and closes. */
void nprb_thread_counters_close(struct nprb_thread_counters *tc, struct nprb_counts *sum);

/**
 * value x enabled / running: the estimate of a multiplexed count. NaN when the counter was
 * enabled but never ran; the raw value when it was never enabled.
 */
double nprb_count_scaled(uint64_t value, uint64_t enabled_ns, uint64_t running_ns);

/** One sysfs format field: "config:0-7,32-35" names bits of config, config1 or config2. */
struct nprb_pmu_format {
    char name[32];
    int word;         /**< 0 config, 1 config1, 2 config2 */
    int lo[4], hi[4]; /**< bit ranges, low bits of the value first */
    int ranges;
};

/** Parses a format file's text. @return 0, or -1 when it is not of that form. */
int nprb_pmu_format_parse(const char *name, const char *text, struct nprb_pmu_format *out);

/**
 * Encodes an event description ("event=0x04,umask=0x03"; a bare term means 1) into attr words
 * @p config[3] through @p formats. @return 0, or -1 naming the unknown term in @p why.
 */
int nprb_pmu_encode(const char *text, const struct nprb_pmu_format *formats, int count,
                    uint64_t config[3], char *why, size_t len);

/** Bytes of one unit of a sysfs .unit ("MiB", "Bytes", "KB"...); 0 when not a byte unit. */
double nprb_pmu_unit_bytes(const char *unit);

/**
 * An uncore count in bytes: the multiplexing estimate times the event's .scale times its unit
 * (cas_count_read: scale 6.103515625e-5, unit MiB, so 64 B per count). NaN when not known.
 */
double nprb_uncore_bytes(uint64_t value, uint64_t enabled_ns, uint64_t running_ns, double scale,
                         const char *unit);

/**
 * Why a group cannot be counted on this host under sysfs root @p root ("" when it can).
 * core: no cpu PMU; uncore: no memory-controller PMU (uncore_imc*, amd_df, amd_umc*) or
 * perf_event_paranoid too strict for a process without CAP_PERFMON.
 */
void nprb_counters_why_not(unsigned group, const char *root, char *why, size_t len);

/** The /proc/vmstat counters kept. */
enum {
    NPRB_VM_NUMA_HINT_FAULTS,
    NPRB_VM_NUMA_PAGES_MIGRATED,
    NPRB_VM_PGMIGRATE_SUCCESS,
    NPRB_VM_PGMIGRATE_FAIL,
    NPRB_VM_THP_FAULT_ALLOC,
    NPRB_VM_THP_FAULT_FALLBACK,
    NPRB_VM_PGFAULT,
    NPRB_VM_PGMAJFAULT,
    NPRB_VMSTAT_FIELDS
};

struct nprb_vmstat {
    bool ok;
    uint64_t v[NPRB_VMSTAT_FIELDS];
};

/** Reads @p path (/proc/vmstat). ok is false when unreadable. */
void nprb_vmstat_read(const char *path, struct nprb_vmstat *out);

/** The name of counter @p i. */
const char *nprb_vmstat_name(int i);

/** Where rows go and what they describe. */
struct nprb_counter_target {
    struct nprb_results *results;
    int32_t rank, measurement;
    const char *experiment;
};

/** Appends a measurement's rows: per-thread events that opened, and vmstat deltas. */
void nprb_record_counts(const struct nprb_counter_target *to, const struct nprb_counts *counts,
                        const struct nprb_vmstat *before, const struct nprb_vmstat *after);

/** Appends the host rows (measurement -1): each event of @p groups the host cannot count. */
void nprb_record_counters_unavailable(struct nprb_results *results, int32_t rank, unsigned groups);

#endif
