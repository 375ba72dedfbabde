/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "config/config.h"
#include "experiments/registry.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The built-in defaults of every key, the experiments' sections included. */
static void defaults(struct nprb_config *cfg)
{
    char err[256];
    CHECK(nprb_experiments_config_defaults(cfg, err, sizeof err) == 0);
}

/* The value of a key, by its name: an experiment's struct is its own file's. */
static const void *value_of(const struct nprb_config *cfg, const char *key)
{
    static const uint64_t none[NPRB_CONFIG_SECTION_BYTES / sizeof(uint64_t)];
    const void *value = nprb_config_value(cfg, key);
    CHECK(value != NULL);
    return value != NULL ? value : none;
}
#define VALUE(cfg, type, key) (*(const type *)value_of(cfg, key))

static int load(struct nprb_config *cfg, const char *yaml, char *err, size_t len)
{
    defaults(cfg);
    return nprb_config_load_text(cfg, yaml, "test.yaml", err, len);
}

/* A malformed config must fail with a message naming the file, the line and the key. */
static void rejects(const char *yaml, const char *fragment)
{
    struct nprb_config cfg;
    char err[512] = "";
    int rc = load(&cfg, yaml, err, sizeof err);
    CHECK(rc == -1);
    CHECK_STR_CONTAINS(err, fragment);
}

int main(void)
{
    struct nprb_config cfg;
    char err[512];

    defaults(&cfg);
    CHECK(VALUE(&cfg, bool, "latency_matrix.enabled"));
    CHECK(VALUE(&cfg, uint64_t, "latency_matrix.size") == 1ULL << 30);
    CHECK(VALUE(&cfg, int, "bandwidth_matrix.threads") == 0);
    CHECK(cfg.seed == 42);
    CHECK(cfg.huge_pages == NPRB_THP_SYSTEM);

    CHECK(load(&cfg, "", err, sizeof err) == 0);
    CHECK(load(&cfg,
               "seed: 7\nhuge_pages: off\nlatency_matrix:\n  size: 64MiB\n  samples: 9\n"
               "  sample_time: 2ms\nbandwidth_matrix:\n  enabled: false\n  threads: 3\n",
               err, sizeof err) == 0);
    CHECK(cfg.seed == 7);
    CHECK(cfg.huge_pages == NPRB_THP_OFF);
    CHECK(VALUE(&cfg, uint64_t, "latency_matrix.size") == 64ULL << 20);
    CHECK(VALUE(&cfg, int, "latency_matrix.samples") == 9);
    CHECK(VALUE(&cfg, double, "latency_matrix.sample_time") > 0.0019 &&
          VALUE(&cfg, double, "latency_matrix.sample_time") < 0.0021);
    CHECK(!VALUE(&cfg, bool, "bandwidth_matrix.enabled"));
    CHECK(VALUE(&cfg, int, "bandwidth_matrix.threads") == 3);

    rejects("latency_matrix:\n  sise: 1G\n", "test.yaml:2: latency_matrix.sise: unknown key");
    rejects("bogus_experiment:\n  size: 1G\n",
            "test.yaml:1: bogus_experiment: unknown experiment (expected latency_matrix,");
    rejects("latency_matrix:\n  size: 1G\n  size: 2G\n",
            "test.yaml:3: latency_matrix.size: given twice (first on line 2)");
    rejects("latency_matrix: 1G\n", "test.yaml:1: latency_matrix: expected a section of keys");
    rejects("latency_matrix:\n  size:\n    x: 1\n",
            "test.yaml:2: latency_matrix.size: expected a single value, got a mapping");
    rejects("latency_sweep:\n  sizes: []\n", "latency_sweep.sizes: expected a list, got nothing");
    rejects("latency_matrix:\n  size: 99999999999999999999\n", "out of range (4KiB to 64TiB)");
    rejects("seed: 1\n---\nseed: 2\n", "test.yaml:3: a second YAML document");
    CHECK(load(&cfg, "---\nseed: 5\n...\n", err, sizeof err) == 0 && cfg.seed == 5);
    /* The echo stored in the results file loads as the very values the run used. */
    CHECK(load(&cfg,
               "latency_sweep:\n  sample_time: 200us\nnuma_balancing:\n  interval: 1.2345678ms\n",
               err, sizeof err) == 0);
    {
        static char echo[NPRB_CONFIG_TEXT_MAX];
        struct nprb_config again;
        nprb_config_to_yaml(&cfg, echo, sizeof echo);
        CHECK_STR_CONTAINS(echo, "sample_time: 200us");
        CHECK_STR_CONTAINS(echo, "interval: 1.2345678ms");
        CHECK(load(&again, echo, err, sizeof err) == 0);
        CHECK(VALUE(&again, double, "latency_sweep.sample_time") ==
              VALUE(&cfg, double, "latency_sweep.sample_time"));
        CHECK(VALUE(&again, double, "numa_balancing.interval") ==
              VALUE(&cfg, double, "numa_balancing.interval"));
    }
    /* Durations take what sizes and numbers take, and every duration that
     * loads is echoed in a form that loads again as the very value. */
    rejects("latency_matrix:\n  sample_time: 0x10\n",
            "test.yaml:2: latency_matrix.sample_time: expected a duration from 1ns to 60min");
    rejects("latency_matrix:\n  sample_time: 1e-3\n", "expected a duration from 1ns");
    rejects("latency_matrix:\n  sample_time: .0000000000000000000000000000001ns\n",
            "expected a duration from 1ns");
    rejects("latency_matrix:\n  samples: +5\n", "expected a whole number, got '+5'");
    rejects("latency_matrix:\n  samples: 1e3\n", "expected a whole number, got '1e3'");
    rejects("loaded_latency:\n  delays: [0, 1e3]\n", "expected whole numbers, got '1e3'");
    defaults(&cfg);
    CHECK(nprb_config_set(&cfg, "watchdog=0x10", err, sizeof err) == -1);
    CHECK(nprb_config_set(&cfg, "latency_matrix.sample_time=1e-320", err, sizeof err) == -1);
    {
        static const char *const durations[] = {"1ns",
                                                "1.0000000000000002ns",
                                                "0.000000001",
                                                "3599.9999999999995s",
                                                "60min",
                                                "1.2345678ms",
                                                "0.1",
                                                "0.30000000000000004",
                                                "7.77777777777777777ns",
                                                "123456789ns"};
        static char echo[NPRB_CONFIG_TEXT_MAX];
        for (size_t i = 0; i < sizeof durations / sizeof durations[0]; i++) {
            char line[128];
            struct nprb_config again;
            snprintf(line, sizeof line, "latency_matrix.sample_time=%s", durations[i]);
            defaults(&cfg);
            CHECK(nprb_config_set(&cfg, line, err, sizeof err) == 0);
            nprb_config_to_yaml(&cfg, echo, sizeof echo);
            CHECK(load(&again, echo, err, sizeof err) == 0);
            CHECK(VALUE(&again, double, "latency_matrix.sample_time") ==
                  VALUE(&cfg, double, "latency_matrix.sample_time"));
        }
    }
    /* The hostile configs: deep nesting, control keys, keys named twice, a mapping for a list. */
    {
        static char deep[300000];
        size_t depth = 100000;
        memcpy(deep, "seed: ", 6);
        memset(deep + 6, '[', depth);
        memset(deep + 6 + depth, ']', depth);
        rejects(deep, "test.yaml:1: nested deeper than 64 levels");
        static char ok_depth[512];
        snprintf(ok_depth, sizeof ok_depth, "seed: %.*s1%.*s\n", 63, deep + 6, 63,
                 deep + 6 + depth);
        rejects(ok_depth, "test.yaml:1: seed: expected a single value, got a list");
    }
    rejects("latency_matrix.size: 1GiB\nlatency_matrix:\n  size: 2GiB\n",
            "test.yaml:3: latency_matrix.size: given twice (first on line 1)");
    rejects("latency_matrix:\n  samples: 5\nlatency_matrix.samples: 7\n",
            "test.yaml:3: latency_matrix.samples: given twice (first on line 2)");
    rejects("latency_matrix:\n  \"si\\e[31mze\\nred\": 1\n",
            "test.yaml:2: latency_matrix.si\\x1b[31mze\\nred: unknown key");
    rejects("\"x\\u009b2J\": 1\n", "test.yaml:1: x\\u009b2J: unknown key");
    rejects("latency_sweep:\n  sizes: {a: 1}\n",
            "latency_sweep.sizes: expected a list (e.g. [a, b]) or a single value, got a mapping");
    rejects("a: &x [1]\nlatency_sweep:\n  sizes: *x\n", "test.yaml:1: YAML anchor 'x'");
    rejects("seed: !!binary aGVsbG8=\n", "test.yaml:1: YAML tag 'tag:yaml.org,2002:binary'");
    rejects("seed: !!int 5\n", "tags are not accepted");
    rejects("latency_matrix:\n  \"size \": 1G\n", "a key name holds no blanks");
    CHECK(load(&cfg, "\xef\xbb\xbfseed: 3\r\nlatency_matrix:\r\n  size: 8MiB\r\n", err,
               sizeof err) == 0);
    CHECK(cfg.seed == 3 && VALUE(&cfg, uint64_t, "latency_matrix.size") == 8ULL << 20);
    {
        static char set[12000];
        memset(set, 'k', 10000);
        snprintf(set + 10000, sizeof set - 10000, "=1");
        defaults(&cfg);
        CHECK(nprb_config_set(&cfg, set, err, sizeof err) == -1);
        CHECK_STR_CONTAINS(err, "--set: a key of 10000 characters is too long");
        CHECK(nprb_config_set(&cfg, "lat\x1b[2J\nency=1", err, sizeof err) == -1);
        CHECK_STR_CONTAINS(err, "--set: unknown key 'lat\\x1b[2J\\nency'");
        CHECK(strchr(err, '\n') == NULL && strchr(err, '\x1b') == NULL);
        CHECK(nprb_config_set(&cfg, "latency_matrix.size=\x1b[2J", err, sizeof err) == -1);
        CHECK_STR_CONTAINS(err, "got '\\x1b[2J'");
        CHECK(nprb_config_set(&cfg, "=1", err, sizeof err) == -1);
        CHECK_STR_CONTAINS(err, "expected KEY=VALUE");
    }
    {
        /* A config of 100 MB (sparse) is refused after reading 1 MiB of it. */
        char path[] = "/tmp/numaprobe-test-config-XXXXXX";
        int fd = mkstemp(path);
        CHECK(fd >= 0 && ftruncate(fd, 100 << 20) == 0);
        char *text = NULL;
        CHECK(nprb_config_read_file(path, &text, err, sizeof err) == -1 && text == NULL);
        CHECK_STR_CONTAINS(err, "larger than 1 MiB");
        close(fd);
        unlink(path);
    }
    /* A section with nothing under it (every key commented out) changes nothing. */
    CHECK(load(&cfg, "latency_matrix:\nbandwidth_matrix:\n  threads: 2\n", err, sizeof err) == 0);
    CHECK(VALUE(&cfg, int, "bandwidth_matrix.threads") == 2 &&
          VALUE(&cfg, uint64_t, "latency_matrix.size") == 1ULL << 30);
    rejects("latency_matrix:\n  size: lots\n", "test.yaml:2: latency_matrix.size: expected a size");
    rejects("latency_matrix:\n  size: -5G\n", "latency_matrix.size: expected a size");
    rejects("latency_matrix:\n  size: 1K\n", "out of range");
    rejects("latency_matrix:\n  size: 100TiB\n", "out of range");
    rejects("latency_matrix:\n  samples: many\n", "expected a whole number");
    rejects("latency_matrix:\n  samples: 1\n", "expected a number from 3");
    rejects("latency_matrix:\n  enabled: maybe\n", "expected true or false");
    rejects("huge_pages: sometimes\n", "test.yaml:1: huge_pages: expected one of");
    rejects("bandwidth_matrix:\n  threads: -2\n", "expected a number from 1 to 4096, got -2");
    rejects("bandwidth_matrix:\n  threads: lots\n", "expected a whole number or 'all'");
    rejects("latency_matrix:\n  size: [1, 2]\n", "expected a single value");
    rejects("- a\n- b\n", "expected a mapping");
    rejects("latency_matrix: {size: 1G\n", "YAML syntax error");

    defaults(&cfg);
    CHECK(nprb_config_set(&cfg, "bandwidth_matrix.size=256MiB", err, sizeof err) == 0);
    CHECK(VALUE(&cfg, uint64_t, "bandwidth_matrix.size") == 256ULL << 20);
    CHECK(nprb_config_set(&cfg, "bandwidth_matrix.size", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "expected KEY=VALUE");
    CHECK(nprb_config_set(&cfg, "nope=1", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "unknown key 'nope'");
    CHECK(nprb_config_set(&cfg, "latency_matrix.samples=x", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "--set latency_matrix.samples");

    /* memory.*: the config's own section, after every experiment's (the registry's one order). */
    defaults(&cfg);
    CHECK(VALUE(&cfg, int, "memory.channels") == 0);
    CHECK(nprb_config_set(&cfg, "memory.channels=8", err, sizeof err) == 0);
    CHECK(VALUE(&cfg, int, "memory.channels") == 8);
    CHECK(nprb_config_set(&cfg, "memory.dimm_speed=30000", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "expected a number from 0 to 20000, got 30000");
    {
        static char echo[NPRB_CONFIG_TEXT_MAX];
        nprb_config_to_yaml(&cfg, echo, sizeof echo);
        const char *tail = "\nmemory:\n  dimm_speed: 0\n  channels: 8\ncounters:\n  enabled: "
                           "true\n  groups: [software, core, uncore, vmstat]\n";
        const char *at = strstr(echo, tail);
        CHECK(at != NULL && at[strlen(tail)] == '\0');
        CHECK(strstr(echo, "\nnuma_balancing:\n") < at &&
              strstr(echo, "\npage_size:\n") < strstr(echo, "\nbandwidth_sweep:\n"));
    }

    /* config_fingerprint: the measured keys' lines, sorted; keys that change nothing measured
     * (and no time budget) leave it as it was. runs.py computes the same from the echo. */
    {
        char base[17], other[17];
        defaults(&cfg);
        nprb_config_fingerprint(&cfg, base, sizeof base);
        CHECK(strlen(base) == 16);
        CHECK(nprb_config_set(&cfg, "report_hosts=99", err, sizeof err) == 0);
        CHECK(nprb_config_set(&cfg, "memory.channels=8", err, sizeof err) == 0);
        CHECK(nprb_config_set(&cfg, "time_budget=0", err, sizeof err) == 0);
        nprb_config_fingerprint(&cfg, other, sizeof other);
        CHECK(strcmp(base, other) == 0);
        CHECK(nprb_config_set(&cfg, "time_budget=5min", err, sizeof err) == 0);
        nprb_config_fingerprint(&cfg, other, sizeof other);
        CHECK(strcmp(base, other) != 0);
        defaults(&cfg);
        CHECK(nprb_config_set(&cfg, "latency_matrix.size=2GiB", err, sizeof err) == 0);
        nprb_config_fingerprint(&cfg, other, sizeof other);
        CHECK(strcmp(base, other) != 0);
    }

    /* counters.*: the config's own section after memory.*; groups parsed once into bits. */
    defaults(&cfg);
    CHECK(nprb_config_counter_groups(&cfg) == (NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_SOFTWARE) |
                                               NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_CORE) |
                                               NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_UNCORE) |
                                               NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_VMSTAT)));
    CHECK(nprb_config_set(&cfg, "counters.groups=vmstat, software", err, sizeof err) == 0);
    CHECK(nprb_config_counter_groups(&cfg) == (NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_SOFTWARE) |
                                               NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_VMSTAT)));
    CHECK(nprb_config_set(&cfg, "counters.groups=software,pmu", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "unknown counter group 'pmu' (expected software, core, uncore or "
                            "vmstat)");
    CHECK(nprb_config_counter_groups(&cfg) == (NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_SOFTWARE) |
                                               NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_VMSTAT)));
    CHECK(nprb_config_set(&cfg, "counters.groups=none", err, sizeof err) == 0);
    CHECK(nprb_config_counter_groups(&cfg) == 0);
    CHECK(nprb_config_set(&cfg, "counters.groups=core", err, sizeof err) == 0);
    CHECK(nprb_config_set(&cfg, "counters.enabled=false", err, sizeof err) == 0);
    CHECK(nprb_config_counter_groups(&cfg) == 0);
    {
        static char echo[NPRB_CONFIG_TEXT_MAX];
        nprb_config_to_yaml(&cfg, echo, sizeof echo);
        CHECK_STR_CONTAINS(echo, "counters:\n  enabled: false\n  groups: [core]\n");
    }

    /* Lists: YAML sequences and comma lists mean the same; "auto" clears a size list. */
    CHECK(load(&cfg,
               "latency_sweep:\n  sizes: [2KiB, 64K, 1MiB]\n  patterns: [random, stride:64]\n"
               "bandwidth_sweep:\n  kernels: read, triad\n",
               err, sizeof err) == 0);
    CHECK(VALUE(&cfg, struct nprb_sizes, "latency_sweep.sizes").count == 3 &&
          VALUE(&cfg, struct nprb_sizes, "latency_sweep.sizes").bytes[1] == 65536);
    CHECK(VALUE(&cfg, struct nprb_pattern_list, "latency_sweep.patterns").count == 2);
    CHECK(strcmp(VALUE(&cfg, struct nprb_pattern_list, "latency_sweep.patterns").item[1].name,
                 "stride:64") == 0);
    CHECK(VALUE(&cfg, struct nprb_kernel_list, "bandwidth_sweep.kernels").count == 2);
    CHECK(VALUE(&cfg, struct nprb_kernel_list, "bandwidth_sweep.kernels").id[1] ==
          NPRB_KERNEL_TRIAD);
    CHECK(nprb_config_set(&cfg, "latency_sweep.sizes=auto", err, sizeof err) == 0);
    CHECK(VALUE(&cfg, struct nprb_sizes, "latency_sweep.sizes").count == 0);
    CHECK(nprb_config_set(&cfg, "stride_sweep.strides=8,64,4KiB", err, sizeof err) == 0);
    CHECK(VALUE(&cfg, struct nprb_sizes, "stride_sweep.strides").count == 3 &&
          VALUE(&cfg, struct nprb_sizes, "stride_sweep.strides").bytes[2] == 4096);
    rejects("bandwidth_sweep:\n  kernels: [read, tirad]\n",
            "test.yaml:2: bandwidth_sweep.kernels: unknown kernel 'tirad'");
    rejects("latency_sweep:\n  patterns: [random, zigzag]\n", "unknown pattern 'zigzag'");
    rejects("latency_sweep:\n  patterns: [random, stride:12]\n", "multiple of 8");
    rejects("latency_sweep:\n  sizes: [2KiB, lots]\n", "expected sizes like 32KiB, got 'lots'");
    rejects("latency_sweep:\n  sizes: [1]\n", "out of range");
    rejects("latency_sweep:\n  sizes: [[1K]]\n", "list items must be plain values");
    rejects("latency_sweep:\n  patterns: random,,stride:64\n", "empty item");
    rejects("huge_pages: giant\n", "hugetlb");

    /* The echo is itself a valid config that reproduces the same settings. */
    char yaml[NPRB_CONFIG_TEXT_MAX];
    nprb_config_to_yaml(&cfg, yaml, sizeof yaml);
    CHECK_STR_CONTAINS(yaml, "bandwidth_matrix:\n");
    CHECK_STR_CONTAINS(yaml, "  size: 256MiB\n");
    struct nprb_config again;
    CHECK(load(&again, yaml, err, sizeof err) == 0);
    CHECK(VALUE(&again, uint64_t, "bandwidth_matrix.size") ==
          VALUE(&cfg, uint64_t, "bandwidth_matrix.size"));
    CHECK(VALUE(&again, double, "latency_matrix.sample_time") ==
          VALUE(&cfg, double, "latency_matrix.sample_time"));
    CHECK(VALUE(&again, struct nprb_sizes, "stride_sweep.strides").count == 3);
    CHECK(VALUE(&again, struct nprb_kernel_list, "bandwidth_sweep.kernels").count ==
          VALUE(&cfg, struct nprb_kernel_list, "bandwidth_sweep.kernels").count);
    return CHECK_DONE();
}
