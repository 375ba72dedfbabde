/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/counters.h"

#include "util/names.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static const char *const group_names[NPRB_N_COUNTER_GROUPS] = {"software", "core", "uncore",
                                                               "vmstat"};

const struct nprb_name_table nprb_counter_group_names = {
    .rows = group_names,
    .stride = sizeof group_names[0],
    .count = NPRB_N_COUNTER_GROUPS,
    .allowed = NPRB_NAMES_ALL,
    .what = "counter group",
};

const char *nprb_counter_group_name(enum nprb_counter_group group)
{
    return group_names[group];
}

int nprb_counter_group_parse(const char *text, enum nprb_counter_group *group, char *why,
                             size_t len)
{
    int i;
    if (nprb_name_parse(&nprb_counter_group_names, text, &i, why, len) != 0)
        return -1;
    *group = (enum nprb_counter_group)i;
    return 0;
}

#define CACHE_EVENT(cache, op, result)                                                             \
    ((PERF_COUNT_HW_CACHE_##cache) | ((PERF_COUNT_HW_CACHE_OP_##op) << 8) |                        \
     ((PERF_COUNT_HW_CACHE_RESULT_##result) << 16))

static const struct {
    const char *name; /* first: the table is a name table for nprb_name_find() */
    enum nprb_counter_group group;
    uint32_t type;
    uint64_t config;
} events[NPRB_N_THREAD_EVENTS] = {
    [NPRB_EV_TASK_CLOCK] = {"task_clock", NPRB_COUNTERS_SOFTWARE, PERF_TYPE_SOFTWARE,
                            PERF_COUNT_SW_TASK_CLOCK},
    [NPRB_EV_PAGE_FAULTS] = {"page_faults", NPRB_COUNTERS_SOFTWARE, PERF_TYPE_SOFTWARE,
                             PERF_COUNT_SW_PAGE_FAULTS},
    [NPRB_EV_CPU_MIGRATIONS] = {"cpu_migrations", NPRB_COUNTERS_SOFTWARE, PERF_TYPE_SOFTWARE,
                                PERF_COUNT_SW_CPU_MIGRATIONS},
    [NPRB_EV_CONTEXT_SWITCHES] = {"context_switches", NPRB_COUNTERS_SOFTWARE, PERF_TYPE_SOFTWARE,
                                  PERF_COUNT_SW_CONTEXT_SWITCHES},
    [NPRB_EV_CYCLES] = {"cycles", NPRB_COUNTERS_CORE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    [NPRB_EV_INSTRUCTIONS] = {"instructions", NPRB_COUNTERS_CORE, PERF_TYPE_HARDWARE,
                              PERF_COUNT_HW_INSTRUCTIONS},
    [NPRB_EV_LLC_LOADS] = {"llc_loads", NPRB_COUNTERS_CORE, PERF_TYPE_HW_CACHE,
                           CACHE_EVENT(LL, READ, ACCESS)},
    [NPRB_EV_LLC_MISSES] = {"llc_load_misses", NPRB_COUNTERS_CORE, PERF_TYPE_HW_CACHE,
                            CACHE_EVENT(LL, READ, MISS)},
    [NPRB_EV_DTLB_MISSES] = {"dtlb_load_misses", NPRB_COUNTERS_CORE, PERF_TYPE_HW_CACHE,
                             CACHE_EVENT(DTLB, READ, MISS)},
};

const char *nprb_thread_event_name(enum nprb_thread_event event)
{
    return events[event].name;
}

enum nprb_counter_group nprb_thread_event_group(enum nprb_thread_event event)
{
    return events[event].group;
}

const char *nprb_thread_event_unit(enum nprb_thread_event event)
{
    return event == NPRB_EV_TASK_CLOCK ? "ns" : "events";
}

double nprb_counter_scaled(uint64_t value, uint64_t enabled_ns, uint64_t running_ns)
{
    /* Never on the PMU, or never enabled at all over a measurement that ran (an emulated
     * guest's perf reads so now and then): unknown, not zero. */
    if (running_ns == 0)
        return NAN;
    if (running_ns >= enabled_ns)
        return (double)value;
    return (double)value * ((double)enabled_ns / (double)running_ns);
}

int nprb_perf_event_open(uint32_t type, const uint64_t config[3], int pid, int cpu, bool user_only)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = type;
    attr.config = config[0];
    attr.config1 = config[1];
    attr.config2 = config[2];
    attr.disabled = 1;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    attr.exclude_kernel = user_only;
    attr.exclude_hv = user_only;
    return (int)syscall(SYS_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Opens @p event for the calling thread, disabled; counts the kernel's share too unless
 * perf_event_paranoid refuses it, then user space alone. @return the fd, or -1 with errno. */
static int open_event(enum nprb_thread_event event, bool *user_only)
{
    const uint64_t config[3] = {events[event].config, 0, 0};
    *user_only = false;
    int fd = nprb_perf_event_open(events[event].type, config, 0, -1, false);
    if (fd < 0 && errno == EACCES) {
        *user_only = true;
        fd = nprb_perf_event_open(events[event].type, config, 0, -1, true);
    }
    return fd;
}

/* Whether the kernel lists a CPU PMU: "cpu" (x86, most), "cpu_core"/"cpu_atom" (hybrid Intel),
 * or an Arm PMU. */
static bool has_cpu_pmu(void)
{
    static const char *const names[] = {"cpu", "cpu_core", "cpu_atom", "armv8_pmuv3_0",
                                        "armv8_pmuv3"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[96];
        snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s", names[i]);
        if (access(path, F_OK) == 0)
            return true;
    }
    return false;
}

static int paranoid_level(void)
{
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    int level = 99;
    if (f != NULL) {
        if (fscanf(f, "%d", &level) != 1)
            level = 99;
        fclose(f);
    }
    return level;
}

static char unavailable_why[NPRB_N_THREAD_EVENTS][128];
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

/* The probe's software events, kept open (disabled) for the life of the process. The kernel
 * turns its software-event hooks on with a static key when the first event of a kind opens and
 * off when the last closes; each flip rewrites kernel text and waits for every CPU to take an
 * IPI. Opening and closing counters around every measurement would flip them each time,
 * interrupting every core of the host (other ranks' measurements included), and a multi-CPU
 * QEMU TCG guest locked up in that flip. One event of each kind held open keeps the keys on, so
 * a measurement's opens and closes only count references. */
static int held_fd[NPRB_N_THREAD_EVENTS];

static void probe(void)
{
    bool pmu = has_cpu_pmu();
    for (int e = 0; e < NPRB_N_THREAD_EVENTS; e++) {
        char *why = unavailable_why[e];
        if (events[e].group == NPRB_COUNTERS_CORE && !pmu) {
            snprintf(why, sizeof unavailable_why[e],
                     "no CPU PMU: /sys/bus/event_source/devices has no cpu (a virtual machine "
                     "without a virtual PMU?)");
            continue;
        }
        bool user_only;
        int fd = open_event((enum nprb_thread_event)e, &user_only);
        if (fd >= 0) {
            held_fd[e] = fd;
            continue;
        }
        int err = errno;
        if (err == EACCES || err == EPERM)
            snprintf(why, sizeof unavailable_why[e],
                     "perf_event_open: %s (kernel.perf_event_paranoid is %d; root or "
                     "CAP_PERFMON counts)",
                     strerror(err), paranoid_level());
        else if (err == ENOENT || err == EOPNOTSUPP || err == EINVAL)
            snprintf(why, sizeof unavailable_why[e],
                     "perf_event_open: %s (the kernel maps no such event for this CPU)",
                     strerror(err));
        else
            snprintf(why, sizeof unavailable_why[e], "perf_event_open: %s", strerror(err));
    }
}

bool nprb_thread_event_unavailable(enum nprb_thread_event event, char *why, size_t len)
{
    pthread_once(&probe_once, probe);
    if (unavailable_why[event][0] == '\0')
        return false;
    snprintf(why, len, "%s", unavailable_why[event]);
    return true;
}

void nprb_thread_counters_open(struct nprb_thread_counters *tc, unsigned groups)
{
    char why[8];
    for (int e = 0; e < NPRB_N_THREAD_EVENTS; e++) {
        tc->fd[e] = -1;
        tc->error[e] = 0;
        tc->user_only[e] = false;
        if (!(groups & NPRB_COUNTER_GROUP_BIT(events[e].group)))
            continue;
        if (nprb_thread_event_unavailable((enum nprb_thread_event)e, why, sizeof why)) {
            tc->error[e] = ENOENT;
            continue;
        }
        tc->fd[e] = open_event((enum nprb_thread_event)e, &tc->user_only[e]);
        if (tc->fd[e] < 0)
            tc->error[e] = errno;
    }
}

void nprb_thread_counters_start(struct nprb_thread_counters *tc)
{
    for (int e = 0; e < NPRB_N_THREAD_EVENTS; e++) {
        if (tc->fd[e] >= 0) {
            ioctl(tc->fd[e], PERF_EVENT_IOC_RESET, 0);
            ioctl(tc->fd[e], PERF_EVENT_IOC_ENABLE, 0);
        }
    }
}

void nprb_thread_counters_stop(struct nprb_thread_counters *tc)
{
    for (int e = 0; e < NPRB_N_THREAD_EVENTS; e++)
        if (tc->fd[e] >= 0)
            ioctl(tc->fd[e], PERF_EVENT_IOC_DISABLE, 0);
}

void nprb_thread_counters_resume(struct nprb_thread_counters *tc)
{
    for (int e = 0; e < NPRB_N_THREAD_EVENTS; e++)
        if (tc->fd[e] >= 0)
            ioctl(tc->fd[e], PERF_EVENT_IOC_ENABLE, 0);
}

static void count_failure(struct nprb_count *c, int error)
{
    if (c->failed++ == 0)
        c->error = error;
}

void nprb_count_add(struct nprb_count *c, const uint64_t read_value[3], bool user_only)
{
    c->value += read_value[0];
    c->enabled_ns += read_value[1];
    c->running_ns += read_value[2];
    c->scaled += nprb_counter_scaled(read_value[0], read_value[1], read_value[2]);
    c->user_only = c->user_only || user_only;
    c->never_enabled += read_value[1] == 0;
    c->threads++;
}

void nprb_counts_merge(struct nprb_counts *into, const struct nprb_counts *more)
{
    for (int e = 0; e < NPRB_N_THREAD_EVENTS; e++) {
        struct nprb_count *c = &into->event[e];
        const struct nprb_count *m = &more->event[e];
        if (c->failed == 0 && m->failed > 0)
            c->error = m->error;
        c->value += m->value;
        c->scaled += m->scaled;
        c->enabled_ns += m->enabled_ns;
        c->running_ns += m->running_ns;
        c->threads += m->threads;
        c->never_enabled += m->never_enabled;
        c->stalled += m->stalled;
        c->failed += m->failed;
        c->user_only = c->user_only || m->user_only;
    }
}

bool nprb_count_stalled(uint64_t enabled_ns, uint64_t counted_ns, uint64_t switches)
{
    return switches == 0 && counted_ns > 0 && enabled_ns > 0 && enabled_ns < counted_ns / 2;
}

void nprb_thread_counters_collect(struct nprb_thread_counters *tc, struct nprb_counts *into,
                                  uint64_t counted_ns)
{
    uint64_t got[NPRB_N_THREAD_EVENTS][3]; /* value, time enabled, time running */
    bool read_ok[NPRB_N_THREAD_EVENTS] = {false};
    for (int e = 0; e < NPRB_N_THREAD_EVENTS; e++) {
        if (tc->fd[e] < 0)
            continue;
        ssize_t n = read(tc->fd[e], got[e], sizeof got[e]);
        read_ok[e] = n == (ssize_t)sizeof got[e];
        if (!read_ok[e])
            count_failure(&into->event[e], n < 0 ? errno : EIO);
        close(tc->fd[e]);
        tc->fd[e] = -1;
    }
    /* A thread's counts are judged together: one event's stalled clock is all of theirs. */
    uint64_t switches =
        read_ok[NPRB_EV_CONTEXT_SWITCHES] ? got[NPRB_EV_CONTEXT_SWITCHES][0] : UINT64_MAX;
    bool stalled = false;
    for (int e = 0; e < NPRB_N_THREAD_EVENTS; e++)
        stalled = stalled || (read_ok[e] && nprb_count_stalled(got[e][1], counted_ns, switches));
    for (int e = 0; e < NPRB_N_THREAD_EVENTS; e++) {
        struct nprb_count *c = &into->event[e];
        if (read_ok[e]) {
            nprb_count_add(c, got[e], tc->user_only[e]);
            c->stalled += stalled;
        } else if (tc->error[e] != 0) { /* never opened */
            count_failure(c, tc->error[e]);
        }
    }
}
