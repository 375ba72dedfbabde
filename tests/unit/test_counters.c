/* SPDX-License-Identifier: BSD-3-Clause */
/* The counters module's pure parts: multiplex scaling, sysfs format and event parsing, uncore
 * scale and unit, the host checks against fake sysfs trees, and vmstat parsing. */
#include "check.h"
#include "counters.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

static void scaling(void)
{
    CHECK(nprb_count_scaled(1000, 0, 0) == 1000.0);           /* never enabled: raw */
    CHECK(nprb_count_scaled(1000, 2000, 2000) == 1000.0);     /* ran all the time */
    CHECK(near(nprb_count_scaled(1000, 3000, 1000), 3000.0)); /* multiplexed: ran a third */
    CHECK(isnan(nprb_count_scaled(0, 3000, 0)));              /* never scheduled */
    /* Intel cas_count_read: 64 B per count, written as 6.103515625e-5 MiB. */
    CHECK(near(nprb_uncore_bytes(1000, 100, 100, 6.103515625e-5, "MiB"), 64000.0));
    /* ... multiplexed half the time: twice as many bytes estimated. */
    CHECK(near(nprb_uncore_bytes(1000, 200, 100, 6.103515625e-5, "MiB"), 128000.0));
    CHECK(near(nprb_uncore_bytes(10, 0, 0, 64, "Bytes"), 640.0));
    CHECK(isnan(nprb_uncore_bytes(10, 0, 0, 1, "Joules")));
    CHECK(nprb_pmu_unit_bytes("MiB\n") == 1048576.0);
    CHECK(nprb_pmu_unit_bytes("KB") == 1000.0);
    CHECK(nprb_pmu_unit_bytes("") == 0.0);
}

static void formats(void)
{
    struct nprb_pmu_format f[4];
    CHECK(nprb_pmu_format_parse("event", "config:0-7\n", &f[0]) == 0);
    CHECK(f[0].word == 0 && f[0].ranges == 1 && f[0].lo[0] == 0 && f[0].hi[0] == 7);
    CHECK(nprb_pmu_format_parse("umask", "config:8-15", &f[1]) == 0);
    CHECK(nprb_pmu_format_parse("edge", "config:18", &f[2]) == 0);
    CHECK(f[2].lo[0] == 18 && f[2].hi[0] == 18);
    /* AMD's split event select: low 8 bits at 0-7, the next 6 at 32-37. */
    CHECK(nprb_pmu_format_parse("evsel", "config:0-7,32-37", &f[3]) == 0);
    CHECK(f[3].ranges == 2);
    struct nprb_pmu_format bad;
    CHECK(nprb_pmu_format_parse("x", "config3:0-7", &bad) == -1);
    CHECK(nprb_pmu_format_parse("x", "config:9-2", &bad) == -1);
    CHECK(nprb_pmu_format_parse("x", "config1:0-63", &bad) == 0 && bad.word == 1);

    uint64_t config[3];
    char why[128];
    CHECK(nprb_pmu_encode("event=0x04,umask=0x03\n", f, 4, config, why, sizeof why) == 0);
    CHECK(config[0] == 0x0304 && config[1] == 0 && config[2] == 0);
    CHECK(nprb_pmu_encode("event=0x04,edge", f, 4, config, why, sizeof why) == 0);
    CHECK(config[0] == (0x04 | 1u << 18));
    CHECK(nprb_pmu_encode("evsel=0x1c7", f, 4, config, why, sizeof why) == 0);
    CHECK(config[0] == (0xc7ull | 0x1ull << 32));
    CHECK(nprb_pmu_encode("event=0x04,cmask=1", f, 4, config, why, sizeof why) == -1);
    CHECK_STR_CONTAINS(why, "cmask");
    CHECK(nprb_pmu_encode("event=zz", f, 4, config, why, sizeof why) == -1);
}

static void hosts(void)
{
    char root[] = "/tmp/nprb-counters-XXXXXX", path[512], why[256];
    if (mkdtemp(root) == NULL)
        return;
    snprintf(path, sizeof path, "%s/bus", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/bus/event_source", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/bus/event_source/devices", root);
    mkdir(path, 0700);
    /* A virtual machine: software PMU only. */
    nprb_counters_why_not(NPRB_COUNT_CORE, root, why, sizeof why);
    CHECK_STR_CONTAINS(why, "no CPU PMU");
    nprb_counters_why_not(NPRB_COUNT_UNCORE, root, why, sizeof why);
    CHECK_STR_CONTAINS(why, "no uncore memory-controller PMU");
    nprb_counters_why_not(NPRB_COUNT_SOFTWARE, root, why, sizeof why);
    CHECK(why[0] == '\0');
    /* A two-socket Intel host. */
    snprintf(path, sizeof path, "%s/bus/event_source/devices/cpu", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/bus/event_source/devices/uncore_imc_0", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/bus/event_source/devices/uncore_imc_0/events", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/bus/event_source/devices/uncore_imc_0/events/cas_count_read",
             root);
    put(path, "event=0x04,umask=0x03\n");
    nprb_counters_why_not(NPRB_COUNT_CORE, root, why, sizeof why);
    CHECK(why[0] == '\0');
    nprb_counters_why_not(NPRB_COUNT_UNCORE, root, why, sizeof why);
    CHECK_STR_CONTAINS(why, "uncore_imc_0/cas_count_read");
    snprintf(path, sizeof path, "rm -rf '%s'", root);
    CHECK(system(path) == 0);
}

static void vmstat(void)
{
    char path[] = "/tmp/nprb-vmstat-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return;
    close(fd);
    put(path, "nr_free_pages 5\nnuma_hint_faults 17\nnuma_pages_migrated 9\npgfault 123\n"
              "pgmajfault 2\nthp_fault_alloc 1\n");
    struct nprb_vmstat vm;
    nprb_vmstat_read(path, &vm);
    CHECK(vm.ok && vm.v[NPRB_VM_NUMA_HINT_FAULTS] == 17 && vm.v[NPRB_VM_NUMA_PAGES_MIGRATED] == 9);
    CHECK(vm.v[NPRB_VM_PGFAULT] == 123 && vm.v[NPRB_VM_PGMIGRATE_FAIL] == 0);
    unlink(path);
    nprb_vmstat_read(path, &vm);
    CHECK(!vm.ok);
}

int main(void)
{
    scaling();
    formats();
    hosts();
    vmstat();
    return CHECK_DONE();
}
