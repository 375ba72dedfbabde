/* SPDX-License-Identifier: BSD-3-Clause */
/* host/counters and host/vmstat: group names, the multiplexing arithmetic with known inputs, a
 * real software count of this thread, and /proc/vmstat parsing and deltas on a file of our own. */
#include "check.h"
#include "host/counters.h"
#include "host/vmstat.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void test_groups(void)
{
    enum nprb_counter_group g;
    char why[160];
    CHECK(nprb_counter_group_parse("uncore", &g, why, sizeof why) == 0 &&
          g == NPRB_COUNTERS_UNCORE);
    CHECK(nprb_counter_group_parse("vmstat", &g, why, sizeof why) == 0 &&
          g == NPRB_COUNTERS_VMSTAT);
    CHECK(nprb_counter_group_parse("hardware", &g, why, sizeof why) == -1);
    CHECK_STR_CONTAINS(why, "unknown counter group 'hardware' (expected software, core, uncore "
                            "or vmstat)");
    for (int i = 0; i < NPRB_N_COUNTER_GROUPS; i++)
        CHECK(nprb_counter_group_parse(nprb_counter_group_name((enum nprb_counter_group)i), &g, why,
                                       sizeof why) == 0 &&
              g == (enum nprb_counter_group)i);
    CHECK(nprb_thread_event_group(NPRB_EV_TASK_CLOCK) == NPRB_COUNTERS_SOFTWARE);
    CHECK(nprb_thread_event_group(NPRB_EV_CONTEXT_SWITCHES) == NPRB_COUNTERS_SOFTWARE);
    CHECK(nprb_thread_event_group(NPRB_EV_CYCLES) == NPRB_COUNTERS_CORE);
    CHECK(nprb_thread_event_group(NPRB_EV_DTLB_MISSES) == NPRB_COUNTERS_CORE);
    CHECK(strcmp(nprb_thread_event_unit(NPRB_EV_TASK_CLOCK), "ns") == 0);
    CHECK(strcmp(nprb_thread_event_unit(NPRB_EV_INSTRUCTIONS), "events") == 0);
}

static void test_scaling(void)
{
    /* Never multiplexed: the value itself. */
    CHECK(nprb_counter_scaled(1000, 5000000, 5000000) == 1000.0);
    /* On the PMU a quarter of the time: four times what it saw. */
    CHECK(nprb_counter_scaled(1000, 8000000, 2000000) == 4000.0);
    CHECK(fabs(nprb_counter_scaled(3, 10, 7) - 3.0 * 10.0 / 7.0) < 1e-12);
    /* Never on the PMU: unknown, not zero. */
    CHECK(isnan(nprb_counter_scaled(0, 8000000, 0)));
    /* Never enabled at all over a measurement that ran: unknown too, never a zero count. */
    CHECK(isnan(nprb_counter_scaled(0, 0, 0)));
    /* Running a hair longer than enabled (clock rounding) does not scale down. */
    CHECK(nprb_counter_scaled(500, 999, 1000) == 500.0);

    /* Two threads: one counted all along, one multiplexed half the time. Each is scaled by its
     * own ratio before the sum, and the raw values and times are summed as they are. */
    struct nprb_count c = {0};
    const uint64_t whole[3] = {1000, 4000, 4000}, half[3] = {600, 4000, 2000};
    nprb_count_add(&c, whole, false);
    nprb_count_add(&c, half, true);
    CHECK(c.threads == 2);
    CHECK(c.value == 1600);
    CHECK(c.enabled_ns == 8000 && c.running_ns == 6000);
    CHECK(c.scaled == 1000.0 + 1200.0);
    CHECK(c.user_only);
    CHECK(c.never_enabled == 0);
    /* Scaling the sums instead would give 1600 * 8000 / 6000 = 2133: not what was counted. */
    CHECK(fabs(c.scaled - nprb_counter_scaled(c.value, c.enabled_ns, c.running_ns)) > 50);
    /* A third thread whose counter the kernel never enabled: the sum is unknown, and the count
     * says how many threads were never counted. */
    const uint64_t never[3] = {0, 0, 0};
    nprb_count_add(&c, never, false);
    CHECK(c.never_enabled == 1 && c.threads == 3);
    CHECK(isnan(c.scaled));

    /* A counter enabled 23 us over samples that took 745 us, with no context switch between,
     * missed most of them; one switched out may be enabled for less (its time runs only on a
     * CPU), and without the switch count, or the samples' time, nothing is judged. */
    CHECK(nprb_count_stalled(23000, 745000, 0));
    CHECK(!nprb_count_stalled(740000, 745000, 0));
    CHECK(!nprb_count_stalled(380000, 745000, 0));
    CHECK(!nprb_count_stalled(23000, 745000, 1));
    CHECK(!nprb_count_stalled(23000, 745000, UINT64_MAX));
    CHECK(!nprb_count_stalled(23000, 0, 0));
    CHECK(!nprb_count_stalled(0, 745000, 0)); /* never enabled: its own rule */
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* This thread's software counters around 20 ms of its own CPU time: task_clock agrees with the
 * thread's CPU clock, and the time enabled covers it. */
static void test_software_count(void)
{
    char why[160];
    if (nprb_thread_event_unavailable(NPRB_EV_TASK_CLOCK, why, sizeof why)) {
        printf("software events unavailable here (%s): live count not checked\n", why);
        return;
    }
    struct nprb_thread_counters tc;
    nprb_thread_counters_open(&tc, NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_SOFTWARE));
    CHECK(tc.fd[NPRB_EV_TASK_CLOCK] >= 0);
    CHECK(tc.fd[NPRB_EV_CYCLES] == -1); /* core not asked for: not opened */
    nprb_thread_counters_start(&tc);
    uint64_t cpu0 = thread_cpu_ns();
    volatile uint64_t spin = 0;
    while (thread_cpu_ns() - cpu0 < 20000000u)
        spin++;
    uint64_t cpu = thread_cpu_ns() - cpu0;
    nprb_thread_counters_stop(&tc);
    /* Stopped: more work is not counted. */
    for (uint64_t t = thread_cpu_ns(); thread_cpu_ns() - t < 5000000u;)
        spin++;
    struct nprb_counts counts = {.groups = NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_SOFTWARE)};
    nprb_thread_counters_collect(&tc, &counts, cpu);
    CHECK(tc.fd[NPRB_EV_TASK_CLOCK] == -1); /* closed */
    const struct nprb_count *task = &counts.event[NPRB_EV_TASK_CLOCK];
    CHECK(task->threads == 1 && task->failed == 0);
    CHECK(task->scaled >= 0.9 * (double)cpu && task->scaled <= 1.1 * (double)cpu + 1e6);
    CHECK(task->enabled_ns >= task->value);
    CHECK(task->stalled == 0); /* enabled all through the 20 ms it was given */
    CHECK(counts.event[NPRB_EV_PAGE_FAULTS].threads == 1);
    CHECK(counts.event[NPRB_EV_CYCLES].threads == 0 && counts.event[NPRB_EV_CYCLES].failed == 0);
}

/* A core event is either countable, or unavailable with a reason that names the cause. */
static void test_core_availability(void)
{
    char why[160] = "";
    if (nprb_thread_event_unavailable(NPRB_EV_CYCLES, why, sizeof why)) {
        CHECK(why[0] != '\0');
        bool pmu = access("/sys/bus/event_source/devices/cpu", F_OK) == 0 ||
                   access("/sys/bus/event_source/devices/cpu_core", F_OK) == 0;
        if (!pmu)
            CHECK_STR_CONTAINS(why, "no CPU PMU");
        struct nprb_thread_counters tc;
        nprb_thread_counters_open(&tc, NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_CORE));
        CHECK(tc.fd[NPRB_EV_CYCLES] == -1 && tc.error[NPRB_EV_CYCLES] != 0);
        struct nprb_counts counts = {0};
        nprb_thread_counters_collect(&tc, &counts, 0);
        CHECK(counts.event[NPRB_EV_CYCLES].threads == 0);
    } else {
        printf("this host counts cycles\n");
    }
}

static void test_vmstat(void)
{
    char path[] = "/tmp/nprb_vmstatXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "nr_free_pages 100\nnuma_hint_faults 7\nnuma_hint_faults_local 3\n"
               "numa_pages_migrated 5\npgfault 1000\npgmajfault 2\n");
    fclose(f);
    struct nprb_vmstat before, after;
    CHECK(nprb_vmstat_read(path, &before) == 0);
    /* numa_hint_faults_local is not numa_hint_faults: the name is matched whole. */
    CHECK(before.value[NPRB_VMSTAT_NUMA_HINT_FAULTS] == 7);
    CHECK(before.value[NPRB_VMSTAT_PGFAULT] == 1000);
    CHECK(before.present & (1u << NPRB_VMSTAT_NUMA_PAGES_MIGRATED));
    CHECK(!(before.present & (1u << NPRB_VMSTAT_THP_FAULT_ALLOC)));
    f = fopen(path, "w");
    fprintf(f, "numa_hint_faults 19\nnuma_pages_migrated 5\npgfault 900\n"
               "thp_fault_alloc 4\n");
    fclose(f);
    CHECK(nprb_vmstat_read(path, &after) == 0);
    CHECK(nprb_vmstat_delta(&before, &after, NPRB_VMSTAT_NUMA_HINT_FAULTS) == 12);
    CHECK(nprb_vmstat_delta(&before, &after, NPRB_VMSTAT_NUMA_PAGES_MIGRATED) == 0);
    CHECK(nprb_vmstat_delta(&before, &after, NPRB_VMSTAT_PGFAULT) == 0); /* went back: no delta */
    CHECK(nprb_vmstat_delta(&before, &after, NPRB_VMSTAT_THP_FAULT_ALLOC) == 0); /* new field */
    CHECK(nprb_vmstat_delta(&before, &after, NPRB_VMSTAT_PGMAJFAULT) == 0);      /* gone */
    f = fopen(path, "w");
    fprintf(f, "nr_free_pages 100\n");
    fclose(f);
    CHECK(nprb_vmstat_read(path, &after) == -1);
    unlink(path);
    CHECK(nprb_vmstat_read("/nonexistent/vmstat", &after) == -1);
    CHECK(strcmp(nprb_vmstat_name(NPRB_VMSTAT_NUMA_PAGES_MIGRATED), "numa_pages_migrated") == 0);
    /* The real file has the counters every kernel has. */
    CHECK(nprb_vmstat_read(NULL, &after) == 0);
    CHECK(after.present & (1u << NPRB_VMSTAT_PGFAULT));
}

int main(void)
{
    test_groups();
    test_scaling();
    test_software_count();
    test_core_availability();
    test_vmstat();
    return CHECK_DONE();
}
