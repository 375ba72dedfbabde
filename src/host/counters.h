/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file counters.h
 * Counters of one measured thread, through perf_event_open: the kernel's software events
 * (task-clock, page-faults, cpu-migrations, context-switches) everywhere, and the CPU's own
 * (cycles, instructions, LLC loads and misses, dTLB misses) where it exposes a PMU. Each thread
 * opens its own counters, disabled, and the engine enables them just before its timed samples
 * and disables them after, so counting is never inside a timed region. Multiplexed counters are
 * scaled by time enabled over time running. Also the names of the counter groups a config
 * chooses (software, core, uncore, vmstat).
 */
#ifndef NPRB_COUNTERS_H
#define NPRB_COUNTERS_H

#include "util/names.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The groups of counters `counters.groups` chooses among. */
enum nprb_counter_group {
    NPRB_COUNTERS_SOFTWARE, /**< the kernel's per-thread software events */
    NPRB_COUNTERS_CORE,     /**< the CPU's per-thread hardware events */
    NPRB_COUNTERS_UNCORE,   /**< the memory controllers' bytes, per socket */
    NPRB_COUNTERS_VMSTAT,   /**< /proc/vmstat deltas, system-wide */
    NPRB_N_COUNTER_GROUPS
};
#define NPRB_COUNTER_GROUP_BIT(group) (1u << (group))

/** "software", "core", "uncore", "vmstat". */
const char *nprb_counter_group_name(enum nprb_counter_group group);

/** Parses a group name. @return 0, or -1 with "unknown counter group 'x' (expected ...)". */
int nprb_counter_group_parse(const char *text, enum nprb_counter_group *group, char *why,
                             size_t len);

/** The groups' names, as nprb_counter_group_parse() reads them (counters.groups). */
extern const struct nprb_name_table nprb_counter_group_names;

/** The events each measured thread counts, in the order of the /counters rows. */
enum nprb_thread_event {
    NPRB_EV_TASK_CLOCK,
    NPRB_EV_PAGE_FAULTS,
    NPRB_EV_CPU_MIGRATIONS,
    NPRB_EV_CONTEXT_SWITCHES,
    NPRB_EV_CYCLES,
    NPRB_EV_INSTRUCTIONS,
    NPRB_EV_LLC_LOADS,
    NPRB_EV_LLC_MISSES,
    NPRB_EV_DTLB_MISSES,
    NPRB_N_THREAD_EVENTS
};

/** The event's name in the /counters table ("task_clock", ...). */
const char *nprb_thread_event_name(enum nprb_thread_event event);
/** Its group (software or core). */
enum nprb_counter_group nprb_thread_event_group(enum nprb_thread_event event);
/** Its unit ("ns" for task_clock, "events" for the others). */
const char *nprb_thread_event_unit(enum nprb_thread_event event);

/** One event summed over the threads that counted it. */
struct nprb_count {
    uint64_t value;      /**< raw counts, summed */
    double scaled;       /**< each thread's value * enabled / running, summed */
    uint64_t enabled_ns; /**< time the counters were enabled, summed over threads */
    uint64_t running_ns; /**< time they were on the PMU, summed over threads */
    int threads;         /**< threads whose counter was read */
    int never_enabled;   /**< of them, those whose counter reads 0 s enabled: it never ran */
    int stalled;         /**< of them, those enabled under half their samples' time, unswitched */
    int failed;          /**< threads whose counter could not be opened or read */
    int error;           /**< errno of the first failure */
    bool user_only;      /**< counted user space alone (perf_event_paranoid refused the kernel) */
};

/** Every thread event of one measurement; groups says which were asked for. */
struct nprb_counts {
    unsigned groups; /**< NPRB_COUNTER_GROUP_BIT()s the measurement asked for */
    struct nprb_count event[NPRB_N_THREAD_EVENTS];
};

/** The calling thread's open counters (fd -1: not opened). */
struct nprb_thread_counters {
    int fd[NPRB_N_THREAD_EVENTS];
    int error[NPRB_N_THREAD_EVENTS];
    bool user_only[NPRB_N_THREAD_EVENTS];
};

/**
 * Opens, disabled, the events of @p groups (software and core; others are ignored) for the
 * calling thread. An event the host cannot count is left closed with its errno; a hardware event
 * the host has no PMU for is not even tried (nprb_thread_event_unavailable()).
 */
void nprb_thread_counters_open(struct nprb_thread_counters *tc, unsigned groups);

/**
 * perf_event_open() of one event, disabled, reading value, time enabled and time running:
 * @p pid and @p cpu as the syscall takes them; @p user_only leaves the kernel's share out.
 * @return the fd, or -1 with errno.
 */
int nprb_perf_event_open(uint32_t type, const uint64_t config[3], int pid, int cpu, bool user_only);

/** Resets and enables the open counters. Call outside the timed region. */
void nprb_thread_counters_start(struct nprb_thread_counters *tc);

/** Disables the open counters. Call outside the timed region. */
void nprb_thread_counters_stop(struct nprb_thread_counters *tc);

/** Enables the open counters again, keeping what they counted. Call outside the timed region. */
void nprb_thread_counters_resume(struct nprb_thread_counters *tc);

/**
 * Reads the counters into @p into (added to what other threads put there), then closes them.
 * Events opened by no thread of the measurement keep threads == 0. @p counted_ns is the wall
 * time of the samples this thread counted (0: not known), against which nprb_count_stalled()
 * judges each reading. The caller serialises calls on the same @p into.
 */
void nprb_thread_counters_collect(struct nprb_thread_counters *tc, struct nprb_counts *into,
                                  uint64_t counted_ns);

/**
 * Whether a thread's counter enabled for @p enabled_ns over samples that took @p counted_ns of
 * wall time, with @p switches context switches counted between (UINT64_MAX: not counted), missed
 * part of them. A per-thread counter's time runs while its thread is on a CPU, so without a
 * switch it must cover the samples; under half of them, the kernel's clock for the counters
 * stalled (seen in virtual machines under load) and every count of that thread is partial.
 */
bool nprb_count_stalled(uint64_t enabled_ns, uint64_t counted_ns, uint64_t switches);

/** Adds the threads counted in @p more to @p into (a team's counts from each thread's own). */
void nprb_counts_merge(struct nprb_counts *into, const struct nprb_counts *more);

/**
 * Adds one thread's reading to @p c: @p read_value is what read() gives with
 * PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING (value, time enabled, time
 * running, ns); the scaled sum grows by that thread's own scaled value.
 */
void nprb_count_add(struct nprb_count *c, const uint64_t read_value[3], bool user_only);

/**
 * A multiplexed count scaled to the whole time enabled: @p value * @p enabled_ns / @p running_ns;
 * @p value itself when the counter ran all the time; NAN when it never ran.
 */
double nprb_counter_scaled(uint64_t value, uint64_t enabled_ns, uint64_t running_ns);

/**
 * Whether @p event can never be counted on this host, and why, in @p why: a hardware event on a
 * host with no CPU PMU in /sys/bus/event_source/devices, or one perf_event_open refuses (with the
 * errno and, for EACCES, kernel.perf_event_paranoid). Probed once per process on the calling
 * thread, which keeps one disabled event of each kind open from then on: call it before the
 * first measurement (see counters.c for why). @return true (unavailable) or false.
 */
bool nprb_thread_event_unavailable(enum nprb_thread_event event, char *why, size_t len);

#endif
