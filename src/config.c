#include "config.h"

#include "config_find.h"
#include "file_kind.h"
#include "kernels/stream.h"
#include "pattern.h"
#include "units.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <yaml.h>

enum key_kind {
    KEY_BOOL,
    KEY_INT,
    KEY_U64,
    KEY_SIZE,
    KEY_DURATION,
    KEY_THREADS,
    KEY_THP,
    KEY_SIZES,    /* "auto" or a list of sizes */
    KEY_PATTERNS, /* a list of latency patterns */
    KEY_KERNELS,  /* a list of bandwidth kernels */
    KEY_POLICIES, /* a list of memory policies besides bind */
    KEY_PAIRS,    /* local | all */
    KEY_FROM,     /* first | every: which CPU nodes a sweep runs from */
    KEY_MODES,    /* a list of first-touch modes */
    KEY_COUNTS,   /* a list of plain whole numbers */
};

struct config_key {
    const char *key; /* dotted name, as in YAML nesting and --set */
    enum key_kind kind;
    size_t offset;       /* into struct nprb_config */
    const char *initial; /* built-in default, parsed like user input */
    int64_t min, max;    /* bounds for KEY_INT, KEY_SIZE (bytes), KEY_THREADS */
    const char *help;
};

#define OFF(field) offsetof(struct nprb_config, field)
#define KIB(n) ((int64_t)(n) << 10)
#define TIB(n) ((int64_t)(n) << 40)

/* The one table of configuration keys. Order is the order of the echo and the reference. */
static const struct config_key keys[] = {
    {"seed", KEY_U64, OFF(seed), "42", 0, INT64_MAX, "seed of the random chains"},
    {"watchdog", KEY_DURATION, OFF(watchdog_s), "10min", 0, 0,
     "longest one measurement may take; rank 0 gives up a host silent for twice this"},
    {"report_hosts", KEY_INT, OFF(report_hosts), "16", 0, 1000000,
     "hosts whose matrices the stdout report shows in full; after that only the first host of "
     "each node type, the others one line each (0: all; the file has every host)"},
    {"checkpoints", KEY_BOOL, OFF(checkpoints), "true", 0, 0,
     "each rank keeps its finished rows in OUT.checkpoints/ (numaprobe merge) until the end"},
    {"huge_pages", KEY_THP, OFF(huge_pages), "system", 0, 0,
     "page size of every buffer: system (leave THP alone), on/off (THP madvise), hugetlb "
     "(2 MiB pages from the vm.nr_hugepages pool)"},
    {"latency_matrix.enabled", KEY_BOOL, OFF(latency_matrix.enabled), "true", 0, 0,
     "measure idle latency with a dependent pointer chase"},
    {"latency_matrix.pairs", KEY_PAIRS, OFF(latency_matrix.pairs), "all", 0, 0,
     "all: threads on node i, memory bound to node j, every i and j; local: i = j only"},
    {"latency_matrix.policies", KEY_POLICIES, OFF(latency_matrix.policies),
     "interleave,preferred,first_touch", 0, 0,
     "per CPU node, besides bind: interleave (all nodes), preferred (own node), first_touch"},
    {"latency_matrix.size", KEY_SIZE, OFF(latency_matrix.size_bytes), "1GiB", KIB(4), TIB(64),
     "chase working set per memory node (K/M/G/T or KiB/MiB/GiB/TiB)"},
    {"latency_matrix.tlb_window", KEY_SIZE, OFF(latency_matrix.tlb_window_bytes), "256KiB", 0,
     TIB(64), "chain random within windows of this size, visited in random order (0: whole set)"},
    {"latency_matrix.samples", KEY_INT, OFF(latency_matrix.samples), "21", 3, 100000,
     "timed samples kept per measurement"},
    {"latency_matrix.sample_time", KEY_DURATION, OFF(latency_matrix.sample_s), "10ms", 0, 0,
     "minimum length of one sample (ns/us/ms/s)"},
    {"bandwidth_matrix.enabled", KEY_BOOL, OFF(bandwidth_matrix.enabled), "true", 0, 0,
     "measure multi-threaded read bandwidth"},
    {"bandwidth_matrix.pairs", KEY_PAIRS, OFF(bandwidth_matrix.pairs), "all", 0, 0,
     "all: cores of node i streaming memory of node j, every i and j; local: i = j only"},
    {"bandwidth_matrix.kernels", KEY_KERNELS, OFF(bandwidth_matrix.kernels), "read,triad", 0, 0,
     "kernels measured for every pair"},
    {"bandwidth_matrix.policies", KEY_POLICIES, OFF(bandwidth_matrix.policies), "interleave", 0, 0,
     "per CPU node, besides bind: interleave, preferred, first_touch"},
    {"bandwidth_matrix.size", KEY_SIZE, OFF(bandwidth_matrix.size_bytes), "256MiB", KIB(64),
     TIB(64), "streamed array per memory node"},
    {"bandwidth_matrix.threads", KEY_THREADS, OFF(bandwidth_matrix.threads), "all", 1, 4096,
     "threads per CPU node: all (one per usable core) or a number"},
    {"bandwidth_matrix.repetitions", KEY_INT, OFF(bandwidth_matrix.repetitions), "5", 2, 100000,
     "timed repetitions kept per measurement"},

    {"latency_sweep.enabled", KEY_BOOL, OFF(latency_sweep.enabled), "true", 0, 0,
     "latency against working-set size: the cache hierarchy, one core, its local memory"},
    {"latency_sweep.pairs", KEY_PAIRS, OFF(latency_sweep.pairs), "local", 0, 0,
     "local: the sweep core's own memory; all: also every other node's memory, one curve each "
     "(remote latency by working set)"},
    {"latency_sweep.from", KEY_FROM, OFF(latency_sweep.from), "first", 0, 0,
     "first: a core of the first CPU node sweeps; every: a core of each CPU node in turn (with "
     "pairs: all, the textbook grid of every node pair)"},
    {"latency_sweep.sizes", KEY_SIZES, OFF(latency_sweep.sizes), "auto", KIB(2), TIB(64),
     "working sets: auto (2 KiB to max_size, points below, at and above each cache, and at 4x "
     "each for the random chase, which touches one 64 B line per 256 B) or a list"},
    {"latency_sweep.max_size", KEY_SIZE, OFF(latency_sweep.max_size_bytes), "0", 0, TIB(64),
     "largest auto size; 0 means 4x the last-level cache (at most 1/4 of free memory)"},
    {"latency_sweep.patterns", KEY_PATTERNS, OFF(latency_sweep.patterns),
     "random,stride:64,index_random", 0, 0,
     "random | random_full | stride:BYTES | index_random (independent loads through an index)"},
    {"latency_sweep.tlb_window", KEY_SIZE, OFF(latency_sweep.tlb_window_bytes), "256KiB", 0,
     TIB(64), "window of the random pattern (0: whole set)"},
    {"latency_sweep.samples", KEY_INT, OFF(latency_sweep.samples), "7", 3, 100000,
     "timed samples kept per point"},
    {"latency_sweep.sample_time", KEY_DURATION, OFF(latency_sweep.sample_s), "2ms", 0, 0,
     "minimum length of one sample"},

    {"stride_sweep.enabled", KEY_BOOL, OFF(stride_sweep.enabled), "true", 0, 0,
     "latency of a sequential chase at a fixed working set, stride varied"},
    {"stride_sweep.size", KEY_SIZE, OFF(stride_sweep.size_bytes), "64MiB", KIB(2), TIB(64),
     "working set"},
    {"stride_sweep.strides", KEY_SIZES, OFF(stride_sweep.strides),
     "8,16,32,64,128,256,512,1KiB,2KiB,4KiB", 8, KIB(1024) * 1024, "strides in bytes"},
    {"stride_sweep.samples", KEY_INT, OFF(stride_sweep.samples), "11", 3, 100000,
     "timed samples kept per point"},
    {"stride_sweep.sample_time", KEY_DURATION, OFF(stride_sweep.sample_s), "2ms", 0, 0,
     "minimum length of one sample"},

    {"bandwidth_sweep.enabled", KEY_BOOL, OFF(bandwidth_sweep.enabled), "true", 0, 0,
     "bandwidth against working-set size, per kernel, all cores of the first node"},
    {"bandwidth_sweep.sizes", KEY_SIZES, OFF(bandwidth_sweep.sizes), "auto", KIB(2), TIB(64),
     "bytes per array: auto or a list"},
    {"bandwidth_sweep.max_size", KEY_SIZE, OFF(bandwidth_sweep.max_size_bytes), "0", 0, TIB(64),
     "largest auto size; 0 means 4x the last-level cache"},
    {"bandwidth_sweep.kernels", KEY_KERNELS, OFF(bandwidth_sweep.kernels), "read,copy,triad", 0, 0,
     "read write write_nt copy copy_nt scale add triad read_strided read_random"},
    {"bandwidth_sweep.threads", KEY_THREADS, OFF(bandwidth_sweep.threads), "all", 1, 4096,
     "threads: all (one per usable core) or a number"},
    {"bandwidth_sweep.strides", KEY_SIZES, OFF(bandwidth_sweep.strides), "64B", 8, KIB(1024),
     "strides of read_strided, one curve each (textbook stride 8 and 32 doubles: [64B, 256B])"},
    {"bandwidth_sweep.repetitions", KEY_INT, OFF(bandwidth_sweep.repetitions), "3", 2, 100000,
     "timed samples kept per point"},
    {"bandwidth_sweep.sample_time", KEY_DURATION, OFF(bandwidth_sweep.sample_s), "1ms", 0, 0,
     "a sample repeats the kernel until it lasts this long"},

    {"thread_scaling.enabled", KEY_BOOL, OFF(thread_scaling.enabled), "true", 0, 0,
     "bandwidth with 1 .. all cores of the first node"},
    {"thread_scaling.size", KEY_SIZE, OFF(thread_scaling.size_bytes), "128MiB", KIB(64), TIB(64),
     "bytes per array"},
    {"thread_scaling.kernels", KEY_KERNELS, OFF(thread_scaling.kernels), "read,triad", 0, 0,
     "kernels measured at every thread count"},
    {"thread_scaling.repetitions", KEY_INT, OFF(thread_scaling.repetitions), "3", 2, 100000,
     "timed repetitions kept per point"},

    {"loaded_latency.enabled", KEY_BOOL, OFF(loaded_latency.enabled), "true", 0, 0,
     "latency from one core while the node's other cores load the same memory"},
    {"loaded_latency.pairs", KEY_PAIRS, OFF(loaded_latency.pairs), "local", 0, 0,
     "local: memory of the chasing core's node; all: every node"},
    {"loaded_latency.size", KEY_SIZE, OFF(loaded_latency.size_bytes), "128MiB", KIB(64), TIB(64),
     "the chase's working set"},
    {"loaded_latency.load_size", KEY_SIZE, OFF(loaded_latency.load_size_bytes), "64MiB", KIB(64),
     TIB(64), "buffer streamed by each load thread"},
    {"loaded_latency.threads", KEY_THREADS, OFF(loaded_latency.threads), "all", 1, 4096,
     "load threads: all (every other usable core of the node) or a number"},
    {"loaded_latency.load_writes", KEY_BOOL, OFF(loaded_latency.load_writes), "false", 0, 0,
     "load threads write each line back (read_write) instead of only reading"},
    {"loaded_latency.delays", KEY_COUNTS, OFF(loaded_latency.delays), "0,200,2000,20000", 0,
     100000000, "spin iterations after each 64-byte line of load, one curve point each"},
    {"loaded_latency.samples", KEY_INT, OFF(loaded_latency.samples), "11", 3, 100000,
     "timed chase samples per point"},
    {"loaded_latency.sample_time", KEY_DURATION, OFF(loaded_latency.sample_s), "5ms", 0, 0,
     "minimum length of one sample"},

    {"numa_balancing.enabled", KEY_BOOL, OFF(numa_balancing.enabled), "true", 0, 0,
     "pages first touched on one node, threads moved to another: page distribution and "
     "bandwidth over time, with kernel.numa_balancing off then on (needs root to change it)"},
    {"numa_balancing.size", KEY_SIZE, OFF(numa_balancing.size_bytes), "256MiB", KIB(64), TIB(64),
     "array the moved threads keep reading"},
    {"numa_balancing.interval", KEY_DURATION, OFF(numa_balancing.interval_s), "250ms", 0, 0,
     "time between two samples of the page distribution"},
    {"numa_balancing.duration", KEY_DURATION, OFF(numa_balancing.duration_s), "4s", 0, 0,
     "length of each series (one with balancing off, one on)"},

    {"first_touch.enabled", KEY_BOOL, OFF(first_touch.enabled), "true", 0, 0,
     "where first touch puts pages, and the parallel read bandwidth that follows"},
    {"first_touch.size", KEY_SIZE, OFF(first_touch.size_bytes), "256MiB", KIB(64), TIB(64),
     "array read by every usable core of the host"},
    {"first_touch.modes", KEY_MODES, OFF(first_touch.modes),
     "serial,threaded,mismatched,interleave,bind", 0, 0,
     "serial (one thread on each node in turn writes it all) | threaded (each thread its own "
     "chunk) | mismatched (another thread's chunk) | interleave | bind (each chunk mbind-ed)"},
    {"first_touch.repetitions", KEY_INT, OFF(first_touch.repetitions), "5", 2, 100000,
     "timed repetitions kept per mode"},
    {"memory.dimm_speed", KEY_INT, OFF(dimm_speed_mts), "0", 0, 20000,
     "MT/s of the memory modules for the theoretical peak; 0: as SMBIOS/EDAC report it"},
    {"memory.channels", KEY_INT, OFF(memory_channels), "0", 0, 4096,
     "memory channels of the host for the theoretical peak; 0: one per module found"},
};

#define N_KEYS (sizeof keys / sizeof keys[0])
_Static_assert(N_KEYS <= NPRB_CONFIG_MAX_KEYS, "raise NPRB_CONFIG_MAX_KEYS");

static const struct config_key *find_key(const char *name)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (strcmp(keys[i].key, name) == 0)
            return &keys[i];
    return NULL;
}

static void fmt_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fmt_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static const char *const thp_names[] = {"system", "on", "off", "hugetlb"};

/* Splits a comma list (YAML sequences arrive joined with commas) into trimmed items; calls
 * @p each on every item. Empty items are an error. */
static int for_each_item(const char *text,
                         int (*each)(void *arg, const char *item, char *why, size_t len), void *arg,
                         char *err, size_t errlen)
{
    char buf[1024];
    if (strlen(text) >= sizeof buf) {
        fmt_err(err, errlen, "list too long");
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", text);
    if (strspn(buf, " ") == strlen(buf)) {
        fmt_err(err, errlen, "expected a list, got nothing");
        return -1;
    }
    int n = 0;
    for (char *item = buf, *next; item != NULL; item = next) {
        next = strchr(item, ',');
        if (next != NULL)
            *next++ = '\0';
        while (*item == ' ')
            item++;
        size_t l = strlen(item);
        while (l > 0 && item[l - 1] == ' ')
            item[--l] = '\0';
        if (l == 0) {
            fmt_err(err, errlen, "empty item in list '%s'", text);
            return -1;
        }
        if (each(arg, item, err, errlen) != 0)
            return -1;
        n++;
    }
    if (n == 0) {
        fmt_err(err, errlen, "expected a list, got nothing");
        return -1;
    }
    return 0;
}

struct size_list_arg {
    struct nprb_sizes *list;
    const struct config_key *key;
};

static int add_size(void *arg, const char *item, char *why, size_t len)
{
    struct size_list_arg *a = arg;
    uint64_t bytes;
    char *end;
    if (a->key->kind == KEY_COUNTS) {
        errno = 0;
        bytes = strtoull(item, &end, 10);
        if (*item == '-' || end == item || *end != '\0' || errno != 0) {
            fmt_err(why, len, "expected whole numbers, got '%s'", item);
            return -1;
        }
    } else if (nprb_parse_size(item, &bytes) != 0) {
        if (errno != ERANGE) {
            fmt_err(why, len, "expected sizes like 32KiB, got '%s'", item);
            return -1;
        }
        bytes = UINT64_MAX; /* too large for any size: out of range below */
    }
    if (bytes < (uint64_t)a->key->min || bytes > (uint64_t)a->key->max) {
        char lo[32], hi[32];
        nprb_format_size((uint64_t)a->key->min, lo, sizeof lo);
        nprb_format_size((uint64_t)a->key->max, hi, sizeof hi);
        fmt_err(why, len, "size %s is out of range (%s to %s)", item, lo, hi);
        return -1;
    }
    if (a->list->count == NPRB_MAX_LIST) {
        fmt_err(why, len, "at most %d sizes", NPRB_MAX_LIST);
        return -1;
    }
    a->list->bytes[a->list->count++] = bytes;
    return 0;
}

struct name_list_arg {
    struct nprb_names *list;
    enum key_kind kind;
};

static int add_name(void *arg, const char *item, char *why, size_t len)
{
    struct name_list_arg *a = arg;
    const char *canonical = item;
    struct nprb_pattern pattern;
    if (a->kind == KEY_PATTERNS) {
        if (nprb_pattern_parse(item, &pattern, why, len) != 0)
            return -1;
        canonical = pattern.name;
    } else if (a->kind == KEY_MODES) {
        static const char *const modes[] = {"serial", "threaded", "mismatched", "interleave",
                                            "bind"};
        bool known = false;
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
            known |= strcmp(item, modes[m]) == 0;
        if (!known) {
            fmt_err(why, len,
                    "unknown mode '%s' (expected serial, threaded, mismatched, interleave or "
                    "bind)",
                    item);
            return -1;
        }
    } else if (a->kind == KEY_POLICIES) {
        if (strcmp(item, "interleave") != 0 && strcmp(item, "preferred") != 0 &&
            strcmp(item, "first_touch") != 0) {
            fmt_err(why, len, "unknown policy '%s' (expected interleave, preferred or first_touch)",
                    item);
            return -1;
        }
    } else if (nprb_kernel_find(item) == NULL) {
        fmt_err(why, len,
                "unknown kernel '%s' (expected read, write, write_nt, copy, copy_nt, scale, add, "
                "triad, read_strided or read_random)",
                item);
        return -1;
    }
    if (a->list->count == NPRB_MAX_LIST) {
        fmt_err(why, len, "at most %d entries", NPRB_MAX_LIST);
        return -1;
    }
    snprintf(a->list->name[a->list->count++], NPRB_LIST_NAME_LEN, "%s", canonical);
    return 0;
}

/* Parses @p text for @p key into the config. On failure writes what was expected into err. */
static int assign(struct nprb_config *cfg, const struct config_key *key, const char *text,
                  char *err, size_t errlen)
{
    char *field = (char *)cfg + key->offset;
    switch (key->kind) {
    case KEY_BOOL:
        if (strcasecmp(text, "true") == 0 || strcasecmp(text, "yes") == 0 ||
            strcasecmp(text, "on") == 0) {
            *(bool *)field = true;
            return 0;
        }
        if (strcasecmp(text, "false") == 0 || strcasecmp(text, "no") == 0 ||
            strcasecmp(text, "off") == 0) {
            *(bool *)field = false;
            return 0;
        }
        fmt_err(err, errlen, "expected true or false, got '%s'", text);
        return -1;
    case KEY_INT:
    case KEY_U64:
    case KEY_THREADS: {
        if (key->kind == KEY_THREADS && strcasecmp(text, "all") == 0) {
            *(int *)field = 0;
            return 0;
        }
        char *end;
        errno = 0;
        long long v = strtoll(text, &end, 10);
        if (end == text || *end != '\0' || errno == ERANGE) {
            fmt_err(err, errlen, "expected a whole number%s, got '%s'",
                    key->kind == KEY_THREADS ? " or 'all'" : "", text);
            return -1;
        }
        if (v < key->min || v > key->max) {
            fmt_err(err, errlen, "expected a number from %" PRId64 " to %" PRId64 ", got %lld",
                    key->min, key->max, v);
            return -1;
        }
        if (key->kind == KEY_U64)
            *(uint64_t *)field = (uint64_t)v;
        else
            *(int *)field = (int)v;
        return 0;
    }
    case KEY_SIZE: {
        uint64_t bytes;
        int parsed = nprb_parse_size(text, &bytes);
        if (parsed != 0 && errno != ERANGE) {
            fmt_err(err, errlen, "expected a size like 512MiB or 2G, got '%s'", text);
            return -1;
        }
        if (parsed != 0 || bytes < (uint64_t)key->min || bytes > (uint64_t)key->max) {
            char lo[32], hi[32];
            nprb_format_size((uint64_t)key->min, lo, sizeof lo);
            nprb_format_size((uint64_t)key->max, hi, sizeof hi);
            fmt_err(err, errlen, "size %s is out of range (%s to %s)", text, lo, hi);
            return -1;
        }
        *(uint64_t *)field = bytes;
        return 0;
    }
    case KEY_DURATION: {
        double s;
        if (nprb_parse_duration(text, &s) != 0 || s <= 0 || s > 3600) {
            fmt_err(err, errlen, "expected a duration above 0 and up to 60min like 10ms, got '%s'",
                    text);
            return -1;
        }
        *(double *)field = s;
        return 0;
    }
    case KEY_THP:
        for (size_t i = 0; i < sizeof thp_names / sizeof thp_names[0]; i++) {
            if (strcasecmp(text, thp_names[i]) == 0) {
                *(enum nprb_thp_mode *)field = (enum nprb_thp_mode)i;
                return 0;
            }
        }
        fmt_err(err, errlen, "expected one of system, on, off, hugetlb, got '%s'", text);
        return -1;
    case KEY_SIZES:
    case KEY_COUNTS: {
        struct nprb_sizes *list = (struct nprb_sizes *)field, parsed = {0};
        if (key->kind == KEY_SIZES && strcasecmp(text, "auto") == 0 &&
            strcmp(key->initial, "auto") == 0) {
            *list = parsed;
            return 0;
        }
        struct size_list_arg arg = {&parsed, key};
        if (for_each_item(text, add_size, &arg, err, errlen) != 0)
            return -1;
        *list = parsed;
        return 0;
    }
    case KEY_PAIRS:
        if (strcasecmp(text, "all") == 0 || strcasecmp(text, "local") == 0) {
            *(enum nprb_pairs *)field =
                strcasecmp(text, "all") == 0 ? NPRB_PAIRS_ALL : NPRB_PAIRS_LOCAL;
            return 0;
        }
        fmt_err(err, errlen, "expected all or local, got '%s'", text);
        return -1;
    case KEY_FROM:
        if (strcasecmp(text, "first") == 0 || strcasecmp(text, "every") == 0) {
            *(enum nprb_sweep_from *)field =
                strcasecmp(text, "every") == 0 ? NPRB_SWEEP_FROM_EVERY : NPRB_SWEEP_FROM_FIRST;
            return 0;
        }
        fmt_err(err, errlen, "expected first or every, got '%s'", text);
        return -1;
    case KEY_PATTERNS:
    case KEY_KERNELS:
    case KEY_MODES:
    case KEY_POLICIES: {
        struct nprb_names *list = (struct nprb_names *)field, parsed = {0};
        if (key->kind == KEY_POLICIES && strcasecmp(text, "none") == 0) {
            *list = parsed;
            return 0;
        }
        struct name_list_arg arg = {&parsed, key->kind};
        if (for_each_item(text, add_name, &arg, err, errlen) != 0)
            return -1;
        *list = parsed;
        return 0;
    }
    }
    fmt_err(err, errlen, "internal: key kind not handled");
    return -1;
}

void nprb_config_defaults(struct nprb_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    char err[256];
    for (size_t i = 0; i < N_KEYS; i++)
        (void)assign(cfg, &keys[i], keys[i].initial, err, sizeof err);
}

int nprb_config_set(struct nprb_config *cfg, const char *assignment, char *err, size_t errlen)
{
    const char *eq = strchr(assignment, '=');
    if (eq == NULL || eq == assignment) {
        fmt_err(err, errlen, "--set '%s': expected KEY=VALUE, e.g. bandwidth_matrix.size=256MiB",
                assignment);
        return -1;
    }
    char name[128];
    size_t n = (size_t)(eq - assignment);
    if (n >= sizeof name) {
        fmt_err(err, errlen, "--set: key too long");
        return -1;
    }
    memcpy(name, assignment, n);
    name[n] = '\0';
    const struct config_key *key = find_key(name);
    if (key == NULL) {
        fmt_err(err, errlen, "--set: unknown key '%s' (see numaprobe --config-reference)", name);
        return -1;
    }
    char why[192];
    if (assign(cfg, key, eq + 1, why, sizeof why) != 0) {
        fmt_err(err, errlen, "--set %s: %s", name, why);
        return -1;
    }
    cfg->key_line[key - keys] = NPRB_LINE_SET;
    return 0;
}

const char *nprb_config_origin(const struct nprb_config *cfg, const char *key, char *buf,
                               size_t len)
{
    const struct config_key *k = find_key(key);
    uint32_t line = k != NULL ? cfg->key_line[k - keys] : 0;
    if (line == NPRB_LINE_SET)
        snprintf(buf, len, "--set ");
    else if (line > 0)
        snprintf(buf, len, "%s:%u: ", cfg->source, (unsigned)line);
    else if (len > 0)
        buf[0] = '\0';
    return buf;
}

/* ---- YAML ---------------------------------------------------------------------------------- */

struct yaml_walk {
    struct nprb_config *cfg;
    yaml_document_t *doc;
    const char *path;
    char *err;
    size_t errlen;
};

static int walk_mapping(struct yaml_walk *w, yaml_node_t *map, const char *prefix);

/* True when @p name is a section: some key is "<name>.something". */
static bool is_section(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < N_KEYS; i++)
        if (strncmp(keys[i].key, name, n) == 0 && keys[i].key[n] == '.')
            return true;
    return false;
}

/* Writes every section (experiment) name, in table order, as "a, b, ... or z". */
static void section_list(char *buf, size_t len)
{
    size_t used = 0, count = 0;
    const char *names[N_KEYS];
    for (size_t i = 0; i < N_KEYS; i++) {
        const char *dot = strchr(keys[i].key, '.');
        if (dot == NULL || (count > 0 && strncmp(names[count - 1], keys[i].key,
                                                 (size_t)(dot - keys[i].key) + 1) == 0))
            continue;
        names[count++] = keys[i].key;
    }
    buf[0] = '\0';
    for (size_t i = 0; i < count && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%.*s",
                         i == 0           ? ""
                         : i + 1 == count ? " or "
                                          : ", ",
                         (int)(strchr(names[i], '.') - names[i]), names[i]);
        if (n < 0)
            return;
        used += (size_t)n;
    }
}

/* Says what is wrong with @p name, which is not a key: a misspelt experiment, a section given a
 * value, or an unknown key of a known section. */
static void unknown_name(struct yaml_walk *w, const char *name, size_t line)
{
    char sections[256];
    const char *dot = strchr(name, '.');
    size_t head = dot != NULL ? (size_t)(dot - name) : strlen(name);
    char first[128];
    snprintf(first, sizeof first, "%.*s", (int)head, name);
    if (dot != NULL && !is_section(first)) {
        section_list(sections, sizeof sections);
        fmt_err(w->err, w->errlen, "%s:%zu: %s: unknown experiment '%s' (expected %s)", w->path,
                line, name, first, sections);
    } else if (is_section(name)) {
        fmt_err(w->err, w->errlen,
                "%s:%zu: %s: expected a section of keys (e.g. '%s:' then indented 'enabled: "
                "true'), got a single value",
                w->path, line, name, name);
    } else {
        fmt_err(w->err, w->errlen, "%s:%zu: %s: unknown key (see numaprobe --config-reference)",
                w->path, line, name);
    }
}

static int walk_value(struct yaml_walk *w, const char *name, yaml_node_t *value, size_t line)
{
    const struct config_key *key = find_key(name);
    if (value->type == YAML_MAPPING_NODE) {
        if (key != NULL) {
            fmt_err(w->err, w->errlen, "%s:%zu: %s: expected a single value, got a mapping",
                    w->path, line, name);
            return -1;
        }
        if (strchr(name, '.') == NULL && !is_section(name)) {
            char sections[256];
            section_list(sections, sizeof sections);
            fmt_err(w->err, w->errlen, "%s:%zu: %s: unknown experiment (expected %s)", w->path,
                    line, name, sections);
            return -1;
        }
        if (!is_section(name)) {
            unknown_name(w, name, line);
            return -1;
        }
        return walk_mapping(w, value, name);
    }
    if (key == NULL) {
        /* "latency_matrix:" with nothing under it: an empty section changes nothing. */
        if (is_section(name) && value->type == YAML_SCALAR_NODE && value->data.scalar.length == 0 &&
            value->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
            return 0;
        unknown_name(w, name, line);
        return -1;
    }
    bool is_list = key->kind == KEY_SIZES || key->kind == KEY_COUNTS || key->kind == KEY_PATTERNS ||
                   key->kind == KEY_KERNELS || key->kind == KEY_POLICIES || key->kind == KEY_MODES;
    char joined[1024] = "";
    const char *text = joined;
    if (value->type == YAML_SEQUENCE_NODE && is_list) {
        /* A YAML list means the same as the comma list --set takes. */
        size_t used = 0;
        for (yaml_node_item_t *it = value->data.sequence.items.start;
             it < value->data.sequence.items.top; it++) {
            yaml_node_t *item = yaml_document_get_node(w->doc, *it);
            if (item->type != YAML_SCALAR_NODE) {
                fmt_err(w->err, w->errlen, "%s:%zu: %s: list items must be plain values", w->path,
                        item->start_mark.line + 1, name);
                return -1;
            }
            int n = snprintf(joined + used, sizeof joined - used, "%s%s", used ? "," : "",
                             (const char *)item->data.scalar.value);
            if (n < 0 || (size_t)n >= sizeof joined - used) {
                fmt_err(w->err, w->errlen, "%s:%zu: %s: list too long", w->path, line, name);
                return -1;
            }
            used += (size_t)n;
        }
    } else if (value->type != YAML_SCALAR_NODE) {
        fmt_err(w->err, w->errlen, "%s:%zu: %s: expected a single value, got a list", w->path, line,
                name);
        return -1;
    } else {
        text = (const char *)value->data.scalar.value;
    }
    char why[192];
    if (assign(w->cfg, key, text, why, sizeof why) != 0) {
        fmt_err(w->err, w->errlen, "%s:%zu: %s: %s", w->path, value->start_mark.line + 1, name,
                why);
        return -1;
    }
    w->cfg->key_line[key - keys] = (uint32_t)value->start_mark.line + 1;
    return 0;
}

static int walk_mapping(struct yaml_walk *w, yaml_node_t *map, const char *prefix)
{
    for (yaml_node_pair_t *pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top;
         pair++) {
        yaml_node_t *k = yaml_document_get_node(w->doc, pair->key);
        yaml_node_t *v = yaml_document_get_node(w->doc, pair->value);
        size_t line = k->start_mark.line + 1;
        if (k->type != YAML_SCALAR_NODE) {
            fmt_err(w->err, w->errlen, "%s:%zu: keys must be plain names", w->path, line);
            return -1;
        }
        char name[128];
        int n = snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? "." : "",
                         (const char *)k->data.scalar.value);
        if (n < 0 || (size_t)n >= sizeof name) {
            fmt_err(w->err, w->errlen, "%s:%zu: key too long", w->path, line);
            return -1;
        }
        for (yaml_node_pair_t *before = map->data.mapping.pairs.start; before < pair; before++) {
            yaml_node_t *b = yaml_document_get_node(w->doc, before->key);
            if (b->type == YAML_SCALAR_NODE && strcmp((const char *)b->data.scalar.value,
                                                      (const char *)k->data.scalar.value) == 0) {
                fmt_err(w->err, w->errlen, "%s:%zu: %s: given twice (first on line %zu)", w->path,
                        line, name, b->start_mark.line + 1);
                return -1;
            }
        }
        if (walk_value(w, name, v, line) != 0)
            return -1;
    }
    return 0;
}

int nprb_config_load_text(struct nprb_config *cfg, const char *text, const char *source, char *err,
                          size_t errlen)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    int rc = -1;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    if (!yaml_parser_load(&parser, &doc)) {
        fmt_err(err, errlen, "%s:%zu: YAML syntax error: %s", source, parser.problem_mark.line + 1,
                parser.problem ? parser.problem : "unknown");
        yaml_parser_delete(&parser);
        return -1;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root == NULL) {
        rc = 0; /* an empty file means "all defaults" */
    } else if (root->type != YAML_MAPPING_NODE) {
        fmt_err(err, errlen, "%s:%zu: expected a mapping of keys (key: value) at the top", source,
                root->start_mark.line + 1);
    } else {
        struct yaml_walk w = {cfg, &doc, source, err, errlen};
        snprintf(cfg->source, sizeof cfg->source, "%s", source);
        rc = walk_mapping(&w, root, "");
    }
    yaml_document_delete(&doc);
    /* A second document ("---") would be ignored silently: refuse it. */
    if (rc == 0 && root != NULL) {
        if (!yaml_parser_load(&parser, &doc)) {
            fmt_err(err, errlen, "%s:%zu: YAML syntax error: %s", source,
                    parser.problem_mark.line + 1, parser.problem ? parser.problem : "unknown");
            rc = -1;
        } else {
            yaml_node_t *next = yaml_document_get_root_node(&doc);
            bool empty =
                next == NULL || (next->type == YAML_SCALAR_NODE && next->data.scalar.length == 0);
            if (!empty) {
                fmt_err(err, errlen,
                        "%s:%zu: a second YAML document: a config is one document (no '---')",
                        source, next->start_mark.line + 1);
                rc = -1;
            }
            yaml_document_delete(&doc);
        }
    }
    yaml_parser_delete(&parser);
    return rc;
}

int nprb_config_read_file(const char *path, char **text, char *err, size_t errlen)
{
    /* Nothing but a regular file is opened: opening a FIFO no one writes to blocks forever. A
     * directory opens, and reading it says so (EISDIR). */
    struct stat st;
    const char *kind =
        stat(path, &st) == 0 && !S_ISDIR(st.st_mode) ? nprb_file_kind(st.st_mode) : NULL;
    if (kind != NULL) {
        fmt_err(err, errlen, "cannot read config %s: it is %s, not a regular file", path, kind);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        char hint[1024]; /* a name that is no shipped config: where it was looked for */
        fmt_err(err, errlen, "cannot read config %s: %s%s", path, strerror(errno),
                nprb_config_find_hint(path, hint, sizeof hint));
        return -1;
    }
    char *buf = malloc(NPRB_CONFIG_FILE_MAX + 1);
    errno = 0;
    size_t n = buf != NULL ? fread(buf, 1, NPRB_CONFIG_FILE_MAX + 1, f) : 0;
    int failed = buf == NULL || ferror(f);
    int read_errno = errno;
    fclose(f);
    if (failed || n > NPRB_CONFIG_FILE_MAX) {
        fmt_err(err, errlen, "cannot read config %s: %s", path,
                !failed      ? "larger than 1 MiB"
                : read_errno ? strerror(read_errno)
                             : "read error");
        free(buf);
        return -1;
    }
    buf[n] = '\0';
    if (strlen(buf) != n) {
        fmt_err(err, errlen, "config %s is not a text file (it holds NUL bytes)", path);
        free(buf);
        return -1;
    }
    *text = buf;
    return 0;
}

int nprb_config_load_file(struct nprb_config *cfg, const char *path, char *err, size_t errlen)
{
    char *text;
    if (nprb_config_read_file(path, &text, err, errlen) != 0)
        return -1;
    int rc = nprb_config_load_text(cfg, text, path, err, errlen);
    free(text);
    return rc;
}

/* ---- echo and reference -------------------------------------------------------------------- */

/* Writes @p value (in @p unit_s seconds) with the fewest digits, up to @p max_digits significant
 * ones, that nprb_parse_duration() reads back as exactly @p seconds. @return true on success. */
static bool exact_duration(double seconds, const char *unit, double unit_s, int max_digits,
                           char *buf, size_t len)
{
    for (int digits = 1; digits <= max_digits; digits++) {
        double back;
        snprintf(buf, len, "%.*g%s", digits, seconds / unit_s, unit);
        if (strchr(buf, 'e') == NULL && nprb_parse_duration(buf, &back) == 0 && back == seconds)
            return true;
    }
    return false;
}

/* A duration as people write it (10ms, 4s, 10min), and exact: the echo stored in the results
 * file must load as the very value the run used. Prefers the largest unit that gives a whole
 * number, then the largest that needs at most 6 digits, then any exact form (values below 1ns
 * included). */
static void duration_text(double seconds, char *buf, size_t len)
{
    static const struct {
        const char *name;
        double seconds;
    } units[] = {{"min", 60.0}, {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
    const size_t n = sizeof units / sizeof units[0];
    for (size_t u = 0; u < n; u++)
        if (exact_duration(seconds, units[u].name, units[u].seconds, 17, buf, len) &&
            strchr(buf, '.') == NULL && seconds >= units[u].seconds)
            return;
    for (size_t u = 0; u < n; u++)
        if (seconds >= units[u].seconds &&
            exact_duration(seconds, units[u].name, units[u].seconds, 6, buf, len))
            return;
    for (size_t u = 0; u < n; u++)
        if (seconds >= units[u].seconds &&
            exact_duration(seconds, units[u].name, units[u].seconds, 17, buf, len))
            return;
    snprintf(buf, len, "%.17gs", seconds);
}

static void value_text(const struct nprb_config *cfg, const struct config_key *key, char *buf,
                       size_t len)
{
    const char *field = (const char *)cfg + key->offset;
    switch (key->kind) {
    case KEY_BOOL:
        snprintf(buf, len, "%s", *(const bool *)field ? "true" : "false");
        return;
    case KEY_INT:
        snprintf(buf, len, "%d", *(const int *)field);
        return;
    case KEY_U64:
        snprintf(buf, len, "%" PRIu64, *(const uint64_t *)field);
        return;
    case KEY_THREADS:
        if (*(const int *)field == 0)
            snprintf(buf, len, "all");
        else
            snprintf(buf, len, "%d", *(const int *)field);
        return;
    case KEY_SIZE:
        nprb_format_size(*(const uint64_t *)field, buf, len);
        return;
    case KEY_DURATION:
        duration_text(*(const double *)field, buf, len);
        return;
    case KEY_THP:
        snprintf(buf, len, "%s", thp_names[*(const enum nprb_thp_mode *)field]);
        return;
    case KEY_COUNTS: {
        const struct nprb_sizes *list = (const struct nprb_sizes *)field;
        size_t used = 0;
        for (int i = 0; i < list->count && used + 1 < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%llu%s", i ? ", " : "[",
                                     (unsigned long long)list->bytes[i],
                                     i + 1 == list->count ? "]" : "");
        return;
    }
    case KEY_SIZES: {
        const struct nprb_sizes *list = (const struct nprb_sizes *)field;
        if (list->count == 0) {
            snprintf(buf, len, "auto");
            return;
        }
        size_t used = 0;
        for (int i = 0; i < list->count && used + 1 < len; i++) {
            char one[32];
            nprb_format_size(list->bytes[i], one, sizeof one);
            used += (size_t)snprintf(buf + used, len - used, "%s%s%s", i ? ", " : "[", one,
                                     i + 1 == list->count ? "]" : "");
        }
        return;
    }
    case KEY_PAIRS:
        snprintf(buf, len, "%s",
                 *(const enum nprb_pairs *)field == NPRB_PAIRS_ALL ? "all" : "local");
        return;
    case KEY_FROM:
        snprintf(buf, len, "%s",
                 *(const enum nprb_sweep_from *)field == NPRB_SWEEP_FROM_EVERY ? "every" : "first");
        return;
    case KEY_POLICIES:
        if (((const struct nprb_names *)field)->count == 0) {
            snprintf(buf, len, "none");
            return;
        }
        __attribute__((fallthrough)); /* a list like the others */
    case KEY_MODES:
    case KEY_PATTERNS:
    case KEY_KERNELS: {
        const struct nprb_names *list = (const struct nprb_names *)field;
        size_t used = 0;
        for (int i = 0; i < list->count && used + 1 < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s%s", i ? ", " : "[",
                                     list->name[i], i + 1 == list->count ? "]" : "");
        return;
    }
    }
}

void nprb_config_to_yaml(const struct nprb_config *cfg, char *buf, size_t len)
{
    size_t used = 0;
    char section[64] = "";
    buf[0] = '\0';
    for (size_t i = 0; i < N_KEYS && used < len; i++) {
        const char *dot = strchr(keys[i].key, '.');
        char value[1024];
        value_text(cfg, &keys[i], value, sizeof value);
        int n;
        if (dot == NULL) {
            section[0] = '\0';
            n = snprintf(buf + used, len - used, "%s: %s\n", keys[i].key, value);
        } else {
            size_t slen = (size_t)(dot - keys[i].key);
            if (strlen(section) != slen || strncmp(section, keys[i].key, slen) != 0) {
                snprintf(section, sizeof section, "%.*s", (int)slen, keys[i].key);
                n = snprintf(buf + used, len - used, "%s:\n", section);
                if (n < 0)
                    return;
                used += (size_t)n;
                if (used >= len)
                    return;
            }
            n = snprintf(buf + used, len - used, "  %s: %s\n", dot + 1, value);
        }
        if (n < 0)
            return;
        used += (size_t)n;
    }
}

/* What a key accepts, in words: the reference's "allowed" line. Kinds without bounds say it in
 * fixed words; the others add their key's range. */
static const char *const fixed_allowed[] = {
    [KEY_BOOL] = "true | false (also yes/no, on/off)",
    [KEY_DURATION] = "duration (ns, us, ms, s, min; bare number: s), above 0, up to 60min",
    [KEY_THP] = "system | on | off | hugetlb",
    [KEY_PAIRS] = "all | local",
    [KEY_FROM] = "first | every",
    [KEY_PATTERNS] =
        "list of: random, random_full, index_random, stride:SIZE (multiple of 8B, up to 1GiB)",
    [KEY_POLICIES] = "none | list of: interleave, preferred, first_touch",
    [KEY_MODES] = "list of: serial, threaded, mismatched, interleave, bind",
};

static void allowed_text(const struct config_key *key, char *buf, size_t len)
{
    char lo[32], hi[32];
    nprb_format_size((uint64_t)key->min, lo, sizeof lo);
    nprb_format_size((uint64_t)key->max, hi, sizeof hi);
    bool is_auto = strcmp(key->initial, "auto") == 0;
    size_t used;
    switch (key->kind) {
    case KEY_INT:
    case KEY_U64:
    case KEY_THREADS:
    case KEY_COUNTS:
        snprintf(buf, len, "%s%s, %s%" PRId64 " to %" PRId64,
                 key->kind == KEY_THREADS ? "all | " : "",
                 key->kind == KEY_COUNTS ? "list of whole numbers" : "whole number",
                 key->kind == KEY_COUNTS ? "each " : "", key->min, key->max);
        return;
    case KEY_SIZE:
    case KEY_SIZES:
        snprintf(buf, len, "%s%s (B, K/KiB, M/MiB, G/GiB, T/TiB; all binary), %s%s to %s",
                 is_auto ? "auto | " : "", key->kind == KEY_SIZES ? "list of sizes" : "size",
                 key->kind == KEY_SIZES ? "each " : "", lo, hi);
        return;
    case KEY_KERNELS:
        used = (size_t)snprintf(buf, len, "list of:");
        for (int id = 0; id < NPRB_N_KERNELS && used < len; id++)
            used += (size_t)snprintf(buf + used, len - used, "%s %s", id ? "," : "",
                                     nprb_kernel_get((enum nprb_kernel_id)id)->name);
        return;
    default:
        snprintf(buf, len, "%s", fixed_allowed[key->kind]);
        return;
    }
}

void nprb_config_print_reference(FILE *out)
{
    fprintf(out, "%-32s %-10s %s\n", "KEY", "DEFAULT", "MEANING");
    for (size_t i = 0; i < N_KEYS; i++) {
        char allowed[256];
        allowed_text(&keys[i], allowed, sizeof allowed);
        fprintf(out, "%-32s %-10s %s\n%-43s allowed: %s\n", keys[i].key, keys[i].initial,
                keys[i].help, "", allowed);
    }
}
