/* SPDX-License-Identifier: BSD-3-Clause */
/* perf PMU events read from a fake /sys/bus/event_source/devices modelled on Intel's uncore_imc:
 * the encoded config words, scale and unit, CPUs, natural order, and every refusal's reason. */
#include "check.h"
#include "host/pmu_sysfs.h"

#include <ftw.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static char root[256];

/* ROOT/REL holding TEXT, its folders made on the way. */
static void put(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *slash = strchr(path + strlen(root) + 1, '/'); slash;
         slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(path, 0755);
        *slash = '/';
    }
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void build_tree(void)
{
    put("uncore_imc_0/type", "13\n");
    put("uncore_imc_0/cpumask", "0,28\n");
    put("uncore_imc_0/format/event", "config:0-7\n");
    put("uncore_imc_0/format/umask", "config:8-15\n");
    put("uncore_imc_0/format/edge", "config:18\n");
    put("uncore_imc_0/format/split", "config:32-35,44-47\n");
    put("uncore_imc_0/format/top", "config:63\n");
    put("uncore_imc_0/format/filter", "config1:0-63\n");
    put("uncore_imc_0/format/chan", "config2:4-5\n");
    put("uncore_imc_0/format/word3", "config3:0-7\n");
    put("uncore_imc_0/format/reversed", "config:7-3\n");
    put("uncore_imc_0/events/cas_count_read", "event=0x04,umask=0x03\n");
    put("uncore_imc_0/events/cas_count_read.scale", "6.103515625e-5\n");
    put("uncore_imc_0/events/cas_count_read.unit", "MiB\n");
    put("uncore_imc_0/events/clockticks", "event=0x00,umask=0x00\n");
    put("uncore_imc_0/events/everything",
        "event=0xff, umask=0x00,split=0xab,edge,filter=0xdeadbeefcafef00d,chan=2,top\n");
    put("uncore_imc_0/events/decimal", "event=10,umask=255");
    put("uncore_imc_0/events/raw", "config=0x1234,config1=5");
    put("uncore_imc_0/events/bad_value", "event=0xzz,umask=0x1\n");
    put("uncore_imc_0/events/octal_looking", "event=08\n");
    put("uncore_imc_0/events/too_wide", "event=0x100,umask=0x1\n");
    put("uncore_imc_0/events/split_too_wide", "split=0x100\n");
    put("uncore_imc_0/events/unknown_term", "event=0x1,foo=2\n");
    put("uncore_imc_0/events/fourth_word", "word3=1\n");
    put("uncore_imc_0/events/bad_format", "reversed=1\n");
    put("uncore_imc_0/events/user_value", "event=0x1,umask=?\n");
    put("uncore_imc_0/events/empty", "\n");
    put("uncore_imc_0/events/bad_scale", "event=0x1\n");
    put("uncore_imc_0/events/bad_scale.scale", "fast\n");
    put("uncore_imc_0/events/negative_scale", "event=0x1\n");
    put("uncore_imc_0/events/negative_scale.scale", "-6.103515625e-5\n");
    put("uncore_imc_0/format/past_63", "config:60-64\n");
    put("uncore_imc_0/events/past_63", "past_63=1\n");
    put("uncore_imc_0/events/a_folder/x", "event=0x1\n");
    char huge[700] = "";
    for (int i = 0; i < 60; i++)
        strcat(huge, "event=0x1,");
    put("uncore_imc_0/events/huge", huge);
    put("uncore_imc_0/events/long_unit", "event=0x1\n");
    put("uncore_imc_0/events/long_unit.unit", "MiBiBiBiBiBiBiBiB\n");
    /* No cpumask; a hex mask; a range; garbage in type. */
    put("uncore_imc_1/type", "14\n");
    put("uncore_imc_1/format/event", "config:0-7\n");
    put("uncore_imc_1/events/e", "event=0x1\n");
    put("uncore_imc_10/type", "22\n");
    put("uncore_imc_10/cpumask", "00000000,10000001\n");
    put("uncore_imc_10/format/event", "config:0-7\n");
    put("uncore_imc_10/events/e", "event=0x1\n");
    put("uncore_imc_2/type", "15\n");
    put("uncore_imc_2/cpumask", "0-1,56\n");
    put("uncore_imc_2/format/event", "config:0-7\n");
    put("uncore_imc_2/events/e", "event=0x1\n");
    put("uncore_imc_free_running_0/type", "23\n");
    put("uncore_m2m_0/type", "24\n");
    put("uncore_m2m_0/cpumask", "0,\n");
    put("uncore_cha_0/type", "x17\n");
    put("cpu/cpumask", "0-99\n");
    put("cpu/type", "4\n");
    put("cpu/format/event", "config:0-7\n");
    put("cpu/events/e", "event=0x1\n");
}

/* Reading EVENT of PMU fails, and its reason holds WANT. */
static int refused(const char *pmu, const char *event, const char *want)
{
    struct nprb_pmu_event ev;
    char why[160] = "";
    int rc = nprb_pmu_event_read(root, pmu, event, &ev, why, sizeof why);
    if (rc != -1 || strstr(why, want) == NULL) {
        fprintf(stderr, "%s/%s: rc %d, why '%s', wanted '%s'\n", pmu, event, rc, why, want);
        return 0;
    }
    return 1;
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/nprb-pmu-XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
    if (mkdtemp(root) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    build_tree();
    struct nprb_pmu_event ev;
    char why[160] = "";

    /* Intel's cas_count_read: 64 bytes a count, said as 2^-14 MiB. */
    CHECK(nprb_pmu_event_read(root, "uncore_imc_0", "cas_count_read", &ev, why, sizeof why) == 0);
    CHECK(ev.type == 13);
    CHECK(ev.config == 0x0304 && ev.config1 == 0 && ev.config2 == 0);
    CHECK(ev.scale == 6.103515625e-5);
    CHECK(strcmp(ev.unit, "MiB") == 0);
    CHECK(ev.cpu_count == 2 && ev.cpus[0] == 0 && ev.cpus[1] == 28);
    CHECK(nprb_pmu_bytes(16384, &ev) == 1048576.0);
    CHECK(nprb_pmu_bytes(1, &ev) == 64.0);

    /* No .scale and no .unit: scale 1, unit "", and no bytes can be said. */
    CHECK(nprb_pmu_event_read(root, "uncore_imc_0", "clockticks", &ev, why, sizeof why) == 0);
    CHECK(ev.config == 0 && ev.scale == 1.0 && ev.unit[0] == '\0');
    CHECK(isnan(nprb_pmu_bytes(100, &ev)));
    snprintf(ev.unit, sizeof ev.unit, "KiB");
    CHECK(nprb_pmu_bytes(3, &ev) == 3072.0);
    snprintf(ev.unit, sizeof ev.unit, "Bytes");
    CHECK(nprb_pmu_bytes(3, &ev) == 3.0);
    snprintf(ev.unit, sizeof ev.unit, "GiB");
    ev.scale = 0.5;
    CHECK(nprb_pmu_bytes(2, &ev) == 1073741824.0);
    snprintf(ev.unit, sizeof ev.unit, "Joules");
    CHECK(isnan(nprb_pmu_bytes(2, &ev)));

    /* A split field (low nibble at 32-35, high at 44-47), a bare term, a single bit, all of
     * config1, and config2. */
    CHECK(nprb_pmu_event_read(root, "uncore_imc_0", "everything", &ev, why, sizeof why) == 0);
    CHECK(ev.config == (0xffULL | 1ULL << 18 | 0xbULL << 32 | 0xaULL << 44 | 1ULL << 63));
    CHECK(ev.config1 == 0xdeadbeefcafef00dULL);
    CHECK(ev.config2 == 2ULL << 4);
    CHECK(nprb_pmu_event_read(root, "uncore_imc_0", "decimal", &ev, why, sizeof why) == 0);
    CHECK(ev.config == 0xff0a);
    CHECK(nprb_pmu_event_read(root, "uncore_imc_0", "octal_looking", &ev, why, sizeof why) == 0);
    CHECK(ev.config == 8);
    CHECK(nprb_pmu_event_read(root, "uncore_imc_0", "raw", &ev, why, sizeof why) == 0);
    CHECK(ev.config == 0x1234 && ev.config1 == 5);

    /* Encoding on top: a term replaces its own field and keeps the rest. */
    char format_dir[320];
    snprintf(format_dir, sizeof format_dir, "%s/uncore_imc_0/format", root);
    CHECK(nprb_pmu_event_read(root, "uncore_imc_0", "cas_count_read", &ev, why, sizeof why) == 0);
    CHECK(nprb_pmu_encode(format_dir, "umask=0x0c,edge", &ev, why, sizeof why) == 0);
    CHECK(ev.config == (0x0c04 | 1ULL << 18));
    /* A refusal leaves the words as they were, even after a good term. */
    CHECK(nprb_pmu_encode(format_dir, "event=0x7,umask=0x1ff", &ev, why, sizeof why) == -1);
    CHECK(ev.config == (0x0c04 | 1ULL << 18));
    CHECK_STR_CONTAINS(why, "wider than its field config:8-15 of uncore_imc_0");

    /* Refusals, each with its reason. */
    CHECK(refused("uncore_imc_0", "nosuch", "no event nosuch in uncore_imc_0"));
    CHECK(refused("uncore_imc_9", "e", "no PMU uncore_imc_9 under"));
    CHECK(refused("uncore_imc_0", "unknown_term", "format term 'foo' unknown to uncore_imc_0"));
    CHECK(refused("uncore_imc_0", "bad_value", "term 'event' of uncore_imc_0 has a bad value"));
    CHECK(refused("uncore_imc_0", "too_wide", "value 0x100 of term 'event' is wider"));
    CHECK(refused("uncore_imc_0", "split_too_wide", "wider than its field config:32-35,44-47"));
    CHECK(refused("uncore_imc_0", "fourth_word", "more than 3 config words"));
    CHECK(refused("uncore_imc_0", "bad_format", "'config:7-3', not a field"));
    CHECK(refused("uncore_imc_0", "user_value", "term 'umask' of uncore_imc_0 wants a value"));
    CHECK(refused("uncore_imc_0", "empty", "event empty of uncore_imc_0"));
    CHECK(refused("uncore_imc_0", "bad_scale", "bad scale 'fast' of event bad_scale"));
    CHECK(refused("uncore_imc_0", "negative_scale", "bad scale '-6.103515625e-5'"));
    CHECK(refused("uncore_imc_0", "past_63", "format term 'past_63' of uncore_imc_0 is"));
    CHECK(refused("uncore_imc_0", "a_folder", "cannot read event a_folder of uncore_imc_0"));
    CHECK(refused("uncore_imc_0", "huge", "cannot read event huge of uncore_imc_0"));
    CHECK(refused("uncore_imc_0", "long_unit", "bad unit of event long_unit"));
    CHECK(refused("uncore_imc_0", "../uncore_imc_1/events/e", "bad PMU or event name"));
    CHECK(refused("..", "e", "bad PMU or event name"));
    CHECK(refused("uncore_cha_0", "e", "bad type of PMU uncore_cha_0"));
    CHECK(refused("uncore_imc_10", "e", "bad cpumask of uncore_imc_10"));
    CHECK(refused("uncore_m2m_0", "e", "bad cpumask of uncore_m2m_0"));
    CHECK(refused("cpu", "e", "cpumask of cpu lists more than 64 CPUs"));
    CHECK(nprb_pmu_encode(format_dir, "event=", &ev, why, sizeof why) == -1);
    CHECK(nprb_pmu_encode(format_dir, "event=-1", &ev, why, sizeof why) == -1);
    CHECK(nprb_pmu_encode(format_dir, "event=0x0x1", &ev, why, sizeof why) == -1);
    CHECK(nprb_pmu_encode(format_dir, "filter=0x1ffffffffffffffff", &ev, why, sizeof why) == -1);
    CHECK(nprb_pmu_event_read(root, "uncore_imc_0", "nosuch", &ev, NULL, 0) == -1);

    /* No cpumask: no CPUs; a range and a single CPU. */
    CHECK(nprb_pmu_event_read(root, "uncore_imc_1", "e", &ev, why, sizeof why) == 0);
    CHECK(ev.type == 14 && ev.cpu_count == 0 && ev.config == 1);
    CHECK(nprb_pmu_event_read(root, "uncore_imc_2", "e", &ev, why, sizeof why) == 0);
    CHECK(ev.cpu_count == 3 && ev.cpus[0] == 0 && ev.cpus[1] == 1 && ev.cpus[2] == 56);

    /* Natural order; the first MAX of it; nothing from an absent root. */
    char names[8][NPRB_PMU_NAME_MAX];
    CHECK(nprb_pmu_list(root, "uncore_imc_", names, 8) == 5);
    CHECK(strcmp(names[0], "uncore_imc_0") == 0 && strcmp(names[1], "uncore_imc_1") == 0);
    CHECK(strcmp(names[2], "uncore_imc_2") == 0 && strcmp(names[3], "uncore_imc_10") == 0);
    CHECK(strcmp(names[4], "uncore_imc_free_running_0") == 0);
    /* Whatever order readdir gives: exactly the first MAX, nothing written past them. */
    static const char *const in_order[] = {"uncore_imc_0", "uncore_imc_1", "uncore_imc_2",
                                           "uncore_imc_10", "uncore_imc_free_running_0"};
    for (int max = 1; max <= 5; max++) {
        for (int i = 0; i < 8; i++)
            snprintf(names[i], sizeof names[i], "untouched");
        CHECK(nprb_pmu_list(root, "uncore_imc_", names, max) == max);
        for (int i = 0; i < max; i++)
            CHECK(strcmp(names[i], in_order[i]) == 0);
        CHECK(strcmp(names[max], "untouched") == 0);
    }
    CHECK(nprb_pmu_list(root, "uncore_", names, 8) == 7);
    CHECK(strcmp(names[0], "uncore_cha_0") == 0);
    CHECK(nprb_pmu_list(root, "uncore_upi", names, 8) == 0);
    CHECK(nprb_pmu_list("/nonexistent-nprb", "", names, 8) == 0);

    nftw(root, remove_one, 8, FTW_DEPTH | FTW_PHYS);
    return CHECK_DONE();
}
