/* SPDX-License-Identifier: BSD-3-Clause */
/* Counters beside each measurement (counters.h): per-thread perf_event_open software and core
 * events, the sysfs uncore event descriptions and their scaling, /proc/vmstat deltas, and the
 * /counters rows they become. */
#include "counters.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

struct thread_event {
    const char *name;
    unsigned group;
    uint32_t type;
    uint64_t config;
    const char *unit;
};

#define CACHE(id, op, result) ((id) | ((op) << 8) | ((result) << 16))
static const struct thread_event thread_events[NPRB_THREAD_EVENTS] = {
    [NPRB_EV_TASK_CLOCK] = {"task-clock", NPRB_COUNT_SOFTWARE, PERF_TYPE_SOFTWARE,
                            PERF_COUNT_SW_TASK_CLOCK, "ns"},
    [NPRB_EV_PAGE_FAULTS] = {"page-faults", NPRB_COUNT_SOFTWARE, PERF_TYPE_SOFTWARE,
                             PERF_COUNT_SW_PAGE_FAULTS, "count"},
    [NPRB_EV_CPU_MIGRATIONS] = {"cpu-migrations", NPRB_COUNT_SOFTWARE, PERF_TYPE_SOFTWARE,
                                PERF_COUNT_SW_CPU_MIGRATIONS, "count"},
    [NPRB_EV_CONTEXT_SWITCHES] = {"context-switches", NPRB_COUNT_SOFTWARE, PERF_TYPE_SOFTWARE,
                                  PERF_COUNT_SW_CONTEXT_SWITCHES, "count"},
    [NPRB_EV_CYCLES] = {"cycles", NPRB_COUNT_CORE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
                        "count"},
    [NPRB_EV_INSTRUCTIONS] = {"instructions", NPRB_COUNT_CORE, PERF_TYPE_HARDWARE,
                              PERF_COUNT_HW_INSTRUCTIONS, "count"},
    [NPRB_EV_LLC_LOADS] = {"LLC-loads", NPRB_COUNT_CORE, PERF_TYPE_HW_CACHE,
                           CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ,
                                 PERF_COUNT_HW_CACHE_RESULT_ACCESS),
                           "count"},
    [NPRB_EV_LLC_MISSES] = {"LLC-load-misses", NPRB_COUNT_CORE, PERF_TYPE_HW_CACHE,
                            CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ,
                                  PERF_COUNT_HW_CACHE_RESULT_MISS),
                            "count"},
    [NPRB_EV_DTLB_MISSES] = {"dTLB-load-misses", NPRB_COUNT_CORE, PERF_TYPE_HW_CACHE,
                             CACHE(PERF_COUNT_HW_CACHE_DTLB, PERF_COUNT_HW_CACHE_OP_READ,
                                   PERF_COUNT_HW_CACHE_RESULT_MISS),
                             "count"},
};

/* The uncore events looked for, by PMU name prefix. */
static const char *const uncore_pmus[] = {"uncore_imc", "amd_df", "amd_umc"};
static const char *const uncore_events[] = {"cas_count_read", "cas_count_write",
                                            "dram_channel_data_controller_0"};

void nprb_thread_counters_open(struct nprb_thread_counters *tc, unsigned groups)
{
    for (int e = 0; e < NPRB_THREAD_EVENTS; e++) {
        tc->fd[e] = -1;
        if ((thread_events[e].group & groups) == 0)
            continue;
        struct perf_event_attr attr;
        memset(&attr, 0, sizeof attr);
        attr.size = sizeof attr;
        attr.type = thread_events[e].type;
        attr.config = thread_events[e].config;
        attr.disabled = 1;
        attr.exclude_hv = 1;
        attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
        tc->fd[e] = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    }
}

void nprb_thread_counters_enable(struct nprb_thread_counters *tc)
{
    for (int e = 0; e < NPRB_THREAD_EVENTS; e++)
        if (tc->fd[e] >= 0)
            ioctl(tc->fd[e], PERF_EVENT_IOC_ENABLE, 0);
}

void nprb_thread_counters_close(struct nprb_thread_counters *tc, struct nprb_counts *sum)
{
    for (int e = 0; e < NPRB_THREAD_EVENTS; e++) {
        if (tc->fd[e] < 0)
            continue;
        ioctl(tc->fd[e], PERF_EVENT_IOC_DISABLE, 0);
        uint64_t r[3];
        if (read(tc->fd[e], r, sizeof r) == (ssize_t)sizeof r) {
            __atomic_fetch_add(&sum->ev[e].value, r[0], __ATOMIC_RELAXED);
            __atomic_fetch_add(&sum->ev[e].enabled_ns, r[1], __ATOMIC_RELAXED);
            __atomic_fetch_add(&sum->ev[e].running_ns, r[2], __ATOMIC_RELAXED);
            __atomic_fetch_add(&sum->threads[e], 1, __ATOMIC_RELAXED);
        }
        close(tc->fd[e]);
        tc->fd[e] = -1;
    }
}

double nprb_count_scaled(uint64_t value, uint64_t enabled_ns, uint64_t running_ns)
{
    if (enabled_ns == 0)
        return (double)value;
    if (running_ns == 0)
        return NAN;
    return (double)value * ((double)enabled_ns / (double)running_ns);
}

int nprb_pmu_format_parse(const char *name, const char *text, struct nprb_pmu_format *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    const char *colon = strchr(text, ':');
    if (colon == NULL)
        return -1;
    size_t n = (size_t)(colon - text);
    if (n == 6 && strncmp(text, "config", 6) == 0)
        out->word = 0;
    else if (n == 7 && strncmp(text, "config", 6) == 0 && (text[6] == '1' || text[6] == '2'))
        out->word = text[6] - '0';
    else
        return -1;
    const char *p = colon + 1;
    while (out->ranges < 4) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p || lo < 0 || lo > 63)
            return -1;
        p = end;
        if (*p == '-') {
            hi = strtol(p + 1, &end, 10);
            if (end == p + 1 || hi < lo || hi > 63)
                return -1;
            p = end;
        }
        out->lo[out->ranges] = (int)lo;
        out->hi[out->ranges] = (int)hi;
        out->ranges++;
        if (*p != ',')
            break;
        p++;
    }
    return *p == '\0' || *p == '\n' ? 0 : -1;
}

/* Spreads @p value over the format's bit ranges, low bits first. */
static void put_bits(const struct nprb_pmu_format *f, uint64_t value, uint64_t config[3])
{
    for (int r = 0; r < f->ranges; r++) {
        int width = f->hi[r] - f->lo[r] + 1;
        uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
        config[f->word] |= (value & mask) << f->lo[r];
        value = width >= 64 ? 0 : value >> width;
    }
}

int nprb_pmu_encode(const char *text, const struct nprb_pmu_format *formats, int count,
                    uint64_t config[3], char *why, size_t len)
{
    config[0] = config[1] = config[2] = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    buf[strcspn(buf, "\n")] = '\0';
    char *save = NULL;
    for (char *term = strtok_r(buf, ",", &save); term != NULL; term = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(term, '=');
        uint64_t value = 1;
        if (eq != NULL) {
            *eq = '\0';
            char *end;
            value = strtoull(eq + 1, &end, 0);
            if (end == eq + 1 || *end != '\0') {
                snprintf(why, len, "term %s: value '%s' is not a number", term, eq + 1);
                return -1;
            }
        }
        const struct nprb_pmu_format *f = NULL;
        for (int i = 0; i < count && f == NULL; i++)
            if (strcmp(formats[i].name, term) == 0)
                f = &formats[i];
        if (f == NULL) {
            snprintf(why, len, "term %s has no format file", term);
            return -1;
        }
        put_bits(f, value, config);
    }
    return 0;
}

double nprb_pmu_unit_bytes(const char *unit)
{
    static const struct {
        const char *name;
        double bytes;
    } units[] = {{"Bytes", 1},          {"B", 1},    {"KiB", 1024.0}, {"MiB", 1048576.0},
                 {"GiB", 1073741824.0}, {"KB", 1e3}, {"MB", 1e6},     {"GB", 1e9}};
    char u[32];
    snprintf(u, sizeof u, "%s", unit != NULL ? unit : "");
    u[strcspn(u, " \n")] = '\0';
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(u, units[i].name) == 0)
            return units[i].bytes;
    return 0;
}

double nprb_uncore_bytes(uint64_t value, uint64_t enabled_ns, uint64_t running_ns, double scale,
                         const char *unit)
{
    double per = nprb_pmu_unit_bytes(unit);
    if (per == 0 || !(scale > 0))
        return NAN;
    return nprb_count_scaled(value, enabled_ns, running_ns) * scale * per;
}

static int read_text(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* The first uncore memory-controller PMU with one of our events, into @p pmu. */
static bool find_uncore(const char *root, char *pmu, size_t len, char *event, size_t elen)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bus/event_source/devices", root);
    DIR *d = opendir(path);
    bool found = false;
    for (struct dirent *e; d != NULL && !found && (e = readdir(d)) != NULL;) {
        for (size_t p = 0; p < sizeof uncore_pmus / sizeof uncore_pmus[0] && !found; p++) {
            if (strncmp(e->d_name, uncore_pmus[p], strlen(uncore_pmus[p])) != 0)
                continue;
            for (size_t v = 0; v < sizeof uncore_events / sizeof uncore_events[0]; v++) {
                char buf[64];
                snprintf(path, sizeof path, "%s/bus/event_source/devices/%s/events/%s", root,
                         e->d_name, uncore_events[v]);
                if (read_text(path, buf, sizeof buf) == 0) {
                    snprintf(pmu, len, "%s", e->d_name);
                    snprintf(event, elen, "%s", uncore_events[v]);
                    found = true;
                    break;
                }
            }
        }
    }
    if (d != NULL)
        closedir(d);
    return found;
}

void nprb_counters_why_not(unsigned group, const char *root, char *why, size_t len)
{
    char path[512], pmu[128], event[64];
    why[0] = '\0';
    if (group == NPRB_COUNT_CORE) {
        snprintf(path, sizeof path, "%s/bus/event_source/devices/cpu", root);
        if (access(path, F_OK) != 0)
            snprintf(why, len,
                     "not applicable: no CPU PMU (%s absent; a virtual machine without vPMU)",
                     path);
        return;
    }
    if (group != NPRB_COUNT_UNCORE)
        return;
    if (!find_uncore(root, pmu, sizeof pmu, event, sizeof event)) {
        snprintf(why, len,
                 "not applicable: no uncore memory-controller PMU (uncore_imc*, amd_df, amd_umc*) "
                 "in %s/bus/event_source/devices",
                 root);
        return;
    }
    char paranoid[16] = "";
    (void)read_text("/proc/sys/kernel/perf_event_paranoid", paranoid, sizeof paranoid);
    if (geteuid() != 0 && atoi(paranoid) > 0)
        snprintf(why, len,
                 "not applicable: %s/%s needs root or CAP_PERFMON (perf_event_paranoid=%s)", pmu,
                 event, paranoid);
    else
        snprintf(why, len,
                 "not applicable: %s/%s found, but counting it around measurements is not "
                 "implemented yet (issue 18)",
                 pmu, event);
}

static const char *const vm_names[NPRB_VMSTAT_FIELDS] = {
    "numa_hint_faults", "numa_pages_migrated", "pgmigrate_success", "pgmigrate_fail",
    "thp_fault_alloc",  "thp_fault_fallback",  "pgfault",           "pgmajfault",
};

const char *nprb_vmstat_name(int i)
{
    return i >= 0 && i < NPRB_VMSTAT_FIELDS ? vm_names[i] : "";
}

void nprb_vmstat_read(const char *path, struct nprb_vmstat *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    char key[64];
    unsigned long long v;
    while (fscanf(f, "%63s %llu", key, &v) == 2)
        for (int i = 0; i < NPRB_VMSTAT_FIELDS; i++)
            if (strcmp(key, vm_names[i]) == 0)
                out->v[i] = v;
    fclose(f);
    out->ok = true;
}

static void add_row(const struct nprb_counter_target *to, struct nprb_counter_row *row)
{
    row->rank = to->rank;
    row->measurement = to->measurement;
    NPRB_SET_TEXT(row->experiment, to->experiment);
    nprb_results_add(to->results, NPRB_TABLE_COUNTERS, row);
}

void nprb_record_counts(const struct nprb_counter_target *to, const struct nprb_counts *counts,
                        const struct nprb_vmstat *before, const struct nprb_vmstat *after)
{
    for (int e = 0; counts != NULL && e < NPRB_THREAD_EVENTS; e++) {
        if ((thread_events[e].group & counts->groups) == 0 || counts->threads[e] == 0)
            continue;
        const struct nprb_count *c = &counts->ev[e];
        struct nprb_counter_row row = {
            .value = (double)c->value,
            .time_enabled_ns = c->enabled_ns,
            .time_running_ns = c->running_ns,
            .scaled = nprb_count_scaled(c->value, c->enabled_ns, c->running_ns)};
        NPRB_SET_TEXT(row.event, thread_events[e].name);
        NPRB_SET_TEXT(row.group, thread_events[e].group == NPRB_COUNT_CORE ? "core" : "software");
        snprintf(row.scope, sizeof row.scope, "threads:%d", counts->threads[e]);
        NPRB_SET_TEXT(row.unit, thread_events[e].unit);
        NPRB_SET_TEXT(row.status, isnan(row.scaled) ? NPRB_ROW_NOT_APPLICABLE : NPRB_ROW_OK);
        if (isnan(row.scaled))
            NPRB_SET_TEXT(row.note, "not applicable: enabled but never scheduled on the PMU");
        else if (c->running_ns < c->enabled_ns)
            snprintf(row.note, sizeof row.note, "multiplexed: ran %.0f%% of the time enabled",
                     100.0 * (double)c->running_ns / (double)c->enabled_ns);
        add_row(to, &row);
    }
    if (before == NULL || after == NULL || !before->ok || !after->ok)
        return;
    for (int i = 0; i < NPRB_VMSTAT_FIELDS; i++) {
        struct nprb_counter_row row = {.value = (double)(after->v[i] - before->v[i])};
        row.scaled = row.value;
        NPRB_SET_TEXT(row.event, vm_names[i]);
        NPRB_SET_TEXT(row.group, "vmstat");
        NPRB_SET_TEXT(row.scope, "system");
        NPRB_SET_TEXT(row.unit, i >= NPRB_VM_THP_FAULT_ALLOC ? "count" : "pages");
        if (i == NPRB_VM_NUMA_HINT_FAULTS || i >= NPRB_VM_PGFAULT)
            NPRB_SET_TEXT(row.unit, "count");
        NPRB_SET_TEXT(row.status, NPRB_ROW_OK);
        add_row(to, &row);
    }
}

void nprb_record_counters_unavailable(struct nprb_results *results, int32_t rank, unsigned groups)
{
    static const unsigned checked[] = {NPRB_COUNT_CORE, NPRB_COUNT_UNCORE};
    for (size_t g = 0; g < sizeof checked / sizeof checked[0]; g++) {
        char why[NPRB_NOTE_LEN];
        if ((groups & checked[g]) == 0)
            continue;
        nprb_counters_why_not(checked[g], "/sys", why, sizeof why);
        if (why[0] == '\0')
            continue;
        struct nprb_counter_target to = {results, rank, -1, ""};
        for (int e = 0; e < NPRB_THREAD_EVENTS + 2; e++) {
            bool uncore = checked[g] == NPRB_COUNT_UNCORE;
            if (uncore ? e < NPRB_THREAD_EVENTS
                       : (e >= NPRB_THREAD_EVENTS || thread_events[e].group != checked[g]))
                continue;
            struct nprb_counter_row row = {.value = NAN, .scaled = NAN};
            NPRB_SET_TEXT(row.event,
                          uncore ? uncore_events[e - NPRB_THREAD_EVENTS] : thread_events[e].name);
            NPRB_SET_TEXT(row.group, uncore ? "uncore" : "core");
            NPRB_SET_TEXT(row.scope, uncore ? "uncore" : "threads");
            NPRB_SET_TEXT(row.unit, uncore ? "bytes" : "count");
            NPRB_SET_TEXT(row.status, NPRB_ROW_NOT_APPLICABLE);
            NPRB_SET_TEXT(row.note, why);
            add_row(&to, &row);
        }
    }
}
