/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file pmu_sysfs.h
 * perf PMU events as the Linux kernel itself describes them under /sys/bus/event_source/devices,
 * so numaprobe never hand-copies an encoding: a PMU's perf type (PMU/type) and the CPUs its
 * counters are read on (PMU/cpumask), its format fields (PMU/format/TERM, "config:0-7",
 * "config:0-7,32-35", "config1:0-63"), and an event's terms (PMU/events/EVENT, "event=0x04,
 * umask=0x03"; a bare term means =1) with its scale and unit (EVENT.scale, EVENT.unit), encoded
 * into perf_event_attr's config words. PMU, event and term names are plain names (no '/', no
 * leading '.'), never paths. No heap.
 */
#ifndef NPRB_PMU_SYSFS_H
#define NPRB_PMU_SYSFS_H

#include <stddef.h>
#include <stdint.h>

/** Where the kernel lists its PMUs; a parameter everywhere so tests can use a fake tree. */
#define NPRB_PMU_SYSFS_ROOT "/sys/bus/event_source/devices"
#define NPRB_PMU_MAX_CPUS 64
/** Room for a PMU name in nprb_pmu_list()'s names (longer names are skipped). */
#define NPRB_PMU_NAME_MAX 32

struct nprb_pmu_event {
    uint32_t type; /* perf_event_attr.type, from PMU/type */
    uint64_t config, config1, config2;
    double scale;                /* 1 when there is no EVENT.scale file */
    char unit[16];               /* "" when there is no EVENT.unit file */
    int cpus[NPRB_PMU_MAX_CPUS]; /* from PMU/cpumask, in its order */
    int cpu_count;               /* 0 when PMU/cpumask is absent or empty */
};

/** Reads event @p event of PMU @p pmu under @p root into @p ev (zeroed first).
 * @return 0, or -1 with a one-line reason in @p why (e.g. "no event cas_count_read in
 * uncore_imc_0", "format term 'foo' unknown to uncore_imc_0"); @p why may be NULL. */
int nprb_pmu_event_read(const char *root, const char *pmu, const char *event,
                        struct nprb_pmu_event *ev, char *why, size_t len);

/** Encodes @p terms ("event=0x04,umask=0x03,edge") with the format files of @p format_dir into
 * ev->config/config1/config2: each term's value spread over its field's ranges, low bits first,
 * replacing that field's bits and keeping all others (so a second call can override a field).
 * "config", "config1" and "config2" without a format file of that name set the whole word.
 * Values are hex (0x) or decimal. Refuses an unknown term, a value wider than its field, a
 * value of "?" (one perf wants from the user), a field of a fourth config word or beyond, and
 * garbage; @p ev is unchanged then. @return 0, or -1 with a one-line reason in @p why. */
int nprb_pmu_encode(const char *format_dir, const char *terms, struct nprb_pmu_event *ev, char *why,
                    size_t len);

/** Names of the PMUs under @p root starting with @p prefix, in natural order (uncore_imc_2
 * before uncore_imc_10): the first @p max of them. @return the count, 0 when none match or
 * @p root is absent. */
int nprb_pmu_list(const char *root, const char *prefix, char names[][NPRB_PMU_NAME_MAX], int max);

/** A count of @p ev in bytes: count * scale * the unit's multiplier ("B", "Bytes", "bytes" 1,
 * "KiB" 1024, "MiB" 1048576, "GiB" 1073741824). NAN for "" (a count of a unit-less thing) and
 * for any other unit. */
double nprb_pmu_bytes(double count, const struct nprb_pmu_event *ev);

#endif
