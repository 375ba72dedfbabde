/* SPDX-License-Identifier: BSD-3-Clause */
/* The config module's key engine: the table of global keys and the memory.* section, the parser
 * of one value (assign), the defaults and --set. The YAML walk is config_yaml.c; the echo and the
 * reference are config_echo.c; config_keys.h is what the three share. */
#include "config/config.h"

#include "config/config_keys.h"
#include "kernels/stream.h"
#include "kernels/pattern.h"
#include "util/list.h"
#include "util/units.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define OFF(field) offsetof(struct nprb_config, field)

/* The kinds that are their id alone; a kind of names is its table's (KEY_NAME, KEY_NAMES). */
#define KIND(id) [id] = {id, NULL}
const struct key_kind nprb_key_kinds[] = {
    KIND(KIND_BOOL),  KIND(KIND_INT),      KIND(KIND_U64),
    KIND(KIND_SIZE),  KIND(KIND_DURATION), KIND(KIND_THREADS),
    KIND(KIND_SIZES), KIND(KIND_PATTERNS), KIND(KIND_COUNTS),
};
#undef KIND

/* The table of the global keys, which come first in the echo and the reference, in this order.
 * The keys of a section (memory.* below, an experiment's in its own file) follow them. */
const struct config_key nprb_config_keys[] = {
    {"seed", KEY_U64, OFF(seed), "42", 0, INT64_MAX, "seed of the random chains"},
    {"watchdog", KEY_DURATION, OFF(watchdog_s), "10min", 0, 0,
     "longest one measurement may take; rank 0 gives up a host silent for twice this"},
    {"report_hosts", KEY_INT, OFF(report_hosts), "16", 0, 1000000,
     "hosts whose matrices the stdout report shows in full; after that only the first host of "
     "each node type, the others one line each (0: all; the file has every host)"},
    {"checkpoints", KEY_BOOL, OFF(checkpoints), "true", 0, 0,
     "each rank keeps its finished rows in OUT.checkpoints/ (numaprobe merge) until the end"},
    {"huge_pages", KEY_NAME(nprb_thp_names), OFF(huge_pages), "system", 0, 0,
     "page size of every buffer: system (leave THP alone), on/off (THP madvise), hugetlb "
     "(2 MiB pages from the vm.nr_hugepages pool)"},
    {"time_budget", KEY_DURATION, OFF(time_budget_s), "0", 0, INT64_C(7) * 24 * 3600,
     "fit the run into this long on each host (0: no budget): the plan drops sweep points, "
     "then sweeps, then per-node experiments, then repetitions, later passes and the matrices' "
     "extra cells, never a node's idle latency, local bandwidth or latency matrix cell; too "
     "short for those is a config error; --dry-run lists what went"},
};

#define MEMORY(field) offsetof(struct nprb_memory_config, field)
static const struct config_key memory_keys[] = {
    {"dimm_speed", KEY_INT, MEMORY(dimm_speed_mts), "0", 0, 20000,
     "MT/s of the memory modules for the theoretical peak; 0: as SMBIOS/EDAC report it"},
    {"channels", KEY_INT, MEMORY(channels), "0", 0, 4096,
     "memory channels of the host for the theoretical peak; 0: one per module found"},
};
const struct nprb_config_section nprb_config_memory = {"memory", memory_keys,
                                                       sizeof memory_keys / sizeof memory_keys[0],
                                                       sizeof(struct nprb_memory_config)};

#define COUNTERS(field) offsetof(struct nprb_counters_config, field)
static const struct config_key counters_keys[] = {
    {"enabled", KEY_BOOL, COUNTERS(enabled), "true", 0, 0,
     "count beside every measurement (/counters), outside its timed samples"},
    {"groups", KEY_NAMES(nprb_counter_group_names), COUNTERS(groups), "software,core,uncore,vmstat",
     0, 0,
     "software: task-clock, page faults, migrations, context switches; core: cycles, "
     "instructions, LLC and dTLB misses (a CPU PMU); uncore: memory-controller bytes (root or "
     "CAP_PERFMON); vmstat: /proc/vmstat deltas"},
};
const struct nprb_config_section nprb_config_counters = {
    "counters", counters_keys, sizeof counters_keys / sizeof counters_keys[0],
    sizeof(struct nprb_counters_config)};

/* The config's own enums of names; case is ignored, as it always was for these two. */
static const char *const pairs_names[] = {[NPRB_PAIRS_ALL] = "all", [NPRB_PAIRS_LOCAL] = "local"};
static const char *const from_names[] = {
    [NPRB_SWEEP_FROM_FIRST] = "first", [NPRB_SWEEP_FROM_EVERY] = "every"};
const struct nprb_name_table nprb_pairs_names = {
    .rows = pairs_names,
    .stride = sizeof pairs_names[0],
    .count = sizeof pairs_names / sizeof pairs_names[0],
    .allowed = NPRB_NAMES_ALL,
    .ignore_case = true,
};
const struct nprb_name_table nprb_sweep_from_names = {
    .rows = from_names,
    .stride = sizeof from_names[0],
    .count = sizeof from_names / sizeof from_names[0],
    .allowed = NPRB_NAMES_ALL,
    .ignore_case = true,
};

unsigned nprb_config_counter_groups(const struct nprb_config *cfg)
{
    const struct nprb_counters_config *c = nprb_config_section(cfg, &nprb_config_counters);
    unsigned groups = 0;
    for (int i = 0; c != NULL && c->enabled && i < c->groups.count; i++)
        groups |= NPRB_COUNTER_GROUP_BIT(c->groups.group[i]);
    return groups;
}

#define N_KEYS (sizeof nprb_config_keys / sizeof nprb_config_keys[0])
const size_t nprb_config_key_count = N_KEYS;
_Static_assert(N_KEYS <= NPRB_CONFIG_MAX_KEYS, "raise NPRB_CONFIG_MAX_KEYS");

void nprb_config_fmt_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Splits a comma list (YAML sequences arrive joined with commas) into trimmed items; calls
 * @p each on every item. Empty items are an error. */
static int for_each_item(const char *text,
                         int (*each)(void *arg, const char *item, char *why, size_t len), void *arg,
                         char *err, size_t errlen)
{
    if (strspn(text, " ") == strlen(text)) {
        nprb_config_fmt_err(err, errlen, "expected a list, got nothing");
        return -1;
    }
    int n = 0;
    const char *item;
    size_t l;
    for (const char *cursor = text; nprb_list_next(&cursor, &item, &l);) {
        char one[256];
        if (l == 0) {
            nprb_config_fmt_err(err, errlen, "empty item in list '%s'", text);
            return -1;
        }
        if (l >= sizeof one) {
            nprb_config_fmt_err(err, errlen, "list item '%.32s...' too long", item);
            return -1;
        }
        memcpy(one, item, l);
        one[l] = '\0';
        if (each(arg, one, err, errlen) != 0)
            return -1;
        n++;
    }
    if (n == 0) {
        nprb_config_fmt_err(err, errlen, "expected a list, got nothing");
        return -1;
    }
    return 0;
}

/* One rule for every list: an item given twice is refused, never measured twice nor dropped
 * without a word (a repeated chain count or kernel would cost a run its time for nothing, and
 * a quiet drop would hide a typo). Items are compared as parsed: 4KiB and 4096 are one size. */
static int repeated(const char *item, char *why, size_t len)
{
    nprb_config_fmt_err(why, len, "'%s' repeats an earlier item of the list (each item once)",
                        item);
    return -1;
}

struct size_list_arg {
    struct nprb_sizes *list;
    const struct config_key *key;
};

static int add_size(void *arg, const char *item, char *why, size_t len)
{
    struct size_list_arg *a = arg;
    uint64_t bytes;
    if (a->key->kind->id == KIND_COUNTS) {
        int64_t count;
        if (nprb_parse_integer(item, &count) != 0 || count < 0) {
            nprb_config_fmt_err(why, len, "expected whole numbers, got '%s'", item);
            return -1;
        }
        bytes = (uint64_t)count;
    } else if (nprb_parse_size(item, &bytes) != 0) {
        if (errno != ERANGE) {
            nprb_config_fmt_err(why, len, "expected sizes like 32KiB, got '%s'", item);
            return -1;
        }
        bytes = UINT64_MAX; /* too large for any size: out of range below */
    }
    if (a->key->kind->id == KIND_COUNTS &&
        (bytes < (uint64_t)a->key->min || bytes > (uint64_t)a->key->max)) {
        nprb_config_fmt_err(why, len, "%s is out of range (%lld to %lld)", item,
                            (long long)a->key->min, (long long)a->key->max);
        return -1;
    }
    if (bytes < (uint64_t)a->key->min || bytes > (uint64_t)a->key->max) {
        char lo[32], hi[32];
        nprb_format_size((uint64_t)a->key->min, lo, sizeof lo);
        nprb_format_size((uint64_t)a->key->max, hi, sizeof hi);
        nprb_config_fmt_err(why, len, "size %s is out of range (%s to %s)", item, lo, hi);
        return -1;
    }
    for (int k = 0; k < a->list->count; k++)
        if (a->list->bytes[k] == bytes)
            return repeated(item, why, len);
    if (a->list->count == NPRB_MAX_LIST) {
        nprb_config_fmt_err(why, len, "at most %d %s", NPRB_MAX_LIST,
                            a->key->kind->id == KIND_COUNTS ? "numbers" : "sizes");
        return -1;
    }
    a->list->bytes[a->list->count++] = bytes;
    return 0;
}

/* A list of latency patterns: each by its canonical spelling, which holds its stride or chain
 * count, so stride:64 and stride:64B are one pattern. */
static int add_pattern(void *arg, const char *item, char *why, size_t len)
{
    struct nprb_pattern_list *l = arg;
    struct nprb_pattern p;
    if (nprb_pattern_parse(item, &p, why, len) != 0)
        return -1;
    for (int k = 0; k < l->count; k++)
        if (strcmp(l->item[k].name, p.name) == 0)
            return repeated(item, why, len);
    if (l->count == NPRB_MAX_LIST) {
        nprb_config_fmt_err(why, len, "at most %d entries", NPRB_MAX_LIST);
        return -1;
    }
    l->item[l->count++] = p;
    return 0;
}

struct name_list_arg {
    struct nprb_name_list *list;
    const struct nprb_name_table *names;
};

/* A list of names of one table (KEY_NAMES()), each parsed by the table into its enum's value. */
static int add_name(void *arg, const char *item, char *why, size_t len)
{
    struct name_list_arg *a = arg;
    int value;
    if (nprb_name_parse(a->names, item, &value, why, len) != 0)
        return -1;
    for (int k = 0; k < a->list->count; k++)
        if (a->list->value[k] == value)
            return repeated(item, why, len);
    if (a->list->count == NPRB_MAX_LIST) {
        nprb_config_fmt_err(why, len, "at most %d entries", NPRB_MAX_LIST);
        return -1;
    }
    a->list->value[a->list->count++] = value;
    return 0;
}

/* Parses @p text for key @p i into the config. On failure writes what was expected into err. */
int nprb_config_key_assign(struct nprb_config *cfg, size_t i, const char *text, char *err,
                           size_t errlen)
{
    char name[128];
    const struct config_key *key = nprb_config_key_at(cfg, i, name, sizeof name);
    char *field = nprb_config_key_field(cfg, i);
    switch (key->kind->id) {
    case KIND_BOOL:
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
        nprb_config_fmt_err(err, errlen, "expected true or false, got '%s'", text);
        return -1;
    case KIND_INT:
    case KIND_U64:
    case KIND_THREADS: {
        if (key->kind->id == KIND_THREADS && strcasecmp(text, "all") == 0) {
            *(int *)field = 0;
            return 0;
        }
        int64_t v;
        if (nprb_parse_integer(text, &v) != 0) {
            nprb_config_fmt_err(err, errlen, "expected a whole number%s, got '%s'",
                                key->kind->id == KIND_THREADS ? " or 'all'" : "", text);
            return -1;
        }
        if (v < key->min || v > key->max) {
            nprb_config_fmt_err(err, errlen,
                                "expected a number from %" PRId64 " to %" PRId64 ", got %" PRId64,
                                key->min, key->max, v);
            return -1;
        }
        if (key->kind->id == KIND_U64)
            *(uint64_t *)field = (uint64_t)v;
        else
            *(int *)field = (int)v;
        return 0;
    }
    case KIND_SIZE: {
        uint64_t bytes;
        int parsed = nprb_parse_size(text, &bytes);
        if (parsed != 0 && errno != ERANGE) {
            nprb_config_fmt_err(err, errlen, "expected a size like 512MiB or 2G, got '%s'", text);
            return -1;
        }
        if (parsed != 0 || bytes < (uint64_t)key->min || bytes > (uint64_t)key->max) {
            char lo[32], hi[32];
            nprb_format_size((uint64_t)key->min, lo, sizeof lo);
            nprb_format_size((uint64_t)key->max, hi, sizeof hi);
            nprb_config_fmt_err(err, errlen, "size %s is out of range (%s to %s)", text, lo, hi);
            return -1;
        }
        *(uint64_t *)field = bytes;
        return 0;
    }
    case KIND_DURATION: {
        double s;
        /* From 1ns, the clock's unit: below it a duration means nothing to a timer, and every
         * value in range has an exact decimal echo that loads again (config_echo.c). */
        bool own = key->max > 0; /* a run's length (time_budget), not a measurement's */
        double lo = own ? (double)key->min : NPRB_DURATION_MIN_S;
        double hi = own ? (double)key->max : NPRB_DURATION_MAX_S;
        /* A run's length is 0 (none) or from 1ns too: a shorter one would echo as 0. */
        if (nprb_parse_duration(text, &s) != 0 || s < lo || s > hi ||
            (own && s > 0 && s < NPRB_DURATION_MIN_S)) {
            if (own)
                nprb_config_fmt_err(err, errlen,
                                    "expected 0 or a duration from 1ns to %gh like 30min, got '%s'",
                                    hi / 3600, text);
            else
                nprb_config_fmt_err(
                    err, errlen, "expected a duration from 1ns to 60min like 10ms, got '%s'", text);
            return -1;
        }
        *(double *)field = s;
        return 0;
    }
    case KIND_NAME: {
        int value;
        if (nprb_name_parse(key->kind->names, text, &value, err, errlen) != 0)
            return -1;
        memcpy(field, &value, sizeof value); /* an int-sized enum (config.h) */
        return 0;
    }
    case KIND_SIZES:
    case KIND_COUNTS: {
        struct nprb_sizes *list = (struct nprb_sizes *)field, parsed = {0};
        if (key->kind->id == KIND_SIZES && strcasecmp(text, "auto") == 0 &&
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
    case KIND_PATTERNS: {
        /* Parsed into a copy, which replaces the list only when whole. */
        struct nprb_pattern_list parsed = {0};
        if (for_each_item(text, add_pattern, &parsed, err, errlen) != 0)
            return -1;
        memcpy(field, &parsed, sizeof parsed);
        return 0;
    }
    case KIND_NAMES: {
        struct nprb_name_list parsed = {0};
        if (key->min == 0 && strcasecmp(text, "none") == 0) {
            memcpy(field, &parsed, sizeof parsed);
            return 0;
        }
        struct name_list_arg arg = {&parsed, key->kind->names};
        if (for_each_item(text, add_name, &arg, err, errlen) != 0)
            return -1;
        if (parsed.count < key->min) {
            nprb_config_fmt_err(err, errlen, "expected at least %lld names, got %d",
                                (long long)key->min, parsed.count);
            return -1;
        }
        memcpy(field, &parsed, sizeof parsed);
        return 0;
    }
    }
    nprb_config_fmt_err(err, errlen, "internal: key kind not handled");
    return -1;
}

bool nprb_config_key_is_list(const struct config_key *key)
{
    return key->kind->id == KIND_SIZES || key->kind->id == KIND_COUNTS ||
           key->kind->id == KIND_PATTERNS || key->kind->id == KIND_NAMES;
}

/* Config text reaches messages as given: a key quoted in YAML ("\e[2J": 1) or a --set line may
 * hold escape sequences and line breaks that would act on the user's terminal or split one error
 * into several lines of a log. */
void nprb_config_escape(char *msg, size_t len)
{
    if (len == 0)
        return;
    char out[1024];
    size_t used = 0;
    for (const unsigned char *p = (const unsigned char *)msg; *p != '\0' && used + 1 < sizeof out;
         p++) {
        char one[8];
        if (*p == '\n' || *p == '\r' || *p == '\t')
            snprintf(one, sizeof one, "\\%c", *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't');
        else if (*p < 0x20 || *p == 0x7f)
            snprintf(one, sizeof one, "\\x%02x", *p);
        else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
            snprintf(one, sizeof one, "\\u00%02x", *++p);
        else
            snprintf(one, sizeof one, "%c", *p);
        size_t n = strlen(one);
        if (used + n >= sizeof out)
            break;
        memcpy(out + used, one, n);
        used += n;
    }
    out[used] = '\0';
    snprintf(msg, len, "%s", out);
}

void nprb_config_defaults(struct nprb_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    char err[256];
    for (size_t i = 0; i < N_KEYS; i++)
        (void)nprb_config_key_assign(cfg, i, nprb_config_keys[i].initial, err, sizeof err);
}

int nprb_config_set(struct nprb_config *cfg, const char *assignment, char *err, size_t errlen)
{
    const char *eq = strchr(assignment, '=');
    if (eq == NULL || eq == assignment) {
        nprb_config_fmt_err(err, errlen,
                            "--set '%s': expected KEY=VALUE, e.g. bandwidth_matrix.size=256MiB",
                            assignment);
        nprb_config_escape(err, errlen);
        return -1;
    }
    char name[128];
    size_t n = (size_t)(eq - assignment);
    if (n >= sizeof name) {
        nprb_config_fmt_err(err, errlen,
                            "--set: a key of %zu characters is too long (keys are at most %zu)", n,
                            sizeof name - 1);
        nprb_config_escape(err, errlen);
        return -1;
    }
    memcpy(name, assignment, n);
    name[n] = '\0';
    long key = nprb_config_key_index(cfg, name);
    if (key < 0) {
        nprb_config_fmt_err(err, errlen,
                            "--set: unknown key '%s' (see numaprobe --config-reference)", name);
        nprb_config_escape(err, errlen);
        return -1;
    }
    char why[192];
    if (nprb_config_key_assign(cfg, (size_t)key, eq + 1, why, sizeof why) != 0) {
        nprb_config_fmt_err(err, errlen, "--set %s: %s", name, why);
        nprb_config_escape(err, errlen);
        return -1;
    }
    cfg->key_line[key] = NPRB_LINE_SET;
    return 0;
}

int nprb_config_set_option(struct nprb_config *cfg, const char *option, const char *key,
                           const char *value, char *err, size_t errlen)
{
    long i = nprb_config_key_index(cfg, key);
    char why[192];
    if (i < 0 || nprb_config_key_assign(cfg, (size_t)i, value, why, sizeof why) != 0) {
        nprb_config_fmt_err(err, errlen, "%s '%s': %s", option, value, i < 0 ? "no such key" : why);
        nprb_config_escape(err, errlen);
        return -1;
    }
    cfg->key_line[i] = NPRB_LINE_SET;
    return 0;
}

const char *nprb_config_origin(const struct nprb_config *cfg, const char *key, char *buf,
                               size_t len)
{
    long k = nprb_config_key_index(cfg, key);
    uint32_t line = k >= 0 ? cfg->key_line[k] : 0;
    if (line == NPRB_LINE_SET)
        snprintf(buf, len, "--set ");
    else if (line > 0)
        snprintf(buf, len, "%s:%u: ", cfg->source, (unsigned)line);
    else if (len > 0)
        buf[0] = '\0';
    return buf;
}
